"""Turn timeouts as one timer chain per game: no Celery task per move, and still exactly one
timeout action when a human's deadline passes (services._arm_timers, services.game_timeout)."""

from __future__ import annotations

from typing import Any

import pytest

from games import services, tasks
from games.engine.registry import find_game
from games.models import Action, Game
from tests.games.live import pending_seat, seat_users, started_table, state_of
from tests.scheduler import SCHEDULER, Entry, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("tienlen")


def play(game: Game) -> None:
    game.refresh_from_db()
    seat = pending_seat(game)
    action = ENGINE.legal_actions(state_of(game), seat)[0]
    move: dict[str, Any] = {"type": action["type"]}
    if action["type"] == "play":
        move["cards"] = action["cards"]
    services.game_play(
        table_id=game.table_id, user=seat_users(game.table)[seat], version=game.version, action=move
    )


def timeouts() -> list[Entry]:
    return [p for p in SCHEDULER.pending if p.name == services.TASK_TURN_TIMEOUT]


def test_moves_do_not_schedule_a_timer_each() -> None:
    _table, _users, game = started_table(turn_seconds=30)
    assert [p[2] for p in timeouts()] == [[game.pk, 0]]
    for _ in range(5):
        play(game)
    assert [p[2] for p in timeouts()] == [[game.pk, 0]]  # still the first one only
    game.refresh_from_db()
    assert game.notified["timer"]["version"] == 0
    assert game.notified["version"] == 5  # your_turn bookkeeping is untouched


def test_a_stale_chain_timer_rearms_for_the_current_turn(clock: FrozenClock) -> None:
    _table, _users, game = started_table(turn_seconds=30)
    SCHEDULER.take()
    for _ in range(3):
        play(game)
    game.refresh_from_db()
    deadline = ENGINE.round_status(state_of(game)).check_at
    assert tasks.turn_timeout(game.pk, 0) is False  # the game moved on: nothing is played
    [(due, _, args, _)] = SCHEDULER.take(services.TASK_TURN_TIMEOUT)
    assert args == [game.pk, 3]
    assert due == pytest.approx(deadline, abs=2)
    assert tasks.turn_timeout(game.pk, 0) is False  # a duplicate delivery does not re-arm
    assert SCHEDULER.take(services.TASK_TURN_TIMEOUT) == []
    # the re-armed timer acts once the deadline has passed, exactly once
    clock.advance(31)
    assert tasks.turn_timeout(game.pk, 3) is True
    assert tasks.turn_timeout(game.pk, 3) is False
    assert Action.objects.filter(game=game, actor="timeout").count() == 1
    game.refresh_from_db()
    assert game.version == 4
    assert game.notified["timer"]["version"] == 4  # the chain goes on from the new turn


def test_timeout_still_fires_after_many_moves_through_the_chain(clock: FrozenClock) -> None:
    """The chain's first timer is due before the current turn's deadline: when it falls due it
    re-arms for that deadline, which then times the turn out, once."""
    _table, _users, game = started_table(turn_seconds=30)
    for _ in range(4):
        clock.advance(5)
        play(game)
    clock.advance(11)  # 31 s after the deal: the first turn's timer is due, not the 5th turn's
    assert SCHEDULER.run_due() == 1
    assert not Action.objects.filter(game=game, actor="timeout").exists()
    [entry] = timeouts()
    assert entry.args == [game.pk, 4]
    assert entry.due == pytest.approx(clock.now - 11 + 30)
    clock.advance(20)
    assert SCHEDULER.run_due() == 1
    assert Action.objects.filter(game=game, actor="timeout").count() == 1


def test_rearm_after_restart_forces_a_timer() -> None:
    table, _users, game = started_table()
    play(game)
    SCHEDULER.take()  # the process restarted: its in-memory timers are gone
    services.timers_rearm(table_id=table.pk)
    assert [p[2] for p in timeouts()] == [[game.pk, 1]]
