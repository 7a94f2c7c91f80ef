"""The stud scenario format of ``python -m games.engine.conformance`` (``"game": "stud"``).

A scenario fixes the deal (``cards``: the seven cards of each seat in deal order) and lists the
actions in the order they are attempted; see the conformance README's "Seven-Card Stud"
section. A rejected action changes nothing and the run goes on.

>>> cards = [["2C", "3C", "4C", "5C", "6C", "7C", "8C"], ["2D", "3D", "AS", "KS", "QS",
...          "JS", "10S"]]
>>> from games.engine.conformance import run_scenario
>>> out = run_scenario({"game": "stud", "players": 2, "button": 1, "stacks": [20, 20],
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
from games.engine.core.protocol import Action, JSONDict
from games.engine.core.scenarios import ScenarioFormat, Step, scenario_options
from games.engine.stud import rules

__all__ = ["FORMAT", "StudScenarios"]

_OPTIONS = ("ante", "bring_in", "small_bet", "big_bet", "turn_seconds")


class StudScenarios(ScenarioFormat):
    """Stud's scenarios: actions ``{"seat", "action"}``, the seed's ``your_turn`` payloads.

    >>> StudScenarios().action({"seat": 1, "action": "fold"})
    {'type': 'fold', 'seat': 1}
    """

    over_code = "hand_over"

    def config(self, sc: Mapping[str, Any]) -> tuple[dict[str, Any], int | str]:
        """Players, options, and the fixed ``button``, ``stacks`` and ``cards`` when given.

        >>> StudScenarios().config({"players": 2, "options": {"limit": 3}})
        Traceback (most recent call last):
        ...
        games.engine.core.errors.EngineError: bad_scenario: unknown options: limit
        """
        options = scenario_options(sc)
        unknown = set(options) - set(_OPTIONS)
        if unknown:
            raise EngineError("bad_scenario", f"unknown options: {', '.join(sorted(unknown))}")
        config: dict[str, Any] = {"players": sc.get("players"), **options}
        for key in ("button", "stacks", "cards"):
            if sc.get(key) is not None:
                config[key] = sc[key]
        return config, 0

    def start(self, game: Any, sc: Mapping[str, Any], state: Any) -> JSONDict:
        """The first ``your_turn`` payload."""
        return {"first": rules.your_turn(state)}

    def action(self, raw: Mapping[str, Any]) -> Action:
        """The named action of the seat (the engine judges it)."""
        return {"type": raw.get("action"), "seat": raw.get("seat")}

    def step(self, step: Step, run: JSONDict) -> JSONDict:
        """The next ``your_turn`` payload (None once the hand is over)."""
        return {"next": rules.your_turn(step.after)}

    def finish(self, game: Any, state: Any, results: list[JSONDict], run: JSONDict) -> JSONDict:
        """The first payload, the step results, every street's record, the final stacks."""
        return {
            "first": run["first"],
            "results": results,
            "streets": [dict(s) for s in state.streets],
            "finished": state.finished,
            "stacks": list(state.stacks),
        }


#: The format ``GAME.scenario_format`` names.
FORMAT = StudScenarios()
