"""With DEBUG off a user never sees a traceback: styled 400/403/404/500 pages in both
languages (issue 14)."""

from __future__ import annotations

from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.error_urls")]


@pytest.fixture
def prod(settings: Any) -> Any:
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["testserver"]
    return settings


def _client(language: str = "en") -> Client:
    client = Client(raise_request_exception=False)
    client.cookies["django_language"] = language
    return client


def _styled(body: str) -> None:
    assert 'class="site-header"' in body  # the site's base template
    assert "Traceback" not in body
    assert "kaboom" not in body


@pytest.mark.parametrize(
    ("url", "status", "title_en"),
    [
        ("/test-errors/boom/", 500, "Something went wrong"),
        ("/test-errors/forbidden/", 403, "Not allowed"),
        ("/no-such-page/", 404, "Page not found"),
        ("/test-errors/bad/", 400, "Bad request"),
    ],
)
@pytest.mark.parametrize("language", ["en", "vi"])
def test_error_pages_are_styled_and_translated(
    prod: Any, url: str, status: int, title_en: str, language: str
) -> None:
    response = _client(language).get(url)
    assert response.status_code == status
    body = response.content.decode()
    _styled(body)
    assert f'data-status="{status}"' in body
    with translation.override(language):
        title = translation.gettext(title_en)
    if language == "vi":
        assert title != title_en, f"no Vietnamese for {title_en!r}"
    assert title in body


def test_a_host_not_allowed_gets_the_400_page(prod: Any) -> None:
    response = _client().get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    _styled(response.content.decode())


def test_api_errors_stay_json(prod: Any) -> None:
    response = _client().get("/api/test-errors/boom/")
    assert response.status_code == 500
    assert response.json() == {"detail": "Something went wrong on the server."}


def test_500_page_renders_without_a_request() -> None:
    body = render_to_string("500.html")
    assert "Something went wrong" in body
    assert 'class="site-header"' in body


def test_a_broken_500_template_still_gives_a_plain_page(prod: Any, monkeypatch: Any) -> None:
    import config.views

    def broken(*args: Any, **kwargs: Any) -> str:
        raise ValueError("Missing staticfiles manifest entry")

    monkeypatch.setattr(config.views, "render_to_string", broken)
    response = _client().get("/test-errors/boom/")
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    assert "Traceback" not in response.content.decode()
