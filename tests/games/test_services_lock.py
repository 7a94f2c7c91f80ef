"""The move path's hand-written statements (``games.services.sql``: ``lock_table``, ``_save_move``)
load and save exactly what the ORM would."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from games import realtime, services
from games.models import Action, Game, Seat, Table
from games.services import sql
from tests.factories import UserFactory
from tests.games.live import (
    another_connection,
    four_player_table,
    pending_seat,
    seat_users,
    started_table,
    state_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _fields(obj: Any) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def _orm(table_id: int) -> tuple[Table, list[Seat], Game | None]:
    table = Table.objects.get(pk=table_id)
    seats = list(
        Seat.objects.filter(table_id=table_id)
        .select_related("user", "bot_version__bot")
        .order_by("index")
    )
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    return table, seats, game


def test_lock_loads_what_the_orm_loads() -> None:
    table, users, _game = started_table()
    Seat.objects.filter(table=table, index=2).update(away_since=timezone.now(), auto=True)
    users[1].display_name = ""  # the name falls back to the username
    users[1].save()
    with transaction.atomic():
        ctx = sql.lock_table(table.pk)
    orm_table, orm_seats, orm_game = _orm(table.pk)
    assert _fields(ctx.table) == _fields(orm_table)
    assert ctx.game is not None
    assert orm_game is not None
    assert _fields(ctx.game) == _fields(orm_game)
    assert ctx.game.state == orm_game.state  # JSON decoded, not text
    assert [_fields(s) for s in ctx.seats] == [_fields(s) for s in orm_seats]
    assert [s.user and s.user.public_name for s in ctx.seats] == [
        s.user and s.user.public_name for s in orm_seats
    ]
    assert ctx.seats[1].user is not None
    assert ctx.seats[1].user.public_name == users[1].username


def test_lock_names_bots_and_house_seats_without_more_queries(
    django_assert_num_queries: Any,
) -> None:
    from bots.models import Bot, BotVersion

    owner = UserFactory.create(username="owner", display_name="Owner")
    bot = Bot.objects.create(owner=owner, name="Sly")
    version = BotVersion.objects.create(bot=bot, number=3, code="function play() {}")
    table = services.table_create(
        owner=owner,
        name="Mixed",
        seats=[
            services.SeatSpec(),
            services.SeatSpec(Seat.Kind.HOUSE, "hard"),
            services.SeatSpec(Seat.Kind.BOT, bot_version_id=version.pk),
        ],
    )
    with transaction.atomic(), django_assert_num_queries(1):  # one message: BEGIN, lock, read
        ctx = sql.lock_table(table.pk)
        names = [realtime.seat_json(s, owner.pk)["name"] for s in ctx.seats]
        owners = [realtime.player_snapshot(s)["bot_owner_id"] for s in ctx.seats]
    assert ctx.game is None
    assert names == ["Owner", "AI Tùng (hard)", "Sly v3", None]
    assert owners == [None, None, owner.pk, None]
    with transaction.atomic():
        assert sql.lock_table(table.pk, with_game=False).game is None


def test_game_seats_loads_what_the_orm_loads_in_one_statement(
    django_assert_num_queries: Any,
) -> None:
    """What a bot-turn task reads before it chooses a move (no lock): the game by its id and
    its table's seats, as :func:`sql.lock_table` loads them."""
    from bots.models import Bot, BotVersion

    table, users, game = started_table()
    bot = Bot.objects.create(owner=users[0], name="Sly")
    version = BotVersion.objects.create(bot=bot, number=3, code="function play() {}")
    Seat.objects.filter(table=table, index=2).update(
        kind=Seat.Kind.BOT, user=None, bot_version=version
    )
    Seat.objects.filter(table=table, index=3).update(away_since=timezone.now(), auto=True)
    with django_assert_num_queries(1):
        read = sql.game_seats(game.pk)
        assert read is not None
        loaded, seats = read
        kinds = [s.bot_version and s.bot_version.bot.kind for s in seats]
        names = [realtime.seat_json(s, users[0].pk)["name"] for s in seats]
    _orm_table, orm_seats, orm_game = _orm(table.pk)
    assert orm_game is not None
    assert _fields(loaded) == _fields(orm_game)
    assert loaded.state == orm_game.state  # JSON decoded, not text
    assert [_fields(s) for s in seats] == [_fields(s) for s in orm_seats]
    assert [s.index for s in seats] == [0, 1, 2, 3]
    assert kinds == [None, None, Bot.Kind.JS, None]
    assert names[2] == "Sly v3"
    assert sql.game_seats(987654321) is None


def test_game_seats_says_which_seats_have_a_stored_move() -> None:
    """``Game.moved_seats``: the seats with a stored move when the bot-turn task read the game
    (a bot's first turn of the game then reads no earlier turns); None on a game read
    otherwise."""
    _table, _users, game = started_table()
    read = sql.game_seats(game.pk)
    assert read is not None
    assert read[0].moved_seats == frozenset()
    Action.objects.create(game=game, seq=game.version + 1, seat=2, payload={"type": "pass"})
    Action.objects.create(game=game, seq=game.version + 2, seat=None, payload={"type": "deal"})
    Action.objects.create(game=game, seq=game.version + 3, seat=2, payload={"type": "pass"})
    read = sql.game_seats(game.pk)
    assert read is not None
    assert read[0].moved_seats == frozenset({2})
    assert Game.objects.get(pk=game.pk).moved_seats is None


def test_a_paced_bot_turn_reads_once_before_its_lock(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot-turn task reads the game and the seat to play in one statement before choosing
    the move (there were two, the ORM's), then locks, stores and commits as before."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.services import autoplay

    settings.GAMES_BOT_DELAY_SECONDS = 0.8
    table, _users, game = started_table()
    Seat.objects.filter(table=table).update(kind=Seat.Kind.HOUSE, user=None, house_level="easy")
    game.refresh_from_db()
    before: list[int] = []
    real_apply = autoplay._autoplay_apply

    with CaptureQueriesContext(connection) as queries:

        def apply(**kwargs: Any) -> Any:
            before.append(len(queries.captured_queries))
            return real_apply(**kwargs)

        monkeypatch.setattr(autoplay, "_autoplay_apply", apply)
        monkeypatch.setattr(realtime.scheduling, "get_scheduler", lambda: _Nowhere())
        assert services.game_autoplay(game_id=game.pk, version=game.version) is True
    assert before == [1]
    game.refresh_from_db()
    assert Action.objects.filter(game=game).count() == game.version


def test_the_statements_health_check_the_connection_as_the_orm_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``CONN_HEALTH_CHECKS`` (workers keep their connection between tasks,
    config/celery.py) a connection that fails its check is replaced before the first
    statement of a task, as the ORM's first cursor does: a bot-turn task now runs its
    hand-written read before any ORM query."""
    from django.db import connections

    _table, _users, game = started_table()
    db: Any = connections["default"]
    db.ensure_connection()
    checks: list[bool] = []

    def unusable(self: Any) -> bool:
        checks.append(True)
        return False

    monkeypatch.setattr(type(db), "is_usable", unusable)
    broken = db.connection
    enabled, done = db.health_check_enabled, db.health_check_done
    db.health_check_enabled, db.health_check_done = True, False
    db.proven = None  # not proven moments ago (config/postgresql: no check within its grace)
    try:
        read = sql.game_seats(game.pk)
        assert read is not None
        assert checks == [True]  # checked once, found unusable: closed and opened again
        assert db.connection is not broken
        db.health_check_enabled = True  # the new connection read the test settings' False
        assert sql.game_seats(game.pk) is not None
        assert checks == [True]  # once per task (``close_old_connections`` resets it)
    finally:
        db.health_check_enabled, db.health_check_done = enabled, done


class _Nowhere:
    def schedule(self, *args: Any, **kwargs: Any) -> None:
        pass


def test_lock_of_a_missing_table_is_no_table() -> None:
    with pytest.raises(services.TableError) as err, transaction.atomic():
        sql.lock_table(987654321)
    assert err.value.code == "no_table"


def test_lock_without_game_and_seat_changes_are_saved_by_the_orm() -> None:
    table, _users = four_player_table()
    with transaction.atomic():
        ctx = sql.lock_table(table.pk, with_game=False)
        assert ctx.game is None
        ctx.seats[3].ready = False
        ctx.seats[3].save(update_fields=["ready"])
    assert Seat.objects.get(table=table, index=3).ready is False


def test_a_move_saves_the_action_and_game_as_the_orm_would() -> None:
    table, _users, game = started_table()
    seat = pending_seat(game)
    state = state_of(game)
    from games.engine.registry import find_game

    engine = find_game("tienlen")
    cards = next(a["cards"] for a in engine.legal_actions(state, seat) if a["type"] == "play")
    before = timezone.now()
    version = services.game_play(
        table_id=table.pk,
        user=seat_users(table)[seat],
        version=0,
        action={"type": "play", "cards": cards},
    )
    action = Action.objects.get(game=game)
    assert (action.seq, action.seat, action.actor) == (1, seat, "human")
    assert action.payload["cards"] == cards
    assert action.payload["seat"] == seat
    assert action.bot_record is None
    assert action.created_at >= before
    game.refresh_from_db()
    assert version == game.version == 1
    assert engine.state_to_json(engine.state_from_json(game.state)) == game.state
    assert seat not in engine.round_status(engine.state_from_json(game.state)).pending
    assert game.notified["version"] == 1


def test_loaded_instance_is_what_from_db_makes() -> None:
    from django.db import connection
    from django.db.models.signals import post_init

    table, users, _game = started_table()
    seat = Seat.objects.get(table=table, index=0)
    names = [f.attname for f in Seat._meta.concrete_fields]
    values = [getattr(seat, n) for n in names]
    ours = sql.loaded_instance(Seat, names, values)
    theirs = Seat.from_db(connection.alias, names, values)

    def fields(obj: Any) -> dict[str, Any]:
        return {k: v for k, v in vars(obj).items() if k != "_state"}

    assert fields(ours) == fields(theirs)
    assert (ours._state.db, ours._state.adding) == (theirs._state.db, theirs._state.adding)
    assert ours.user == users[0]  # a relation loads as on an ORM instance
    # fields left out are deferred, as from_db's
    part = sql.loaded_instance(Seat, ["id", "index"], [seat.pk, 0])
    assert (
        part.get_deferred_fields()
        == Seat.from_db(connection.alias, ["id", "index"], [seat.pk, 0]).get_deferred_fields()
    )
    assert part.table_id == table.pk  # loaded on access, like any deferred field
    # with a receiver listening, Model.__init__ (and so the signal) runs
    seen: list[Any] = []

    def listener(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(instance)

    post_init.connect(listener, sender=Seat)
    try:
        made = sql.loaded_instance(Seat, names, values)
    finally:
        post_init.disconnect(listener, sender=Seat)
    assert seen == [made]


def test_each_statement_keeps_its_cursor_until_the_connection_changes() -> None:
    """A hand-written statement (here a bot-turn task's read, ``sql.game_seats``) runs on the
    cursor its thread's connection keeps for it (psycopg reuses the converted query and the
    result loaders); a second run reads what changed in between, and a new connection gets
    cursors of its own."""
    from django.db import connection

    _table, _users, game = started_table()
    statement = sql._lock_sql().game_seats
    sql.game_seats(game.pk)
    kept = sql.kept_cursors()[statement]
    Game.objects.filter(pk=game.pk).update(version=7)
    read = sql.game_seats(game.pk)
    assert sql.kept_cursors()[statement] is kept
    assert read is not None
    assert read[0].version == 7  # the kept cursor's new result, not the last one
    connection.close()
    read = sql.game_seats(game.pk)
    fresh = sql.kept_cursors()[statement]
    assert fresh is not kept
    assert fresh.connection is connection.connection
    assert read is not None
    assert read[0].pk == game.pk


def _prepared_statements() -> list[tuple[str, str]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT name, statement FROM pg_prepared_statements")
        return [(row[0], row[1]) for row in cursor.fetchall()]


def test_the_lock_is_prepared_at_once_and_the_others_after_a_few_runs() -> None:
    """The table's lock and its seats-and-game read are prepared by name in the lock's first
    message on a connection and executed by name after (PostgreSQL no longer parses and plans
    them each move); the other hand-written statements are server-bound, and the connection
    prepares them once one ran ``prepare_threshold`` times (``DJANGO_DB_PREPARE_THRESHOLD``,
    5; Django's own default never prepares). The ORM's client-bound queries are never
    prepared, and a prepared lock still reads what changed."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    assert threshold == 5
    table, _users, game = started_table()
    connection.close()  # a connection of its own: nothing prepared on it yet
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        sql.lock_table(table.pk)
    names = {name for name, _statement in _prepared_statements()}
    assert names == {"tienlen_lock_table", "tienlen_seats_game"}
    with CaptureQueriesContext(connection) as again, transaction.atomic():
        sql.lock_table(table.pk, with_game=False)
    first = [q["sql"] for q in queries.captured_queries if "tienlen" in q["sql"]]
    second = [q["sql"] for q in again.captured_queries if "tienlen" in q["sql"]]
    assert first[0].startswith("BEGIN; PREPARE tienlen_lock_table AS SELECT")
    assert first[0].endswith(
        f"; EXECUTE tienlen_lock_table({table.pk}); EXECUTE tienlen_seats_game({table.pk})"
    )
    assert second == [  # the lock is prepared already; the seats alone are not
        f"BEGIN; PREPARE tienlen_seats AS {sql._lock_sql().seats.replace('%s', '$1')}; "
        f"EXECUTE tienlen_lock_table({table.pk}); EXECUTE tienlen_seats({table.pk})"
    ]
    for _ in range(threshold):
        sql.game_seats(game.pk)
    assert connection.connection.prepare_threshold == threshold
    assert not any("LATERAL" in s and "_pg3" in n for n, s in _prepared_statements())
    Table.objects.filter(pk=table.pk).update(name="renamed")
    sql.game_seats(game.pk)  # its sixth run: psycopg prepares it
    with transaction.atomic():
        ctx = sql.lock_table(table.pk)
    statements = _prepared_statements()
    assert any(n.startswith("_pg3") and "LATERAL" in s for n, s in statements)
    assert not any("renamed" in s for _n, s in statements)  # the ORM's UPDATE: client-bound
    assert ctx.table.name == "renamed"


def test_the_lock_message_without_prepared_statements(monkeypatch: pytest.MonkeyPatch) -> None:
    """``DJANGO_DB_PREPARE_THRESHOLD=none`` (a transaction-pooling PgBouncer hands each
    transaction any server connection): nothing is prepared, the lock's two statements go in
    full with the table id written in, in one message."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, _users, _game = started_table()
    connection.close()
    connection.ensure_connection()
    monkeypatch.setattr(connection.connection, "prepare_threshold", None)
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        ctx = sql.lock_table(table.pk)
    sent = [q["sql"] for q in queries.captured_queries if "games_table" in q["sql"]]
    lock = sql._lock_sql().table.replace("%s", str(table.pk))
    assert sent == [f"BEGIN; {lock}; {sql._lock_sql().seats_game.replace('%s', str(table.pk))}"]
    assert _prepared_statements() == []
    assert ctx.table.pk == table.pk
    assert ctx.game is not None


def test_the_lock_holds_until_the_transaction_ends() -> None:
    """The lock's message begins the transaction (its ``BEGIN``): the table stays locked for
    every other connection until the caller's ``atomic`` commits, and psycopg sends nothing
    more to begin it (the next statement runs in the same transaction)."""
    import threading

    import psycopg as pg
    from django.db import connection

    table, _users, game = started_table()
    other = another_connection(autocommit=True)

    def try_lock() -> bool:
        try:
            other.execute("SELECT id FROM games_table WHERE id = %s FOR UPDATE NOWAIT", [table.pk])
        except pg.errors.LockNotAvailable:
            return False
        return True

    try:
        with transaction.atomic():
            sql.lock_table(table.pk)
            ident = threading.get_ident()
            assert (
                connection.connection.pgconn.transaction_status == pg.pq.TransactionStatus.INTRANS
            )
            backend = connection.connection.info.backend_pid
            assert not try_lock()
            Game.objects.filter(pk=game.pk).update(version=5)
            xacts = other.execute(
                "SELECT count(*) FROM pg_locks WHERE pid = %s AND locktype = 'transactionid'"
                " AND mode = 'ExclusiveLock'",
                [backend],
            ).fetchone()
            assert xacts == (1,)  # the lock and the update: one transaction
            assert threading.get_ident() == ident
        assert connection.connection.pgconn.transaction_status == pg.pq.TransactionStatus.IDLE
        assert try_lock()
        game.refresh_from_db()
        assert game.version == 5
    finally:
        other.close()


def test_a_failed_lock_message_is_a_django_error_and_changes_nothing() -> None:
    """A lock that times out (``lock_timeout``) raises Django's ``OperationalError`` out of
    the caller's ``atomic`` (which rolls back); the statements its message prepared before
    the error stay prepared, so the next lock on that connection runs them by name."""
    from django.db import OperationalError, connection

    table, _users, _game = started_table()
    connection.close()
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '50ms'")
    other = another_connection(autocommit=False)
    try:
        other.execute("SELECT id FROM games_table WHERE id = %s FOR UPDATE", [table.pk])
        with pytest.raises(OperationalError), transaction.atomic():
            sql.lock_table(table.pk)
        other.rollback()
        assert {n for n, _s in _prepared_statements()} == {
            "tienlen_lock_table",
            "tienlen_seats_game",
        }
        with transaction.atomic():
            ctx = sql.lock_table(table.pk)
        assert ctx.table.pk == table.pk
    finally:
        other.close()


def test_the_lock_prepares_again_after_psycopg_deallocates_all() -> None:
    """psycopg deallocates every prepared statement of a connection when a transaction rolls
    back while it holds prepared statements of its own (``DEALLOCATE ALL``): the next lock
    finds its named statements gone, rolls its message back and sends it again with them
    prepared; the move goes on, in one transaction."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, _users, game = started_table()
    connection.close()
    with transaction.atomic():
        sql.lock_table(table.pk)
    for _ in range(settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"] + 1):
        sql.game_seats(game.pk)  # now psycopg holds a prepared statement of its own
    assert any(n.startswith("_pg3") for n, _s in _prepared_statements())

    @transaction.atomic
    def refused_move() -> None:
        sql.lock_table(table.pk)
        raise services.TableError("not_your_turn")

    with pytest.raises(services.TableError):
        refused_move()
    assert _prepared_statements() == []  # psycopg's rollback: DEALLOCATE ALL
    Table.objects.filter(pk=table.pk).update(name="renamed")
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        ctx = sql.lock_table(table.pk)
        Game.objects.filter(pk=game.pk).update(version=9)
    sent = [q["sql"] for q in queries.captured_queries if "tienlen" in q["sql"]]
    assert len(sent) == 2  # by name, refused (gone); again with PREPARE
    assert sent[0].startswith("BEGIN; EXECUTE tienlen_lock_table(")
    assert sent[1].startswith("BEGIN; PREPARE tienlen_lock_table AS ")
    assert ctx.table.name == "renamed"
    game.refresh_from_db()
    assert game.version == 9
    assert {n for n, _s in _prepared_statements()} >= {"tienlen_lock_table", "tienlen_seats_game"}


def test_inside_a_transaction_under_way_the_statements_go_in_full() -> None:
    """A lock inside a transaction that has begun (a savepoint, a task that read first) sends
    the statements in full, in one message: a savepoint's rollback may deallocate what was
    prepared, and this transaction could not be started again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, _users, _game = started_table()
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        Table.objects.filter(pk=table.pk).exists()
        ctx = sql.lock_table(table.pk)
    sent = [q["sql"] for q in queries.captured_queries if "FOR UPDATE" in q["sql"]]
    lock = sql._lock_sql().table.replace("%s", str(table.pk))
    assert sent == [f"{lock}; {sql._lock_sql().seats_game.replace('%s', str(table.pk))}"]
    assert ctx.table.pk == table.pk


def test_a_statement_prepared_already_is_noted_and_the_lock_goes_on() -> None:
    """A name the connection holds although this process did not note it (prepared by an
    earlier message whose result was lost): the message is rolled back, the name noted, and
    the lock sent again runs it by name."""
    from django.db import connection

    table, _users, _game = started_table()
    connection.close()
    with transaction.atomic():
        sql.lock_table(table.pk)
    sql.kept_cursors()["tienlen:prepared"].discard("tienlen_lock_table")
    with transaction.atomic():
        ctx = sql.lock_table(table.pk)
    assert ctx.table.pk == table.pk
    assert "tienlen_lock_table" in sql.kept_cursors()["tienlen:prepared"]
