"""The Suijiang Diu board and the in-table guides of Diu and Seven-Card Stud in a real Chromium
(issue 15, "A table players enjoy"), at 1366×900 and 390×844:

- the card under decision in the centre never covers a seat's discards;
- the card's name under it is readable (WCAG contrast ≥ 4.5:1 against what is behind it);
- your own tiles are large enough to read and tap, and the hand fits without scrolling sideways;
- the cryptic labels on the claim buttons (the "W" of 筷) have a tooltip and an aria-label, and
  the guide explains them;
- a "Guide" button in the top bar opens a short guide (buttons, claim order, hands; for stud the
  poker hands and the betting), in English and Vietnamese, that fits a phone and closes with Esc
  or its close button.

Served by ``live_asgi`` (tests/browser/conftest.py: daphne and a real worker). The Diu hand is
dealt from a pinned seed and played through the services in another thread (Playwright's event
loop runs in this one) until the viewer is asked whether to claim with 筷 while every playing
seat has discards on the felt.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.engine.registry import find_game
from games.models import Table
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    SHOTS,
    in_thread,
    open_table,
    people,
    seated_table,
    session_page,
    set_language,
    start_game,
)
from tests.factories import UserFactory
from tests.games.live import state_of

DIU: Any = find_game("diu")
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
# The smallest size of one of your own tiles (width, height in CSS px): readable pips and a
# comfortable tap target (a phone's is close to the 24×24 minimum of WCAG 2.2 in width, and
# the tile is twice as tall as wide).
#: The pages' errors: uncaught exceptions only; longer waits (the Diu board draws a lot).
SESSION: dict[str, Any] = {"console": False, "timeout": 20_000}
MIN_TILE = {"desktop": (36, 80), "phone": (28, 64)}
PINNED_SEED = 14  # a deal where the loop below reaches a 筷 prompt with a hand of 15 cards
MIN_DISCARDS = 3

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.deals(PINNED_SEED),  # the live site deals the pinned seed
]

# The WCAG contrast ratio of an element's text against what is painted behind it: every
# background colour and gradient stop of the element and its ancestors (semi-transparent layers
# blended over the opaque one below), the worst case over gradient stops; opacity applied.
CONTRAST_JS = """
(el) => {
  const parse = (s) => {
    const p = s.match(/rgba?\\(([^)]+)\\)/)[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const layers = [];  // from the element down: each a list of candidate colours
  let opacity = 1;
  for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
    const cs = getComputedStyle(n);
    opacity *= Number(cs.opacity);
    const img = cs.backgroundImage;
    if (img && img !== "none") {
      const stops = [...img.matchAll(/rgba?\\([^)]+\\)/g)].map((m) => parse(m[0]));
      if (stops.length) layers.push(stops);
    }
    const bg = parse(cs.backgroundColor);
    if (bg[3] > 0) layers.push([bg]);
    if (layers.length && layers[layers.length - 1].every((c) => c[3] >= 1)) break;
  }
  let backs = [[255, 255, 255, 1]];
  for (const layer of layers.reverse()) {
    backs = backs.flatMap((b) => layer.map((c) => over(c, b)));
  }
  const fg = parse(getComputedStyle(el).color);
  fg[3] *= opacity;
  let worst = Infinity;
  for (const b of backs) {
    const f = over(fg, b);
    const [hi, lo] = [lum(f), lum(b)].sort((x, y) => y - x);
    worst = Math.min(worst, (hi + 0.05) / (lo + 0.05));
  }
  return worst;
}
"""


def _move(state: Any, prompt: dict[str, Any], seat: int) -> dict[str, Any]:
    """Claim a flipped stock card (not with 筷) while the seat has fewer than MIN_DISCARDS
    discards, pass on discards (so they stay on the felt), accept offers, discard the first card
    allowed."""
    legal = DIU.legal_actions(state, seat)
    if prompt["kind"] == "discard":
        action = legal[0]
    elif prompt["kind"] == "offer":
        action = next(a for a in legal if a["type"] == "accept")
    else:
        view = DIU.view(state, None)
        wants = view["card"]["source"] == "stock" and len(view["discards"][seat]) < MIN_DISCARDS
        claims = [a for a in legal if a["type"] == "claim" and a.get("claim") != "kuai"]
        action = claims[0] if wants and claims else next(a for a in legal if a["type"] == "pass")
    return {k: v for k, v in action.items() if k != "seat"}


def diu_hand_at_a_kuai_prompt() -> tuple[Table, list[User], int]:
    """Four people at a Diu table (long timers); the hand is played through the services until
    someone is asked whether to claim and may claim with 筷, with every playing seat holding
    MIN_DISCARDS discards. Returns the table, the users and the prompted seat."""
    users = people(4, username="d{i}", display_name="Dee{i}")
    table = seated_table(
        users,
        name="Diu guide",
        game="diu",
        options={"t_call": 900, "t_offer": 900, "t_play": 900},
    )
    game = start_game(table, users[0], timeout=30)
    while True:
        state = state_of(game)
        assert not state.finished, "the hand ended before a 筷 prompt"
        prompt = DIU.prompt(state)
        view = DIU.view(state, None)
        discards = [len(view["discards"][view["roles"][r]]) for r in "ABC"]
        asked = prompt["kind"] == "call" and "kuai" in prompt["options"]
        if asked and min(discards) >= MIN_DISCARDS:
            return table, users, prompt["seat"]
        seat = prompt["seat"]
        services.game_play(
            table_id=table.pk,
            user=users[seat],
            version=game.version,
            action=_move(state, prompt, seat),
        )


def _boxes_intersect(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def _check_guide(page: Any, must_say: list[str], shot: str) -> None:
    """The Guide button opens a dialog that fits the screen (scrolling inside), says what it
    must, and closes with Esc and with its close button."""
    button = page.locator("#btn-guide")
    assert button.is_visible()
    assert button.get_attribute("aria-haspopup") == "dialog"
    button.click()
    dialog = page.locator("#guide-dialog")
    dialog.wait_for(state="visible")
    page.screenshot(path=f"{SHOTS}/{shot}.png")
    text = dialog.inner_text()
    for words in must_say:
        assert words in text, words
    box = dialog.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= size["width"], (box, size)
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= size["height"], (box, size)
    # longer than the screen: it scrolls inside rather than spilling off it
    assert page.evaluate(
        "() => { const d = document.querySelector('#guide-dialog .guide-body');"
        " return d.scrollHeight <= d.clientHeight"
        " || ['auto', 'scroll'].includes(getComputedStyle(d).overflowY); }"
    )
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    button.click()
    dialog.wait_for(state="visible")
    dialog.locator(".guide-close").click()
    dialog.wait_for(state="hidden")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_diu_board_is_readable_and_has_a_guide(browser: Any, live_asgi: str, size: str) -> None:
    table, users, seat = in_thread(diu_hand_at_a_kuai_prompt)
    page = session_page(browser, live_asgi, users[seat], VIEWPORTS[size], **SESSION)
    open_table(page, live_asgi, table)
    page.locator('#diu-bar [data-claim="kuai"]').wait_for()
    page.locator("#diu-centre .diu-current .diu-tile").wait_for()
    page.screenshot(path=f"{SHOTS}/diu-enjoy-{size}.png")

    # 1. the card under decision covers no seat's discards (the top seat's least of all)
    current = page.locator("#diu-centre .diu-current").bounding_box()
    assert current is not None
    areas = page.locator("#diu-layer .diu-discards")
    assert areas.count() == 3  # A, B and C each have discards on the felt
    for i in range(areas.count()):
        area = areas.nth(i).bounding_box()
        assert area is not None
        assert not _boxes_intersect(current, area), (size, i, current, area)

    # 2. the card's name under it is readable: contrast ≥ 4.5:1 (WCAG AA)
    name = page.locator("#diu-centre .diu-current .diu-current-name")
    assert name.inner_text().strip()
    ratio = page.locator("#diu-centre .diu-current .diu-current-name").evaluate(CONTRAST_JS)
    assert ratio >= 4.5, (size, ratio)

    # 3. your tiles are big enough to read and tap, and the hand fits the width
    width, height = MIN_TILE[size]
    tiles = page.locator("#diu-hand .diu-tile")
    assert tiles.count() >= 8
    for i in range(tiles.count()):
        box = tiles.nth(i).bounding_box()
        assert box is not None
        assert box["width"] >= width, (size, box)
        assert box["height"] >= height, (size, box)
        assert box["x"] >= 0, box
        assert box["x"] + box["width"] <= VIEWPORTS[size]["width"], box
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")

    # 4. the "W" of the 筷 button is explained: a tooltip, an aria-label, and the guide
    kuai = page.locator('#diu-bar [data-claim="kuai"]')
    assert "W" in kuai.inner_text()
    for attr in ("title", "aria-label"):
        label = kuai.get_attribute(attr) or ""
        assert "听用" in label, (attr, label)
        assert "wild" in label, (attr, label)
    for button in page.locator("#diu-bar [data-action]").all():
        assert button.get_attribute("title"), button.inner_text()
        assert button.get_attribute("aria-label"), button.inner_text()

    # 5. the guide: the buttons, the claim order and the scoring
    _check_guide(
        page,
        ["W = 听用", "筷 kuai", "丢 diu", "Claim order", "Pass (过)", "Scoring", "14"],
        f"diu-guide-{size}",
    )
    assert page.errors == []
    page.context.close()


def _stud_table() -> tuple[Table, User]:
    host = UserFactory.create(username="studhost", display_name="Stu")
    table = services.table_create(owner=host, name="Stud guide", game="stud")
    return table, host


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_stud_table_has_a_guide_in_both_languages(browser: Any, live_asgi: str, size: str) -> None:
    table, host = in_thread(_stud_table)
    page = session_page(browser, live_asgi, host, VIEWPORTS[size], **SESSION)
    open_table(page, live_asgi, table)
    _check_guide(
        page,
        [
            "Straight flush",
            "High card",
            "Full house",
            "Bring in",
            "fixed limit",
            "3rd street",
            "7th street",
            "Fold",
            "Raise to",
        ],
        f"stud-guide-{size}",
    )
    # the same guide in Vietnamese
    set_language(page, live_asgi, "vi")
    open_table(page, live_asgi, table)
    page.locator("#btn-guide").click()
    text = page.locator("#guide-dialog").inner_text()
    assert "Thùng phá sảnh" in text, text[:400]
    assert "Mậu thầu" in text, text[:400]
    assert "Straight flush" not in text
    assert page.locator("#btn-guide").inner_text().strip() == "Hướng dẫn"
    assert page.errors == []
    page.context.close()


def test_every_table_has_its_guide_in_both_languages() -> None:
    """Rendered by the server, no browser: a Tiến Lên table's guide (since issue 30, for its
    keyboard shortcuts) lists its keys; the Diu guide (its strings are checked in English in the
    browser test) is translated, keys included."""
    host = UserFactory.create(username="tlhost", display_name="Tee")
    tienlen = services.table_create(owner=host, name="TL", game="tienlen")
    diu = services.table_create(owner=host, name="DG", game="diu")
    client = Client()
    client.force_login(host)
    html = client.get(f"/t/{tienlen.code}/").content.decode()
    assert 'id="btn-guide"' in html
    assert 'id="guide-dialog"' in html
    for words in ("Tiến Lên: guide", "Keyboard", "Play the selected cards.", "Hear your hand."):
        assert words in html, words
    assert "Claim order" not in html  # the guide is the game's own
    client.cookies["django_language"] = "vi"
    html = client.get(f"/t/{diu.code}/").content.decode()
    assert 'id="guide-dialog"' in html
    for words in ("Hướng dẫn", "Thứ tự ăn bài", "W = 听用, lá đa năng", "Tính điểm", "Bàn phím"):
        assert words in html, words
    assert "Claim order" not in html
