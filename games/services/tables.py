"""Tables: creating them (any game, arenas, practice), their options, the countdown to game 1
and dealing the next game of a session."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games import clock, programs, realtime
from games.engine.registry import DEFAULT_GAME, GAMES
from games.models import (
    SPECTATOR_HANDS,
    SPECTATOR_HANDS_LIVE,
    Game,
    Mode,
    Seat,
    Table,
    default_table_options,
    game_seat_range,
    game_table_options,
    is_rated,
    validate_table_options,
)
from games.services.leaving import open_absent_seats
from games.services.lines import lobby_message, table_changed
from games.services.play import deal_next
from games.services.sql import lock_table
from games.services.timers import table_queue
from games.services.unit import (
    TASK_TABLE_BEGIN,
    TableCtx,
    TableError,
    Work,
    check_bot_seats,
    countdown_seconds,
    engine_of,
    refresh_lobby_status,
    require_host,
    require_lobby,
)

if TYPE_CHECKING:
    from accounts.models import User


def house_levels() -> tuple[str, ...]:
    """Every house AI level of the games registered now, each game's order kept (weakest
    first); a table checks its seats against its own game's (``engine.house_levels``).

    >>> house_levels()
    ('easy', 'medium', 'hard', 'expert')
    """
    out: list[str] = []
    for engine in GAMES.values():
        levels = list(engine.house_levels)
        for i, level in enumerate(levels):
            if level in out:
                continue
            later = [out.index(x) for x in levels[i + 1 :] if x in out]
            out.insert(min(later) if later else len(out), level)
    return tuple(out)


SETTABLE_OPTIONS = (
    "hide_hand_counts",
    "play_on_after_winner",
    "turn_seconds",
    "session_length",
    "visibility",
    "spectator_hands",
)


# --------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class SeatSpec:
    """How a seat starts: ``kind`` human (the owner only, seat 0) | empty | house | bot."""

    kind: str = Seat.Kind.EMPTY
    house_level: str | None = None
    bot_version_id: int | None = None
    #: A house AI's name at this table ("" for the usual one of its seat: ``house_name``).
    name: str = ""


@transaction.atomic
def table_create(
    *,
    owner: User,
    name: str,
    game: str = DEFAULT_GAME,
    visibility: str = Table.Visibility.PUBLIC,
    options: dict[str, Any] | None = None,
    seats: Sequence[SeatSpec] | None = None,
    host_seated: bool = True,
    check_bots: bool = True,
    announce: bool = True,
) -> Table:
    """Create a table with its seats; the owner takes seat 0 (unless ``host_seated`` is False:
    an arena or a practice table the owner only watches). A public table is announced in the
    lobby chat unless ``announce`` is False (a tournament's tables: the tournament's page lists
    them).

    ``seats`` (optional, one per seat) makes the other seats empty, house AIs (``house_level``
    easy | medium | hard) or bot versions. The engine must exist (``unknown_game`` otherwise).
    With ``check_bots`` the bot versions must be seatable now by ``owner``
    (:func:`check_bot_seats`: ``bot_offline``, ``bot_busy``, ``bot_share_full``); a tournament
    round, whose entries were checked when made, passes False.
    """
    engine = engine_of(game)  # unknown_game for a game not in the registry
    if check_bots:
        check_bot_seats(
            owner,
            [s.bot_version_id for s in seats or () if s.kind == Seat.Kind.BOT and s.bot_version_id],
        )
    merged = {**default_table_options(game), **(options or {})}
    validate_table_options(merged, game=game)
    low, high = game_seat_range(game)  # the engine's min_players..max_players
    if not low <= int(merged["seats"]) <= high:
        raise ValidationError({"seats": f"{game} is played by {low} to {high} players."})
    table = Table(owner=owner, name=name, game=game, visibility=visibility, options=merged)
    table.full_clean()
    table.save()
    specs = list(seats or [])
    _check_one_program([s.bot_version_id for s in specs if s.kind == Seat.Kind.BOT])
    rows = []
    for index in range(table.seat_count):
        spec = specs[index] if index < len(specs) else SeatSpec()
        if index == 0 and host_seated:
            rows.append(Seat(table=table, index=0, kind=Seat.Kind.HUMAN, user=owner))
        elif spec.kind == Seat.Kind.HOUSE:
            level = spec.house_level or "medium"
            if level not in engine.house_levels:
                raise ValidationError({"seats": f"Unknown house AI level {level!r}."})
            rows.append(
                Seat(
                    table=table,
                    index=index,
                    kind=Seat.Kind.HOUSE,
                    house_level=level,
                    name=spec.name,
                    ready=True,
                )
            )
        elif spec.kind == Seat.Kind.BOT and spec.bot_version_id is not None:
            rows.append(
                Seat(
                    table=table,
                    index=index,
                    kind=Seat.Kind.BOT,
                    bot_version_id=spec.bot_version_id,
                    ready=True,
                )
            )
        else:
            rows.append(Seat(table=table, index=index, kind=Seat.Kind.EMPTY))
    Seat.objects.bulk_create(rows)
    if table.visibility == Table.Visibility.PUBLIC and announce:
        work = Work()
        lobby_message(
            work,
            "lobby_table_opened",
            {"name": owner.public_name, "table": table.name, "game": game, "code": table.code},
        )
        work.commit()
    return table


def _check_one_program(version_ids: Sequence[int | None]) -> None:
    """No program may hold two seats of one game (:mod:`games.programs`): ``ValidationError``
    ``same_program_twice`` otherwise."""
    if programs.same_program_twice(v for v in version_ids if v is not None):
        raise ValidationError(same_program_message(), code=programs.SAME_PROGRAM_TWICE)


def same_program_message() -> str:
    """The reader's-language words of ``same_program_twice``."""
    return _(
        "One program may hold only one seat of a game: two versions of one bot, or two "
        "external bots of one owner, cannot play at the same table."
    )


def check_bot_versions(
    owner: User, version_ids: Sequence[int], *, arena: bool, game: str = DEFAULT_GAME
) -> None:
    """Every version must be one ``owner`` may seat (the one rule,
    ``BotVersion.objects.seatable``): ``ready``, of a ``game`` bot, the
    owner's own — or, for an arena, of a bot its owner opened to others (``Bot.arena_open``).
    ``ValidationError`` otherwise (``not_ready`` for the owner's own unvalidated version)."""
    # The FK's target model, read only (games does not import bots' internals).
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    # busy bots count here (``free=False``): the seating's own check says it is the limit
    seatable = version_model.objects.seatable(user=owner, game=game, others=arena, free=False)
    allowed = set(seatable.filter(pk__in=version_ids).values_list("pk", flat=True))
    missing = [v for v in version_ids if v not in allowed]
    if not missing:
        return
    own = (
        version_model.objects.select_related("bot")
        .filter(pk__in=missing, bot__owner=owner, bot__game=game)
        .first()
    )
    if own is not None:
        raise ValidationError(f"{own.bot.name} v{own.number} is not ready.", code="not_ready")
    raise ValidationError("No such bot version.", code="unknown_bot")


def table_create_arena(
    *,
    owner: User,
    bot_version_ids: Sequence[int],
    house_levels: Sequence[str] = (),
    name: str = "",
    session_length: int = 16,
    visibility: str = Table.Visibility.PUBLIC,
    start: bool = True,
) -> Table:
    """Bot Arena (seed §3.1): 2–4 players — at least one bot version, the rest house AIs of
    ``house_levels`` — play a session of 16 or 32 games in a row, each game dealt automatically
    in duplicate sets (one deal per set of seat-count games, rotated a seat per game:
    docs/bot-lab.md), and anyone with the link watches. The owner is not seated (they watch);
    each version is the owner's own ready version or a ready version of a bot opened to the
    arena. Finished games are rated when the bots app says so (its game-finished hook,
    :func:`games.extensions.on_game_finished`: house AIs are fixed anchor players there). With
    ``start`` the countdown to game 1 starts at once."""
    ids = [int(v) for v in bot_version_ids]
    levels = [str(level) for level in house_levels]
    if not ids or not 2 <= len(ids) + len(levels) <= 4:
        raise ValidationError(
            "An arena seats 2 to 4 players, at least one of them a bot.", code="bad_seats"
        )
    known = engine_of(DEFAULT_GAME).house_levels
    for level in levels:
        if level not in known:
            raise ValidationError(f"Unknown house AI level {level!r}.", code="bad_level")
    with transaction.atomic():
        check_bot_versions(owner, ids, arena=True)
        table = table_create(
            owner=owner,
            name=name or f"Bot arena — {owner.public_name}",
            visibility=visibility,
            options={
                "seats": len(ids) + len(levels),
                "mode": Mode.ARENA.value,
                "session_length": session_length,
            },
            seats=[SeatSpec(Seat.Kind.BOT, bot_version_id=v) for v in ids]
            + [SeatSpec(Seat.Kind.HOUSE, level) for level in levels],
            host_seated=False,
        )
        Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
    if start:
        table_start(table_id=table.pk, user=owner)
    table.refresh_from_db()
    return table


def table_create_practice(
    *,
    owner: User,
    name: str = "",
    turn_seconds: int = 30,
    bot_version_id: int | None = None,
    watch: bool = False,
) -> Table:
    """Practice (seed §3.1), a private table of the default game (``DEFAULT_GAME``) in mode
    ``practice`` (never rated), already counting down to game 1: the owner against three house
    AIs (easy, medium, hard); with ``bot_version_id`` (one of the owner's ready versions) the
    owner and their bot against two house AIs (medium, hard), or with ``watch`` the bot alone
    against the three house AIs while the owner watches."""
    with transaction.atomic():
        if bot_version_id is not None:
            check_bot_versions(owner, [bot_version_id], arena=False)
        table = _practice_table(
            owner=owner,
            name=name,
            turn_seconds=turn_seconds,
            bot_version_id=bot_version_id,
            watch=watch and bot_version_id is not None,
        )
    table_start(table_id=table.pk, user=owner)
    table.refresh_from_db()
    return table


def table_create_bot_practice(
    *,
    owner: User,
    bot_version_id: int,
    game: str,
    seats: int | None = None,
    house_level: str = "medium",
    name: str = "",
) -> Table:
    """Practice with a bot (any game; what ``POST /api/bots/<id>/practice/`` makes): a private
    ``practice`` table (never rated) of ``game`` with ``owner``'s ready version
    ``bot_version_id`` at seat 0 and house AIs of ``house_level`` at the other seats
    (``seats`` in all, default 4 within the game's range), counting down to game 1 at once;
    the owner watches. Refused (``ValidationError``) like any seating: ``not_ready``,
    ``bot_busy`` (an external bot at its games limit), ``unknown_bot``; ``bad_level``,
    ``bad_seats``."""
    engine = engine_of(game)
    if house_level not in engine.house_levels:
        raise ValidationError(f"Unknown house AI level {house_level!r}.", code="bad_level")
    low, high = game_seat_range(game)
    count = seats if seats is not None else min(max(4, low), high)
    if not low <= count <= high:
        raise ValidationError(f"{game} is played by {low} to {high} players.", code="bad_seats")
    with transaction.atomic():
        check_bot_versions(owner, [bot_version_id], arena=False, game=game)
        table = table_create(
            owner=owner,
            name=name or f"Practice — {owner.public_name}",
            game=game,
            visibility=Table.Visibility.PRIVATE,
            options={"seats": count, "mode": Mode.PRACTICE.value},
            seats=[SeatSpec(Seat.Kind.BOT, bot_version_id=bot_version_id)]
            + [SeatSpec(Seat.Kind.HOUSE, house_level)] * (count - 1),
            host_seated=False,
        )
        Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
    table_start(table_id=table.pk, user=owner)
    table.refresh_from_db()
    return table


def _practice_table(
    *,
    owner: User,
    name: str,
    turn_seconds: int,
    bot_version_id: int | None = None,
    watch: bool = False,
) -> Table:
    # the three weakest levels (easy, medium, hard: the rule-based ones)
    levels = engine_of(DEFAULT_GAME).house_levels[:3]
    house = [SeatSpec(Seat.Kind.HOUSE, level) for level in levels]
    seats = [SeatSpec(), *house]
    if bot_version_id is not None:
        bot = SeatSpec(Seat.Kind.BOT, bot_version_id=bot_version_id)
        seats = [bot, *house] if watch else [SeatSpec(), bot, *house[1:]]
    table = table_create(
        owner=owner,
        name=name or f"Practice — {owner.public_name}",
        visibility=Table.Visibility.PRIVATE,
        options={"seats": 4, "mode": Mode.PRACTICE.value, "turn_seconds": turn_seconds},
        seats=seats,
        host_seated=not watch,
    )
    Seat.objects.filter(table=table, index=0, kind=Seat.Kind.HUMAN).update(ready=True)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
    return table


@transaction.atomic
def table_set_option(
    *, table_id: int, user: User | None, name: str, value: Any, sink: realtime.Sink | None = None
) -> None:
    """Host, before the game: change one option (see ``SETTABLE_OPTIONS``); ``bad_frame`` if
    the value is not allowed."""
    ctx = lock_table(table_id, with_game=False)
    require_host(ctx, user)
    require_lobby(ctx)
    if name not in SETTABLE_OPTIONS and name not in game_table_options(ctx.table.game):
        raise TableError("bad_frame", f"unknown option {name!r}")
    if name == "spectator_hands":  # the host's choice for the watchers (issue #29)
        if value not in SPECTATOR_HANDS:
            raise TableError("bad_spectator_hands", "spectator_hands is never or live")
        if value == SPECTATOR_HANDS_LIVE and is_rated(ctx.table):
            raise TableError(
                "spectator_hands_rated", "a rated table shows the hands one game behind only"
            )
    if ctx.table.session is not None and name not in ("visibility", "spectator_hands"):
        # back in the lobby mid-session (a seat opened): the session keeps its rules
        raise TableError("bad_state", "the session has started; its options are fixed")
    if name == "visibility":
        if value not in Table.Visibility.values:
            raise TableError("bad_frame", "visibility must be public or private")
        ctx.table.visibility = value
    else:
        options = {**ctx.table.options, name: value}
        try:
            validate_table_options(options, game=ctx.table.game)
        except ValidationError as exc:
            raise TableError("bad_frame", "; ".join(exc.messages)) from exc
        ctx.table.options = options
    work = Work(sink=sink)
    table_changed(ctx, work)
    work.commit()


@transaction.atomic
def table_start(*, table_id: int, user: User | None, sink: realtime.Sink | None = None) -> None:
    """Host: start the 3-second countdown (the table must be Ready); the deal follows in
    :func:`table_begin`. With ``GAMES_COUNTDOWN_SECONDS = 0`` game 1 is dealt at once."""
    ctx = lock_table(table_id)
    require_host(ctx, user)
    if ctx.table.status == Table.Status.WAITING:
        _host_ready_by_start(ctx, user)
    if ctx.table.status == Table.Status.WAITING:
        raise TableError("not_ready", "every seat must be filled and every player ready")
    if ctx.table.status != Table.Status.READY or ctx.table.starts_at is not None:
        raise TableError("bad_state", f"the table is {ctx.table.status}")
    work = Work(sink=sink)
    delay = countdown_seconds()
    now = clock.now_datetime()
    ctx.table.starts_at = now + timedelta(seconds=delay)
    ctx.table.save(update_fields=["starts_at"])
    table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "countdown", "starts_at": realtime.ts(ctx.table.starts_at), "seconds": delay},
    )
    work.timer(TASK_TABLE_BEGIN, [ctx.table.pk, ctx.table.version], delay, table_queue(ctx.table))
    work.commit()


def _host_ready_by_start(ctx: TableCtx, user: User | None) -> None:
    """Start implies the host's Ready: a seated host who is the only one not ready (every other
    seat filled by a house AI, a bot or a ready person) is made ready, so one click starts."""
    mine = ctx.seat_of(user)
    others = [s for s in ctx.seats if s is not mine]
    if mine is None or any(s.kind == Seat.Kind.EMPTY or not s.ready for s in others):
        return
    mine.ready = True
    mine.save(update_fields=["ready"])
    refresh_lobby_status(ctx)
    ctx.table.save(update_fields=["status"])


@transaction.atomic
def table_begin(*, table_id: int, version: int) -> bool:
    """The countdown ended (task): deal game 1 unless the lobby changed since (``version``)."""
    ctx = lock_table(table_id)
    table = ctx.table
    if table.version != version or table.status != Table.Status.READY or table.starts_at is None:
        return False
    if table.starts_at > clock.now_datetime() + timedelta(seconds=0.5):
        return False  # an early timer; the right one is still scheduled
    work = Work()
    table.status = Table.Status.IN_PROGRESS
    table.starts_at = None
    table.save(update_fields=["starts_at"])
    deal_next(ctx, work)
    work.commit()
    return True


@transaction.atomic
def game_next(
    *,
    table_id: int,
    user: User | None = None,
    after_game: int | None = None,
    sink: realtime.Sink | None = None,
) -> bool:
    """Deal the next game of the session after one ended: a seated player (``user``) or the
    automatic timer (``after_game``: the number of the game that ended). Idempotent: returns
    False when that game is not the latest finished one any more."""
    ctx = lock_table(table_id)
    if user is not None and ctx.seat_of(user) is None:
        raise TableError("not_seated", "only players deal the next game")
    game = ctx.game
    if ctx.table.status != Table.Status.IN_PROGRESS or game is None:
        if user is None:
            return False
        raise TableError("bad_state", f"the table is {ctx.table.status}")
    if game.status == Game.Status.RUNNING:
        if user is None:
            return False
        raise TableError("bad_state", "a game is running")
    if after_game is not None and game.number != after_game:
        return False
    work = Work(sink=sink)
    if open_absent_seats(ctx, work):  # no game for a player who left (docs/protocol.md)
        work.commit()
        return False
    deal_next(ctx, work)
    work.commit()
    return True
