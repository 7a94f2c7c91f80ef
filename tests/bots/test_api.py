"""/api/bots/: versions, rollback, compare, Test Bot and syntax check; owner-scoped."""

from __future__ import annotations

from typing import Any

import pytest
from celery import current_app
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from accounts.models import User
from bots import services as bot_services
from bots.models import Bot, BotVersion
from bots.services import bot_create, botversion_create
from tests.factories import BotFactory
from tests.scheduler import SCHEDULER

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def bot(user: User) -> Bot:
    bot = bot_create(owner=user, name="Gecko", code="// v1")
    botversion_create(bot=bot, code="// v2")
    return bot


def test_versions_list_newest_first_without_code(api: APIClient, bot: Bot) -> None:
    BotVersion.objects.filter(bot=bot, number=1).update(
        status="ready", validation={"message": "ok", "records": [{"n": 1}]}
    )
    body = api.get(f"/api/bots/{bot.pk}/versions/").json()
    rows = body["results"]
    assert [r["number"] for r in rows] == [2, 1]
    assert rows[1]["status"] == "ready"
    assert rows[1]["validation"] == {"message": "ok"}
    assert "code" not in rows[0]


def test_version_detail_has_code_and_records(api: APIClient, bot: Bot) -> None:
    body = api.get(f"/api/bots/{bot.pk}/versions/1/").json()
    assert body["code"] == "// v1"
    assert body["number"] == 1
    assert api.get(f"/api/bots/{bot.pk}/versions/9/").status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Syntax error at line 2, column"), ("vi", "Lỗi cú pháp ở dòng 2, cột")],
)
def test_code_with_a_syntax_error_is_refused_and_nothing_is_saved(
    api: APIClient, bot: Bot, language: str, words: str
) -> None:
    """Issue 25: code with a syntax error was saved as a new version."""
    response = api.post(
        f"/api/bots/{bot.pk}/versions/",
        {"code": "// one\nfunction getNextMove( {"},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    body: dict[str, Any] = response.json()
    assert body["code"] == "syntax_error"
    assert body["detail"].startswith(words), body["detail"]
    assert body["issues"][0]["line"] == 2
    assert isinstance(body["issues"][0]["column"], int)
    assert body["issues"][0]["message"]
    assert bot.versions.count() == 2  # nothing saved
    # a new bot with such code, and an edit of the bot's code: refused the same way
    created = api.post("/api/bots/", {"name": "Broken", "code": "let = ;"}, format="json")
    assert (created.status_code, created.json()["code"]) == (400, "syntax_error")
    assert not Bot.objects.filter(name="Broken").exists()
    edited = api.patch(f"/api/bots/{bot.pk}/", {"code": "let = ;"}, format="json")
    assert (edited.status_code, edited.json()["code"]) == (400, "syntax_error")
    assert bot.versions.count() == 2
    good = api.post(
        f"/api/bots/{bot.pk}/versions/",
        {"code": "function getNextMove(s) { return {action: 'pass'}; }"},
        format="json",
    )
    assert good.status_code == 201
    assert good.json()["number"] == 3
    assert good.json()["issues"] == []
    assert api.post(f"/api/bots/{bot.pk}/versions/", {}, format="json").status_code == 400


def test_rollback(api: APIClient, bot: Bot) -> None:
    response = api.post(f"/api/bots/{bot.pk}/versions/1/rollback/")
    assert response.status_code == 201
    assert response.json()["number"] == 3
    assert bot.versions.get(number=3).code == "// v1"
    assert api.post(f"/api/bots/{bot.pk}/versions/8/rollback/").status_code == 404


def test_compare(api: APIClient, bot: Bot) -> None:
    rows = api.get(f"/api/bots/{bot.pk}/compare/?versions=2,1").json()
    assert [r["number"] for r in rows] == [2, 1]
    assert rows[0]["games"] == 0
    assert rows[0]["average_points"] is None
    assert api.get(f"/api/bots/{bot.pk}/compare/?versions=x").status_code == 400
    assert api.get(f"/api/bots/{bot.pk}/compare/").status_code == 400


def test_test_run_returns_every_sample(api: APIClient, good_code: str) -> None:
    """The test scheduler runs the task at once: the run is done when the POST answers
    (through a worker it is queued; tests/bots/test_test_run_worker.py), and its url gives the
    same results."""
    response = api.post("/api/bots/test-run/", {"code": good_code}, format="json")
    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "done"
    assert api.get(body["url"]).json() == body
    assert body["total"] >= 10
    assert body["passed"] == body["total"]
    assert body["results"][0]["move_text"] == "Played 3♠"
    bad = api.post(
        "/api/bots/test-run/", {"code": "function getNextMove(s) { throw new Error('no'); }"}
    ).json()
    assert bad["passed"] == 0
    assert bad["results"][0]["error_code"] == "exception"
    assert "Error: no" in bad["results"][0]["error_message"]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[Any], str]]:
    """As with a worker: the runs are sent (collected here from the scheduler) and not run."""
    sent: list[tuple[str, list[Any], str]] = []

    def collect(
        name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None:
        sent.append((name, args, queue))

    monkeypatch.setattr(SCHEDULER, "schedule", collect)
    return sent


def test_test_runs_are_sent_to_a_trials_worker(
    api: APIClient,
    good_code: str,
    queued: list[tuple[str, list[Any], str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing runs in the web process: the POST answers at once with a queued run, which the
    task's body (on a trials worker, never the timers' one) completes."""

    def no_sandbox_here(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("sandboxes started in the web process")

    monkeypatch.setattr(bot_services, "run_samples", no_sandbox_here)
    response = api.post("/api/bots/test-run/", {"code": good_code}, format="json")
    assert response.status_code == 202
    run = response.json()
    assert run["status"] == "queued"
    assert "results" not in run
    assert queued == [(bot_services.TEST_RUN_TASK, [run["id"]], "trials")]
    assert api.get(run["url"]).json()["status"] == "queued"
    assert current_app.conf.task_routes[bot_services.TEST_RUN_TASK] == {"queue": "trials"}


def test_test_runs_in_flight_are_limited_per_user(
    api: APIClient,
    user: User,
    other_user: User,
    good_code: str,
    queued: list[tuple[str, list[Any], str]],
) -> None:
    first, second = (
        api.post("/api/bots/test-run/", {"code": good_code}, format="json") for _ in range(2)
    )
    assert first.status_code == second.status_code == 202
    refused = api.post("/api/bots/test-run/", {"code": good_code}, format="json")
    assert refused.status_code == 429
    assert refused.json() == {
        "code": "test_runs_in_flight",
        "detail": "You already have 2 test runs in progress. Wait for one to finish.",
    }
    assert refused["Retry-After"]
    vi = api.post(
        "/api/bots/test-run/", {"code": good_code}, format="json", HTTP_ACCEPT_LANGUAGE="vi"
    ).json()
    assert vi["code"] == "test_runs_in_flight"
    assert vi["detail"].startswith("Bạn đang có 2 lượt chạy thử")
    assert len(queued) == 2
    # another user has their own slots, and cannot read this user's runs
    other = APIClient()
    other.force_authenticate(other_user)
    assert other.post("/api/bots/test-run/", {"code": good_code}).status_code == 202
    assert other.get(first.json()["url"]).status_code == 404
    # a run that ends frees its slot
    assert bot_services.bot_test_run_execute(run_id=first.json()["id"]) == "done"
    done = api.get(first.json()["url"]).json()
    assert done["status"] == "done"
    assert done["passed"] == done["total"] >= 10
    assert api.post("/api/bots/test-run/", {"code": good_code}).status_code == 202
    assert api.post("/api/bots/test-run/", {"code": good_code}).status_code == 429
    # a duplicate delivery of a finished run changes nothing
    assert bot_services.bot_test_run_execute(run_id=first.json()["id"]) == "done"
    assert api.get(first.json()["url"]).json() == done


def test_a_test_run_that_crashes_fails_and_frees_its_slot(
    api: APIClient, queued: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(bot_services, "run_samples", broken)
    runs = [api.post("/api/bots/test-run/", {"code": "x"}).json() for _ in range(2)]
    assert bot_services.bot_test_run_execute(run_id=runs[0]["id"]) == "failed"
    failed = api.get(runs[0]["url"]).json()
    assert failed["status"] == "failed"
    assert failed["error"] == "the test run failed (RuntimeError)"
    assert api.post("/api/bots/test-run/", {"code": "x"}).status_code == 202


def test_check_syntax(api: APIClient) -> None:
    assert api.post("/api/bots/check-syntax/", {"code": "let x = 1;"}).json() == {"issues": []}
    issues = api.post("/api/bots/check-syntax/", {"code": "let = ;"}).json()["issues"]
    assert issues[0]["line"] == 1


def test_delete_via_api(api: APIClient, bot: Bot) -> None:
    assert api.delete(f"/api/bots/{bot.pk}/").status_code == 204
    assert not Bot.objects.filter(pk=bot.pk).exists()


def test_other_users_bots_are_404(api: APIClient, other_user: User) -> None:
    foreign = BotFactory.create(owner=other_user)
    BotVersion.objects.create(bot=foreign, number=1, code="// secret")
    for url in [
        f"/api/bots/{foreign.pk}/versions/",
        f"/api/bots/{foreign.pk}/versions/1/",
        f"/api/bots/{foreign.pk}/compare/?versions=1",
    ]:
        assert api.get(url).status_code == 404, url
    assert api.post(f"/api/bots/{foreign.pk}/versions/", {"code": "x"}).status_code == 404
    assert api.post(f"/api/bots/{foreign.pk}/versions/1/rollback/").status_code == 404
    assert api.delete(f"/api/bots/{foreign.pk}/").status_code == 404
    assert foreign.versions.count() == 1


def test_anonymous_is_refused() -> None:
    client = APIClient()
    assert client.post("/api/bots/test-run/", {"code": "x"}).status_code in {401, 403}


def test_test_runs_are_write_throttled(api: APIClient) -> None:
    cache.clear()
    rates = {"write": "2/minute", "anon": "100/minute"}
    with override_settings(REST_FRAMEWORK={"DEFAULT_THROTTLE_RATES": rates}):
        codes = [api.post("/api/bots/check-syntax/", {"code": "1"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_schema_lists_the_new_endpoints(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in [
        "/api/bots/{id}/versions/",
        "/api/bots/{id}/versions/{number}/",
        "/api/bots/{id}/versions/{number}/rollback/",
        "/api/bots/{id}/compare/",
        "/api/bots/test-run/",
        "/api/bots/check-syntax/",
    ]:
        assert path in schema["paths"], path
