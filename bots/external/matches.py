"""External bots in duplicate-deal matches (bots/matches/): the turns of a match game.

A match game is not a table's game: it lives only in the ``lab`` worker that plays the match
(:func:`games.engine.duplicate.run_match`). Its frames are the live ones (``game_start``,
``turn``, ``game_end``, ``error``) with a string ``game_id``, ``match-<match id>-<n>`` (game
``n`` of the match, from 1), and a ``match`` object (``id``, ``game``, ``games``, ``deal``,
``rotation``); the bot answers with the usual ``move`` frame (or ``POST
/api/bot/game/match-<id>-<n>/move``), checked here against the turn's state. The turn goes
through the same Redis mailbox as a table's turn (:mod:`bots.external.mailbox`), with the same
time limit; the match's core strikes a timeout or an illegal move as a live table does.
Table games keep their integer ids and frames unchanged.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bots.external import mailbox
from bots.external.wire import (
    ExternalBotError,
    accept_move,
    error_frame,
    send,
    turn_frame,
)
from bots.lab.entrants import MatchGame
from games.deals import public_config

__all__ = [
    "MatchTurns",
    "is_match_game_id",
    "match_game_frames",
    "match_resume_frames",
    "match_submit_move",
    "parse_match_game_id",
]

_GAME_ID = re.compile(r"match-([0-9]{1,18})-([0-9]{1,9})")
#: A match game still listed for a reconnecting program after this long without a turn is
#: forgotten (its worker died: the healer replays the deal under the same id).
GAME_TTL_SECONDS = 900


def is_match_game_id(value: Any) -> bool:
    """Whether ``value`` names a match game (``match-<id>-<n>``), not a table's game.

    >>> is_match_game_id("match-12-3"), is_match_game_id(12), is_match_game_id("match-x")
    (True, False, False)
    """
    return isinstance(value, str) and _GAME_ID.fullmatch(value) is not None


def parse_match_game_id(value: Any) -> tuple[int, int] | None:
    """``(match id, game number)`` of a match game id, else None.

    >>> parse_match_game_id("match-12-3"), parse_match_game_id("12")
    ((12, 3), None)
    """
    found = _GAME_ID.fullmatch(value) if isinstance(value, str) else None
    return (int(found.group(1)), int(found.group(2))) if found else None


def _match_field(game: MatchGame) -> dict[str, Any]:
    return {
        "id": game.match_id,
        "game": game.number,
        "games": game.games,
        "deal": game.deal,
        "rotation": game.rotation,
    }


def match_game_frames(game: MatchGame, seat: int) -> dict[str, dict[str, Any]]:
    """The ``game_start`` and ``game_end`` frames (``result`` None) of ``seat`` in ``game``."""
    start = {
        "type": "game_start",
        "game_id": game.game_id,
        "game": game.game,
        "seat": seat,
        "players": game.players,
        "config": public_config(game.config),  # the one rule (games.deals): no fixed deal
        "match": _match_field(game),
    }
    end = {
        "type": "game_end",
        "game_id": game.game_id,
        "seat": seat,
        "result": None,
        "match": _match_field(game),
    }
    return {"start": start, "end": end}


def _games_key(bot_id: int) -> str:
    return f"{mailbox.key_prefix()}matchgames:{bot_id}"


def _list_game(bot_id: int, game: MatchGame, seat: int) -> dict[str, Any]:
    """List (or keep listing) ``seat`` of ``game`` among the bot's match games in progress
    (what a reconnecting program is sent); returns its ``game_start`` frame."""
    frame = match_game_frames(game, seat)["start"]
    listed = {"frame": frame, "expires": time.time() + GAME_TTL_SECONDS}
    client = mailbox.client()
    client.hset(_games_key(bot_id), f"{game.game_id}:{seat}", json.dumps(listed))
    client.expire(_games_key(bot_id), GAME_TTL_SECONDS)
    return frame


@dataclass(frozen=True)
class MatchTurns:
    """The site's :class:`bots.lab.entrants.ExternalTurns`: frames to the bot's sockets
    (its channel-layer group), turns in the Redis mailbox. ``on_turn`` is called before every
    turn (the match task renews its heartbeat there: a slow bot's deal is not a lost worker)."""

    on_turn: Callable[[], None] | None = None

    def start(self, *, bot_id: int, game: MatchGame, seat: int) -> None:
        # a deal played again after a worker restart keeps its ids: its turns start afresh
        mailbox.forget_outcomes(game_id=game.game_id)
        send(bot_id, _list_game(bot_id, game, seat))

    def ask(
        self,
        *,
        bot_id: int,
        game: MatchGame,
        seat: int,
        seq: int,
        game_state: Mapping[str, Any],
        state: Mapping[str, Any],
        timeout_s: float,
    ) -> Any:
        if self.on_turn is not None:
            self.on_turn()
        game_id = game.game_id
        deadline = time.time() + timeout_s
        frame = turn_frame(
            game_id=game_id,
            seq=seq,
            seat=seat,
            game_state=dict(game_state),
            deadline_ms=int(timeout_s * 1000),
        ) | {"match": _match_field(game)}
        record = {
            "seq": seq,
            "seat": seat,
            "deadline": deadline,
            "frame": frame,
            "game": game.game,
            "state": dict(state),
        }
        mailbox.open_turn(bot_id=bot_id, game_id=game_id, record=record, ttl=timeout_s + 1.0)
        _list_game(bot_id, game, seat)  # still in progress: listed for a reconnect
        send(bot_id, frame)
        try:
            raw, timed_out = mailbox.wait_move(game_id=game_id, seq=seq, deadline=deadline)
        finally:
            mailbox.close_turn(bot_id=bot_id, game_id=game_id, seq=seq)
        if timed_out:
            send(bot_id, error_frame("timeout", "no move in time", game_id=game_id, seq=seq))
        return raw

    def end(self, *, bot_id: int, game: MatchGame, seat: int, result: Any) -> None:
        mailbox.client().hdel(_games_key(bot_id), f"{game.game_id}:{seat}")
        reason = "finished" if result is not None else "failed"
        send(bot_id, match_game_frames(game, seat)["end"] | {"result": result, "reason": reason})


def _listed_games(bot_id: int) -> dict[str, dict[str, Any]]:
    """The bot's match games in progress: ``"<game_id>:<seat>"`` → their ``game_start``."""
    client = mailbox.client()
    key = _games_key(bot_id)
    out: dict[str, dict[str, Any]] = {}
    now = time.time()
    for field, raw in (client.hgetall(key) or {}).items():
        name = field.decode() if isinstance(field, bytes) else str(field)
        listed = mailbox._load(raw)
        if listed is None or float(listed.get("expires", 0)) < now:
            client.hdel(key, name)
            continue
        out[name] = dict(listed["frame"])
    return out


def match_resume_frames(*, bot_id: int) -> list[dict[str, Any]]:
    """For a (re)connecting program: ``game_start`` of every match game in progress where the
    bot sits, and the open ``turn`` of each (its time left)."""
    frames: list[dict[str, Any]] = []
    turns_sent: set[str] = set()
    for frame in sorted(_listed_games(bot_id).values(), key=lambda f: (f["game_id"], f["seat"])):
        frames.append(frame)
        game_id = str(frame["game_id"])
        turn = mailbox.get_turn(bot_id=bot_id, game_id=game_id)
        if turn is None or game_id in turns_sent or turn.get("seat") != frame["seat"]:
            continue
        left = int((float(turn["deadline"]) - time.time()) * 1000)
        if left > 0:
            frames.append(dict(turn["frame"]) | {"deadline_ms": left})
            turns_sent.add(game_id)
    return frames


def match_submit_move(*, bot_id: int, game_id: str, seq: Any, move: Any) -> dict[str, Any]:
    """:func:`bots.external.services.external_submit_move` for a match game: the same checks
    and codes (``bad_frame``, ``unknown_game``, ``not_your_turn``, ``stale_seq``,
    ``illegal_move``), against the open turn's state in the mailbox; a good move is posted to
    the worker that plays the match."""
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ExternalBotError("bad_frame", "seq must be an integer")
    if not isinstance(move, dict):
        raise ExternalBotError("bad_frame", "move must be an object (a bot's move)")
    turn = mailbox.get_turn(bot_id=bot_id, game_id=game_id)
    if turn is None:
        if any(name.rpartition(":")[0] == game_id for name in _listed_games(bot_id)):
            raise ExternalBotError("not_your_turn", "the bot has no turn open in that game")
        raise ExternalBotError("unknown_game", "no game in progress of this bot has that id")
    if turn.get("seq") != seq:
        raise ExternalBotError("stale_seq", f"the open turn is seq {turn.get('seq')}")
    return accept_move(
        game=str(turn["game"]),
        state=turn["state"],
        seat=int(turn["seat"]),
        game_id=game_id,
        seq=seq,
        move=move,
    )
