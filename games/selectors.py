"""Read-side queries of the games app. Views, API and other apps read tables and games here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet

from games.models import Game, Seat, Table

if TYPE_CHECKING:
    from accounts.models import User

OPEN_STATUSES = (Table.Status.WAITING, Table.Status.READY, Table.Status.IN_PROGRESS)


def table_list_public(*, limit: int | None = None) -> QuerySet[Table]:
    """Public tables that are not finished, newest first, with their filled-seat count."""
    qs = (
        Table.objects.filter(visibility=Table.Visibility.PUBLIC, status__in=OPEN_STATUSES)
        .select_related("owner")
        .annotate(filled_seats=Count("seats", filter=~Q(seats__kind=Seat.Kind.EMPTY)))
        .order_by("-created_at")
    )
    return qs[:limit] if limit is not None else qs


def table_list_for_user(*, user: User, limit: int | None = None) -> QuerySet[Table]:
    """Tables the user hosts or sits at, newest first."""
    qs = (
        Table.objects.filter(Q(owner=user) | Q(seats__user=user))
        .distinct()
        .select_related("owner")
        .order_by("-created_at")
    )
    return qs[:limit] if limit is not None else qs


def game_list_recent(*, limit: int = 10) -> QuerySet[Game]:
    """Finished games of public tables, most recently ended first."""
    return (
        Game.objects.filter(status=Game.Status.FINISHED, table__visibility=Table.Visibility.PUBLIC)
        .select_related("table")
        .order_by("-ended_at")[:limit]
    )


def game_list_for_user(*, user: User, limit: int | None = None) -> QuerySet[Game]:
    """Games played at tables the user hosted or sat at, newest first."""
    qs = (
        Game.objects.filter(Q(table__owner=user) | Q(table__seats__user=user))
        .distinct()
        .select_related("table")
        .order_by("-started_at")
    )
    return qs[:limit] if limit is not None else qs
