"""Issue #15, "in both languages": the pages a player and a bot author visit, loaded in a real
Chromium in Vietnamese, show no English left over from the fixes (the replay board's words, the
external bot pages, the match and tournament pages), and the English table page no longer shows
the Vietnamese "bỏ lượt (pass)" or "Vòng {n}"."""

from __future__ import annotations

import json
import os
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from bots.external.services import external_bot_create
from bots.matches.services import match_create, match_execute
from games import services
from games.engine.registry import find_game
from games.models import Game, Table
from games.tournaments.services import tournament_create
from tests.bots.matches.conftest import ready_versions
from tests.browser.helpers import (
    collect_errors,
    in_thread,
    log_in,
    people,
    seated_table,
    set_language,
    start_game,
)
from tests.factories import UserFactory
from tests.games.live import seat_users, state_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Where ``TEXT_DUMP=<dir>`` writes each page's visible text (to look for English by eye).
DUMP = os.environ.get("TEXT_DUMP", "")


def finished_game(engine_name: str, owner: Any) -> tuple[Table, Game]:
    """A finished first game of ``engine_name``: four humans, each playing its first legal
    action (the engine's own order) until the game ends."""
    engine = find_game(engine_name)
    others = people(
        range(1, 4), username=engine_name + "{i}", display_name=engine_name.title() + "{i}"
    )
    users = [owner, *others]
    table = seated_table(users, name=f"Bàn {engine_name}", game=engine_name)
    game = start_game(table, owner)
    for _ in range(2000):
        if game.status != Game.Status.RUNNING:
            break
        state = state_of(game)
        seat = engine.round_status(state).pending[0]
        action = dict(engine.legal_actions(state, seat)[0])
        services.game_play(
            table_id=table.pk, user=seat_users(table)[seat], version=game.version, action=action
        )
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return table, game


def _world() -> dict[str, Any]:
    """A signed-up author with a JavaScript bot, an external bot, a finished evaluation match,
    a tournament and a finished game of each game."""
    user = UserFactory.create(username="lan", display_name="Lan")
    versions = ready_versions(user, "Mine", 2)
    external = external_bot_create(owner=user, name="Ngoài", game="tienlen")
    match = match_create(
        owner=user,
        game="tienlen",
        entrants=[f"version:{versions[1].pk}", "house:easy"],
        deals=1,
        seed=1,
    )
    match_execute(match_id=match.pk)
    tournament = tournament_create(
        creator=user,
        name="Giải mùa đông",
        game="tienlen",
        format="round_robin",
        start_at=timezone.now() + timedelta(days=1),
    )
    games = {name: finished_game(name, user) for name in ("tienlen", "stud", "diu")}
    return {
        "user": user,
        "bot": versions[1].bot,
        "external": external,
        "match": match,
        "tournament": tournament,
        "games": games,
    }


@pytest.fixture
def world() -> dict[str, Any]:
    return in_thread(_world)


def _text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def _pages(world: dict[str, Any]) -> dict[str, str]:
    bot, external = world["bot"], world["external"]
    pages = {
        "home": "/",
        "create": "/tables/new/",
        "bots": "/bots/",
        "editor": f"/bots/{bot.pk}/",
        "external": f"/bots/{external.pk}/external/",
        "arena": "/bots/arena/",
        "leaderboard": "/bots/leaderboard/",
        "matches": "/bots/matches/",
        "match": f"/bots/matches/{world['match'].pk}/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{world['tournament'].pk}/",
        "history": "/tables/history/",
        "profile": "/accounts/profile/",
        "token": "/accounts/token/",
        "evaluate": f"/bots/{bot.pk}/versions/2/evaluate/",
        "versions": f"/bots/{bot.pk}/versions/",
        "version": f"/bots/{bot.pk}/versions/1/",
        "compare": f"/bots/{bot.pk}/compare/",
        "rating": f"/bots/{bot.pk}/rating/",
        "how-to-play": "/how-to-play/",
        "import": "/tables/history/import/",
    }
    for name, (table, _game) in world["games"].items():
        pages[f"game-{name}"] = f"/tables/{table.code}/games/1/"
        pages[f"replay-{name}"] = f"/tables/{table.code}/games/1/replay/"
    return pages


def _walk(page: Any, base: str, pages: dict[str, str]) -> dict[str, str]:
    texts: dict[str, str] = {}
    for name, path in pages.items():
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        if name.startswith("replay-"):
            page.locator("#rp-counter").wait_for()
            texts[name] = _text(page)
            page.keyboard.press("End")
            texts[name] += "\n" + _text(page)
        else:
            texts[name] = _text(page)
        if DUMP:
            with open(os.path.join(DUMP, f"{name}.txt"), "w", encoding="utf-8") as out:
                out.write(texts[name])
    return texts


#: English left on Vietnamese pages before issue #15, by page (a prefix of the page's name).
ENGLISH_LEFT = {
    "replay-": [
        "Step ",
        "Dealt",
        "Round 1:",
        "turns, ends at step",
        "Table clear",
        "This step's view (JSON)",
        "▶ Play",
    ],
    "replay-tienlen": ["The cards are dealt\nRound"],
    "leaderboard": ["Bots are rated after every game"],
    "arena": ["(thời gian, console, lỗi)"],
    "game-": ["\thuman\t"],
    "game-tienlen": ["cards left"],
    "editor": ["v2 Ready", "Validating…"],
}


def test_pages_in_vietnamese_show_no_english_left(
    live_server: Any, page: Any, world: dict[str, Any]
) -> None:
    base = live_server.url
    errors = collect_errors(page, console=False)
    log_in(page, base, world["user"])
    set_language(page, base, "vi")
    texts = _walk(page, base, _pages(world))
    assert not errors
    for name, text in texts.items():
        for prefix, phrases in ENGLISH_LEFT.items():
            if name.startswith(prefix):
                left = [p for p in phrases if p in text]
                assert not left, f"{name}: {left}"
    # … and the Vietnamese is there instead
    assert "Bước 0 / " in texts["replay-tienlen"]
    assert "Vòng 1: bắt đầu ở bước 0" in texts["replay-tienlen"]
    assert "Vừa chia bài" in texts["replay-diu"]
    assert "Góc nhìn ở bước này (JSON)" in texts["replay-stud"]
    assert "\tNgười chơi\t" in texts["game-stud"]
    assert "bài còn lại" in texts["game-tienlen"]
    assert "nội dung console.log" in texts["arena"]
    assert "Bot được xếp hạng sau mỗi ván" in texts["leaderboard"]
    page.goto(base + _pages(world)["editor"])
    assert page.locator("#bot-version .bot-status").inner_text() == "Sẵn sàng"

    # the replay's play button says "Phát" / "Tạm dừng", not the table's "Đánh" (play cards)
    table, _game = world["games"]["tienlen"]
    page.goto(f"{base}/tables/{table.code}/games/1/replay/")
    page.locator("#rp-counter").wait_for()
    assert page.locator("#rp-play").inner_text() == "▶ Phát"
    page.locator("#rp-play").click()
    assert page.locator("#rp-play").inner_text() == "⏸ Tạm dừng"
    page.locator("#rp-play").click()
    # the centre names the combination in the table's words, not the engine's code
    page.locator("#rp-next").click()
    played = page.locator("#rp-centre p").first.inner_text()
    assert re.search(r": (Rác|Đôi|Ba|Tứ quý|Sảnh \d+|\d+ đôi thông)", played), played


def _table_words(page: Any, base: str, code: str) -> dict[str, Any]:
    page.goto(f"{base}/tables/{code}/")
    return dict(json.loads(page.locator("#table-i18n").text_content()))


def test_each_language_shows_its_own_word_for_a_pass(
    live_server: Any, page: Any, world: dict[str, Any]
) -> None:
    """The English table page said "bỏ lượt (pass)"; now each language has its own word."""
    base = live_server.url
    log_in(page, base, world["user"])
    table, _game = world["games"]["tienlen"]
    english = _table_words(page, base, table.code)
    assert (english["passed"], english["auto_pass"]) == ("passed", "passed (auto)")
    assert english["suggest_pass"] == "Suggestion: pass"
    assert english["round_n"] == "Round {n}"  # the board's round label, was "Vòng {n}"
    assert not [k for k in ("passed", "auto_pass", "suggest_pass") if "bỏ" in english[k]]
    # the English replay keeps its words
    page.goto(f"{base}/tables/{table.code}/games/1/replay/")
    assert page.locator("#rp-counter").inner_text().startswith("Step 0 / ")
    assert page.locator("#rp-play").inner_text() == "▶ Play"

    set_language(page, base, "vi")
    vietnamese = _table_words(page, base, table.code)
    assert (vietnamese["passed"], vietnamese["auto_pass"]) == ("bỏ lượt", "bỏ lượt (tự động)")
    assert vietnamese["suggest_pass"] == "Gợi ý: bỏ lượt"
    assert vietnamese["round_n"] == "Vòng {n}"
