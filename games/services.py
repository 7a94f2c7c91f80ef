"""Write-side operations of the games app. Services own their transactions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction

from games.models import Seat, Table, default_table_options, validate_table_options

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def table_create(
    *,
    owner: User,
    name: str,
    game: str = "tienlen",
    visibility: str = Table.Visibility.PUBLIC,
    options: dict[str, Any] | None = None,
) -> Table:
    """Create a table with its empty seats; the owner takes seat 0."""
    merged = {**default_table_options(), **(options or {})}
    validate_table_options(merged)
    table = Table(owner=owner, name=name, game=game, visibility=visibility, options=merged)
    table.full_clean()
    table.save()
    Seat.objects.bulk_create(
        Seat(
            table=table,
            index=index,
            kind=Seat.Kind.HUMAN if index == 0 else Seat.Kind.EMPTY,
            user=owner if index == 0 else None,
        )
        for index in range(table.seat_count)
    )
    return table
