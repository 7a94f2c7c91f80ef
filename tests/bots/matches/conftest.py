"""Fixtures of the duplicate-match tests: users' bots with ready versions."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from bots.models import Bot, BotVersion
from tests.bots.conftest import GOOD_BOT
from tests.factories import BotFactory, BotVersionFactory


def ready_versions(
    owner: User, name: str, n: int, *, open_: bool = False, **kw: Any
) -> list[BotVersion]:
    bot: Bot = BotFactory.create(owner=owner, name=name, arena_open=open_, **kw)
    return [
        BotVersionFactory.create(bot=bot, number=k, code=GOOD_BOT, status=BotVersion.Status.READY)
        for k in range(1, n + 1)
    ]


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """A report less its only timing field (``mean_move_ms``): the rest is deterministic."""
    return {
        **report,
        "entrants": [
            {k: v for k, v in e.items() if k != "mean_move_ms"} for e in report["entrants"]
        ],
    }


@pytest.fixture
def mine(user: User) -> list[BotVersion]:
    """Alice's bot "Mine" with ready v1, v2, v3."""
    return ready_versions(user, "Mine", 3)


@pytest.fixture
def theirs(other_user: User) -> list[BotVersion]:
    """Bob's open bot "Theirs" with ready v1, v2, v3."""
    return ready_versions(other_user, "Theirs", 3, open_=True)


@pytest.fixture
def private(other_user: User) -> list[BotVersion]:
    """Bob's closed bot "Secret" with a ready v1."""
    return ready_versions(other_user, "Secret", 1)
