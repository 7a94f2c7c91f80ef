"""Live-table load test: N tables of 4 WebSocket players against daphne + a Celery worker.

Run on demand (not part of the test suite)::

    python benchmarks/ws_load.py --tables 100 --seconds 30
    python benchmarks/ws_load.py                # a quick run: 10 tables, 15 s
    python benchmarks/ws_load.py --embedded     # embedded servers even when the URLs are set

The services are the ones ``./bin/run`` would use. With ``DATABASE_URL`` / ``REDIS_URL`` set (or
``--pg`` / ``--redis``) the benchmark runs against those external servers; without them, or
with ``--embedded``, it starts an embedded PostgreSQL and Redis (config/launcher/, durable as
under ``./bin/run``) in a temporary folder, runs itself under them and stops them after. The
report names the mode and the servers' versions.

It creates (or reuses) the database ``tienlen_bench`` on that server, migrates it, deletes the
tables and users of its earlier runs there and empties its Redis database (db 3 of the server:
their timers), creates 4 users per table
with logged-in sessions, starts ``daphne config.asgi:application`` and ``celery -A config
worker`` with settings pointing at PostgreSQL and Redis, then

1. **echo baseline**: 4 sockets per table on ``/ws/echo/`` (a consumer that sends each frame
   back through the same Redis channel layer), one message in flight per table;
2. **tables**: 4 sockets per table on ``/ws/tables/<code>/``; the host starts the session and
   every player answers its ``your_turn`` with the first legal play (or a pass). The latency
   of a move is from sending ``play_cards``/``pass_turn`` until all 4 seats received the
   ``game_state_update`` of the new version. Finished games are followed by ``next_game``.

Each phase measures a window of ``--seconds`` that opens once every socket is connected (and,
for tables, every game 1 is dealt): the connection storm of a few hundred sockets is not
counted. Without ``--think-ms`` every table plays as fast as it can (a closed loop: latency is
then tables / throughput, a saturation test); ``--think-ms 1000`` paces each player like a
quick human and measures latency under a steady load.

With ``--ladder`` the bot ladder's worker runs beside the tables (as ``./bin/run`` starts it,
at the site's pace) and one long tables phase holds windows of ``--seconds``, alternately with
the ladder off (no set in flight) and on (sets playing), in the order off, on, on, off,
``--ladder-cycles`` times, on the same tables and sockets: live move latencies are pooled per
kind (docs/benchmarks.md "Bot ladder").

It prints moves/s and p50/p90/p99 latencies for both phases, the CPU time each process used
(client, daphne, worker: a client near 100 % of a core is itself the bottleneck) and the load
average. Options for a deployment-like run: ``--daphne 2`` runs one daphne per core on
consecutive ports and spreads each table's sockets over them round robin (what a proxy in
front of several daphne processes does); ``--client-procs 2`` splits the tables over several
client processes; ``--uvloop`` runs the client on uvloop when it is installed. Needs the
``websockets`` package (in the ``test`` extras).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


#: Set in the environment of the copy of this script that runs under embedded servers.
EMBEDDED_CHILD = "WS_LOAD_EMBEDDED_CHILD"
REDIS_DB = 3  # the benchmark's own Redis database: it empties it


def resolve_services(args: argparse.Namespace) -> bool:
    """Fill ``args.database_url`` (the benchmark's database), ``args.admin_url`` (the server's
    ``postgres`` database) and ``args.redis_url`` from ``--pg`` / ``--redis``, else from
    ``DATABASE_URL`` / ``REDIS_URL``. False when a server is missing: then embedded ones must
    be started first (:func:`run_embedded`)."""
    if args.embedded and not os.environ.get(EMBEDDED_CHILD):
        return False
    database_url = f"postgres://postgres@{args.pg}/postgres" if args.pg else ""
    database_url = database_url or os.environ.get("DATABASE_URL", "")
    redis_url = args.redis or os.environ.get("REDIS_URL", "")
    if not (database_url and redis_url):
        return False
    server = urlsplit(database_url)
    args.admin_url = urlunsplit(server._replace(path="/postgres"))
    args.database_url = urlunsplit(server._replace(path=f"/{args.db}"))
    if not args.redis:  # the server REDIS_URL names, but the benchmark's own database
        args.redis_url = urlunsplit(urlsplit(redis_url)._replace(path=f"/{REDIS_DB}"))
    else:
        args.redis_url = redis_url
    embedded = set(filter(None, os.environ.get("TIENLEN_EMBEDDED", "").split(",")))
    if not os.environ.get(EMBEDDED_CHILD):
        embedded = set()  # a TIENLEN_EMBEDDED inherited from ./bin/run or ./bin/test
    args.modes = {
        "postgres": "embedded" if "postgres" in embedded and not args.pg else "external",
        "redis": "embedded" if "redis" in embedded and not args.redis else "external",
    }
    return True


def run_embedded(argv: list[str], args: argparse.Namespace) -> int:
    """Run this script again under an embedded PostgreSQL and Redis (config/launcher/'s
    ``services``: a temporary folder, stopped after the run); ``--embedded`` replaces both,
    otherwise only the one no URL names is embedded."""
    from config.launcher import services

    env = os.environ
    env[EMBEDDED_CHILD] = "1"
    env.pop("TIENLEN_EMBEDDED", None)
    if args.embedded:
        for name in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
            env.pop(name, None)
    else:  # only what neither an option nor the environment names
        if args.pg:
            env["DATABASE_URL"] = f"postgres://postgres@{args.pg}/postgres"
        if args.redis:
            env["REDIS_URL"] = args.redis
    return services([sys.executable, str(Path(__file__).resolve()), *argv], durable=True)


def server_versions(args: argparse.Namespace) -> dict[str, str]:
    import psycopg
    import redis

    with psycopg.connect(args.admin_url) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    client = redis.Redis.from_url(args.redis_url)
    try:
        redis_version = str(client.info("server").get("redis_version", ""))
    finally:
        client.close()
    return {"postgres": str(row[0]).split()[0] if row else "", "redis": redis_version}


def bench_env(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("CELERY_BROKER_URL", None)  # the broker is the benchmark's Redis database
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis_url,
        DJANGO_DEBUG="false",
        DJANGO_LOG_LEVEL="WARNING",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        GAMES_ENABLE_ECHO_WS="true",
        GAMES_BOT_DELAY_SECONDS="0",
        GAMES_COUNTDOWN_SECONDS="0",
        GAMES_NEXT_GAME_SECONDS="2",
        GAMES_WS_IDLE_SECONDS="600",
        DJANGO_DB_CONN_MAX_AGE="60",  # as in production
        # A closed loop's players move faster than a person may (10 frames/s per socket, 20/s
        # per user): on a fast box the limit, not daphne, set the pace (rate_limited, stalls).
        # The limits are still checked on every frame, so their cost is measured.
        GAMES_WS_RATE="100000",
        GAMES_WS_BURST="100000",
        GAMES_WS_USER_RATE="100000/s",
        PYTHONUNBUFFERED="1",
    )
    return env


def ensure_database(args: argparse.Namespace) -> None:
    import psycopg

    with psycopg.connect(args.admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (args.db,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{args.db}"')


def reset_bench_state(redis_url: str) -> None:
    """Start from nothing: the tables of earlier runs (in the benchmark's own database) would
    otherwise be played on by the worker — their players gone, the house takes their seats
    after the disconnect hold — and their timers would wait in the benchmark's Redis database,
    so the worker's CPU would count other runs' games."""
    import django
    import redis

    django.setup()
    from accounts.models import User
    from games.models import Table

    redis.Redis.from_url(redis_url).flushdb()  # db 3 by default: this script's own
    # --ladder's earlier runs: their ladder and its tables (their seats hold bot versions)
    from bots.models import LadderEntrant, LadderSet

    LadderSet.objects.all().delete()
    LadderEntrant.objects.all().delete()
    Table.objects.filter(options__mode="ladder").delete()
    ours = User.objects.filter(username__regex=r"^b[0-9]+_")  # the users setup_tables makes
    Table.objects.filter(owner__in=ours).delete()
    ours.delete()


def setup_tables(n: int) -> list[tuple[str, list[str]]]:
    """Create ``n`` ready 4-seat tables; return (code, [session cookie per seat])."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services

    run = time.time_ns() // 1000  # distinct names from run to run
    out = []
    for t in range(n):
        users = []
        cookies = []
        for s in range(4):
            user = User.objects.create_user(f"b{run}_{t}_{s}", password=None)
            users.append(user)
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            cookies.append(str(store.session_key))
        # 32 games: a fast closed loop ended a 16-game session inside the window (bad_state)
        table = services.table_create(
            owner=users[0], name=f"Bench {t}", options={"session_length": 32}
        )
        for s, user in enumerate(users[1:], start=1):
            services.seat_join(table_id=table.pk, user=user, seat=s)
        for user in users:
            services.seat_ready(table_id=table.pk, user=user)
        out.append((table.code, cookies))
    return out


def setup_ladder() -> None:
    """Promote two example bots (validated here) so the Tiến Lên ladder has entrants to place
    besides the house anchors (``--ladder``)."""
    import django

    django.setup()
    from accounts.models import User
    from bots.examples import example_code
    from bots.matches.services import bot_promote
    from bots.models import Bot, BotVersion
    from bots.services import bot_create, botversion_validate

    owner, _ = User.objects.get_or_create(username="ladderbench")
    for key in ("greedy", "defensive"):
        bot = Bot.objects.filter(owner=owner, name=f"Ladder {key}").first()
        if bot is None:
            bot = bot_create(owner=owner, name=f"Ladder {key}", code=example_code(key))
        version = bot.versions.order_by("-number").first()
        assert version is not None
        version = botversion_validate(version_id=version.pk)
        if version.status != BotVersion.Status.READY:
            raise SystemExit(f"the example bot {key} did not pass its validation game")
        bot_promote(bot=bot, number=version.number)


def ladder_counts() -> tuple[int, int]:
    """(ladder sets, finished ladder games) so far."""
    from bots.models import LadderSet
    from games.models import Game

    games = Game.objects.filter(table__options__mode="ladder", status=Game.Status.FINISHED).count()
    return LadderSet.objects.count(), games


def ladder_busy() -> bool:
    """Whether a ladder set is in flight or a ladder game is being played."""
    from bots.models import LadderSet
    from games.models import Game

    return (
        LadderSet.objects.filter(status=LadderSet.Status.RUNNING).exists()
        or Game.objects.filter(table__options__mode="ladder", status=Game.Status.RUNNING).exists()
    )


def ladder_playing() -> bool:
    """Whether a ladder game is being played."""
    from games.models import Game

    return Game.objects.filter(table__options__mode="ladder", status=Game.Status.RUNNING).exists()


@dataclass
class Ladder:
    """worker-ladder as ``./bin/run`` starts it (queues ladder + bots.ladder, a thread pool of
    LADDER_THREADS, at nice 15, with its environment: config/launcher/supervisor.py) and
    a ticker thread standing in for beat's ladder tick, every ``LADDER_TICK_SECONDS`` while
    ``ticking`` is set."""

    worker: subprocess.Popen[bytes]
    ticking: Any  # threading.Event
    setting: str  # how it runs (nice, commit)

    @classmethod
    def start(cls, py: str, env: dict[str, str], log_dir: Path) -> Ladder:
        import threading

        from config.celery import app
        from config.launcher.supervisor import LADDER_NICE

        # the ladder plays at the site's pace (a bot move GAMES_BOT_DELAY_SECONDS after the last,
        # 0.8 s by default: every timer of a ladder table is armed in this worker), not at the
        # benchmark's 0 (sessions 10-12 measured a ladder 4-6 times faster than the site's)
        worker_env = dict(env)
        worker_env.pop("GAMES_BOT_DELAY_SECONDS", None)
        if os.environ.get("LADDER_BOT_DELAY_SECONDS"):
            worker_env["GAMES_BOT_DELAY_SECONDS"] = os.environ["LADDER_BOT_DELAY_SECONDS"]
        command = [
            "nice", "-n", str(LADDER_NICE),
            py, "-m", "celery", "-A", "config", "worker", "-Q", "ladder,bots.ladder",
            "-n", "ladder@%h", "--pool", "threads",
            "--concurrency", env.get("LADDER_THREADS") or "4", "--loglevel", "WARNING",
        ]  # fmt: skip
        worker = subprocess.Popen(
            command,
            cwd=ROOT,
            env=worker_env,
            stdout=subprocess.DEVNULL,
            stderr=open(log_dir / "worker-ladder.log", "w"),  # noqa: SIM115
        )
        ticking = threading.Event()
        ticking.set()
        period = float(env.get("LADDER_TICK_SECONDS") or 10)

        def tick() -> None:
            while worker.poll() is None:
                if ticking.wait(1.0):
                    app.send_task("bots.tasks.ladder_tick", queue="ladder")
                    time.sleep(period)

        threading.Thread(target=tick, daemon=True).start()
        delay = worker_env.get("GAMES_BOT_DELAY_SECONDS", "the site's default")
        return cls(worker, ticking, f"nice {LADDER_NICE}, bot delay {delay}")


def service_pids() -> dict[str, list[int]]:
    """The PostgreSQL server (its postmaster: every backend is its child) and Redis, for CPU
    accounting (other databases' work on the same servers counts too)."""
    import redis
    from django.conf import settings
    from django.db import connection

    out: dict[str, list[int]] = {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = int(cursor.fetchone()[0])
    try:
        stat = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
        out["postgres"] = [int(stat[1])]
    except OSError:
        pass
    with contextlib.suppress(Exception):
        out["redis"] = [int(redis.Redis.from_url(settings.REDIS_URL).info("server")["process_id"])]
    return out


#: ``--ladder``: the windows' order, ABBA (a drift over the run weighs on both kinds alike).
LADDER_ORDER = ("off", "on", "on", "off")


def wait_for(condition: Any, timeout: float) -> bool:
    deadline = time.time() + timeout
    while not condition():
        if time.time() > deadline:
            return False
        time.sleep(0.5)
    return True


def ladder_ab(
    ladder: Ladder,
    codes: list[str],
    seconds: float,
    cycles: int,
    pids: dict[str, list[int]],
    until: Path,
) -> list[dict[str, Any]]:
    """``--ladder``'s controller, beside the live tables of one long tables phase: once every
    table is dealt, ``cycles`` times the windows of :data:`LADDER_ORDER`, each ``seconds``
    long: *off* once no ladder set is in flight and no ladder game is played (the ticker
    stopped), *on* once a ladder game is played (the ticker running at its period). Each
    window's wall-clock bounds, CPU per process kind, ladder work and load average; then
    ``until`` is created (the clients stop)."""
    from django.db import connection

    from games.models import Game

    try:
        wait_for(
            lambda: (
                Game.objects.filter(table__code__in=codes).values("table").distinct().count()
                >= len(codes)
            ),
            180,
        )
        time.sleep(5)  # the deals' own work settles
        windows: list[dict[str, Any]] = []
        for n in range(cycles * len(LADDER_ORDER)):
            kind = LADDER_ORDER[n % len(LADDER_ORDER)]
            if kind == "off":
                ladder.ticking.clear()
                ready = wait_for(lambda: not ladder_busy(), 240)
            else:
                if not ladder.ticking.is_set():
                    ladder.ticking.set()
                ready = wait_for(ladder_playing, 120)
            if not ready:
                print(f"window {n + 1} ({kind}): the ladder did not get there; skipped")
                continue
            before = {k: sum(tree_cpu(p) for p in v) for k, v in pids.items()}
            sets, games = ladder_counts()
            start = time.time()
            time.sleep(seconds)
            stop = time.time()
            after = {k: sum(tree_cpu(p) for p in v) for k, v in pids.items()}
            sets2, games2 = ladder_counts()
            windows.append(
                {
                    "kind": kind,
                    "start": start,
                    "stop": stop,
                    "cpu": {k: after[k] - before[k] for k in pids},
                    "ladder_sets": sets2 - sets,
                    "ladder_games": games2 - games,
                    "load": Path("/proc/loadavg").read_text().split(" ", 1)[0],
                }
            )
        return windows
    finally:
        until.touch()
        connection.close()


def ladder_report(tables: Stats, windows: list[dict[str, Any]], ladder: Ladder) -> dict[str, Any]:
    """Print the ladder-on vs -off comparison of one run; return it (for --json)."""
    from bots.models import LadderEntrant

    def inside(w: dict[str, Any]) -> list[float]:
        return [
            lat
            for lat, at in zip(tables.latencies, tables.stamps, strict=True)
            if w["start"] <= at < w["stop"]
        ]

    print(f"\nladder on vs off ({ladder.setting}), windows in order:")
    print(f"{'#':>3} {'ladder':6} {'moves':>6} {'p50 ms':>8} {'p99 ms':>8} {'sets':>5} "
          f"{'games':>6} {'load':>5}  CPU of one core")  # fmt: skip
    pooled: dict[str, list[float]] = {"off": [], "on": []}
    cpu: dict[str, dict[str, float]] = {"off": {}, "on": {}}
    span = {"off": 0.0, "on": 0.0}
    for n, w in enumerate(windows, start=1):
        lat = [x * 1000 for x in inside(w)]
        w.update(moves=len(lat), p50_ms=percentile(lat, 50), p99_ms=percentile(lat, 99))
        pooled[w["kind"]] += lat
        length = w["stop"] - w["start"]
        span[w["kind"]] += length
        for k, v in w["cpu"].items():
            cpu[w["kind"]][k] = cpu[w["kind"]].get(k, 0.0) + v
        shares = ", ".join(f"{k} {v / length:.0%}" for k, v in w["cpu"].items())
        print(
            f"{n:3} {w['kind']:6} {len(lat):6} {percentile(lat, 50):8.1f} "
            f"{percentile(lat, 99):8.1f} {w['ladder_sets']:5} {w['ladder_games']:6} "
            f"{w['load']:>5}  {shares}"
        )
    out: dict[str, Any] = {"setting": ladder.setting, "windows": windows}
    for kind in ("off", "on"):
        lat = pooled[kind]
        out[kind] = {
            "moves": len(lat),
            "p50_ms": percentile(lat, 50),
            "p99_ms": percentile(lat, 99),
            "cpu_share": {k: v / span[kind] for k, v in cpu[kind].items()} if span[kind] else {},
        }
    off, on = out["off"]["p99_ms"], out["on"]["p99_ms"]
    out["p99_change"] = on / off - 1 if off else math.nan
    faults = sum(e.faults for e in LadderEntrant.objects.all())
    suspended = LadderEntrant.objects.filter(state=LadderEntrant.State.SUSPENDED).count()
    out["ladder_faults"], out["ladder_suspended"] = faults, suspended
    print(
        f"pooled: move p99 on {on:.1f} vs off {off:.1f} ms ({out['p99_change']:+.0%}), "
        f"p50 {out['on']['p50_ms']:.1f} vs {out['off']['p50_ms']:.1f} ms, "
        f"{out['on']['moves']} / {out['off']['moves']} moves; ladder faults so far {faults}, "
        f"entrants suspended {suspended}"
    )
    return out


def wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port}")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)  # tables: wall time each move was sent
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # per process kind, in the window
    #: daphne's garbage collections in the window, per generation: (count, seconds)
    gc: dict[str, tuple[float, float]] = field(default_factory=dict)

    def merge(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.stamps += other.stamps
        self.moves += other.moves
        self.games += other.games
        for kind, used in other.cpu.items():  # each client process sees the same servers
            if kind == "client" or kind not in self.cpu:
                self.cpu[kind] = self.cpu.get(kind, 0.0) + used
        for code, n in other.errors.items():
            self.errors[code] = self.errors.get(code, 0) + n
        self.gc = self.gc or other.gc  # each client process sees the same daphnes


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and its reaped children, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its live children (the Celery worker's pool)."""
    total = proc_cpu(pid)
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return total + sum(tree_cpu(int(c)) for c in children)


def url_for(bases: list[str], table: int, seat: int) -> str:
    """Spread a table's sockets over the daphne processes round robin (like a proxy)."""
    return bases[(table * 4 + seat) % len(bases)]


@dataclass
class Window:
    """The measured window of a phase: it opens once every socket is connected (and, for
    tables, every game is dealt), so the connection storm is not measured."""

    seconds: float
    pids: dict[str, list[int]]
    start: float = math.inf  # perf_counter
    stop: float = math.inf
    cpu: dict[str, float] = field(default_factory=dict)
    gc: dict[str, tuple[float, float]] = field(default_factory=dict)
    profile_to: str | None = None  # --profile
    profiler: subprocess.Popen[bytes] | None = None
    used: dict[str, float] | None = None  # CPU seconds in the window (read_cpu)
    #: --ladder: the window lasts until this file exists (the controller's windows inside it)
    until: Path | None = None

    def gc_pauses(self) -> dict[str, tuple[float, float]]:
        """daphne's garbage collections so far, per generation: (count, seconds), from each
        daphne's ``/metrics`` (``tienlen_gc_pause_seconds``; loopback may read it)."""
        import urllib.request

        out: dict[str, tuple[float, float]] = {}
        for url in os.environ.get("WS_LOAD_METRICS", "").split():
            try:
                text = urllib.request.urlopen(url, timeout=5).read().decode()
            except OSError:
                continue
            for line in text.splitlines():
                if not line.startswith("tienlen_gc_pause_seconds_"):
                    continue
                name, value = line.rsplit(" ", 1)
                gen = name.split('generation="', 1)[1].split('"', 1)[0]
                count, total = out.get(gen, (0.0, 0.0))
                if name.startswith("tienlen_gc_pause_seconds_count"):
                    count += float(value)
                elif name.startswith("tienlen_gc_pause_seconds_sum"):
                    total += float(value)
                out[gen] = (count, total)
        return out

    def open(self) -> None:
        # Once only: a table whose game 1 was dealt late (after the 120 s fallback opened the
        # window) must not open it again, which stretched the window past --seconds and
        # overstated moves/s in earlier runs.
        if self.start != math.inf:
            return
        self.cpu = {k: sum(tree_cpu(p) for p in v) for k, v in self.pids.items()}
        self.cpu["client"] = own_cpu()
        self.gc = self.gc_pauses()
        self.start = time.perf_counter()
        self.stop = math.inf if self.until is not None else self.start + self.seconds
        if self.until is None:  # the CPU is read when the window ends, not after the sockets
            # close: 400 sockets' disconnects (presence, seat leases) are not moves' work
            asyncio.get_running_loop().call_later(self.seconds, self.read_cpu)
        profile = self.profile_to
        if profile:  # --profile: sample daphne's GIL holder for the window (py-spy)
            self.profiler = subprocess.Popen(
                ["py-spy", "record", "--gil", "-r", "250", "-d", str(int(self.seconds)),
                 "--format", "raw", "-o", profile, "-p", str(self.pids["daphne"][0])],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip

    def read_cpu(self) -> None:
        """The CPU each process used since the window opened (once: at its end)."""
        if self.used is not None:
            return
        used = {k: sum(tree_cpu(p) for p in v) - self.cpu[k] for k, v in self.pids.items()}
        used["client"] = own_cpu() - self.cpu["client"]
        self.used = used

    def close(self, stats: Stats) -> None:
        if self.profiler is not None:
            self.profiler.wait()
        self.read_cpu()
        stats.cpu = dict(self.used or {})
        after = self.gc_pauses()
        stats.gc = {
            gen: (n - self.gc.get(gen, (0, 0))[0], t - self.gc.get(gen, (0, 0))[1])
            for gen, (n, t) in after.items()
        }

    def left(self) -> float:
        if self.until is not None:
            return 0.0 if self.until.exists() else 5.0
        return self.stop - time.perf_counter()


#: ``--connect-concurrency``: handshakes in flight at once per client process (0: no limit).
CONNECT_CONCURRENCY = 0
_connect_slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def connect_slot() -> contextlib.AbstractAsyncContextManager[Any]:
    """A place among the ``--connect-concurrency`` handshakes of this client's loop."""
    if CONNECT_CONCURRENCY <= 0:
        return contextlib.nullcontext()
    loop = asyncio.get_running_loop()
    if loop not in _connect_slots:
        _connect_slots[loop] = asyncio.Semaphore(CONNECT_CONCURRENCY)
    return _connect_slots[loop]


async def connect_retrying(url: str, stats: Stats, **kwargs: Any) -> Any:
    """Open a socket; during the connection storm of a few hundred sockets on a loaded box
    daphne sometimes drops a handshake (one its consumer does not accept within daphne's
    ``--websocket_connect_timeout``, 5 s), so retry (counted as ``connect_retry``) a few
    times. ``--connect-concurrency`` spreads the storm instead."""
    import websockets

    for attempt in range(5):
        try:
            async with connect_slot():
                return await websockets.connect(
                    url,
                    origin="http://127.0.0.1",  # type: ignore[arg-type]
                    **kwargs,
                )
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            if attempt == 4:
                raise
            stats.errors["connect_retry"] = stats.errors.get("connect_retry", 0) + 1
            await asyncio.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


def think_pause(think: float) -> float:
    """One player's pause before a move: ``think`` ± ``--think-jitter`` (uniform, mean
    ``think``), so paced tables do not all move in the same millisecond the way a fixed pause
    makes them (real tables are not synchronised; a burst of 100 moves at once measures the
    queue behind the burst, not a steady load)."""
    jitter = float(os.environ.get("WS_LOAD_THINK_JITTER", "0.5"))
    return think * random.uniform(1 - jitter, 1 + jitter)


async def echo_phase(
    bases: list[str], tables: list[int], window: Window, think: float = 0.0
) -> Stats:

    stats = Stats()

    async def connect(t: int) -> list[Any]:
        return [await connect_retrying(f"{url_for(bases, t, s)}/ws/echo/", stats) for s in range(4)]

    async def table_loop(socks: list[Any]) -> None:
        i = 0
        while window.left() > 0:
            if think:
                await asyncio.sleep(think_pause(think))
            sock = socks[i % 4]
            i += 1
            sent = time.perf_counter()
            await sock.send(json.dumps({"type": "ping", "t": sent}))
            await sock.recv()
            if sent < window.stop:
                stats.latencies.append(time.perf_counter() - sent)
                stats.moves += 1

    tables_socks = await asyncio.gather(*(connect(t) for t in tables))
    window.open()
    await asyncio.gather(*(table_loop(socks) for socks in tables_socks))
    window.close(stats)
    for socks in tables_socks:
        for sock in socks:
            await sock.close()
    return stats


async def table_phase(
    bases: list[str], setup: list[tuple[int, str, list[str]]], window: Window, think: float = 0.0
) -> Stats:

    stats = Stats()
    dealt: set[int] = set()

    async def run_table(t: int, code: str, cookies: list[str]) -> None:
        sent: dict[int, float] = {}
        walls: dict[int, float] = {}
        seen: dict[int, int] = {}
        socks = []
        for s, cookie in enumerate(cookies):
            socks.append(
                await connect_retrying(
                    f"{url_for(bases, t, s)}/ws/tables/{code}/",
                    stats,
                    additional_headers={"Cookie": f"sessionid={cookie}"},
                    max_size=2**22,
                )
            )
        for sock in socks:
            await sock.recv()  # snapshot
        await socks[0].send(json.dumps({"type": "start_game"}))

        async def player(seat: int, sock: Any) -> None:
            while window.left() > 0:
                try:
                    raw = await asyncio.wait_for(
                        sock.recv(), timeout=max(0.1, min(120, window.left()))
                    )
                except TimeoutError:
                    continue
                frame = json.loads(raw)
                kind = frame["type"]
                if kind == "your_turn":
                    version = frame["version"]
                    if think:
                        await asyncio.sleep(think_pause(think))
                    sent[version + 1] = time.perf_counter()
                    walls[version + 1] = time.time()
                    if frame["legal"]:
                        move = {
                            "type": "play_cards",
                            "version": version,
                            "cards": frame["legal"][0]["cards"],
                        }
                    else:
                        move = {"type": "pass_turn", "version": version}
                    await sock.send(json.dumps(move))
                elif kind == "game_state_update":
                    version = frame["version"]
                    seen[version] = seen.get(version, 0) + 1
                    if seen[version] == 4 and version in sent:
                        at = sent.pop(version)
                        wall = walls.pop(version, 0.0)
                        if window.start <= at < window.stop:
                            stats.latencies.append(time.perf_counter() - at)
                            stats.stamps.append(wall)
                            stats.moves += 1
                        del seen[version]
                elif kind == "game_started":
                    seen.clear()
                    sent.clear()
                    walls.clear()
                    if seat == 0 and t not in dealt:
                        dealt.add(t)
                        if len(dealt) == len(setup):
                            window.open()
                elif kind == "game_ended":
                    if seat == 0:
                        stats.games += 1
                        await sock.send(json.dumps({"type": "next_game"}))
                elif kind == "error":  # counted by code and the frame it answered
                    code = str(frame["code"])
                    if frame.get("ref"):
                        code += f" ({frame['ref']})"
                    stats.errors[code] = stats.errors.get(code, 0) + 1

        try:
            await asyncio.gather(*(player(s, sock) for s, sock in enumerate(socks)))
        finally:
            for sock in socks:
                await sock.close()

    # a table that never gets dealt must not hold the measurement back forever
    asyncio.get_running_loop().call_later(
        120, lambda: window.open() if window.start == math.inf else None
    )
    await asyncio.gather(*(run_table(t, code, cookies) for t, code, cookies in setup))
    window.close(stats)
    return stats


Job = tuple[str, list[str], list[Any], float, bool, float, dict[str, list[int]], Path | None]


def run_client(job: Job) -> Stats:
    """One client process: run a phase over its share of the tables."""
    phase, bases, share, seconds, use_uvloop, think, pids, until = job
    if use_uvloop:
        try:
            import_module("uvloop").install()
        except ImportError:  # optional: pip install uvloop
            print("uvloop is not installed; using asyncio's loop", file=sys.stderr)
    window = Window(seconds, pids, until=until)
    if base := os.environ.get("WS_LOAD_PROFILE"):
        window.profile_to = f"{base}.{phase}.{os.getpid()}"
    if phase == "echo":
        return asyncio.run(echo_phase(bases, share, window, think))
    return asyncio.run(table_phase(bases, share, window, think))


def run_phase(
    phase: str,
    bases: list[str],
    items: list[Any],
    seconds: float,
    procs: int,
    uvloop: bool,
    think: float,
    pids: dict[str, list[int]],
    until: Path | None = None,
) -> Stats:
    if procs <= 1:
        return run_client((phase, bases, items, seconds, uvloop, think, pids, until))
    shares = [items[i::procs] for i in range(procs)]
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        jobs = [(phase, bases, sh, seconds, uvloop, think, pids, until) for sh in shares]
        parts = pool.map(run_client, jobs)
    total = Stats()
    for part in parts:
        total.merge(part)
    return total


def report(name: str, stats: Stats, seconds: float) -> tuple[str, float, float, float, float]:
    lat = [x * 1000 for x in stats.latencies]
    return (
        name,
        stats.moves / seconds,
        percentile(lat, 50),
        percentile(lat, 90),
        percentile(lat, 99),
    )


def print_timeline(folder: Path) -> None:
    """The steps of a move in daphne (``--timeline``): the median and 90th percentile of the
    time from an earlier step to each step (benchmarks/move_timeline.py)."""
    from benchmarks.move_timeline import summary

    rows = summary(folder)
    if not rows:
        print("timeline: no move was seen whole")
        return
    print(f"a move in daphne, step by step ({rows[0][4]} moves seen whole):")
    print(f"  {'step':14} {'since':14} {'p50 ms':>8} {'p90 ms':>8}")
    for step, since, p50, p90, _count in rows:
        print(f"  {step:14} {since:14} {p50:8.3f} {p90:8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="start an embedded PostgreSQL and Redis for the run even when DATABASE_URL / "
        "REDIS_URL are set (without them it does anyway)",
    )
    parser.add_argument(
        "--pg", help="host:port of an external PostgreSQL (default: the one DATABASE_URL names)"
    )
    parser.add_argument("--db", default="tienlen_bench")
    parser.add_argument(
        "--redis",
        help="an external Redis URL, emptied by the run "
        f"(default: the server REDIS_URL names, db {REDIS_DB})",
    )
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument("--daphne", type=int, default=1, help="daphne processes (ports N..)")
    parser.add_argument(
        "--connect-concurrency",
        type=int,
        default=0,
        help="handshakes in flight at once per client process (0: all at once, the default)",
    )
    parser.add_argument("--client-procs", type=int, default=1, help="client processes")
    parser.add_argument("--uvloop", action="store_true", help="client on uvloop if installed")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0,
        help="pause before each move (and each echo message); 0: as fast as possible",
    )
    parser.add_argument(
        "--think-jitter",
        type=float,
        default=0.5,
        help="each pause is think x uniform(1-j, 1+j) (default 0.5); 0: every table in lockstep",
    )
    parser.add_argument("--log-dir", type=Path, default=Path("/tmp"))
    parser.add_argument(
        "--only", choices=("echo", "tables"), help="run one phase (e.g. while profiling)"
    )
    parser.add_argument("--json", type=Path, help="append a one-line JSON summary to this file")
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="with the ladder's worker running (as ./bin/run starts it, at its configured share; "
        "two promoted example bots + the house anchors), alternate windows of --seconds on the "
        "same live tables: ladder off (no set in flight), on (sets playing), in the order "
        "off, on, on, off, --ladder-cycles times; p99 pooled per kind",
    )
    parser.add_argument(
        "--ladder-cycles", type=int, default=3, help="--ladder: cycles of off, on, on, off"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="record daphne (py-spy --gil, raw collapsed stacks) during each window into this "
        "file (the phase's name is appended); py-spy must be on PATH",
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="where a move's wall time goes in daphne, step by step (benchmarks/move_timeline.py"
        "): daphne serves the site with each step of the move's walk timed; a table of the "
        "steps' medians is printed after the report",
    )
    argv = sys.argv[1:]
    args = parser.parse_args(argv)
    if not resolve_services(args):
        sys.exit(run_embedded(argv, args))
    os.environ["WS_LOAD_THINK_JITTER"] = str(args.think_jitter)
    global CONNECT_CONCURRENCY
    CONNECT_CONCURRENCY = args.connect_concurrency
    if args.profile:
        os.environ["WS_LOAD_PROFILE"] = str(args.profile.resolve())
    if args.timeline:  # daphne appends each step's marks there (benchmarks/move_timeline.py)
        os.environ["WS_LOAD_TIMELINE"] = tempfile.mkdtemp(prefix="ws_load_timeline_")

    env = bench_env(args)
    os.environ.update(env)
    ensure_database(args)
    py = sys.executable
    subprocess.run(
        [py, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    reset_bench_state(args.redis_url)
    versions = server_versions(args)
    setup = [(t, code, cookies) for t, (code, cookies) in enumerate(setup_tables(args.tables))]
    if args.ladder:
        setup_ladder()
    ports = [args.port + i for i in range(args.daphne)]
    os.environ["WS_LOAD_METRICS"] = " ".join(f"http://127.0.0.1:{p}/metrics" for p in ports)

    app = "benchmarks.move_timeline:application" if args.timeline else "config.asgi:application"
    daphnes = [
        subprocess.Popen(
            [
                py,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                app,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(args.log_dir / f"daphne-{port}.log", "w"),  # noqa: SIM115
        )
        for port in ports
    ]
    procs = [
        *daphnes,
        subprocess.Popen(
            [
                py,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                "default,bots,bots.0",  # bots.0: the one bot-turn shard (BOTS_QUEUE_SHARDS=1)
                "--loglevel",
                "WARNING",
                "--concurrency",
                str(args.worker_concurrency),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(args.log_dir / "worker.log", "w"),  # noqa: SIM115
        ),
    ]
    worker = procs[-1]
    ladder: Ladder | None = None
    windows: list[dict[str, Any]] = []
    cpu: dict[str, dict[str, float]] = {}
    loads: dict[str, str] = {}
    phases: dict[str, Stats] = {}
    try:
        for port in ports:
            wait_port(port)
        time.sleep(2)  # the worker connects to the broker
        bases = [f"ws://127.0.0.1:{port}" for port in ports]
        plan: list[tuple[str, list[Any]]] = [("echo", list(range(args.tables))), ("tables", setup)]
        for phase, items in plan:
            if args.only and phase != args.only:
                continue
            loads[phase] = Path("/proc/loadavg").read_text().split(" ", 1)[0]
            pids = {"daphne": [p.pid for p in daphnes], "worker": [worker.pid]}
            until = None
            if phase == "tables" and args.ladder:
                # one long tables phase; the controller measures its windows inside it
                ladder = Ladder.start(py, env, args.log_dir)
                procs.append(ladder.worker)
                until = args.log_dir / f"ws_load-stop-{os.getpid()}"
                until.unlink(missing_ok=True)
                watched = {**pids, "worker-ladder": [ladder.worker.pid], **service_pids()}
                codes = [code for _, code, _ in setup]
                import threading

                controller = threading.Thread(
                    target=lambda job: windows.extend(ladder_ab(*job)),
                    args=((ladder, codes, args.seconds, args.ladder_cycles, watched, until),),
                )
                controller.start()
            phases[phase] = run_phase(
                phase,
                bases,
                items,
                args.seconds,
                args.client_procs,
                args.uvloop,
                args.think_ms / 1000,
                pids,
                until,
            )
            cpu[phase] = phases[phase].cpu
            if until is not None:
                controller.join()
        echo, tables = phases.get("echo", Stats()), phases.get("tables", Stats())
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()

    if args.ladder:  # the tables phase lasted all the windows: its figures are per window
        cpu.pop("tables", None)
        tables_row = dict(phases)
        tables_row.pop("tables", None)
        phases = tables_row
    rows = [report("echo baseline (1 socket round trip)", echo, args.seconds)]
    if not args.ladder:
        rows.append(report("table move -> all 4 seats updated", tables, args.seconds))
    print(
        f"\n{args.tables} tables x 4 sockets, {args.seconds:.0f} s/phase, {os.cpu_count()} cores,"
        f" {args.daphne} daphne, {args.client_procs} client process(es),"
        f" think {args.think_ms:.0f} ms ± {args.think_jitter:.0%}"
        f"{', uvloop' if args.uvloop else ''}"
    )
    services = {name: f"{args.modes[name]} {versions[name]}" for name in ("postgres", "redis")}
    print(f"services: PostgreSQL {services['postgres']}, Redis {services['redis']}")
    print(f"{'phase':40} {'msgs/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}")
    for name, rate, p50, p90, p99 in rows:
        print(f"{name:40} {rate:9.1f} {p50:8.1f} {p90:8.1f} {p99:8.1f}")
    if echo.latencies and tables.latencies and not args.ladder:
        p50 = statistics.median(tables.latencies) / statistics.median(echo.latencies)
        p99 = percentile(tables.latencies, 99) / percentile(echo.latencies, 99)
        print(f"ratio table/echo: p50 x{p50:.1f}, p99 x{p99:.1f}")
    print(f"games finished: {tables.games}; errors: {tables.errors or 'none'}")
    ladder_out = ladder_report(tables, windows, ladder) if ladder is not None else None
    for phase, used in cpu.items():
        shares = ", ".join(f"{k} {v / args.seconds:.0%}" for k, v in used.items())
        print(f"CPU during {phase} (of one core): {shares}; load average {loads[phase]}")
    for phase, stats in phases.items():
        if stats.gc:
            pauses = ", ".join(
                f"gen {gen}: {n:.0f} x, {1000 * t:.0f} ms"
                for gen, (n, t) in sorted(stats.gc.items())
            )
            print(f"garbage collections in daphne ({phase}): {pauses}")
    if args.timeline:
        print_timeline(Path(os.environ["WS_LOAD_TIMELINE"]))
    for phase, stats in phases.items():
        per = {k: 1000 * v / stats.moves for k, v in stats.cpu.items()} if stats.moves else {}
        what = "echo message" if phase == "echo" else "move"
        shares = ", ".join(f"{k} {v:.2f}" for k, v in per.items())
        print(f"CPU ms per {what} ({phase}): {shares}")
    if args.json:
        summary = {
            "tables": args.tables,
            "seconds": args.seconds,
            "think_ms": args.think_ms,
            "think_jitter": args.think_jitter,
            "daphne": args.daphne,
            "services": services,
            "load": loads,
            "ladder": ladder_out,
            "phases": {
                phase: {
                    "rate": stats.moves / args.seconds,
                    "p50_ms": percentile([x * 1000 for x in stats.latencies], 50),
                    "p99_ms": percentile([x * 1000 for x in stats.latencies], 99),
                    "cpu_s": stats.cpu,
                    "cpu_ms_per_msg": {
                        k: 1000 * v / stats.moves for k, v in stats.cpu.items() if stats.moves
                    },
                    "errors": stats.errors,
                    "games": stats.games,
                    "gc": stats.gc,
                }
                for phase, stats in phases.items()
            },
        }
        with args.json.open("a") as out:
            out.write(json.dumps(summary) + "\n")


if __name__ == "__main__":
    main()
