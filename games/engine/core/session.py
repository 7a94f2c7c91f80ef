"""Table-session bookkeeping shared by every game (seed 004: a session is a run of games at one
table with running totals).

A session is a JSON-able dict: ``{"game", "players", "games", "options", "results", "totals",
"finished", ...}``. A game's own session module adds what carries from game to game (Tiến Lên's
leader, stud's stacks and button, Diu's roles) and builds on these helpers.

>>> s = {"players": 2, "games": 1, "results": [], "totals": [0, 0], "finished": False}
>>> scores = result_scores(s, {"scores": [3, -3]})
>>> s = recorded(s, {"game": 1, "scores": scores}, scores)
>>> summary(s)["totals"], summary(s)["finished"]
([3, -3], True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engine.core.errors import ConfigError, EngineError
from games.engine.core.options import is_int
from games.engine.core.protocol import JSONDict

__all__ = [
    "check_games",
    "check_open",
    "new_entry",
    "own_options",
    "recorded",
    "result_scores",
    "summary",
]


def own_options(
    options: Mapping[str, Any] | None, allowed: Iterable[str], ignored: Iterable[str] = ()
) -> dict[str, Any]:
    """The session options a game takes: ``ignored`` ones dropped, unknown ones ``bad_config``.

    >>> own_options({"ante": 1, "hide_hand_counts": True}, ("ante",), ("hide_hand_counts",))
    {'ante': 1}
    >>> own_options({"x": 1}, ("ante",))
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: unknown session options: x
    """
    skip = set(ignored)
    opts = {k: v for k, v in (options or {}).items() if k not in skip}
    unknown = set(opts) - set(allowed)
    if unknown:
        raise ConfigError(detail=f"unknown session options: {', '.join(sorted(unknown))}")
    return opts


def check_games(games: object) -> int:
    """A session length of 1 to 1000 games, or ``bad_config``.

    >>> check_games(8)
    8
    >>> check_games(True)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: games must be an int from 1 to 1000
    """
    if not isinstance(games, int) or not is_int(games) or not 1 <= games <= 1000:
        raise ConfigError(detail="games must be an int from 1 to 1000")
    return games


def check_open(session: Mapping[str, Any]) -> None:
    """``game_over`` for a finished session.

    >>> check_open({"finished": True})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: game_over: the session is finished
    """
    if session.get("finished"):
        raise EngineError("game_over", "the session is finished")


def result_scores(
    session: Mapping[str, Any], result: Mapping[str, Any], noun: str = "game"
) -> list[int]:
    """A finished game's scores, checked: the session still open, one score per seat, summing
    to zero (``bad_state`` names the ``noun``: game or hand).

    >>> result_scores({"players": 2}, {"scores": [1, 2]}, "hand")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: hand scores must sum to zero
    """
    check_open(session)
    scores = [int(x) for x in result["scores"]]
    if len(scores) != int(session["players"]):
        raise EngineError("bad_state", "one score per seat is needed")
    if sum(scores) != 0:
        raise EngineError("bad_state", f"{noun} scores must sum to zero")
    return scores


def new_entry(
    session: Mapping[str, Any], result: Mapping[str, Any], scores: list[int]
) -> dict[str, Any]:
    """The session's entry for a finished game: its number, winner, scores and ranking.

    >>> new_entry({"results": []}, {"winner": 1, "ranking": [1, 0]}, [-2, 2])
    {'game': 1, 'winner': 1, 'scores': [-2, 2], 'ranking': [1, 0]}
    """
    winner = result.get("winner")
    return {
        "game": len(session["results"]) + 1,
        "winner": None if winner is None else int(winner),
        "scores": scores,
        "ranking": list(result.get("ranking") or []),
    }


def recorded(
    session: Mapping[str, Any], entry: Mapping[str, Any], scores: list[int], **changes: Any
) -> dict[str, Any]:
    """The session with ``entry`` appended and ``scores`` added to the totals (``changes``
    override any key, e.g. stud's stacks); finished once its length is played.

    >>> s = {"players": 1, "games": 2, "results": [], "totals": [0], "finished": False}
    >>> recorded(s, {"game": 1}, [0])["finished"]
    False
    """
    results = [*session["results"], dict(entry)]
    out = {
        **session,
        "results": results,
        "totals": [a + b for a, b in zip(session["totals"], scores, strict=True)],
        "finished": len(results) >= int(session["games"]),
    }
    out.update(changes)
    return out


def summary(session: Mapping[str, Any], **extra: Any) -> JSONDict:
    """Totals, ranking by total (ties: lower seat first), per-game breakdown, progress; with
    ``extra`` keys before ``finished``.

    >>> s = {"games": 4, "results": [{"scores": [-4, 4]}], "totals": [-4, 4], "finished": False}
    >>> summary(s)["ranking"], summary(s)["played"]
    ([1, 0], 1)
    """
    totals = list(session["totals"])
    return {
        "totals": totals,
        "ranking": sorted(range(len(totals)), key=lambda s: (-totals[s], s)),
        "breakdown": [list(r["scores"]) for r in session["results"]],
        "played": len(session["results"]),
        "games": session["games"],
        **extra,
        "finished": bool(session["finished"]),
    }
