"""A chip session of stud: hands at one table until its length or until one player has all the
chips. Stacks carry from hand to hand and the button moves one seat (to the next seat with
chips) each hand. Totals are each seat's chips won or lost against the buy-in.

>>> s = session_start(3, games=10, options={"buy_in": 100})
>>> cfg = session_next_config(s)
>>> cfg["button"], cfg["stacks"]
(0, [100, 100, 100])
>>> s = session_record(s, {"scores": [-10, 15, -5], "winner": 1})
>>> session_next_config(s)["button"], session_summary(s)["totals"]
(1, [-10, 15, -5])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import session as core
from games.engine.core.errors import ConfigError, EngineError
from games.engine.stud.rules import validate_config

__all__ = ["session_next_config", "session_record", "session_start", "session_summary"]

_TABLE_OPTIONS = ("buy_in", "ante", "bring_in", "small_bet", "big_bet", "turn_seconds")
#: Options of other games that the generic table code may pass; a stud session ignores them.
_IGNORED = ("play_on_after_winner", "hide_hand_counts")


def session_start(
    players: int, games: int = 16, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A new session: ``players`` seats, at most ``games`` hands (1–1000), every seat buying in
    with ``options["buy_in"]`` chips. ``options`` may also set ``ante``, ``bring_in``,
    ``small_bet``, ``big_bet`` and ``turn_seconds``.

    >>> session_start(2, games=0)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: games must be an int from 1 to 1000
    """
    opts = core.own_options(options, _TABLE_OPTIONS, _IGNORED)
    games = core.check_games(games)
    cfg = validate_config({"players": players, "games": games, **opts})
    if cfg["buy_in"] <= 0:
        raise ConfigError(detail="buy_in must be positive")
    return {
        "game": "stud",
        "players": cfg["players"],
        "games": games,
        "options": {k: cfg[k] for k in _TABLE_OPTIONS},
        "stacks": list(cfg["stacks"]),
        "button": None,
        "results": [],
        "totals": [0] * cfg["players"],
        "finished": False,
    }


def _next_button(session: Mapping[str, Any]) -> int:
    stacks = session["stacks"]
    n = len(stacks)
    prev = session["button"]
    start = 0 if prev is None else (int(prev) + 1) % n
    for k in range(n):
        seat = (start + k) % n
        if stacks[seat] > 0:
            return seat
    return start


def session_next_config(session: Mapping[str, Any]) -> dict[str, Any]:
    """The config of the session's next hand (pass it to ``new_game`` with a fresh seed).

    >>> session_next_config(session_start(2))["players"]
    2
    """
    core.check_open(session)
    return {
        "players": int(session["players"]),
        "games": session["games"],
        **session["options"],
        "button": _next_button(session),
        "stacks": list(session["stacks"]),
    }


def session_record(session: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """A new session with one finished hand's result (``GAME.result(state)``) added.

    >>> session_record(session_start(2), {"scores": [5, -4], "winner": 0})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: hand scores must sum to zero
    """
    scores = core.result_scores(session, result, "hand")
    stacks = [a + b for a, b in zip(session["stacks"], scores, strict=True)]
    if min(stacks) < 0:
        raise EngineError("bad_state", "a stack would go below zero")
    button = _next_button(session)
    entry = {
        **core.new_entry(session, result, scores),
        "button": button,
        "stacks": stacks,
    }
    buy_in = int(session["options"]["buy_in"])
    out = core.recorded(session, entry, scores, stacks=stacks, button=button)
    out["totals"] = [s - buy_in for s in stacks]
    out["finished"] = out["finished"] or sum(1 for s in stacks if s > 0) <= 1
    return out


def session_summary(session: Mapping[str, Any]) -> dict[str, Any]:
    """Totals (chips won or lost), ranking by total (ties: lower seat first), per-hand
    breakdown, stacks, progress.

    >>> s = session_record(session_start(2, 5), {"scores": [-4, 4], "winner": 1})
    >>> sm = session_summary(s)
    >>> sm["ranking"], sm["played"], sm["stacks"]
    ([1, 0], 1, [196, 204])
    """
    return core.summary(session, stacks=list(session["stacks"]))
