"""Stud's and Diu's history lines (``event_line``, pure engine): every event a replay shows,
public or a seat's own, has a line of its game's templates whose placeholders its params fill;
the lines are for display only (``export_event_lines`` False)."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

from games.engine.diu import GAME as DIU
from games.engine.diu import lines as diu_lines
from games.engine.stud import GAME as STUD
from games.engine.stud import lines as stud_lines

#: Events that have no line by design (bookkeeping, or a seat's whole hand).
QUIET = {"turn", "hand", "dealt", "down_card"}
TEMPLATES: dict[str, set[Any]] = {
    "stud": {*stud_lines.EVENT_MESSAGES.values(), *stud_lines.HAND_CLASSES.values()},
    "diu": set(diu_lines.EVENT_MESSAGES.values()),
}


def _events(engine: Any, seed: int) -> list[dict[str, Any]]:
    """Every event (public and private) of a random game of ``engine``, as JSON."""
    rng = random.Random(seed)
    config = engine.validate_config({"players": rng.randint(2, 7)} if engine is STUD else {})
    state = engine.new_game(config, seed)
    events = [e.to_json() for e in engine.initial_events(state)]
    while engine.result(state) is None:
        seat = engine.round_status(state).pending[0]
        if rng.random() < 0.1:
            action = engine.timeout_action(state, seat)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        state, new = engine.apply(state, action)
        events += [e.to_json() for e in new]
    return events


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize(("engine", "games"), [(STUD, 60), (DIU, 4)], ids=["stud", "diu"])
def test_every_shown_event_has_its_own_line(engine: Any, games: int) -> None:
    names = [f"P{s}" for s in range(7)]
    used: set[Any] = set()
    for seed in range(games):
        for event in _events(engine, seed):
            if event["type"] in QUIET:
                continue
            line = engine.event_line(event, names)
            assert line is not None, event
            template, params = line
            assert template in TEMPLATES[engine.name], template
            used.add(template)
            for form in template if isinstance(template, tuple) else (template,):
                assert _fields(form) <= set(params), (form, params)
                assert "?" not in form.format_map(params), (form, params)
    assert engine.export_event_lines is False
    assert len(used) >= {"stud": 12, "diu": 12}[engine.name], used


def test_unknown_events_fall_back_to_the_generic_line() -> None:
    for engine in (STUD, DIU):
        assert engine.event_line({"type": "mystery", "seat": 0}, ["Lan"]) is None
    bad_street = {"type": "street_ended", "street": 9, "pots": []}
    assert STUD.event_line(bad_street, ["Lan"]) is None
    assert STUD.event_line({"type": "action", "seat": 0, "action": "dance"}, ["Lan"]) is None
