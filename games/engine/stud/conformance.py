"""The stud scenario runner of ``python -m games.engine.conformance`` (``"game": "stud"``).

A scenario fixes the deal (``cards``: the seven cards of each seat in deal order) and lists the
actions in the order they are attempted; see the conformance README's "Seven-Card Stud"
section. A rejected action changes nothing and the run goes on.

>>> cards = [["2C", "3C", "4C", "5C", "6C", "7C", "8C"], ["2D", "3D", "AS", "KS", "QS",
...          "JS", "10S"]]
>>> out = run({"game": "stud", "players": 2, "button": 1, "stacks": [20, 20],
...            "options": {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8},
...            "cards": cards, "actions": [{"seat": 1, "action": "call"}, {"timeout": True}]})
>>> out["first"]["legal_actions"], out["results"][0]
(['bring_in', 'complete'], {'ok': False, 'error': 'not_your_turn'})
>>> out["results"][1]["auto"], out["results"][1]["next"]["legal_actions"]
({'seat': 0, 'action': 'bring_in'}, ['complete', 'fold', 'call'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import EngineError
from games.engine.stud import rules
from games.engine.stud.state import StudState

__all__ = ["run"]

_OPTIONS = ("ante", "bring_in", "small_bet", "big_bet", "turn_seconds")


def _config(sc: Mapping[str, Any]) -> dict[str, Any]:
    options = sc.get("options") or {}
    if not isinstance(options, Mapping):
        raise EngineError("bad_scenario", "options must be an object")
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise EngineError("bad_scenario", f"unknown options: {', '.join(sorted(unknown))}")
    config: dict[str, Any] = {"players": sc.get("players"), **options}
    for key in ("button", "stacks", "cards"):
        if sc.get(key) is not None:
            config[key] = sc[key]
    return config


def _step(state: StudState, raw: object) -> tuple[StudState, dict[str, Any]]:
    if state.finished:
        return state, {"ok": False, "error": "hand_over"}
    if not isinstance(raw, Mapping):
        return state, {"ok": False, "error": "bad_action"}
    auto: dict[str, Any] | None = None
    if raw.get("timeout") is True:
        action = rules.timeout_action(state, state.turn)
        auto = {"seat": action["seat"], "action": action["type"]}
    else:
        action = {"type": raw.get("action"), "seat": raw.get("seat")}
    try:
        new, _ = rules.apply(state, action)
    except EngineError as exc:
        return state, {"ok": False, "error": exc.code}
    out: dict[str, Any] = {"ok": True}
    if auto is not None:
        out["auto"] = auto
    out["next"] = rules.your_turn(new)
    return new, out


def run(sc: Mapping[str, Any]) -> dict[str, Any]:
    """Run one stud scenario; a bad one gives ``{"error", "detail"}``.

    >>> run({"game": "stud", "players": 9})["error"]
    'bad_config'
    """
    try:
        state = rules.new_game(_config(sc), seed=0)
    except EngineError as exc:
        return {"error": exc.code, "detail": exc.detail}
    actions = sc.get("actions", [])
    if not isinstance(actions, list):
        return {"error": "bad_scenario", "detail": "actions must be a list"}
    first = rules.your_turn(state)
    results = []
    for raw in actions:
        state, res = _step(state, raw)
        results.append(res)
    return {
        "first": first,
        "results": results,
        "streets": [dict(s) for s in state.streets],
        "finished": state.finished,
        "stacks": list(state.stacks),
    }
