"""Deal secrecy on the live table page, in real Chromium (docs/history.md "Live spectators").

A tournament round of two tables of house AIs: game 2 is over at table A (which waits for game
3) while table B has not dealt it yet (the same seed). An anonymous spectator of A sees the
notice in place of the board (in English, then in Vietnamese), no card anywhere on the page and
no script error; once table B plays game 2 (on the real worker), the deal is closed and the page
syncs by itself: the board shows the game's hands.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, Table
from games.tournaments import services as tournaments
from games.tournaments.models import RoundTable
from tests.browser.helpers import collect_errors, in_thread, set_language
from tests.games.tournaments.conftest import make_tournament
from tests.scheduler import FrozenClock, TestScheduler

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTICE_EN = "Cards are hidden while this deal is still being played at another table."
NOTICE_VI = "Các lá bài được giấu trong khi ván chia này vẫn đang được chơi ở một bàn khác."


@pytest.fixture
def round_tables(
    clock: FrozenClock, scheduler: TestScheduler, settings: Any
) -> tuple[list[Table], list[tuple[str, list[Any]]]]:
    """Tables A and B of a round of 8 house AIs, game 1 over at both, game 2 over at A only;
    the ``next_game`` timer that deals B's game 2 (set up before the live site starts)."""
    settings.GAMES_NEXT_GAME_SECONDS = 5
    t, _ = make_tournament(house=8, games_per_round=3, rounds=1)  # game 2 is not the last
    tournaments.tournaments_tick()
    tables: list[Table] = []
    for _ in range(40):  # the countdown, then game 1 at both tables
        ids = RoundTable.objects.filter(round__tournament=t).values("table_id")
        if Game.objects.filter(table_id__in=ids, number=1, status="finished").count() == 2:
            break
        clock.advance(5)
        scheduler.run_due()
    tables = [rt.table for rt in RoundTable.objects.filter(round__tournament=t).order_by("index")]
    pending = scheduler.take("games.next_game")
    mine = [(p.name, p.args) for p in pending if p.args[0] == tables[0].pk]
    others = [(p.name, p.args) for p in pending if p.args[0] != tables[0].pk]
    scheduler._run(mine)
    assert Game.objects.get(table=tables[0], number=2).status == Game.Status.FINISHED
    assert not Game.objects.filter(table=tables[1], number=2).exists()
    return tables, others


def test_spectator_sees_the_notice_then_the_cards_once_the_deal_closes(
    round_tables: tuple[list[Table], list[tuple[str, list[Any]]]],
    scheduler: TestScheduler,
    page: Any,
    live_asgi: str,
) -> None:
    tables, others = round_tables
    errors = collect_errors(page)
    page.goto(f"{live_asgi}/t/{tables[0].code}/")
    notice = page.locator("#hidden-view")
    notice.wait_for(state="visible")
    assert NOTICE_EN in notice.inner_text()
    assert page.locator("#board-view").is_hidden()
    assert page.locator(".pcard").count() == 0  # not a card on the page

    set_language(page, live_asgi, "vi")
    page.reload()
    page.locator("#hidden-view").wait_for(state="visible")
    assert NOTICE_VI in page.locator("#hidden-view").inner_text()
    set_language(page, live_asgi, "en")
    page.reload()
    page.locator("#hidden-view").wait_for(state="visible")

    in_thread(scheduler._run, others)  # table B deals game 2; the worker plays it out
    # the deal is over everywhere: the page syncs (a fresh snapshot) and draws the board
    page.locator("#hidden-view").wait_for(state="hidden", timeout=60_000)
    page.locator("#board-view").wait_for(state="visible")
    page.locator("#board-view .pcard").first.wait_for()
    assert Game.objects.get(table=tables[1], number=2).status == Game.Status.FINISHED
    assert errors == []
