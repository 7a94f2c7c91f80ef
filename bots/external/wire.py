"""The wire of the bot API shared by a live table's turns (``bots.external.services``) and a
match's (``bots.external.matches``): the frames both send, their refusal type, and the check
of a move against an open turn. Neither of those modules imports the other's internals."""

from __future__ import annotations

from typing import Any

from bots.external import mailbox
from games.engine.registry import find_game
from games.realtime import send_now

#: Channel-layer message type of a frame for an external bot's sockets (handler ``bot_frame``).
MESSAGE_TYPE = "bot.frame"
#: … and of "your token was revoked: close" (handler ``bot_revoked``).
REVOKED_TYPE = "bot.revoked"


class ExternalBotError(Exception):
    """A refused request of an external bot: a stable ``code`` and a message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def bot_group(bot_id: int) -> str:
    """The channel-layer group of every socket and stream of external bot ``bot_id``."""
    return f"botacct-{bot_id}"


def send(bot_id: int, frame: dict[str, Any]) -> None:
    # on the process's sender loop (games.realtime.send_now): no event loop per frame; a
    # failure is logged and never loses the turn (the deadline still applies)
    send_now(
        [(bot_group(bot_id), {"type": MESSAGE_TYPE, "frame": frame})],
        f"sending to external bot {bot_id} failed",
    )


def turn_frame(
    *, game_id: int | str, seq: int, seat: int, game_state: Any, deadline_ms: int
) -> dict[str, Any]:
    return {
        "type": "turn",
        "game_id": game_id,
        "seq": seq,
        "seat": seat,
        "gameState": game_state,
        "deadline_ms": deadline_ms,
    }


def error_frame(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}


def accept_move(
    *, game: str, state: Any, seat: int, game_id: Any, seq: int, move: dict[str, Any]
) -> dict[str, Any]:
    """Check ``move`` against the open turn's ``state`` (JSON) of engine ``game``; a legal one
    goes to the mailbox for the waiting turn (a live table's or a match's). An illegal one
    raises ``illegal_move`` (the engine's code as its cause) and changes nothing."""
    engine = find_game(game)
    loaded = engine.state_from_json(state)
    try:
        action = dict(engine.parse_bot_move(loaded, seat, move))
        engine.check(loaded, {**action, "seat": seat})
    except ValueError as exc:
        reason = str(getattr(exc, "code", None) or "illegal_move")
        raise ExternalBotError("illegal_move", str(exc)) from ExternalBotError(reason, str(exc))
    answered = mailbox.push_move(game_id=game_id, seq=seq, move=move)
    if answered == mailbox.TIMED_OUT:
        raise ExternalBotError("timeout", "the turn's deadline passed: its timeout move is played")
    if answered == "answered":
        raise ExternalBotError(
            "already_answered", "another move was accepted for this turn; it stands"
        )
    return {"game_id": game_id, "seq": seq}
