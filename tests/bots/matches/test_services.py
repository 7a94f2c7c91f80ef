"""Matches: what may be created (the seating rule, limits, bad input), a run to the end in this
process (the task through the tests' scheduler) equal to the core's run_match, stop, the
healer, and Promote changing what others seat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from bots.matches import leases, services
from bots.matches.services import MatchError, bot_promote, match_create, match_stop, matches_heal
from bots.models import BotVersion, Match
from bots.selectors import arena_version_choices, bot_seat_choices
from games import clock
from games.engine.duplicate import HouseEntrant, run_match
from games.engine.registry import find_game
from games.leases import lease_key
from games.redis_clients import sync_client
from tests.bots.matches.conftest import without_timing

pytestmark = pytest.mark.django_db


def _refused(code: str, **kwargs: Any) -> None:
    before = Match.objects.count()
    with pytest.raises(MatchError) as info:
        match_create(**kwargs)
    assert info.value.code == code
    assert info.value.message
    assert Match.objects.count() == before


def test_a_field_of_seatable_entrants_is_queued(
    user: User, mine: list[BotVersion], theirs: list[BotVersion]
) -> None:
    match = match_create(
        owner=user,
        game="tienlen",
        entrants=[
            {"kind": "version", "version_id": mine[2].pk},
            {"kind": "version", "version_id": mine[0].pk},
            "house:hard",
            {"kind": "version", "version_id": theirs[2].pk},
        ],
        deals=12,
        seed=99,
    )
    assert match.status == Match.Status.QUEUED
    assert match.labels == ["Mine v3", "Mine v1", "house:hard", "Theirs v3 · bob"]
    assert match.entrants[0] == {"kind": "version", "version_id": mine[2].pk, "label": "Mine v3"}
    assert (match.deals, match.seed, match.deals_done) == (12, 99, 0)


def test_a_random_seed_is_chosen_and_kept(user: User) -> None:
    match = match_create(owner=user, game="stud", entrants=["house:easy", "house:hard"], deals=1)
    assert 0 <= match.seed < 10**9
    assert match.labels == ["house:easy", "house:hard"]


def test_the_same_entrant_twice_gets_distinct_labels(user: User) -> None:
    match = match_create(owner=user, game="stud", entrants=["house:easy"] * 3, deals=1, seed=1)
    assert match.labels == ["house:easy", "house:easy#2", "house:easy#3"]


def test_versions_nobody_may_seat_are_refused_and_nothing_is_created(
    user: User,
    mine: list[BotVersion],
    theirs: list[BotVersion],
    private: list[BotVersion],
) -> None:
    base = {"owner": user, "game": "tienlen", "deals": 2, "seed": 1}
    house = ["house:easy"]
    code = "entrant_not_seatable"
    _refused(code, entrants=[{"kind": "version", "version_id": private[0].pk}, *house], **base)
    _refused(code, entrants=[{"kind": "version", "version_id": 10**9}, *house], **base)
    # another user's open bot: only the version it plays with (its latest ready one here)
    _refused(code, entrants=[{"kind": "version", "version_id": theirs[0].pk}, *house], **base)
    mine[1].status = BotVersion.Status.NOT_READY
    mine[1].save()
    _refused(code, entrants=[f"version:{mine[1].pk}", *house], **base)
    stud = {**base, "game": "stud"}
    _refused(code, entrants=[f"version:{mine[0].pk}", *house], **stud)  # a Tiến Lên bot


def test_bad_input_gets_a_stable_code(user: User) -> None:
    base: dict[str, Any] = {"owner": user, "game": "tienlen", "seed": 1}
    two = ["house:easy", "house:hard"]
    _refused("bad_field", entrants=["house:easy"], deals=1, **base)
    _refused("bad_field", entrants=["house:easy"] * 5, deals=1, **base)
    _refused("unknown_house_level", entrants=["house:godlike", "house:easy"], deals=1, **base)
    _refused("bad_entrant", entrants=["robot:1", "house:easy"], deals=1, **base)
    _refused(
        "bad_entrant",
        entrants=[{"kind": "version", "version_id": "x"}, "house:easy"],
        deals=1,
        **base,
    )
    for deals in (0, 501, "x", None):
        _refused("bad_deals", entrants=two, deals=deals, **base)
    _refused("bad_seed", entrants=two, deals=1, owner=user, game="tienlen", seed=-1)
    _refused("bad_seed", entrants=two, deals=1, owner=user, game="tienlen", seed=2**63)
    _refused("unknown_game", entrants=two, deals=1, owner=user, game="chess", seed=1)


def test_a_user_has_at_most_two_matches_in_flight(user: User, other_user: User) -> None:
    field = ["house:easy", "house:hard"]
    first = match_create(owner=user, game="stud", entrants=field, deals=1, seed=1)
    match_create(owner=user, game="stud", entrants=field, deals=1, seed=2)
    _refused("matches_in_flight", owner=user, game="stud", entrants=field, deals=1, seed=3)
    match_create(owner=other_user, game="stud", entrants=field, deals=1, seed=3)  # per user
    match_stop(owner=user, match_id=first.pk)
    match_create(owner=user, game="stud", entrants=field, deals=1, seed=4)


def test_a_match_runs_to_the_end_and_its_report_is_the_cores(
    user: User, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(
            owner=user, game="tienlen", entrants=["house:hard", "house:easy"], deals=4, seed=11
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.error
    assert match.deals_done == 4
    assert match.started_at is not None
    assert match.finished_at is not None
    expected = run_match(
        find_game("tienlen"),
        [HouseEntrant("hard", name="house:hard"), HouseEntrant("easy", name="house:easy")],
        4,
        11,
    )
    assert without_timing(match.report) == without_timing(expected.report)
    assert match.series == expected.series
    assert len(match.series) == 4
    assert match.report["games"] == 8  # 4 deals x 2 rotations


def test_a_duplicate_delivery_changes_nothing(user: User) -> None:
    match = match_create(owner=user, game="stud", entrants=["house:easy"] * 2, deals=2, seed=3)
    assert services.match_execute(match_id=match.pk) == Match.Status.FINISHED
    match.refresh_from_db()
    report, finished = match.report, match.finished_at
    assert services.match_execute(match_id=match.pk) == Match.Status.FINISHED
    match.refresh_from_db()
    assert (match.report, match.finished_at) == (report, finished)


def test_early_stop_when_the_intervals_separate(user: User) -> None:
    match = match_create(
        owner=user,
        game="tienlen",
        entrants=["house:hard", "house:easy"],
        deals=60,
        seed=5,
        stop_when_separated=True,
    )
    services.match_execute(match_id=match.pk)
    match.refresh_from_db()
    expected = run_match(
        find_game("tienlen"),
        [HouseEntrant("hard", name="house:hard"), HouseEntrant("easy", name="house:easy")],
        60,
        5,
        stop_when_separated=True,
    )
    assert match.status == Match.Status.FINISHED
    assert match.report["stopped"] == expected.report["stopped"] == "separated"
    assert match.deals_done == expected.report["deals"] == 10  # the fewest deals it may stop at
    assert without_timing(match.report) == without_timing(expected.report)


def test_stopping_a_queued_match_ends_it_and_the_worker_leaves_it(user: User) -> None:
    match = match_create(owner=user, game="stud", entrants=["house:easy"] * 2, deals=5, seed=1)
    stopped = match_stop(owner=user, match_id=match.pk)
    assert stopped.status == Match.Status.STOPPED
    assert services.match_execute(match_id=match.pk) == Match.Status.STOPPED
    match.refresh_from_db()
    assert match.deals_done == 0
    assert match.report == {}
    with pytest.raises(MatchError) as info:
        match_stop(owner=user, match_id=match.pk)
    assert info.value.code == "match_not_running"


def test_a_stop_requested_while_running_ends_it_between_games(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = match_create(owner=user, game="stud", entrants=["house:easy"] * 2, deals=50, seed=1)
    calls = {"n": 0}
    real = services.run_match

    def stop_after_three_deals(*args: Any, **kwargs: Any) -> Any:
        on_progress = kwargs["on_progress"]

        def progress(p: Any) -> None:
            on_progress(p)
            calls["n"] += 1
            if p.deals_done == 3:
                match_stop(owner=user, match_id=match.pk)

        return real(*args, **{**kwargs, "on_progress": progress})

    monkeypatch.setattr(services, "run_match", stop_after_three_deals)  # the real core, spied
    assert services.match_execute(match_id=match.pk) == Match.Status.STOPPED
    match.refresh_from_db()
    assert match.status == Match.Status.STOPPED
    assert match.deals_done == 3 == calls["n"]
    assert match.report["stopped"] == "stopped"
    assert len(match.series) == 3


def test_others_cannot_stop_or_see_a_match(user: User, other_user: User) -> None:
    match = match_create(owner=user, game="stud", entrants=["house:easy"] * 2, deals=5, seed=1)
    for call in (services.match_get, match_stop):
        with pytest.raises(MatchError) as info:
            call(owner=other_user, match_id=match.pk)
        assert info.value.code == "no_such_match"
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED
    assert not match.stop_requested


def test_the_healer_resumes_a_match_whose_worker_died_and_requeues_a_lost_one(
    user: User, other_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    now = clock.now_datetime()
    field = ["house:easy", "house:hard"]
    dead = match_create(owner=user, game="stud", entrants=field, deals=5, seed=1)
    alive = match_create(owner=user, game="stud", entrants=field, deals=5, seed=2)
    lost = match_create(owner=other_user, game="stud", entrants=field, deals=2, seed=3)
    Match.objects.filter(pk=dead.pk).update(
        status=Match.Status.RUNNING, heartbeat_at=now - timedelta(seconds=31)
    )
    Match.objects.filter(pk=alive.pk).update(
        status=Match.Status.RUNNING, heartbeat_at=now - timedelta(seconds=10)
    )
    # its worker renews its run's lease (bots/matches/leases.py); the dead one's lapsed
    alive_lease = lease_key(leases.lease_name(alive.pk, 0), leases.PREFIX)
    sync_client().set(alive_lease, "worker", px=60_000)
    Match.objects.filter(pk=lost.pk).update(heartbeat_at=now - timedelta(seconds=301))
    with django_capture_on_commit_callbacks(execute=True):
        assert matches_heal(now=now) == {"failed": 0, "resumed": 1, "requeued": 1}
    dead.refresh_from_db()
    alive.refresh_from_db()
    lost.refresh_from_db()
    # no deal was saved: resumed from the first one (tests/bots/matches/test_resume.py resumes
    # from a later one), and the scheduler ran it
    assert (dead.status, dead.resumes, dead.deals_done) == (Match.Status.FINISHED, 1, 5)
    assert alive.status == Match.Status.RUNNING
    assert lost.status == Match.Status.FINISHED  # requeued, and the scheduler ran it
    with django_capture_on_commit_callbacks(execute=True):
        assert matches_heal(now=now) == {"failed": 0, "resumed": 0, "requeued": 0}
    sync_client().delete(alive_lease)
    with django_capture_on_commit_callbacks(execute=False):  # its worker died: seconds later
        assert matches_heal(now=now) == {"failed": 0, "resumed": 1, "requeued": 0}


# --------------------------------------------------------------------------- promote


def _seatable_ids(user: User, game: str = "tienlen") -> set[int]:
    return set(BotVersion.objects.seatable(user=user, game=game).values_list("pk", flat=True))


def test_promote_changes_what_others_seat_and_the_owner_still_seats_every_version(
    user: User, other_user: User, theirs: list[BotVersion]
) -> None:
    assert _seatable_ids(user) == {theirs[2].pk}  # the latest ready version
    assert _seatable_ids(other_user) == {v.pk for v in theirs}
    bot = theirs[0].bot
    bot_promote(bot=bot, number=1)
    assert _seatable_ids(user) == {theirs[0].pk}
    assert _seatable_ids(other_user) == {v.pk for v in theirs}
    assert [v for v, _ in bot_seat_choices(user, "tienlen")] == [f"bot:{theirs[0].pk}"]
    assert [v for v, _ in arena_version_choices(user)] == [str(theirs[0].pk)]
    # a match of Alice's seats Bob's promoted version, and no other
    match = match_create(
        owner=user,
        game="tienlen",
        entrants=[f"version:{theirs[0].pk}", "house:easy"],
        deals=1,
        seed=1,
    )
    assert match.labels[0] == "Theirs v1 · bob"
    with pytest.raises(MatchError):
        match_create(
            owner=user,
            game="tienlen",
            entrants=[f"version:{theirs[2].pk}", "house:easy"],
            deals=1,
            seed=1,
        )
    bot_promote(bot=bot, number=None)
    assert _seatable_ids(user) == {theirs[2].pk}


def test_a_promoted_version_that_is_not_ready_falls_back_to_the_latest_ready(
    user: User, theirs: list[BotVersion]
) -> None:
    bot = theirs[0].bot
    bot_promote(bot=bot, number=2)
    BotVersion.objects.filter(pk=theirs[1].pk).update(status=BotVersion.Status.NOT_READY)
    assert _seatable_ids(user) == {theirs[2].pk}


def test_only_a_ready_version_of_ones_bot_can_be_promoted(
    user: User, mine: list[BotVersion]
) -> None:
    bot = mine[0].bot
    BotVersion.objects.filter(pk=mine[1].pk).update(status=BotVersion.Status.NOT_READY)
    for number, code in ((2, "version_not_ready"), (9, "no_such_version")):
        with pytest.raises(MatchError) as info:
            bot_promote(bot=bot, number=number)
        assert info.value.code == code
    bot.refresh_from_db()
    assert bot.promoted_version_id is None


def test_beat_runs_the_healer_and_the_workers_know_both_tasks() -> None:
    from config.settings import base
    from games.realtime import celery_task

    assert base.CELERY_BEAT_SCHEDULE["bots-matches-heal"]["task"] == services.HEAL_TASK
    assert celery_task(services.HEAL_TASK).name == services.HEAL_TASK
    assert celery_task(services.RUN_TASK).name == services.RUN_TASK
