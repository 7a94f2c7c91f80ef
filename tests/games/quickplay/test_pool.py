"""Quick play against PostgreSQL and the real tasks (tests/scheduler.py, the injected clock):
the pool, the pairing pass, fair seating and people's ratings (docs/quickplay.md)."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from games.models import Game, Seat, Table
from games.quickplay import services
from games.quickplay.models import PersonRating, PersonRatingEvent, PoolEntry, QuickPlaySeat
from games.quickplay.services import QuickPlayError
from tests.factories import UserFactory
from tests.scheduler import FrozenClock, TestScheduler

pytestmark = pytest.mark.django_db(transaction=True)


def people(n: int) -> list[Any]:
    return [UserFactory.create() for _ in range(n)]


def seated(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("index"))


def test_join_leave_and_one_pool_per_person(clock: FrozenClock) -> None:
    (a,) = people(1)
    services.pool_join(user=a, game="tienlen", seats=4, address="10.0.0.1")
    assert services.pool_status(user=a)["state"] == "waiting"
    with pytest.raises(QuickPlayError) as err:
        services.pool_join(user=a, game="stud", seats=2, address="10.0.0.1")
    assert err.value.code == "already_waiting"
    assert PoolEntry.objects.get(user=a).game == "tienlen"  # the refused join changed nothing
    assert services.pool_leave(user=a) is True
    assert services.pool_leave(user=a) is False
    assert services.pool_status(user=a)["state"] == "idle"
    assert not PoolEntry.objects.exists()


@pytest.mark.parametrize(
    ("game", "seats", "code"),
    [("nope", 4, "unknown_game"), ("tienlen", 9, "bad_seats"), ("tienlen", True, "bad_seats")],
)
def test_bad_joins_are_refused_and_change_nothing(game: str, seats: Any, code: str) -> None:
    (a,) = people(1)
    with pytest.raises(QuickPlayError) as err:
        services.pool_join(user=a, game=game, seats=seats)
    assert err.value.code == code
    assert not PoolEntry.objects.exists()


def test_eight_people_make_two_full_tables_at_once(clock: FrozenClock) -> None:
    group = people(8)
    for i, p in enumerate(group):
        services.pool_join(user=p, game="tienlen", seats=4, address=f"10.0.0.{i + 1}")
        clock.advance(0.2)  # all eight within 2 s; each join's pass ran on its commit
    tables = list(Table.objects.filter(options__quickplay=True))
    assert len(tables) == 2
    for table in tables:
        seats = seated(table)
        assert [s.kind for s in seats] == ["human"] * 4
        assert table.options["rated"] is True
        assert table.status in (Table.Status.READY, Table.Status.IN_PROGRESS)
    users = Counter(s.user_id for t in tables for s in seated(t))
    assert set(users) == {p.pk for p in group}
    assert set(users.values()) == {1}
    assert not PoolEntry.objects.exists()
    assert all(services.pool_status(user=p)["state"] == "seated" for p in group)
    with pytest.raises(QuickPlayError) as err:  # one quick-play table at a time
        services.pool_join(user=group[0], game="tienlen", seats=4)
    assert err.value.code == "already_playing"


def test_alone_gets_house_ais_after_the_countdown(
    clock: FrozenClock, scheduler: TestScheduler, settings: Any
) -> None:
    settings.QUICKPLAY_COUNTDOWN_SECONDS = 15.0
    (a,) = people(1)
    services.pool_join(user=a, game="tienlen", seats=4, address="10.0.0.1")
    clock.advance(14)
    assert services.pool_pair() == []
    assert services.pool_status(user=a)["fill_in"] == 1.0
    clock.advance(1)
    (table_id,) = services.pool_pair()
    seats = seated(Table.objects.get(pk=table_id))
    assert seats[0].kind == "human"
    assert seats[0].user_id == a.pk
    assert [s.kind for s in seats[1:]] == ["house"] * 3
    assert {s.house_level for s in seats[1:]} == {"medium"}  # a newcomer's mu 25: medium
    scheduler.run_due()
    assert Game.objects.filter(table_id=table_id).exists()  # dealt: playing


def test_house_level_follows_the_players_rating(clock: FrozenClock, settings: Any) -> None:
    (a,) = people(1)
    PersonRating.objects.create(user=a, game="tienlen", mu=31.5, sigma=2.0, ordinal=25.5)
    services.pool_join(user=a, game="tienlen", seats=4)
    clock.advance(settings.QUICKPLAY_COUNTDOWN_SECONDS)
    (table_id,) = services.pool_pair()
    assert {s.house_level for s in seated(Table.objects.get(pk=table_id))[1:]} == {"expert"}


def test_far_ratings_wait_then_the_gap_widens(clock: FrozenClock, settings: Any) -> None:
    settings.QUICKPLAY_COUNTDOWN_SECONDS = 600.0
    settings.QUICKPLAY_GAP_START = 3.0
    settings.QUICKPLAY_GAP_PER_SECOND = 0.5
    a, b = people(2)
    PersonRating.objects.create(user=b, game="stud", mu=35.0, sigma=2.0, ordinal=29.0)
    services.pool_join(user=a, game="stud", seats=2, address="1.1.1.1")
    services.pool_join(user=b, game="stud", seats=2, address="2.2.2.2")
    assert services.pool_pair() == []  # 10 apart, the gap is 3
    clock.advance(13)  # a's gap: 3 + 6.5 = 9.5
    assert services.pool_pair() == []
    clock.advance(2)  # 3 + 7.5 = 10.5
    (table_id,) = services.pool_pair()
    assert {s.user_id for s in seated(Table.objects.get(pk=table_id))} == {a.pk, b.pk}


def test_everyone_at_a_table_is_near_everyone_else(clock: FrozenClock, settings: Any) -> None:
    settings.QUICKPLAY_COUNTDOWN_SECONDS = 600.0
    settings.QUICKPLAY_GAP_START = 3.0
    settings.QUICKPLAY_GAP_PER_SECOND = 0.0
    head, up, down = people(3)
    PersonRating.objects.create(user=up, game="tienlen", mu=27.5, sigma=2.0, ordinal=21.5)
    PersonRating.objects.create(user=down, game="tienlen", mu=22.5, sigma=2.0, ordinal=16.5)
    # each is within 3 of the oldest (25), but 5 apart from each other: never at one table
    services.pool_join(user=head, game="tienlen", seats=3, address="1.1.1.1")
    services.pool_join(user=up, game="tienlen", seats=3, address="2.2.2.2")
    services.pool_join(user=down, game="tienlen", seats=3, address="3.3.3.3")
    assert services.pool_pair() == []
    assert not Table.objects.filter(options__quickplay=True).exists()


def test_one_address_is_never_seated_twice_at_a_table(clock: FrozenClock, settings: Any) -> None:
    group = people(8)
    for i, p in enumerate(group):  # two accounts on each address
        services.pool_join(user=p, game="tienlen", seats=4, address=f"10.0.0.{i // 2}")
    tables = list(Table.objects.filter(options__quickplay=True))
    assert len(tables) == 2
    for t in tables:
        addresses = list(QuickPlaySeat.objects.filter(table=t).values_list("address", flat=True))
        assert len(addresses) == len(set(addresses)) == 4


def test_same_address_waits_for_house_ais_rather_than_sit_together(
    clock: FrozenClock, settings: Any
) -> None:
    a, b = people(2)
    services.pool_join(user=a, game="stud", seats=2, address="9.9.9.9")
    services.pool_join(user=b, game="stud", seats=2, address="9.9.9.9")
    clock.advance(settings.QUICKPLAY_COUNTDOWN_SECONDS)
    formed = services.pool_pair()
    assert len(formed) == 2
    for table_id in formed:
        kinds = sorted(s.kind for s in seated(Table.objects.get(pk=table_id)))
        assert kinds == ["house", "human"]


def test_accounts_that_keep_landing_together_are_split(clock: FrozenClock, settings: Any) -> None:
    settings.QUICKPLAY_REPEAT_WINDOW = 5
    settings.QUICKPLAY_REPEAT_MAX = 3
    a, b = people(2)
    for round_ in range(4):
        services.pool_join(user=a, game="stud", seats=2, address="1.1.1.1")
        services.pool_join(user=b, game="stud", seats=2, address="2.2.2.2")
        tables = Table.objects.filter(options__quickplay=True, quickplay_seats__user=a)
        together = tables.filter(quickplay_seats__user=b).count()
        if round_ < 3:
            assert together == round_ + 1  # paired at once
        else:
            assert together == 3
            assert PoolEntry.objects.count() == 2
        Table.objects.filter(options__quickplay=True).update(status=Table.Status.COMPLETED)
        services.pool_leave(user=a)
        services.pool_leave(user=b)


def test_many_simultaneous_joins_never_seat_anyone_twice(settings: Any) -> None:
    group = people(24)
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(group))

    def join(p: Any, i: int) -> None:
        try:
            barrier.wait()
            services.pool_join(user=p, game="tienlen", seats=4, address=f"10.1.0.{i}")
            services.pool_pair()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(p, i)) for i, p in enumerate(group)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    services.pool_pair()  # whatever a skipped (locked) pass left
    rows = list(
        Seat.objects.filter(table__options__quickplay=True, kind="human").values_list(
            "user_id", flat=True
        )
    )
    assert Counter(rows).most_common(1)[0][1] == 1
    assert len(rows) == 24
    assert Table.objects.filter(options__quickplay=True).count() == 6
    assert QuickPlaySeat.objects.count() == 24


def test_a_rated_game_moves_the_ratings_once(clock: FrozenClock, scheduler: TestScheduler) -> None:
    a, b = people(2)
    services.pool_join(user=a, game="tienlen", seats=4, address="1.1.1.1")
    services.pool_join(user=b, game="tienlen", seats=4, address="2.2.2.2")
    clock.advance(60)
    (table_id,) = services.pool_pair()
    for _ in range(400):
        if Game.objects.filter(table_id=table_id, status="finished").exists():
            break
        clock.advance(31)
        scheduler.run_due()
    game = Game.objects.filter(table_id=table_id, status="finished").order_by("number").first()
    assert game is not None
    events = {e.user_id: e for e in PersonRatingEvent.objects.filter(played=game)}
    assert set(events) == {a.pk, b.pk}
    assert all(e.rated_players == 4 for e in events.values())  # two people, two anchors
    for user_id, event in events.items():
        rating = PersonRating.objects.get(user_id=user_id, game="tienlen")
        assert rating.games >= 1
        if event.rank == 1:
            assert event.mu_after > event.mu_before
        if event.rank == 4:
            assert event.mu_after < event.mu_before
    better, worse = sorted(events.values(), key=lambda e: e.rank)
    assert better.mu_after - better.mu_before > worse.mu_after - worse.mu_before
    from games.quickplay.ratings import ratings_record

    table = Table.objects.get(pk=table_id)
    assert ratings_record(game=game, table=table) is False  # a game is rated once
    assert PersonRatingEvent.objects.filter(played=game).count() == 2


def test_unrated_tables_move_nothing(clock: FrozenClock) -> None:
    from games.quickplay.ratings import ratings_record

    (a,) = people(1)
    table = Table.objects.create(owner=a, name="t", game="tienlen")
    game = Game.objects.create(table=table, number=1, status="finished", seed=1)
    assert ratings_record(game=game, table=table) is False
    assert not PersonRatingEvent.objects.exists()


def test_pool_status_counts_waiting_people(clock: FrozenClock) -> None:
    a, b = people(2)
    services.pool_join(user=a, game="stud", seats=3, address="1.1.1.1")
    clock.advance(timedelta(seconds=4).total_seconds())
    services.pool_join(user=b, game="stud", seats=3, address="2.2.2.2")
    status = services.pool_status(user=a)
    assert (status["state"], status["waiting"], status["waited"]) == ("waiting", 2, 4.0)
    assert status["pools"] == {"stud/3": 2}


def test_a_formed_table_has_no_lobby_during_its_countdown(
    clock: FrozenClock, settings: Any
) -> None:
    from games import services as table_services

    settings.GAMES_COUNTDOWN_SECONDS = 3.0
    a, b = people(2)
    services.pool_join(user=a, game="stud", seats=2, address="1.1.1.1")
    services.pool_join(user=b, game="stud", seats=2, address="2.2.2.2")
    table = Table.objects.get(options__quickplay=True)
    assert table.status == Table.Status.READY
    host = table.owner
    other = b if host.pk == a.pk else a
    guest = UserFactory.create()
    other_seat = Seat.objects.get(table=table, user=other).index
    for call in (
        lambda: table_services.seat_leave(table_id=table.pk, user=other),
        lambda: table_services.seat_kick(table_id=table.pk, user=host, seat=other_seat),
        lambda: table_services.table_set_option(
            table_id=table.pk, user=host, name="turn_seconds", value=300
        ),
        lambda: table_services.seat_join(table_id=table.pk, user=guest),
    ):
        with pytest.raises(table_services.TableError) as err:
            call()
        assert err.value.code == "bad_state"
    seats = {s.user_id for s in seated(table)}
    assert seats == {a.pk, b.pk}
    assert Table.objects.get(pk=table.pk).options["turn_seconds"] == 30


def test_a_person_who_left_a_running_table_may_queue_again(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    from games import services as table_services

    a, b = people(2)
    services.pool_join(user=a, game="stud", seats=2, address="1.1.1.1")
    services.pool_join(user=b, game="stud", seats=2, address="2.2.2.2")
    table = Table.objects.get(options__quickplay=True)
    scheduler.run_due()
    assert Table.objects.get(pk=table.pk).status == Table.Status.IN_PROGRESS
    with pytest.raises(QuickPlayError):
        services.pool_join(user=a, game="stud", seats=2)
    table_services.seat_leave(table_id=table.pk, user=a)  # the house plays the seat
    services.pool_join(user=a, game="stud", seats=2, address="1.1.1.1")
    assert services.pool_status(user=a)["state"] == "waiting"


def test_tournament_games_move_peoples_per_game_ratings(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    from games.tournaments import services as tournaments
    from games.tournaments.models import RoundTable
    from tests.games.tournaments.conftest import make_tournament
    from tests.games.tournaments.test_services import finish_round

    t, entrants = make_tournament(people=2, house=2, rounds=1, games_per_round=1)
    tournaments.tournaments_tick()
    finish_round(clock, scheduler, t, 1)
    table = RoundTable.objects.get().table
    game = Game.objects.get(table=table, status="finished")
    events = PersonRatingEvent.objects.filter(played=game)
    assert {e.user_id for e in events} == {p.pk for p in entrants}
    assert {e.rated_players for e in events} == {4}  # two people, two house AI anchors
    assert PersonRating.objects.filter(game=t.game, games=1).count() == 2


async def test_the_lobby_socket_names_the_table_when_seated() -> None:
    from tests.ws import Conn, cookie_for, db, is_type

    a, b = await db(lambda: people(2))
    conn = Conn("/ws/lobby/", await cookie_for(a))
    await conn.open()
    other = Conn("/ws/lobby/", await cookie_for(b))
    await other.open()
    await db(lambda: services.pool_join(user=a, game="stud", seats=2, address="1.1.1.1"))
    await db(lambda: services.pool_join(user=b, game="stud", seats=2, address="2.2.2.2"))
    seated_a = await conn.until(is_type("quickplay_seated"))
    seated_b = await other.until(is_type("quickplay_seated"))
    code = await db(lambda: Table.objects.get(options__quickplay=True).code)
    assert seated_a == seated_b == {"type": "quickplay_seated", "table": code, "url": f"/t/{code}/"}
    await conn.close()
    await other.close()
