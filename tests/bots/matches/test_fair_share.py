"""The lab is shared fairly between users (issue 24 item 5): a match runs in slices and goes
back to the queue behind the others; the next slice is the user's served longest ago. A match
whose worker was killed resumes within a minute (item 13): a running slice renews its
heartbeat between moves (on the injected clock) and beat's healer, every 10 s, resumes a match
whose heartbeat is older than 30 s."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from bots.matches import services
from bots.matches.services import match_create, matches_heal, stale_seconds
from bots.models import Match
from config.settings import base
from games import clock as games_clock
from games.engine.duplicate import HouseEntrant
from tests.scheduler import FrozenClock, RecordingScheduler

pytestmark = pytest.mark.django_db

FIELD = ["house:easy", "house:hard"]


class WorkerKilled(BaseException):
    """A kill -9 seen from inside the task: nothing after it runs, the row stays running."""


def _tokens(recorder: RecordingScheduler) -> list[int]:
    """The lab's messages sent so far (match ids), taken off the recorder in order."""
    out = [int(args[0]) for name, args, _, queue in recorder.calls if name == services.RUN_TASK]
    assert all(q == services.MATCH_QUEUE for n, _, _, q in recorder.calls if n == services.RUN_TASK)
    recorder.calls.clear()
    return out


def test_a_users_one_deal_match_waits_one_slice_not_behind_anothers_long_matches(
    user: User,
    other_user: User,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """One user's two long matches were queued first, then another user's 1-deal match: one lab
    process (``BOTS_LAB_CONCURRENCY`` 1) takes the queue's messages in order. The 1-deal match
    is played after one slice of the long ones (here a slice is one deal), not after both of
    them (it was 10 deals: its owner waited for every deal of the other user's matches)."""
    settings.BOTS_MATCH_SLICE_SECONDS = 0  # every deal ends a slice when someone waits
    recorder = RecordingScheduler(monkeypatch)
    recorder.install()
    with django_capture_on_commit_callbacks(execute=True):
        long_1 = match_create(owner=user, game="stud", entrants=FIELD, deals=5, seed=1)
        long_2 = match_create(owner=user, game="stud", entrants=FIELD, deals=5, seed=2)
        short = match_create(owner=other_user, game="stud", entrants=FIELD, deals=1, seed=3)
    queue = _tokens(recorder)
    assert queue == [long_1.pk, long_2.pk, short.pk]  # first come
    others_deals_before_short: int | None = None
    order: list[int] = []
    while queue:  # the lab worker: one message at a time, in queue order
        token = queue.pop(0)
        with django_capture_on_commit_callbacks(execute=True):
            services.match_execute(match_id=token)
        queue += _tokens(recorder)  # a match back for its next slice: behind the others
        served = Match.objects.exclude(served_at=None).order_by("-served_at", "-pk").first()
        assert served is not None
        order.append(served.pk)
        if others_deals_before_short is None and Match.objects.get(pk=short.pk).deals_done:
            others_deals_before_short = sum(
                Match.objects.filter(owner=user).values_list("deals_done", flat=True)
            )
    assert others_deals_before_short == 1
    # round-robin by user: the long matches' slices alternate, each deal one slice
    assert order[:3] == [long_1.pk, short.pk, long_2.pk]
    statuses = set(Match.objects.values_list("status", flat=True))
    assert statuses == {Match.Status.FINISHED}
    assert Match.objects.get(pk=long_1.pk).deals_done == 5


def test_a_match_alone_in_the_lab_runs_on_without_going_back_to_the_queue(
    user: User, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.BOTS_MATCH_SLICE_SECONDS = 0
    recorder = RecordingScheduler(monkeypatch)
    recorder.install()
    match = match_create(owner=user, game="stud", entrants=FIELD, deals=3, seed=4)
    assert services.match_execute(match_id=match.pk) == Match.Status.FINISHED
    assert _tokens(recorder) == []


def test_the_report_of_a_sliced_match_is_an_uninterrupted_runs(
    user: User,
    other_user: User,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games.engine.duplicate import run_match
    from games.engine.registry import find_game

    settings.BOTS_MATCH_SLICE_SECONDS = 0
    recorder = RecordingScheduler(monkeypatch)
    recorder.install()
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(owner=user, game="stud", entrants=FIELD, deals=4, seed=5)
        match_create(owner=other_user, game="stud", entrants=FIELD, deals=4, seed=6)
    queue = _tokens(recorder)
    slices = 0
    while queue:
        with django_capture_on_commit_callbacks(execute=True):
            services.match_execute(match_id=queue.pop(0))
        queue += _tokens(recorder)
        slices += 1
    assert slices == 8  # every deal a slice: the two matches took turns
    match.refresh_from_db()
    expected = run_match(
        find_game("stud"),
        [HouseEntrant("easy", name="house:easy"), HouseEntrant("hard", name="house:hard")],
        4,
        5,
    )

    def untimed(report: dict[str, Any]) -> dict[str, Any]:
        return {
            **report,
            "entrants": [
                {k: v for k, v in e.items() if k != "mean_move_ms"} for e in report["entrants"]
            ],
        }

    assert match.status == Match.Status.FINISHED
    assert untimed(match.report) == untimed(expected.report)
    assert match.series == expected.series


def test_a_stop_between_slices_ends_the_match_with_its_deals_so_far(
    user: User,
    other_user: User,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.BOTS_MATCH_SLICE_SECONDS = 0
    recorder = RecordingScheduler(monkeypatch)
    recorder.install()
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(owner=user, game="stud", entrants=FIELD, deals=4, seed=7)
        match_create(owner=other_user, game="stud", entrants=FIELD, deals=4, seed=8)
    first = _tokens(recorder)[0]
    with django_capture_on_commit_callbacks(execute=True):
        assert services.match_execute(match_id=first) == Match.Status.QUEUED  # back in line
    services.match_stop(owner=user, match_id=match.pk)
    match.refresh_from_db()
    assert (match.status, match.deals_done, match.report["stopped"]) == (
        Match.Status.STOPPED,
        1,
        "stopped",
    )


# --------------------------------------------------------------------------- item 13


class _SlowHouse:
    """A house AI whose every move takes ``seconds`` on the injected clock; ``during`` runs
    after each move (a healer looking at the match meanwhile)."""

    def __init__(self, level: str, *, name: str, clock: FrozenClock, seconds: float, during: Any):
        self.inner = HouseEntrant(level, name=name)
        self.name = name
        self.clock, self.seconds, self.during = clock, seconds, during

    def player(self, engine: Any, *, seat: int, seed: int) -> Any:
        inner = self.inner.player(engine, seat=seat, seed=seed)
        outer = self

        class Slow:
            def decide(self, state: Any, seat_: int) -> Any:
                outer.clock.advance(outer.seconds)
                chosen = inner.decide(state, seat_)
                outer.during()
                return chosen

            def close(self) -> None:
                inner.close()

        return Slow()


def test_a_killed_lab_worker_is_resumed_within_a_minute(
    user: User,
    clock: FrozenClock,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The worker dies during a deal (kill -9: nothing after it runs). Its match's heartbeat
    was renewed at its last move; 30 s later (``BOTS_MATCH_STALE_SECONDS``) the healer, which
    beat runs every 2 s, resumes it: within 40 s of the death, where it was 600 s (11
    minutes with the once-a-minute healer) while the match held its owner's slot. This is the
    fallback when the run's Redis lease says nothing (here it is still alive in real time: the
    injected clock moves, Redis's does not); test_lease.py shows the lease's seconds."""
    moves = {"n": 0}

    def die_at_the_fifth_move() -> None:
        moves["n"] += 1
        if moves["n"] == 5:
            raise WorkerKilled

    monkeypatch.setattr(
        services,
        "HouseEntrant",
        lambda level, name: _SlowHouse(
            level, name=name, clock=clock, seconds=1.0, during=die_at_the_fifth_move
        ),
    )
    match = match_create(owner=user, game="stud", entrants=FIELD, deals=2, seed=9)
    with pytest.raises(WorkerKilled):
        services.match_execute(match_id=match.pk)
    died = clock.now
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert match.heartbeat_at is not None
    assert died - match.heartbeat_at.timestamp() <= services.heartbeat_seconds()
    heal_every = float(base.CELERY_BEAT_SCHEDULE["bots-matches-heal"]["schedule"])  # type: ignore[arg-type]
    assert stale_seconds() + services.heartbeat_seconds() + heal_every <= 60
    monkeypatch.setattr(services, "HouseEntrant", HouseEntrant)
    resumed_after = None
    for tick in range(1, int(60 / heal_every) + 1):  # beat's healer, every heal_every s
        clock.advance(heal_every)
        with django_capture_on_commit_callbacks(execute=True):
            if matches_heal(now=games_clock.now_datetime())["resumed"]:
                resumed_after = tick * heal_every
                break
    assert resumed_after is not None
    assert resumed_after <= 40
    match.refresh_from_db()
    assert (match.status, match.resumes, match.deals_done) == (Match.Status.FINISHED, 1, 2)


def test_a_slow_deal_of_a_live_worker_is_not_taken_for_a_lost_one(
    user: User, clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves of 4 s on the injected clock: a deal lasts far longer than the 30 s of staleness,
    yet the healer, looking after every move, never resumes the match: its slice renews the
    heartbeat before moves (every ``BOTS_MATCH_HEARTBEAT_SECONDS``, 5)."""
    seen: list[dict[str, int]] = []

    def healer() -> None:
        seen.append(matches_heal(now=games_clock.now_datetime()))

    monkeypatch.setattr(
        services,
        "HouseEntrant",
        lambda level, name: _SlowHouse(level, name=name, clock=clock, seconds=4.0, during=healer),
    )
    start = clock.now
    match = match_create(owner=user, game="stud", entrants=FIELD, deals=1, seed=10)
    assert services.match_execute(match_id=match.pk) == Match.Status.FINISHED
    assert clock.now - start > 2 * stale_seconds()
    assert seen
    assert all(s == {"failed": 0, "resumed": 0, "requeued": 0} for s in seen)
    match.refresh_from_db()
    assert match.resumes == 0
    assert match.heartbeat_at is not None
    assert match.started_at is not None
    assert match.heartbeat_at >= match.started_at + timedelta(seconds=2 * stale_seconds())


def test_a_lab_task_goes_back_to_the_queue_when_its_process_is_killed() -> None:
    from games.realtime import celery_task

    task = celery_task(services.RUN_TASK)
    assert task.acks_late is True
    assert task.reject_on_worker_lost is True
