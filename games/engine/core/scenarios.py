"""How a game reads a conformance scenario and reports its run (``GAME.scenario_format``).

The one runner, :mod:`games.engine.conformance`, deals the scenario's game and tries its actions
in order: a rejected action gives ``{"ok": false, "error": code}`` and changes nothing,
``{"timeout": true}`` plays the pending seat's timeout action. A game says only what is its own:
how a scenario fixes the deal (:meth:`ScenarioFormat.config`), how a scenario action becomes an
engine action, what an accepted step reports, and the final output. The default below takes
engine actions as they are (``{"type": ..., "seat": ...}``), a ``config`` object and a ``seed``.

>>> fmt = ScenarioFormat()
>>> fmt.config({"players": 2, "config": {"x": 1}, "seed": 7})
({'x': 1, 'players': 2}, 7)
>>> fmt.action({"type": "pass", "seat": 1})
{'type': 'pass', 'seat': 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from games.engine.core.errors import EngineError
from games.engine.core.protocol import Action, Event, JSONDict

__all__ = ["ScenarioFormat", "Step", "scenario_options", "scenario_seed"]


class Step(NamedTuple):
    """One accepted scenario action: the game, the states before and after, its events."""

    game: Any
    before: Any
    after: Any
    events: list[Event]


def scenario_options(sc: Mapping[str, Any], key: str = "options") -> dict[str, Any]:
    """The scenario's options object (``{}`` when absent); ``bad_scenario`` if not an object.

    >>> scenario_options({"options": 3})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_scenario: options must be an object
    """
    options = sc.get(key) or {}
    if not isinstance(options, Mapping):
        raise EngineError("bad_scenario", f"{key} must be an object")
    return dict(options)


def scenario_seed(sc: Mapping[str, Any]) -> int | str:
    """The scenario's ``seed`` (0 when absent); ``bad_scenario`` unless an int or a string.

    >>> scenario_seed({}), scenario_seed({"seed": "t-7"})
    (0, 't-7')
    >>> scenario_seed({"seed": True})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_scenario: seed must be an int or a string
    """
    seed = sc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise EngineError("bad_scenario", "seed must be an int or a string")
    return seed


class ScenarioFormat:
    """A game's conformance scenario format; subclass it and override what differs.

    ``over_code`` is the error an action gets once the game has ended.

    >>> ScenarioFormat().over_code
    'game_over'
    """

    over_code = "game_over"

    def special(self, sc: Mapping[str, Any]) -> JSONDict | None:
        """The whole output of a scenario that deals no game (diu's riffle), else None.

        >>> ScenarioFormat().special({}) is None
        True
        """
        return None

    def config(self, sc: Mapping[str, Any]) -> tuple[dict[str, Any], int | str]:
        """The game config and seed a scenario deals with (``bad_scenario`` when malformed).

        >>> ScenarioFormat().config({"config": 3})
        Traceback (most recent call last):
        ...
        games.engine.core.errors.EngineError: bad_scenario: config must be an object
        """
        config = scenario_options(sc, "config")
        if sc.get("players") is not None:
            config["players"] = sc["players"]
        return config, scenario_seed(sc)

    def start(self, game: Any, sc: Mapping[str, Any], state: Any) -> JSONDict:
        """What the run keeps between steps (and may report), from the dealt state.

        >>> ScenarioFormat().start(None, {}, None)
        {}
        """
        return {}

    def action(self, raw: Mapping[str, Any]) -> Action:
        """The engine action a scenario action stands for (``bad_action`` when it is none).

        >>> ScenarioFormat().action({"seat": 0})
        Traceback (most recent call last):
        ...
        games.engine.core.errors.EngineError: bad_action: an action needs a type
        """
        if not isinstance(raw.get("type"), str):
            raise EngineError("bad_action", "an action needs a type")
        return dict(raw)

    def over(self, game: Any, state: Any) -> bool:
        """Whether the game has ended (every further action gets :attr:`over_code`): by default
        whether ``game.result`` is given. A game whose result costs work may read a flag.

        >>> from games.engine.tienlen import GAME
        >>> ScenarioFormat().over(GAME, GAME.new_game({"players": 2}, 1))
        False
        """
        return game.result(state) is not None

    def apply(self, game: Any, state: Any, action: Mapping[str, Any]) -> tuple[Any, list[Event]]:
        """Apply an accepted scenario action: ``game.apply`` by default. A game whose
        :meth:`step` reads no events may override it to skip building them (the runner's hot
        path: Tiến Lên's events cost about a third of a scenario's run).

        >>> from games.engine.tienlen import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> ScenarioFormat().apply(GAME, s, GAME.timeout_action(s, s.turn))[1][0].type
        'cards_played'
        """
        return game.apply(state, action)  # type: ignore[no-any-return]

    def auto(self, action: Mapping[str, Any]) -> JSONDict:
        """How a step reports the timeout action it played.

        >>> ScenarioFormat().auto({"type": "fold", "seat": 2, "auto": True})
        {'seat': 2, 'action': 'fold'}
        """
        return {"seat": action["seat"], "action": action["type"]}

    def step(self, step: Step, run: JSONDict) -> JSONDict:
        """The fields an accepted step reports after ``ok`` (and ``auto``): by default the seats
        pending next.

        >>> from games.engine.tienlen import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> ScenarioFormat().step(Step(GAME, s, s, []), {})["next"] == [s.turn]
        True
        """
        return {"next": list(step.game.round_status(step.after).pending)}

    def finish(self, game: Any, state: Any, results: list[JSONDict], run: JSONDict) -> JSONDict:
        """The scenario's output: by default the step results, whether the game ended, and
        the engine's result.

        >>> from games.engine.tienlen import GAME
        >>> out = ScenarioFormat().finish(GAME, GAME.new_game({"players": 2}, 1), [], {})
        >>> out["finished"], out["result"]
        (False, None)
        """
        result = game.result(state)
        return {"results": results, "finished": result is not None, "result": result, **run}
