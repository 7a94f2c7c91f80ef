"""The Diu scenario runner of ``python -m games.engine.conformance`` (``"game": "diu"``).

A scenario fixes the roles, the hands of A, B and C and the stock (top card first), sets table
options by their snake_case names and lists the actions in the order they are attempted (see
the conformance README's "Suijiang Diu" section). A rejected action changes nothing and the run
goes on; ``{"timeout": true}`` lets the prompted seat's deadline pass.

>>> sc = {"game": "diu", "roles": {"A": 0, "B": 1, "C": 2, "D": 3},
...       "hands": {"A": ["66", "13"], "B": ["11", "22"], "C": ["55", "35"]}, "stock": [],
...       "actions": [{"seat": 1, "action": "pass"}, {"seat": 0, "action": "discard", "card": "66"},
...                   {"timeout": True}]}
>>> out = run(sc)
>>> out["results"][0], out["results"][1]["prompt"]
({'ok': False, 'error': 'not_your_turn'}, {'seat': 1, 'kind': 'call', 'options': ['pass', 'chi']})
>>> out["results"][2]["auto"], out["finished"], out["result"], out["scores"]
({'seat': 1, 'action': 'pass'}, True, 'exhausted', [0, 0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import EngineError
from games.engine.diu import rules
from games.engine.diu.state import DiuState

__all__ = ["run"]

_ACTIONS = ("discard", "pass", "claim", "diu", "accept", "decline")
_FORBIDDEN_OPTIONS = ("roles", "hands", "stock", "players")


def _config(sc: Mapping[str, Any]) -> dict[str, Any]:
    options = sc.get("options") or {}
    if not isinstance(options, Mapping):
        raise EngineError("bad_scenario", "options must be an object")
    clash = set(options) & set(_FORBIDDEN_OPTIONS)
    if clash:
        raise EngineError("bad_scenario", f"set {', '.join(sorted(clash))} at the top level")
    for key in ("roles", "hands"):
        if sc.get(key) is None:
            raise EngineError("bad_scenario", f"{key} are required")
    return {**options, "roles": sc["roles"], "hands": sc["hands"], "stock": sc.get("stock") or []}


def _engine_action(raw: Mapping[str, Any]) -> dict[str, Any]:
    kind = raw.get("action")
    if kind not in _ACTIONS:
        raise EngineError("bad_action", f"action must be one of {', '.join(_ACTIONS)}")
    action: dict[str, Any] = {"type": kind, "seat": raw.get("seat")}
    if kind == "discard":
        action["card"] = raw.get("card")
    elif kind == "claim":
        action["claim"] = raw.get("type")
        action["cards"] = raw.get("cards")
    elif kind == "diu":
        action["cards"] = raw.get("cards")
    return action


def _auto(action: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": action["seat"], "action": action["type"]}
    if "card" in action:
        out["card"] = action["card"]
    return out


def _step(state: DiuState, raw: object) -> tuple[DiuState, dict[str, Any]]:
    if state.finished:
        return state, {"ok": False, "error": "game_over"}
    if not isinstance(raw, Mapping):
        return state, {"ok": False, "error": "bad_action"}
    auto: dict[str, Any] | None = None
    try:
        if raw.get("timeout") is True:
            action = rules.timeout_action(state, state.turn)
            auto = _auto(action)
        else:
            action = _engine_action(raw)
        new, _ = rules.apply(state, action)
    except EngineError as exc:
        return state, {"ok": False, "error": exc.code}
    out: dict[str, Any] = {"ok": True}
    if auto is not None:
        out["auto"] = auto
    out["prompt"] = rules.prompt(new)
    return new, out


def run(sc: Mapping[str, Any]) -> dict[str, Any]:
    """Run one Diu scenario; a bad one gives ``{"error", "detail"}``.

    >>> run({"game": "diu", "roles": {"A": 0}, "hands": {}})["error"]
    'bad_config'
    """
    try:
        state = rules.new_game(_config(sc), seed=0)
    except EngineError as exc:
        return {"error": exc.code, "detail": exc.detail}
    actions = sc.get("actions", [])
    if not isinstance(actions, list):
        return {"error": "bad_scenario", "detail": "actions must be a list"}
    results = []
    for raw in actions:
        state, res = _step(state, raw)
        results.append(res)
    res_final = rules.result(state)
    return {
        "results": results,
        "finished": state.finished,
        "result": state.outcome,
        "winner": state.winner,
        "melds": [
            [{"type": m["type"], "cards": list(m["cards"]), "from": m["from"]} for m in ms]
            for ms in state.melds
        ],
        "scores": res_final["scores"] if res_final else [0, 0, 0, 0],
    }
