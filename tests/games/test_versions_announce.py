"""A move committed by a process that died before its frames went out (issue 27, the
commit-then-die gap): beat's ``games.timers_heal`` announces the version of every table that
moved lately (``game_version``), and a socket behind it resyncs and learns it is its turn,
within the heal's period instead of at the next turn timer."""

from __future__ import annotations

from typing import Any

import pytest

from games import services, tasks
from games.models import Game
from games.realtime import Outbox, fanout
from tests.games.live import four_player_table, pending_seat
from tests.scheduler import SCHEDULER, FrozenClock
from tests.ws import db, is_type, started_with_spectator

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_move_whose_frames_died_reaches_the_seats_at_the_next_heal(
    clock: FrozenClock, monkeypatch: Any
) -> None:
    table, users = await db(four_player_table)
    conns, spectator = await started_with_spectator(table, users)
    game = await db(lambda: Game.objects.get(table=table, number=1))
    seat = await db(lambda: pending_seat(game))
    version = (await conns[seat].until(is_type("your_turn")))["version"]
    for conn in [*conns, spectator]:
        await conn.drain(0.05)
        conn.unread.clear()

    # the turn timer's worker commits the timeout move and dies before its frames go out
    with monkeypatch.context() as dying:
        dying.setattr(fanout, "send_now", lambda sends, failure="": None)
        clock.advance(31)
        assert await db(SCHEDULER.run_due) == 1
    SCHEDULER.clear()  # its timers died with it
    following = await db(lambda: pending_seat(game))
    assert following != seat
    for conn in [*conns, spectator]:
        await conn.drain(0.1)
        assert conn.unread == []  # nobody heard of the move

    clock.advance(4.0)  # beat's next heal (every 5 s)
    await db(tasks.timers_heal)
    announced = {"type": "game_version", "game": 1, "version": version + 1}
    for conn in [*conns, spectator]:
        assert await conn.until(is_type("game_version")) == announced
    # the browser sends sync on a version it is behind (static/js/table.js): the seat to act
    # gets the snapshot with its turn
    await conns[following].send({"type": "sync"})
    snapshot = await conns[following].until(is_type("snapshot"))
    assert snapshot["game"]["version"] == version + 1
    assert snapshot["your_turn"]["version"] == version + 1
    assert snapshot["your_turn"]["seat"] == following
    for conn in [*conns, spectator]:
        await conn.close()


def _started(clock: FrozenClock) -> Game:
    table, users = four_player_table()
    services.table_start(table_id=table.pk, user=users[0])
    clock.advance(10)
    SCHEDULER.run_due()
    return Game.objects.get(table=table, number=1)


def test_only_tables_that_moved_lately_are_announced(clock: FrozenClock, settings: Any) -> None:
    """The cost is bounded by the active tables: a table idle for longer than
    ``GAMES_ANNOUNCE_SECONDS`` gets nothing; one that just moved gets one frame per heal."""
    settings.GAMES_ANNOUNCE_SECONDS = 15.0
    settings.GAMES_COUNTDOWN_SECONDS = 3.0
    sent = Outbox()
    game = _started(clock)  # dealt now: announced
    assert services.versions_announce(sink=sent) == 1
    [(group, message)] = sent
    assert group == f"table-{game.table_id}"
    assert message["type"] == "table.frames"
    clock.advance(15.5)
    assert services.versions_announce(sink=Outbox()) == 0


def test_the_announce_window_outlasts_the_heal_period_and_a_beat_takeover(settings: Any) -> None:
    """A move committed just after a heal, by a node whose death also took beat's lock, is
    still recent when the next beat's heal runs: lock timeout + 1 s + the heal's period."""
    [heal] = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "games.timers_heal"]
    takeover = settings.CELERY_REDBEAT_LOCK_TIMEOUT + 1
    assert heal["schedule"] + takeover <= settings.GAMES_ANNOUNCE_SECONDS


def test_a_failing_hook_of_the_announce_never_stops_it(
    clock: FrozenClock, monkeypatch: Any
) -> None:
    """The bots app's hook (an external bot's lost turn, tests/bots/external/) runs after the
    tables' frames went out; its failure is logged and the heal goes on."""
    from games import extensions

    seen: list[Any] = []

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("the bots' side failed")

    def listening(*, games: Any) -> None:
        seen.extend(games)

    monkeypatch.setattr(extensions, "_versions_announced", [broken, listening])
    game = _started(clock)
    sent = Outbox()
    assert services.versions_announce(sink=sent) == 1
    assert len(sent) == 1
    [announced] = seen
    assert (announced.game_id, announced.version, announced.running) == (
        game.pk,
        game.version,
        True,
    )
