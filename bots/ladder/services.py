"""The bot ladder on the site: entrants, the scheduler's tick, sets played at real tables,
their recording, the refit and suspension (docs/bot-ladder.md).

A ladder is ``(game, seats)`` from ``settings.LADDER_GAMES``. Beat's tick
(:func:`ladder_tick`, the ``ladder`` queue, ``worker-ladder`` at nice 15) enters every bot's
promoted version and the game's house AIs (fixed anchors), records sets whose tables are done,
and while fewer than ``LADDER_SETS_IN_FLIGHT`` sets run, starts the next one: the field
:func:`bots.ladder.core.choose_set` picks, one deal (a fresh seed) played in every rotation at
once, one table per rotation (mode ``ladder``, one game each; their server turns run on
``bots.ladder``, the same worker). A ladder deal is secret until all its tables are done
(:func:`ladder_deal`, a :mod:`games.deals` source).
"""

from __future__ import annotations

import logging
import random
import zlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from bots.anchors import anchor_skill
from bots.external import presence
from bots.ladder import core
from bots.models import (
    Bot,
    BotVersion,
    LadderEntrant,
    LadderSet,
    LadderTable,
    external_games_limit,
)
from bots.seating import SeatRefused, external_games, external_seats_check, others_share
from games import clock, deals, seeds
from games.engine.registry import GAMES
from games.models import Game, Mode, Seat, Table, game_seat_range
from games.realtime import schedule
from games.services import SeatSpec, table_create, table_start

__all__ = [
    "CLOSE_TASK",
    "LADDER_QUEUE",
    "LADDER_USERNAME",
    "POLICY",
    "Ladder",
    "ladder_close_set",
    "ladder_deal",
    "ladder_entries",
    "ladder_game_finished",
    "ladder_refit",
    "ladder_seed",
    "ladder_sync",
    "ladder_tick",
    "ladders",
    "start_set",
]

logger = logging.getLogger(__name__)

#: The queue of the ladder's own tasks (``worker-ladder``).
LADDER_QUEUE = "ladder"
#: Celery name of the task recording a set (``bots.tasks``).
CLOSE_TASK = "bots.tasks.ladder_close_set_task"
#: The account that owns ladder tables (made on first use, cannot sign in). The space keeps
#: anyone from signing up under it (usernames are letters, digits and @.+-_ only).
LADDER_USERNAME = "tienlen ladder"
#: The scheduler's and the states' numbers (docs/bot-ladder.md).
POLICY = core.Policy()


@dataclass(frozen=True)
class Ladder:
    game: str
    seats: int

    @property
    def slug(self) -> str:
        return f"{self.game}-{self.seats}"


def ladders() -> list[Ladder]:
    """The ladders that run: ``settings.LADDER_GAMES`` (``"<game>:<seats>"``), those naming a
    known game and a seat count it allows."""
    found: list[Ladder] = []
    for raw in settings.LADDER_GAMES:
        game, _, seats = str(raw).partition(":")
        if game not in GAMES or not seats.isdigit():
            continue
        low, high = game_seat_range(game)
        if low <= int(seats) <= high and Ladder(game, int(seats)) not in found:
            found.append(Ladder(game, int(seats)))
    return found


def find_ladder(game: str, seats: int) -> Ladder | None:
    wanted = Ladder(game, seats)
    return wanted if wanted in ladders() else None


def ladder_user() -> Any:
    user, made = get_user_model().objects.get_or_create(
        username=LADDER_USERNAME, defaults={"display_name": "Ladder", "is_active": False}
    )
    if made:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


# --------------------------------------------------------------------------- entrants
def ladder_sync(ladder: Ladder) -> int:
    """Enter the game's anchored house AIs and every bot's promoted (ready) version; a bot's
    earlier version leaves (``retired``) when a new one is promoted. Returns entrants added."""
    added = 0
    engine = GAMES[ladder.game]
    for level in engine.house_levels:
        skill = anchor_skill(level)
        if skill is None:
            continue
        _, made = LadderEntrant.objects.get_or_create(
            game=ladder.game,
            seats=ladder.seats,
            house_level=level,
            defaults={"mu": skill[0], "sigma": skill[1], "state": LadderEntrant.State.SETTLED},
        )
        added += int(made)
    promoted = Bot.objects.filter(
        game=ladder.game, promoted_version__status=BotVersion.Status.READY
    ).values_list("pk", "promoted_version_id")
    for bot_id, version_id in promoted:
        _, made = LadderEntrant.objects.get_or_create(
            game=ladder.game, seats=ladder.seats, version_id=version_id, defaults={"bot_id": bot_id}
        )
        added += int(made)
        LadderEntrant.objects.filter(game=ladder.game, seats=ladder.seats, bot_id=bot_id).exclude(
            version_id=version_id
        ).exclude(state=LadderEntrant.State.RETIRED).update(state=LadderEntrant.State.RETIRED)
    return added


def _active(ladder: Ladder) -> Any:
    return LadderEntrant.objects.filter(game=ladder.game, seats=ladder.seats).exclude(
        state__in=(LadderEntrant.State.RETIRED, LadderEntrant.State.SUSPENDED)
    )


def _busy_entrants(ladder: Ladder) -> set[int]:
    busy: set[int] = set()
    for field in LadderSet.objects.filter(
        game=ladder.game, seats=ladder.seats, status=LadderSet.Status.RUNNING
    ).values_list("field", flat=True):
        busy.update(int(e) for e in field)
    return busy


def _external_ok(entrant: LadderEntrant, seats: int, online: set[int]) -> bool:
    """An external bot plays a set (``seats`` games at once) only while connected and when
    those games fit the share other users may seat (bots/seating.py)."""
    bot = entrant.bot
    if bot is None or not bot.is_external:
        return True
    if bot.pk not in online:
        return False
    games, by_others = external_games(bot=bot)
    return by_others + seats <= others_share() and games + seats <= external_games_limit()


def ladder_entries(ladder: Ladder, now: datetime | None = None) -> list[core.Entry]:
    """The active entrants as the scheduler sees them."""
    now = now or clock.now_datetime()
    rows = list(_active(ladder).select_related("bot"))
    busy = _busy_entrants(ladder)
    externals = [r.bot_id for r in rows if r.bot is not None and r.bot.is_external]
    online = presence.bots_online([b for b in externals if b is not None]) if externals else set()
    return [
        core.Entry(
            key=r.pk,
            mu=r.mu,
            sigma=r.sigma,
            games=r.games,
            idle=(now - (r.last_played_at or r.created_at)).total_seconds(),
            anchor=r.anchor,
            available=r.pk not in busy and _external_ok(r, ladder.seats, online),
        )
        for r in rows
    ]


# --------------------------------------------------------------------------- sets
def _seat_spec(entrant: LadderEntrant) -> SeatSpec:
    if entrant.anchor:
        return SeatSpec(Seat.Kind.HOUSE, house_level=entrant.house_level)
    return SeatSpec(Seat.Kind.BOT, bot_version_id=entrant.version_id)


@transaction.atomic
def start_set(ladder: Ladder, field: Sequence[int], *, seed: int | None = None) -> LadderSet:
    """Open a duplicate set of ``field`` (entrant ids, the focus first): one table per rotation,
    all dealt ``seed`` (default a fresh one) and started at once. External bots are checked
    against their limits (:class:`bots.seating.SeatRefused` aborts the whole set)."""
    entrants = {e.pk: e for e in LadderEntrant.objects.filter(pk__in=list(field))}
    ordered = [entrants[int(e)] for e in field]
    owner = ladder_user()
    the_set = LadderSet.objects.create(
        game=ladder.game,
        seats=ladder.seats,
        seed=seed if seed is not None else seeds.new_seed(),
        field=[e.pk for e in ordered],
    )
    versions = [e.version_id for e in ordered if e.version_id is not None]
    tables = []
    for rotation, order in enumerate(core.rotations(ladder.seats)):
        external_seats_check(user=owner, version_ids=versions)
        table = table_create(
            owner=owner,
            name=f"Ladder · set {the_set.pk} · {rotation + 1}/{ladder.seats}",
            game=ladder.game,
            visibility=Table.Visibility.PUBLIC,
            options={
                "seats": ladder.seats,
                "mode": Mode.LADDER.value,
                "turn_seconds": settings.LADDER_TURN_SECONDS,
                "round_games": 1,
            },
            seats=[_seat_spec(ordered[index]) for index in order],
            host_seated=False,
            check_bots=False,  # the ladder seats promoted versions; external ones checked above
            announce=False,
        )
        LadderTable.objects.create(ladder_set=the_set, table=table, rotation=rotation)
        Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
        tables.append(table.pk)
    for table_id in tables:
        table_start(table_id=table_id, user=owner)
    return the_set


def _seat_faults(table_id: int) -> dict[int, bool]:
    return {
        index: bool(strikes) or disqualified
        for index, strikes, disqualified in Seat.objects.filter(table_id=table_id).values_list(
            "index", "strikes", "disqualified"
        )
    }


@transaction.atomic
def ladder_close_set(*, set_id: int) -> str:
    """Record set ``set_id`` once every table of it is done (idempotent): each entrant's total
    over the rotations, the per-set rating update, games and faulty games, suspension, states.
    A set with a game that did not finish (aborted) is ``void``: nothing is counted. Returns the
    set's status."""
    where = LadderSet.objects.filter(pk=set_id).values_list("game", "seats").first()
    if where is None:
        return "missing"
    _ladder_lock(Ladder(*where))  # the tick's and the refit's lock first, then the set's row
    the_set = LadderSet.objects.select_for_update().filter(pk=set_id).first()
    if the_set is None:
        return "missing"
    if the_set.status != LadderSet.Status.RUNNING:
        return str(the_set.status)
    links = list(the_set.tables.select_related("table").order_by("rotation"))
    if len(links) < the_set.seats or any(
        link.table.status != Table.Status.COMPLETED for link in links
    ):
        return str(the_set.status)
    now = clock.now_datetime()
    n = the_set.seats
    scores: list[list[float]] = []
    faults = [0] * n
    for link in links:
        game = Game.objects.filter(table_id=link.table_id, number=1).first()
        game_scores = list(game.scores or []) if game is not None else []
        if game is None or game.status != Game.Status.FINISHED or len(game_scores) != n:
            the_set.status = LadderSet.Status.VOID
            the_set.finished_at = now
            the_set.save(update_fields=["status", "finished_at"])
            return str(the_set.status)
        scores.append([float(s) for s in game_scores])
        seat_faults = _seat_faults(link.table_id)
        for index in range(n):
            if seat_faults.get(core.seat_of(index, link.rotation, n)):
                faults[index] += 1
    totals = core.set_outcome(scores, n)
    field = [int(e) for e in the_set.field]
    rows = {
        r.pk: r
        for r in LadderEntrant.objects.select_for_update().filter(pk__in=field).order_by("pk")
    }
    if len(rows) != len(set(field)):  # an entrant's bot was deleted meanwhile: nothing counts
        the_set.status = LadderSet.Status.VOID
        the_set.finished_at = now
        the_set.save(update_fields=["status", "finished_at"])
        return str(the_set.status)
    entrants = [rows[e] for e in field]
    after = core.rate_set([(e.mu, e.sigma) for e in entrants], totals, [e.anchor for e in entrants])
    for entrant, skill, faulty in zip(entrants, after, faults, strict=True):
        if entrant.anchor:  # its skill is fixed; its games are counted
            entrant.games += n
            entrant.last_played_at = now
            entrant.save(update_fields=["games", "last_played_at"])
            continue
        entrant.mu, entrant.sigma = skill
        entrant.games += n
        entrant.faults += faulty
        entrant.last_played_at = now
        if entrant.state != LadderEntrant.State.RETIRED and core.should_suspend(
            entrant.games, entrant.faults, POLICY
        ):
            entrant.state = LadderEntrant.State.SUSPENDED
            entrant.reason = "faults"
        entrant.save(
            update_fields=["mu", "sigma", "games", "faults", "last_played_at", "state", "reason"]
        )
    the_set.totals = totals
    the_set.faults = faults
    the_set.status = LadderSet.Status.FINISHED
    the_set.finished_at = now
    the_set.save(update_fields=["totals", "faults", "status", "finished_at"])
    restate(Ladder(the_set.game, the_set.seats))
    return str(the_set.status)


def restate(ladder: Ladder) -> None:
    """Placing or settled, from the active entrants' rank ranges (suspended and replaced ones
    keep their state)."""
    rows = list(_active(ladder))
    ranges = core.rank_ranges(
        [core.Entry(r.pk, r.mu, r.sigma, r.games, anchor=r.anchor) for r in rows], POLICY.z
    )
    for r in rows:
        if r.anchor:
            continue
        best, worst = ranges[r.pk]
        state = core.entrant_state(r.games, worst - best, POLICY)
        if state != r.state:
            LadderEntrant.objects.filter(pk=r.pk).update(state=state)


@transaction.atomic
def ladder_refit(ladder: Ladder) -> int:
    """Fit every finished set of the ladder at once by its point totals
    (:func:`bots.ladder.core.refit`, the margins' least squares) and store the skills: the same
    games always give the same ladder. Returns the sets fitted. Holds the ladder's lock (no set
    is recorded meanwhile)."""
    _ladder_lock(ladder)
    sets = [
        core.SetRecord(pk, tuple(int(e) for e in field), tuple(float(t) for t in totals))
        for pk, field, totals in LadderSet.objects.filter(
            game=ladder.game, seats=ladder.seats, status=LadderSet.Status.FINISHED
        )
        .order_by("pk")
        .values_list("pk", "field", "totals")
    ]
    anchors: dict[Hashable, tuple[float, float]] = {
        r.pk: (r.mu, r.sigma)
        for r in LadderEntrant.objects.filter(game=ladder.game, seats=ladder.seats).exclude(
            house_level=""
        )
    }
    for key, (mu, sigma) in core.refit(sets, anchors).items():
        LadderEntrant.objects.filter(pk=int(str(key))).update(mu=mu, sigma=sigma)
    restate(ladder)
    return len(sets)


def _closable(ladder: Ladder) -> list[int]:
    """Running sets of the ladder whose tables are all done."""
    running = LadderSet.objects.filter(
        game=ladder.game, seats=ladder.seats, status=LadderSet.Status.RUNNING
    )
    return [
        s.pk for s in running if not s.tables.exclude(table__status=Table.Status.COMPLETED).exists()
    ]


def ladder_tick(*, rng: random.Random | None = None) -> int:
    """Beat: for every ladder, enter new entrants, record its finished sets and start sets while
    fewer than ``LADDER_SETS_IN_FLIGHT`` run. Returns the sets started. One ladder's failure never
    stops the others."""
    started = 0
    for ladder in ladders():
        try:
            started += _tick_one(ladder, rng or random.Random(seeds.new_seed()))
        except Exception:
            logger.exception("ladder %s tick failed", ladder.slug)
    return started


def _ladder_lock(ladder: Ladder) -> None:
    """One tick or refit of a ladder at a time (a transaction-scoped PostgreSQL advisory lock):
    two ticks never start more sets than ``LADDER_SETS_IN_FLIGHT``."""
    key = zlib.crc32(f"ladder:{ladder.slug}".encode())
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


@transaction.atomic
def _tick_one(ladder: Ladder, rng: random.Random) -> int:
    _ladder_lock(ladder)
    ladder_sync(ladder)
    for set_id in _closable(ladder):
        ladder_close_set(set_id=set_id)
    running = LadderSet.objects.filter(
        game=ladder.game, seats=ladder.seats, status=LadderSet.Status.RUNNING
    ).count()
    started = 0
    while running + started < settings.LADDER_SETS_IN_FLIGHT:
        field = core.choose_set(ladder_entries(ladder), ladder.seats, rng, POLICY)
        if field is None:
            break
        try:
            start_set(ladder, [int(str(k)) for k in field])
        except SeatRefused:
            logger.info("ladder %s: an external bot may not be seated now", ladder.slug)
            break
        started += 1
    return started


# --------------------------------------------------------------------------- table hooks
def _set_of(table: Any) -> int | None:
    if getattr(table, "mode", None) != Mode.LADDER.value or table.pk is None:
        return None
    found: int | None = (
        LadderTable.objects.filter(table_id=table.pk)
        .values_list("ladder_set_id", flat=True)
        .first()
    )
    return found


def ladder_seed(table: Any, number: int) -> int | None:
    """``games.seeds`` provider: every table of a ladder set deals the set's seed."""
    set_id = _set_of(table)
    if set_id is None:
        return None
    seed: int | None = LadderSet.objects.filter(pk=set_id).values_list("seed", flat=True).first()
    return seed


def ladder_deal(game: Game) -> deals.Deal | None:
    """``games.deals`` source: game 1 of every table of a ladder set is one deal, hidden until
    all of them are over (docs/history.md "Deal secrecy")."""
    set_id = _set_of(game.table)
    if set_id is None:
        return None
    tables = LadderTable.objects.filter(ladder_set_id=set_id).values_list("table_id", flat=True)
    return deals.Deal(key=f"ladder:{set_id}", slots=tuple((int(t), 1) for t in sorted(tables)))


def ladder_game_finished(*, game: Any, table: Any) -> None:
    """``games.extensions`` game-finished hook: a ladder table's game is over; its set is
    recorded on the ``ladder`` queue once the transaction commits (a no-op until every table
    of the set is done)."""
    set_id = _set_of(table)
    if set_id is None:
        return
    transaction.on_commit(lambda: schedule(CLOSE_TASK, [set_id], delay=0, queue=LADDER_QUEUE))


def register() -> None:
    """Plug the ladder into the table layer (``BotsConfig.ready``)."""
    from games import extensions

    seeds.set_table_seeds(ladder_seed)
    deals.set_deal_source(ladder_deal)
    extensions.on_game_finished(ladder_game_finished)
