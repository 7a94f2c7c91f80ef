"""The Diu scenario format of ``python -m games.engine.conformance`` (``"game": "diu"``).

A scenario fixes the roles, the hands of A, B and C and the stock (top card first), sets table
options by their snake_case names and lists the actions in the order they are attempted (see
the conformance README's "Suijiang Diu" section). A rejected action changes nothing and the run
goes on; ``{"timeout": true}`` lets the prompted seat's deadline pass.

>>> sc = {"game": "diu", "roles": {"A": 0, "B": 1, "C": 2, "D": 3},
...       "hands": {"A": ["66", "13"], "B": ["11", "22"], "C": ["55", "35"]}, "stock": [],
...       "actions": [{"seat": 1, "action": "pass"}, {"seat": 0, "action": "discard", "card": "66"},
...                   {"timeout": True}]}
>>> from games.engine.conformance import run_scenario
>>> out = run_scenario(sc)
>>> out["results"][0], out["results"][1]["prompt"]
({'ok': False, 'error': 'not_your_turn'}, {'seat': 1, 'kind': 'call', 'options': ['pass', 'chi']})
>>> out["results"][2]["auto"], out["finished"], out["result"], out["scores"]
({'seat': 1, 'action': 'pass'}, True, 'exhausted', [0, 0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import EngineError
from games.engine.core.protocol import Action, Event, JSONDict
from games.engine.core.rng import seed_state
from games.engine.core.scenarios import ScenarioFormat, Step, scenario_options, scenario_seed
from games.engine.diu import rules
from games.engine.diu.cards import riffle_once, riffle_with
from games.engine.diu.session import next_roles
from games.engine.diu.state import DiuState

__all__ = ["FORMAT", "DiuScenarios"]

_ACTIONS = ("discard", "pass", "claim", "diu", "accept", "decline")
#: Optional outputs a scenario may ask for in ``report``.
_REPORTS = ("deal", "batches", "next_roles")
_FORBIDDEN_OPTIONS = ("roles", "hands", "stock", "players")


def _config(sc: Mapping[str, Any]) -> dict[str, Any]:
    options = scenario_options(sc)
    clash = set(options) & set(_FORBIDDEN_OPTIONS)
    if clash:
        raise EngineError("bad_scenario", f"set {', '.join(sorted(clash))} at the top level")
    if sc.get("seed") is not None and sc.get("hands") is None:  # dealt from the RNG
        if sc.get("stock") is not None:
            raise EngineError("bad_scenario", "a seeded deal has no fixed stock")
        return {**options, "roles": sc.get("roles")}
    for key in ("roles", "hands"):
        if sc.get(key) is None:
            raise EngineError("bad_scenario", f"{key} are required")
    return {**options, "roles": sc["roles"], "hands": sc["hands"], "stock": sc.get("stock") or []}


def _report(sc: Mapping[str, Any]) -> list[str]:
    report = sc.get("report") or []
    if not isinstance(report, list) or any(r not in _REPORTS for r in report):
        raise EngineError("bad_scenario", f"report lists some of {', '.join(_REPORTS)}")
    return list(report)


def _riffle(spec: object) -> dict[str, Any]:
    """The riffle-only scenario (§5.1): a given cut and coin flips, or seeded passes."""
    if not isinstance(spec, Mapping) or not isinstance(spec.get("deck"), list):
        raise EngineError("bad_scenario", "riffle needs a deck list")
    deck = list(spec["deck"])
    if "cut" in spec:
        cut, picks = spec["cut"], spec.get("picks", [])
        if not isinstance(cut, int) or not 0 <= cut <= len(deck) or not isinstance(picks, list):
            raise EngineError("bad_scenario", "riffle needs a cut in 0..len(deck) and picks")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in picks):
            raise EngineError("bad_scenario", "picks are ints (even: the top half)")
        return {"riffle": riffle_with(deck, cut, picks)}
    passes = spec.get("passes", 3)
    seed = spec.get("seed", 0)
    if not isinstance(passes, int) or not 0 <= passes <= 20:
        raise EngineError("bad_scenario", "passes must be an int from 0 to 20")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise EngineError("bad_scenario", "seed must be an int or a string")
    state, cuts = seed_state(seed), []
    for _ in range(passes):
        state, deck, cut = riffle_once(state, deck)
        cuts.append(cut)
    return {"riffle": deck, "cuts": cuts}


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


def _batches(drawn: int, events: list[Event]) -> list[dict[str, Any]]:
    """The stock batches pushed in ``events``: how many cards had been drawn when each was
    pushed, and its first card number, size and the total delivered (no commitments)."""
    out = []
    for e in events:
        if e.type == "card_open":
            drawn += 1
        elif e.type == "stock_batch":
            data = e.data
            out.append(
                {
                    "drawn": drawn,
                    "first": data["first"],
                    "count": data["count"],
                    "delivered": data["delivered"],
                }
            )
    return out


def _deal(state: DiuState) -> dict[str, Any]:
    d_seat = state.roles["D"]
    return {
        "roles": dict(state.roles),
        "hand_counts": [None if s == d_seat else len(state.hands[s]) for s in range(4)],
        "stock": len(state.stock),
        "prompt": rules.prompt(state),
        "deadline": rules.round_status(state).check_at,
    }


class DiuScenarios(ScenarioFormat):
    """Diu's scenarios: fixed or seeded deals, actions ``{"seat", "action", ...}``, the prompt
    after each step, the optional ``riffle``, ``deal``, ``batches`` and ``next_roles`` reports.

    >>> DiuScenarios().special({"riffle": {"deck": [1, 2, 3, 4], "cut": 2, "picks": [0, 1]}})
    {'riffle': [1, 3, 2, 4]}
    """

    def special(self, sc: Mapping[str, Any]) -> JSONDict | None:
        """The riffle-only scenario (§5.1), which deals no hand."""
        return _riffle(sc["riffle"]) if "riffle" in sc else None

    def config(self, sc: Mapping[str, Any]) -> tuple[dict[str, Any], int | str]:
        """Roles, hands and stock (or a seeded deal) and the options; the report is checked.

        >>> DiuScenarios().config({"roles": {"A": 0}, "report": ["x"]})
        Traceback (most recent call last):
        ...
        games.engine.core.errors.EngineError: bad_scenario: report lists some of deal, ...
        """
        _report(sc)
        return _config(sc), scenario_seed(sc)

    def start(self, game: Any, sc: Mapping[str, Any], state: Any) -> JSONDict:
        """The deal report (when asked) and the batches pushed with the deal."""
        return {
            "report": _report(sc),
            "deal": _deal(state),
            "batches": _batches(0, game.initial_events(state)),
        }

    def action(self, raw: Mapping[str, Any]) -> Action:
        """The engine action of a scenario action (``bad_action`` for an unknown one)."""
        return _engine_action(raw)

    def auto(self, action: Mapping[str, Any]) -> JSONDict:
        """The timeout's action, with the card of an auto discard."""
        return _auto(action)

    def step(self, step: Step, run: JSONDict) -> JSONDict:
        """The prompt after the step (the batches its events pushed are kept for the report)."""
        run["batches"] += _batches(step.before.drawn, step.events)
        return {"prompt": rules.prompt(step.after)}

    def finish(self, game: Any, state: Any, results: list[JSONDict], run: JSONDict) -> JSONDict:
        """Outcome, winner, melds and scores, plus the reports asked for."""
        report = run["report"]
        extra: dict[str, Any] = {}
        if "deal" in report:
            extra["deal"] = run["deal"]
        res_final = rules.result(state)
        if "batches" in report:
            extra["batches"] = run["batches"]
        if "next_roles" in report:
            extra["next_roles"] = (
                next_roles(state.roles, state.winner, state.config["rotation"])
                if state.finished
                else None
            )
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
            **extra,
        }


#: The format ``GAME.scenario_format`` names.
FORMAT = DiuScenarios()
