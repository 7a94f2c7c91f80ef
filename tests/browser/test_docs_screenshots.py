"""The screenshots of docs/screenshots/ (README.md "What it looks like"), taken on demand:

    TAKE_SCREENSHOTS=1 ./bin/test tests/browser/test_docs_screenshots.py -m screenshots

(or the pytest line of docs/architecture.md with the same two settings). Skipped otherwise: it
writes files into the repository. Each game (Tiến Lên, Seven-Card Stud, Suijiang Diu) is played
through the services by people following the house AI's easy policy, a few moves into its first
game, until the viewer (seat 0; Diu's 头家) is to act; then the viewer's page is saved as
docs/screenshots/<game>-desktop.png (1366×900) and <game>-phone.png (390×844), each under
400 KB (PNG, the page's viewport only).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games import services
from games.engine.registry import find_game
from games.models import Game, Table
from tests.browser.helpers import game_one, open_table, people, seated_table, session_page
from tests.games.live import seat_users, state_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.screenshots,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("TAKE_SCREENSHOTS"),
        reason="writes docs/screenshots/: run with TAKE_SCREENSHOTS=1",
    ),
]

OUT = Path(settings.BASE_DIR) / "docs" / "screenshots"
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
MAX_BYTES = 400 * 1024

#: game: (seats, table options, moves to play before the shot, selector the board draws)
GAMES: dict[str, tuple[int, dict[str, Any], int, str]] = {
    "tienlen": (4, {}, 6, "#hand .pcard"),
    "stud": (4, {"buy_in": 200, "ante": 1, "bring_in": 2, "small_bet": 10}, 7, "#felt .pcard"),
    "diu": (4, {}, 10, "#felt [data-card], #felt .tile, #felt .pcard"),
}
NAMES = ("Lan", "Minh", "Hoa", "Tuấn")


def _seated(game: str) -> tuple[Table, list[Any]]:
    seats, options, _, _ = GAMES[game]
    users = people(seats, username=game + "{i}", display_name=NAMES)
    table = seated_table(
        users,
        name={"tienlen": "Tối thứ Sáu", "stud": "Stud night", "diu": "Diu nhà Minh"}[game],
        game=game,
        options={"seats": seats, "turn_seconds": 300, **options},
    )
    services.table_start(table_id=table.pk, user=users[0])
    return table, users


def _play_into(table: Table, game: Game, moves: int) -> int:
    """Play ``moves`` moves (:func:`_move` for whoever is to act), then on until the viewer is
    to act in a running game; returns the viewer's seat (0, or Diu's 头家 A: seat 0 may be the
    闲家 who sits the hand out)."""
    engine: Any = find_game(game.engine)
    users = seat_users(table)
    roles = getattr(state_of(game), "roles", None)
    viewer = roles["A"] if roles else 0
    done = 0
    while True:
        state = state_of(game)
        assert not engine.view(state, None)["finished"], "the game ended before the shot"
        pending = engine.round_status(state).pending
        if done >= moves and viewer in pending:
            return int(viewer)
        seat = pending[0]
        action = _move(engine, state, seat)
        services.game_play(table_id=table.pk, user=users[seat], version=game.version, action=action)
        done += 1


#: Moves that keep a game going (no fold, no early 丢 or claim): the first legal one of these
#: types, else the easy house AI's choice.
KEEP_GOING = ("check", "call", "bring_in", "pass", "decline")


def _move(engine: Any, state: Any, seat: int) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    if engine.name != "tienlen":
        for kind in KEEP_GOING:
            match = next((a for a in legal if a["type"] == kind), None)
            if match is not None:
                action = dict(match)
                break
        else:
            action = dict(engine.house_action(state, seat, "easy"))
    else:
        action = dict(engine.house_action(state, seat, "easy"))
    action.pop("seat", None)
    return action


@pytest.mark.parametrize("game", list(GAMES))
def test_board_screenshots(browser: Any, live_asgi: str, game: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=1) as pool:
        table, users = pool.submit(_seated, game).result()
        row = pool.submit(game_one, table).result()
        viewer = pool.submit(_play_into, table, row, GAMES[game][2]).result()
    for kind, viewport in VIEWPORTS.items():
        page = session_page(browser, live_asgi, users[viewer], viewport, reduced_motion="reduce")
        open_table(page, live_asgi, table, GAMES[game][3])
        page.evaluate("document.fonts.ready.then(() => true)")
        path = OUT / f"{game}-{kind}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size < MAX_BYTES, (path, path.stat().st_size)
        page.context.close()
