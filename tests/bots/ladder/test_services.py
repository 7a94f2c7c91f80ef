"""The bot ladder on the site, with PostgreSQL and the real tasks (tests/scheduler.py, the
injected clock): entrants, a duplicate set as one deal at every rotation's table at once, its
secrecy until every table is done, recording, replacement on promotion, the refit, suspension,
external bots only while connected."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bots.external import presence
from bots.ladder import core, services
from bots.ladder.services import Ladder
from bots.models import Bot, BotVersion, LadderEntrant, LadderSet
from games import deals
from games.models import Game, Seat, Table
from games.realtime import bot_queue
from games.services.unit import (
    TASK_GAME_ARCHIVE,
    TASK_NEXT_GAME,
    TASK_SEAT_HOLD,
    TASK_TABLE_BEGIN,
)
from tests.bots.conftest import THROWING_BOT
from tests.bots.live import example_version, new_user, ready_version
from tests.scheduler import Entry, FrozenClock, TestScheduler

pytestmark = pytest.mark.django_db(transaction=True)

LADDER = Ladder("tienlen", 4)
TABLE_TASKS = (TASK_TABLE_BEGIN, TASK_NEXT_GAME, TASK_SEAT_HOLD)


@pytest.fixture(autouse=True)
def _one_ladder(settings: Any) -> None:
    settings.LADDER_GAMES = ["tienlen:4"]
    settings.LADDER_SETS_IN_FLIGHT = 1
    settings.HOUSE_AI_BUDGET_MS = 20.0  # the expert anchor searches briefly


def promoted(owner: Any, key: str, name: str) -> BotVersion:
    version = example_version(owner, key, name)
    Bot.objects.filter(pk=version.bot_id).update(promoted_version=version)
    return version


def play_out(clock: FrozenClock, scheduler: TestScheduler, the_set: LadderSet) -> LadderSet:
    for _ in range(600):
        the_set.refresh_from_db()
        if the_set.status != LadderSet.Status.RUNNING:
            return the_set
        clock.advance(1)
        scheduler.run_due()
    raise AssertionError("the set did not finish")


def run_only(
    clock: FrozenClock, scheduler: TestScheduler, keep: Callable[[Entry], bool], until: Any
) -> None:
    """Run only the due tasks ``keep`` accepts (the others wait) until ``until()``."""
    for _ in range(600):
        if until():
            return
        clock.advance(1)
        entries = scheduler.take()
        now = clock()
        run = [e for e in entries if e.due <= now and keep(e)]
        with scheduler.lock:  # only the kept ones are pending while they run
            scheduler.pending.extend(run)
        scheduler.run_due()
        with scheduler.lock:
            scheduler.pending.extend(e for e in entries if e not in run)
    raise AssertionError("never happened")


def test_entrants_are_promoted_versions_and_anchored_house_ais(clock: FrozenClock) -> None:
    owner = new_user("owner")
    first = promoted(owner, "greedy", "Greedy")
    example_version(owner, "random", "Not promoted")
    services.ladder_sync(LADDER)
    rows = LadderEntrant.objects.filter(game="tienlen", seats=4)
    assert {r.house_level for r in rows if r.anchor} == {"easy", "medium", "hard", "expert"}
    bots = [r for r in rows if not r.anchor]
    assert [r.version_id for r in bots] == [first.pk]
    assert bots[0].state == LadderEntrant.State.PLACING
    # a new promotion replaces the old version, which leaves the ladder
    newer = BotVersion.objects.create(
        bot=first.bot, number=first.number + 1, code=first.code, status=BotVersion.Status.READY
    )
    Bot.objects.filter(pk=first.bot_id).update(promoted_version=newer)
    services.ladder_sync(LADDER)
    states = dict(LadderEntrant.objects.filter(bot=first.bot).values_list("version_id", "state"))
    assert states == {first.pk: "retired", newer.pk: "placing"}


def test_a_set_deals_one_deal_at_every_rotation_at_once_and_keeps_it_secret(
    clock: FrozenClock, scheduler: TestScheduler, settings: Any
) -> None:
    settings.GAMES_COUNTDOWN_SECONDS = 3.0  # the tables wait for the clock: played step by step
    settings.GAMES_BOT_DELAY_SECONDS = 0.5
    owner = new_user("owner")
    promoted(owner, "greedy", "Greedy")
    promoted(owner, "defensive", "Defensive")
    assert services.ladder_tick(rng=random.Random(3)) == 1
    assert services.ladder_tick(rng=random.Random(3)) == 0  # one set in flight at most
    the_set = LadderSet.objects.get()
    links = list(the_set.tables.select_related("table").order_by("rotation"))
    assert [link.rotation for link in links] == [0, 1, 2, 3]
    field = [LadderEntrant.objects.get(pk=e) for e in the_set.field]
    assert not field[0].anchor  # the focus: a new bot, never an anchor
    for link in links:
        table = link.table
        assert table.mode == "ladder"
        seats = list(Seat.objects.filter(table=table).order_by("index"))
        for seat in seats:
            entrant = field[core.rotations(4)[link.rotation][seat.index]]
            if entrant.anchor:
                assert (seat.kind, seat.house_level) == ("house", entrant.house_level)
            else:
                assert (seat.kind, seat.bot_version_id) == ("bot", entrant.version_id)
    # every table's turns go to the ladder's own queue
    assert bot_queue(1, ladder=True) == "bots.ladder"
    # the tables' host is the ladder's own account: nobody can sign up or sign in as it
    host = links[0].table.owner
    assert host.username == services.LADDER_USERNAME
    assert not host.is_active
    assert not host.has_usable_password()

    # play only rotation 0's table: its game ends while the others are still to be dealt
    first = links[0].table

    def mine(entry: Entry) -> bool:
        if entry.name in TABLE_TASKS:
            return bool(entry.args) and entry.args[0] == first.pk
        return bool(entry.args) and Game.objects.filter(pk=entry.args[0], table=first).exists()

    def first_done() -> bool:
        return Game.objects.filter(table=first, status=Game.Status.FINISHED).exists()

    run_only(clock, scheduler, mine, first_done)
    done = Game.objects.get(table=first)
    assert deals.game_deal(done).key == f"ladder:{the_set.pk}"
    assert deals.deal_is_open(done)
    with pytest.raises(deals.DealInPlay):
        deals.deal_guard(done)
    assert "hands" not in deals.deal_result(done, done.result)
    first.refresh_from_db()
    assert first.status == Table.Status.COMPLETED  # one game and the ladder table is done

    the_set = play_out(clock, scheduler, the_set)
    assert the_set.status == LadderSet.Status.FINISHED
    games = [Game.objects.get(table_id=link.table_id) for link in links]
    assert len({g.seed for g in games}) == 1
    assert games[0].seed == the_set.seed
    assert not deals.deal_is_open(done)
    deals.deal_guard(done)  # the replay is open now
    # the recorded totals are each entrant's scores over its four seats
    expected = core.set_outcome([list(g.scores or []) for g in games], 4)
    assert the_set.totals == expected
    for index, entrant_id in enumerate(the_set.field):
        entrant = LadderEntrant.objects.get(pk=entrant_id)
        if entrant.anchor:
            assert entrant.games == 4  # counted, but anchors keep their fixed skill
            assert (entrant.mu, entrant.sigma) == (field[index].mu, field[index].sigma)
        else:
            assert entrant.games == 4
            assert entrant.sigma < core.PRIOR_SIGMA
            assert entrant.last_played_at is not None
    # the refit over the ladder's sets gives the same skills from the same games, every time
    assert services.ladder_refit(LADDER) == 1
    once = dict(LadderEntrant.objects.values_list("pk", "mu"))
    services.ladder_refit(LADDER)
    assert dict(LadderEntrant.objects.values_list("pk", "mu")) == once


def test_a_version_that_keeps_faulting_is_suspended_and_the_ladder_goes_on(
    clock: FrozenClock, scheduler: TestScheduler, live_bots: None, settings: Any
) -> None:
    settings.LADDER_SETS_IN_FLIGHT = 1
    owner = new_user("owner")
    bad = ready_version(owner, THROWING_BOT, "Thrower")
    Bot.objects.filter(pk=bad.bot_id).update(promoted_version=bad)
    for _ in range(2):  # 8 games: the fault rule's minimum (the only bot: the focus each time)
        services.ladder_tick(rng=random.Random(1))
        play_out(clock, scheduler, LadderSet.objects.order_by("-pk")[0])
    thrower = LadderEntrant.objects.get(version=bad)
    assert thrower.games == 8
    assert thrower.faults == 8
    assert thrower.state == LadderEntrant.State.SUSPENDED
    assert thrower.reason == "faults"
    # the rest goes on without it
    good = promoted(owner, "greedy", "Greedy")
    services.ladder_tick(rng=random.Random(1))
    latest = LadderSet.objects.order_by("-pk").first()
    assert latest is not None
    assert thrower.pk not in latest.field
    assert LadderEntrant.objects.get(version=good).pk in latest.field


def test_a_ladder_set_sends_nothing_to_the_default_queue(
    clock: FrozenClock, scheduler: TestScheduler, monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = new_user("owner")
    promoted(owner, "greedy", "Greedy")
    archives: list[str] = []
    queues: set[str] = set()
    plain = scheduler.schedule

    def recording(
        name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None:
        if name == TASK_GAME_ARCHIVE:
            archives.append(queue)
        queues.add(queue)
        plain(name, args, delay=delay, queue=queue, since=since)

    monkeypatch.setattr(scheduler, "schedule", recording)
    assert services.ladder_tick(rng=random.Random(5)) == 1
    the_set = play_out(clock, scheduler, LadderSet.objects.get())
    assert the_set.status == LadderSet.Status.FINISHED
    assert archives == ["bots.ladder"] * 4  # one per rotation's game
    # its deals, turns, archives and recording: all on worker-ladder's two queues
    assert queues == {"bots.ladder", "ladder"}


def test_an_external_bot_plays_only_while_connected(clock: FrozenClock, settings: Any) -> None:
    owner = new_user("owner")
    version = ready_version(owner, "", "Remote", kind=Bot.Kind.EXTERNAL)
    Bot.objects.filter(pk=version.bot_id).update(promoted_version=version)
    services.ladder_sync(Ladder("tienlen", 2))
    entries = {e.key: e for e in services.ladder_entries(Ladder("tienlen", 2))}
    remote = LadderEntrant.objects.get(version=version)
    assert entries[remote.pk].available is False
    presence.connection_opened(bot_id=version.bot_id, connection="c1")
    try:
        entries = {e.key: e for e in services.ladder_entries(Ladder("tienlen", 2))}
        assert entries[remote.pk].available is True
        # a 4-seat set would seat it at four tables at once: more than others may seat (3)
        services.ladder_sync(LADDER)
        four = LadderEntrant.objects.get(version=version, seats=4)
        entries = {e.key: e for e in services.ladder_entries(LADDER)}
        assert entries[four.pk].available is False
        # the operator's way in (docs/bot-ladder.md): a limit of seats + the owner's reserve
        settings.BOTS_EXTERNAL_MAX_GAMES = 5
        entries = {e.key: e for e in services.ladder_entries(LADDER)}
        assert entries[four.pk].available is True
    finally:
        presence.connection_closed(bot_id=version.bot_id, connection="c1")
