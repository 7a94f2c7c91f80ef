"""A table session of Diu: a run of hands at one 4-seat table, roles rotating between hands.

The first hand's roles are drawn from its seed (``roles`` null in the config); afterwards
``rotation`` decides: ``fixed`` (old A sits out as D, B becomes A, C becomes B, D becomes C) or
``winner_becomes_a`` (the winner is the new A, the cyclic order kept; a hand without a winner
rotates as ``fixed``).

>>> s = session_start(4, games=8)
>>> session_next_config(s)["roles"] is None
True
>>> roles = {"A": 0, "B": 1, "C": 2, "D": 3}
>>> s = session_record(s, {"winner": 1, "scores": [-1, 2, -1, 0], "roles": roles})
>>> session_next_config(s)["roles"], session_summary(s)["totals"]
({'A': 1, 'B': 2, 'C': 3, 'D': 0}, [-1, 2, -1, 0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import session as core
from games.engine.core.errors import EngineError
from games.engine.diu.rules import DEFAULT_CONFIG, ROLES, validate_config

__all__ = [
    "next_roles",
    "session_next_config",
    "session_record",
    "session_start",
    "session_summary",
]

#: Options a session carries from hand to hand (every rule switch; not the deal itself).
_TABLE_OPTIONS = tuple(k for k in DEFAULT_CONFIG if k not in ("players", "roles", "games"))
#: Options of other games that the generic table code may pass; a diu session ignores them.
_IGNORED = ("play_on_after_winner", "hide_hand_counts", "turn_seconds")


def next_roles(roles: Mapping[str, int], winner: int | None, rotation: str) -> dict[str, int]:
    """The roles of the next hand (rules §4).

    >>> next_roles({"A": 0, "B": 1, "C": 2, "D": 3}, None, "fixed")
    {'A': 1, 'B': 2, 'C': 3, 'D': 0}
    >>> next_roles({"A": 0, "B": 1, "C": 2, "D": 3}, 2, "winner_becomes_a")
    {'A': 2, 'B': 3, 'C': 0, 'D': 1}
    """
    cycle = [int(roles[r]) for r in ROLES]
    start = 1
    if rotation == "winner_becomes_a" and winner is not None and winner in cycle:
        start = cycle.index(winner)
    return {r: cycle[(start + i) % 4] for i, r in enumerate(ROLES)}


def session_start(
    players: int, games: int = 16, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A new session: 4 seats, ``games`` hands (1–1000), ``options`` any rule switches.

    >>> session_start(3)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: a diu table has exactly 4 seats
    """
    opts = core.own_options(options, _TABLE_OPTIONS, _IGNORED)
    cfg = validate_config({"players": players, "games": games, **opts})
    return {
        "game": "diu",
        "players": 4,
        "games": cfg["games"],
        "options": {k: cfg[k] for k in _TABLE_OPTIONS},
        "roles": None,
        "results": [],
        "totals": [0, 0, 0, 0],
        "finished": False,
    }


def session_next_config(session: Mapping[str, Any]) -> dict[str, Any]:
    """The config of the session's next hand (pass it to ``new_game`` with a fresh seed).

    >>> session_next_config(session_start(4))["players"]
    4
    """
    core.check_open(session)
    roles = session.get("roles")
    return {
        "players": 4,
        "games": session["games"],
        **session["options"],
        "roles": dict(roles) if roles else None,
    }


def session_record(session: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """A new session with one finished hand's result (``GAME.result(state)``) added; the next
    hand's roles are rotated.

    >>> session_record(session_start(4), {"winner": 0, "scores": [1, 0, 0, 0], "roles": {}})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: hand scores must sum to zero
    """
    scores = core.result_scores(session, result, "hand")
    roles = result.get("roles")
    if not isinstance(roles, Mapping) or sorted(roles) != sorted(ROLES):
        raise EngineError("bad_state", "the result must name the hand's roles")
    entry = {
        **core.new_entry(session, result, scores),
        "result": result.get("result"),
        "roles": dict(roles),
    }
    rotation = str(session["options"].get("rotation", "fixed"))
    return core.recorded(session, entry, scores, roles=next_roles(roles, entry["winner"], rotation))


def session_summary(session: Mapping[str, Any]) -> dict[str, Any]:
    """Totals, ranking by total (ties: lower seat first), per-hand breakdown, progress.

    >>> s = session_record(session_start(4), {"winner": 2, "scores": [-1, -1, 2, 0],
    ...                    "roles": {"A": 0, "B": 1, "C": 2, "D": 3}})
    >>> session_summary(s)["ranking"], session_summary(s)["played"]
    ([2, 3, 0, 1], 1)
    """
    return core.summary(session)
