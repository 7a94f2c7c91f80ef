"""The conformance scenario runner: ``python -m games.engine.conformance < scenario.json``.

Input is one scenario object, a JSON array of them, or JSON lines; the output has the same shape
(one result per scenario, in order). The format is described in the mission's
``conformance/README.md``. A malformed scenario yields ``{"error": code, "detail": ...}`` for that
scenario only, never a traceback.

>>> out = run_scenario({"game": "tienlen", "players": 2, "hands": [], "actions": []})
>>> out["error"]
'bad_config'
>>> run_scenario({"game": "go"})["error"]
'unknown_game'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from games.engine.core.errors import EngineError
from games.engine.diu.conformance import run as run_diu
from games.engine.registry import find_game
from games.engine.stud.conformance import run as run_stud
from games.engine.tienlen import rules as tl_rules
from games.engine.tienlen.combos import KIND_NAMES, classify
from games.engine.tienlen.state import TienLenState

__all__ = ["RUNNERS", "main", "run_input", "run_scenario"]

Result = dict[str, Any]


def _bad(code: str, detail: str) -> Result:
    return {"error": code, "detail": detail}


def _tienlen_config(sc: Mapping[str, Any]) -> dict[str, Any]:
    options = sc.get("options") or {}
    if not isinstance(options, Mapping):
        raise EngineError("bad_scenario", "options must be an object")
    config: dict[str, Any] = {"players": sc.get("players"), "hands": sc.get("hands")}
    if config["hands"] is None:
        raise EngineError("bad_scenario", "hands are required")
    config.update(options)
    return config


def _tienlen_action(state: TienLenState, raw: object) -> tuple[TienLenState, Result]:
    if state.finished:
        return state, {"ok": False, "error": "game_over"}
    if not isinstance(raw, Mapping):
        return state, {"ok": False, "error": "bad_action"}
    auto: dict[str, Any] | None = None
    if raw.get("timeout") is True:
        action = tl_rules.timeout_action(state, state.turn)
        auto = {"seat": action["seat"]}
        if action["type"] == "pass":
            auto["pass"] = True
        else:
            auto["play"] = action["cards"]
    elif "play" in raw:
        action = {"type": "play", "seat": raw.get("seat"), "cards": raw.get("play")}
    elif raw.get("pass") is True:
        action = {"type": "pass", "seat": raw.get("seat")}
    else:
        return state, {"ok": False, "error": "bad_action"}
    try:
        seat, mask, is_auto, at = tl_rules.parse_action(action)
        new = tl_rules._apply(state, seat, mask, is_auto or auto is not None, at, None)
    except EngineError as exc:
        return state, {"ok": False, "error": exc.code}
    out: Result = {"ok": True}
    if auto is not None:
        out["auto"] = auto
    if mask >= 0:
        out["combo"] = KIND_NAMES[classify(mask) >> 12]
    out["next"] = None if new.finished else new.turn
    return new, out


def run_tienlen(sc: Mapping[str, Any]) -> Result:
    """Run one Tiến Lên scenario (``"game": "tienlen"``).

    >>> hands = [["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"],
    ...          ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2C"]]
    >>> opts = {"opening": False, "leader": 0}
    >>> run_tienlen({"players": 2, "hands": hands, "options": opts})["instant_win"]
    'dragon'
    """
    try:
        state = tl_rules.new_game(_tienlen_config(sc), seed=0)
    except EngineError as exc:
        return _bad(exc.code, exc.detail)
    actions = sc.get("actions", [])
    if not isinstance(actions, list):
        return _bad("bad_scenario", "actions must be a list")
    results = []
    for raw in actions:
        state, res = _tienlen_action(state, raw)
        results.append(res)
    final = tl_rules.result(state)
    if final is None:
        transfers, scores = tl_rules.partial_transfers(state)
        return {
            "results": results,
            "finished": False,
            "winner": None,
            "instant_win": None,
            "ranking": None,
            "cong": [],
            "transfers": transfers,
            "scores": scores,
        }
    return {
        "results": results,
        "finished": True,
        "winner": final["winner"],
        "instant_win": final["instant_win"],
        "ranking": final["ranking"],
        "cong": final["cong"],
        "transfers": final["transfers"],
        "scores": final["scores"],
    }


#: Scenario runner per game name.
RUNNERS: dict[str, Callable[[Mapping[str, Any]], Result]] = {
    "tienlen": run_tienlen,
    "stud": run_stud,
    "diu": run_diu,
}


def run_scenario(scenario: object) -> Result:
    """Run one scenario object; errors come back as ``{"error", "detail"}``.

    >>> run_scenario([1])["error"]
    'bad_scenario'
    """
    if not isinstance(scenario, Mapping):
        return _bad("bad_scenario", "a scenario must be an object")
    if "scenario" in scenario and isinstance(scenario["scenario"], Mapping):
        scenario = scenario["scenario"]  # a {"name", "scenario", "expected"} example file
    name = scenario.get("game")
    try:
        find_game(name)  # type: ignore[arg-type]
    except EngineError as exc:
        return _bad(exc.code, exc.detail)
    runner = RUNNERS.get(str(name))
    if runner is None:
        return _bad("unknown_game", f"no conformance runner for {name!r}")
    try:
        return runner(scenario)
    except EngineError as exc:
        return _bad(exc.code, exc.detail)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return _bad("bad_scenario", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # the runner never prints a traceback
        return _bad("internal_error", f"{type(exc).__name__}: {exc}")


def run_input(text: str) -> str:
    """Run the scenarios in ``text`` (object, array or JSON lines); return the output text.

    >>> run_input('{"game": "go"}')
    '{"error": "unknown_game", "detail": "no game named \\'go\\'"}'
    >>> run_input('[]')
    '[]'
    """
    stripped = text.strip()
    if not stripped:
        return json.dumps(_bad("bad_scenario", "no input"), ensure_ascii=False)
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError:
        lines = []
        for number, line in enumerate(stripped.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                lines.append(_bad("bad_scenario", f"line {number} is not JSON"))
                continue
            lines.append(run_scenario(obj))
        return "\n".join(json.dumps(r, ensure_ascii=False) for r in lines)
    if isinstance(data, list):
        return json.dumps([run_scenario(s) for s in data], ensure_ascii=False)
    return json.dumps(run_scenario(data), ensure_ascii=False)


def main(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Entry point: read stdin, write the results to stdout, return 0.

    >>> import io
    >>> out = io.StringIO()
    >>> main(io.StringIO('{"game": "go"}'), out)
    0
    """
    src = stdin if stdin is not None else sys.stdin
    dst = stdout if stdout is not None else sys.stdout
    dst.write(run_input(src.read()) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
