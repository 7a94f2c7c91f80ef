"""Per-round history for replays (seed 004, "viewing history"), for any game.

A game is rebuilt from its record (config, seed, accepted actions). For a round index this gives
the round's starting view, its public turns (the public events of the actions taken in it) and its
ending view, as seen by one seat or by a spectator (``seat=None``). A view never shows more than
the live game showed that seat at that moment.

>>> from games.engine.tienlen import GAME
>>> state = GAME.new_game({"players": 2}, seed=11)
>>> h = round_history(GAME, GAME.record(state), 0, None)
>>> h["round"], h["complete"], h["turns"]
(0, False, [])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import EngineError
from games.engine.core.protocol import Game, JSONDict

__all__ = ["round_history", "rounds_played"]


def _record_parts(record: Mapping[str, Any]) -> tuple[Mapping[str, Any], int | str, list[Any]]:
    try:
        config = record["config"]
        seed = record["seed"]
        actions = list(record.get("actions", []))
    except (KeyError, TypeError) as exc:
        raise EngineError("bad_state", "a game record needs config, seed and actions") from exc
    if not isinstance(config, Mapping):
        raise EngineError("bad_state", "record config must be an object")
    return config, seed, actions


def round_history(
    game: Game, record: Mapping[str, Any], round_index: int, seat: int | None
) -> JSONDict:
    """Start view, public turns and end view of one round of a recorded game.

    Returns ``{"round", "start", "turns", "end", "complete", "rounds"}``; ``end`` is None and
    ``complete`` False while the round is still being played. Raises ``bad_round`` (an
    :class:`EngineError`) for a round that has not started.

    >>> from games.engine.tienlen import GAME
    >>> round_history(GAME, GAME.record(GAME.new_game({"players": 2}, 1)), 5, 0)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_round: round 5 has not started (1 rounds so far)
    """
    config, seed, actions = _record_parts(record)
    state = game.new_game(config, seed)
    index = game.round_status(state).round_index
    start: JSONDict | None = game.view(state, seat) if index == round_index else None
    end: JSONDict | None = None
    turns: list[JSONDict] = []
    for action in actions:
        before = index
        state, events = game.apply(state, action)
        index = game.round_status(state).round_index
        if before == round_index:
            turns.extend(e.to_json() for e in events if e.public)
            if index != round_index:
                end = game.view(state, seat)
                break
        elif index == round_index:
            start = game.view(state, seat)
    finished = game.result(state) is not None
    if start is None:
        raise EngineError(
            "bad_round", f"round {round_index} has not started ({index + 1} rounds so far)"
        )
    if end is None and finished:
        end = game.view(state, seat)
    return {
        "round": round_index,
        "start": start,
        "turns": turns,
        "end": end,
        "complete": end is not None,
        "rounds": rounds_played(game, record) if end is not None else index + 1,
    }


def rounds_played(game: Game, record: Mapping[str, Any]) -> int:
    """How many rounds a recorded game has begun (the current one included).

    >>> from games.engine.tienlen import GAME
    >>> rounds_played(GAME, GAME.record(GAME.new_game({"players": 3}, 4)))
    1
    """
    config, seed, actions = _record_parts(record)
    state = game.replay(config, seed, actions)
    return game.round_status(state).round_index + 1
