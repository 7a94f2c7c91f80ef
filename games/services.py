"""Write-side operations of the games app. Services own their transactions.

Every change to a live table goes through one function here: it locks the table row
(``select_for_update``), checks who may do it and (for moves) the client's game version, applies
the engine, appends an :class:`~games.models.Action`, saves state and version, and only then —
in ``transaction.on_commit`` — broadcasts frames and schedules timers (docs/protocol.md).
Errors are :class:`TableError` (a ``ValueError`` with a stable ``code``) or the engine's own
``ValueError``\\ s with their codes; nothing changes when one is raised.
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import psycopg
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Exists, FloatField, OuterRef, Q, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.utils.module_loading import import_string

from games import clock, realtime
from games.engine.core.protocol import Event
from games.engine.core.protocol import Game as EngineGame
from games.engine.registry import GAMES, find_game
from games.engine.tienlen import ai as tienlen_ai
from games.models import (
    Action,
    ChatMessage,
    Game,
    Mode,
    Seat,
    Table,
    default_table_options,
    game_seat_range,
    game_table_options,
    validate_table_options,
)

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

Frame = dict[str, Any]
MAX_CHAT_LENGTH = 500
HOUSE_LEVELS = tienlen_ai.LEVELS
SETTABLE_OPTIONS = (
    "hide_hand_counts",
    "play_on_after_winner",
    "turn_seconds",
    "session_length",
    "visibility",
)

# Task names (the scheduler sends them by name: services never import the tasks module).
TASK_TURN_TIMEOUT = "games.turn_timeout"
TASK_SEAT_AUTOPLAY = "games.seat_autoplay"
TASK_SEAT_HOLD = "games.seat_hold_expired"
TASK_TABLE_BEGIN = "games.table_begin"
TASK_NEXT_GAME = "games.next_game"
TASK_GAME_ARCHIVE = "games.game_archive"  # games.history.TASK_ARCHIVE

# The house AI of each engine, by engine name: every registered game's ``house_action(state,
# seat, level)`` (the registry is the one lookup; a new game with that method is playable by
# house seats without a change here).
HOUSE_AI: dict[str, Callable[[Any, int, str], dict[str, Any]]] = {
    name: engine.house_action for name, engine in GAMES.items() if hasattr(engine, "house_action")
}


class TableError(ValueError):
    """A rejected table operation with a stable ``code`` (see docs/protocol.md)."""

    def __init__(self, code: str, detail: str = "", **extra: Any) -> None:
        self.code = code
        self.detail = detail
        self.extra = extra
        super().__init__(f"{code}: {detail}" if detail else code)


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def bot_delay() -> float:
    return _setting("GAMES_BOT_DELAY_SECONDS", 0.8)


def countdown_seconds() -> float:
    return _setting("GAMES_COUNTDOWN_SECONDS", 3)


def next_game_seconds() -> float:
    return _setting("GAMES_NEXT_GAME_SECONDS", 20)


def hold_seconds() -> float:
    return _setting("GAMES_DISCONNECT_HOLD_SECONDS", 30)


# --------------------------------------------------------------------------- unit of work
@dataclass
class _Work:
    """What a service collected to send and schedule once its transaction commits."""

    frames: list[tuple[str, Frame]] = field(default_factory=list)
    rebinds: list[str] = field(default_factory=list)
    timers: list[tuple[str, list[Any], float, str]] = field(default_factory=list)

    def send(self, group: str, frame: Frame) -> None:
        self.frames.append((group, frame))

    def timer(self, name: str, args: list[Any], delay: float, queue: str = "default") -> None:
        self.timers.append((name, args, delay, queue))

    def commit(self) -> None:
        frames, rebinds, timers = list(self.frames), list(self.rebinds), list(self.timers)

        def run() -> None:
            realtime.broadcast(frames)
            if rebinds:
                realtime.rebind(rebinds)
            for name, args, delay, queue in timers:
                realtime.schedule(name, args, delay=delay, queue=queue)

        transaction.on_commit(run)


@dataclass
class _Ctx:
    """A locked table with its seats and latest game."""

    table: Table
    seats: list[Seat]
    game: Game | None

    @property
    def current_number(self) -> int | None:
        return self.game.number if self.game is not None else None

    def seat_of(self, user: User | None) -> Seat | None:
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats if s.kind == "human" and s.user_id == user.pk), None)


def _lock(table_id: int, *, with_game: bool = True) -> _Ctx:
    """Lock the table row and load its seats (with what names them) and latest game.

    Two statements, hand-written because the ORM's query building cost more CPU than the
    database did (the hottest part of a move): ``SELECT … FOR UPDATE`` of the table, then one
    row with the seats as per-column arrays and the latest game. The second statement runs after
    the lock is granted, so it sees what the previous holder committed (one statement with a
    join would read the seats and the game from the snapshot taken *before* waiting).
    ``benchmarks/move_path.py`` measures it against the ORM doing the same."""
    sql = _lock_sql()
    with _cursor() as cursor:
        cursor.execute(sql.table, [table_id])
        row = cursor.fetchone()
        if row is None:
            raise TableError("no_table", "no such table")
        table = sql.load(Table, sql.table_fields, row)
        if with_game:
            cursor.execute(sql.seats_game, [table_id, table_id])
        else:
            cursor.execute(sql.seats, [table_id])
        loaded = cursor.fetchone()
    assert loaded is not None  # an aggregate without GROUP BY always returns one row
    seats = sql.seats_from(loaded[: len(sql.seat_columns)])
    game_row = loaded[len(sql.seat_columns) :]
    game = sql.load(Game, sql.game_fields, game_row) if game_row and game_row[0] else None
    return _Ctx(table, seats, game)


def _cursor() -> Any:
    """A cursor for the move path's hand-written statements: Django's wrapper (queries are
    logged and counted as usual) around a psycopg cursor with **server-side binding**. Django's
    default client-side binding quotes every parameter into the SQL text, which for a game's
    state JSON cost more CPU than the statement; bound parameters also let psycopg prepare the
    statements after a few runs on a connection (the connection's ``prepare_threshold``, from
    the database ``OPTIONS``, applies: None turns that off, e.g. behind a transaction-pooling
    PgBouncer)."""
    connection.ensure_connection()
    raw: Any = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


@dataclass(frozen=True)
class _LockSQL:
    """The statements of :func:`_lock`, built from the models' metadata (a new column comes
    along by itself), and the code that turns their rows into model instances."""

    table: str
    seats: str
    seats_game: str
    table_fields: list[Any]
    game_fields: list[Any]
    seat_fields: list[Any]
    seat_columns: list[str]

    @staticmethod
    def load(model: Any, fields: list[Any], values: Sequence[Any]) -> Any:
        converted = [
            f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
            for f, v in zip(fields, values, strict=True)
        ]
        return model.from_db(connection.alias, [f.attname for f in fields], converted)

    def seats_from(self, arrays: Sequence[Any]) -> list[Seat]:
        """Seats (with their user and bot version preloaded) from the per-column arrays."""
        n_seat = len(self.seat_fields)
        if not arrays[0]:
            return []
        user_model = _field(Seat, "user").related_model
        version_model = _field(Seat, "bot_version").related_model
        bot_model = _field(version_model, "bot").related_model
        out = []
        for values in zip(*arrays, strict=True):
            seat = self.load(Seat, self.seat_fields, values[:n_seat])
            uid, username, display_name, vid, number, bot_id, bot_name, owner_id = values[n_seat:]
            user = None
            if uid is not None:
                user = _partial(user_model, id=uid, username=username, display_name=display_name)
            version = None
            if vid is not None:
                version = _partial(version_model, id=vid, number=number, bot_id=bot_id)
                bot = _partial(bot_model, id=bot_id, name=bot_name, owner_id=owner_id)
                _field(version_model, "bot").set_cached_value(version, bot)
            _field(Seat, "user").set_cached_value(seat, user)
            _field(Seat, "bot_version").set_cached_value(seat, version)
            out.append(seat)
        return out


def _field(model: Any, name: str) -> Any:
    return model._meta.get_field(name)


def _quote(name: Any) -> str:
    return str(connection.ops.quote_name(str(name)))


def _partial(model: Any, **values: Any) -> Any:
    """A model instance with only ``values`` loaded (the others deferred), as ``.only()``
    makes: ``from_db`` takes the values in the model's field order."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[n] for n in names])


@functools.cache
def _lock_sql() -> _LockSQL:
    q = _quote
    user_model = _field(Seat, "user").related_model
    version_model = _field(Seat, "bot_version").related_model
    bot_model = _field(version_model, "bot").related_model
    table_fields = list(Table._meta.concrete_fields)
    seat_fields = list(Seat._meta.concrete_fields)
    game_fields = list(Game._meta.concrete_fields)
    seat_columns = [f"s.{q(f.column)}" for f in seat_fields] + [
        "u.id",
        f"u.{q('username')}",
        f"u.{q('display_name')}",
        "v.id",
        f"v.{q('number')}",
        "b.id",
        f"b.{q('name')}",
        f"b.{q('owner_id')}",
    ]
    seats = (
        "SELECT "
        + ", ".join(f"array_agg({c} ORDER BY s.{q('index')})" for c in seat_columns)
        + f" FROM {q(Seat._meta.db_table)} s"
        + f" LEFT JOIN {q(user_model._meta.db_table)} u ON u.id = s.{q('user_id')}"
        + f" LEFT JOIN {q(version_model._meta.db_table)} v ON v.id = s.{q('bot_version_id')}"
        + f" LEFT JOIN {q(bot_model._meta.db_table)} b ON b.id = v.{q('bot_id')}"
        + f" WHERE s.{q('table_id')} = %s"
    )
    game_columns = ", ".join(f"g.{q(f.column)}" for f in game_fields)
    seats_game = (
        f"SELECT sa.*, {game_columns} FROM ({seats}) sa LEFT JOIN LATERAL"
        f" (SELECT {', '.join(q(f.column) for f in game_fields)}"
        f" FROM {q(Game._meta.db_table)} WHERE {q('table_id')} = %s"
        f" ORDER BY {q('number')} DESC LIMIT 1) g ON TRUE"
    )
    table = (
        "SELECT "
        + ", ".join(q(f.column) for f in table_fields)
        + f" FROM {q(Table._meta.db_table)} WHERE id = %s FOR UPDATE"
    )
    return _LockSQL(
        table=table,
        seats=seats,
        seats_game=seats_game,
        table_fields=table_fields,
        game_fields=game_fields,
        seat_fields=seat_fields,
        seat_columns=seat_columns,
    )


def _engine(name: str) -> EngineGame:
    return find_game(name)


def _user_name(user: User | None) -> str | None:
    return user.public_name if user is not None else None


def _table_changed(ctx: _Ctx, work: _Work) -> None:
    ctx.table.version += 1
    ctx.table.save(update_fields=["version", "status", "options", "visibility", "updated_at"])
    work.send(
        realtime.table_group(ctx.table.pk),
        realtime.table_updated_frame(ctx.table, ctx.seats, ctx.current_number),
    )


def _seat_names(ctx: _Ctx) -> list[str | None]:
    """The name each seat plays under (the protocol's ``seat.name``), for system lines."""
    return [realtime.seat_json(s, ctx.table.owner_id)["name"] for s in ctx.seats]


def _system_message(
    ctx: _Ctx, work: _Work, code: str, params: dict[str, Any], text: str | None = None
) -> None:
    """A system line in the table room: ``code`` (``realtime.SYSTEM_CODES``) and ``params``
    for the readers' languages, ``text`` its English form (by default the table layer's)."""
    if text is None:
        text = realtime.system_text(code, params)
    msg = ChatMessage.objects.create(
        table=ctx.table,
        room=ChatMessage.Room.TABLE,
        text=text[:MAX_CHAT_LENGTH],
        is_system=True,
        code=code,
        params=params,
    )
    work.send(realtime.table_group(ctx.table.pk), realtime.message_frame(msg, None))


def _lobby_message(work: _Work, code: str, params: dict[str, Any]) -> None:
    """A system line in the lobby chat (a public table opened, a session won)."""
    msg = ChatMessage.objects.create(
        room=ChatMessage.Room.LOBBY,
        text=realtime.system_text(code, params)[:MAX_CHAT_LENGTH],
        is_system=True,
        code=code,
        params=params,
    )
    work.send(realtime.LOBBY_GROUP, realtime.message_frame(msg, None))


def _game_line(
    engine: EngineGame, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
) -> tuple[str, dict[str, Any], str] | None:
    """A game's own system line (``GAME.system_line``, diu): code, params, English text."""
    describe = getattr(engine, "system_line", None)
    line = describe(kind, data, names) if describe is not None else None
    if line is None:
        return None
    code, params = line
    english = getattr(engine, "system_message", None)
    text = english(kind, data, names) if english is not None else None
    return code, dict(params), str(text or code)


def _refresh_lobby_status(ctx: _Ctx) -> None:
    """Waiting ↔ Ready: ready once every seat is filled and every human is ready."""
    if ctx.table.status not in (Table.Status.WAITING, Table.Status.READY):
        return
    full = all(s.kind != Seat.Kind.EMPTY for s in ctx.seats)
    ready = all(s.ready for s in ctx.seats if s.kind == Seat.Kind.HUMAN)
    ctx.table.status = Table.Status.READY if full and ready else Table.Status.WAITING
    if ctx.table.status != Table.Status.READY:
        ctx.table.starts_at = None
        ctx.table.save(update_fields=["starts_at"])


def _require_lobby(ctx: _Ctx) -> None:
    if ctx.table.status not in (Table.Status.WAITING, Table.Status.READY):
        raise TableError("bad_state", f"the table is {ctx.table.status}")


def _require_host(ctx: _Ctx, user: User | None) -> None:
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in first")
    if user.pk != ctx.table.owner_id:
        raise TableError("not_host", "only the host may do that")


# --------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class SeatSpec:
    """How a seat starts: ``kind`` human (the owner only, seat 0) | empty | house | bot."""

    kind: str = Seat.Kind.EMPTY
    house_level: str | None = None
    bot_version_id: int | None = None


@transaction.atomic
def table_create(
    *,
    owner: User,
    name: str,
    game: str = "tienlen",
    visibility: str = Table.Visibility.PUBLIC,
    options: dict[str, Any] | None = None,
    seats: Sequence[SeatSpec] | None = None,
    host_seated: bool = True,
) -> Table:
    """Create a table with its seats; the owner takes seat 0 (unless ``host_seated`` is False:
    an arena or a practice table the owner only watches).

    ``seats`` (optional, one per seat) makes the other seats empty, house AIs (``house_level``
    easy | medium | hard) or bot versions. The engine must exist (``unknown_game`` otherwise).
    """
    _engine(game)  # unknown_game for a game not in the registry
    merged = {**default_table_options(game), **(options or {})}
    validate_table_options(merged, game=game)
    low, high = game_seat_range(game)  # the engine's min_players..max_players
    if not low <= int(merged["seats"]) <= high:
        raise ValidationError({"seats": f"{game} is played by {low} to {high} players."})
    table = Table(owner=owner, name=name, game=game, visibility=visibility, options=merged)
    table.full_clean()
    table.save()
    specs = list(seats or [])
    rows = []
    for index in range(table.seat_count):
        spec = specs[index] if index < len(specs) else SeatSpec()
        if index == 0 and host_seated:
            rows.append(Seat(table=table, index=0, kind=Seat.Kind.HUMAN, user=owner))
        elif spec.kind == Seat.Kind.HOUSE:
            level = spec.house_level or "medium"
            if level not in HOUSE_LEVELS:
                raise ValidationError({"seats": f"Unknown house AI level {level!r}."})
            rows.append(
                Seat(table=table, index=index, kind=Seat.Kind.HOUSE, house_level=level, ready=True)
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
    if table.visibility == Table.Visibility.PUBLIC:
        work = _Work()
        _lobby_message(
            work,
            "lobby_table_opened",
            {"name": owner.public_name, "table": table.name, "game": game, "code": table.code},
        )
        work.commit()
    return table


def _check_bot_versions(
    owner: User, version_ids: Sequence[int], *, arena: bool, game: str = "tienlen"
) -> None:
    """Every version must be one ``owner`` may seat (the one rule,
    ``BotVersion.objects.seatable``): ``ready``, of a ``game`` bot, the
    owner's own — or, for an arena, of a bot its owner opened to others (``Bot.arena_open``).
    ``ValidationError`` otherwise (``not_ready`` for the owner's own unvalidated version)."""
    # The FK's target model, read only (games does not import bots' internals).
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    seatable = version_model.objects.seatable(user=owner, game=game, others=arena)
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
    name: str = "",
    session_length: int = 16,
    visibility: str = Table.Visibility.PUBLIC,
    start: bool = True,
) -> Table:
    """Bot Arena (seed §3.1): 2–4 bot versions play a session of 16 or 32 games in a row, each
    game dealt automatically, and anyone with the link watches. The owner is not seated (they
    watch); each version is the owner's own ready version or a ready version of a bot opened to
    the arena. Finished games are rated (``GAMES_ON_GAME_FINISHED``). With ``start`` the
    countdown to game 1 starts at once."""
    ids = [int(v) for v in bot_version_ids]
    if not 2 <= len(ids) <= 4:
        raise ValidationError("An arena seats 2 to 4 bots.", code="bad_seats")
    with transaction.atomic():
        _check_bot_versions(owner, ids, arena=True)
        table = table_create(
            owner=owner,
            name=name or f"Bot arena — {owner.public_name}",
            visibility=visibility,
            options={
                "seats": len(ids),
                "mode": Mode.ARENA.value,
                "session_length": session_length,
            },
            seats=[SeatSpec(Seat.Kind.BOT, bot_version_id=v) for v in ids],
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
    """Practice (seed §3.1), a private table in mode ``practice`` (never rated), already
    counting down to game 1: the owner against three house AIs (easy, medium, hard); with
    ``bot_version_id`` (one of the owner's ready versions) the owner and their bot against two
    house AIs (medium, hard), or with ``watch`` the bot alone against the three house AIs while
    the owner watches."""
    with transaction.atomic():
        if bot_version_id is not None:
            _check_bot_versions(owner, [bot_version_id], arena=False)
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


def _practice_table(
    *,
    owner: User,
    name: str,
    turn_seconds: int,
    bot_version_id: int | None = None,
    watch: bool = False,
) -> Table:
    house = [SeatSpec(Seat.Kind.HOUSE, level) for level in HOUSE_LEVELS]
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
def seat_join(*, table_id: int, user: User | None, seat: int | None = None) -> int:
    """Sit ``user`` at an empty seat (the given one or the first); returns the seat index.

    During a game a seated player who left (or went away) comes back: their seat stops being
    auto-played."""
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in to take a seat")
    ctx = _lock(table_id)
    work = _Work()
    mine = ctx.seat_of(user)
    if ctx.table.status == Table.Status.IN_PROGRESS:
        if mine is None:
            raise TableError("bad_state", "the game has started; you can watch")
        _seat_back(ctx, mine, work)
        work.commit()
        return mine.index
    _require_lobby(ctx)
    if mine is not None:
        raise TableError("already_seated", f"you sit at seat {mine.index}")
    if seat is None:
        target = next((s for s in ctx.seats if s.kind == Seat.Kind.EMPTY), None)
        if target is None:
            raise TableError("no_seat", "the table is full")
    else:
        target = next((s for s in ctx.seats if s.index == seat), None)
        if target is None:
            raise TableError("no_seat", f"no seat {seat}")
        if target.kind != Seat.Kind.EMPTY:
            raise TableError("seat_taken", f"seat {seat} is taken")
    target.kind = Seat.Kind.HUMAN
    target.user = user
    target.ready = False
    target.connections = 0
    target.auto = False
    target.away_since = None
    target.save()
    _refresh_lobby_status(ctx)
    _table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_joined", "seat": target.index, "name": user.public_name, "kind": "human"},
    )
    _system_message(ctx, work, "seat_joined", {"name": user.public_name, "seat": target.index + 1})
    work.rebinds.append(realtime.user_group(ctx.table.pk, user.pk))
    work.commit()
    return target.index


def _seat_back(ctx: _Ctx, seat: Seat, work: _Work) -> None:
    if not seat.auto or seat.disqualified:
        return
    seat.auto = False
    seat.away_since = None
    seat.save(update_fields=["auto", "away_since"])
    work.send(
        realtime.table_group(ctx.table.pk),
        {
            "type": "player_joined",
            "seat": seat.index,
            "name": _user_name(seat.user),
            "kind": "human",
        },
    )
    _table_changed(ctx, work)
    _arm_timers(ctx, work)


@transaction.atomic
def seat_leave(*, table_id: int, user: User | None) -> None:
    """Leave the table. Before the game the seat is freed (the host cannot leave); during a
    game the seat is auto-played by the house policy until the player comes back."""
    ctx = _lock(table_id)
    mine = ctx.seat_of(user)
    if mine is None or user is None:
        raise TableError("not_seated", "you do not sit at this table")
    work = _Work()
    if ctx.table.status == Table.Status.IN_PROGRESS:
        if not mine.auto:
            mine.auto = True
            mine.save(update_fields=["auto"])
            work.send(
                realtime.table_group(ctx.table.pk),
                {
                    "type": "player_left",
                    "seat": mine.index,
                    "name": user.public_name,
                    "reason": "left",
                },
            )
            _system_message(
                ctx, work, "seat_left_auto", {"name": user.public_name, "seat": mine.index + 1}
            )
            _table_changed(ctx, work)
            _arm_timers(ctx, work)
        work.commit()
        return
    _require_lobby(ctx)
    if user.pk == ctx.table.owner_id:
        raise TableError("bad_state", "the host cannot leave the table")
    _empty_seat(mine)
    _refresh_lobby_status(ctx)
    _table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_left", "seat": mine.index, "name": user.public_name, "reason": "left"},
    )
    _system_message(ctx, work, "seat_left", {"name": user.public_name})
    work.rebinds.append(realtime.user_group(ctx.table.pk, user.pk))
    work.commit()


def _empty_seat(seat: Seat) -> None:
    seat.kind = Seat.Kind.EMPTY
    seat.user = None
    seat.bot_version = None
    seat.house_level = None
    seat.ready = False
    seat.connections = 0
    seat.auto = False
    seat.away_since = None
    seat.strikes = 0
    seat.disqualified = False
    seat.save()


@transaction.atomic
def seat_ready(*, table_id: int, user: User | None, ready: bool = True) -> None:
    """Mark the caller's seat ready (or not); the table turns Ready when everyone is."""
    ctx = _lock(table_id, with_game=False)
    _require_lobby(ctx)
    mine = ctx.seat_of(user)
    if mine is None:
        raise TableError("not_seated", "take a seat first")
    work = _Work()
    mine.ready = ready
    mine.save(update_fields=["ready"])
    _refresh_lobby_status(ctx)
    _table_changed(ctx, work)
    work.commit()


@transaction.atomic
def seat_add_bot(
    *,
    table_id: int,
    user: User | None,
    seat: int,
    level: str = "medium",
    bot_version_id: int | None = None,
) -> None:
    """Host: put a house AI (``level``) or a bot version at an empty or bot seat: the host's
    own ready version or a ready version of a bot its owner opened to others, of this table's
    game (``BotVersion.objects.seatable``, the Create Table form's rule too)."""
    ctx = _lock(table_id, with_game=False)
    _require_host(ctx, user)
    _require_lobby(ctx)
    target = next((s for s in ctx.seats if s.index == seat), None)
    if target is None:
        raise TableError("no_seat", f"no seat {seat}")
    if target.kind == Seat.Kind.HUMAN:
        raise TableError("seat_taken", f"seat {seat} has a player")
    if bot_version_id is not None:
        # The FK's target model, read only (games does not import bots' internals); its
        # ``seatable`` is the one rule, the Create Table form's too.
        version_model: Any = Seat._meta.get_field("bot_version").related_model
        seatable = version_model.objects.seatable(user=user).select_related("bot")
        version = seatable.filter(pk=bot_version_id).first()
        if version is None:
            raise TableError(
                "unknown_bot",
                "no such bot version: seat your own ready versions or ready versions of bots "
                "their owners opened to others",
            )
        if version.bot.game != ctx.table.game:  # a bot plays the one game it was written for
            raise TableError("unknown_bot", f"that bot plays {version.bot.game}, not this game")
        target.kind = Seat.Kind.BOT
        target.bot_version = version
        target.house_level = None
        name = f"{version.bot.name} v{version.number}"
    else:
        if level not in HOUSE_LEVELS:
            raise TableError("bad_frame", f"level must be one of {', '.join(HOUSE_LEVELS)}")
        target.kind = Seat.Kind.HOUSE
        target.house_level = level
        target.bot_version = None
        name = realtime.house_name(target.index, level)
    target.user = None
    target.ready = True
    target.strikes = 0
    target.disqualified = False
    target.auto = False
    target.save()
    work = _Work()
    _refresh_lobby_status(ctx)
    _table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_joined", "seat": seat, "name": name, "kind": target.kind},
    )
    _system_message(ctx, work, "seat_filled", {"name": name, "seat": seat + 1})
    work.commit()


def table_add_bot(
    *,
    table: Table,
    user: User | None,
    seat: int,
    level: str | None = None,
    bot_version: Any = None,
) -> None:
    """:func:`seat_add_bot` for callers holding a table (the Create Table view): a house AI
    at ``level`` or ``bot_version`` (a BotVersion or its id)."""
    version_id = getattr(bot_version, "pk", bot_version)
    seat_add_bot(
        table_id=table.pk,
        user=user,
        seat=seat,
        level=level or "medium",
        bot_version_id=int(version_id) if version_id is not None else None,
    )


@transaction.atomic
def seat_kick(*, table_id: int, user: User | None, seat: int) -> None:
    """Host, before the game: empty a seat (a player becomes a spectator)."""
    ctx = _lock(table_id, with_game=False)
    _require_host(ctx, user)
    _require_lobby(ctx)
    target = next((s for s in ctx.seats if s.index == seat), None)
    if target is None or target.kind == Seat.Kind.EMPTY:
        raise TableError("no_seat", f"seat {seat} is empty")
    if target.kind == Seat.Kind.HUMAN and target.user_id == ctx.table.owner_id:
        raise TableError("bad_state", "the host cannot kick themselves")
    work = _Work()
    kicked_user = target.user
    name = realtime.seat_json(target, ctx.table.owner_id)["name"]
    _empty_seat(target)
    _refresh_lobby_status(ctx)
    _table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "player_left", "seat": seat, "name": name, "reason": "kicked"},
    )
    _system_message(ctx, work, "seat_removed", {"name": name, "seat": seat + 1})
    if kicked_user is not None:
        work.rebinds.append(realtime.user_group(ctx.table.pk, kicked_user.pk))
    work.commit()


@transaction.atomic
def table_set_option(*, table_id: int, user: User | None, name: str, value: Any) -> None:
    """Host, before the game: change one option (see ``SETTABLE_OPTIONS``); ``bad_frame`` if
    the value is not allowed."""
    ctx = _lock(table_id, with_game=False)
    _require_host(ctx, user)
    _require_lobby(ctx)
    if name not in SETTABLE_OPTIONS and name not in game_table_options(ctx.table.game):
        raise TableError("bad_frame", f"unknown option {name!r}")
    if ctx.table.session is not None and name != "visibility":
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
    work = _Work()
    _table_changed(ctx, work)
    work.commit()


@transaction.atomic
def table_start(*, table_id: int, user: User | None) -> None:
    """Host: start the 3-second countdown (the table must be Ready); the deal follows in
    :func:`table_begin`. With ``GAMES_COUNTDOWN_SECONDS = 0`` game 1 is dealt at once."""
    ctx = _lock(table_id)
    _require_host(ctx, user)
    if ctx.table.status == Table.Status.WAITING:
        raise TableError("not_ready", "every seat must be filled and every player ready")
    if ctx.table.status != Table.Status.READY or ctx.table.starts_at is not None:
        raise TableError("bad_state", f"the table is {ctx.table.status}")
    work = _Work()
    delay = countdown_seconds()
    now = clock.now_datetime()
    ctx.table.starts_at = now + timedelta(seconds=delay)
    ctx.table.save(update_fields=["starts_at"])
    _table_changed(ctx, work)
    work.send(
        realtime.table_group(ctx.table.pk),
        {"type": "countdown", "starts_at": realtime.ts(ctx.table.starts_at), "seconds": delay},
    )
    work.timer(TASK_TABLE_BEGIN, [ctx.table.pk, ctx.table.version], delay)
    work.commit()


@transaction.atomic
def table_begin(*, table_id: int, version: int) -> bool:
    """The countdown ended (task): deal game 1 unless the lobby changed since (``version``)."""
    ctx = _lock(table_id)
    table = ctx.table
    if table.version != version or table.status != Table.Status.READY or table.starts_at is None:
        return False
    if table.starts_at > clock.now_datetime() + timedelta(seconds=0.5):
        return False  # an early timer; the right one is still scheduled
    work = _Work()
    table.status = Table.Status.IN_PROGRESS
    table.starts_at = None
    table.save(update_fields=["starts_at"])
    _deal(ctx, work)
    work.commit()
    return True


@transaction.atomic
def game_next(*, table_id: int, user: User | None = None, after_game: int | None = None) -> bool:
    """Deal the next game of the session after one ended: a seated player (``user``) or the
    automatic timer (``after_game``: the number of the game that ended). Idempotent: returns
    False when that game is not the latest finished one any more."""
    ctx = _lock(table_id)
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
    work = _Work()
    if _open_absent_seats(ctx, work):  # no game for a player who left (docs/protocol.md)
        work.commit()
        return False
    _deal(ctx, work)
    work.commit()
    return True


# --------------------------------------------------------------------------- people who leave
def _absent(seat: Seat) -> bool:
    """A person's seat the house plays now: they sent ``leave_table``, or their last socket
    closed and the disconnect hold passed (a disqualified bot is not a person)."""
    return seat.kind == Seat.Kind.HUMAN and seat.auto and not seat.disqualified


def _absent_move(engine: EngineGame, state: Any, seat: int) -> dict[str, Any]:
    """What the house AI plays for an absent person (medium strength; the engine's timeout
    policy for a game without a house AI), marked ``auto``."""
    house = HOUSE_AI.get(engine.name)
    if house is None:
        return dict(engine.timeout_action(state, seat))
    return {**house(state, seat, "medium"), "auto": True}


def _open_absent_seats(ctx: _Ctx, work: _Work) -> bool:
    """Before the next deal (the table is locked, its last game over): no game is dealt to a
    person who is absent. Their seats open and the table goes back to the lobby, keeping the
    session, so the host can seat someone and start the next game; when the host was one of
    them the first present person becomes host. When no person is left at a table that had
    people, the session ends. Returns True when nothing may be dealt now."""
    absent = [s for s in ctx.seats if _absent(s)]
    if not absent:
        return False
    present = [s for s in ctx.seats if s.kind == Seat.Kind.HUMAN and not s.auto]
    if not present:
        _end_session(ctx, work, reason="abandoned")
        return True
    group = realtime.table_group(ctx.table.pk)
    host_left = any(s.user_id == ctx.table.owner_id for s in absent)
    for seat in absent:
        user, name, index = seat.user, _user_name(seat.user), seat.index
        _empty_seat(seat)
        work.send(group, {"type": "player_left", "seat": index, "name": name, "reason": "left"})
        _system_message(ctx, work, "seat_opened", {"name": name, "seat": index + 1})
        if user is not None:
            work.rebinds.append(realtime.user_group(ctx.table.pk, user.pk))
    if host_left:
        heir = present[0]
        assert heir.user is not None
        ctx.table.owner = heir.user
        ctx.table.save(update_fields=["owner"])
        _system_message(ctx, work, "host_changed", {"name": _user_name(heir.user)})
        # every socket re-reads its role (is_host) from a fresh snapshot
        work.rebinds.extend(
            realtime.user_group(ctx.table.pk, s.user_id) for s in present if s.user_id is not None
        )
    ctx.table.status = Table.Status.WAITING
    ctx.table.next_game_at = None
    ctx.table.save(update_fields=["next_game_at"])
    _refresh_lobby_status(ctx)
    _table_changed(ctx, work)
    return True


def _end_session(ctx: _Ctx, work: _Work, *, reason: str) -> None:
    """End the table's session now (``reason``: ``host`` or ``abandoned``): a running game is
    aborted (not counted anywhere), the games played so far stand, the table is completed."""
    now = clock.now_datetime()
    game = ctx.game
    if game is not None and game.status == Game.Status.RUNNING:
        game.status = Game.Status.ABORTED
        game.ended_at = now
        game.save(update_fields=["status", "ended_at"])
    table = ctx.table
    table.status = Table.Status.COMPLETED
    table.next_game_at = None
    table.starts_at = None
    group = realtime.table_group(table.pk)
    _system_message(ctx, work, f"session_ended_{reason}", {})
    if table.session is not None:
        engine = _engine(table.game)
        table.session = {**table.session, "finished": True, "ended": reason}
        summary = realtime.session_json(table.session, engine)
        names = _seat_names(ctx)
        work.send(group, {"type": "session_ended", **summary, "names": names, "reason": reason})
        best = summary["ranking"][0] if summary["ranking"] and summary["played"] else None
        if best is not None:
            _system_message(
                ctx, work, "session_over", {"name": names[best], "points": summary["totals"][best]}
            )
    table.save(update_fields=["session", "next_game_at", "starts_at"])
    _table_changed(ctx, work)


@transaction.atomic
def table_end(*, table_id: int, user: User | None) -> None:
    """Host: end the session now (the ``end_session`` frame), at any time before it is over.
    A running game is aborted; the table is completed as after its last game."""
    ctx = _lock(table_id)
    _require_host(ctx, user)
    if ctx.table.status == Table.Status.COMPLETED:
        raise TableError("bad_state", "the session is over")
    work = _Work()
    _end_session(ctx, work, reason="host")
    work.commit()


def _mark_absent(ctx: _Ctx, game: Game) -> None:
    """A game that ended while the house played a person's seat: the seat's entry in
    ``Game.players`` gets ``absent``: ``abandoned`` for the first such game of that person at
    this table (it counts, and is shown), ``absent`` for any later one (left out of their
    statistics)."""
    seats = [s for s in ctx.seats if _absent(s)]
    if not seats or not isinstance(game.players, list):
        return
    players = [dict(p) if isinstance(p, dict) else p for p in game.players]
    for seat in seats:
        entry = players[seat.index] if seat.index < len(players) else None
        if not isinstance(entry, dict) or entry.get("user_id") != seat.user_id:
            continue
        earlier = (
            Game.objects.filter(
                table_id=ctx.table.pk,
                players__contains=[{"user_id": seat.user_id, "absent": "abandoned"}],
            )
            .exclude(pk=game.pk)
            .exists()
        )
        entry["absent"] = "absent" if earlier else "abandoned"
    game.players = players


# --------------------------------------------------------------------------- the game
def _new_seed() -> int:
    """A new game's RNG seed: 63 random bits from the OS (the suite makes them reproducible)."""
    return secrets.randbits(63)


def _session(ctx: _Ctx, engine: EngineGame) -> dict[str, Any]:
    if ctx.table.session is None:
        opts = ctx.table.options
        ops: Any = engine
        ctx.table.session = ops.session_start(
            ctx.table.seat_count,
            int(opts.get("session_length", 16)),
            {  # the game's own table options (models.game_table_options) and the turn time
                **{k: opts.get(k, v) for k, v in game_table_options(engine.name).items()},
                "turn_seconds": int(opts.get("turn_seconds", 30)),
            },
        )
    return dict(ctx.table.session)


def _audiences(ctx: _Ctx) -> list[tuple[str, int | None]]:
    """(group, seat or None for spectators) for every audience of a game frame."""
    table_id = ctx.table.pk
    out: list[tuple[str, int | None]] = [
        (realtime.seat_group(table_id, s.index), s.index)
        for s in ctx.seats
        if s.kind == Seat.Kind.HUMAN
    ]
    out.append((realtime.spectators_group(table_id), None))
    return out


def _events_for(events: Sequence[Event], seat: int | None) -> list[Frame]:
    return [e.to_json() for e in events if e.to is None or (seat is not None and e.to == seat)]


def _deal(ctx: _Ctx, work: _Work) -> None:
    """Deal the session's next game (the table is locked and in progress)."""
    engine = _engine(ctx.table.game)
    ops: Any = engine
    session = _session(ctx, engine)
    config = dict(ops.session_next_config(session))
    now = clock.now()
    config["started_at"] = now
    seed = _new_seed()
    state = engine.new_game(config, seed)
    number = (ctx.game.number + 1) if ctx.game is not None else 1
    game = Game.objects.create(
        table=ctx.table,
        number=number,
        engine=engine.name,
        rules_version=engine.rules_version,
        seed=seed,
        config=config,
        state=engine.state_to_json(state),
        players=[realtime.player_snapshot(s) for s in ctx.seats],
    )
    ctx.game = game
    ctx.table.next_game_at = None
    ctx.table.save(update_fields=["session", "next_game_at", "status"])
    events = engine.initial_events(state)
    games_total = int(session["games"])
    for group, seat in _audiences(ctx):
        work.send(
            group,
            {
                "type": "game_started",
                "game": number,
                "games": games_total,
                "version": 0,
                "state": engine.view(state, seat),
                "events": _events_for(events, seat),
            },
        )
    _system_message(ctx, work, "game_dealt", {"game": number, "games": games_total})
    _table_changed(ctx, work)
    if engine.result(state) is not None:
        _finish(ctx, work, engine, state)
        game.save()
        return
    _notify(ctx, work, engine, state)
    _arm_timers(ctx, work, state=state, save=False)
    game.save(update_fields=["notified"])


def _notify(ctx: _Ctx, work: _Work, engine: EngineGame, state: Any) -> None:
    """Seed 004 notification state: each pending human is sent ``your_turn`` exactly once per
    turn (the game version); the map is persisted on the game row by the caller's save."""
    game = ctx.game
    assert game is not None
    status = engine.round_status(state)
    notified = game.notified if game.notified.get("version") == game.version else {}
    seats_notified: dict[str, str] = dict(notified.get("seats", {}))
    for seat_index in status.pending:
        seat = ctx.seats[seat_index]
        if seat.kind != Seat.Kind.HUMAN or seat.auto or str(seat_index) in seats_notified:
            continue
        seats_notified[str(seat_index)] = clock.now_datetime().isoformat()
        work.send(
            realtime.seat_group(ctx.table.pk, seat_index),
            realtime.your_turn_frame(engine, game, state, seat_index),
        )
    game.notified = {
        "version": game.version,
        "round": status.round_index,
        "seats": seats_notified,
        **({"timer": game.notified["timer"]} if "timer" in game.notified else {}),
    }


def _arm_timers(
    ctx: _Ctx, work: _Work, *, state: Any = None, force: bool = False, save: bool = True
) -> None:
    """Schedule what the pending turn needs: a bot/auto move, or the human's turn timeout.

    Turn timeouts form **one chain per game** instead of one Celery task per move: the game
    row remembers the armed timer (``notified["timer"] = {"version", "at"}``). While that
    timer fires no later than the new deadline nothing is scheduled (deadlines only move
    later as the game goes on); when it fires on a game that moved on, :func:`game_timeout`
    re-arms it for the current turn. ``force`` (after a restart) schedules anyway. ``save``
    writes the record (callers that save the game row themselves pass False)."""
    game = ctx.game
    if game is None or game.status != Game.Status.RUNNING:
        return
    engine = _engine(game.engine)
    if state is None:
        state = engine.state_from_json(game.state)
    status = engine.round_status(state)
    for seat_index in status.pending:
        seat = ctx.seats[seat_index]
        if seat.kind != Seat.Kind.HUMAN or seat.auto or seat.disqualified:
            # the game's shard queue: all its bot turns run in one worker process
            work.timer(
                TASK_SEAT_AUTOPLAY,
                [game.pk, game.version],
                bot_delay(),
                realtime.bot_queue(game.pk),
            )
    _arm_turn_timeout(ctx, work, status, force=force, save=save)


def _arm_turn_timeout(
    ctx: _Ctx, work: _Work, status: Any, *, force: bool = False, save: bool = True
) -> None:
    """The human part of :func:`_arm_timers`: keep one turn timer armed no later than the
    pending human's deadline."""
    game = ctx.game
    assert game is not None
    humans = [
        i
        for i in status.pending
        if ctx.seats[i].kind == Seat.Kind.HUMAN
        and not ctx.seats[i].auto
        and not ctx.seats[i].disqualified
    ]
    if not humans or status.check_at is None:
        return
    armed = game.notified.get("timer")
    if not force and armed is not None and float(armed["at"]) <= status.check_at:
        return  # the armed timer fires first and re-arms for this turn
    _arm_timeout(game, work, status.check_at, clock.now())
    if save:
        game.save(update_fields=["notified"])


def _arm_timeout(game: Game, work: _Work, at: float, now: float) -> None:
    """Schedule the turn timeout of ``game`` at its current version for ``at`` and remember
    it on the row (saved by the caller)."""
    work.timer(TASK_TURN_TIMEOUT, [game.pk, game.version], at - now)
    game.notified = {**game.notified, "timer": {"version": game.version, "at": at}}


def _stats(engine: EngineGame, state: Any) -> Frame:
    record = engine.record(state)
    actions = record.get("actions", [])
    players = int(record["config"]["players"])
    cards_played = [0] * players
    longest: Frame | None = None
    label = realtime.COMBO_NAME.get(engine.name)
    for action in actions:
        if action.get("type") != "play":
            continue
        cards = list(action["cards"])
        cards_played[int(action["seat"])] += len(cards)
        if longest is None or len(cards) > len(longest["cards"]):
            longest = {
                "seat": action["seat"],
                "cards": cards,
                "combo": label(cards) if label else None,
            }
    view = engine.view(state, None)
    return {
        "rounds": int(view.get("round", 0)) + 1,
        "actions": len(actions),
        # None for games that play no cards from a hand (stud, diu's claims): nothing to count
        "cards_played": cards_played if any(a.get("type") == "play" for a in actions) else None,
        "longest": longest,
    }


def _finish(ctx: _Ctx, work: _Work, engine: EngineGame, state: Any) -> None:
    """Archive a finished game, record it in the session, announce it, schedule what's next."""
    game = ctx.game
    assert game is not None
    ops: Any = engine
    result = engine.result(state)
    assert result is not None
    game.status = Game.Status.FINISHED
    game.ended_at = clock.now_datetime()
    game.result = result
    game.scores = list(result.get("scores") or [])
    game.winner_seat = result.get("winner")
    stats = _stats(engine, state)
    game.total_rounds = stats["rounds"]
    game.game_log = engine.record(state)
    _mark_absent(ctx, game)
    session = ops.session_record(_session(ctx, engine), result)
    ctx.table.session = session
    summary = realtime.session_json(session, engine)
    names = _seat_names(ctx)
    group = realtime.table_group(ctx.table.pk)
    work.send(
        group,
        {
            "type": "game_ended",
            "game": game.number,
            "result": result,
            "stats": stats,
            "session": summary,
        },
    )
    winner = result.get("winner")
    winner_name = names[winner] if isinstance(winner, int) and winner < len(names) else "?"
    shown = (result.get("shown") or {}).get(str(winner))  # a showdown game: the winning hand
    own = _game_line(engine, "result", result, names)  # a game's own words (diu)
    if own is not None:
        code, params, text = own
        _system_message(
            ctx, work, code, {**params, "game": game.number}, f"Game {game.number}: {text}"
        )
    elif result.get("instant_win"):
        _system_message(
            ctx,
            work,
            "game_won_instant",
            {"name": winner_name, "game": game.number, "instant": str(result["instant_win"])},
        )
    elif isinstance(shown, dict) and shown.get("hand"):
        hand = str(shown["hand"])
        _system_message(
            ctx,
            work,
            "game_won_hand",
            {"name": winner_name, "game": game.number, "hand": hand},
            realtime.system_text(
                "game_won_hand",
                {"name": winner_name, "game": game.number, "hand": hand.replace("_", " ")},
            ),
        )
    else:
        _system_message(ctx, work, "game_won", {"name": winner_name, "game": game.number})
    if summary["finished"]:
        ctx.table.status = Table.Status.COMPLETED
        ctx.table.next_game_at = None
        work.send(group, {"type": "session_ended", **summary, "names": names})
        best = summary["ranking"][0] if summary["ranking"] else None
        if best is not None:
            _system_message(
                ctx,
                work,
                "session_over",
                {"name": names[best], "points": summary["totals"][best]},
            )
            if ctx.table.visibility == Table.Visibility.PUBLIC:
                _lobby_message(
                    work,
                    "lobby_session_won",
                    {"name": names[best], "table": ctx.table.name, "code": ctx.table.code},
                )
    else:
        delay = next_game_seconds()
        if ctx.table.mode == Mode.ARENA:  # nobody deals an arena table: games follow quickly
            delay = _setting("GAMES_ARENA_NEXT_GAME_SECONDS", 5)
        ctx.table.next_game_at = clock.now_datetime() + timedelta(seconds=delay)
        work.timer(TASK_NEXT_GAME, [ctx.table.pk, game.number], delay)
    ctx.table.save(update_fields=["session", "status", "next_game_at"])
    _table_changed(ctx, work)
    work.timer(TASK_GAME_ARCHIVE, [game.pk], 0)  # games.history.game_archive, on commit
    for hook in _game_finished_hooks():  # the bots app: close sandboxes, rate arena games
        hook(game=game, table=ctx.table)


def _apply(
    ctx: _Ctx,
    work: _Work,
    *,
    seat: int,
    action: Mapping[str, Any],
    actor: str,
    reason: str | None = None,
    bot_record: Mapping[str, Any] | None = None,
) -> int:
    """Apply one action to the locked running game; append it, save, queue frames/timers.
    ``bot_record``: a bot seat's owner-only move record, stored on the action row."""
    game = ctx.game
    assert game is not None
    engine = _engine(game.engine)
    state = engine.state_from_json(game.state)
    payload = {**action, "seat": seat, "at": clock.now()}
    state, events = engine.apply(state, payload)
    game.version += 1
    row = Action(
        game=game, seq=game.version, seat=seat, payload=payload, actor=actor, bot_record=bot_record
    )
    game.state = engine.state_to_json(state)
    if reason is not None:
        shown = {k: v for k, v in payload.items() if k in ("type", "cards", "card")}
        work.send(
            realtime.table_group(ctx.table.pk),
            {
                "type": "turn_timeout",
                "game": game.number,
                "version": game.version,
                "seat": seat,
                "action": shown,
                "reason": reason,
            },
        )
    for group, audience in _audiences(ctx):
        work.send(
            group,
            {
                "type": "game_state_update",
                "game": game.number,
                "version": game.version,
                "events": _events_for(events, audience),
                "state": engine.view(state, audience),
            },
        )
    for event in events:
        if event.type == "cut" and event.to is None:
            names = _seat_names(ctx)
            _system_message(
                ctx,
                work,
                "cut",
                {
                    "name": names[event.data["seat"]],
                    "victim": names[event.data["victim"]],
                    "n": event.data["points"],
                },
            )
        elif event.type == "round_ended":
            names = _seat_names(ctx)
            _system_message(
                ctx,
                work,
                "round_won",
                {"name": names[event.data["winner"]], "round": event.data["round"] + 1},
            )
        elif event.to is None and hasattr(engine, "system_line"):  # a game's own (diu)
            names = _seat_names(ctx)
            own = _game_line(engine, event.type, event.data, names)
            if own is not None:
                _system_message(ctx, work, *own)
    if engine.result(state) is not None:
        row.save()
        _finish(ctx, work, engine, state)
        game.save()
    else:
        _notify(ctx, work, engine, state)
        _arm_timers(ctx, work, state=state, save=False)
        _save_move(game, row)
    return game.version


_MOVE_SAVED = ("state", "version", "notified")


def _save_move(game: Game, row: Action) -> None:
    """Insert the action ``row`` and save the game's state, version and ``notified`` in one
    statement (what ``row.save()`` plus ``game.save(update_fields=...)`` do, without the
    ORM's query building: a move's second-largest cost after the lock)."""
    sql, fields = _save_move_sql()
    inserted = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    updated = [
        _field(Game, name).get_db_prep_save(getattr(game, name), connection) for name in _MOVE_SAVED
    ]
    with _cursor() as cursor:
        cursor.execute(sql, [*inserted, *updated, game.pk])


@functools.cache
def _save_move_sql() -> tuple[str, list[Any]]:
    q = _quote
    fields = [f for f in Action._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sets = ", ".join(f"{q(_field(Game, n).column)} = %s" for n in _MOVE_SAVED)
    sql = (
        f"WITH appended AS (INSERT INTO {q(Action._meta.db_table)} ({columns}) VALUES ({marks}))"
        f" UPDATE {q(Game._meta.db_table)} SET {sets} WHERE {q(_field(Game, 'id').column)} = %s"
    )
    return sql, fields


def _running_game(ctx: _Ctx) -> Game:
    if ctx.game is None or ctx.game.status != Game.Status.RUNNING:
        raise TableError("no_game", "no game is running")
    return ctx.game


@transaction.atomic
def game_play(*, table_id: int, user: User | None, version: int, action: Mapping[str, Any]) -> int:
    """A player's move: any engine action, e.g. ``{"type": "play", "cards": [...]}`` or
    ``{"type": "pass"}`` (Tiến Lên), ``{"type": "call"}`` (stud). Its fields pass through to the
    engine, which validates them; ``seat``, ``at`` and ``auto`` are the server's to set.

    ``version`` is the game version the client saw; a different one raises ``stale_version``
    (with the current ``version``) and changes nothing. Engine rejections keep their codes.
    Returns the new game version."""
    ctx = _lock(table_id)
    mine = ctx.seat_of(user)
    if mine is None:
        raise TableError("not_seated", "you do not sit at this table")
    game = _running_game(ctx)
    if version != game.version:
        raise TableError("stale_version", "the game has moved on", version=game.version)
    work = _Work()
    move = {k: v for k, v in action.items() if k not in ("seat", "at", "auto")}
    new_version = _apply(ctx, work, seat=mine.index, action=move, actor=Action.Actor.HUMAN)
    if mine.auto and not mine.disqualified:  # playing yourself means you are back
        mine.auto = False
        mine.away_since = None
        mine.save(update_fields=["auto", "away_since"])
        _table_changed(ctx, work)
    work.commit()
    return new_version


@transaction.atomic
def game_timeout(*, game_id: int, version: int) -> bool:
    """Turn timer (task): if the game is still at ``version`` and the deadline passed, the
    pending seat acts with the engine's ``timeout_action``. Late or duplicate timers: False."""
    table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    ctx = _lock(table_id)
    game = ctx.game
    if game is None or game.pk != game_id or game.status != Game.Status.RUNNING:
        return False
    armed = game.notified.get("timer")
    chained = armed is not None and armed.get("version") == version
    engine = _engine(game.engine)
    state = engine.state_from_json(game.state)
    status = engine.round_status(state)
    work = _Work()
    if chained:  # this is the game's armed timer and it has fired: forget it
        game.notified = {k: v for k, v in game.notified.items() if k != "timer"}
    if game.version != version or not status.pending:
        if chained:  # the game moved on while it waited: re-arm for the current turn
            _arm_turn_timeout(ctx, work, status, save=False)
            game.save(update_fields=["notified"])
            work.commit()
        return False
    if status.check_at is not None and status.check_at > clock.now() + 0.25:
        _arm_timeout(game, work, status.check_at, clock.now())
        game.save(update_fields=["notified"])
        work.commit()
        return False
    seat = status.pending[0]
    action = engine.timeout_action(state, seat)
    _apply(ctx, work, seat=seat, action=action, actor=Action.Actor.TIMEOUT, reason="timeout")
    work.commit()
    return True


def bot_queue(game_id: int) -> str:
    """The shard queue of game ``game_id``'s bot turns (``bots.<n>``; see
    :func:`games.realtime.bot_queue`): whoever sends work for that game's bot sandboxes
    (the bots app closing them at the end) sends it there."""
    return realtime.bot_queue(game_id)


def house_bot_player(*, seat: Seat, game: Game, engine: EngineGame, state: Any) -> dict[str, Any]:
    """**Extension point** for seats of kind ``bot`` (setting ``GAMES_BOT_PLAYER``).

    Called by the ``games.seat_autoplay`` task on the ``bots`` queue, *outside* the table lock,
    with the seat (``seat.bot_version`` holds the code), the game row and the engine state. It
    returns an engine action ``{"type": "play", "cards": [...]}`` or ``{"type": "pass"}``,
    optionally with the move's owner-only record under ``"bot_record"``; a raised exception or
    an illegal action counts a strike (3 disqualify the bot), its ``code`` is the strike reason
    and its ``record`` (if any) is stored too. The project points ``GAMES_BOT_PLAYER`` at
    ``bots.services.bot_seat_player`` (the version's code in the sandbox); this house player
    (medium AI, moves marked ``bot``) is the fallback that tests may choose.
    """
    return HOUSE_AI[engine.name](state, seat.index, "medium")


def _bot_player() -> Callable[..., dict[str, Any]]:
    path = getattr(settings, "GAMES_BOT_PLAYER", "games.services.house_bot_player")
    player: Callable[..., dict[str, Any]] = import_string(path)
    return player


def _game_finished_hooks() -> list[Callable[..., None]]:
    """The functions named by ``GAMES_ON_GAME_FINISHED`` (the bots app's, by default): each is
    called as ``hook(game=game, table=table)`` inside the transaction that finishes a game, so
    it can enqueue its own work with ``transaction.on_commit``."""
    return [import_string(path) for path in getattr(settings, "GAMES_ON_GAME_FINISHED", ())]


def game_autoplay(*, game_id: int, version: int) -> bool:
    """House AI, bot, away or disqualified seat to act (task, ``bots`` queue): choose the move
    outside the lock, then apply it if the game is still at ``version``.

    A bot seat's move comes from ``GAMES_BOT_PLAYER``; a failure (timeout, exception, illegal
    or malformed return) is an auto-pass and a strike whose reason is stored with the move's
    owner-only record on :attr:`Action.bot_record`."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING or game.version != version:
        return False
    engine = _engine(game.engine)
    state = engine.state_from_json(game.state)
    status = engine.round_status(state)
    if not status.pending:
        return False
    seat_index = status.pending[0]
    seat = Seat.objects.select_related("bot_version").get(table_id=game.table_id, index=seat_index)
    move: dict[str, Any] | None = None
    actor = Action.Actor.TIMEOUT
    strike: str | None = None
    record: dict[str, Any] | None = None
    if _absent(seat):
        move = _absent_move(engine, state, seat_index)
    elif seat.auto or seat.disqualified:
        move = engine.timeout_action(state, seat_index)
    elif seat.kind == Seat.Kind.HOUSE:
        move = HOUSE_AI[engine.name](state, seat_index, seat.house_level or "medium")
        actor = Action.Actor.HOUSE
    elif seat.kind == Seat.Kind.BOT:
        try:
            chosen = dict(_bot_player()(seat=seat, game=game, engine=engine, state=state))
            record = chosen.pop("bot_record", None)
            move = {**chosen, "seat": seat_index}
            ops: Any = engine
            if hasattr(ops, "check"):
                ops.check(state, move)
            actor = Action.Actor.BOT
        except Exception as exc:
            strike = str(getattr(exc, "code", None) or "exception")
            if isinstance(exc, ValueError) and not strike.startswith("illegal:"):
                strike = f"illegal:{strike}"  # the engine refused the returned move
            record = dict(getattr(exc, "record", None) or record or {})
            record.setdefault("error_message", str(exc))
            logger.info("bot move failed", extra={"seat": seat_index, "error": strike})
            move = engine.timeout_action(state, seat_index)
    else:
        return False  # a human is back: their turn timer applies
    if seat.kind == Seat.Kind.BOT and not (seat.auto or seat.disqualified):
        record = _bot_record(record, move=move, strike=strike, seat=seat)
    return _autoplay_apply(
        table_id=game.table_id,
        game_id=game_id,
        version=version,
        seat_index=seat_index,
        move=move,
        actor=actor,
        strike=strike,
        bot_record=record,
    )


def _bot_record(
    record: Mapping[str, Any] | None, *, move: Mapping[str, Any], strike: str | None, seat: Seat
) -> dict[str, Any]:
    """The stored per-move record of a bot seat: the move applied, the strike reason (None for
    a good move) and what the bot player reported (time used, console output, error)."""
    out = dict(record or {})
    out["move"] = {k: v for k, v in move.items() if k in ("type", "cards", "card", "claim")}
    out["strike"] = strike
    out["bot_version_id"] = seat.bot_version_id
    return out


@transaction.atomic
def _autoplay_apply(
    *,
    table_id: int,
    game_id: int,
    version: int,
    seat_index: int,
    move: Mapping[str, Any],
    actor: str,
    strike: str | None = None,
    bot_record: Mapping[str, Any] | None = None,
) -> bool:
    ctx = _lock(table_id)
    game = ctx.game
    if game is None or game.pk != game_id or game.status != Game.Status.RUNNING:
        return False
    if game.version != version:
        return False
    work = _Work()
    seat = ctx.seats[seat_index]
    record = dict(bot_record) if bot_record is not None else None
    if strike is not None:
        seat.strikes += 1
        if seat.strikes >= int(getattr(settings, "GAMES_BOT_MAX_STRIKES", 3)):
            seat.disqualified = True
            seat.auto = True
            _system_message(
                ctx,
                work,
                "bot_disqualified",
                {"seat": seat_index + 1, "strikes": seat.strikes, "reason": str(strike)},
            )
        seat.save(update_fields=["strikes", "disqualified", "auto"])
        _table_changed(ctx, work)
        if record is not None:
            record["strikes"] = seat.strikes
            record["disqualified"] = seat.disqualified
    reason = "auto" if actor == Action.Actor.TIMEOUT else None
    if seat.kind == Seat.Kind.HUMAN and seat.away_since is not None:
        reason = "disconnected"
    clean = {k: v for k, v in move.items() if k in ("type", "cards", "card", "claim", "auto")}
    seq = _apply(
        ctx, work, seat=seat_index, action=clean, actor=actor, reason=reason, bot_record=record
    )
    if record is not None:
        _send_bot_record(ctx, work, game, seat, seq, record)
    work.commit()
    return True


def _send_bot_record(
    ctx: _Ctx, work: _Work, game: Game, seat: Seat, seq: int, record: Mapping[str, Any]
) -> None:
    """The ``bot_record`` frame, to the bot owner's sockets at this table only (their
    per-user group): opponents, spectators and other bots never receive it. The owner comes
    with the locked seat (:func:`_lock` loads the version's bot and its owner)."""
    if seat.bot_version_id is None or seat.bot_version is None:
        return
    owner_id = seat.bot_version.bot.owner_id
    work.send(
        realtime.user_group(ctx.table.pk, int(owner_id)),
        realtime.bot_record_frame(
            game=game.number,
            seq=seq,
            seat=seat.index,
            bot_version_id=seat.bot_version_id,
            record=record,
        ),
    )


#: At most this many of a game's stored records are re-sent to a (re)connecting owner (the
#: table page's panel keeps as many).
BOT_RECORDS_RESENT = 200


def game_bot_records(*, table_id: int, user: User | None) -> list[Frame]:
    """The ``bot_record`` frames of ``user``'s bots' moves in the table's current (latest)
    game, oldest first (the last :data:`BOT_RECORDS_RESENT`): what the owner's socket missed
    before it connected. Only the owner of the version that made a move gets its record (read
    from the version rows, as for the live frame); anyone else, and anonymous users, get []."""
    if user is None or not user.is_authenticated:
        return []
    game = Game.objects.filter(table_id=table_id).order_by("-number").only("pk", "number").first()
    if game is None:
        return []
    rows = list(
        Action.objects.filter(game=game, bot_record__isnull=False)
        .order_by("-seq")
        .values_list("seq", "seat", "bot_record")
    )
    versions = {
        r["bot_version_id"]
        for _, _, r in rows
        if isinstance(r, dict) and isinstance(r.get("bot_version_id"), int)
    }
    if not versions:
        return []
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    mine = set(
        version_model.objects.filter(pk__in=versions, bot__owner_id=user.pk).values_list(
            "pk", flat=True
        )
    )
    frames = [
        realtime.bot_record_frame(
            game=game.number, seq=seq, seat=seat, bot_version_id=r["bot_version_id"], record=r
        )
        for seq, seat, r in rows
        if isinstance(r, dict) and r.get("bot_version_id") in mine
    ][:BOT_RECORDS_RESENT]
    frames.reverse()
    return frames


# --------------------------------------------------------------------------- presence
@transaction.atomic
def table_presence(
    *, table_id: int, user: User | None, counted_seat: int | None, connected: bool
) -> int | None:
    """Keep a socket's presence right: ``counted_seat`` is the seat this socket was counted
    at (None: not counted). Returns the seat it is counted at now (None when disconnecting or
    not seated). Coming back clears an away/auto seat; the last socket of a seated player
    closing during a game starts the disconnect hold (seed §5.2)."""
    if user is None or not user.is_authenticated:
        return None
    ctx = _lock(table_id)
    mine = ctx.seat_of(user) if connected else None
    new_seat = mine.index if mine is not None else None
    if counted_seat == new_seat:
        return new_seat
    work = _Work()
    running = ctx.game is not None and ctx.table.status == Table.Status.IN_PROGRESS
    if counted_seat is not None:
        old = ctx.seats[counted_seat] if counted_seat < len(ctx.seats) else None
        if old is not None and old.kind == Seat.Kind.HUMAN and old.user_id == user.pk:
            old.connections = max(0, old.connections - 1)
            if old.connections == 0 and running:
                old.away_since = clock.now_datetime()
                work.send(
                    realtime.table_group(ctx.table.pk),
                    {
                        "type": "player_left",
                        "seat": old.index,
                        "name": user.public_name,
                        "reason": "disconnected",
                    },
                )
                work.timer(
                    TASK_SEAT_HOLD,
                    [ctx.table.pk, old.index, old.away_since.isoformat()],
                    hold_seconds(),
                )
            old.save(update_fields=["connections", "away_since"])
            _table_changed(ctx, work)
    if mine is not None:
        mine.connections += 1
        back = mine.away_since is not None or (mine.auto and not mine.disqualified)
        mine.away_since = None
        if back and running:
            mine.auto = False if not mine.disqualified else mine.auto
            work.send(
                realtime.table_group(ctx.table.pk),
                {
                    "type": "player_joined",
                    "seat": mine.index,
                    "name": user.public_name,
                    "kind": "human",
                },
            )
        mine.save(update_fields=["connections", "away_since", "auto"])
        _table_changed(ctx, work)
        if running:
            _arm_timers(ctx, work)
    work.commit()
    return new_seat


@transaction.atomic
def seat_hold_expired(*, table_id: int, seat: int, since: str) -> bool:
    """Disconnect hold over (task): if the player is still away since ``since``, the house AI
    plays their seat to the end of the current game (at once when it is their turn); no later
    game is dealt to them (:func:`_open_absent_seats`)."""
    ctx = _lock(table_id)
    target = ctx.seats[seat] if seat < len(ctx.seats) else None
    if target is None or target.away_since is None or target.away_since.isoformat() != since:
        return False
    if target.auto or ctx.table.status != Table.Status.IN_PROGRESS:
        return False  # a table back in the lobby (a seat opened) keeps a lobby's rules
    work = _Work()
    target.auto = True
    target.save(update_fields=["auto"])
    _table_changed(ctx, work)
    name = _user_name(target.user) or f"Seat {seat + 1}"
    _system_message(ctx, work, "seat_away", {"name": name, "seat": seat + 1})
    game = ctx.game
    if game is not None and game.status == Game.Status.RUNNING:
        engine = _engine(game.engine)
        state = engine.state_from_json(game.state)
        if seat in engine.round_status(state).pending:
            action = _absent_move(engine, state, seat)
            _apply(
                ctx,
                work,
                seat=seat,
                action=action,
                actor=Action.Actor.TIMEOUT,
                reason="disconnected",
            )
    work.commit()
    return True


# --------------------------------------------------------------------------- timers after restarts
@transaction.atomic
def timers_rearm(*, table_id: int) -> None:
    """Schedule every timer a table needs now (a deadline already passed fires at once):
    the pending turn, a countdown, the automatic next game. Duplicates are harmless: every
    task checks the version it was scheduled for."""
    ctx = _lock(table_id)
    work = _Work()
    now = clock.now_datetime()
    table = ctx.table
    if table.status == Table.Status.READY and table.starts_at is not None:
        delay = (table.starts_at - now).total_seconds()
        work.timer(TASK_TABLE_BEGIN, [table.pk, table.version], delay)
    elif table.status == Table.Status.IN_PROGRESS and ctx.game is not None:
        if ctx.game.status == Game.Status.RUNNING:
            _arm_timers(ctx, work, force=True)
        else:
            at = table.next_game_at or now
            work.timer(TASK_NEXT_GAME, [table.pk, ctx.game.number], (at - now).total_seconds())
    work.commit()


def timers_grace_seconds() -> float:
    """How late a timer may be before beat re-arms it (``GAMES_TIMERS_GRACE_SECONDS``)."""
    return _setting("GAMES_TIMERS_GRACE_SECONDS", 2.0)


def timers_resume(*, overdue_by: float | None = None) -> int:
    """Re-arm the timers of live tables; returns how many tables were re-armed.

    ``overdue_by=None`` (``manage.py games_resume_timers``): every live table. A number (beat's
    ``games.timers_heal``, every few seconds): only tables where something should have happened
    more than ``overdue_by`` seconds ago and did not, because the process that held its timer
    died: a turn timer that never fired (``notified["timer"]["at"]``), a countdown, a next game,
    or the pending turn of a house AI, bot or auto seat (due ``GAMES_BOT_DELAY_SECONDS`` after
    the last action, plus ``BOTS_MOVE_TIMEOUT_SECONDS`` for the move itself). Re-arming is
    idempotent: every task checks the version it was scheduled for, so a timer that was only
    late makes the copy do nothing."""
    if overdue_by is None:
        ids = set(
            Table.objects.filter(
                status__in=(Table.Status.READY, Table.Status.IN_PROGRESS)
            ).values_list("pk", flat=True)
        )
    else:
        ids = _overdue_tables(overdue_by)
    for table_id in sorted(ids):
        timers_rearm(table_id=table_id)
    return len(ids)


def _overdue_tables(grace: float) -> set[int]:
    """Live tables with a timer overdue by more than ``grace`` seconds (see timers_resume)."""
    now = clock.now()
    cutoff = clock.now_datetime() - timedelta(seconds=grace)
    ids: set[int] = set()
    ids.update(
        Table.objects.filter(status=Table.Status.READY, starts_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )
    ids.update(
        Table.objects.filter(status=Table.Status.IN_PROGRESS, next_game_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )
    running = Game.objects.filter(
        status=Game.Status.RUNNING, table__status=Table.Status.IN_PROGRESS
    )
    ids.update(
        running.filter(notified__timer__at__lt=now - grace).values_list("table_id", flat=True)
    )
    # automatic turns: games idle for longer than a bot turn takes, at tables with such a seat
    automatic = Seat.objects.filter(table=OuterRef("table_id")).filter(
        Q(kind__in=(Seat.Kind.BOT, Seat.Kind.HOUSE)) | Q(auto=True) | Q(disqualified=True)
    )
    last_at = (
        Action.objects.filter(game=OuterRef("pk"))
        .order_by("-seq")
        .annotate(at=Cast(KT("payload__at"), FloatField()))
        .values("at")[:1]
    )
    idle = now - grace - bot_delay() - _setting("BOTS_MOVE_TIMEOUT_SECONDS", 5)
    stalled = (
        running.filter(Exists(automatic))
        .annotate(
            last_at=Coalesce(
                Subquery(last_at, output_field=FloatField()),
                Cast(KT("config__started_at"), FloatField()),
            )
        )
        .filter(last_at__lt=idle)
        .exclude(table_id__in=ids)
    )
    for game in stalled.select_related("table").only("pk", "engine", "state", "table_id"):
        engine = _engine(game.engine)
        pending = engine.round_status(engine.state_from_json(game.state)).pending
        seats = {s.index: s for s in Seat.objects.filter(table_id=game.table_id, index__in=pending)}
        if any(s.kind != Seat.Kind.HUMAN or s.auto or s.disqualified for s in seats.values()):
            ids.add(game.table_id)
    return ids


# --------------------------------------------------------------------------- chat
@transaction.atomic
def chat_post(
    *, user: User | None, text: str, table_id: int | None = None, room: str | None = None
) -> ChatMessage:
    """Post a chat line: in the lobby (no table), or at a table in ``table`` (players) or
    ``spectators`` (everyone else). The raw text is stored (never HTML; clients escape it)."""
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in to chat")
    if not isinstance(text, str) or not text.strip():
        raise TableError("empty_message", "say something")
    text = text.strip()
    if len(text) > MAX_CHAT_LENGTH:  # code points: an emoji is 1 (or a few), never half of one
        raise TableError("message_too_long", f"at most {MAX_CHAT_LENGTH} characters")
    if "\x00" in text or any("\ud800" <= ch <= "\udfff" for ch in text):
        raise TableError("bad_frame", "text has a NUL or a lone surrogate")  # JSON allows both
    work = _Work()
    if table_id is None:
        msg = ChatMessage.objects.create(room=ChatMessage.Room.LOBBY, author=user, text=text)
        work.send(realtime.LOBBY_GROUP, realtime.message_frame(msg, user.public_name))
        work.commit()
        return msg
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("no_table", "no such table")
    seated = Seat.objects.filter(table_id=table_id, kind=Seat.Kind.HUMAN, user=user).exists()
    own_room = ChatMessage.Room.TABLE if seated else ChatMessage.Room.SPECTATORS
    room = room or own_room
    if room != own_room:
        raise TableError("wrong_room", f"you chat in the {own_room} room")
    msg = ChatMessage.objects.create(table=table, room=room, author=user, text=text)
    group = (
        realtime.table_group(table_id)
        if room == ChatMessage.Room.TABLE
        else realtime.spectators_group(table_id)
    )
    work.send(group, realtime.message_frame(msg, user.public_name))
    work.commit()
    return msg


__all__ = [
    "SETTABLE_OPTIONS",
    "SeatSpec",
    "TableError",
    "chat_post",
    "game_autoplay",
    "game_next",
    "game_play",
    "game_timeout",
    "house_bot_player",
    "seat_add_bot",
    "seat_hold_expired",
    "seat_join",
    "seat_kick",
    "seat_leave",
    "seat_ready",
    "table_add_bot",
    "table_begin",
    "table_create",
    "table_create_arena",
    "table_create_practice",
    "table_end",
    "table_presence",
    "table_set_option",
    "table_start",
    "timers_rearm",
    "timers_resume",
]
