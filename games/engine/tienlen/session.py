"""A table session: 16 or 32 games at one table, with running totals.

The session is a JSON-able dict. It decides each game's opening flag and leader: the first game
and the game after a tới trắng are opening games (3♠ leads); otherwise the previous winner
leads, unless that player owed đền bài, in which case the next seat does.

>>> s = session_start(3, games=16)
>>> session_next_config(s)["opening"]
True
>>> s = session_record(s, {"winner": 2, "scores": [-5, -3, 8], "instant_win": None})
>>> cfg = session_next_config(s)
>>> cfg["opening"], cfg["leader"], session_summary(s)["totals"]
(False, 2, [-5, -3, 8])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import session as core
from games.engine.tienlen.rules import validate_config

__all__ = ["session_next_config", "session_record", "session_start", "session_summary"]

_TABLE_OPTIONS = ("play_on_after_winner", "hide_hand_counts", "turn_seconds")


def session_start(
    players: int, games: int = 16, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A new session for ``players`` seats and ``games`` games (16 or 32).

    ``options`` may set ``play_on_after_winner``, ``hide_hand_counts`` and ``turn_seconds``.

    >>> session_start(4)["games"]
    16
    >>> session_start(4, games=20)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: games must be 16 or 32
    """
    opts = core.own_options(options, _TABLE_OPTIONS)
    cfg = validate_config({"players": players, "games": games, **opts})
    return {
        "game": "tienlen",
        "players": cfg["players"],
        "games": cfg["games"],
        "options": {k: cfg[k] for k in _TABLE_OPTIONS},
        "results": [],
        "totals": [0] * cfg["players"],
        "finished": False,
    }


def session_next_config(session: Mapping[str, Any]) -> dict[str, Any]:
    """The config of the session's next game (pass it to ``new_game`` with a fresh seed).

    >>> session_next_config(session_start(2))["players"]
    2
    """
    core.check_open(session)
    players = int(session["players"])
    cfg: dict[str, Any] = {"players": players, "games": session["games"], **session["options"]}
    results = session["results"]
    if not results or results[-1].get("instant_win"):
        cfg.update(opening=True, leader=None)
        return cfg
    last = results[-1]
    leader = int(last["winner"])
    if last.get("den_bai") == leader:
        leader = (leader + 1) % players
    cfg.update(opening=False, leader=leader)
    return cfg


def session_record(session: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """A new session with one finished game's result added (``GAME.result(state)``).

    >>> s = session_start(2)
    >>> session_record(s, {"winner": 0, "scores": [1, 2]})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: game scores must sum to zero
    """
    scores = core.result_scores(session, result)
    entry = {
        **core.new_entry(session, result, scores),
        "instant_win": result.get("instant_win"),
        "den_bai": result.get("den_bai"),
    }
    return core.recorded(session, entry, scores)


def session_summary(session: Mapping[str, Any]) -> dict[str, Any]:
    """Totals, ranking by total (ties: lower seat first), per-game breakdown, progress.

    >>> s = session_record(session_start(2), {"winner": 1, "scores": [-4, 4]})
    >>> session_summary(s)["ranking"], session_summary(s)["played"]
    ([1, 0], 1)
    """
    return core.summary(session)
