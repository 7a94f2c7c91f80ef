"""Seven-card stud, fixed limit: the deal, antes, bring-in, betting streets, pots, showdown.

Every function is pure: ``apply`` returns a new state and never changes the one it is given.
Rulings: ``docs/rules/stud.md`` (seed 001 Task 4.3 with the shared rulings).

This module is the rules' one entry point; the code lives by concern in
:mod:`~games.engine.stud.config` (table options), :mod:`~games.engine.stud.betting` (legal
actions, the ``your_turn`` payload, deadlines, timeouts, action checks),
:mod:`~games.engine.stud.showdown` (pots, the showdown, the outcome) and
:mod:`~games.engine.stud.flow` (the deal, applying actions, streets, replays).

>>> s = new_game({"players": 3, "stacks": [100, 100, 100]}, seed=3)
>>> s.street, s.turn == s.bring_in_seat, legal_names(s, s.turn)
(3, True, ['bring_in', 'complete'])
>>> s2, events = apply(s, {"type": "bring_in", "seat": s.turn})
>>> s2.current_bet, s.current_bet
(2, 0)
"""

from __future__ import annotations

from games.engine.stud.betting import (
    ACTIONS,
    CAP,
    UP_POSITIONS,
    check,
    legal_actions,
    legal_names,
    open_pair,
    parse_action,
    round_status,
    timeout_action,
    up_cards,
    your_turn,
)
from games.engine.stud.config import DEFAULT_CONFIG, validate_config
from games.engine.stud.flow import apply, log_actions, new_game, replay
from games.engine.stud.flow import turn_event as turn_event
from games.engine.stud.showdown import compute_pots, result
from games.engine.stud.showdown import side_pots as side_pots

__all__ = [
    "ACTIONS",
    "CAP",
    "DEFAULT_CONFIG",
    "UP_POSITIONS",
    "apply",
    "check",
    "compute_pots",
    "legal_actions",
    "legal_names",
    "log_actions",
    "new_game",
    "open_pair",
    "parse_action",
    "replay",
    "result",
    "round_status",
    "timeout_action",
    "up_cards",
    "validate_config",
    "your_turn",
]
