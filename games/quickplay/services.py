"""Quick play: the pool, the pairing pass and people's per-game ratings (docs/quickplay.md).

Race-free: joining inserts one :class:`PoolEntry` (``user`` is unique: a second join is
``already_waiting``); the pairing pass runs under one PostgreSQL transaction-level advisory
lock, so two passes (the join's, beat's) never form tables from the same entries, and an entry
is deleted in the transaction that seats its person. Clocks are injected (``now``).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from games import clock, realtime, skill
from games.engine.registry import GAMES
from games.models import Seat, Table, game_seat_range
from games.quickplay.models import PoolEntry, QuickPlaySeat
from games.quickplay.ratings import rating_of
from games.services.tables import SeatSpec, table_create, table_start

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

__all__ = [
    "ACTIVE_STATUSES",
    "TASK_PAIR",
    "QuickPlayError",
    "pool_join",
    "pool_leave",
    "pool_pair",
    "pool_status",
    "rematch_seat_take",
]

#: Celery name of the pairing pass (beat, and once on each join's commit).
TASK_PAIR = "games.quickplay_pair"
#: The PostgreSQL advisory lock key of the pairing pass.
PAIR_LOCK_KEY = 0x51C9_0001
#: A quick-play table that is not over: its people may not join the pool again.
ACTIVE_STATUSES = (Table.Status.WAITING, Table.Status.READY, Table.Status.IN_PROGRESS)


class QuickPlayError(Exception):
    """A refused quick-play request: ``code`` is stable (docs/quickplay.md "Errors")."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code
        self.detail = detail or code


def countdown_seconds() -> float:
    return float(settings.QUICKPLAY_COUNTDOWN_SECONDS)


# --------------------------------------------------------------------------- the pool
def _active_table(user_id: int) -> Table | None:
    return (
        Table.objects.filter(
            seats__user_id=user_id,
            seats__kind=Seat.Kind.HUMAN,
            seats__auto=False,  # left during a game: the house plays the seat
            options__quickplay=True,
            status__in=ACTIVE_STATUSES,
        )
        .order_by("-pk")
        .first()
    )


def pool_join(
    *, user: User, game: str, seats: int, address: str = "", now: datetime | None = None
) -> PoolEntry:
    """Put ``user`` in the pool of ``game`` at ``seats`` seats. Errors (nothing changes):
    ``login_required``, ``unknown_game``, ``bad_seats`` (outside the game's seat range),
    ``already_waiting`` (in a pool already: leave it first), ``already_playing`` (seated at a
    quick-play table that is not over). The pairing pass runs once the join commits."""
    if user is None or not user.is_authenticated:
        raise QuickPlayError("login_required", _("Log in to play."))
    if game not in GAMES:
        raise QuickPlayError("unknown_game", _("There is no such game."))
    low, high = game_seat_range(game)
    if isinstance(seats, bool) or not isinstance(seats, int) or not low <= seats <= high:
        raise QuickPlayError(
            "bad_seats",
            _("This game is played by %(low)s to %(high)s players.") % {"low": low, "high": high},
        )
    if _active_table(user.pk) is not None:
        raise QuickPlayError("already_playing", _("You are already at a quick-play table."))
    mu, _sigma = rating_of(user.pk, game)
    try:
        with transaction.atomic():
            entry = PoolEntry.objects.create(
                user=user,
                game=game,
                seats=seats,
                mu=mu,
                address=(address or "")[:64],
                joined_at=now or clock.now_datetime(),
            )
    except IntegrityError as exc:
        raise QuickPlayError(
            "already_waiting", _("You are already waiting for a table: leave first.")
        ) from exc
    transaction.on_commit(lambda: realtime.schedule(TASK_PAIR, [], delay=0))
    return entry


def pool_leave(*, user: User) -> bool:
    """Take ``user`` out of the pool; whether they were in it (leaving twice is harmless)."""
    if user is None or not user.is_authenticated:
        raise QuickPlayError("login_required", _("Log in to play."))
    deleted, _rows = PoolEntry.objects.filter(user_id=user.pk).delete()
    return bool(deleted)


def pool_status(*, user: Any, now: datetime | None = None) -> dict[str, Any]:
    """What the waiting view shows: ``state`` ``idle`` | ``waiting`` (with the game, seats,
    seconds waited, seconds until house AIs fill the table, how many wait in that pool) |
    ``seated`` (the quick-play table's code and address)."""
    now = now or clock.now_datetime()
    counts = {f"{g}/{s}": n for g, s, n in _pool_counts()}
    out: dict[str, Any] = {"state": "idle", "pools": counts}
    if user is None or not user.is_authenticated:
        return out
    entry = PoolEntry.objects.filter(user_id=user.pk).first()
    if entry is not None:
        waited = max(0.0, (now - entry.joined_at).total_seconds())
        out.update(
            state="waiting",
            game=entry.game,
            seats=entry.seats,
            waited=round(waited, 1),
            fill_in=round(max(0.0, countdown_seconds() - waited), 1),
            waiting=counts.get(f"{entry.game}/{entry.seats}", 0),
        )
        return out
    table = _active_table(user.pk)
    if table is not None:
        out.update(state="seated", table=table.code, url=f"/t/{table.code}/")
    return out


def _pool_counts() -> Iterable[tuple[str, int, int]]:
    from django.db.models import Count

    return (
        PoolEntry.objects.values("game", "seats")
        .annotate(n=Count("pk"))
        .order_by()
        .values_list("game", "seats", "n")
    )


# --------------------------------------------------------------------------- pairing
def _blocked_pairs(user_ids: Sequence[int]) -> set[frozenset[int]]:
    """Pairs of these users who shared a quick-play table in at least ``QUICKPLAY_REPEAT_MAX``
    of either one's last ``QUICKPLAY_REPEAT_WINDOW`` quick-play tables."""
    window = int(settings.QUICKPLAY_REPEAT_WINDOW)
    limit = int(settings.QUICKPLAY_REPEAT_MAX)
    if not user_ids or window <= 0 or limit <= 0:
        return set()
    recent: dict[int, list[int]] = defaultdict(list)
    for user_id, table_id in QuickPlaySeat.objects.filter(user_id__in=user_ids).values_list(
        "user_id", "table_id"
    ):  # newest first (Meta.ordering)
        if len(recent[user_id]) < window:
            recent[user_id].append(table_id)
    tables = {t for ts in recent.values() for t in ts}
    at: dict[int, set[int]] = defaultdict(set)
    for table_id, user_id in QuickPlaySeat.objects.filter(
        table_id__in=tables, user_id__in=user_ids
    ).values_list("table_id", "user_id"):
        at[table_id].add(user_id)
    pairs = {
        frozenset((user_id, other))
        for user_id, ts in recent.items()
        for t in ts
        for other in at[t]
        if other != user_id
    }
    blocked: set[frozenset[int]] = set()
    for pair in pairs:
        a, b = tuple(pair)
        in_a = sum(1 for t in recent.get(a, ()) if b in at[t])  # in a's last tables
        in_b = sum(1 for t in recent.get(b, ()) if a in at[t])
        if max(in_a, in_b) >= limit:
            blocked.add(pair)
    return blocked


def _fits(candidate: PoolEntry, chosen: Sequence[PoolEntry], blocked: set[frozenset[int]]) -> bool:
    for other in chosen:
        if candidate.address and candidate.address == other.address:
            return False
        if frozenset((candidate.user_id, other.user_id)) in blocked:
            return False
    return True


def _gap(entry: PoolEntry, now: datetime) -> float:
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return float(settings.QUICKPLAY_GAP_START) + float(settings.QUICKPLAY_GAP_PER_SECOND) * waited


def plan_tables(
    entries: Sequence[PoolEntry], now: datetime, blocked: set[frozenset[int]]
) -> list[list[PoolEntry]]:
    """The groups to seat now from one pool (one game and seat count), oldest wait first: the
    oldest entry takes the nearest-rated others within the allowed gap of every one chosen (the
    wider of the two entries' gaps, which grow with waiting) that share no address with, and
    are not a blocked pair with, anyone chosen. A full group is seated at once; a short one once
    its oldest entry has waited the countdown (house AIs fill the rest)."""
    remaining = sorted(entries, key=lambda e: (e.joined_at, e.pk))
    groups: list[list[PoolEntry]] = []
    countdown = countdown_seconds()
    while remaining:
        head = remaining[0]
        size = head.seats
        chosen = [head]
        for c in sorted(remaining[1:], key=lambda e: (abs(e.mu - head.mu), e.joined_at, e.pk)):
            if len(chosen) >= size:
                break
            if any(abs(c.mu - m.mu) > max(_gap(m, now), _gap(c, now)) for m in chosen):
                continue  # near every one already chosen, not only the oldest
            if _fits(c, chosen, blocked):
                chosen.append(c)
        waited = (now - head.joined_at).total_seconds()
        if len(chosen) >= size or waited >= countdown:
            groups.append(chosen)
            ids = {e.pk for e in chosen}
            remaining = [e for e in remaining if e.pk not in ids]
        else:
            remaining = remaining[1:]
    return groups


def _form_table(group: Sequence[PoolEntry], now: datetime) -> Table:
    game = group[0].game
    size = group[0].seats
    engine = GAMES[game]
    mean_mu = sum(e.mu for e in group) / len(group)
    level = skill.nearest_level(mean_mu, tuple(engine.house_levels))
    owner = group[0].user
    table = table_create(
        owner=owner,
        name=_("Quick play"),
        game=game,
        visibility=Table.Visibility.PUBLIC,
        options={"seats": size, "rated": True, "quickplay": True},
        seats=[SeatSpec(Seat.Kind.HOUSE, house_level=level) for _ in range(size)],
        host_seated=False,
        check_bots=False,
        announce=False,
    )
    for index, entry in enumerate(group):
        Seat.objects.filter(table=table, index=index).update(
            kind=Seat.Kind.HUMAN, user_id=entry.user_id, house_level=None, name="", ready=True
        )
    QuickPlaySeat.objects.bulk_create(
        [
            QuickPlaySeat(
                table=table,
                user_id=e.user_id,
                address=e.address,
                waited_seconds=max(0.0, (now - e.joined_at).total_seconds()),
                created_at=now,
            )
            for e in group
        ]
    )
    PoolEntry.objects.filter(pk__in=[e.pk for e in group]).delete()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
    table_start(table_id=table.pk, user=owner)
    frames = [
        (
            realtime.quickplay_group(e.user_id),
            {"type": "quickplay_seated", "table": table.code, "url": f"/t/{table.code}/"},
        )
        for e in group
    ]
    transaction.on_commit(lambda: realtime.broadcast(frames))
    return table


def pool_pair(*, now: datetime | None = None) -> list[int]:
    """One pairing pass over every pool (beat, and each join): form the tables due now; the ids
    of the tables formed. Serialized by an advisory lock; a pass that finds the lock taken
    returns at once (the running one sees the same entries)."""
    now = now or clock.now_datetime()
    if not PoolEntry.objects.exists():
        return []
    formed: list[int] = []
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [PAIR_LOCK_KEY])
            (locked,) = cursor.fetchone()
        if not locked:
            return []
        entries = list(PoolEntry.objects.select_related("user").order_by("joined_at", "pk"))
        blocked = _blocked_pairs(sorted({e.user_id for e in entries}))
        pools: dict[tuple[str, int], list[PoolEntry]] = defaultdict(list)
        for e in entries:
            pools[(e.game, e.seats)].append(e)
        for key in sorted(pools):
            for group in plan_tables(pools[key], now, blocked):
                formed.append(_form_table(group, now).pk)
    if formed:
        logger.info("quick-play tables formed", extra={"tables": formed})
    return formed


# --------------------------------------------------------------------------- rematch seats
def _seat_fits(
    entry: PoolEntry,
    staying: Sequence[tuple[int, float, str]],
    now: datetime,
    blocked: set[frozenset[int]],
) -> bool:
    gap = _gap(entry, now)
    for user_id, mu, address in staying:
        if abs(entry.mu - mu) > gap:
            return False
        if entry.address and entry.address == address:
            return False
        if frozenset((entry.user_id, user_id)) in blocked:
            return False
    return True


def rematch_seat_take(
    *,
    table: Table,
    seat: Seat,
    seats: Sequence[Seat],
    leaving: Iterable[int] = (),
    now: datetime | None = None,
) -> bool:
    """The quick-play pool takes a seat a person declined in a rematch (the
    ``games.extensions`` rematch-seat taker; the table row is locked by the caller): at a
    quick-play table, the longest-waiting person of the same pool (game and seat count) who
    fits everyone staying (within their allowed gap of each one's rating, the fair-seating
    rules) sits there, ready, and hears ``quickplay_seated``. False (a house AI sits) at any
    other table, when nobody fits, or while a pairing pass holds the pool."""
    if not (table.options or {}).get("quickplay"):
        return False
    now = now or clock.now_datetime()
    gone = {seat.index, *leaving}
    people = [
        (s.user_id, s.index)
        for s in seats
        if s.kind == Seat.Kind.HUMAN and s.user_id is not None and s.index not in gone
    ]
    with connection.cursor() as cursor:  # the pairing pass's lock, for this transaction
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [PAIR_LOCK_KEY])
        (locked,) = cursor.fetchone()
    if not locked:
        return False
    entries = list(
        PoolEntry.objects.select_related("user")
        .filter(game=table.game, seats=len(seats))
        .order_by("joined_at", "pk")
    )
    if not entries:
        return False
    addresses = dict(QuickPlaySeat.objects.filter(table=table).values_list("user_id", "address"))
    staying = [
        (user_id, rating_of(user_id, table.game)[0], addresses.get(user_id, ""))
        for user_id, _index in people
    ]
    blocked = _blocked_pairs(sorted({e.user_id for e in entries} | {u for u, _m, _a in staying}))
    entry = next((e for e in entries if _seat_fits(e, staying, now, blocked)), None)
    if entry is None:
        return False
    seat.kind = Seat.Kind.HUMAN
    seat.user = entry.user
    seat.house_level = None
    seat.bot_version = None
    seat.name = ""
    seat.ready = True
    seat.connections = 0
    seat.away_since = None
    seat.save()
    QuickPlaySeat.objects.update_or_create(
        table=table,
        user_id=entry.user_id,
        defaults={
            "address": entry.address,
            "waited_seconds": max(0.0, (now - entry.joined_at).total_seconds()),
            "created_at": now,
        },
    )
    entry.delete()
    frame = {"type": "quickplay_seated", "table": table.code, "url": f"/t/{table.code}/"}
    group = realtime.quickplay_group(entry.user_id)
    transaction.on_commit(lambda: realtime.broadcast([(group, frame)]))
    return True
