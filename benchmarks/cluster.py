"""Issue 27's acceptance run: two real nodes behind HAProxy, each node killed with ``kill -9``.

Run on demand (not part of the test suite; tests/cluster/test_acceptance.py runs it small)::

    python benchmarks/cluster.py --pg 127.0.0.1:5432 --db tienlen_cluster \\
        --redis redis://127.0.0.1:6379/13 --port 8450 --tables 60

What it does, against one PostgreSQL database (created, migrated by node a, its earlier tables
and users deleted) and one Redis database (emptied: use one of your own):

1. **Node a** (``./bin/node --roles web,worker,bots,lab,ladder,beat`` on 127.0.0.20) and
   HAProxy from ``config/haproxy.py`` (the proxy on ``--port``, node a on 127.0.0.20 and b on
   127.0.0.21, each on ``--port + 1``, stats on ``--port + 2``). Node a, first, holds beat's
   lock and every bot lease (``bots.<n>``, ``bots.tournament``, ``bots.ladder``).
   ``--tables`` Practice tables (one person, three house AIs) whose person is a WebSocket
   client through the proxy that plays the first legal move of every ``your_turn`` and
   reconnects (with backoff) whenever its socket closes, resyncing from the ``snapshot``'s
   version: no page reload. ``--js-tables`` Bot Arena tables of four promoted JS bots (their
   turns in the bot workers' sandboxes, on the shard leases), and an **external bot** at a
   Practice table against house AIs: its program (in this process) speaks docs/bot-api.md's
   protocol on ``/ws/bot/`` through the proxy and reconnects whenever its socket closes.
2. **CPU per move, one web node**: a window of ``--window`` seconds, daphne's CPU seconds
   over the moves stored at the people's tables meanwhile (the action log).
3. **Node b** starts (the same roles); half the clients and the external bot are made to
   reconnect, so ``leastconn`` spreads them over both nodes. A Bot Lab **duplicate match**
   between two JS bots (``--match-deals`` deals) and a one-round **tournament** of four JS
   bots (``--round-games`` games) start. **CPU per move, two web nodes**: the same window.
4. **Node a killed**: ``kill -9`` of every process of node a at once (its launcher,
   supervisord, daphne, every worker, beat). For each table still playing, by kind (people,
   JS bots, the external bot's, the round's): the seconds until a move of it is stored again;
   for each client whose socket was cut (people, the external bot): the seconds until it is
   connected again (through the proxy, to b); until the match plays a deal more; until b's
   beat holds the lock and its ``games-timers-heal`` and ``games-tournaments-tick`` run again.
   From the nodes' logs (``bot_replays``): where the JS bots' takeover went, per seat of the
   JS-bot and the round's tables (the sandbox rebuilt ahead: its start, reading the earlier
   turns, replaying them, and when it was ready; the first turn: waiting for the game's lock and
   the sandbox, its own move, and when it ended; docs/bot-affinity.md "Rebuilt ahead").
5. **Node a comes back** and takes work again: sockets that reconnect go to it (HAProxy's
   current sessions per server).
6. **Beat's node**: ``kill -9`` of every process of node b, which holds beat's lock and the
   bot leases by then: the same measures, and a's workers take the leases back.
7. **Checks**, from the database's action log and the clients' records: every game's action
   ``seq`` is exactly ``1..version`` (none lost, none twice: a seq is unique per game), every
   version a client saw is stored, and every move a client saw accepted is stored once with its
   seat (a person's move, actor ``human``); the JS-bot and external bot tables' games too; the
   match finishes with ``games`` = deals x seats, every entrant in every game, one first place
   per game; the round finishes with ``--round-games`` games at its table, its session totals
   the sum of its games' scores (zero-sum) and every entry's result its seat's total.

It prints a report (and ``--json`` writes it) with the load average; docs/benchmarks.md
"Cluster (issue 27)" says what was measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
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


def moves_since(mark: int, tables: list[int] | None = None) -> int:
    from games.models import Action

    rows = Action.objects.filter(pk__gt=mark)
    if tables is not None:
        rows = rows.filter(game__table_id__in=tables)
    return rows.count()


def last_id() -> int:
    from games.models import Action

    return int(Action.objects.order_by("-pk").values_list("pk", flat=True).first() or 0)


JS_BOT = """
var moves = 0;
function getNextMove(gameState) {
  moves += 1;  // a global: the sandbox rebuilt on takeover replays the game's earlier turns
  if (moves %% %d === -1) { console.log(moves); }
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
}
"""


def js_bots(owner: Any, n: int, tag: str) -> list[Any]:
    """``n`` JavaScript bots of ``owner`` (each its own program), each with a ready version 1,
    promoted (the version others seat): their ready versions."""
    from bots.matches.services import bot_promote
    from bots.models import Bot, BotVersion

    out = []
    for k in range(n):
        bot = Bot.objects.create(owner=owner, name=f"CL {tag} {k}", game="tienlen")
        version = BotVersion.objects.create(
            bot=bot, number=1, code=JS_BOT % (k + 2), status=BotVersion.Status.READY
        )
        bot_promote(bot=bot, number=1)
        out.append(version)
    return out


def setup_js_tables(n: int) -> list[int]:
    """``n`` Bot Arena tables of four promoted JS bots each (their turns run in the bot
    workers' sandboxes, on the shard leases), dealing; their ids."""
    from accounts.models import User
    from games import services

    run = time.time_ns() // 1000
    out = []
    for t in range(n):
        owner = User.objects.create_user(f"cl_js_{run}_{t}", password=None)
        versions = js_bots(owner, 4, f"arena {t}")
        table = services.table_create_arena(
            owner=owner, bot_version_ids=[v.pk for v in versions], session_length=16
        )
        out.append(table.pk)
    return out


def setup_external() -> tuple[int, str]:
    """An external bot (its one version at a Practice table against three house AIs, dealing:
    its program plays through the proxy); (table id, its token)."""
    from accounts.models import User
    from bots.external.services import external_bot_create
    from bots.external.tokens import token_issue
    from games import services

    owner = User.objects.create_user(f"cl_ext_{time.time_ns() // 1000}", password=None)
    bot = external_bot_create(owner=owner, name="CL external", game="tienlen")
    token = token_issue(bot=bot)
    table = services.table_create_bot_practice(
        owner=owner, bot_version_id=bot.versions.get().pk, game="tienlen", house_level="easy"
    )
    return table.pk, token


def start_match(deals: int) -> int:
    """The Bot Lab's duplicate match between two promoted JS bots; its id."""
    from accounts.models import User
    from bots.matches.services import match_create

    owner = User.objects.create_user(f"cl_lab_{time.time_ns() // 1000}", password=None)
    a, b = js_bots(owner, 2, "lab")
    match = match_create(
        owner=owner,
        game="tienlen",
        entrants=[{"kind": "version", "version_id": a.pk}, {"kind": "version", "version_id": b.pk}],
        deals=deals,
        seed=27,
    )
    return int(match.pk)


def start_tournament(games: int) -> int:
    """A one-round tournament of four JS bots at one table (``games`` games in the round),
    started now: beat's tick opens its table; its id."""
    from datetime import timedelta

    from accounts.models import User
    from games import clock
    from games.tournaments import services as tournaments

    owner = User.objects.create_user(f"cl_tour_{time.time_ns() // 1000}", password=None)
    t = tournaments.tournament_create(
        creator=owner,
        name="Cluster round",
        game="tienlen",
        format="round_robin",
        start_at=clock.now_datetime() + timedelta(hours=1),
        rounds=1,
        table_size=4,
        games_per_round=games,
        turn_seconds=30,
    )
    for version in js_bots(owner, 4, "round"):
        tournaments.entry_add_bot(tournament_id=t.pk, user=owner, bot_version_id=version.pk)
    tournaments.tournament_start_now(tournament_id=t.pk, user=owner)
    return int(t.pk)


def round_tables(tournament_id: int) -> list[int]:
    from games.tournaments.models import RoundTable

    return list(
        RoundTable.objects.filter(round__tournament_id=tournament_id).values_list(
            "table_id", flat=True
        )
    )


def game_ids(tables: list[int]) -> set[int]:
    """The games played at ``tables`` (so far)."""
    from games.models import Game

    return set(Game.objects.filter(table_id__in=tables).values_list("pk", flat=True))


def live_tables(ids: list[int]) -> list[int]:
    """Those of ``ids`` still playing (a table that completed its session moves no more)."""
    from games.models import Table

    return list(
        Table.objects.filter(pk__in=ids)
        .exclude(status=Table.Status.COMPLETED)
        .values_list("pk", flat=True)
    )


def match_state(match_id: int) -> dict[str, Any]:
    from bots.matches.models import Match

    m = Match.objects.get(pk=match_id)
    # resumes: counted up when beat's healer resumed it (its worker died)
    return {"status": m.status, "deals_done": m.deals_done, "deals": m.deals, "resumes": m.resumes}


def tournament_state(tournament_id: int) -> dict[str, Any]:
    from games.models import Game
    from games.tournaments.models import Tournament

    t = Tournament.objects.get(pk=tournament_id)
    tables = round_tables(tournament_id)
    return {
        "status": t.status,
        "tables": len(tables),
        "games_stored": Game.objects.filter(table_id__in=tables).count(),
    }


def check_match(match_id: int, wait: float) -> dict[str, Any]:
    """Waits (up to ``wait`` s) for the match to end; its report must add up: ``games`` =
    deals x seats, every entrant played every game, one first place per game."""
    from bots.matches.models import Match

    deadline = time.monotonic() + wait
    while True:
        m = Match.objects.get(pk=match_id)
        if m.status not in Match.IN_FLIGHT or time.monotonic() > deadline:
            break
        time.sleep(1)
    report = m.report or {}
    entrants = report.get("entrants") or []
    games = int(report.get("games") or 0)
    problems = []
    if m.status != Match.Status.FINISHED:
        problems.append(f"status {m.status} {m.error}")
    if games != m.deals * len(entrants) or m.deals_done != m.deals:
        problems.append(f"games {games}, deals {m.deals_done}/{m.deals}, seats {len(entrants)}")
    if any(int(e.get("games", -1)) != games for e in entrants):
        problems.append(f"entrant games {[e.get('games') for e in entrants]} != {games}")
    firsts = sum(int(e.get("firsts", 0)) for e in entrants)
    if firsts != games:
        problems.append(f"first places {firsts} != games {games}")
    return {
        "status": m.status,
        "deals": m.deals_done,
        "games": games,
        "firsts": [e.get("firsts") for e in entrants],
        "strikes": [e.get("strikes") for e in entrants],
        "problems": problems,
    }


def check_tournament(tournament_id: int, wait: float) -> dict[str, Any]:
    """Waits (up to ``wait`` s) for the tournament to finish; its round must add up: every
    table played ``games_per_round`` games, each game's seqs are 1..version, the table's
    session totals are the sum of its games' scores (zero-sum), and every entry's recorded
    result is its seat's total."""
    from games.models import Action, Game, Table
    from games.tournaments.models import RoundResult, Tournament

    deadline = time.monotonic() + wait
    while True:
        t = Tournament.objects.get(pk=tournament_id)
        if t.status != Tournament.Status.RUNNING or time.monotonic() > deadline:
            break
        time.sleep(1)
    problems = []
    if t.status != Tournament.Status.FINISHED:
        problems.append(f"status {t.status}")
    tables = round_tables(tournament_id)
    games = 0
    for table in Table.objects.filter(pk__in=tables):
        finished = list(
            Game.objects.filter(table=table, status=Game.Status.FINISHED).order_by("number")
        )
        games += len(finished)
        if len(finished) != t.games_per_round:
            problems.append(f"table {table.pk}: {len(finished)} games of {t.games_per_round}")
        sums = [0] * t.table_size
        for g in finished:
            seqs = list(Action.objects.filter(game=g).order_by("seq").values_list("seq", flat=True))
            if seqs != list(range(1, g.version + 1)):
                problems.append(f"table {table.pk} game {g.number}: seqs != 1..{g.version}")
            for i, score in enumerate((g.result or {}).get("scores") or []):
                sums[i] += int(score)
        totals = [int(x) for x in (table.session or {}).get("totals") or []]
        if totals != sums or sum(totals) != 0:
            problems.append(f"table {table.pk}: totals {totals}, games' scores {sums}")
        results = dict(
            RoundResult.objects.filter(round_table__table=table).values_list("seat", "total")
        )
        if results != dict(enumerate(totals)):
            problems.append(f"table {table.pk}: results {results} != totals {totals}")
    return {
        "status": t.status,
        "tables": len(tables),
        "games": games,
        "results": RoundResult.objects.filter(round__tournament_id=tournament_id).count(),
        "problems": problems,
    }


# --------------------------------------------------------------------------- clients
@dataclass
class External:
    """The external bot's program: one socket to ``/ws/bot/`` through the proxy."""

    token: str
    connects: int = 0
    drops: list[float] = field(default_factory=list)
    back: list[float] = field(default_factory=list)
    turns: int = 0
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    ws: Any = None
    versions: int = 0
    """``game_version`` frames (beat's announce: the bot catches up a lost turn by them)."""
    turns_again: int = 0
    """``turn`` frames of a turn it had answered already (a re-armed or re-sent turn)."""


@dataclass
class Reconnects:
    """A client's reconnect bookkeeping: when its socket was cut (``drops``), how long until it
    was back (``back``), and the backoff between attempts (0.1 s, doubling up to 2 s)."""

    drops: list[float]
    back: list[float]
    cut_at: float | None = None
    backoff: float = 0.1

    def connected(self) -> bool:
        """The socket is (back) up: True when it was cut before."""
        self.backoff = 0.1
        if self.cut_at is None:
            return False
        self.back.append(time.monotonic() - self.cut_at)
        self.cut_at = None
        return True

    async def cut(self) -> None:
        """The socket closed: note when (once per outage), then wait before the next try."""
        if self.cut_at is None:
            self.cut_at = time.monotonic()
            self.drops.append(self.cut_at)
        await asyncio.sleep(self.backoff)
        self.backoff = min(2.0, self.backoff * 2)


async def external_loop(args: argparse.Namespace, bot: External, stop: asyncio.Event) -> None:
    """Speaks docs/bot-api.md's protocol: answers each ``turn`` with the first legal play
    (else pass) and reconnects with backoff whenever its socket closes (the server sends the
    games in progress and their open turns again on ``hello``)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    url = f"ws://127.0.0.1:{args.port}/ws/bot/"
    reconnects = Reconnects(bot.drops, bot.back)
    answered: set[tuple[Any, int]] = set()
    while not stop.is_set():
        try:
            async with connect(
                url,
                additional_headers={"Authorization": f"Bearer {bot.token}"},
                open_timeout=10,
                max_size=2**22,
            ) as ws:
                bot.ws = ws
                async for raw in ws:
                    frame = json.loads(raw)
                    kind = frame.get("type")
                    if kind == "hello":
                        bot.connects += 1
                        reconnects.connected()
                    elif kind == "turn":
                        bot.turns += 1
                        key = (frame["game_id"], int(frame["seq"]))
                        if key in answered:
                            bot.turns_again += 1
                            continue
                        answered.add(key)
                        valid = (frame.get("gameState") or {}).get("validMoves") or []
                        move = (
                            {"action": "play", "cards": valid[0]["cards"]}
                            if valid
                            else {"action": "pass"}
                        )
                        await ws.send(
                            json.dumps(
                                {"type": "move", "game_id": key[0], "seq": key[1], "move": move}
                            )
                        )
                        bot.moves += 1
                    elif kind == "error":
                        code = str(frame.get("code"))
                        bot.errors[code] = bot.errors.get(code, 0) + 1
                    elif kind == "game_version":
                        bot.versions += 1
                    if stop.is_set():
                        return
        except (OSError, TimeoutError, WebSocketException):
            pass
        bot.ws = None
        if stop.is_set():
            return
        await reconnects.cut()


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
    announced: int = 0  # game_version frames that found this client behind (then: sync)


async def person_loop(args: argparse.Namespace, p: Person, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    url = f"ws://127.0.0.1:{args.port}/ws/tables/{p.code}/"
    reconnects = Reconnects(p.drops, p.back)
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
                        if reconnects.connected():
                            p.resyncs += 1
                    if stop.is_set():
                        return
        except (OSError, TimeoutError, WebSocketException):
            pass
        p.ws = None
        if stop.is_set():
            return
        await reconnects.cut()


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
    elif kind == "game_version":  # as the browser: behind the announced version, resync
        number, v = int(frame["game"]), int(frame["version"])
        if p.game is None or number > p.game or (number == p.game and v > p.seen.get(number, 0)):
            p.announced += 1
            await ws.send(json.dumps({"type": "sync"}))
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

    def __init__(
        self, args: argparse.Namespace, people: list[Person], external: External | None = None
    ) -> None:
        self.args, self.people, self.external = args, people, external
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        loops = [person_loop(self.args, p, self.stop) for p in self.people]
        if self.external is not None:
            loops.append(external_loop(self.args, self.external, self.stop))
        self.loop.run_until_complete(asyncio.gather(*loops))

    def cut_all(self, every: int = 1) -> None:
        """Close every ``every``-th socket once (the clients reconnect through the proxy)."""

        async def cut() -> None:
            socks = [p.ws for p in self.people[::every]]
            if every == 1 and self.external is not None:
                socks.append(self.external.ws)
            for ws in socks:
                if ws is not None:
                    with contextlib.suppress(Exception):
                        await ws.close()

        asyncio.run_coroutine_threadsafe(cut(), self.loop).result(30)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.cut_all()
        self.thread.join(30)

    def connected(self) -> int:
        """People connected, and the external bot (counted as one more) when it is."""
        people = sum(1 for p in self.people if p.ws is not None)
        return people + (1 if self.external is not None and self.external.ws is not None else 0)

    def everyone(self) -> int:
        return len(self.people) + (1 if self.external is not None else 0)


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_window(args: argparse.Namespace, nodes: list[Node], people: list[int]) -> dict[str, Any]:
    """daphne's CPU seconds per node over ``--window`` seconds and the moves stored meanwhile
    at the people's tables (those whose frames daphne sends; the bot tables' moves are
    counted apart)."""
    mark = last_id()
    before = {n.name: n.cpu_of("daphne") for n in nodes}
    t0 = time.monotonic()
    time.sleep(args.window)
    took = time.monotonic() - t0
    moves = moves_since(mark, people)
    all_moves = moves_since(mark)
    cpu = {n.name: n.cpu_of("daphne") - before[n.name] for n in nodes}
    total = sum(cpu.values())
    return {
        "nodes": len(nodes),
        "seconds": round(took, 1),
        "moves": moves,
        "moves_per_s": round(moves / took, 1),
        "all_tables_moves_per_s": round(all_moves / took, 1),
        "daphne_cpu_s": {k: round(v, 2) for k, v in cpu.items()},
        "cpu_ms_per_move": round(1000 * total / max(1, moves), 2),
        "cpu_ms_per_move_per_node": {k: round(1000 * v / max(1, moves), 2) for k, v in cpu.items()},
        "load": loadavg(),
    }


def redis_client(args: argparse.Namespace) -> Any:
    import redis

    return redis.Redis.from_url(args.redis, decode_responses=True)


REPLAY_LINE = re.compile(
    r"(bot turn after a replay|bot sandbox rebuilt ahead): game=game:(\d+) seat=(\d+) "
    r"replayed=(\d+) diverged=(\w+) ahead=(\w+) lock_ms=(\d+) start_ms=(\d+) "
    r"history_ms=(\d+) replay_ms=(\d+) move_ms=(\d+) at=([\d.]+)"
)
SHARD_LINE = re.compile(r"bot shard (\S+): (re-armed \d+ live tables|rebuilding \d+ bot sandboxes)")


def bot_replays(args: argparse.Namespace, since: float, games: set[int]) -> dict[str, Any]:
    """Where the JS bots' (``games``) takeover went after a kill at wall time ``since``: the
    workers' INFO lines (bots/runtime.py ``_log_rebuild``), per seat: the sandbox rebuilt
    ahead (start, reading the earlier turns, replaying them: ms, and when it was ready, s
    after the kill) and its first turn (waiting for the game's lock and the sandbox, its own
    move: ms, and when it ended, s after the kill)."""
    seats: dict[str, dict[str, Any]] = {}
    for name in NODE_ADDRESSES:
        log = args.data / f"node-{name}.log"
        if not log.exists():
            continue
        for line in log.read_text(errors="replace").splitlines():
            m = REPLAY_LINE.search(line)
            if m is None or float(m.group(12)) < since or int(m.group(2)) not in games:
                continue
            what, game, seat = m.group(1), m.group(2), m.group(3)
            one = seats.setdefault(f"{game}:{seat}", {"node": name})
            part = {
                "replayed": int(m.group(4)),
                "diverged": m.group(5) == "True",
                "lock_ms": int(m.group(7)),
                "start_ms": int(m.group(8)),
                "history_ms": int(m.group(9)),
                "replay_ms": int(m.group(10)),
                "move_ms": int(m.group(11)),
                "s": round(float(m.group(12)) - since, 2),
            }
            key = "ahead" if what.startswith("bot sandbox") else "turn"
            one.setdefault(key, part)  # the first after the kill
    turns = [one["turn"] for one in seats.values() if "turn" in one]
    aheads = [one["ahead"] for one in seats.values() if "ahead" in one]

    def most(parts: list[dict[str, Any]], field: str) -> Any:
        return max((p[field] for p in parts), default=None)

    return {
        "seats": seats,
        "rebuilt_ahead": len(aheads),
        "first_turns": len(turns),
        "max": {
            "ahead_start_ms": most(aheads, "start_ms"),
            "ahead_history_ms": most(aheads, "history_ms"),
            "ahead_replay_ms": most(aheads, "replay_ms"),
            "ahead_ready_s": most(aheads, "s"),
            "replayed_turns": most([*aheads, *turns], "replayed"),
            "turn_lock_ms": most(turns, "lock_ms"),
            "turn_start_ms": most(turns, "start_ms"),
            "turn_history_ms": most(turns, "history_ms"),
            "turn_replay_ms": most(turns, "replay_ms"),
            "turn_move_ms": most(turns, "move_ms"),
            "turn_done_s": most(turns, "s"),
        },
        "diverged": sum(bool(p["diverged"]) for p in [*aheads, *turns]),
    }


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
    ``games-timers-heal`` (the timers' healer) and ``games-tournaments-tick`` ran again
    (their ``last_run_at`` after ``wall0``)."""
    deadline = t0 + 60
    jobs = {"heal_s": "games-timers-heal", "tournament_tick_s": "games-tournaments-tick"}
    while time.monotonic() < deadline and not all(k in out for k in ("lock_taken_s", *jobs)):
        h = beat_holder(args)
        if "lock_taken_s" not in out and h is not None and h != holder:
            out["lock_after"], out["lock_taken_s"] = h, round(time.monotonic() - t0, 2)
        for key, entry in jobs.items():
            last = beat_last_run(args, entry)
            if key not in out and last is not None and last > wall0:
                out[key] = round(time.monotonic() - t0, 2)
        time.sleep(0.1)


def watch_leases(
    args: argparse.Namespace, before: dict[str, str | None], t0: float, out: dict[str, float]
) -> None:
    """Seconds (from ``t0``) until each bot lease (``bots.<n>``, ``bots.tournament``,
    ``bots.ladder``) is held by another worker than ``before``'s: one part of a bot table's
    recovery (the rest: re-arming its turn, the bot delay, the move)."""
    deadline = t0 + 60
    while time.monotonic() < deadline and len(out) < len(before):
        now = {**shard_leases(args), **tournament_leases(args)}
        for queue, holder in now.items():
            if queue not in out and holder is not None and holder != before.get(queue):
                out[queue] = round(time.monotonic() - t0, 2)
        time.sleep(0.1)


def recovery(
    kinds: dict[str, list[int]],
    people: list[Person],
    since: float,
    cap: float,
    mark: int,
    external: External | None = None,
    match_id: int | None = None,
) -> dict[str, Any]:
    """Seconds (from ``since``) until each live table (``kinds``: its ids by kind) stored a
    move again; until each cut client (people, the external bot) was connected again; until
    the match played on (a deal more, or its end)."""
    from bots.matches.models import Match
    from games.models import Action

    tables = [t for ids in kinds.values() for t in live_tables(ids)]
    moved: dict[int, float] = {}
    first: dict[int, str] = {}  # the actor of each table's first move after the kill
    match_s: float | None = None
    before = match_state(match_id) if match_id is not None else None
    deadline = time.monotonic() + cap
    while time.monotonic() < deadline:
        rows = (
            Action.objects.filter(pk__gt=mark, game__table_id__in=set(tables) - set(moved))
            .order_by("pk")
            .values_list("game__table_id", "actor")
        )
        now = time.monotonic()
        for t, actor in rows:
            if int(t) not in moved:
                moved[int(t)], first[int(t)] = now - since, str(actor)
        if match_id is not None and before is not None and match_s is None:
            state = match_state(match_id)
            if state["deals_done"] > before["deals_done"] or state["status"] not in (
                Match.IN_FLIGHT
            ):
                match_s = now - since
        ext_done = external is None or external.ws is not None
        if len(moved) == len(tables) and (match_id is None or match_s is not None) and ext_done:
            break
        time.sleep(0.2)
    cut = [p for p in people if any(d >= since - 1 for d in p.drops)]
    back = [p.back[-1] for p in cut if p.back and p.drops[-1] >= since - 1]
    by_kind = {}
    for kind, ids in kinds.items():
        live = set(ids) & set(tables)
        secs = [moved[t] for t in live if t in moved]
        by_kind[kind] = {
            "live": len(live),
            "moved": len(secs),
            "seconds_max": round(max(secs), 2) if secs else None,
        }
    out: dict[str, Any] = {
        "tables": len(tables),
        "tables_moved": len(moved),
        "table_seconds_max": round(max(moved.values(), default=float("nan")), 2),
        "table_seconds_p50": round(sorted(moved.values())[len(moved) // 2], 2) if moved else None,
        "by_kind": by_kind,
        "stuck": sorted(set(tables) - set(moved))[:10],
        # the slowest tables: kind, seconds, who moved first (house/bot: waited for the shard's
        # lease and the re-armed turn; human: the person's reconnect and turn; timeout: a timer)
        "slowest": [
            [next(k for k, ids in kinds.items() if t in ids), round(moved[t], 2), first[t]]
            for t in sorted(moved, key=moved.__getitem__, reverse=True)[:6]
        ],
        "first_actor_counts": {
            a: list(first.values()).count(a) for a in sorted(set(first.values()))
        },
        "clients_cut": len(cut),
        "clients_back": len(back),
        "client_seconds_max": round(max(back, default=float("nan")), 2),
    }
    if external is not None:
        cut_ext = any(d >= since - 1 for d in external.drops)
        out["external_bot"] = {
            "cut": cut_ext,
            "connected": external.ws is not None,
            "back_s": round(external.back[-1], 2)
            if cut_ext and external.back and external.drops[-1] >= since - 1
            else None,
        }
    if match_id is not None:
        out["match"] = {
            "before": before,
            "played_on_s": None if match_s is None else round(match_s, 2),
            "after": match_state(match_id),
        }
    return out


@contextlib.contextmanager
def snapshot() -> Any:
    """One REPEATABLE READ transaction: the checks read games and their actions as of one
    moment (the bot tables still play: a game read before a move and its actions after it
    would look like a lost version). Found by the s12b-cluster branch."""
    from django.db import connection, transaction

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


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


def check_tables(tables: list[int]) -> dict[str, Any]:
    """Every game of the bot tables: its seqs are exactly 1..version."""
    from games.models import Action, Game

    problems = []
    games = 0
    for g in Game.objects.filter(table_id__in=tables):
        games += 1
        seqs = list(Action.objects.filter(game=g).order_by("seq").values_list("seq", flat=True))
        if seqs != list(range(1, g.version + 1)):
            problems.append(f"table {g.table_id} game {g.number}: seqs != 1..{g.version}")
    return {"games": games, "problems": problems[:20], "lost_or_twice": len(problems)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default="127.0.0.1:5432")
    parser.add_argument("--db", default="tienlen_cluster")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--port", type=int, default=8450)
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument("--js-tables", type=int, default=4, help="Bot Arena tables of JS bots")
    parser.add_argument("--match-deals", type=int, default=60, help="the duplicate match's")
    parser.add_argument("--round-games", type=int, default=3, help="games in the round")
    parser.add_argument(
        "--finish-wait", type=float, default=300, help="most seconds the match and round may take"
    )
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--data", type=Path, default=Path("/tmp/tienlen-cluster"))
    parser.add_argument("--skip-beat", action="store_true")
    parser.add_argument("--beat-lock", type=int, default=5, help="BEAT_LOCK_TIMEOUT (s)")
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
        # no tables yet: node a migrates it)
        with contextlib.suppress(Exception):
            reset_state(args)
        # node a starts first: its beat takes the lock and its workers the bot shards' and
        # bots.tournament's leases, so that its kill takes all of them away at once
        say("node a (migrates)")
        nodes["a"] = start_node(args, "a", migrate=True)
        haproxy = start_haproxy(args)
        wait_until(
            lambda: proxy_servers(args).get("a", {}).get("status") == "UP",
            timeout=30,
            what="the proxy to see a",
        )
        say(f"{args.tables} tables")
        setup = setup_tables(args.tables)
        table_ids = [t for t, _c, _k in setup]
        people = [Person(t, c, k) for t, c, k in setup]
        say(f"{args.js_tables} JS-bot tables, the external bot's table")
        js_ids = setup_js_tables(args.js_tables)
        ext_table, token = setup_external()
        external = External(token)
        clients = Clients(args, people, external)
        wait_until(
            lambda: clients.connected() == clients.everyone(), timeout=120, what="every client"
        )
        time.sleep(3)
        say("CPU per move, one web node")
        report["cpu_one_node"] = cpu_window(args, [nodes["a"]], table_ids)
        say("node b")
        nodes["b"] = start_node(args, "b")
        wait_until(
            lambda: proxy_servers(args).get("b", {}).get("status") == "UP",
            timeout=30,
            what="the proxy to see b",
        )
        clients.cut_all(every=2)  # half of them reconnect: leastconn sends them to b
        if external.ws is not None:  # the external bot too (a program that reconnects)
            asyncio.run_coroutine_threadsafe(external.ws.close(), clients.loop).result(30)
        wait_until(lambda: clients.connected() == clients.everyone(), timeout=60, what="reconnects")
        say("the duplicate match and the tournament round start")
        match_id = start_match(args.match_deals)
        tournament_id = start_tournament(args.round_games)
        time.sleep(3)
        report["sockets_before_kill"] = proxy_servers(args)
        say("CPU per move, two web nodes")
        report["cpu_two_nodes"] = cpu_window(args, [nodes["a"], nodes["b"]], table_ids)
        wait_until(
            lambda: round_tables(tournament_id), timeout=60, what="the tournament round's table"
        )
        kinds = {
            "people": table_ids,
            "js_bots": js_ids,
            "external_bot": [ext_table],
            "tournament": round_tables(tournament_id),
        }
        report["bot_work_before_kill"] = {
            "match": match_state(match_id),
            "tournament": tournament_state(tournament_id),
            "js_tables_live": len(live_tables(js_ids)),
            "external_bot": {"connects": external.connects, "moves": external.moves},
        }
        report["shard_leases_before_kill"] = shard_leases(args)
        report["tournament_ladder_leases_before_kill"] = tournament_leases(args)
        report["beat_holder_before_kill"] = beat_holder(args)

        say("kill -9 every process of node a (beat's lock, the bot shards' leases)")
        holder = beat_holder(args)
        killed_at, wall0, mark = time.monotonic(), time.time(), last_id()
        report["node_a_processes_killed"] = nodes["a"].kill9()
        beat_a: dict[str, Any] = {}
        watcher = threading.Thread(target=watch_beat, args=(args, holder, killed_at, wall0, beat_a))
        watcher.start()
        leases_a: dict[str, float] = {}
        lease_watch = threading.Thread(
            target=watch_leases,
            args=(
                args,
                {
                    **report["shard_leases_before_kill"],
                    **report["tournament_ladder_leases_before_kill"],
                },
                killed_at,
                leases_a,
            ),
        )
        lease_watch.start()
        report["kill_node_a"] = recovery(
            kinds, people, killed_at, cap=60, mark=mark, external=external, match_id=match_id
        )
        watcher.join(90)
        lease_watch.join(90)
        report["kill_node_a"]["beat"] = {"lock_before": holder, **beat_a}
        report["kill_node_a"]["leases_taken_s"] = leases_a
        report["kill_node_a"]["killed_at"] = round(wall0, 3)  # to read the nodes' logs by
        report["kill_node_a"]["bot_replays"] = bot_replays(
            args, wall0, game_ids([*js_ids, *kinds["tournament"]])
        )
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
        wait_until(lambda: clients.connected() == clients.everyone(), timeout=60, what="reconnects")
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
            # b's beat took the lock when a died, and b's workers the leases: b dies.
            holder = beat_holder(args)
            say(f"kill -9 every process of node b, beat's node (lock {holder})")
            before = beat_last_run(args, "games-timers-heal")
            kinds["tournament"] = round_tables(tournament_id)
            held = {**shard_leases(args), **tournament_leases(args)}
            t0, wall0, mark = time.monotonic(), time.time(), last_id()
            killed = nodes["b"].kill9()
            beat: dict[str, Any] = {}
            watcher = threading.Thread(target=watch_beat, args=(args, holder, t0, wall0, beat))
            watcher.start()
            leases_b: dict[str, float] = {}
            lease_watch = threading.Thread(target=watch_leases, args=(args, held, t0, leases_b))
            lease_watch.start()
            tables_back = recovery(
                kinds, people, t0, cap=60, mark=mark, external=external, match_id=match_id
            )
            watcher.join(90)
            lease_watch.join(90)
            tables_back["leases_taken_s"] = leases_b
            tables_back["killed_at"] = round(wall0, 3)
            tables_back["bot_replays"] = bot_replays(
                args, wall0, game_ids([*js_ids, *kinds["tournament"]])
            )
            report["kill_node_b_beat"] = {
                "processes_killed": killed,
                "lock_before": holder,
                "timers_heal_last_before": before,
                **beat,
                **tables_back,
                "shard_leases_after": shard_leases(args),
                "tournament_ladder_leases_after": tournament_leases(args),
            }
        say("the match and the tournament finish")
        report["match"] = check_match(match_id, wait=args.finish_wait)
        report["tournament"] = check_tournament(tournament_id, wait=args.finish_wait)
        with snapshot():
            report["js_tables_log"] = check_tables([*js_ids, ext_table])
        clients.close()
        clients = None
        time.sleep(2)
        with snapshot():
            report["log"] = check_log(people)
        report["external_bot"] = {
            "connects": external.connects,
            "turns": external.turns,
            "turns_again": external.turns_again,
            "moves": external.moves,
            "errors": dict(external.errors),
            "game_version_frames": external.versions,
        }
        report["clients"] = {
            "connects": sum(p.connects for p in people),
            "resyncs": sum(p.resyncs for p in people),
            "announced_behind": sum(p.announced for p in people),
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
