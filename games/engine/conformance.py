"""The conformance scenario runner: ``python -m games.engine.conformance < scenario.json``.

Input is one scenario object, a JSON array of them, or JSON lines; the output has the same shape
(one result per scenario, in order). The format is described in the mission's
``conformance/README.md``. A malformed scenario yields ``{"error": code, "detail": ...}`` for that
scenario only, never a traceback.

One runner serves every registered game: ``"game"`` picks it from the registry, and the game's
``scenario_format`` (a :class:`games.engine.core.scenarios.ScenarioFormat`, in its package's
``conformance`` module) says how its scenarios fix a deal, name actions and report.

>>> out = run_scenario({"game": "tienlen", "players": 2, "hands": [], "actions": []})
>>> out["error"]
'bad_config'
>>> run_scenario({"game": "go"})["error"]
'unknown_game'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, TextIO

from games.engine.core import jsonsafe
from games.engine.core.errors import EngineError
from games.engine.core.protocol import Game
from games.engine.core.scenarios import Step
from games.engine.registry import find_game

__all__ = ["main", "run_game", "run_input", "run_scenario"]

Result = dict[str, Any]


def _bad(code: str, detail: str) -> Result:
    return {"error": code, "detail": detail}


def run_game(game: Game, sc: Mapping[str, Any]) -> Result:
    """Run one scenario of ``game`` in its format (``game.scenario_format``): deal, try every
    action in order (a rejected one gives ``{"ok": false, "error"}`` and changes nothing;
    ``{"timeout": true}`` plays the pending seat's timeout action), then report.

    >>> from games.engine.stud import GAME
    >>> run_game(GAME, {"players": 2, "actions": [{"seat": 5, "action": "fold"}]})["results"]
    [{'ok': False, 'error': 'bad_seat'}]
    """
    fmt = game.scenario_format
    try:
        special = fmt.special(sc)
        if special is not None:
            return special
        config, seed = fmt.config(sc)
        state = game.new_game(config, seed)
    except EngineError as exc:
        return _bad(exc.code, exc.detail)
    actions = sc.get("actions", [])
    if not isinstance(actions, list):
        return _bad("bad_scenario", "actions must be a list")
    run = fmt.start(game, sc, state)
    results = []
    # Whether the game is over changes only when an action is accepted: ask once per accepted
    # action, not once per attempt (``game.result`` of a finished game computes the result).
    over = fmt.over(game, state)
    for raw in actions:
        if over:
            results.append({"ok": False, "error": fmt.over_code})
            continue
        state, res = _step(game, state, raw, run)
        if res["ok"]:
            over = fmt.over(game, state)
        results.append(res)
    return fmt.finish(game, state, results, run)


def _step(game: Game, state: Any, raw: object, run: Result) -> tuple[Any, Result]:
    fmt = game.scenario_format
    if type(raw) is not dict and not isinstance(raw, Mapping):  # the common case first
        return state, {"ok": False, "error": "bad_action"}
    auto: Result | None = None
    try:
        if raw.get("timeout") is True:
            pending = game.round_status(state).pending
            action = game.timeout_action(state, pending[0] if pending else -1)
            auto = fmt.auto(action)
        else:
            action = fmt.action(raw)
        new, events = fmt.apply(game, state, action)
    except EngineError as exc:
        return state, {"ok": False, "error": exc.code}
    out: Result = {"ok": True}
    if auto is not None:
        out["auto"] = auto
    out.update(fmt.step(Step(game, state, new, events), run))
    return new, out


def run_scenario(scenario: object) -> Result:
    """Run one scenario object; errors come back as ``{"error", "detail"}``.

    >>> run_scenario([1])["error"]
    'bad_scenario'
    """
    if not isinstance(scenario, Mapping):
        return _bad("bad_scenario", "a scenario must be an object")
    if "scenario" in scenario and isinstance(scenario["scenario"], Mapping):
        scenario = scenario["scenario"]  # a {"name", "scenario", "expected"} example file
    try:
        game = find_game(scenario.get("game"))  # type: ignore[arg-type]
    except EngineError as exc:
        return _bad(exc.code, exc.detail)
    try:
        return run_game(game, scenario)
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
        data = jsonsafe.loads(stripped)
    except json.JSONDecodeError as exc:
        if isinstance(exc, jsonsafe.JSONTooDeepError) and "\n" not in stripped:
            return json.dumps(_bad("bad_scenario", exc.msg), ensure_ascii=False)
        lines = []
        for number, line in enumerate(stripped.splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = jsonsafe.loads(line)
            except json.JSONDecodeError as exc:
                too_deep = f" ({exc.msg})" if isinstance(exc, jsonsafe.JSONTooDeepError) else ""
                lines.append(_bad("bad_scenario", f"line {number} is not JSON{too_deep}"))
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
