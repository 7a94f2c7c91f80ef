"""The Tiến Lên scenario format of ``python -m games.engine.conformance`` (``"game": "tienlen"``).

A scenario fixes the hands (``hands``: one list of card ids per seat), sets table options in
``options`` and lists the actions in the order they are attempted: ``{"seat", "play": [...]}``,
``{"seat", "pass": true}`` or ``{"timeout": true}``. Each accepted step reports the combination
played and the next seat; the output ends with the winner, ranking, cóng, transfers and scores
(the partial ones while the game is on).

>>> from games.engine.conformance import run_scenario
>>> hands = [["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"],
...          ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2C"]]
>>> opts = {"opening": False, "leader": 0}
>>> run_scenario({"game": "tienlen", "players": 2, "hands": hands, "options": opts})["instant_win"]
'dragon'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import EngineError
from games.engine.core.protocol import Action, Event, JSONDict
from games.engine.core.scenarios import ScenarioFormat, Step, scenario_options
from games.engine.tienlen import rules
from games.engine.tienlen.combos import KIND_NAMES, classify

__all__ = ["FORMAT", "TienLenScenarios"]


class TienLenScenarios(ScenarioFormat):
    """Tiến Lên's scenarios (the conformance README's format).

    >>> TienLenScenarios().action({"seat": 1, "pass": True})
    {'type': 'pass', 'seat': 1}
    """

    def config(self, sc: Mapping[str, Any]) -> tuple[dict[str, Any], int | str]:
        """Players, hands and options; the seed does not matter (the hands are fixed).

        >>> TienLenScenarios().config({"players": 2})
        Traceback (most recent call last):
        ...
        games.engine.core.errors.EngineError: bad_scenario: hands are required
        """
        options = scenario_options(sc)
        config: dict[str, Any] = {"players": sc.get("players"), "hands": sc.get("hands")}
        if config["hands"] is None:
            raise EngineError("bad_scenario", "hands are required")
        config.update(options)
        return config, 0

    def action(self, raw: Mapping[str, Any]) -> Action:
        """A play or a pass (``bad_action`` for anything else).

        >>> TienLenScenarios().action({"seat": 0, "play": ["3S"]})
        {'type': 'play', 'seat': 0, 'cards': ['3S']}
        """
        if "play" in raw:
            return {"type": "play", "seat": raw.get("seat"), "cards": raw.get("play")}
        if raw.get("pass") is True:
            return {"type": "pass", "seat": raw.get("seat")}
        raise EngineError("bad_action", "an action plays cards or passes")

    def over(self, game: Any, state: Any) -> bool:
        """The state's ``finished`` flag (the result is computed once, at the end).

        >>> from games.engine.tienlen import GAME
        >>> TienLenScenarios().over(GAME, GAME.new_game({"players": 2}, 1))
        False
        """
        return bool(state.finished)

    def apply(self, game: Any, state: Any, action: Mapping[str, Any]) -> tuple[Any, list[Event]]:
        """The rules without events (:func:`rules.apply_quiet`): :meth:`step` reads the state.

        >>> from games.engine.tienlen import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> new, events = TienLenScenarios().apply(GAME, s, GAME.timeout_action(s, s.turn))
        >>> new.log[-1][0] == s.turn, events
        (True, [])
        """
        return rules.apply_quiet(state, action), []

    def auto(self, action: Mapping[str, Any]) -> JSONDict:
        """The timeout's pass or play.

        >>> TienLenScenarios().auto({"type": "play", "seat": 1, "cards": ["3S"]})
        {'seat': 1, 'play': ['3S']}
        """
        if action["type"] == "pass":
            return {"seat": action["seat"], "pass": True}
        return {"seat": action["seat"], "play": action["cards"]}

    def step(self, step: Step, run: JSONDict) -> JSONDict:
        """The combination played (not for a pass) and the next seat (None once over)."""
        out: JSONDict = {}
        mask = step.after.log[-1][1]
        if mask >= 0:
            out["combo"] = KIND_NAMES[classify(mask) >> 12]
        out["next"] = None if step.after.finished else step.after.turn
        return out

    def finish(self, game: Any, state: Any, results: list[JSONDict], run: JSONDict) -> JSONDict:
        """Winner, instant win, ranking, cóng, transfers and scores (partial while on)."""
        final = rules.result(state)
        if final is None:
            transfers, scores = rules.partial_transfers(state)
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
            **{k: final[k] for k in ("winner", "instant_win", "ranking", "cong", "transfers")},
            "scores": final["scores"],
        }


#: The format ``GAME.scenario_format`` names.
FORMAT = TienLenScenarios()
