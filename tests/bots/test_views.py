"""Bot pages: My Bots, create, editor, history, rollback, compare, delete. Owner-only."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from bots.examples import template_code
from bots.models import Bot, BotVersion
from bots.reference import render_html
from bots.services import bot_create, botversion_create
from tests.factories import SeatFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot(user: User) -> Bot:
    bot = bot_create(owner=user, name="Gecko", description="Eats flies", code="// v1")
    botversion_create(bot=bot, code="// v2")
    return bot


def owner_pages(bot: Bot) -> list[str]:
    return [
        reverse("bots:editor", args=[bot.pk]),
        reverse("bots:versions", args=[bot.pk]),
        reverse("bots:version", args=[bot.pk, 1]),
        reverse("bots:compare", args=[bot.pk]) + "?a=1&b=2",
    ]


def test_pages_need_a_login(client: Client, bot: Bot) -> None:
    for url in [reverse("bots:list"), *owner_pages(bot)]:
        response = client.get(url)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]


def test_my_bots_lists_bots_with_status_and_the_create_form(user_client: Client, bot: Bot) -> None:
    BotVersion.objects.filter(bot=bot, number=2).update(status=BotVersion.Status.READY)
    page = user_client.get(reverse("bots:list")).content.decode()
    assert "Gecko" in page
    assert 'data-status="ready"' in page
    assert "Create New Bot" in page
    assert reverse("bots:editor", args=[bot.pk]) in page


def test_create_starts_from_the_template_and_opens_the_editor(user_client: Client) -> None:
    response = user_client.post(reverse("bots:create"), {"name": "Fresh", "description": ""})
    bot = Bot.objects.get(name="Fresh")
    assert response.status_code == 302
    assert response["Location"] == reverse("bots:editor", args=[bot.pk])
    assert bot.versions.get().code == template_code()


def test_create_rejects_a_duplicate_name(user_client: Client, bot: Bot) -> None:
    response = user_client.post(reverse("bots:create"), {"name": "Gecko"})
    assert response.status_code == 400
    assert "You already have a bot with this name." in response.content.decode()


def test_editor_page_loads_monaco_from_static_and_embeds_the_config(
    user_client: Client, bot: Bot
) -> None:
    response = user_client.get(reverse("bots:editor", args=[bot.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "/static/vendor/monaco/vs/loader.js" in page
    assert "/static/js/bots/editor.js" in page
    assert "cdn" not in page.lower()
    start = page.index('<script id="bot-editor-config" type="application/json">')
    raw = page[start:].split(">", 1)[1].split("</script>", 1)[0]
    config = json.loads(raw)
    assert config["code"] == "// v2"
    assert config["latest"]["number"] == 2
    assert config["api"]["versions"] == f"/api/bots/{bot.pk}/versions/"
    assert {e["key"] for e in config["examples"]} == {"random", "greedy", "defensive"}
    assert config["samples"] >= 10
    # The reference panel is in the page, generated from bots/reference/.
    assert 'id="ref-fields"' in page
    assert "minRankToBeat" in page


def test_the_editor_shows_the_reference_in_the_pages_language(
    user_client: Client, bot: Bot, user: User
) -> None:
    url = reverse("bots:editor", args=[bot.pk])
    english = user_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<summary>How your bot runs</summary>" in english
    assert "<summary>Error codes</summary>" in english
    vietnamese = user_client.get(url, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    for heading in ("Bot của bạn chạy thế nào", "Đối tượng lá bài", "Các trường", "Mã lỗi"):
        assert f"<summary>{heading}</summary>" in vietnamese
    assert "How your bot runs" not in vietnamese
    assert "<th>ý nghĩa</th>" in vietnamese
    assert "minRankToBeat" in vietnamese  # field names and code stay as they are
    stud = bot_create(owner=user, name="Stud bot", code="// s", game="stud")
    stud_page = user_client.get(reverse("bots:editor", args=[stud.pk]), HTTP_ACCEPT_LANGUAGE="vi")
    assert "<summary>Stud 7 lá (<code>stud</code>)</summary>" in stud_page.content.decode()


def test_the_editor_lists_the_examples_in_the_pages_language(user_client: Client, bot: Bot) -> None:
    url = reverse("bots:editor", args=[bot.pk])
    english = user_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<strong>Greedy</strong>" in english
    assert "Picks any legal move at random; sometimes passes." in english
    response = user_client.get(url, HTTP_ACCEPT_LANGUAGE="vi")
    vietnamese = response.content.decode()
    assert "<strong>Tham lam</strong>" in vietnamese
    assert "<strong>Ngẫu nhiên</strong>" in vietnamese
    assert "Chọn ngẫu nhiên một nước đi hợp lệ; đôi khi bỏ lượt." in vietnamese
    assert "<strong>Greedy</strong>" not in vietnamese
    titles = {e["key"]: e["title"] for e in response.context["config"]["examples"]}
    assert titles == {"random": "Ngẫu nhiên", "greedy": "Tham lam", "defensive": "Phòng thủ"}


def test_editor_can_open_an_older_version(user_client: Client, bot: Bot) -> None:
    page = user_client.get(reverse("bots:editor", args=[bot.pk]) + "?version=1")
    assert '"code": "// v1"' in page.content.decode()
    missing = user_client.get(reverse("bots:editor", args=[bot.pk]) + "?version=9")
    assert missing.status_code == 404


def test_user_text_is_escaped(user_client: Client, user: User) -> None:
    evil = bot_create(
        owner=user,
        name="<script>alert(1)</script>",
        description="<img src=x onerror=alert(2)>",
        code="</script><script>alert(3)</script>",
    )
    for url in [
        reverse("bots:list"),
        reverse("bots:editor", args=[evil.pk]),
        reverse("bots:versions", args=[evil.pk]),
        reverse("bots:version", args=[evil.pk, 1]),
    ]:
        page = user_client.get(url).content.decode()
        assert "<script>alert" not in page, url
        assert "<img src=x" not in page, url


def test_other_users_get_404_everywhere(client: Client, other_user: User, bot: Bot) -> None:
    client.force_login(other_user)
    for url in owner_pages(bot):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("bots:rollback", args=[bot.pk, 1])).status_code == 404
    assert client.post(reverse("bots:delete", args=[bot.pk])).status_code == 404
    assert bot.versions.count() == 2
    assert Bot.objects.filter(pk=bot.pk).exists()


def test_posts_need_the_csrf_token(user: User, bot: Bot) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    for url in [
        reverse("bots:create"),
        reverse("bots:rollback", args=[bot.pk, 1]),
        reverse("bots:delete", args=[bot.pk]),
    ]:
        assert client.post(url, {"name": "X"}).status_code == 403, url
    api = client.post(
        f"/api/bots/{bot.pk}/versions/", {"code": "// x"}, content_type="application/json"
    )
    assert api.status_code == 403
    assert bot.versions.count() == 2


def test_history_rollback_and_compare(user_client: Client, bot: Bot) -> None:
    history = user_client.get(reverse("bots:versions", args=[bot.pk])).content.decode()
    assert "Roll back to v1" in history
    assert "Roll back to v2" not in history  # the latest needs no rollback

    response = user_client.post(reverse("bots:rollback", args=[bot.pk, 1]))
    assert response.status_code == 302
    assert bot.versions.get(number=3).code == "// v1"

    compare = user_client.get(reverse("bots:compare", args=[bot.pk]) + "?a=1&b=3")
    page = compare.content.decode()
    assert compare.status_code == 200
    assert "v1 vs v3" in page
    assert 'id="bot-diff"' in page
    assert user_client.get(reverse("bots:compare", args=[bot.pk]) + "?a=1&b=1").status_code == 302


def test_version_page_shows_the_validation_game(user_client: Client, bot: Bot) -> None:
    BotVersion.objects.filter(bot=bot, number=1).update(
        status=BotVersion.Status.NOT_READY,
        validation={
            "message": "seat 0 collected 3 strikes",
            "moves": 3,
            "strikes": [3, 0, 0, 0],
            "records": [
                {
                    "n": 1,
                    "seat": 0,
                    "move": "Played 3♠",
                    "auto": True,
                    "ms": 1.2,
                    "error_code": "exception",
                    "error_message": "TypeError: <boom>",
                    "console": ["<b>log</b>"],
                }
            ],
        },
    )
    page = user_client.get(reverse("bots:version", args=[bot.pk, 1])).content.decode()
    assert "seat 0 collected 3 strikes" in page
    assert "TypeError: &lt;boom&gt;" in page
    assert "&lt;b&gt;log&lt;/b&gt;" in page


def test_delete(user_client: Client, user: User, bot: Bot) -> None:
    kept = bot_create(owner=user, name="Seated", code="// v1")
    SeatFactory.create(kind="bot", user=None, bot_version=kept.versions.get())
    response = user_client.post(reverse("bots:delete", args=[kept.pk]), follow=True)
    assert "has played at a table" in response.content.decode()
    assert Bot.objects.filter(pk=kept.pk).exists()

    response = user_client.post(reverse("bots:delete", args=[bot.pk]))
    assert response["Location"] == reverse("bots:list")
    assert not Bot.objects.filter(pk=bot.pk).exists()


def test_monaco_is_vendored_without_a_cdn() -> None:
    base = Path(settings.BASE_DIR) / "static" / "vendor" / "monaco"
    for rel in [
        "LICENSE",
        "vs/loader.js",
        "vs/editor/editor.main.js",
        "vs/editor/editor.main.css",
        "vs/base/worker/workerMain.js",
        "vs/language/typescript/tsWorker.js",
        "vs/basic-languages/javascript/javascript.js",
    ]:
        assert (base / rel).is_file(), rel
    worker = (Path(settings.BASE_DIR) / "static/js/bots/monaco-worker.js").read_text()
    assert "http" not in worker


@pytest.mark.parametrize("game", ["tienlen", "stud", "diu"])
def test_every_link_of_the_reference_panel_opens_a_page(
    user_client: Client, user: User, game: str
) -> None:
    """Issue 25: the API panel linked to docs/rules/tienlen.md relative to the editor: a 404."""
    from bots.views import rules_pages

    bot_of_game = bot_create(owner=user, name=f"{game} bot", code="// s", game=game)
    page = user_client.get(reverse("bots:editor", args=[bot_of_game.pk])).content.decode()
    panel = render_html(game=game, links=rules_pages())
    assert panel in page
    hrefs = re.findall(r'href="([^"]+)"', panel)
    assert not [h for h in hrefs if h.endswith(".md")], hrefs
    for href in hrefs:
        if href.startswith("/"):
            assert user_client.get(href).status_code == 200, href
    if game == "tienlen":
        assert reverse("how_to_play") in hrefs


def test_compare_shows_the_win_rate_as_a_percentage(
    user_client: Client, bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: 7 wins in 19 games read "7 (0.37)"."""
    from dataclasses import replace

    from bots import views
    from bots.selectors import botversion_results

    def with_games(**kwargs: object) -> list[object]:
        return [replace(r, games=19, wins=7) for r in botversion_results(**kwargs)]  # type: ignore[arg-type]

    monkeypatch.setattr(views, "botversion_results", with_games)
    page = user_client.get(reverse("bots:compare", args=[bot.pk]) + "?a=1&b=2").content.decode()
    assert "7 (37 %)" in page
    assert "0.37" not in page
