"""Tournament services against PostgreSQL and the real tasks (tests/scheduler.py, the injected
clock): beat starts, duplicate deals, rounds closing, absent people, restarts, notifications."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games import clock as games_clock
from games import services as table_services
from games.models import Game, Seat, Table
from games.tournaments import services
from games.tournaments.models import Round, RoundResult, RoundTable, Tournament
from tests.factories import UserFactory
from tests.games.tournaments.conftest import entries, make_tournament
from tests.scheduler import FrozenClock, TestScheduler

pytestmark = pytest.mark.django_db(transaction=True)


def finish_round(clock: FrozenClock, scheduler: TestScheduler, t: Tournament, number: int) -> None:
    """Move the clock on (turn timers, next-game timers, holds) until round ``number`` ends."""
    for _ in range(400):
        if Round.objects.filter(tournament=t, number=number, status="finished").exists():
            return
        clock.advance(31)
        scheduler.run_due()
        services.tournaments_tick()
    raise AssertionError(f"round {number} did not finish")


def test_beat_starts_a_tournament_on_time_and_only_once(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    t, _ = make_tournament(people=2, house=2, start_in=120)
    assert services.tournaments_tick() == 0
    clock.advance(119)
    services.tournaments_tick()
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    assert not RoundTable.objects.exists()
    clock.advance(1)
    assert services.tournaments_tick() == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    round1 = Round.objects.get(tournament=t)
    assert (round1.number, round1.status) == (1, Round.Status.RUNNING)
    assert RoundTable.objects.count() == 1
    for _ in range(3):  # beat again, and a duplicate advance task: nothing more
        services.tournaments_tick()
        services.tournament_advance(tournament_id=t.pk)
    assert RoundTable.objects.count() == 1
    assert Table.objects.count() == 1
    table = RoundTable.objects.get().table
    assert table.mode == "tournament"
    assert table.status == Table.Status.IN_PROGRESS
    kinds = [s.kind for s in table.seats.order_by("index")]
    assert kinds == ["human", "human", "house", "house"]


def test_too_few_entrants_cancel_at_the_start(clock: FrozenClock) -> None:
    t, _ = make_tournament(people=1)
    services.tournaments_tick()
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert not Table.objects.exists()


def test_every_table_of_a_round_deals_the_same_seeds(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    t, _ = make_tournament(house=8, games_per_round=2, rounds=2, round_gap_seconds=30)
    services.tournaments_tick()
    finish_round(clock, scheduler, t, 1)
    round1 = Round.objects.get(tournament=t, number=1)
    assert len(round1.seeds) == 2
    tables = list(RoundTable.objects.filter(round=round1))
    assert len(tables) == 2
    for rt in tables:
        games = Game.objects.filter(table=rt.table).order_by("number")
        assert [g.seed for g in games] == round1.seeds
        assert rt.table.status == Table.Status.COMPLETED
        assert rt.table.session is not None
        assert len(rt.table.session["results"]) == 2
    # the next round is scheduled after the break, and started by beat when it is due
    round2 = Round.objects.get(tournament=t, number=2)
    assert round2.status == Round.Status.PENDING
    assert round1.ended_at is not None
    assert round2.start_at == round1.ended_at + timedelta(seconds=30)
    assert round2.start_at > games_clock.now_datetime()
    services.tournaments_tick()
    round2.refresh_from_db()
    assert round2.status == Round.Status.PENDING
    finish_round(clock, scheduler, t, 2)
    round2.refresh_from_db()
    assert round2.seeds != round1.seeds
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert RoundResult.objects.filter(round__tournament=t).count() == 16
    rows = services.standings_of(t)
    assert sum(r.points for r in rows) == 2 * 2 * 6  # two rounds, two tables of 6 points


def test_results_and_standings_follow_the_table_totals(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    t, _ = make_tournament(house=4, rounds=1)
    services.tournaments_tick()
    finish_round(clock, scheduler, t, 1)
    rt = RoundTable.objects.get()
    assert rt.table.session is not None
    totals = rt.table.session["totals"]
    by_entry = {r.entry_id: r for r in RoundResult.objects.all()}
    for seat, entry in enumerate(rt.seats):
        assert by_entry[entry].total == totals[seat]
        better = sum(1 for x in totals if x > totals[seat])
        level = sum(1 for x in totals if x == totals[seat]) - 1
        assert by_entry[entry].points == 3 - better - level / 2
    standings = services.standings_of(t)
    assert standings[0].points == max(r.points for r in by_entry.values())


def test_a_person_absent_at_the_start_is_played_by_the_house(
    clock: FrozenClock, scheduler: TestScheduler, settings: Any
) -> None:
    t, (person,) = make_tournament(people=1, house=3, rounds=1, games_per_round=2)
    services.tournaments_tick()
    table = RoundTable.objects.get().table
    seat = Seat.objects.get(table=table, kind=Seat.Kind.HUMAN)
    assert seat.user_id == person.pk
    assert seat.away_since is not None
    assert not seat.auto
    clock.advance(settings.GAMES_DISCONNECT_HOLD_SECONDS + 1)
    scheduler.run_due()
    seat.refresh_from_db()
    assert seat.auto  # the hold passed: the house plays the seat
    finish_round(clock, scheduler, t, 1)
    seat.refresh_from_db()
    # the seat never opened: the round's games were all played with the person's seat
    assert (seat.kind, seat.user_id) == (Seat.Kind.HUMAN, person.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    assert len(table.session["results"]) == 2
    assert RoundResult.objects.filter(entry__user=person, entry__kind="human").count() == 1


def test_a_person_who_opens_the_table_in_time_plays(
    clock: FrozenClock, scheduler: TestScheduler, settings: Any
) -> None:
    _t, (person,) = make_tournament(people=1, house=3, rounds=1)
    services.tournaments_tick()
    table = RoundTable.objects.get().table
    table_services.table_presence(table_id=table.pk, user=person, counted_seat=None, connected=True)
    clock.advance(settings.GAMES_DISCONNECT_HOLD_SECONDS + 1)
    scheduler.run_due()
    seat = Seat.objects.get(table=table, kind=Seat.Kind.HUMAN)
    assert seat.away_since is None
    assert not seat.auto


def test_lost_timers_and_tasks_are_rebuilt_from_the_database(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    """Every process restarts mid-round: the pending timers and tasks are lost. Beat's healer
    and the tournament tick rebuild everything from PostgreSQL."""
    t, _ = make_tournament(people=1, house=3, rounds=2, round_gap_seconds=10)
    services.tournaments_tick()
    scheduler.clear()  # the worker died with every timer
    for _ in range(400):
        if Round.objects.filter(tournament=t, number=1, status="finished").exists():
            break
        clock.advance(31)
        table_services.timers_resume(overdue_by=2)
        scheduler.run_due()
        scheduler.clear()  # and dies again after each beat
        services.tournaments_tick()
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.FINISHED
    clock.advance(11)
    services.tournaments_tick()
    assert Round.objects.get(tournament=t, number=2).status == Round.Status.RUNNING


def test_a_table_ended_by_its_host_closes_the_round_at_the_next_beat(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    t, _ = make_tournament(people=2, house=2, rounds=1)
    services.tournaments_tick()
    rt = RoundTable.objects.get()
    table_services.table_end(table_id=rt.table_id, user=t.creator)
    assert services.tournaments_tick() == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert RoundResult.objects.count() == 4


def test_entry_rules(clock: FrozenClock) -> None:
    t, (a,) = make_tournament(people=1, start_in=60, visibility="invite")
    stranger = UserFactory.create()
    with pytest.raises(services.TournamentError) as err:
        services.entry_join(tournament_id=t.pk, user=stranger)
    assert err.value.code == "not_invited"
    services.entry_join(tournament_id=t.pk, user=stranger, code=t.invite_code)
    with pytest.raises(services.TournamentError) as err:
        services.entry_join(tournament_id=t.pk, user=stranger, code=t.invite_code)
    assert err.value.code == "already_entered"
    with pytest.raises(services.TournamentError) as err:
        services.entry_add_house(tournament_id=t.pk, user=a, level="easy")
    assert err.value.code == "not_creator"
    with pytest.raises(services.TournamentError) as err:
        services.entry_add_house(tournament_id=t.pk, user=t.creator, level="godlike")
    assert err.value.code == "bad_level"
    mine = next(e for e in entries(t) if e.user_id == stranger.pk)
    with pytest.raises(services.TournamentError) as err:
        services.entry_withdraw(entry_id=mine.pk, user=a)
    assert err.value.code == "not_yours"
    services.entry_withdraw(entry_id=mine.pk, user=stranger)
    assert len(entries(t)) == 1
    clock.advance(60)
    services.entry_join(tournament_id=t.pk, user=stranger, code=t.invite_code)
    services.tournaments_tick()
    with pytest.raises(services.TournamentError) as err:
        services.entry_join(tournament_id=t.pk, user=UserFactory.create(), code=t.invite_code)
    assert err.value.code == "bad_state"


def test_bot_entrants_games_are_rated_like_arena_games(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    from bots.models import BotRatingEvent
    from tests.factories import BotFactory, BotVersionFactory

    t, _ = make_tournament(house=2, rounds=1, games_per_round=2)
    versions = []
    for _ in range(2):
        owner = UserFactory.create()
        version = BotVersionFactory.create(bot=BotFactory.create(owner=owner), status="ready")
        services.entry_add_bot(tournament_id=t.pk, user=owner, bot_version_id=version.pk)
        versions.append(version)
    services.tournaments_tick()
    finish_round(clock, scheduler, t, 1)
    table = RoundTable.objects.get().table
    games = list(Game.objects.filter(table=table).values_list("pk", flat=True))
    assert len(games) == 2
    events = BotRatingEvent.objects.filter(game_id__in=games)
    assert events.count() == 4  # two bots, two games
    assert {e.bot_id for e in events} == {v.bot_id for v in versions}


def test_people_are_rated_against_each_other_once_per_table(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    from games.tournaments.models import PlayerRating, PlayerRatingEvent

    t, people = make_tournament(people=2, house=2, rounds=1, games_per_round=1)
    services.tournaments_tick()
    finish_round(clock, scheduler, t, 1)
    rt = RoundTable.objects.get()
    assert rt.table.session is not None
    totals = rt.table.session["totals"]
    seat_of = {s.user_id: s.index for s in rt.table.seats.filter(kind="human")}
    events = {e.user_id: e for e in PlayerRatingEvent.objects.all()}
    assert set(events) == {p.pk for p in people}
    a, b = people
    ta, tb = totals[seat_of[a.pk]], totals[seat_of[b.pk]]
    if ta != tb:
        better, worse = (a, b) if ta > tb else (b, a)
        assert (events[better.pk].rank, events[worse.pk].rank) == (1, 2)
        assert PlayerRating.objects.get(user=better).mu > PlayerRating.objects.get(user=worse).mu
    assert all(r.tables == 1 for r in PlayerRating.objects.all())
    services.tournaments_tick()  # a later beat rates nothing twice
    assert PlayerRatingEvent.objects.count() == 2
    from django.test import Client

    rows = Client().get(f"/tournaments/{t.pk}/state.json").json()["standings"]
    shown = {r["user_id"]: r["rating"] for r in rows if r["kind"] == "human"}
    assert shown == {p.pk: round(PlayerRating.objects.get(user=p).ordinal, 1) for p in people}
    assert all(r["rating"] is None for r in rows if r["kind"] == "house")


def test_a_round_table_says_its_round_games_names_house_entries_as_the_standings_and_is_not_announced(  # noqa: E501
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    """Issue 25: a 1-game round's table said "Game 1 of 16", named a house entrant "AI Vy"
    where the standings said "House AI", and posted "opened a public table" in the lobby chat."""
    from games import selectors
    from games.models import ChatMessage
    from games.tournaments import live

    t, _ = make_tournament(people=1, house=3, rounds=1, games_per_round=1)
    services.tournaments_tick()
    rt = RoundTable.objects.select_related("table").get()
    table = rt.table
    assert table.visibility == Table.Visibility.PUBLIC
    assert not ChatMessage.objects.filter(room="lobby").exists()
    snapshot = selectors.table_snapshot(table_id=table.pk, user=None)
    assert snapshot["game"]["games"] == 1
    seat_names = {s["index"]: s["name"] for s in snapshot["seats"]}
    standing_names = {row["entry"]: row["name"] for row in live.public_state(t)["standings"]}
    for index, entry in enumerate(rt.seats):
        assert entry is not None
        assert seat_names[index] == standing_names[entry]
    houses = [n for n in standing_names.values() if n.startswith("AI ")]
    assert len(set(houses)) == 3  # three house entrants, three names
    finish_round(clock, scheduler, t, 1)
    table.refresh_from_db()
    after = selectors.table_snapshot(table_id=table.pk, user=None)
    assert after["session"]["games"] == 1
    assert after["session"]["played"] == 1


def test_entries_close_on_the_page_as_soon_as_the_start_is_due(clock: FrozenClock) -> None:
    """Issue 25: right after Start now the page still offered Join, Enter bot, Add house AI,
    Start now and Withdraw, until the tick had started the tournament."""
    from games.tournaments import live

    t, _ = make_tournament(people=2, start_in=3600)
    assert live.public_state(t)["starting"] is False
    clock.advance(3600)  # the start is due; the tick has not run yet
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    assert live.public_state(t)["starting"] is True
    services.tournaments_tick()
    t.refresh_from_db()
    assert live.public_state(t)["starting"] is False
