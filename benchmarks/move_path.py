"""The move path's database part: hand-written PostgreSQL statements against the ORM.

Run (PostgreSQL must be up; the settings want a ``REDIS_URL``, which is not used)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tienlen_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
        python benchmarks/move_path.py [--moves 3000] [--games-moves 2000] [--json]

A live move locks the table and loads its seats and latest game, then appends an action row
and saves the game's state, version and ``notified``. ``games.services`` does both with
hand-written statements (``_lock``: ``SELECT … FOR UPDATE`` plus one row of seat arrays and the
game; ``save_move``: one ``WITH … INSERT … UPDATE``, server-side parameter binding). The
baseline is the ORM doing the same, kept in this file (:func:`orm_lock`, :func:`orm_save_move`)
so the comparison can be rerun although the services have only one implementation:
``select_for_update`` of the table, the seats with ``select_related`` and the latest game,
then ``row.save(force_insert=True)`` and ``game.save(update_fields=...)``.

Three parts, each interleaving the variants move by move (A B B A …) so that load from other
processes hits both alike:

1. **database part**: one transaction per move with only the lock and the save (the real
   game state of a dealt table as the saved JSON), on a few started tables;
2. **whole moves**: ``services.game_play`` on 4-player Tiến Lên tables, each seat playing its
   first legal action, with ``_lock`` / ``save_move`` (``games.services.sql``) swapped per
   move.
   The after-commit work (channel-layer broadcast, timers) is switched off so only the
   service is timed; moves that end a game (the ORM's ``_finish`` path in both variants) are
   left out of the figures;
3. **whole moves as daphne runs them**: part 2's moves (hand-written path), each after
   ``close_old_connections`` on a connection kept with Django's health checks (production's
   settings): the site's health-check grace (``config/postgresql/base.py``) against Django's
   check at every move.

For each variant: wall time per move (median, p90, p99) and the **CPU time of this Python
process** per move (``time.process_time``; the point of the hand-written statements was CPU),
and, when the database server runs on this machine and its backend's ``/proc`` entry is
readable, the server backend's CPU per move (summed tick deltas, so only the mean is
meaningful). Ratios are ORM ÷ hand-written from the same run.

The database named by ``DATABASE_URL`` gets a ``test_`` twin (created or reused) that this
script fills and leaves behind.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder would come first on sys.path and shadow apps by name.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

Lock = Callable[..., Any]
Save = Callable[..., None]
FIELDS_SAVED = ["state", "version", "notified"]


# --------------------------------------------------------------------------- the ORM baseline
def orm_lock(table_id: int, *, with_game: bool = True) -> Any:
    """``games.services.sql.lock_table`` with the ORM (the twin the services had for SQLite)."""
    from games import services
    from games.models import Game, Seat, Table
    from games.services import unit

    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise services.TableError("no_table", "no such table")
    seats = list(
        Seat.objects.filter(table_id=table_id)
        .select_related("user", "bot_version__bot")
        .order_by("index")
    )
    game = Game.objects.filter(table_id=table_id).order_by("-number").first() if with_game else None
    return unit.TableCtx(table, seats, game)


def orm_save_move(game: Any, row: Any, *, held: Any = None) -> None:
    """``games.services.sql.save_move`` with the ORM: an insert, then an update of three
    columns (a held move, a run's, is appended to ``held`` as there)."""
    if held is not None:
        held.rows.append(row)
        return
    row.save(force_insert=True)
    game.save(update_fields=FIELDS_SAVED)


# --------------------------------------------------------------------------- measuring
class ServerCpu:
    """CPU ticks of this connection's PostgreSQL backend, from ``/proc`` (a local server)."""

    def __init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.pid = cursor.fetchone()[0]
        self.path = Path(f"/proc/{self.pid}/stat")
        self.tick = os.sysconf("SC_CLK_TCK")
        self.ok = self.read() is not None

    def read(self) -> float | None:
        try:
            fields = self.path.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / self.tick  # utime + stime


class Series:
    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.server: float = 0.0

    def summary(self) -> dict[str, float]:
        def q(values: list[float], p: int) -> float:
            return statistics.quantiles(values, n=100, method="inclusive")[p - 1] * 1000

        n = len(self.wall)
        return {
            "moves": n,
            "wall_p50_ms": statistics.median(self.wall) * 1000,
            "wall_p90_ms": q(self.wall, 90),
            "wall_p99_ms": q(self.wall, 99),
            "cpu_p50_ms": statistics.median(self.cpu) * 1000,
            "cpu_p99_ms": q(self.cpu, 99),
            "cpu_mean_ms": statistics.fmean(self.cpu) * 1000,
            "server_cpu_mean_ms": self.server / n * 1000 if n else float("nan"),
        }


@contextmanager
def measured(series: Series, server: ServerCpu | None, keep: bool = True) -> Iterator[None]:
    s0 = server.read() if server else None
    c0 = time.process_time()
    w0 = time.perf_counter()
    yield
    w1 = time.perf_counter()
    c1 = time.process_time()
    s1 = server.read() if server else None
    if keep:
        series.wall.append(w1 - w0)
        series.cpu.append(c1 - c0)
        if s0 is not None and s1 is not None:
            series.server += s1 - s0


def order(i: int, names: tuple[str, ...] = ("hand", "orm")) -> tuple[str, ...]:
    """A B, B A, A B, … : each variant goes first half the time."""
    return names if i % 2 == 0 else names[::-1]


# --------------------------------------------------------------------------- tables
def new_table(tag: str) -> tuple[int, list[Any]]:
    """A 4-seat Tiến Lên table of four ready humans, game 1 dealt."""
    from accounts.models import User
    from games import services

    users = [User.objects.create(username=f"{tag}-{i}", display_name=f"P{i}") for i in range(4)]
    table = services.table_create(owner=users[0], name=tag)
    for i, user in enumerate(users[1:], start=1):
        services.seat_join(table_id=table.pk, user=user, seat=i)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    services.table_start(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    services.table_begin(table_id=table.pk, version=table.version)  # timers are off: deal now
    return table.pk, users


def db_part(
    variants: dict[str, tuple[Lock, Save]], moves: int, warmup: int, tables: list[int]
) -> dict[str, Series]:
    """Part 1: per move one transaction with the lock and the save, nothing else."""
    from django.db import transaction

    from games.models import Action

    server = ServerCpu()
    series = {name: Series() for name in variants}

    def one(name: str, table_id: int, keep: bool) -> None:
        lock, save = variants[name]
        with measured(series[name], server if server.ok else None, keep), transaction.atomic():
            ctx = lock(table_id)
            game = ctx.game
            game.version += 1
            seat = game.version % 4
            payload = {"type": "pass", "seat": seat, "at": time.time()}
            row = Action(game=game, seq=game.version, seat=seat, payload=payload, actor="human")
            game.notified = {"version": game.version, "round": 0, "seats": {str(seat): "x"}}
            save(game, row)

    for i in range(warmup + moves):
        table_id = tables[i % len(tables)]
        for name in order(i):
            one(name, table_id, keep=i >= warmup)
    return series


def whole_moves(
    variants: dict[str, tuple[Lock, Save]],
    moves: int,
    warmup: int,
    n_tables: int,
    before_move: Callable[[str], None] | None = None,
) -> tuple[dict[str, Series], int]:
    """Part 2: ``services.game_play`` with the variant's lock and save patched in, per move;
    ``before_move(variant)``, when given, runs before each (untimed)."""
    from games import services
    from games.engine.registry import find_game
    from games.models import Game, Table
    from games.services import play

    engine = find_game("tienlen")
    server = ServerCpu()
    series = {name: Series() for name in variants}
    hand = (play.lock_table, play.save_move)
    tag = f"mp{time.time_ns()}"
    made = 0

    def table() -> tuple[int, list[Any]]:
        nonlocal made
        made += 1
        return new_table(f"{tag}-{made}")

    tables = [table() for _ in range(n_tables)]

    def advance(slot: int) -> None:
        """After a finished game: deal the session's next one, or a new table."""
        table_id, users = tables[slot]
        if Table.objects.filter(pk=table_id, status=Table.Status.COMPLETED).exists():
            tables[slot] = table()
        elif not services.game_next(table_id=table_id, user=users[0]):
            raise SystemExit(f"could not deal on table {table_id}")

    finishing = 0
    done = 0
    i = 0
    while done < warmup + moves:
        slot = i % n_tables
        for name in order(i // n_tables, tuple(variants)):
            table_id, users = tables[slot]  # advance() may have replaced the table
            game = Game.objects.filter(table_id=table_id).order_by("-number").first()
            assert game is not None
            if game.status != Game.Status.RUNNING:  # dealt an instant win
                advance(slot)
                continue
            state = engine.state_from_json(game.state)
            seat = engine.round_status(state).pending[0]
            action = engine.legal_actions(state, seat)[0]
            action = {k: v for k, v in action.items() if k != "seat"}
            lock, save = variants[name]
            play.lock_table, play.save_move = lock, save
            keep = done >= warmup
            if before_move is not None:
                before_move(name)
            try:
                s0 = server.read() if server.ok else None
                c0 = time.process_time()
                w0 = time.perf_counter()
                services.game_play(
                    table_id=table_id, user=users[seat], version=game.version, action=action
                )
                w1 = time.perf_counter()
                c1 = time.process_time()
                s1 = server.read() if server.ok else None
            finally:
                play.lock_table, play.save_move = hand
            ended = not Game.objects.filter(pk=game.pk, status=Game.Status.RUNNING).exists()
            if ended:
                finishing += 1
                advance(slot)
                continue
            done += 1
            if keep:
                series[name].wall.append(w1 - w0)
                series[name].cpu.append(c1 - c0)
                if s0 is not None and s1 is not None:
                    series[name].server += s1 - s0
        i += 1
    return series, finishing


def as_daphne_runs_them(moves: int, warmup: int, n_tables: int) -> tuple[dict[str, Series], int]:
    """Part 3: whole moves as daphne runs each one, ``close_old_connections`` first (what
    ``database_sync_to_async`` does around every call) on a kept connection with Django's
    health checks (``CONN_MAX_AGE`` 60, ``CONN_HEALTH_CHECKS``: production's), so the move's
    transaction starts with Django's check; variants: ``grace``, the site's
    (``DB_HEALTH_CHECK_GRACE_SECONDS`` 1: no ``SELECT 1`` for a connection that committed
    within the second, config/postgresql/base.py) and ``check`` (0: Django's own, a check at
    every move)."""
    from django.conf import settings
    from django.db import close_old_connections, connection

    from games.services import play

    db: Any = connection
    db.close()
    db.settings_dict["CONN_MAX_AGE"] = 60
    db.settings_dict["CONN_HEALTH_CHECKS"] = True
    hand = (play.lock_table, play.save_move)
    grace = {"grace": 1.0, "check": 0.0}
    previous = settings.DB_HEALTH_CHECK_GRACE_SECONDS

    def before_move(name: str) -> None:
        settings.DB_HEALTH_CHECK_GRACE_SECONDS = grace[name]
        close_old_connections()

    try:
        return whole_moves(
            {"grace": hand, "check": hand}, moves, warmup, n_tables, before_move=before_move
        )
    finally:
        db.close()
        db.settings_dict["CONN_MAX_AGE"] = 0
        db.settings_dict["CONN_HEALTH_CHECKS"] = False
        settings.DB_HEALTH_CHECK_GRACE_SECONDS = previous


def queries_per_move(variants: dict[str, tuple[Lock, Save]]) -> dict[str, int]:
    """Statements one ``game_play`` sends with each variant (BEGIN and COMMIT included)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.engine.registry import find_game
    from games.models import Game
    from games.services import play

    engine = find_game("tienlen")
    out = {}
    for name, (lock, save) in variants.items():
        table_id, users = new_table(f"mpq{time.time_ns()}")
        game = Game.objects.get(table_id=table_id, number=1)
        state = engine.state_from_json(game.state)
        seat = engine.round_status(state).pending[0]
        action = {"type": "play", "cards": engine.legal_actions(state, seat)[0]["cards"]}
        play.lock_table, play.save_move = lock, save
        try:
            with CaptureQueriesContext(connection) as ctx:
                services.game_play(table_id=table_id, user=users[seat], version=0, action=action)
        finally:
            play.lock_table, play.save_move = variants["hand"]
        out[name] = len(ctx.captured_queries)
    return out


# --------------------------------------------------------------------------- report
def report(
    title: str,
    series: dict[str, Series],
    labels: tuple[str, str] = ("hand-written SQL", "ORM (baseline)"),
) -> dict[str, Any]:
    """Print and return the two variants' figures (the first measured, the second its
    baseline) and the baseline's ratios to the first."""
    (first, one), (second, two) = series.items()
    hand, orm = one.summary(), two.summary()
    print(f"\n{title}")
    print(
        "| variant | moves | wall p50 ms | p90 ms | p99 ms | CPU p50 ms | CPU p99 ms "
        "| CPU mean ms | server CPU mean ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, s in zip(labels, (hand, orm), strict=True):
        print(
            f"| {label} | {s['moves']} | {s['wall_p50_ms']:.3f} | {s['wall_p90_ms']:.3f} "
            f"| {s['wall_p99_ms']:.3f} | {s['cpu_p50_ms']:.3f} | {s['cpu_p99_ms']:.3f} "
            f"| {s['cpu_mean_ms']:.3f} | {s['server_cpu_mean_ms']:.3f} |"
        )
    ratios = {
        "wall_p50": orm["wall_p50_ms"] / hand["wall_p50_ms"],
        "wall_p99": orm["wall_p99_ms"] / hand["wall_p99_ms"],
        "cpu_p50": orm["cpu_p50_ms"] / hand["cpu_p50_ms"],
        "cpu_mean": orm["cpu_mean_ms"] / hand["cpu_mean_ms"],
    }
    print(
        f"{second} / {first}: "
        + ", ".join(f"{k.replace('_', ' ')} x{v:.2f}" for k, v in ratios.items())
    )
    return {first: hand, second: orm, f"{second}_over_{first}": ratios}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3000, help="part 1 moves per variant")
    parser.add_argument("--games-moves", type=int, default=2000, help="part 2 moves in all")
    parser.add_argument("--warmup", type=int, default=200, help="moves not counted, per part")
    parser.add_argument("--tables", type=int, default=4, help="tables played side by side")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection

    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True)
    if connection.vendor != "postgresql":
        raise SystemExit("needs a PostgreSQL DATABASE_URL")
    from games import seeds
    from games.services import play, unit

    rng = random.Random(args.seed)
    seeds.install(lambda: rng.getrandbits(seeds.BITS))
    unit.Work.commit = lambda self: None  # type: ignore[method-assign]  # no broadcast/timers
    variants: dict[str, tuple[Lock, Save]] = {
        "hand": (play.lock_table, play.save_move),
        "orm": (orm_lock, orm_save_move),
    }

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
    print(
        f"Python {platform.python_version()}, PostgreSQL {pg}, {os.cpu_count()} cores, "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    queries = queries_per_move(variants)
    print(f"statements per game_play: hand-written {queries['hand']}, ORM {queries['orm']}")

    tables = [new_table(f"mpdb{time.time_ns()}-{i}")[0] for i in range(args.tables)]
    t0 = time.perf_counter()
    part1 = db_part(variants, args.moves, args.warmup, tables)
    out: dict[str, Any] = {"queries": queries}
    out["db_part"] = report(
        f"1. database part of a move (lock + save, one transaction), {args.moves} moves "
        f"per variant, {time.perf_counter() - t0:.0f} s",
        part1,
    )
    t0 = time.perf_counter()
    part2, finishing = whole_moves(variants, args.games_moves, args.warmup, args.tables)
    out["whole_moves"] = report(
        f"2. whole moves through services.game_play, {args.games_moves} moves in all "
        f"({finishing} game-ending moves left out), {time.perf_counter() - t0:.0f} s",
        part2,
    )
    t0 = time.perf_counter()
    part3, finishing = as_daphne_runs_them(args.games_moves, args.warmup, args.tables)
    out["as_daphne"] = report(
        f"3. whole moves as daphne runs them (close_old_connections first, kept connection "
        f"with health checks): the site's health-check grace against Django's check at every "
        f"move, {args.games_moves} moves in all ({finishing} game-ending moves left out), "
        f"{time.perf_counter() - t0:.0f} s",
        part3,
        labels=("health check skipped within 1 s (the site)", "checked every move (Django)"),
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
