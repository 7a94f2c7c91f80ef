"""``{% tournament_player user %}``: whether ``user`` is a person entered in a tournament that has
not finished (base.html then loads the site-wide "your table is ready" script)."""

from __future__ import annotations

from typing import Any

from django import template

from games.tournaments.models import Entry, Tournament

register = template.Library()


@register.simple_tag
def tournament_player(user: Any) -> bool:
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return Entry.objects.filter(
        user=user,
        kind=Entry.Kind.HUMAN,
        tournament__status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING],
    ).exists()
