"""One program per game: no program may hold two seats of one game (issue 24).

A program that holds two seats sees both hands and can play them together (an external bot's
program gets every seat's ``turn`` on its own connection). Every place that seats bots asks
:func:`same_program_twice` (Create Table, a table's ``add_bot``, Bot Arena, tournament entries,
Bot Lab matches) and refuses with the stable code :data:`SAME_PROGRAM_TWICE`.

**The same program** (:func:`program_key`): two versions of one bot (any versions: a bot's
versions are one author's one program), or two external bots of one owner (their programs
connect with their owner's tokens: the server cannot tell one program from two). Different
JavaScript bots of one owner are different programs: each runs in its own sandbox and cannot
talk to another.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.models import Seat

__all__ = ["SAME_PROGRAM_TWICE", "program_key", "program_keys", "same_program_twice"]

#: The stable error code of a refused seating (docs/bot-lab.md "One program per game").
SAME_PROGRAM_TWICE = "same_program_twice"

_EXTERNAL = "external"


def program_key(*, bot_id: int, owner_id: int, kind: str) -> str:
    """Which program plays a bot: ``bot:<id>``, or ``external:<owner id>`` for an external bot.

    >>> program_key(bot_id=4, owner_id=9, kind="js")
    'bot:4'
    >>> program_key(bot_id=4, owner_id=9, kind="external")
    'external:9'
    """
    return f"{_EXTERNAL}:{owner_id}" if kind == _EXTERNAL else f"bot:{bot_id}"


def _version_model() -> Any:
    # The FK's target model, read only (games does not import bots' internals).
    return Seat._meta.get_field("bot_version").related_model


def program_keys(version_ids: Iterable[int]) -> list[str]:
    """The program of each bot version of ``version_ids`` (in order; unknown ids left out)."""
    ids = [int(v) for v in version_ids]
    rows = {
        pk: program_key(bot_id=bot, owner_id=owner, kind=kind)
        for pk, bot, owner, kind in _version_model()
        .objects.filter(pk__in=ids)
        .values_list("pk", "bot_id", "bot__owner_id", "bot__kind")
    }
    return [rows[v] for v in ids if v in rows]


def same_program_twice(version_ids: Iterable[int], *, external_only: bool = False) -> bool:
    """Whether two of ``version_ids`` (one per seat of a game) are played by the same program.
    With ``external_only`` (Bot Lab matches, which exist to play a bot's versions against each
    other, each in its own sandbox, unrated) only an external program counts."""
    keys = program_keys(version_ids)
    if external_only:
        keys = [k for k in keys if k.startswith(f"{_EXTERNAL}:")]
    return len(keys) != len(set(keys))
