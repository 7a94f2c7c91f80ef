"""What a table and a tournament both need and neither owns: table codes and the occupant of
a seat or an entry. ``games.models`` and ``games.tournaments.models`` import this module and
not each other (a tournament's round table names its table as ``"games.Table"``)."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q

TABLE_CODE_BYTES = 6  # 8 url-safe characters


def new_table_code() -> str:
    """A short, unguessable, url-safe code for ``/t/<code>/``."""
    return secrets.token_urlsafe(TABLE_CODE_BYTES)


class Occupant(models.Model):
    """What a table's :class:`Seat` and a tournament's ``Entry`` (games/tournaments/models.py)
    share: who occupies them — a person, a user's bot version, or a house AI at a level — and
    the rule that the ``kind`` matches the occupant fields, which each model's check constraint
    states with :meth:`occupant_condition` (Django checks it in ``full_clean`` too).

    The fields themselves stay declared in each model: they differ where it matters (a seat's
    ``user`` is nullable and SET_NULL, an entry's is required and CASCADE; each has its own
    related names, kind choices and labels), so one declaration would change a table.
    """

    #: What each kind needs of the occupant fields, besides ``kind`` itself.
    OCCUPANT_RULES: dict[str, dict[str, bool]] = {
        "empty": {"user__isnull": True, "bot_version__isnull": True, "house_level__isnull": True},
        "human": {"bot_version__isnull": True, "house_level__isnull": True},
        "bot": {"bot_version__isnull": False, "house_level__isnull": True},
        "house": {"bot_version__isnull": True, "house_level__isnull": False},
    }

    class Meta:
        abstract = True

    @classmethod
    def occupant_condition(cls, *kinds: str) -> Q:
        """The check-constraint condition: the row is one of ``kinds`` (in this order) with
        the occupant fields that kind needs.

        >>> Occupant.occupant_condition("bot")
        <Q: (AND: ('bot_version__isnull', False), ('house_level__isnull', True), ('kind', 'bot'))>
        """
        condition = Q()
        for kind in kinds:
            condition |= Q(kind=kind, **cls.OCCUPANT_RULES[kind])
        return condition
