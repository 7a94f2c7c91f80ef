"""The move path's hand-written SQL: the table lock (:func:`lock_table`), the one-statement save
of a move (:func:`save_move`) and of a run of moves (:func:`store_moves`), built from the
models' metadata."""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection, models
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from psycopg import adapt, generators, pq
from psycopg.types.json import Jsonb

from games import jsontext
from games.models import Action, ChatMessage, Game, Seat, Table
from games.services.unit import HeldMoves, TableCtx, TableError


def lock_table(table_id: int, *, with_game: bool = True) -> TableCtx:
    """Lock the table row and load its seats (with what names them) and latest game.

    Two statements, hand-written because the ORM's query building cost more CPU than the
    database did (the hottest part of a move): ``SELECT … FOR UPDATE`` of the table, then one
    row with the seats as per-column arrays and the latest game. The second statement runs after
    the lock is granted, so it sees what the previous holder committed (one statement with a
    join would read the seats and the game from the snapshot taken *before* waiting). Both go
    to PostgreSQL in one message, with the transaction's ``BEGIN`` when it has not begun yet
    (:func:`_lock_and_read`): one round trip where there were three.
    ``benchmarks/move_path.py`` measures it against the ORM doing the same."""
    sql = _lock_sql()
    # int(): the id is written into the message's text (a prepared statement's argument)
    row, loaded = _lock_and_read(sql, int(table_id), with_game=with_game)
    if row is None:
        raise TableError("no_table", "no such table")
    table = sql.load(Table, sql.table_fields, row)
    assert loaded is not None  # an aggregate without GROUP BY always returns one row
    seats = sql.seats_from(loaded[: len(sql.seat_columns)])
    game_row = loaded[len(sql.seat_columns) :]
    game = sql.load(Game, sql.game_fields, game_row) if game_row and game_row[0] else None
    return TableCtx(table, seats, game)


Row = tuple[Any, ...]


def _lock_and_read(
    sql: _LockSQL, table_id: int, *, with_game: bool
) -> tuple[Row | None, Row | None]:
    """The table's locked row and its seats (and latest game), read by :func:`lock_table`'s two
    statements sent to PostgreSQL as **one message** of the simple query protocol, where each
    statement still takes its own snapshot (so the read sees what the lock waited for).

    When the caller's transaction has not sent anything yet (Django's ``atomic`` leaves that to
    psycopg, which would send ``BEGIN`` alone before the first statement), the message begins
    it and runs the two statements prepared by name, preparing them first if this connection
    has not: ``BEGIN; EXECUTE tienlen_lock_table(7); EXECUTE tienlen_seats_game(7)``. psycopg
    deallocates every prepared statement of the connection when a transaction or savepoint of
    its own rolls back (``DEALLOCATE ALL``): a message that finds its statements gone is rolled
    back (it was the transaction's only message) and sent again with them prepared. Inside a
    transaction already under way (a savepoint, a task that read first) the statements go in
    full, the table id written in: still one message, nothing to lose. So do they with
    ``DJANGO_DB_PREPARE_THRESHOLD=none`` (a transaction-pooling PgBouncer). The message is
    logged as one query (``connection.queries``) and its errors are Django's.

    The two statements go one by one, as psycopg cursors (:func:`_execute`), when something
    wraps every statement (``connection.execute_wrappers``) or the transaction has its own
    isolation level, read-only or deferrable flags (psycopg's ``BEGIN`` carries them)."""
    statements = (
        (_LOCK_NAME, sql.table),
        (_SEATS_GAME_NAME, sql.seats_game) if with_game else (_SEATS_NAME, sql.seats),
    )
    kept = kept_cursors()  # opens the connection if needed
    raw: Any = connection.connection
    idle = raw.pgconn.transaction_status == pq.TransactionStatus.IDLE
    own_begin = raw.isolation_level is not None or raw.read_only is not None
    if connection.execute_wrappers or (
        idle and not raw.autocommit and (own_begin or raw.deferrable is not None)
    ):
        row = _execute(sql.table, [table_id]).fetchone()
        if row is None:
            return None, None
        params = [table_id, table_id] if with_game else [table_id]
        return row, _execute(statements[1][1], params).fetchone()
    connection.validate_no_broken_transaction()
    begin = idle and not raw.autocommit
    by_name = begin and raw.prepare_threshold is not None
    prepared: set[str] = kept.setdefault(_PREPARED, set())
    results = _lock_message(
        raw, statements, table_id, begin=begin, prepared=prepared if by_name else None
    )
    failed = {_sqlstate(r) for r in results}
    if by_name and failed & {_NO_SUCH_STATEMENT, _STATEMENT_EXISTS}:
        # its statements were deallocated (or one was prepared already, now noted): this
        # message was its transaction's only one, so it is rolled back and sent again
        _lock_message(raw, (), 0, begin=False, prepared=None, prefix=["ROLLBACK"])
        if _NO_SUCH_STATEMENT in failed:
            prepared.clear()
        results = _lock_message(raw, statements, table_id, begin=True, prepared=prepared)
    with connection.wrap_database_errors:
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                raise psycopg.errors.error_from_result(result, encoding=raw.info.encoding)
    lock_row = _first_row(kept, _LOCK_NAME, results[-2])
    if lock_row is None:
        return None, None
    return lock_row, _first_row(kept, statements[1][0], results[-1])


def _lock_message(
    raw: Any,
    statements: Sequence[tuple[str, str]],
    table_id: int,
    *,
    begin: bool,
    prepared: set[str] | None,
    prefix: Sequence[str] = (),
) -> list[Any]:
    """Send one message (:func:`_lock_and_read`) and return its results, one per statement that
    ran (a failed statement's is its error and ends the list). ``prepared``: the names this
    connection has prepared, to run the statements by name (preparing the missing ones in the
    same message, and noting those that were); None: the statements in full."""
    parts = list(prefix) + (["BEGIN"] if begin else [])
    preparing = []
    if prepared is not None:
        for name, text in statements:
            if name not in prepared:
                parts.append(f"PREPARE {name} AS {text.replace('%s', '$1')}")
                preparing.append((len(parts) - 1, name))
    for name, text in statements:
        if prepared is None:
            parts.append(text.replace("%s", str(table_id)))
        else:
            parts.append(f"EXECUTE {name}({table_id})")
    message = "; ".join(parts)
    start = time.monotonic()
    with connection.wrap_database_errors, raw.lock:
        raw.pgconn.send_query(message.encode())
        results: list[Any] = raw.wait(generators.execute(raw.pgconn))
    if connection.queries_logged:
        connection.queries_log.append({"sql": message, "time": f"{time.monotonic() - start:.3f}"})
    for index, name in preparing:
        if index < len(results) and (
            results[index].status == pq.ExecStatus.COMMAND_OK
            or _sqlstate(results[index]) == _STATEMENT_EXISTS
        ):
            assert prepared is not None  # preparing is only made with it
            prepared.add(name)
    if not any(r.status == pq.ExecStatus.FATAL_ERROR for r in results) and len(results) != len(
        parts
    ):
        with connection.wrap_database_errors:
            raise psycopg.InternalError(f"{len(results)} results for {len(parts)} statements")
    return results


def _sqlstate(result: Any) -> bytes | None:
    if result.status != pq.ExecStatus.FATAL_ERROR:
        return None
    code: bytes | None = result.error_field(pq.DiagnosticField.SQLSTATE)
    return code


_NO_SUCH_STATEMENT = b"26000"  # invalid_sql_statement_name: EXECUTE of a name not prepared
_STATEMENT_EXISTS = b"42P05"  # duplicate_prepared_statement
_LOCK_NAME = "tienlen_lock_table"
_SEATS_NAME = "tienlen_seats"
_SEATS_GAME_NAME = "tienlen_seats_game"
_PREPARED = "tienlen:prepared"


def _first_row(kept: dict[str, Any], name: str, result: Any) -> Row | None:
    """The first row of ``result`` (a statement's rows of :func:`_lock_and_read`), loaded by
    the psycopg transformer the connection keeps for that statement (its column loaders are
    looked up once, as a kept cursor's are)."""
    tx = kept.get(f"tienlen:tx:{name}")
    if tx is None:
        tx = kept[f"tienlen:tx:{name}"] = adapt.Transformer(connection.connection)
    tx.set_pgresult(result)
    if result.ntuples == 0:
        return None
    row: Row = tx.load_row(0, tuple)
    return row


def game_seats(game_id: int) -> tuple[Game, list[Seat]] | None:
    """Game ``game_id`` and its table's seats (loaded as :func:`lock_table` loads them: with
    their user, and their bot version's bot, name, owner and kind), in one statement and
    without a lock; None when there is no such game. What a bot-turn task reads before it
    chooses a move (``games.services.autoplay``): the move is applied under the lock only if the
    game is still at the version it was chosen on. The game's :attr:`Game.moved_seats` says
    which seats have a stored move (a bot's first turn of the game then reads none of them).

    The connection is health-checked first, as the ORM's first cursor of a task would check it
    (``CONN_HEALTH_CHECKS``: workers keep their connections, config/celery.py): this is a
    bot-turn task's first statement."""
    connection.close_if_health_check_failed()
    sql = _lock_sql()
    row = _execute(sql.game_seats, [game_id]).fetchone()
    if row is None:
        return None
    n_game = len(sql.game_fields)
    game = sql.load(Game, sql.game_fields, row[:n_game])
    game.moved_seats = frozenset(row[n_game])
    return game, sql.seats_from(row[n_game + 1 :])


def _plain_json(field: Any) -> bool:
    """A ``JSONField`` as Django ships it (no encoder, decoder or subclass of ours)."""
    return type(field) is models.JSONField and field.encoder is None and field.decoder is None


@functools.cache
def _from_db(field: Any) -> Any:
    """What turns ``field``'s column value into its Python value (``from_db_value``; for a
    plain JSON field the same, parsed by :mod:`games.jsontext`)."""
    if _plain_json(field):

        def json_value(value: Any) -> Any:
            if not isinstance(value, str | bytes):
                return value
            try:
                return jsontext.loads(value)
            except ValueError:  # as JSONField.from_db_value: text that is not JSON stays text
                return value

        return json_value
    if hasattr(field, "from_db_value"):
        return lambda value: field.from_db_value(value, None, connection)
    return lambda value: value


def _db_save(field: Any, value: Any) -> Any:
    """``field.get_db_prep_save(value)``; a plain JSON field's value goes out as ``jsonb``
    written by :mod:`games.jsontext` (what Django does, with ``json.dumps``)."""
    if value is not None and _plain_json(field) and not hasattr(value, "resolve_expression"):
        return Jsonb(value, dumps=jsontext.dumps)
    return field.get_db_prep_save(value, connection)


def _execute(statement: str, params: Sequence[Any]) -> Any:
    """Execute one of this module's fixed statements (the same ``str`` object each time, from
    a cached builder) and return the cursor to fetch from: a psycopg cursor kept for that
    statement on this thread's connection (:func:`kept_cursors`), wrapped as :func:`_cursor`
    does. psycopg keeps a cursor's converted query and its result loaders while the cursor
    runs the same query object again; a new cursor per statement rebuilt them every time."""
    kept = kept_cursors()
    cursor: Any = kept.get(statement)
    if cursor is None or cursor.closed:
        cursor = kept[statement] = psycopg.Cursor(connection.connection)
    wrapped = (
        connection.make_debug_cursor(cursor)
        if connection.queries_logged
        else connection.make_cursor(cursor)
    )
    wrapped.execute(statement, params)
    return wrapped


def kept_cursors() -> dict[str, Any]:
    """What this thread's connection keeps for the hand-written statements: a psycopg cursor
    by statement (:func:`_execute`), and under ``tienlen:`` keys the lock's prepared names and
    result loaders (:func:`_lock_and_read`); a new connection (Django reconnected) starts with
    none. Not health-checked here: a move
    in daphne would pay a round trip for it (``CONN_HEALTH_CHECKS``, production); a task's
    first statement checks it (:func:`game_seats`, :func:`_cursor`)."""
    connection.ensure_connection()
    wrapper: Any = connection
    raw = wrapper.connection
    kept: tuple[Any, dict[str, Any]] | None = getattr(wrapper, "tienlen_cursors", None)
    if kept is None or kept[0] is not raw:
        kept = wrapper.tienlen_cursors = (raw, {})
    return kept[1]


def _cursor() -> Any:
    """A cursor for the move path's hand-written statements: Django's wrapper (queries are
    logged and counted as usual) around a psycopg cursor with **server-side binding**. Django's
    default client-side binding quotes every parameter into the SQL text, which for a game's
    state JSON cost more CPU than the statement; bound parameters also let psycopg prepare the
    statements after a few runs on a connection (the connection's ``prepare_threshold``, from
    the database ``OPTIONS``: ``DJANGO_DB_PREPARE_THRESHOLD``, 5; None turns that off, e.g.
    behind a transaction-pooling PgBouncer). Health-checked as the ORM's first cursor is
    (``CONN_HEALTH_CHECKS``): a run's store may be a task's first statement."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw: Any = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


@dataclass(frozen=True)
class _LockSQL:
    """The statements of :func:`lock_table`, built from the models' metadata (a new column comes
    along by itself), and the code that turns their rows into model instances."""

    table: str
    seats: str
    seats_game: str
    game_seats: str
    table_fields: list[Any]
    game_fields: list[Any]
    seat_fields: list[Any]
    seat_columns: list[str]

    @staticmethod
    def load(model: Any, fields: list[Any], values: Sequence[Any]) -> Any:
        converted = [_from_db(f)(v) for f, v in zip(fields, values, strict=True)]
        return loaded_instance(model, [f.attname for f in fields], converted)

    def seats_from(self, arrays: Sequence[Any]) -> list[Seat]:
        """Seats (with their user, bot version and its bot's name, owner and kind preloaded)
        from the per-column arrays."""
        n_seat = len(self.seat_fields)
        if not arrays[0]:
            return []
        user_model = _field(Seat, "user").related_model
        version_model = _field(Seat, "bot_version").related_model
        bot_model = _field(version_model, "bot").related_model
        out = []
        for values in zip(*arrays, strict=True):
            seat = self.load(Seat, self.seat_fields, values[:n_seat])
            uid, username, display_name, vid, number, bot_id, bot_name, owner_id, bot_kind = values[
                n_seat:
            ]
            user = None
            if uid is not None:
                user = _partial(user_model, id=uid, username=username, display_name=display_name)
            version = None
            if vid is not None:
                version = _partial(version_model, id=vid, number=number, bot_id=bot_id)
                bot = _partial(
                    bot_model, id=bot_id, name=bot_name, owner_id=owner_id, kind=bot_kind
                )
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
    return loaded_instance(model, names, [values[n] for n in names])


def loaded_instance(model: Any, attnames: Sequence[str], values: Sequence[Any]) -> Any:
    """What ``model.from_db(alias, attnames, values)`` makes (fields left out are deferred),
    without running ``Model.__init__``: its per-field loop and the ``pre_init``/``post_init``
    signals were a tenth of :func:`lock_table`'s CPU. Only while no receiver listens to those
    signals for ``model`` (none does today); otherwise ``from_db`` itself.
    ``tests/games/test_services_lock.py`` compares both."""
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(connection.alias, list(attnames), list(values))
    obj = model.__new__(model)
    state = ModelState()
    state.db = connection.alias
    state.adding = False
    obj._state = state
    obj.__dict__.update(zip(attnames, values, strict=True))
    return obj


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
        f"b.{q('kind')}",
    ]

    def seats_of(table: str) -> str:
        return (
            "SELECT "
            + ", ".join(f"array_agg({c} ORDER BY s.{q('index')})" for c in seat_columns)
            + f" FROM {q(Seat._meta.db_table)} s"
            + f" LEFT JOIN {q(user_model._meta.db_table)} u ON u.id = s.{q('user_id')}"
            + f" LEFT JOIN {q(version_model._meta.db_table)} v ON v.id = s.{q('bot_version_id')}"
            + f" LEFT JOIN {q(bot_model._meta.db_table)} b ON b.id = v.{q('bot_id')}"
            + f" WHERE s.{q('table_id')} = {table}"
        )

    seats = seats_of("%s")
    game_columns = ", ".join(f"g.{q(f.column)}" for f in game_fields)
    of_game = seats_of(f"g.{q(_field(Game, 'table').column)}")
    moved = (  # the seats with a stored move in the game (Game.moved_seats)
        f"ARRAY(SELECT DISTINCT a.{q('seat')} FROM {q(Action._meta.db_table)} a"
        f" WHERE a.{q(_field(Action, 'game').column)} = g.id AND a.{q('seat')} IS NOT NULL)"
    )
    game_seats = (
        f"SELECT {game_columns}, {moved}, sa.* FROM {q(Game._meta.db_table)} g"
        f" LEFT JOIN LATERAL ({of_game}) sa ON TRUE WHERE g.id = %s"
    )
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
        game_seats=game_seats,
        table_fields=table_fields,
        game_fields=game_fields,
        seat_fields=seat_fields,
        seat_columns=seat_columns,
    )


_MOVE_SAVED = ("state", "version", "notified")

#: Moves of a run stored by one statement at most (:func:`store_moves`).
MAX_STORED_MOVES = 64


def save_move(game: Game, row: Action, *, held: HeldMoves | None = None) -> None:
    """Insert the action ``row`` and save the game's state, version and ``notified`` in one
    statement (what ``row.save()`` plus ``game.save(update_fields=...)`` do, without the
    ORM's query building: a move's second-largest cost after the lock). With ``held`` (the
    unit of work's, a run's move played in memory) the row is appended there instead; the
    game's fields are read from the game when the run is stored."""
    if held is not None:
        held.rows.append(row)
        return
    sql, fields = _save_moves_sql(1, guarded=False)
    inserted = [_db_save(f, f.pre_save(row, True)) for f in fields]
    _execute(sql, [*inserted, *_game_saved(game), game.pk])


class Stale(Exception):
    """The table or its game changed since a run's moves were played: they are not stored."""


@dataclass
class StoreJob:
    """A run's held moves as statements and parameters (made by :func:`store_job` in the
    run's thread, which owns the models), ready to be stored by :func:`_run_store`."""

    table_id: int
    table_version: int
    game_id: int
    since: int
    write: tuple[str, list[Any]] | None
    lines: tuple[str, list[Any]] | None
    messages: list[tuple[ChatMessage, dict[str, Any]]]
    moves: int


def store_job(
    *, table_id: int, table_version: int, game: Game, since: int, held: HeldMoves
) -> StoreJob:
    """The statements that store ``held`` (moves played since the game's version ``since``
    on a table at ``table_version``) and save ``game``'s state, version and ``notified`` as
    they are now."""
    rows = held.rows
    assert len(rows) <= MAX_STORED_MOVES
    write = None
    if rows:
        sql, fields = _save_moves_sql(len(rows), guarded=True)
        inserted = [_db_save(f, f.pre_save(row, True)) for row in rows for f in fields]
        write = (sql, [*inserted, *_game_saved(game), game.pk, since, Game.Status.RUNNING.value])
    lines = None
    if held.messages:
        sql, fields = _insert_lines_sql(len(held.messages))
        values = [_db_save(f, f.pre_save(m, True)) for m, _ in held.messages for f in fields]
        lines = (sql, values)
    return StoreJob(
        table_id, table_version, game.pk, since, write, lines, list(held.messages), len(rows)
    )


def _run_store(cursor: Any, job: StoreJob) -> None:
    """Inside a transaction, store a run's held moves (``Work.held``): lock the table,
    check that neither the table (its ``version``: seats, status, options) nor the game (its
    ``version`` is still ``since``, it still runs) changed since the run read them, insert
    the action rows and save the game row, in one statement whatever the number of moves
    (with no moves: the lock and the check); insert the system lines and complete their
    frames (``id``, ``at``). Raises :class:`Stale` when something changed (the caller rolls
    back: whoever changed it holds the truth)."""
    cursor.execute(_lock_version_sql(), [job.table_id])
    locked = cursor.fetchone()
    if locked is None or int(locked[0]) != job.table_version:
        raise Stale
    if job.write is None:
        cursor.execute(_game_version_sql(), [job.game_id])
        found = cursor.fetchone()
        if found is None or (int(found[0]), found[1]) != (job.since, Game.Status.RUNNING):
            raise Stale
    else:
        cursor.execute(*job.write)
        if cursor.rowcount != 1:
            raise Stale  # the caller's rollback takes the inserted rows back
    if job.lines is not None:
        from games.realtime.frames import ts

        cursor.execute(*job.lines)
        for (message, frame), (pk, created_at) in zip(job.messages, cursor.fetchall(), strict=True):
            message.pk, message.created_at = pk, created_at
            frame.update(id=pk, at=ts(created_at))


def store_moves(
    *, table_id: int, table_version: int, game: Game, since: int, held: HeldMoves
) -> None:
    """:func:`_run_store` of ``held`` in the caller's transaction, on this thread's
    connection."""
    job = store_job(
        table_id=table_id, table_version=table_version, game=game, since=since, held=held
    )
    with _cursor() as cursor:
        _run_store(cursor, job)


def store_moves_elsewhere(raw: Any, job: StoreJob) -> bool:
    """:func:`_run_store` in a transaction of its own on ``raw``, the psycopg connection of
    the run's thread, from another thread (the run's store thread, while the run plays on
    without touching the database); True once committed, False (rolled back) when stale."""
    with psycopg.Cursor(raw) as cursor:
        cursor.execute("BEGIN")
        try:
            _run_store(cursor, job)
        except Stale:
            cursor.execute("ROLLBACK")
            return False
        except BaseException:
            with contextlib.suppress(Exception):
                cursor.execute("ROLLBACK")
            raise
        cursor.execute("COMMIT")
    return True


def _game_saved(game: Game) -> list[Any]:
    return [_db_save(_field(Game, name), getattr(game, name)) for name in _MOVE_SAVED]


@functools.cache
def _game_version_sql() -> str:
    q = _quote
    return (
        f"SELECT {q(_field(Game, 'version').column)}, {q(_field(Game, 'status').column)}"
        f" FROM {q(Game._meta.db_table)} WHERE {q(_field(Game, 'id').column)} = %s"
    )


@functools.cache
def _lock_version_sql() -> str:
    q = _quote
    return (
        f"SELECT {q(_field(Table, 'version').column)} FROM {q(Table._meta.db_table)}"
        f" WHERE {q(_field(Table, 'id').column)} = %s FOR UPDATE"
    )


@functools.cache
def _insert_lines_sql(count: int) -> tuple[str, list[Any]]:
    """Insert ``count`` chat lines, returning their ids and times."""
    q = _quote
    fields = [f for f in ChatMessage._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * count)
    returning = (
        f"{q(_field(ChatMessage, 'id').column)}, {q(_field(ChatMessage, 'created_at').column)}"
    )
    sql = (
        f"INSERT INTO {q(ChatMessage._meta.db_table)} ({columns}) VALUES {marks}"
        f" RETURNING {returning}"
    )
    return sql, fields


@functools.cache
def _save_moves_sql(count: int, *, guarded: bool) -> tuple[str, list[Any]]:
    """Insert ``count`` action rows and update the game, in one statement; ``guarded``: only
    if the game is still at a given version and status (else no row is updated)."""
    q = _quote
    fields = [f for f in Action._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * count)
    sets = ", ".join(f"{q(_field(Game, n).column)} = %s" for n in _MOVE_SAVED)
    where = f"{q(_field(Game, 'id').column)} = %s"
    if guarded:
        where += (
            f" AND {q(_field(Game, 'version').column)} = %s"
            f" AND {q(_field(Game, 'status').column)} = %s"
        )
    sql = (
        f"WITH appended AS (INSERT INTO {q(Action._meta.db_table)} ({columns}) VALUES {marks})"
        f" UPDATE {q(Game._meta.db_table)} SET {sets} WHERE {where}"
    )
    return sql, fields
