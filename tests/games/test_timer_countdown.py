"""A timer's delay counts from when the service asked for it (``Work.timer``), not from when
it is sent after the commit: a paced bot turn comes ``GAMES_BOT_DELAY_SECONDS`` after the move
before it was made, the move's storing and commit included (docs/benchmarks.md "Issue 26: the
paced bot move (session 15)")."""

from __future__ import annotations

from typing import Any

import pytest

from games import clock, realtime, services
from games.realtime import scheduling
from games.services.unit import TASK_SEAT_AUTOPLAY, Work
from tests.games.live import house_game
from tests.scheduler import FrozenClock, RecordingScheduler


class _Task:
    def __init__(self, sent: list[dict[str, Any]]) -> None:
        self.sent = sent

    def apply_async(self, **kwargs: Any) -> None:
        self.sent.append(kwargs)


def celery_sends(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """From now on, what the production scheduler (:class:`scheduling.CeleryScheduler`) hands
    to Celery."""
    out: list[dict[str, Any]] = []
    monkeypatch.setattr(scheduling, "celery_task", lambda name: _Task(out))
    monkeypatch.setattr(scheduling, "get_scheduler", lambda: scheduling.CeleryScheduler())
    return out


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    return celery_sends(monkeypatch)


def test_the_countdown_sent_is_what_is_left_of_the_delay(
    clock: FrozenClock, sent: list[dict[str, Any]]
) -> None:
    work = Work()
    work.timer(TASK_SEAT_AUTOPLAY, [7, 3], 0.8, "bots.0")
    work.timer("games.turn_timeout", [7, 3], 30.0)
    clock.advance(0.012)  # storing and committing the move
    work.run()

    assert [s["countdown"] for s in sent] == [pytest.approx(0.788), pytest.approx(29.988)]
    assert [s["queue"] for s in sent] == ["bots.0", "default"]


def test_the_commit_keeps_when_the_timers_were_asked_for(
    clock: FrozenClock, sent: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Work.commit`` sends the timers from a copy once the transaction commits."""
    hooks: list[Any] = []
    monkeypatch.setattr("django.db.transaction.on_commit", hooks.append)
    work = Work()
    work.timer(TASK_SEAT_AUTOPLAY, [7, 3], 0.8, "bots.0")
    work.commit()
    clock.advance(0.3)
    (hook,) = hooks
    hook()

    assert sent[0]["countdown"] == pytest.approx(0.5)


def test_a_late_timer_runs_at_once_and_never_below_zero(
    clock: FrozenClock, sent: list[dict[str, Any]]
) -> None:
    work = Work()
    work.timer(TASK_SEAT_AUTOPLAY, [7, 3], 0.1, "bots.0")
    clock.advance(2.0)
    work.run()

    assert sent[0]["countdown"] == 0.0


def test_a_delayed_turn_is_never_handed_over_however_late(
    clock: FrozenClock, sent: list[dict[str, Any]]
) -> None:
    """Whether a run of server turns plays the next turn itself depends on the delay asked
    for: a paced turn whose delay has passed by the time it is sent still goes to the queue."""
    mine = realtime.Handover(TASK_SEAT_AUTOPLAY, "bots.0")
    work = Work(handover=mine)
    work.timer(TASK_SEAT_AUTOPLAY, [7, 3], 0.1, "bots.0")
    clock.advance(1.0)
    work.run()

    assert mine.runs == []
    assert sent == [{"args": [7, 3], "countdown": 0.0, "queue": "bots.0"}]


def test_no_delay_and_no_timer_time_are_as_before(sent: list[dict[str, Any]]) -> None:
    scheduling.schedule(TASK_SEAT_AUTOPLAY, [7, 3], delay=0.0, queue="bots.0")
    scheduling.schedule(TASK_SEAT_AUTOPLAY, [7, 4], delay=0.8, queue="bots.0")

    assert [s["countdown"] for s in sent] == [0.0, 0.8]


@pytest.mark.django_db(transaction=True)
def test_a_paced_bot_turn_counts_its_delay_from_the_move_before(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A house-AI turn at a paced table: the next turn's countdown is the bot delay less the
    time from when the move asked for it to when it was sent (every read of the clock here
    moves it 5 ms on)."""
    settings.GAMES_BOT_DELAY_SECONDS = 0.8
    game, first = house_game(RecordingScheduler(monkeypatch))  # both seats the server's
    sent = celery_sends(monkeypatch)
    ticks = FrozenClock(1_800_000_000.0)

    def ticking() -> float:
        return ticks.advance(0.005)

    with clock.use(ticking):
        assert services.game_autoplay_turns(game_id=first[0], version=first[1]) is True

    game.refresh_from_db()
    assert game.version == first[1] + 1
    (turn,) = [s for s in sent if s["args"] == [game.pk, game.version]]
    assert turn["queue"] == realtime.bot_queue(game.pk)
    # the clock moved between the move's timer and its sending: less than the whole delay
    assert 0.0 < turn["countdown"] < 0.8
    assert turn["countdown"] == pytest.approx(0.8, abs=0.2)


@pytest.mark.django_db(transaction=True)
def test_the_next_bot_turn_counts_from_when_the_move_was_made(
    settings: Any, monkeypatch: pytest.MonkeyPatch, clock: FrozenClock
) -> None:
    """What a move does after it was made (its frames: the deal's secrecy for spectators, read
    from the database) is part of the next turn's bot delay: here it takes 0.3 s."""
    from games.services import play

    settings.GAMES_BOT_DELAY_SECONDS = 0.8
    game, first = house_game(RecordingScheduler(monkeypatch))  # both seats the server's
    sent = celery_sends(monkeypatch)
    real_access = play._spectator_access

    def slow_access(*args: Any, **kwargs: Any) -> str:
        clock.advance(0.3)
        return real_access(*args, **kwargs)

    monkeypatch.setattr(play, "_spectator_access", slow_access)
    made = clock.now
    assert services.game_autoplay_turns(game_id=first[0], version=first[1]) is True

    game.refresh_from_db()
    (turn,) = [s for s in sent if s["args"] == [game.pk, game.version]]
    action = game.actions.order_by("-seq").first()
    assert action is not None
    assert action.payload["at"] == pytest.approx(made)
    assert turn["countdown"] == pytest.approx(0.5)
