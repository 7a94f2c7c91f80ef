"""Fixtures for the bot sandbox tests (pure Python: no database, no Django)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bots.sandbox import SandboxLimits

# Short budgets keep the hostile suite fast; the parent's grace stays generous so that a
# loaded CI machine does not turn a V8-enforced timeout into a parent-side kill.
FAST = SandboxLimits(move_timeout_s=0.5, load_timeout_s=0.5, grace_s=2.0)


@pytest.fixture
def fast_limits() -> SandboxLimits:
    return FAST


def card(rank: str, suit: str, value: int) -> dict[str, Any]:
    return {"rank": rank, "suit": suit, "value": value}


@pytest.fixture
def game_state() -> dict[str, Any]:
    hand = [card(r, "S", i * 4) for i, r in enumerate(["3", "5", "7", "9", "J", "K", "2"])]
    return {
        "myPosition": 1,
        "myCards": hand,
        "playerCardCounts": [13, 7, 10, 12],
        "lastPlay": {"position": 0, "type": "single", "cards": [card("4", "H", 7)]},
        "validMoves": [{"type": "single", "cards": [c]} for c in hand[1:]]
        + [{"type": "pass", "cards": []}],
    }


def child_pids() -> set[int]:
    """PIDs of all children of this process, zombies included, from /proc."""
    me = os.getpid()
    pids: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ..." - comm may contain spaces and parentheses.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == me:
            pids.add(int(entry.name))
    return pids
