"""A seat given up in a quick-play table's rematch goes to the quick-play pool (docs/quickplay.md
"Rematch"): the longest-waiting person of the same pool who fits everyone staying takes it;
nobody fitting, or any other table, gives the seat a house AI as before."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine.registry import find_game
from games.models import ChatMessage, Game, Seat, Table
from games.quickplay import services as quickplay
from games.quickplay.models import PersonRating, PoolEntry, QuickPlaySeat
from tests.factories import UserFactory
from tests.games.live import started_table
from tests.scheduler import FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")


def play_out(table: Table) -> None:
    """Play the running game to its end: every person plays the house AI's choice."""
    for _ in range(500):
        game = Game.objects.filter(table=table).order_by("-number")[0]
        if game.status != Game.Status.RUNNING:
            return
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        row = Seat.objects.select_related("user").get(table=table, index=seat)
        move = {k: v for k, v in ENGINE.house_action(state, seat, "medium").items() if k != "seat"}
        services.game_play(table_id=table.pk, user=row.user, version=game.version, action=move)
    raise AssertionError("the game did not end")


def quickplay_session_over(clock: FrozenClock) -> tuple[Table, list[Any]]:
    """Four people paired by the pool, their first game played out and the session ended."""
    people = [UserFactory.create() for _ in range(4)]
    for i, person in enumerate(people):
        quickplay.pool_join(user=person, game="tienlen", seats=4, address=f"10.0.1.{i + 1}")
    table = Table.objects.get(options__quickplay=True)
    seated = {s.user_id: s.index for s in table.seats.all()}
    people.sort(key=lambda p: seated[p.pk])  # people[i] sits at seat i
    addresses = dict(QuickPlaySeat.objects.filter(table=table).values_list("user_id", "address"))
    assert [addresses[p.pk] for p in people] == [f"10.0.1.{i + 1}" for i in range(4)]
    play_out(table)
    services.table_end(table_id=table.pk, user=table.owner)
    table.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    return table, people


def rematch_with_seat_1_declining(table: Table, people: list[Any]) -> None:
    services.rematch_offer(table_id=table.pk, user=people[0])
    services.rematch_answer(table_id=table.pk, user=people[1], accept=False)
    for person in people[2:]:
        services.rematch_answer(table_id=table.pk, user=person, accept=True)


def test_the_longest_waiting_person_of_the_pool_takes_the_declined_seat(
    clock: FrozenClock,
) -> None:
    table, people = quickplay_session_over(clock)
    first, second = UserFactory.create(), UserFactory.create()
    quickplay.pool_join(user=first, game="tienlen", seats=4, address="10.0.9.1")
    clock.advance(1)
    quickplay.pool_join(user=second, game="tienlen", seats=4, address="10.0.9.2")
    clock.advance(9)  # the allowed gap grows with waiting: one rated game moved the four
    rematch_with_seat_1_declining(table, people)

    table.refresh_from_db()
    seats = list(table.seats.order_by("index"))
    assert [(s.kind, s.user_id) for s in seats] == [
        ("human", people[0].pk),
        ("human", first.pk),
        ("human", people[2].pk),
        ("human", people[3].pk),
    ]
    assert seats[1].ready
    assert table.status in (Table.Status.READY, Table.Status.IN_PROGRESS)  # counting down
    assert not PoolEntry.objects.filter(user=first).exists()
    assert PoolEntry.objects.filter(user=second).exists()  # still waiting
    assert QuickPlaySeat.objects.get(table=table, user=first).address == "10.0.9.1"
    assert quickplay.pool_status(user=first)["state"] == "seated"
    assert "seat_filled" in ChatMessage.objects.filter(table=table).values_list("code", flat=True)


def test_nobody_who_fits_leaves_the_seat_to_a_house_ai(clock: FrozenClock) -> None:
    table, people = quickplay_session_over(clock)
    far, same_address = UserFactory.create(), UserFactory.create()
    PersonRating.objects.create(user=far, game="tienlen", mu=45.0, sigma=2.0, ordinal=39.0)
    quickplay.pool_join(user=far, game="tienlen", seats=4, address="10.0.9.1")
    # the address of a person staying at the table (fair seating)
    quickplay.pool_join(user=same_address, game="tienlen", seats=4, address="10.0.1.3")
    clock.advance(9)  # a gap of 7.5: far (45) is still out of reach of everyone staying
    rematch_with_seat_1_declining(table, people)

    seat = Seat.objects.get(table=table, index=1)
    assert (seat.kind, seat.user_id) == ("house", None)
    assert set(PoolEntry.objects.values_list("user_id", flat=True)) == {far.pk, same_address.pk}


def test_a_person_from_the_same_address_as_one_staying_is_passed_over(
    clock: FrozenClock,
) -> None:
    table, people = quickplay_session_over(clock)
    twin, other = UserFactory.create(), UserFactory.create()
    quickplay.pool_join(user=twin, game="tienlen", seats=4, address="10.0.1.3")
    clock.advance(1)
    quickplay.pool_join(user=other, game="tienlen", seats=4, address="10.0.9.9")
    clock.advance(9)
    rematch_with_seat_1_declining(table, people)

    assert Seat.objects.get(table=table, index=1).user_id == other.pk
    assert PoolEntry.objects.filter(user=twin).exists()


def test_a_table_that_is_not_quick_play_gives_the_seat_a_house_ai(clock: FrozenClock) -> None:
    table, users, _game = started_table(turn_seconds=60)
    play_out(table)
    services.table_end(table_id=table.pk, user=users[0])
    waiting = UserFactory.create()
    quickplay.pool_join(user=waiting, game="tienlen", seats=4, address="10.0.9.1")
    rematch_with_seat_1_declining(table, users)

    seat = Seat.objects.get(table=table, index=1)
    assert (seat.kind, seat.user_id) == ("house", None)
    assert PoolEntry.objects.filter(user=waiting).exists()


def test_only_the_people_staying_count_not_those_leaving_too(clock: FrozenClock) -> None:
    """Seats 1 and 2 decline: a person sharing the address of seat 2's (who leaves as well)
    may take seat 1; the second seat, with nobody else waiting, gets a house AI."""
    table, people = quickplay_session_over(clock)
    same_as_leaver = UserFactory.create()
    quickplay.pool_join(user=same_as_leaver, game="tienlen", seats=4, address="10.0.1.3")
    clock.advance(9)
    services.rematch_offer(table_id=table.pk, user=people[0])
    services.rematch_answer(table_id=table.pk, user=people[1], accept=False)
    services.rematch_answer(table_id=table.pk, user=people[2], accept=False)
    services.rematch_answer(table_id=table.pk, user=people[3], accept=True)

    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert [(s.kind, s.user_id) for s in seats] == [
        ("human", people[0].pk),
        ("human", same_as_leaver.pk),
        ("house", None),
        ("human", people[3].pk),
    ]
