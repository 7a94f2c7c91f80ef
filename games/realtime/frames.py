"""Frame builders: the protocol's ``table``, ``seat``, chat, error, bot-record, ``your_turn``
and ``session`` objects (docs/protocol.md). Pure functions of rows and engine states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games.engine.core.protocol import Game as EngineGame

if TYPE_CHECKING:
    from games.models import ChatMessage, Seat, Table
    from games.models import Game as GameRow

Frame = dict[str, Any]


# --------------------------------------------------------------------------- frame builders
def ts(value: Any) -> float | None:
    """A datetime as unix seconds (None stays None)."""
    return None if value is None else float(value.timestamp())


#: The house AIs' names, one per seat, so that three of them at a practice table can be told
#: apart in the log and the results.
HOUSE_NAMES = ("Mai", "Tùng", "Hòa", "Vy", "Khoa", "Ngọc", "Phúc")


def house_name(index: int, level: str | None) -> str:
    """The name a house AI plays under at seat ``index``.

    >>> house_name(1, "hard")
    'AI Tùng (hard)'
    """
    return f"AI {HOUSE_NAMES[index % len(HOUSE_NAMES)]} ({level})"


def seat_json(seat: Seat, host_id: int) -> Frame:
    """One seat as the protocol's ``seat`` object (the user and bot version are preloaded)."""
    bot = None
    if seat.bot_version_id is not None and seat.bot_version is not None:
        bot = {"name": seat.bot_version.bot.name, "version": seat.bot_version.number}
    name: str | None = None
    if seat.user is not None and seat.kind == "human":
        name = seat.user.public_name
    elif bot is not None:
        name = f"{bot['name']} v{bot['version']}"
    elif seat.kind == "house":
        name = seat.name or house_name(seat.index, seat.house_level)
    return {
        "index": seat.index,
        "kind": seat.kind,
        "name": name,
        "user_id": seat.user_id if seat.kind == "human" else None,
        "bot": bot,
        "house_level": seat.house_level,
        "ready": seat.ready,
        "connected": seat.kind != "human" or seat.connections > 0,
        "auto": seat.auto or seat.disqualified,
        "strikes": seat.strikes,
        "disqualified": seat.disqualified,
        "is_host": seat.kind == "human" and seat.user_id == host_id,
    }


def player_snapshot(seat: Seat) -> Frame:
    """Who sat at ``seat`` when a game was dealt, as stored in ``Game.players`` (history uses it
    after the seat has changed hands)."""
    version = seat.bot_version if seat.bot_version_id is not None else None
    return {
        "seat": seat.index,
        "name": seat_json(seat, 0)["name"],
        "kind": seat.kind,
        "user_id": seat.user_id if seat.kind == "human" else None,
        "bot_id": version.bot_id if version is not None else None,
        "bot_version_id": seat.bot_version_id,
        "bot_version": version.number if version is not None else None,
        "bot_owner_id": version.bot.owner_id if version is not None else None,
        "house_level": seat.house_level,
        "disqualified": seat.disqualified,
    }


def table_json(table: Table, seats: Sequence[Seat], current_game: int | None) -> Frame:
    """The protocol's ``table`` object."""
    host_seat = next(
        (s.index for s in seats if s.kind == "human" and s.user_id == table.owner_id), None
    )
    return {
        "code": table.code,
        "name": table.name,
        "game": table.game,
        "status": table.status,
        "visibility": table.visibility,
        "mode": table.mode,
        "host_seat": host_seat,
        "version": table.version,
        "options": dict(table.options),
        "starts_at": ts(table.starts_at),
        "current_game": current_game,
        "next_game_at": ts(table.next_game_at),
    }


def table_updated_frame(table: Table, seats: Sequence[Seat], current_game: int | None) -> Frame:
    return {
        "type": "table_updated",
        "table": table_json(table, seats, current_game),
        "seats": [seat_json(s, table.owner_id) for s in seats],
    }


def message_json(message: ChatMessage, author_name: str | None) -> Frame:
    return {
        "id": message.pk,
        "room": message.room,
        "author": author_name,
        "system": message.is_system,
        "text": message.text,
        "code": message.code,  # system lines: render sys_<code> with params (else: text)
        "params": message.params,
        "at": ts(message.created_at),
    }


def message_frame(message: ChatMessage, author_name: str | None) -> Frame:
    return {"type": "message_received", **message_json(message, author_name)}


def error_frame(code: str, detail: str = "", **extra: Any) -> Frame:
    return {"type": "error", "code": code, "detail": detail, **extra}


def bot_record_frame(
    *, game: int, seq: int, seat: int | None, bot_version_id: int | None, record: Mapping[str, Any]
) -> Frame:
    """The owner-only ``bot_record`` frame of one bot move (docs/protocol.md "Bot move
    records"): sent live to the owner's per-user group, and again on connect."""
    return {
        "type": "bot_record",
        "game": game,
        "seq": seq,
        "seat": seat,
        "bot_version_id": bot_version_id,
        "record": dict(record),
    }


# --------------------------------------------------------------------------- game frames


def your_turn_frame(engine: EngineGame, game: GameRow, state: Any, seat: int) -> Frame:
    """The ``your_turn`` frame of ``seat``: ``{"type", "game", "version", "seat", "deadline",
    "turn_seconds"}`` and then the game's own fields (``engine.turn_payload(state, seat)``,
    whose ``time_limit`` is the ``turn_seconds``)."""
    status = engine.round_status(state)
    payload = engine.turn_payload(state, seat) or {}
    frame: Frame = {
        "type": "your_turn",
        "game": game.number,
        "version": game.version,
        "seat": seat,
        "deadline": status.check_at,
        "turn_seconds": payload.get("time_limit"),
    }
    frame.update((k, v) for k, v in payload.items() if k not in frame)
    return frame


def all_hands_frame(engine: EngineGame, game: GameRow, state: Any, players: int) -> Frame:
    """The ``all_hands`` frame for a spectator who chose to see every hand at a casual table
    whose host allows it (docs/protocol.md "Watching with hands shown"): ``{"type", "game",
    "version", "hands"}``, ``hands[s]`` the cards seat ``s`` holds (its own view's ``hand``)."""
    return {
        "type": "all_hands",
        "game": game.number,
        "version": game.version,
        "hands": [engine.view(state, seat).get("hand") for seat in range(players)],
    }


def session_json(
    session: Mapping[str, Any], engine: EngineGame, *, games: int | None = None
) -> Frame:
    """The protocol's ``session`` object: the engine summary plus cumulative totals per game;
    ``games`` (``Table.games_total``) is the session's length the players see, when the table
    ends it earlier than the engine's (a tournament round)."""
    summary = dict(engine.session_summary(session))
    if games is not None:
        summary["games"] = games
    running = [0] * len(summary["totals"])
    cumulative = []
    for scores in summary["breakdown"]:
        running = [a + b for a, b in zip(running, scores, strict=True)]
        cumulative.append(list(running))
    summary["cumulative"] = cumulative
    return summary


def rematch_json(table: Any) -> Frame | None:
    """The open offer as the protocol shows it (``snapshot.rematch``, ``rematch_offer``):
    ``by`` (seat), ``name``, ``people`` (the seats that answer), ``answers`` (seat → bool,
    as strings), ``deadline`` (unix time); None without an open offer."""
    offer = table.rematch
    if not isinstance(offer, dict):
        return None
    return {
        "id": offer["id"],
        "by": offer["by"],
        "name": offer.get("name"),
        "people": list(offer["people"]),
        "answers": dict(offer["answers"]),
        "deadline": offer["deadline"],
    }
