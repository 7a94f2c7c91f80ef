"""Rematch (issue #29, docs/protocol.md "Rematch"): after a session, one click offers the same
people a new session at the same table; it starts when all have answered and one accepted; the
seats of those who declined (or let the deadline pass) get a house AI; game numbers go on at
the table while each session counts its own games; refusals change nothing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse

from games import history, selectors, services
from games.engine.registry import find_game
from games.models import ChatMessage, Game, Mode, Seat, Table
from games.services import rematch
from tests.factories import UserFactory
from tests.games.live import four_player_table, started_table
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")


def latest(table: Table) -> Game:
    return Game.objects.filter(table=table).order_by("-number")[0]


def play_out(table: Table) -> Game:
    """Play the running game to its end: every person plays the house AI's choice."""
    for _ in range(500):
        game = latest(table)
        if game.status != Game.Status.RUNNING:
            return game
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        row = Seat.objects.select_related("user").get(table=table, index=seat)
        assert row.kind == Seat.Kind.HUMAN, "the house should have played"
        assert not row.auto, "the house should have played"
        move = {k: v for k, v in ENGINE.house_action(state, seat, "medium").items() if k != "seat"}
        services.game_play(table_id=table.pk, user=row.user, version=game.version, action=move)
    raise AssertionError("the game did not end")


def session_over(**options: Any) -> tuple[Table, list[Any]]:
    """A four-person table whose session is over: game 1 played out, then the host ended it."""
    table, users, _game = started_table(turn_seconds=60, **options)
    play_out(table)
    services.table_end(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    return table, users


def offer_of(table: Table) -> dict[str, Any]:
    table.refresh_from_db()
    assert isinstance(table.rematch, dict)
    return table.rematch


def codes(table: Table) -> list[str | None]:
    return list(
        ChatMessage.objects.filter(table=table).order_by("pk").values_list("code", flat=True)
    )


def refused(code: str, fn: Any, **kwargs: Any) -> None:
    with pytest.raises(services.TableError) as exc:
        fn(**kwargs)
    assert exc.value.code == code


def test_all_accept_a_new_session_starts_at_the_same_table(clock: FrozenClock) -> None:
    table, users = session_over()
    old_session = table.session
    offer = services.rematch_offer(table_id=table.pk, user=users[2])
    assert offer["by"] == 2
    assert offer["people"] == [0, 1, 2, 3]
    assert offer["answers"] == {"2": True}
    assert offer["deadline"] == pytest.approx(clock.now + services.rematch_seconds())
    table.refresh_from_db()
    assert table.rematch is not None
    assert table.status == Table.Status.COMPLETED
    for user in (users[0], users[1]):
        services.rematch_answer(table_id=table.pk, user=user, accept=True)
    assert Game.objects.filter(table=table).count() == 1  # one answer still missing
    services.rematch_answer(table_id=table.pk, user=users[3], accept=True)
    table.refresh_from_db()
    # same code, same seats and options; a fresh session whose first game is the table's 2nd
    assert table.rematch is None
    assert table.status == Table.Status.IN_PROGRESS
    assert table.session_first_game == 2
    assert [s.user_id for s in table.seats.order_by("index")] == [u.pk for u in users]
    game = latest(table)
    assert (game.number, game.position, game.status) == (2, 1, Game.Status.RUNNING)
    assert table.session is not None
    assert table.session != old_session
    assert ENGINE.session_summary(table.session)["played"] == 0
    assert "rematch_offered" in codes(table)
    assert "rematch_started" in codes(table)
    snap = selectors.table_snapshot(table_id=table.pk, user=users[1])
    assert snap["game"]["number"] == 2
    assert snap["game"]["position"] == 1
    assert snap["rematch"] is None
    # the second session plays on and is scored on its own
    play_out(table)
    table.refresh_from_db()
    assert ENGINE.session_summary(table.session)["played"] == 1


def test_game_pages_replays_exports_and_scores_of_both_sessions(clock: FrozenClock) -> None:
    table, users = session_over()
    services.rematch_offer(table_id=table.pk, user=users[0])
    for user in users[1:]:
        services.rematch_answer(table_id=table.pk, user=user, accept=True)
    second = play_out(table)
    table.refresh_from_db()
    first = Game.objects.get(table=table, number=1)
    first_meta, second_meta = history.game_meta(first), history.game_meta(second)
    assert (first_meta["number"], first_meta["position"]) == (1, 1)
    assert (second_meta["number"], second_meta["position"]) == (2, 1)
    client = Client()
    client.force_login(users[1])
    for game in (first, second):
        page = client.get(reverse("tables:game", args=[table.code, game.number]))
        assert page.status_code == 200
        assert "game 1 of 16" in page.content.decode()
        replay = client.get(reverse("tables:replay", args=[table.code, game.number]))
        assert replay.status_code == 200
        exported = client.get(reverse("tables:export", args=[table.code, game.number]))
        assert exported.status_code == 200
        assert exported.json()["number"] == 1  # n of N in its own session
        assert exported.json()["seed"] == game.seed
    context = history.session_context(table=table)
    assert context["played"] == 1  # the current session's games only
    listing = client.get(reverse("tables:history_table", args=[table.code])).content.decode()
    for game in (first, second):
        assert reverse("tables:game", args=[table.code, game.number]) in listing


def test_a_decline_and_a_silence_become_house_ais(clock: FrozenClock) -> None:
    table, users = session_over()
    services.rematch_offer(table_id=table.pk, user=users[1])
    services.rematch_answer(table_id=table.pk, user=users[0], accept=False)  # the host
    services.rematch_answer(table_id=table.pk, user=users[2], accept=True)
    clock.advance(services.rematch_seconds() - 5)
    SCHEDULER.run_due()
    table.refresh_from_db()
    assert table.rematch is not None  # not yet due: seat 3 may still answer
    clock.advance(10)
    SCHEDULER.run_due()  # the deadline: seat 3 said nothing
    table.refresh_from_db()
    seats = list(table.seats.order_by("index"))
    assert [s.kind for s in seats] == ["house", "human", "human", "house"]
    assert seats[0].house_level == seats[3].house_level == "medium"
    assert table.owner_id == users[1].pk  # the host declined: the first who accepted hosts
    assert table.rematch is None
    assert table.session_first_game == 2
    game = latest(table)
    assert (game.number, game.position) == (2, 1)
    assert [p["kind"] for p in game.players] == ["house", "human", "human", "house"]
    assert "host_changed" in codes(table)


def test_the_house_level_follows_the_tables_house_ais(clock: FrozenClock) -> None:
    table, users = four_player_table()
    for index in (2, 3):
        services.seat_kick(table_id=table.pk, user=users[0], seat=index)
        services.seat_add_bot(table_id=table.pk, user=users[0], seat=index, level="hard")
    services.table_start(table_id=table.pk, user=users[0])
    play_out(table)  # the house AIs play themselves (the tests' bot delay is 0)
    services.table_end(table_id=table.pk, user=users[0])
    services.rematch_offer(table_id=table.pk, user=users[0])
    services.rematch_answer(table_id=table.pk, user=users[1], accept=False)
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.kind, seat.house_level) == (Seat.Kind.HOUSE, "hard")
    assert latest(table).number == 2


def test_one_acceptance_is_enough(clock: FrozenClock) -> None:
    table, users = session_over()
    services.rematch_offer(table_id=table.pk, user=users[0])
    for user in users[1:]:
        services.rematch_answer(table_id=table.pk, user=user, accept=False)
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS
    assert [s.kind for s in table.seats.order_by("index")] == ["human", "house", "house", "house"]
    assert latest(table).number == 2


def test_an_offer_nobody_accepts_lapses_and_changes_nothing(clock: FrozenClock) -> None:
    table, users = session_over()
    services.rematch_offer(table_id=table.pk, user=users[0])
    services.rematch_answer(table_id=table.pk, user=users[0], accept=False)  # withdrawn
    for user in users[1:3]:
        services.rematch_answer(table_id=table.pk, user=user, accept=False)
    clock.advance(services.rematch_seconds() + 1)
    SCHEDULER.run_due()  # seat 3 never answered
    table.refresh_from_db()
    assert table.rematch is None
    assert table.status == Table.Status.COMPLETED
    assert [s.kind for s in table.seats.order_by("index")] == ["human"] * 4
    assert Game.objects.filter(table=table).count() == 1
    assert codes(table)[-1] == "rematch_lapsed"
    services.rematch_offer(table_id=table.pk, user=users[3])  # a new offer may follow
    table.refresh_from_db()
    assert table.rematch is not None
    assert offer_of(table)["by"] == 3


def test_the_deadline_task_is_idempotent(clock: FrozenClock) -> None:
    table, users = session_over()
    offer = services.rematch_offer(table_id=table.pk, user=users[0])
    assert not services.rematch_deadline(table_id=table.pk, offer_id=offer["id"])  # early
    assert not services.rematch_deadline(table_id=table.pk, offer_id="another")
    clock.advance(services.rematch_seconds())
    assert services.rematch_deadline(table_id=table.pk, offer_id=offer["id"])
    assert not services.rematch_deadline(table_id=table.pk, offer_id=offer["id"])  # again
    assert Game.objects.filter(table=table).count() == 2


def test_walking_out_of_the_rematch_counts_as_its_sessions_first_abandonment(
    clock: FrozenClock,
) -> None:
    table, users, _game = started_table(turn_seconds=60)
    services.seat_leave(table_id=table.pk, user=users[3])  # walks out of game 1
    play_out(table)
    services.table_end(table_id=table.pk, user=users[0])
    assert Game.objects.get(table=table, number=1).players[3]["absent"] == "abandoned"
    services.rematch_offer(table_id=table.pk, user=users[0])
    for user in users[1:]:  # seat 3 comes back for the rematch
        services.rematch_answer(table_id=table.pk, user=user, accept=True)
    assert not Seat.objects.get(table=table, index=3).auto
    services.seat_leave(table_id=table.pk, user=users[3])  # and walks out of its game 1
    second = play_out(table)
    assert second.number == 2
    # the first in this session: it counts (a second one in the same session would not)
    assert second.players[3]["absent"] == "abandoned"


def test_a_seat_the_pool_takes_leaves_the_table_waiting_in_the_lobby(
    clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool hook (``offer_seat_to_pool``): a seat it takes and leaves empty holds the new
    session in the lobby; the others keep their places and the session's numbering."""
    taken: list[int] = []

    def pool(ctx: Any, seat: Seat, leaving: Any = None) -> bool:
        taken.append(seat.index)
        seat.kind, seat.user, seat.ready = Seat.Kind.EMPTY, None, False
        seat.save()
        return True

    monkeypatch.setattr(rematch, "offer_seat_to_pool", pool)
    table, users = session_over()
    services.rematch_offer(table_id=table.pk, user=users[0])
    services.rematch_answer(table_id=table.pk, user=users[1], accept=False)
    for user in users[2:]:
        services.rematch_answer(table_id=table.pk, user=user, accept=True)
    table.refresh_from_db()
    assert taken == [1]
    assert table.status == Table.Status.WAITING
    assert table.starts_at is None
    assert [s.kind for s in table.seats.order_by("index")] == ["human", "empty", "human", "human"]
    assert Game.objects.filter(table=table).count() == 1
    services.seat_add_bot(table_id=table.pk, user=users[0], seat=1, level="easy")
    services.table_start(table_id=table.pk, user=users[0])
    assert (latest(table).number, latest(table).position) == (2, 1)


def test_a_lost_deadline_timer_is_healed_by_beat(clock: FrozenClock) -> None:
    table, users = session_over()
    services.rematch_offer(table_id=table.pk, user=users[0])
    SCHEDULER.clear()  # the worker holding the deadline died
    clock.advance(services.rematch_seconds() + services.timers_grace_seconds() - 1)
    assert services.timers_resume(overdue_by=services.timers_grace_seconds()) == 0
    clock.advance(2)
    assert services.timers_resume(overdue_by=services.timers_grace_seconds()) == 1
    SCHEDULER.run_due()
    table.refresh_from_db()
    assert table.rematch is None
    assert [s.kind for s in table.seats.order_by("index")] == ["human", "house", "house", "house"]
    assert latest(table).number == 2


def test_two_offers_at_once_make_one_offer(clock: FrozenClock) -> None:
    table, users = session_over()
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def offer(user: Any) -> None:
        try:
            barrier.wait()
            services.rematch_offer(table_id=table.pk, user=user)
        except BaseException as exc:
            errors.append(exc)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=offer, args=(u,)) for u in users[1:3]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    table.refresh_from_db()
    assert table.rematch is not None
    assert offer_of(table)["answers"] == {"1": True, "2": True}  # one offer, two acceptances
    assert codes(table).count("rematch_offered") == 1
    refused("already_answered", services.rematch_offer, table_id=table.pk, user=users[1])


def test_refusals_change_nothing(clock: FrozenClock) -> None:
    table, users, _game = started_table(turn_seconds=60)
    refused("no_session_over", services.rematch_offer, table_id=table.pk, user=users[0])
    play_out(table)
    refused("no_session_over", services.rematch_offer, table_id=table.pk, user=users[0])
    services.table_end(table_id=table.pk, user=users[0])
    stranger = UserFactory.create(username="stranger")
    refused("not_seated", services.rematch_offer, table_id=table.pk, user=stranger)
    refused("login_required", services.rematch_offer, table_id=table.pk, user=None)
    refused(
        "rematch_closed", services.rematch_answer, table_id=table.pk, user=users[1], accept=True
    )
    table.refresh_from_db()
    assert table.rematch is None
    services.rematch_offer(table_id=table.pk, user=users[0])
    refused("not_seated", services.rematch_answer, table_id=table.pk, user=stranger, accept=True)
    services.rematch_answer(table_id=table.pk, user=users[1], accept=False)
    refused(
        "already_answered", services.rematch_answer, table_id=table.pk, user=users[1], accept=False
    )
    table.refresh_from_db()
    assert offer_of(table)["answers"] == {"0": True, "1": False}
    services.rematch_answer(table_id=table.pk, user=users[1], accept=True)  # changed their mind
    table.refresh_from_db()
    assert offer_of(table)["answers"] == {"0": True, "1": True}


@pytest.mark.parametrize("mode", [Mode.TOURNAMENT.value, Mode.ARENA.value])
def test_tournament_and_arena_tables_have_no_rematch(clock: FrozenClock, mode: str) -> None:
    table, users = session_over()
    Table.objects.filter(pk=table.pk).update(options={**table.options, "mode": mode})
    refused("no_rematch", services.rematch_offer, table_id=table.pk, user=users[0])
    assert Table.objects.get(pk=table.pk).rematch is None


def test_a_practice_table_rematches_at_once(clock: FrozenClock) -> None:
    owner = UserFactory.create(username="solo")
    table = services.table_create_practice(owner=owner, turn_seconds=60)
    code = table.code
    play_out(table)
    services.table_end(table_id=table.pk, user=owner)
    services.rematch_offer(table_id=table.pk, user=owner)  # the only person: it starts now
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS
    assert table.code == code
    assert (latest(table).number, latest(table).position) == (2, 1)
    assert [s.kind for s in table.seats.order_by("index")] == ["human", "house", "house", "house"]
