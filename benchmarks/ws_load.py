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

    run = time.time_ns() // 1000  # two batches in one second (--ladder) get distinct names
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
        table = services.table_create(owner=users[0], name=f"Bench {t}")
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


def close_tables(codes: list[str]) -> None:
    """Mark the first batch's tables completed and their running games aborted (the house would
    take the seats the clients left and play on, and their turn timers would keep firing on the
    ``default`` worker during the next phase): one row at a time, again when a live move's
    transaction deadlocks with it."""
    from django.db import OperationalError

    from games.models import Game, Table

    for code in codes:
        for _ in range(10):
            try:
                Table.objects.filter(code=code).update(status=Table.Status.COMPLETED)
                Game.objects.filter(table__code=code, status=Game.Status.RUNNING).update(
                    status=Game.Status.ABORTED
                )
                break
            except OperationalError:
                time.sleep(0.2)


def settle_closed_batch(closed_at: float) -> None:
    """Wait until the first batch's clients' seat holds have expired (``seat_hold_expired``
    runs on the ``default`` worker ``GAMES_DISCONNECT_HOLD_SECONDS`` after they left) and a
    few seconds more: left inside the ladder-on window they were the default worker's extra
    CPU per live move that session 10 saw with the ladder on (traced in session 11)."""
    from games.services.unit import hold_seconds

    remaining = closed_at + hold_seconds() + 5.0 - time.time()
    if remaining > 0:
        time.sleep(remaining)


def old_games(codes: list[str]) -> int:
    """Finished games at the tables of ``codes`` (to see that closed tables stay quiet)."""
    from games.models import Game

    return Game.objects.filter(table__code__in=codes, status=Game.Status.FINISHED).count()


def ladder_counts() -> tuple[int, int]:
    """(ladder sets, finished ladder games) so far."""
    from bots.models import LadderSet
    from games.models import Game

    games = Game.objects.filter(table__options__mode="ladder", status=Game.Status.FINISHED).count()
    return LadderSet.objects.count(), games


def start_ladder(py: str, env: dict[str, str], log_dir: Path) -> subprocess.Popen[bytes]:
    """worker-ladder as ``./bin/run`` starts it (queues ladder + bots.ladder, a thread pool of
    LADDER_THREADS, nice 15) and a ticker thread standing in for beat's ladder tick."""
    import threading

    from config.celery import app

    worker = subprocess.Popen(
        [
            "nice",
            "-n",
            "15",
            py,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            "ladder,bots.ladder",
            "-n",
            "ladder@%h",
            "--pool",
            "threads",
            "--concurrency",
            env.get("LADDER_THREADS") or "4",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(log_dir / "worker-ladder.log", "w"),  # noqa: SIM115
    )
    period = float(env.get("LADDER_TICK_SECONDS") or 10)

    def tick() -> None:
        while worker.poll() is None:
            app.send_task("bots.tasks.ladder_tick", queue="ladder")
            time.sleep(period)

    threading.Thread(target=tick, daemon=True).start()
    return worker


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
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # per process kind, in the window

    def merge(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.moves += other.moves
        self.games += other.games
        for kind, used in other.cpu.items():  # each client process sees the same servers
            if kind == "client" or kind not in self.cpu:
                self.cpu[kind] = self.cpu.get(kind, 0.0) + used
        for code, n in other.errors.items():
            self.errors[code] = self.errors.get(code, 0) + n


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
    profile_to: str | None = None  # --profile
    profiler: subprocess.Popen[bytes] | None = None

    def open(self) -> None:
        # Once only: a table whose game 1 was dealt late (after the 120 s fallback opened the
        # window) must not open it again, which stretched the window past --seconds and
        # overstated moves/s in earlier runs.
        if self.start != math.inf:
            return
        self.cpu = {k: sum(tree_cpu(p) for p in v) for k, v in self.pids.items()}
        self.cpu["client"] = own_cpu()
        self.start = time.perf_counter()
        self.stop = self.start + self.seconds
        profile = self.profile_to
        if profile:  # --profile: sample daphne's GIL holder for the window (py-spy)
            self.profiler = subprocess.Popen(
                ["py-spy", "record", "--gil", "-r", "250", "-d", str(int(self.seconds)),
                 "--format", "raw", "-o", profile, "-p", str(self.pids["daphne"][0])],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip

    def close(self, stats: Stats) -> None:
        if self.profiler is not None:
            self.profiler.wait()
        used = {k: sum(tree_cpu(p) for p in v) - self.cpu[k] for k, v in self.pids.items()}
        used["client"] = own_cpu() - self.cpu["client"]
        stats.cpu = used

    def left(self) -> float:
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
                        if window.start <= at < window.stop:
                            stats.latencies.append(time.perf_counter() - at)
                            stats.moves += 1
                        del seen[version]
                elif kind == "game_started":
                    seen.clear()
                    sent.clear()
                    if seat == 0 and t not in dealt:
                        dealt.add(t)
                        if len(dealt) == len(setup):
                            window.open()
                elif kind == "game_ended":
                    if seat == 0:
                        stats.games += 1
                        await sock.send(json.dumps({"type": "next_game"}))
                elif kind == "error":
                    stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1

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


Job = tuple[str, list[str], list[Any], float, bool, float, dict[str, list[int]]]


def run_client(job: Job) -> Stats:
    """One client process: run a phase over its share of the tables."""
    phase, bases, share, seconds, use_uvloop, think, pids = job
    if use_uvloop:
        try:
            import_module("uvloop").install()
        except ImportError:  # optional: pip install uvloop
            print("uvloop is not installed; using asyncio's loop", file=sys.stderr)
    window = Window(seconds, pids)
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
) -> Stats:
    if procs <= 1:
        return run_client((phase, bases, items, seconds, uvloop, think, pids))
    shares = [items[i::procs] for i in range(procs)]
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        jobs = [(phase, bases, sh, seconds, uvloop, think, pids) for sh in shares]
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
        help="run the tables phase twice on fresh tables: ladder off, then on (worker-ladder at "
        "nice 15 at its configured share, two promoted example bots + the house anchors)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="record daphne (py-spy --gil, raw collapsed stacks) during each window into this "
        "file (the phase's name is appended); py-spy must be on PATH",
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
    ladder_setup = []
    if args.ladder:
        setup_ladder()
        ladder_setup = [
            (t, code, cookies) for t, (code, cookies) in enumerate(setup_tables(args.tables))
        ]
    ports = [args.port + i for i in range(args.daphne)]

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
                "config.asgi:application",
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
    ladder_work, ladder_before, old_before, old_after = (0, 0), (0, 0), 0, 0
    cpu: dict[str, dict[str, float]] = {}
    loads: dict[str, str] = {}
    phases: dict[str, Stats] = {}
    try:
        for port in ports:
            wait_port(port)
        time.sleep(2)  # the worker connects to the broker
        bases = [f"ws://127.0.0.1:{port}" for port in ports]
        plan: list[tuple[str, list[Any]]] = [("echo", list(range(args.tables))), ("tables", setup)]
        if args.ladder:
            plan.append(("tables+ladder", ladder_setup))
        for phase, items in plan:
            if args.only and phase.split("+")[0] != args.only:
                continue
            if phase == "tables+ladder":
                closed_at = time.time()
                close_tables([code for _, code, _ in setup])
                procs.append(start_ladder(py, env, args.log_dir))
                before = ladder_counts()
                deadline = time.time() + 120
                while ladder_counts()[0] == before[0] and time.time() < deadline:
                    time.sleep(1)  # the phase starts once a ladder set is in flight
                settle_closed_batch(closed_at)
                ladder_before = ladder_counts()
                old_before = old_games([code for _, code, _ in setup])
            loads[phase] = Path("/proc/loadavg").read_text().split(" ", 1)[0]
            pids = {"daphne": [p.pid for p in daphnes], "worker": [worker.pid]}
            if phase == "tables+ladder":
                pids["worker-ladder"] = [procs[-1].pid]
            phases[phase] = run_phase(
                phase,
                bases,
                items,
                args.seconds,
                args.client_procs,
                args.uvloop,
                args.think_ms / 1000,
                pids,
            )
            cpu[phase] = phases[phase].cpu
            if phase == "tables+ladder":
                after = ladder_counts()
                ladder_work = (after[0] - ladder_before[0], after[1] - ladder_before[1])
                old_after = old_games([code for _, code, _ in setup]) - old_before
        echo, tables = phases.get("echo", Stats()), phases.get("tables", Stats())
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()

    rows = [
        report("echo baseline (1 socket round trip)", echo, args.seconds),
        report("table move -> all 4 seats updated", tables, args.seconds),
    ]
    if "tables+ladder" in phases:
        rows.append(
            report("  the same, ladder running", phases["tables+ladder"], args.seconds),
        )
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
    if echo.latencies and tables.latencies:
        p50 = statistics.median(tables.latencies) / statistics.median(echo.latencies)
        p99 = percentile(tables.latencies, 99) / percentile(echo.latencies, 99)
        print(f"ratio table/echo: p50 x{p50:.1f}, p99 x{p99:.1f}")
    print(f"games finished: {tables.games}; errors: {tables.errors or 'none'}")
    if "tables+ladder" in phases:
        on = phases["tables+ladder"]
        off_p99, on_p99 = percentile(tables.latencies, 99), percentile(on.latencies, 99)
        change = (on_p99 / off_p99 - 1) if off_p99 else float("nan")
        print(
            f"ladder on vs off: move p99 {on_p99 * 1000:.1f} vs {off_p99 * 1000:.1f} ms "
            f"({change:+.0%}), p50 {percentile(on.latencies, 50) * 1000:.1f} vs "
            f"{percentile(tables.latencies, 50) * 1000:.1f} ms; during it the ladder started "
            f"{ladder_work[0]} set(s) and finished {ladder_work[1]} game(s); games finished "
            f"{on.games}; errors: {on.errors or 'none'}; games finished meanwhile at the "
            f"closed first batch's tables: {old_after}"
        )
    for phase, used in cpu.items():
        shares = ", ".join(f"{k} {v / args.seconds:.0%}" for k, v in used.items())
        print(f"CPU during {phase} (of one core): {shares}; load average {loads[phase]}")
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
                }
                for phase, stats in phases.items()
            },
        }
        with args.json.open("a") as out:
            out.write(json.dumps(summary) + "\n")


if __name__ == "__main__":
    main()
