"""Issue 27's acceptance run: two real nodes behind HAProxy, one node killed with ``kill -9``.

Run on demand (not part of the test suite; tests/cluster/test_acceptance.py runs it small)::

    python benchmarks/cluster.py --pg 127.0.0.1:5432 --db tienlen_cluster \\
        --redis redis://127.0.0.1:6379/13 --port 8450 --tables 60

What it does, against one PostgreSQL database (created, migrated by node b, its earlier tables
and users deleted) and one Redis database (emptied: use one of your own):

1. **Node b** (``./bin/node --roles web,worker,bots,lab,ladder,beat`` on 127.0.0.21) and
   HAProxy from ``config/haproxy.py`` (the proxy on ``--port``, node a on 127.0.0.20 and b on
   127.0.0.21, each on ``--port + 1``, stats on ``--port + 2``). ``--tables`` Practice tables
   (one person, three house AIs) whose person is a WebSocket client through the proxy that
   plays the first legal move of every ``your_turn`` and reconnects (with backoff) whenever
   its socket closes, resyncing from the ``snapshot``'s version: no page reload.
2. **CPU per move, one web node**: a window of ``--window`` seconds, daphne's CPU seconds
   over the moves stored (the action log) meanwhile.
3. **Node a** starts (the same roles); every client is made to reconnect once, so ``leastconn``
   spreads them over both nodes; **CPU per move, two web nodes**: the same window.
4. **Node a killed**: ``kill -9`` of every process of node a at once (its launcher,
   supervisord, daphne, every worker, beat). For each table: the seconds until a move of it is
   stored again; for each client whose socket was cut: the seconds until it is connected again
   (through the proxy, to b).
5. **Node a comes back** and takes work again: sockets that reconnect go to it (HAProxy's
   current sessions per server), and its home bot worker takes its shard lease back.
6. **Beat's node**: ``kill -9`` of the beat holding redbeat's lock; the seconds until the other
   node's beat holds it and until beat's 5 s jobs (``games-timers-heal``) run again.
7. **Checks**, from the database's action log and the clients' records: every game's action
   ``seq`` is exactly ``1..version`` (none lost, none twice: a seq is unique per game), every
   version a client saw is stored, and every move a client saw accepted is stored once with its
   seat (a person's move, actor ``human``).

It prints a report (and ``--json`` writes it) with the load average. Not covered yet (issue 27
asks for them): JS bots, an external bot, a duplicate match and a tournament round at the
same time; docs/benchmarks.md "Cluster (issue 27)" says what was measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NODE_ADDRESSES = {"a": "127.0.0.20", "b": "127.0.0.21"}
ROLES = "web,worker,bots,lab,ladder,beat"
HAPROXY = "/usr/sbin/haproxy"


# --------------------------------------------------------------------------- processes
def node_env(args: argparse.Namespace, name: str) -> dict[str, str]:
    env = dict(os.environ)
    for key in ("CELERY_BROKER_URL", "BOTS_WORKER_BROKER", "TIENLEN_EMBEDDED"):
        env.pop(key, None)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=args.database_url,
        REDIS_URL=args.redis,
        DJANGO_DEBUG="false",
        DJANGO_LOG_LEVEL="WARNING",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost,127.0.0.20,127.0.0.21",
        DJANGO_TRUSTED_PROXIES="127.0.0.1",
        GAMES_BOT_DELAY_SECONDS=str(args.bot_delay),
        GAMES_COUNTDOWN_SECONDS="0",
        GAMES_NEXT_GAME_SECONDS="1",
        GAMES_WS_IDLE_SECONDS="600",
        CELERY_CONCURRENCY="2",
        BOTS_SHARD_THREADS="4",
        BOTS_TRIALS_CONCURRENCY="1",
        TIENLEN_DATA_DIR=str(args.data),
        HOST=NODE_ADDRESSES[name],
        PORT=str(args.port + 1),
        BEAT_LOCK_TIMEOUT=str(args.beat_lock),
        PYTHONUNBUFFERED="1",
    )
    return env


@dataclass
class Node:
    name: str
    proc: subprocess.Popen[bytes]
    log: Path

    def processes(self) -> list[Any]:
        import psutil

        try:
            root = psutil.Process(self.proc.pid)
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def pids_of(self, word: str) -> list[int]:
        out = []
        for p in self.processes():
            with contextlib.suppress(Exception):
                if any(word in part for part in p.cmdline()):
                    out.append(p.pid)
        return out

    def cpu_of(self, word: str) -> float:
        import psutil

        total = 0.0
        for pid in self.pids_of(word):
            with contextlib.suppress(psutil.Error):
                t = psutil.Process(pid).cpu_times()
                total += t.user + t.system
        return total

    def kill9(self) -> int:
        """``kill -9`` every process of the node at once; how many."""
        procs = self.processes()
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.wait(10)
        return len(procs)


def start_node(args: argparse.Namespace, name: str, *, migrate: bool = False) -> Node:
    log = args.data / f"node-{name}.log"
    out = open(log, "ab")  # noqa: SIM115 - the node's whole life
    cmd = [str(ROOT / "bin" / "node"), "--roles", ROLES, "--name", name]
    cmd += ["--host", NODE_ADDRESSES[name], "--port", str(args.port + 1)]
    if migrate:
        cmd.append("--migrate")
    proc = subprocess.Popen(cmd, env=node_env(args, name), stdout=out, stderr=out, cwd=ROOT)
    node = Node(name, proc, log)
    wait_until(
        lambda: (
            http_status(f"http://{NODE_ADDRESSES[name]}:{args.port + 1}/healthz?scope=node") == 200
        ),
        timeout=300,
        what=f"node {name} healthy (log: {log})",
        alive=proc,
    )
    return node


def http_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return 0


def wait_until(cond: Any, *, timeout: float, what: str, alive: Any = None) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if alive is not None and alive.poll() is not None:
            raise SystemExit(f"exited while waiting for {what}")
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.2)


def start_haproxy(args: argparse.Namespace) -> subprocess.Popen[bytes]:
    from config.haproxy import render

    cfg = args.data / "haproxy.cfg"
    cfg.write_text(
        render(
            bind=f"127.0.0.1:{args.port}",
            servers=[(n, f"{a}:{args.port + 1}") for n, a in NODE_ADDRESSES.items()],
            stats=f"127.0.0.1:{args.port + 2}",
        )
    )
    log = open(args.data / "haproxy.log", "ab")  # noqa: SIM115
    return subprocess.Popen([HAPROXY, "-db", "-f", str(cfg)], stdout=log, stderr=log)


def proxy_servers(args: argparse.Namespace) -> dict[str, dict[str, str]]:
    """HAProxy's stats per server of the backend: status, current and total sessions."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{args.port + 2}/;csv", timeout=5) as r:
            lines = r.read().decode().splitlines()
    except OSError:
        return {}
    head = lines[0].lstrip("# ").split(",")
    rows = [dict(zip(head, line.split(","), strict=False)) for line in lines[1:]]
    return {
        r["svname"]: {"status": r["status"], "scur": r["scur"], "stot": r["stot"]}
        for r in rows
        if r.get("pxname") == "web" and r.get("svname") in NODE_ADDRESSES
    }


# --------------------------------------------------------------------------- database side
def prepare_database(args: argparse.Namespace) -> None:
    import psycopg

    admin = urlunsplit(urlsplit(args.database_url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (args.db,))
        if not found.fetchone():
            conn.execute(f'CREATE DATABASE "{args.db}"')


def django_setup(args: argparse.Namespace) -> None:
    os.environ.update(node_env(args, "b"))
    import django

    django.setup()


def reset_state(args: argparse.Namespace) -> None:
    from accounts.models import User
    from games.models import Table

    ours = User.objects.filter(username__startswith="cl_")
    Table.objects.filter(owner__in=ours).delete()
    ours.delete()


def setup_tables(n: int) -> list[tuple[int, str, str]]:
    """``n`` Practice tables (a person and three house AIs), already dealing; returns
    (table id, code, the person's session cookie)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services

    run = time.time_ns() // 1000
    out = []
    for t in range(n):
        user = User.objects.create_user(f"cl_{run}_{t}", password=None)
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        table = services.table_create_practice(owner=user, name=f"Cluster {t}", turn_seconds=60)
        out.append((table.pk, table.code, str(store.session_key)))
    return out


def last_action_ids(table_ids: list[int]) -> dict[int, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT g.table_id, max(a.id) FROM games_action a JOIN games_game g ON g.id = a.game_id"
            " WHERE g.table_id = ANY(%s) GROUP BY g.table_id",
            [table_ids],
        )
        return {int(t): int(m) for t, m in cursor.fetchall()}


def moves_since(mark: int) -> int:
    from games.models import Action

    return Action.objects.filter(pk__gt=mark).count()


def last_id() -> int:
    from games.models import Action

    return int(Action.objects.order_by("-pk").values_list("pk", flat=True).first() or 0)


# --------------------------------------------------------------------------- clients
@dataclass
class Person:
    table_id: int
    code: str
    cookie: str
    connects: int = 0
    drops: list[float] = field(default_factory=list)  # monotonic time a socket was cut
    back: list[float] = field(default_factory=list)  # seconds until connected again
    seen: dict[int, int] = field(default_factory=dict)  # game id -> highest version seen
    mine: set[tuple[int, int]] = field(default_factory=set)  # (game, version) of my moves
    sent: dict[tuple[int, int], float] = field(default_factory=dict)
    seat: int | None = None
    errors: dict[str, int] = field(default_factory=dict)
    game: int | None = None
    ws: Any = None
    resyncs: int = 0


async def person_loop(args: argparse.Namespace, p: Person, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    url = f"ws://127.0.0.1:{args.port}/ws/tables/{p.code}/"
    cut_at: float | None = None
    backoff = 0.1
    while not stop.is_set():
        try:
            async with connect(
                url,
                origin=f"http://127.0.0.1:{args.port}",  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={p.cookie}"},
                open_timeout=10,
                max_size=2**22,
            ) as ws:
                p.ws = ws
                async for raw in ws:
                    frame = json.loads(raw)
                    await on_frame(p, ws, frame)
                    if frame.get("type") == "snapshot":
                        p.connects += 1
                        backoff = 0.1
                        if cut_at is not None:
                            p.back.append(time.monotonic() - cut_at)
                            p.resyncs += 1
                            cut_at = None
                    if stop.is_set():
                        return
        except (OSError, TimeoutError, WebSocketException):
            pass
        p.ws = None
        if stop.is_set():
            return
        if cut_at is None:
            cut_at = time.monotonic()
            p.drops.append(cut_at)
        await asyncio.sleep(backoff)
        backoff = min(2.0, backoff * 2)


async def on_frame(p: Person, ws: Any, frame: dict[str, Any]) -> None:
    """Games are keyed by their number at the table (what frames carry)."""
    kind = frame.get("type")
    if kind == "snapshot":
        you = frame.get("you") or {}
        p.seat = you.get("seat", p.seat)
        game = frame.get("game") or {}
        if game.get("number") is not None:
            p.game = int(game["number"])
            p.seen[p.game] = max(p.seen.get(p.game, 0), int(game.get("version", 0)))
        if frame.get("your_turn"):
            await play(p, ws, frame["your_turn"])
    elif kind == "game_started":
        p.game = int(frame["game"])
    elif kind == "game_state_update":
        number, v = int(frame["game"]), int(frame["version"])
        p.game = number
        p.seen[number] = max(p.seen.get(number, 0), v)
        if (number, v) in p.sent:
            p.mine.add((number, v))
    elif kind == "your_turn":
        await play(p, ws, frame)
    elif kind == "error":
        code = str(frame.get("code"))
        p.errors[code] = p.errors.get(code, 0) + 1


async def play(p: Person, ws: Any, turn: dict[str, Any]) -> None:
    number, version = int(turn.get("game") or p.game or 0), int(turn["version"])
    if turn.get("legal"):
        move = {"type": "play_cards", "version": version, "cards": turn["legal"][0]["cards"]}
    else:
        move = {"type": "pass_turn", "version": version}
    p.sent[(number, version + 1)] = time.monotonic()
    await ws.send(json.dumps(move))


class Clients:
    """The people's sockets, on an event loop in a thread of their own."""

    def __init__(self, args: argparse.Namespace, people: list[Person]) -> None:
        self.args, self.people = args, people
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(
            asyncio.gather(*(person_loop(self.args, p, self.stop) for p in self.people))
        )

    def cut_all(self, every: int = 1) -> None:
        """Close every ``every``-th socket once (the clients reconnect through the proxy)."""

        async def cut() -> None:
            for p in self.people[::every]:
                if p.ws is not None:
                    with contextlib.suppress(Exception):
                        await p.ws.close()

        asyncio.run_coroutine_threadsafe(cut(), self.loop).result(30)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.cut_all()
        self.thread.join(30)

    def connected(self) -> int:
        return sum(1 for p in self.people if p.ws is not None)


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_window(args: argparse.Namespace, nodes: list[Node]) -> dict[str, Any]:
    """daphne's CPU seconds per node over ``--window`` seconds and the moves stored meanwhile."""
    mark = last_id()
    before = {n.name: n.cpu_of("daphne") for n in nodes}
    t0 = time.monotonic()
    time.sleep(args.window)
    took = time.monotonic() - t0
    moves = moves_since(mark)
    cpu = {n.name: n.cpu_of("daphne") - before[n.name] for n in nodes}
    total = sum(cpu.values())
    return {
        "nodes": len(nodes),
        "seconds": round(took, 1),
        "moves": moves,
        "moves_per_s": round(moves / took, 1),
        "daphne_cpu_s": {k: round(v, 2) for k, v in cpu.items()},
        "cpu_ms_per_move": round(1000 * total / max(1, moves), 2),
        "cpu_ms_per_move_per_node": {k: round(1000 * v / max(1, moves), 2) for k, v in cpu.items()},
        "load": loadavg(),
    }


def redis_client(args: argparse.Namespace) -> Any:
    import redis

    return redis.Redis.from_url(args.redis, decode_responses=True)


def shard_leases(args: argparse.Namespace) -> dict[str, str | None]:
    from django.conf import settings

    from config.shards import lease_key

    r = redis_client(args)
    shards = int(getattr(settings, "BOTS_QUEUE_SHARDS", 1))
    return {f"bots.{n}": r.get(lease_key(f"bots.{n}")) for n in range(shards)}


def tournament_leases(args: argparse.Namespace) -> dict[str, str | None]:
    from config.shards import lease_key

    r = redis_client(args)
    return {q: r.get(lease_key(q)) for q in ("bots.tournament", "bots.ladder")}


def beat_holder(args: argparse.Namespace) -> str | None:
    from django.conf import settings

    value = redis_client(args).get(f"{settings.CELERY_REDBEAT_KEY_PREFIX}:lock")
    return None if value is None else str(value)


def beat_last_run(args: argparse.Namespace, entry: str) -> float | None:
    from django.conf import settings

    meta = redis_client(args).hget(f"{settings.CELERY_REDBEAT_KEY_PREFIX}{entry}", "meta")
    if not meta:
        return None
    last = json.loads(meta).get("last_run_at")
    if isinstance(last, dict):  # redbeat's encoding of a datetime
        from datetime import datetime

        y, mo, d, h, mi, sec = (
            int(last[k]) for k in ("year", "month", "day", "hour", "minute", "second")
        )
        return datetime(y, mo, d, h, mi, sec, int(last.get("microsecond", 0))).timestamp()
    return None


def watch_beat(
    args: argparse.Namespace, holder: str | None, t0: float, wall0: float, out: dict[str, Any]
) -> None:
    """Seconds (from ``t0``) until another beat holds redbeat's lock, and until beat's
    ``games-timers-heal`` ran again (its ``last_run_at`` after ``wall0``)."""
    deadline = t0 + 60
    while time.monotonic() < deadline and ("lock_taken_s" not in out or "heal_s" not in out):
        h = beat_holder(args)
        if "lock_taken_s" not in out and h is not None and h != holder:
            out["lock_after"], out["lock_taken_s"] = h, round(time.monotonic() - t0, 2)
        last = beat_last_run(args, "games-timers-heal")
        if "heal_s" not in out and last is not None and last > wall0:
            out["heal_s"] = round(time.monotonic() - t0, 2)
        time.sleep(0.1)


def recovery(
    tables: list[int], people: list[Person], since: float, cap: float, mark: int
) -> dict[str, Any]:
    """Seconds (from ``since``) until each table stored a move again; until each cut client
    had its snapshot again."""
    from games.models import Action

    moved: dict[int, float] = {}
    deadline = time.monotonic() + cap
    while len(moved) < len(tables) and time.monotonic() < deadline:
        rows = (
            Action.objects.filter(pk__gt=mark, game__table_id__in=set(tables) - set(moved))
            .values_list("game__table_id", flat=True)
            .distinct()
        )
        now = time.monotonic()
        for t in rows:
            moved.setdefault(int(t), now - since)
        time.sleep(0.2)
    cut = [p for p in people if any(d >= since - 1 for d in p.drops)]
    back = [p.back[-1] for p in cut if p.back and p.drops[-1] >= since - 1]
    return {
        "tables": len(tables),
        "tables_moved": len(moved),
        "table_seconds_max": round(max(moved.values(), default=float("nan")), 2),
        "table_seconds_p50": round(sorted(moved.values())[len(moved) // 2], 2) if moved else None,
        "stuck": sorted(set(tables) - set(moved))[:10],
        "clients_cut": len(cut),
        "clients_back": len(back),
        "client_seconds_max": round(max(back, default=float("nan")), 2),
    }


def check_log(people: list[Person]) -> dict[str, Any]:
    """Every game's seqs are 1..version; every version a client saw is stored; every move a
    client saw accepted is stored once with its seat, by a person."""
    from games.models import Action, Game

    problems: list[str] = []
    games = 0
    mine = 0
    for p in people:
        for g in Game.objects.filter(table_id=p.table_id):
            games += 1
            seqs = list(Action.objects.filter(game=g).order_by("seq").values_list("seq", flat=True))
            if seqs != list(range(1, g.version + 1)):
                problems.append(f"table {p.table_id} game {g.number}: seqs != 1..{g.version}")
            if p.seen.get(g.number, 0) > g.version:
                problems.append(f"table {p.table_id} game {g.number}: client saw a lost version")
        for number, version in sorted(p.mine):
            mine += 1
            rows = list(
                Action.objects.filter(
                    game__table_id=p.table_id, game__number=number, seq=version
                ).values_list("seat", "actor")
            )
            if len(rows) != 1 or (p.seat is not None and rows[0][0] != p.seat):
                problems.append(f"table {p.table_id} game {number} v{version}: {rows}")
    return {
        "games": games,
        "accepted_moves_checked": mine,
        "problems": problems[:20],
        "lost_or_twice": len(problems),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default="127.0.0.1:5432")
    parser.add_argument("--db", default="tienlen_cluster")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--port", type=int, default=8450)
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--data", type=Path, default=Path("/tmp/tienlen-cluster"))
    parser.add_argument("--skip-beat", action="store_true")
    parser.add_argument("--beat-lock", type=int, default=10, help="BEAT_LOCK_TIMEOUT (s)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    args.database_url = f"postgres://postgres@{args.pg}/{args.db}"
    args.data = args.data.resolve()
    args.data.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {
        "tables": args.tables,
        "beat_lock_timeout": args.beat_lock,
        "load_start": loadavg(),
    }
    prepare_database(args)
    nodes: dict[str, Node] = {}
    haproxy = None
    clients = None
    try:
        redis_client(args).flushdb()  # the run's own Redis database: nothing of earlier runs
        django_setup(args)
        # earlier runs' tables go before any node could play on them (a fresh database has
        # no tables yet: node b migrates it)
        with contextlib.suppress(Exception):
            reset_state(args)
        say("node b (migrates)")
        nodes["b"] = start_node(args, "b", migrate=True)
        haproxy = start_haproxy(args)
        wait_until(
            lambda: proxy_servers(args).get("b", {}).get("status") == "UP",
            timeout=30,
            what="the proxy to see b",
        )
        say(f"{args.tables} tables")
        setup = setup_tables(args.tables)
        table_ids = [t for t, _c, _k in setup]
        people = [Person(t, c, k) for t, c, k in setup]
        clients = Clients(args, people)
        wait_until(lambda: clients.connected() == len(people), timeout=120, what="every client")
        time.sleep(3)
        say("CPU per move, one web node")
        report["cpu_one_node"] = cpu_window(args, [nodes["b"]])
        say("node a")
        nodes["a"] = start_node(args, "a")
        wait_until(
            lambda: proxy_servers(args).get("a", {}).get("status") == "UP",
            timeout=30,
            what="the proxy to see a",
        )
        clients.cut_all(every=2)  # half of them reconnect: leastconn sends them to a
        wait_until(lambda: clients.connected() == len(people), timeout=60, what="reconnects")
        time.sleep(3)
        report["sockets_before_kill"] = proxy_servers(args)
        say("CPU per move, two web nodes")
        report["cpu_two_nodes"] = cpu_window(args, [nodes["a"], nodes["b"]])
        report["shard_leases_before_kill"] = shard_leases(args)
        report["tournament_ladder_leases_before_kill"] = tournament_leases(args)
        report["beat_holder_before_kill"] = beat_holder(args)

        say("kill -9 every process of node a")
        killed_at, mark = time.monotonic(), last_id()
        report["node_a_processes_killed"] = nodes["a"].kill9()
        report["kill_node_a"] = recovery(table_ids, people, killed_at, cap=60, mark=mark)
        report["shard_leases_after_kill"] = shard_leases(args)
        report["tournament_ladder_leases_after_kill"] = tournament_leases(args)
        report["load_after_kill"] = loadavg()

        say("node a back")
        nodes["a"] = start_node(args, "a")
        wait_until(
            lambda: proxy_servers(args).get("a", {}).get("status") == "UP",
            timeout=30,
            what="the proxy to see a again",
        )
        clients.cut_all(every=2)
        wait_until(lambda: clients.connected() == len(people), timeout=60, what="reconnects")
        samples = []
        mark = last_id()
        for _ in range(10):  # what the proxy says of a, every second for 10 s
            a = proxy_servers(args).get("a", {})
            samples.append(f"{a.get('status')}:{a.get('scur')}")
            time.sleep(1)
        report["node_a_back"] = {
            "a_status_scur_each_s": samples,
            "sockets": proxy_servers(args),
            "shard_leases": shard_leases(args),
            "tournament_ladder_leases": tournament_leases(args),
        }
        report["node_a_back"]["moves_10s"] = moves_since(mark)

        if not args.skip_beat:
            # b's beat started first and never died: it holds the lock. Its whole node dies.
            holder = beat_holder(args)
            say(f"kill -9 every process of node b, beat's node (lock {holder})")
            before = beat_last_run(args, "games-timers-heal")
            t0, wall0, mark = time.monotonic(), time.time(), last_id()
            killed = nodes["b"].kill9()
            beat: dict[str, Any] = {}
            watcher = threading.Thread(target=watch_beat, args=(args, holder, t0, wall0, beat))
            watcher.start()
            tables_back = recovery(table_ids, people, t0, cap=60, mark=mark)
            watcher.join(90)
            report["kill_node_b_beat"] = {
                "processes_killed": killed,
                "lock_before": holder,
                "timers_heal_last_before": before,
                **beat,
                **tables_back,
                "shard_leases_after": shard_leases(args),
                "tournament_ladder_leases_after": tournament_leases(args),
            }
        clients.close()
        clients = None
        time.sleep(2)
        report["log"] = check_log(people)
        report["clients"] = {
            "connects": sum(p.connects for p in people),
            "resyncs": sum(p.resyncs for p in people),
            "errors": _merge(p.errors for p in people),
        }
        report["load_end"] = loadavg()
    finally:
        if clients is not None:
            clients.close()
        for node in nodes.values():
            if node.proc.poll() is None:
                node.proc.send_signal(signal.SIGTERM)
        for node in nodes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                node.proc.wait(60)
            if node.proc.poll() is None:
                node.kill9()
        if haproxy is not None:
            haproxy.terminate()
            haproxy.wait(10)
    text = json.dumps(report, indent=1, default=str)
    print(text)
    if args.json:
        args.json.write_text(text)


def _merge(dicts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
