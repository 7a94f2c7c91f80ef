"""Invite links to private tables (docs/protocol.md, "Invite links"): the host makes one, whoever
opens it signed in takes an empty seat, the host revokes it and may make a new one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from games.models import Table, TableInvite
from games.services.seats import seat_join
from games.services.sql import lock_table
from games.services.tables import table_create
from games.services.unit import TableError, require_host

if TYPE_CHECKING:
    from accounts.models import User

#: Seats of the table "Invite" on the profile makes: you and the person you invite.
INVITE_TABLE_SEATS = 2


def _live(table_id: int) -> TableInvite | None:
    return TableInvite.objects.filter(table_id=table_id, revoked_at__isnull=True).first()


@transaction.atomic
def invite_create(*, table_id: int, user: User | None) -> TableInvite:
    """The table's live invite link, made now if it has none. Only the host
    (``login_required``, ``not_host``), only a private table (``not_private``) that is not
    over (``bad_state``)."""
    ctx = lock_table(table_id, with_game=False)
    require_host(ctx, user)
    if ctx.table.visibility != Table.Visibility.PRIVATE:
        raise TableError("not_private", "a public table needs no invite link")
    if ctx.table.status == Table.Status.COMPLETED:
        raise TableError("bad_state", "the session is over")
    live = _live(table_id)
    if live is not None:
        return live
    assert user is not None  # require_host
    return TableInvite.objects.create(table_id=table_id, created_by=user)


@transaction.atomic
def invite_revoke(*, table_id: int, user: User | None) -> bool:
    """Revoke the table's live invite link (host only); returns whether there was one. Its
    token then opens the "this invite link was revoked" page."""
    ctx = lock_table(table_id, with_game=False)
    require_host(ctx, user)
    count = TableInvite.objects.filter(table_id=table_id, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    return count > 0


def invite_accept(*, token: str, user: User | None) -> Table:
    """Seat ``user`` at the table of the invite link ``token``; returns the table.

    Someone already at the table is not seated again (opening a link twice, or the host
    opening their own link, is harmless). Errors: ``invite_unknown`` (no such link),
    ``invite_revoked``, ``login_required``, ``table_started`` (a game is being played or the
    session is over) and ``no_seat`` (the table is full)."""
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in to take a seat")
    invite = TableInvite.objects.select_related("table").filter(token=token).first()
    if invite is None:
        raise TableError("invite_unknown", "no invite link has that token")
    if invite.revoked_at is not None:
        raise TableError("invite_revoked", "this invite link was revoked")
    table = invite.table
    if table.seats.filter(user=user).exists():
        return table
    try:
        seat_join(table_id=table.pk, user=user)
    except TableError as exc:
        if exc.code == "already_seated":  # a second click that raced the first
            return table
        if exc.code == "bad_state":
            raise TableError("table_started", "the game has started") from exc
        raise
    return table


@transaction.atomic
def invite_table_create(*, owner: User, name: str) -> tuple[Table, TableInvite]:
    """A private two-seat table of the default game hosted by ``owner``, with its invite link
    (the profile's "Invite" next to a recent opponent)."""
    table = table_create(
        owner=owner,
        name=name,
        visibility=Table.Visibility.PRIVATE,
        options={"seats": INVITE_TABLE_SEATS},
    )
    return table, invite_create(table_id=table.pk, user=owner)
