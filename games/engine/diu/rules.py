"""Suijiang Diu (绥江丢): table options, the deal, claims, the polling state machine, 丢, scoring.

Rules: docs/rules/diu.md (the shared rulings ``rules/diu.md`` as implemented). Every function
is pure: ``apply`` returns a new state and never changes the one it is given.

This module is the rules' one entry point; the code lives by concern in
:mod:`~games.engine.diu.config` (table options), :mod:`~games.engine.diu.scoring` (complete
hands, the outcome), :mod:`~games.engine.diu.claims` (claims, 丢, the prompt),
:mod:`~games.engine.diu.queries` (legal actions, deadlines, timeouts),
:mod:`~games.engine.diu.validation` (action checks) and :mod:`~games.engine.diu.flow` (the
deal, applying actions, the polling state machine, replays).

Actions are dicts with a ``seat`` and a ``type``: ``discard`` (``card``), ``pass``, ``claim``
(``claim``: one of :data:`CLAIM_TYPES`, ``cards``: the hand cards used), ``diu`` (``cards``: two
hand cards), ``accept``, ``decline``; optional ``auto`` and ``at`` (unix time).

>>> cfg = {"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
...        "hands": {"A": ["66", "13"], "B": ["11", "22"], "C": ["55", "W"]}, "stock": ["44"]}
>>> s = new_game(cfg, seed=0)
>>> prompt(s)
{'seat': 0, 'kind': 'discard', 'options': ['13', '66']}
>>> s, _ = apply(s, {"type": "discard", "seat": 0, "card": "66"})
>>> prompt(s)
{'seat': 1, 'kind': 'call', 'options': ['pass', 'chi']}
"""

from __future__ import annotations

from games.engine.diu.claims import (
    can_diu,
    claim_choices,
    diu_choices,
    next_active,
    prompt,
)
from games.engine.diu.config import (
    ACTION_TYPES,
    CLAIM_TYPES,
    DEFAULT_CONFIG,
    RANK,
    ROLES,
    SHAPE_PRESETS,
    TABLE_CHOICES,
    validate_config,
)
from games.engine.diu.flow import apply, batch_event, log_actions, new_game, replay
from games.engine.diu.queries import auto_discard, legal_actions, round_status, timeout_action
from games.engine.diu.scoring import is_complete, result
from games.engine.diu.validation import check, parse_action

__all__ = [
    "ACTION_TYPES",
    "CLAIM_TYPES",
    "DEFAULT_CONFIG",
    "RANK",
    "ROLES",
    "SHAPE_PRESETS",
    "TABLE_CHOICES",
    "apply",
    "auto_discard",
    "batch_event",
    "can_diu",
    "check",
    "claim_choices",
    "diu_choices",
    "is_complete",
    "legal_actions",
    "log_actions",
    "new_game",
    "next_active",
    "parse_action",
    "prompt",
    "replay",
    "result",
    "round_status",
    "timeout_action",
    "validate_config",
]
