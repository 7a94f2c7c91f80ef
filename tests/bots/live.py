"""Helpers for the tests of bots at live tables: ready versions, tables, driving the humans."""

from __future__ import annotations

from typing import Any

from bots.examples import example_code
from bots.models import BotVersion
from bots.services import bot_seat_player
from games import services
from games.engine.registry import find_game
from games.models import Game, Seat, Table
from tests.factories import BotVersionFactory, UserFactory
from tests.ws import Conn, Frame, cookie_for, table_path

ENGINE = find_game("tienlen")
#: The real bot player (the version's code in the sandbox) that the bots app registers.
SEAT_PLAYER = bot_seat_player

#: Counts its moves in a global and logs the count: globals must survive between moves.
COUNTING_BOT = """
var moves = 0;
function getNextMove(gameState) {
  moves += 1;
  console.log("move", moves);
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
}
"""

#: Never returns.
ENDLESS_BOT = "function getNextMove(gameState) { console.log('thinking'); while (true) {} }"

#: Returns a card nobody holds twice.
ILLEGAL_BOT = """
function getNextMove(gameState) {
  return { action: "play", cards: [{ rank: "3", suit: "S" }, { rank: "3", suit: "S" }] };
}
"""


def ready_version(owner: Any, code: str, name: str | None = None, **bot: Any) -> BotVersion:
    """A ``ready`` version of a new bot of ``owner``."""
    extra = {"bot__name": name} if name else {}
    return BotVersionFactory.create(
        bot__owner=owner,
        code=code,
        status=BotVersion.Status.READY,
        **extra,
        **{f"bot__{k}": v for k, v in bot.items()},
    )


def example_version(owner: Any, key: str, name: str | None = None) -> BotVersion:
    return ready_version(owner, example_code(key), name or f"{key.title()} {owner.username}")


def hybrid_table(owner: Any, code: str, *, seats: int = 2) -> tuple[Table, BotVersion]:
    """``owner`` at seat 0, a bot of theirs running ``code`` at seat 1, house AIs after it;
    ready, not started."""
    version = ready_version(owner, code)
    specs = [services.SeatSpec(), services.SeatSpec(Seat.Kind.BOT, bot_version_id=version.pk)]
    specs += [services.SeatSpec(Seat.Kind.HOUSE, "easy")] * (seats - 2)
    table = services.table_create(
        owner=owner, name="Hybrid", options={"seats": seats, "mode": "hybrid"}, seats=specs
    )
    services.seat_ready(table_id=table.pk, user=owner)
    return table, version


def play_humans(
    table: Table, users: dict[int, Any], *, until: Any = None, limit: int = 400
) -> Game:
    """Play the humans' turns (first legal move, else pass) until the latest game ends or
    ``until(game)`` holds; bots and house AIs act inline (bot delay 0)."""
    for _ in range(limit):
        game = Game.objects.filter(table=table).order_by("-number").first()
        assert game is not None
        if game.status != Game.Status.RUNNING or (until is not None and until(game)):
            return game
        state = ENGINE.state_from_json(game.state)
        seat = ENGINE.round_status(state).pending[0]
        assert seat in users, f"seat {seat} is not a human's turn"
        action = ENGINE.legal_actions(state, seat)[0]
        move: dict[str, Any] = {"type": action["type"]}
        if action["type"] == "play":
            move["cards"] = action["cards"]
        services.game_play(table_id=table.pk, user=users[seat], version=game.version, action=move)
    raise AssertionError("the game did not end")


def new_user(name: str) -> Any:
    return UserFactory.create(username=name, display_name=name.title())


class Sock(Conn):
    """A :class:`tests.ws.Conn` at a live table (``cookie``: a session id, or None for a guest)
    whose :meth:`open` also reads what the server sends right after the snapshot (a returning
    owner's earlier bot records)."""

    def __init__(self, code: str, cookie: str | None) -> None:
        super().__init__(table_path(code), cookie)

    async def open(self) -> Frame:
        snapshot = await super().open()
        await self.drain(0.3)
        return snapshot


__all__ = [
    "COUNTING_BOT",
    "ENDLESS_BOT",
    "ENGINE",
    "ILLEGAL_BOT",
    "SEAT_PLAYER",
    "Sock",
    "cookie_for",
    "example_version",
    "hybrid_table",
    "new_user",
    "play_humans",
    "ready_version",
]
