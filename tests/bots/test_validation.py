"""The validation game: one full game against copies of itself marks a version ready or not."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from bots.models import BotVersion
from bots.services import bot_create, botversion_create, botversion_validate
from bots.validation import play_validation_game
from tests.bots.conftest import THROWING_BOT

pytestmark = pytest.mark.django_db


def test_a_good_version_is_ready_with_a_summary(user: User, good_code: str) -> None:
    bot = bot_create(owner=user, name="Good", code=good_code)
    version = bot.versions.get()
    assert version.status == BotVersion.Status.PENDING  # on_commit has not run in this test

    version = botversion_validate(version_id=version.pk)
    assert version.status == BotVersion.Status.READY
    summary = version.validation
    assert summary["ready"] is True
    assert summary["finished"] is True
    assert summary["strikes"] == [0, 0, 0, 0]
    assert summary["moves"] == summary["bot_moves_ok"] > 10
    assert summary["winner"] in {0, 1, 2, 3}
    assert sum(summary["scores"]) == 0
    assert summary["avg_ms"] is not None
    assert len(summary["records"]) == summary["moves"]
    assert summary["records"][0]["move"].startswith("Played")


def test_a_throwing_version_is_not_ready_after_three_strikes(user: User) -> None:
    bot = bot_create(owner=user, name="Thrower", code=THROWING_BOT)
    version = botversion_validate(version_id=bot.versions.get().pk)
    assert version.status == BotVersion.Status.NOT_READY
    summary = version.validation
    assert summary["reason"] == "strikes"
    assert max(summary["strikes"]) == 3
    assert summary["failures"] == {"exception": sum(summary["strikes"])}
    first = summary["first_failure"]
    assert first["error_code"] == "exception"
    assert first["console"] == ["about to fail at seat 0"] or first["console"][0].startswith(
        "about to fail"
    )
    assert all(r["auto"] for r in summary["records"])  # the house policy moved instead


def test_code_that_does_not_load_is_not_ready(user: User) -> None:
    bot = bot_create(owner=user, name="Broken", code="function getNextMove( {")
    version = botversion_validate(version_id=bot.versions.get().pk)
    assert version.status == BotVersion.Status.NOT_READY
    assert version.validation["reason"] == "load:syntax"
    assert version.validation["moves"] == 0


def test_validation_is_idempotent(user: User, good_code: str) -> None:
    bot = bot_create(owner=user, name="Twice", code=good_code)
    first = botversion_validate(version_id=bot.versions.get().pk)
    stamp = first.validation["validated_at"]
    BotVersion.objects.filter(pk=first.pk).update(code="function getNextMove( {")
    again = botversion_validate(version_id=first.pk)
    assert again.status == BotVersion.Status.READY
    assert again.validation["validated_at"] == stamp


def test_timeouts_fail_validation_at_once() -> None:
    code = """
    let calls = 0;
    function getNextMove(s) {
      calls += 1;
      if (calls === 2) { while (true) {} }
      return s.validMoves.length ? { action: "play", cards: s.validMoves[0].cards }
                                 : { action: "pass" };
    }
    """
    report = play_validation_game(code, seed=3, move_timeout_s=0.3)
    assert not report.ready
    assert report.reason == "timeout"
    assert report.failures == {"timeout": 1}
    assert report.first_failure is not None
    assert report.first_failure["error_code"] == "timeout"


def test_illegal_moves_are_strikes() -> None:
    code = "function getNextMove(s) { return { action: 'pass' }; }"  # a leader may not pass
    report = play_validation_game(code, seed=5)
    assert not report.ready
    assert report.reason == "strikes"
    assert set(report.failures) == {"illegal:leader_cannot_pass"}


def test_overall_budget() -> None:
    code = "function getNextMove(s) { return { action: 'pass' }; }"
    report = play_validation_game(code, seed=5, budget_s=0.0)
    assert report.reason == "too_slow"
    assert not report.ready


def test_saving_enqueues_validation_on_commit(
    user: User, good_code: str, django_capture_on_commit_callbacks: object
) -> None:
    bot = bot_create(owner=user, name="Queued")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:  # type: ignore[operator]
        version = botversion_create(bot=bot, code=good_code)
    assert len(callbacks) == 1
    version.refresh_from_db()
    assert version.status == BotVersion.Status.READY  # the test scheduler ran it at once


def test_names_still_unique(user: User) -> None:
    bot_create(owner=user, name="Same")
    with pytest.raises(ValidationError):
        bot_create(owner=user, name="Same")


def test_an_instant_win_deal_is_skipped() -> None:
    from games.engine.tienlen import GAME

    seed = next(s for s in range(5000) if GAME.new_game({"players": 4}, seed=s).finished)
    report = play_validation_game(THROWING_BOT, seed=seed)
    assert report.seed != seed
    assert report.reason == "strikes"
