"""A match whose worker died is resumed by the healer from its last saved deal (the core's
statistics are saved after every deal) and ends with the report of an uninterrupted run; a
presumed-dead run that comes back writes nothing over the resumed one; a match lost too often
is failed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from bots.lab.entrants import BotFileEntrant
from bots.matches import services
from bots.matches.services import match_create, matches_heal, stale_seconds
from bots.models import BotVersion, Match
from games.engine.duplicate import DuplicateStats, HouseEntrant, run_match
from games.engine.registry import find_game
from tests.bots.matches.conftest import without_timing

pytestmark = pytest.mark.django_db

DEALS = 5
SEED = 17


class WorkerKilled(BaseException):
    """What a kill -9 looks like from inside the task: nothing after it runs (no ``except``
    of the service catches a BaseException), so the row is left ``running``."""


def _uninterrupted(version: BotVersion) -> Any:
    return run_match(
        find_game("tienlen"),
        [BotFileEntrant("Mine v1", version.code), HouseEntrant("hard", name="house:hard")],
        DEALS,
        SEED,
    )


def _spy_runs(monkeypatch: pytest.MonkeyPatch, *, die_after: int | None) -> list[dict[str, Any]]:
    """Spy on the core's run_match (the real one runs): record each run's resume point; with
    ``die_after``, the first run's worker dies once that many deals were saved."""
    real = services.run_match
    runs: list[dict[str, Any]] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        resume = kwargs.get("resume")
        runs.append({"from": resume.deals if resume else 0, "series": len(kwargs["series"])})
        on_progress = kwargs["on_progress"]

        def progress(p: Any) -> None:
            on_progress(p)
            runs[-1]["to"] = p.deals_done
            if len(runs) == 1 and die_after is not None and p.deals_done == die_after:
                raise WorkerKilled

        return real(*args, **{**kwargs, "on_progress": progress})

    monkeypatch.setattr(services, "run_match", spy)
    return runs


def _create(user: User, version: BotVersion) -> Match:
    return match_create(
        owner=user,
        game="tienlen",
        entrants=[f"version:{version.pk}", "house:hard"],
        deals=DEALS,
        seed=SEED,
    )


def test_a_lost_match_is_resumed_from_its_last_deal_and_ends_as_an_uninterrupted_run(
    user: User,
    mine: list[BotVersion],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    version = mine[0]
    match = _create(user, version)
    runs = _spy_runs(monkeypatch, die_after=2)
    with pytest.raises(WorkerKilled):
        services.match_execute(match_id=match.pk)
    match.refresh_from_db()
    # what the dead worker left: running, two deals saved with the core's statistics
    assert (match.status, match.deals_done, len(match.series)) == (Match.Status.RUNNING, 2, 2)
    assert DuplicateStats.from_json(match.stats).deals == 2
    started = match.started_at
    assert match.heartbeat_at is not None
    # not yet stale: the healer leaves it alone
    fresh = match.heartbeat_at + timedelta(seconds=stale_seconds() - 1)
    assert matches_heal(now=fresh) == {"failed": 0, "resumed": 0, "requeued": 0}
    # stale: requeued, and the real task (through the tests' scheduler) resumes it
    later = match.heartbeat_at + timedelta(seconds=stale_seconds() + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert matches_heal(now=later) == {"failed": 0, "resumed": 1, "requeued": 0}
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.error
    assert match.resumes == 1
    assert match.started_at == started
    # the second run played only deals 3 to 5, from the saved statistics and series
    assert runs == [{"from": 0, "series": 0, "to": 2}, {"from": 2, "series": 2, "to": DEALS}]
    expected = _uninterrupted(version)
    assert match.deals_done == DEALS
    assert without_timing(match.report) == without_timing(expected.report)
    assert match.series == expected.series
    assert DuplicateStats.from_json(match.stats).report()["games"] == 2 * DEALS


def test_a_presumed_dead_run_that_comes_back_writes_nothing_over_the_resumed_one(
    user: User, mine: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    version = mine[0]
    match = _create(user, version)
    real = services.run_match
    healed: dict[str, Any] = {}

    def slow_worker(*args: Any, **kwargs: Any) -> Any:
        on_progress = kwargs["on_progress"]

        def progress(p: Any) -> None:
            on_progress(p)
            if p.deals_done == 1 and not healed:  # the healer gave this run up meanwhile
                beat = Match.objects.get(pk=match.pk).heartbeat_at
                assert beat is not None
                stale = beat + timedelta(seconds=stale_seconds() + 1)
                healed.update(matches_heal(now=stale))  # its task is not run (no commit)

        return real(*args, **{**kwargs, "on_progress": progress})

    monkeypatch.setattr(services, "run_match", slow_worker)
    services.match_execute(match_id=match.pk)  # the old run: it stops at its next deal
    assert healed == {"failed": 0, "resumed": 1, "requeued": 0}
    match.refresh_from_db()
    assert (match.status, match.resumes, match.deals_done) == (Match.Status.QUEUED, 1, 1)
    assert match.finished_at is None
    monkeypatch.setattr(services, "run_match", real)
    assert services.match_execute(match_id=match.pk) == Match.Status.FINISHED  # the new run
    match.refresh_from_db()
    expected = _uninterrupted(version)
    assert without_timing(match.report) == without_timing(expected.report)
    assert match.series == expected.series


def test_a_match_lost_too_often_is_failed_and_a_queued_resumed_one_stops_with_its_report(
    user: User, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.BOTS_MATCH_MAX_RESUMES = 3
    field = ["house:easy", "house:hard"]
    worn = match_create(owner=user, game="stud", entrants=field, deals=5, seed=1)
    again = match_create(owner=user, game="stud", entrants=field, deals=5, seed=2)
    beat = Match.objects.get(pk=worn.pk).heartbeat_at
    assert beat is not None
    now = beat + timedelta(seconds=stale_seconds() + 1)
    Match.objects.filter(pk=worn.pk).update(status=Match.Status.RUNNING, resumes=3)
    Match.objects.filter(pk=again.pk).update(status=Match.Status.RUNNING, resumes=2)
    assert matches_heal(now=now) == {"failed": 1, "resumed": 1, "requeued": 0}
    worn.refresh_from_db()
    again.refresh_from_db()
    assert (worn.status, worn.error, worn.finished_at) == (Match.Status.FAILED, "worker_lost", now)
    assert (again.status, again.resumes) == (Match.Status.QUEUED, 3)
    # a resumed match stopped while queued keeps its deals so far, marked stopped
    Match.objects.filter(pk=again.pk).update(report={"deals": 2, "stopped": None})
    stopped = services.match_stop(owner=user, match_id=again.pk)
    assert stopped.status == Match.Status.STOPPED
    assert stopped.report == {"deals": 2, "stopped": "stopped"}
