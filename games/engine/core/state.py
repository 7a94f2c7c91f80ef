"""The JSON envelope every game state is stored in: ``{"game", "rules_version", **fields}``.

A game writes its fields (cards as ids, so a stored row stays readable) after
:func:`state_header`, and reads them back through :func:`read_state`, which checks the envelope
and turns any malformed field into ``bad_state``.

>>> d = {**state_header("demo", "demo-1"), "n": 3}
>>> read_state(d, "demo", "demo-1", lambda o: int(o["n"]))
3
>>> read_state({**d, "n": "x"}, "demo", "demo-1", lambda o: int(o["n"]))
Traceback (most recent call last):
...
games.engine.core.errors.EngineError: bad_state: cannot read state: invalid literal ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from games.engine.core.errors import EngineError
from games.engine.core.protocol import JSONDict

__all__ = ["read_state", "state_header"]

T = TypeVar("T")


def state_header(game: str, rules_version: str) -> JSONDict:
    """The first two keys of a stored state.

    >>> state_header("stud", "stud-1")
    {'game': 'stud', 'rules_version': 'stud-1'}
    """
    return {"game": game, "rules_version": rules_version}


def read_state(
    obj: object, game: str, rules_version: str, build: Callable[[Mapping[str, Any]], T]
) -> T:
    """``build(obj)`` for a stored state of ``game`` at ``rules_version``; ``bad_state`` for
    anything else (another game, another rules version, a missing or malformed field).

    >>> read_state({"game": "stud"}, "tienlen", "tienlen-1", dict)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: not a tienlen state
    >>> read_state({"game": "stud", "rules_version": "stud-0"}, "stud", "stud-1", dict)
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_state: rules version 'stud-0' unknown
    """
    if not isinstance(obj, Mapping) or obj.get("game") != game:
        raise EngineError("bad_state", f"not a {game} state")
    if obj.get("rules_version") != rules_version:
        raise EngineError("bad_state", f"rules version {obj.get('rules_version')!r} unknown")
    try:
        return build(obj)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise EngineError("bad_state", f"cannot read state: {exc}") from exc
