"""The Tiến Lên table in a real Chromium (issue 15, "Tiến Lên board", second part): every card
of a play in the centre shows its rank and suit corner, on a desktop and on a phone; a 2-seat
game's log names the lowest card the leader holds instead of 3♠; "You" takes "lead", not
"leads"; counts read "1 card" / "2 cards"; the Vietnamese pages carry no leftover English.

Served by ``live_asgi`` (tests/browser/conftest.py: daphne and a real worker), dealing the seeds
the tests' ``deals`` marks pin (:func:`six_straight_seed`, :func:`two_seat_seed`). Moves go
through the services in another thread (Playwright's event loop runs in this one); the pages
follow over their sockets.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from accounts.models import User
from games import services
from games.engine.registry import find_game
from games.models import Game, Table
from tests.browser.helpers import (
    DESKTOP,
    HAND_CARD,
    LOBBY_SEAT,
    PHONE,
    SHOTS,
    dealt_table,
    game_one,
    in_thread,
    open_table,
    ready_table,
    seated_table,
    session_page,
    set_language,
    start_game,
)
from tests.factories import UserFactory
from tests.games.live import pending_seat, seat_users, state_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENGINE = find_game("tienlen")


def six_straight_seed() -> int:
    """A four-player deal whose 3♠ holder can lead a six-card straight."""
    for seed in range(1, 5000):
        state = ENGINE.new_game({"players": 4}, seed)
        if state.finished:
            continue
        if any(_six_straight(a) for a in ENGINE.legal_actions(state, state.turn)):
            return seed
    raise AssertionError("no deal with a six-card straight lead")


def _six_straight(action: dict[str, Any]) -> bool:
    cards = action.get("cards") or []
    return len(cards) == 6 and ENGINE.combo_name(cards) == "straight"


def two_seat_seed() -> int:
    """A two-player deal without 3♠: the opening play must hold the lowest dealt card."""
    for seed in range(1, 5000):
        state = ENGINE.new_game({"players": 2}, seed)
        if not state.finished and state.required != 1:  # bit 0 is 3♠
            return seed
    raise AssertionError("no two-player deal without 3♠")


def _seated(seats: int) -> tuple[Table, list[Any]]:
    """``seats`` ready people (the host at seat 0), not started."""
    return ready_table(seats, options={"seats": seats})


def _started(seats: int) -> tuple[Table, list[Any], Game]:
    """:func:`_seated`, started: the worker deals game 1 after the countdown."""
    return dealt_table(seats, options={"seats": seats})


def _play(table: Table, game: Game, pick: Callable[[dict[str, Any]], bool]) -> list[str]:
    """The pending seat plays its first legal action ``pick`` accepts; returns its cards."""
    seat = pending_seat(game)
    action = next(a for a in ENGINE.legal_actions(state_of(game), seat) if pick(a))
    services.game_play(
        table_id=table.pk,
        user=seat_users(table)[seat],
        version=game.version,
        action={"type": "play", "cards": action["cards"]},
    )
    return list(action["cards"])


# --------------------------------------------------------------------------- 1. the centre fan

#: Each centre card's face width (its layout width, before the fan's tilt), where its rank
#: and suit corner starts, whether that corner is in the viewport, and whether the centres of
#: the corner's rank and suit are what a point there hits (no other card covers them).
CENTRE_CARDS = """() => [...document.querySelectorAll('#centre-cards .pcard')].map((c) => {
  const corner = c.querySelector('svg > g > g');
  const parts = [...corner.children].map((p) => p.getBoundingClientRect());
  const box = corner.getBoundingClientRect();
  return { card: c.dataset.card, width: c.offsetWidth, left: box.left,
    inView: box.left >= 0 && box.right <= window.innerWidth,
    corner: parts.every((r) => {
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!hit && c.contains(hit);
    }) };
})"""


@pytest.mark.deals(found_by=six_straight_seed)
def test_every_card_of_a_straight_in_the_centre_shows_its_corner(
    browser: Any, live_asgi: str
) -> None:
    base = live_asgi
    with ThreadPoolExecutor(max_workers=1) as pool:
        table, users, game = pool.submit(_started, 4).result()
        leader = pending_seat(game)
        pages = [
            session_page(browser, base, users[leader], DESKTOP),
            session_page(browser, base, users[(leader + 1) % 4], PHONE),
        ]
        for page in pages:
            open_table(page, base, table, HAND_CARD)
        played = pool.submit(_play, table, game, _six_straight).result()
    for page in pages:
        page.wait_for_function("document.querySelectorAll('#centre-cards .pcard').length == 6")
        page.wait_for_function(  # the fly-in animation has ended
            "[...document.querySelectorAll('#centre-cards .pcard')]"
            ".every(c => c.getAnimations().every(a => a.playState === 'finished'))"
        )
        page.screenshot(path=f"{SHOTS}/table-centre-fan-{page.viewport_size['width']}.png")
        cards = page.evaluate(CENTRE_CARDS)
        assert sorted(c["card"] for c in cards) == sorted(played)
        width = cards[0]["width"]
        for card, after in zip(cards, [*cards[1:], None], strict=True):
            assert card["inView"], card
            assert card["corner"], (page.viewport_size, card)
            if after is not None:  # a strip of at least 40% of the card shows
                assert after["left"] - card["left"] >= width * 0.4, (page.viewport_size, card)
        assert page.errors == []
    # a desktop's centre cards are larger than a phone's
    assert pages[0].evaluate(CENTRE_CARDS)[0]["width"] >= 84
    for page in pages:
        page.context.close()


# ------------------------------------------------------- 2. a 2-seat game's lowest-card leader


def _log_lines(page: Any) -> list[str]:
    return page.locator("#game-log li").all_inner_texts()


@pytest.mark.deals(found_by=two_seat_seed)
def test_a_two_seat_log_names_the_lowest_card_the_leader_holds(
    browser: Any, live_asgi: str
) -> None:
    base = live_asgi
    seed = ENGINE.new_game({"players": 2}, two_seat_seed())
    leader = seed.turn
    with ThreadPoolExecutor(max_workers=1) as pool:
        table, users = pool.submit(_seated, 2).result()
        holder = session_page(browser, base, users[leader], DESKTOP)
        other = session_page(browser, base, users[1 - leader], PHONE, language="vi")
        for page in (holder, other):  # at the table when the game is dealt
            open_table(page, base, table, LOBBY_SEAT)
        game = pool.submit(start_game, table, users[0]).result()
    assert pending_seat(game) == leader
    required = ENGINE.view(state_of(game), leader)["required_card"]
    assert required != "3S"
    card = required[:-1] + {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[required[-1]]
    for page in (holder, other):
        page.locator("#hand .pcard").first.wait_for()
        page.locator("#game-log li.log-round").first.wait_for(state="attached")
    holder_lines = _log_lines(holder)
    assert f"You hold {card}, the lowest card dealt, and lead" in holder_lines
    assert not [line for line in holder_lines if "3♠" in line]
    other_lines = _log_lines(other)
    assert f"P{leader} có lá bài nhỏ nhất được chia và đánh trước" in other_lines
    assert not [line for line in other_lines if "3♠" in line]
    # the leader's pod on the other's felt: no 3♠ badge, the lowest card's
    assert other.locator(".badge-3s").inner_text() == "Lá nhỏ nhất"
    assert holder.locator("#me-hint").inner_text() == f"Your first play must include {card}"

    played = in_thread(_play, table, game, lambda a: len(a["cards"]) == 1)
    assert played == [required]
    other.locator("#game-log li").filter(has_text=card).wait_for(state="attached")
    assert holder.errors == []
    assert other.errors == []
    holder.context.close()
    other.context.close()


# ------------------------------------------------------------- 3. "You" and counts, both languages

#: The table page's templates that may name the viewer ("You"), filled as the boards fill them.
YOU_LINES = """async () => {
  const { fmt } = await import('/static/js/table/dom.js');
  const T = JSON.parse(document.getElementById('table-i18n').textContent);
  const you = T.you_cap;
  return {
    lines: [
      fmt(T.diu_log_dealt, { a: 'Minh', d: you }), fmt(T.diu_log_dealt, { a: you, d: 'Minh' }),
      fmt(T.diu_waiting_discard, { name: you }), fmt(T.diu_log_claim, { name: you, claim: '碰' }),
      fmt(T.stud_returned, { name: you, n: 5 }), fmt(T.diu_card_discard, { name: you }),
      fmt(T.you_lead_lowest, { card: '3♦' }),
    ],
    one: fmt(T.cards_n, { n: 1 }), two: fmt(T.cards_n, { n: 2 }),
    left: fmt(T.cards_left_n, { n: 1 }),
  };
}"""


def test_you_takes_the_verb_and_counts_take_the_plural_in_both_languages(
    browser: Any, live_asgi: str
) -> None:
    table, users = in_thread(_seated, 2)
    page = session_page(browser, live_asgi, users[0], DESKTOP)
    open_table(page, live_asgi, table, LOBBY_SEAT)
    english = page.evaluate(YOU_LINES)
    for line in english["lines"]:
        assert not re.search(r"\bYou (\w+s)\b|\bYou's\b", line), line
    assert "sitting out (闲家): You" in english["lines"][0]
    assert (english["one"], english["two"], english["left"]) == ("1 card", "2 cards", "1 card left")

    set_language(page, live_asgi, "vi")
    page.reload()
    page.locator("#seat-list .lseat-ready").first.wait_for()
    vietnamese = page.evaluate(YOU_LINES)
    assert vietnamese["lines"][0] == "Đã chia bài — đánh trước (头家): Minh; nghỉ (闲家): Bạn"
    assert vietnamese["one"] == "1 lá"
    assert page.errors == []
    page.context.close()


# ---------------------------------------------- 4. the Vietnamese pages: no English left over


def _practice(user: User) -> Table:
    return services.table_create_practice(owner=user)


def _text(page: Any) -> str:
    return str(page.evaluate("document.body.innerText"))


def test_the_vietnamese_pages_read_vietnamese(browser: Any, live_asgi: str) -> None:
    """A practice table, its house AIs and their badges, the history list, Create Table and the
    admin index, all in Vietnamese: the system-made names ("Practice — Lan", "AI Tùng (easy)")
    are stored in English and read in the page's language."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        lan = pool.submit(
            UserFactory.create,
            username="lan",
            display_name="Lan",
            is_staff=True,
            is_superuser=True,
        ).result()
        table = pool.submit(_practice, lan).result()
    assert table.name == "Practice — Lan"  # data: the English the site stores
    page = session_page(browser, live_asgi, lan, DESKTOP, language="vi")
    open_table(page, live_asgi, table, HAND_CARD)
    page.locator(".pod .badge-bot").first.wait_for()
    assert page.locator("h1").first.inner_text() == "Luyện tập — Lan"
    page.wait_for_function("document.title.startsWith('Luyện tập — Lan')")
    names = page.locator(".pod .pod-name").all_inner_texts()
    assert any("(dễ)" in n for n in names), names
    assert any("(vừa)" in n for n in names), names
    assert set(page.locator(".pod .badge-bot").all_inner_texts()) == {"MÁY"}
    text = _text(page)
    for word in ("Practice", "easy", "medium", "(hard)", "BOT"):
        assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), word

    page.goto(f"{live_asgi}/tables/history/mine/")
    text = _text(page)
    assert "Ván của tôi" in text
    assert "Luyện tập — Lan" in text
    assert "(dễ)" in text
    for word in ("My games", "Practice", "easy", "medium", "tienlen"):
        assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), word

    page.goto(f"{live_asgi}/tables/new/")
    text = _text(page)
    assert "16 ván" in text
    assert "16 games" not in text

    page.goto(f"{live_asgi}/admin/")
    text = _text(page)
    for words in (
        "Ván và bàn chơi",
        "Nước đi",
        "Tin nhắn trò chuyện",
        "Phiên bản bot",
        "Tài khoản",
    ):
        assert words.lower() in text.lower(), words
    for word in (
        "Tables",
        "Seats",
        "Actions",
        "Chat messages",
        "Bot versions",
        "Bot ratings",
        "Skip to main content",
        "Games and tables",
    ):
        assert word not in text, word
    assert page.errors == []
    page.context.close()


# ------------------------------------------------------ 5. HEO on a replay is Tiến Lên's only

#: What the replay page's card module draws on a 2 now (its faces follow the game's board).
TWO_FACE = """async () => (await import('/static/js/table/cards.js')).cardFace('2S').textContent"""


def test_the_replay_marks_heo_on_tienlen_twos_only(browser: Any, live_asgi: str) -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        lan = pool.submit(UserFactory.create, username="lan", display_name="Lan").result()
        minh = pool.submit(UserFactory.create, username="minh", display_name="Minh").result()

        def stud_table() -> Table:
            table = seated_table(
                [lan, minh], name="Stud", game="stud", options={"seats": 2, "small_bet": 10}
            )
            services.table_start(table_id=table.pk, user=lan)
            return table

        stud = pool.submit(stud_table).result()
        tienlen, _, _ = pool.submit(_started, 2).result()
        pool.submit(game_one, stud).result()
        tienlen_user = pool.submit(lambda: seat_users(tienlen)[0]).result()
    page = session_page(browser, live_asgi, lan, DESKTOP)
    page.goto(f"{live_asgi}/tables/{stud.code}/games/1/replay/")
    page.locator("#rp-board .pcard").first.wait_for()
    assert "HEO" not in page.evaluate(TWO_FACE)
    assert "HEO" not in _text(page)
    assert page.errors == []
    page.context.close()

    page = session_page(browser, live_asgi, tienlen_user, DESKTOP)
    page.goto(f"{live_asgi}/tables/{tienlen.code}/games/1/replay/")
    page.locator("#rp-board .pcard").first.wait_for()
    assert "HEO" in page.evaluate(TWO_FACE)
    assert page.errors == []
    page.context.close()
