"""Read-side queries of the bots app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Max, QuerySet

from bots.models import Bot

if TYPE_CHECKING:
    from accounts.models import User


def bot_list(*, owner: User) -> QuerySet[Bot]:
    """The user's bots, most recently changed first, with their latest version number."""
    return (
        Bot.objects.filter(owner=owner)
        .annotate(latest_version=Max("versions__number"))
        .order_by("-updated_at")
    )
