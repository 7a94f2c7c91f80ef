"""The accessible mode (issue 30): a person plays a whole game of each game (Tiến Lên, Seven-Card
Stud, Suijiang Diu) against house AIs with the keyboard alone (the page's shortcuts, Tab, arrow
keys, Enter: no mouse click on a game control), in a real Chromium over real WebSockets, and the
test reads back what a screen reader would hear: the polite live region #sr-say (every move,
the result) and the assertive #sr-alert (your turn, the prompt), in English and Vietnamese.

Each loop waits on the page's state (a button enabled, a prompt shown), never a fixed sleep;
the short poll between looks is the wait's interval."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from games import services
from games.engine.registry import find_game
from games.models import Game, Seat, Table
from tests.browser.helpers import DESKTOP, PHONE, in_thread, session_page
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DIU: Any = find_game("diu")
GAME_SECONDS = 240


def said(page: Any) -> list[str]:
    """The lines of the polite live region, oldest first."""
    return [t.strip() for t in page.locator("#sr-say > p").all_inner_texts()]


def alerted(page: Any) -> list[str]:
    """The lines of the assertive live region, oldest first."""
    return [t.strip() for t in page.locator("#sr-alert > p").all_inner_texts()]


def hear(page: Any, key: str) -> str:
    """Press a hear-on-demand key; the line it added to #sr-say (each line carries its number
    and the key that asked for it: a move said at the same moment is never taken for it)."""
    before = said_count(page)
    page.keyboard.press(key)
    answer = page.wait_for_function(
        """([key, n]) => [...document.querySelectorAll('#sr-say > p')].find(
             (p) => p.dataset.key === key && Number(p.dataset.n) > n)""",
        arg=[key, before],
    )
    return str(answer.evaluate("(p) => p.textContent")).strip()


def press_and_wait(page: Any, key: str, control: str) -> None:
    """Press ``key``, then wait until the control it acts on (the first match of ``control``
    now) is gone from the page or disabled: the move was sent (the bar is drawn again)."""
    page.evaluate("(sel) => { window.__pressed = document.querySelector(sel); }", control)
    page.keyboard.press(key)
    page.wait_for_function(
        "() => !window.__pressed || !window.__pressed.isConnected || window.__pressed.disabled"
    )


def said_count(page: Any) -> int:
    """How many lines #sr-say has said (it keeps the last 30)."""
    return int(page.locator("#sr-say").get_attribute("data-said") or 0)


def practice_table(owner: Any, game: str, house: int, **options: Any) -> Table:
    """``owner`` and ``house`` house AIs at a private table of ``game``, started (the Practice
    button's table is Tiến Lên's: services.table_create_practice)."""
    if game == "tienlen":
        return services.table_create_practice(owner=owner, turn_seconds=60)
    table = services.table_create(
        owner=owner,
        name=f"Keys {game}",
        game=game,
        visibility=Table.Visibility.PRIVATE,
        options={"seats": house + 1, **options},
        seats=[services.SeatSpec()]
        + [services.SeatSpec(Seat.Kind.HOUSE, "medium") for _ in range(house)],
    )
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    table.refresh_from_db()
    return table


def open_game(page: Any, base: str, table: Table, ready: str) -> None:
    page.goto(f"{base}/t/{table.code}/")
    page.locator("#board-view").wait_for(state="visible", timeout=30_000)
    page.locator(ready).first.wait_for(timeout=30_000)
    page.locator("body").focus()


def finished_game(table: Table) -> Game:
    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED
    return game


def test_tienlen_by_keyboard_in_english(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    lan = UserFactory.create(username="keys_lan", display_name="Lan")
    table = in_thread(practice_table, lan, "tienlen", 3)
    page = session_page(browser, base, lan, DESKTOP, language="en", console=False)
    open_game(page, base, table, "#hand .pcard")

    # the cards of your hand are buttons named in words, the suit's name beside its symbol
    first = page.locator("#hand .pcard").first
    assert re.fullmatch(
        r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
        r"(spades|clubs|diamonds|hearts)",
        first.get_attribute("aria-label") or "",
    )
    # H: your hand in words; O: the other seats' counts
    hand = hear(page, "h")
    assert hand.startswith("Your hand, 13 cards: ")
    assert hand.count(" of ") == 13
    counts = hear(page, "o")
    assert len(re.findall(r"AI \S+ \(\w+\): \d+ cards?", counts)) == 3, counts
    # Tab reaches a card, the arrows walk the hand, Space selects and unselects
    page.locator("#hand .pcard").first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == page.locator("#hand .pcard").nth(1).get_attribute("data-card")
    page.keyboard.press("Space")
    assert page.locator("#hand .pcard").nth(1).get_attribute("aria-pressed") == "true"
    assert "Selected: " in hear(page, "h")
    page.keyboard.press("Space")
    assert page.locator("#hand .pcard").nth(1).get_attribute("aria-pressed") == "false"

    # ? opens the game's guide, where the keys are listed; Esc closes it
    page.keyboard.press("?")
    guide = page.locator("#guide-dialog")
    assert guide.is_visible()
    assert "Play the selected cards." in guide.inner_text()
    page.keyboard.press("Escape")
    assert not guide.is_visible()
    page.locator("#hand .pcard").first.focus()

    played = passed = 0
    kept = False
    deadline = time.monotonic() + GAME_SECONDS
    heard: set[str] = set()  # the live regions keep their last 30 lines: collect as they come
    while time.monotonic() < deadline and not page.locator("#result-view").is_visible():
        heard.update(said(page) + alerted(page))
        if not kept and page.locator("#btn-suggest:disabled").count():
            # another seat's move redraws your hand: the card in focus keeps the focus
            page.locator("#hand .pcard").last.focus()
            card = page.locator("#hand .pcard").last.get_attribute("data-card")
            page.wait_for_function(  # a move said, or your turn (it may have come already)
                "(n) => Number(document.querySelector('#sr-say').dataset.said || 0)"
                " + Number(document.querySelector('#sr-alert').dataset.said || 0) > n"
                " || !document.querySelector('#btn-suggest').disabled"
                " || !document.querySelector('#result-view').hidden",
                arg=said_count(page)
                + int(page.locator("#sr-alert").get_attribute("data-said") or 0),
            )
            if page.locator("#hand .pcard").count():
                assert page.evaluate("document.activeElement.dataset.card") == card
                kept = True
        if page.locator("#btn-suggest:enabled").count():
            if not played + passed:  # colour is not the only sign of your turn and its time
                expect(page.locator("#turn-indicator")).to_have_text("Your turn")
                expect(page.locator("#me-timer .timer-text")).to_have_text(re.compile(r"^\d+s$"))
            before = said_count(page)
            page.keyboard.press("s")  # the house's suggestion selects its cards (or says pass)
            page.wait_for_function(
                "(n) => Number(document.querySelector('#sr-say').dataset.said || 0) > n"
                " || document.querySelector('#btn-suggest').disabled",
                arg=before,
            )
            if page.locator("#btn-play:enabled").count():
                press_and_wait(page, "p", "#btn-play")
                played += 1
            elif page.locator("#btn-pass:enabled").count():
                press_and_wait(page, "x", "#btn-pass")
                passed += 1
        page.wait_for_timeout(50)
    assert page.locator("#result-view").is_visible(), ("the game did not end in time", said(page))
    assert played
    assert kept
    in_thread(finished_game, table)

    heard.update(said(page) + alerted(page))
    lines = sorted(heard)
    assert "Your turn" in lines
    assert any(line.startswith("You play ") and " of " in line for line in lines)
    assert any(re.match(r"AI \S+ .*plays .+: .+ of ", line) for line in lines)
    if passed:
        assert "You pass" in lines
    assert any(line.startswith("Suggested and selected: ") for line in lines)
    assert any(line.startswith("Game 1 is over.") for line in lines)
    assert page.errors == []
    page.context.close()


def test_stud_by_keyboard_in_vietnamese(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    minh = UserFactory.create(username="keys_minh", display_name="Minh")
    table = in_thread(practice_table, minh, "stud", 2, turn_seconds=60)
    page = session_page(browser, base, minh, PHONE, language="vi", console=False)
    open_game(page, base, table, "#stud-layer .stud-seat")

    hand = hear(page, "h")  # "úp: chín bích, …; ngửa: …. 19x chip"
    assert hand.startswith("úp: ")
    assert re.search(r"\b(bích|chuồn|rô|cơ)\b", hand)
    assert "ngửa: " in hand
    # the cards are named in Vietnamese: a down card of yours says so
    label = page.locator("#stud-layer .stud-cards-mine .pcard").first.get_attribute("aria-label")
    assert re.search(r"(bích|chuồn|rô|cơ)", label or "")

    turns = 0
    deadline = time.monotonic() + GAME_SECONDS
    heard: set[str] = set()  # the live regions keep their last 30 lines: collect as they come
    while time.monotonic() < deadline and not page.locator("#result-view").is_visible():
        heard.update(said(page) + alerted(page))
        buttons = page.locator("#stud-bar [data-action]:enabled")
        if buttons.count():
            if not turns:  # on a phone too: your turn and its time are words, not only colour
                expect(page.locator(".stud-turn")).to_have_text("Đến lượt bạn")
                expect(page.locator("#stud-bar .timer-text")).to_have_text(re.compile(r"^\d+s$"))
            names = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
            # check when free, else call, else bring in: by the documented keys
            key = "k" if "check" in names else "c" if "call" in names else "b"
            if key == "b" and "bring_in" not in names:
                key = "1"  # the first action button, by its number
            press_and_wait(page, key, "#stud-bar [data-action]:enabled")
            turns += 1
        page.wait_for_timeout(50)
    assert page.locator("#result-view").is_visible(), "the hand did not end in time"
    assert turns
    in_thread(finished_game, table)

    heard.update(said(page) + alerted(page))
    lines = sorted(heard)
    assert "Đến lượt bạn" in lines
    assert any(a.startswith("Bạn có thể: ") for a in lines)  # the choices, said once a turn
    assert any(line.startswith("Bạn: ") for line in lines)  # your own moves, in words
    assert any(
        re.search(r"^AI \S+.*: (theo|tố lên|cược|xem bài|bỏ bài|bring-in)", line) for line in lines
    ), lines
    assert any(line.startswith("Ván 1 đã kết thúc.") for line in lines)
    assert page.errors == []
    page.context.close()


def _diu_seed() -> int:
    """A deal where the person (seat 0) is the leader (A): the hand starts with their discard."""
    config = DIU.session_next_config(DIU.session_start(4, 16, {}))
    for seed in range(1, 500):
        if DIU.new_game(config, seed).roles["A"] == 0:
            return seed
    raise AssertionError("no seed makes seat 0 the leader")


@pytest.mark.deals(found_by=_diu_seed)
def test_diu_by_keyboard_in_english_and_vietnamese(browser: Any, live_asgi: str) -> None:
    base = live_asgi
    an = UserFactory.create(username="keys_an", display_name="An")
    table = in_thread(practice_table, an, "diu", 3, t_call=60, t_offer=60, t_play=60)
    page = session_page(browser, base, an, DESKTOP, language="en", console=False)
    open_game(page, base, table, "#diu-hand .diu-tile")
    # tiles are named by their pips and name; the first prompt (your discard) is said
    label = page.locator("#diu-hand .diu-tile").first.get_attribute("aria-label") or ""
    assert re.fullmatch(r"\d and \d, \S+|听用, the wild tile", label), label
    page.wait_for_function(
        "() => [...document.querySelectorAll('#sr-alert > p')].some("
        "p => p.textContent.startsWith('Your discard'))"
    )
    assert hear(page, "h").startswith("Your hand, ")

    discards = answers = 0
    deadline = time.monotonic() + GAME_SECONDS
    heard: set[str] = set()  # the live regions keep their last 30 lines: collect as they come
    while time.monotonic() < deadline and not page.locator("#result-view").is_visible():
        heard.update(said(page) + alerted(page))
        if page.locator("#diu-hand button.diu-tile:enabled").count():
            page.keyboard.press("d")  # focus the first tile you may discard
            page.keyboard.press("ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.card || ''")
            assert focused
            press_and_wait(page, "Enter", "#diu-hand button.diu-tile")
            discards += 1
        elif page.locator("#diu-bar [data-action]:enabled").count():
            names = page.locator("#diu-bar [data-action]:enabled").evaluate_all(
                "(bs) => bs.map((b) => b.dataset.action)"
            )
            key = "u" if "diu" in names else "a" if "accept" in names else "x"
            press_and_wait(page, key, "#diu-bar [data-action]:enabled")
            answers += 1
        page.wait_for_timeout(50)
    assert page.locator("#result-view").is_visible(), "the hand did not end in time"
    assert discards
    in_thread(finished_game, table)

    heard.update(said(page) + alerted(page))
    lines = sorted(heard)
    assert any(re.match(r"You discarded \d and \d, ", line) for line in lines), lines
    assert any(line.startswith("Game 1 is over.") for line in lines)
    assert "Your turn" in lines
    assert page.errors == []
    page.context.close()

    # the same finished table in Vietnamese: the keys read the result's board in words
    vi = session_page(browser, base, an, PHONE, language="vi", console=False)
    vi.goto(f"{base}/t/{table.code}/")
    vi.locator("#result-view").wait_for(state="visible", timeout=30_000)
    vi.locator("body").focus()
    counts = hear(vi, "o")
    assert " lá" in counts or "闲家" in counts, counts
    label = vi.locator(".diu-hand-row .diu-tile").first.get_attribute("aria-label") or ""
    assert re.fullmatch(r"\d và \d, \S+|听用, quân thay", label), label
    assert vi.errors == []
    vi.context.close()


def test_time_running_low_is_said_once_in_the_assertive_region(
    browser: Any, live_asgi: str
) -> None:
    """A 6-second turn: with 3 seconds left (the lesser of 10 s and half the turn) the
    assertive region says so, once; then the house plays the seat (the log says it timed out)."""
    base = live_asgi
    vy = UserFactory.create(username="keys_vy", display_name="Vy")
    table = in_thread(practice_table, vy, "stud", 2, turn_seconds=6)
    page = session_page(browser, base, vy, DESKTOP, language="en", console=False)
    open_game(page, base, table, "#stud-layer .stud-seat")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#sr-alert > p')].some("
        "p => /^[1-3] seconds? left!$/.test(p.textContent))",
        timeout=30_000,
    )
    low = [a for a in alerted(page) if a.endswith("left!")]
    assert len(low) == 1, low
    page.locator("#game-log", has_text="time is up").wait_for(state="attached", timeout=15_000)
    assert page.errors == []
    page.context.close()
