"""Drive the real ``./bin/run`` from a test: start it as a newcomer would (no service URLs, so
it starts its own embedded PostgreSQL and Redis), wait for ``/healthz``, query its database with
``manage.py shell``, play practice tables on it through HTTP and the WebSocket, stop or kill it.

Used by ``tests/embedded/test_bin_run.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

BASE_DIR = Path(__file__).resolve().parents[2]
#: Prefixes of variables a test run (./bin/test) sets that must not reach the child ./bin/run:
#: it has to start its own servers and read its own settings, as from a fresh shell.
SCRUBBED_PREFIXES = ("DATABASE_", "REDIS_", "CELERY_", "TIENLEN_", "DJANGO_", "GAMES_", "BOTS_")
#: Every deadline below is generous: the machine running the suite may have two cores shared
#: with a browser test and a compiler.
START_SECONDS = 300.0
STOP_SECONDS = 120.0

ACCESS_LOG = re.compile(r'"(?:GET|POST|HEAD|PUT|PATCH|DELETE|OPTIONS) (\S+)" (\d{3}) ')


def clean_env(data: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(SCRUBBED_PREFIXES)}
    env.pop("PYTEST_CURRENT_TEST", None)
    env.update(TIENLEN_DATA_DIR=str(data), HOST="127.0.0.1", PORT=str(port))
    return env


def deadline_loop(seconds: float, what: str, step: float = 0.25) -> Iterator[int]:
    """Yield until ``seconds`` have passed, then fail with ``what`` (a condition with a
    deadline, never a fixed sleep that decides an outcome)."""
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        yield n
        n += 1
        time.sleep(step)
    raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what}")


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """GET ``path``; (status, body as JSON when it is JSON else text). Raises OSError when
    nothing answers."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read().decode(errors="replace")
    finally:
        conn.close()
    with contextlib.suppress(ValueError):
        return response.status, json.loads(body)
    return response.status, body


def healthy_enough(health: Any) -> bool:
    """``/healthz`` says ok, every service embedded, and both kinds of worker answer."""
    if not isinstance(health, dict) or health.get("status") != "ok":
        return False
    modes = {health.get(k, {}).get("mode") for k in ("database", "channel_layer", "celery")}
    workers = health.get("celery", {}).get("workers", [])
    return (
        modes == {"embedded"}
        and any(w.startswith("default@") for w in workers)
        and any(w.startswith("bots-0@") for w in workers)
    )


@dataclass
class Run:
    """One ``./bin/run`` on ``data`` serving ``port``; its output goes to ``log``."""

    data: Path
    port: int
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    health: dict[str, Any] = field(default_factory=dict)

    @property
    def env(self) -> dict[str, str]:
        return clean_env(self.data, self.port)

    def start(self) -> None:
        handle = self.log.open("ab")
        # bin/run execs the launcher, so this pid is the launcher's. Its own session: a signal
        # for the test never reaches it, and it never reaches the test.
        self.proc = subprocess.Popen(
            [str(BASE_DIR / "bin" / "run")],
            cwd=BASE_DIR,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        handle.close()

    def log_tail(self, chars: int = 6000) -> str:
        return self.log.read_text(errors="replace")[-chars:]

    def wait_healthy(self, seconds: float = START_SECONDS) -> dict[str, Any]:
        assert self.proc is not None
        last: Any = None
        for _ in deadline_loop(seconds, f"a healthy site on port {self.port}", step=0.5):
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"./bin/run exited with {self.proc.returncode}:\n{self.log_tail()}"
                )
            if not self.listens():  # the daphne of a killed run may still answer there
                continue
            with contextlib.suppress(OSError):
                _, last = get(self.port, "/healthz")
                if healthy_enough(last):
                    self.health = last
                    return last
        raise AssertionError(f"last /healthz: {last}")  # pragma: no cover - deadline_loop raises

    # ------------------------------------------------------------------ processes and ports
    def processes(self) -> list[psutil.Process]:
        """The launcher and every process under it (supervisord, servers, site, pools)."""
        assert self.proc is not None
        launcher = psutil.Process(self.proc.pid)
        return [launcher, *launcher.children(recursive=True)]

    def listens(self) -> bool:
        """Whether the process listening on the site's port is this run's."""
        with contextlib.suppress(psutil.Error):
            ours = {p.pid for p in self.processes()}
            return any(
                c.pid in ours
                for c in psutil.net_connections("tcp4")
                if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == self.port
            )
        return False

    def program(self, marker: str) -> psutil.Process | None:
        """The supervisord child whose command line contains ``marker`` (None while
        supervisord restarts it)."""
        supervisord = next(p for p in self.processes() if p.name() == "supervisord")
        found = []
        for child in supervisord.children():
            with contextlib.suppress(psutil.Error):
                if marker in " ".join(child.cmdline()):
                    found.append(child)
        assert len(found) <= 1, (marker, found)
        return found[0] if found else None

    def ports(self) -> list[int]:
        """The site's port and the embedded servers' (from ``ports.env``)."""
        ports = [self.port]
        for line in (self.data / "ports.env").read_text().splitlines():
            value = line.partition("=")[2].strip()
            if value.isdigit():
                ports.append(int(value))
        return ports

    def stop(self, sig: int = signal.SIGINT, seconds: float = STOP_SECONDS) -> int:
        """Send ``sig`` to the launcher; wait for it and for every process it had."""
        assert self.proc is not None
        before = self.processes()
        ports = self.ports()
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"./bin/run still running after {sig!r}:\n{self.log_tail()}"
            ) from None
        if sig != signal.SIGKILL:
            assert_all_gone(before, ports)
        return code

    def kill(self) -> list[psutil.Process]:
        """``kill -9`` the launcher; return the processes it had (they stop on their own)."""
        assert self.proc is not None
        before = self.processes()
        self.proc.kill()
        self.proc.wait(30)
        return before

    def close(self) -> None:
        """Last resort for a failed test: stop whatever of this run is still alive."""
        if self.proc is None:
            return
        with contextlib.suppress(psutil.Error):
            procs = self.processes()
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGINT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(STOP_SECONDS)
            _, alive = psutil.wait_procs(procs, timeout=30)
            for p in alive:
                with contextlib.suppress(psutil.Error):
                    p.kill()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    # ------------------------------------------------------------------ the database
    def shell(self, code: str) -> Any:
        """Run ``code`` in ``manage.py shell`` against this run's servers (the local settings
        read their URLs from ``services.env``); it prints one ``RESULT <json>`` line."""
        env = {**self.env, "DJANGO_SETTINGS_MODULE": "config.settings.local"}
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", textwrap.dedent(code)],
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stderr[-4000:]
        lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
        assert lines, done.stdout[-2000:] + done.stderr[-2000:]
        return json.loads(lines[-1].removeprefix("RESULT "))

    def inventory(self) -> dict[str, list[str]]:
        """Every user, bot (version), table and finished game, by stable keys."""
        return dict(
            self.shell(
                """
                import json
                from accounts.models import User
                from bots.models import Bot, BotVersion
                from games.models import Game, Table

                finished = Game.objects.filter(status=Game.Status.FINISHED)
                print("RESULT " + json.dumps({
                    "users": sorted(User.objects.values_list("username", flat=True)),
                    "bots": sorted(f"{b.owner.username}/{b.name}" for b in Bot.objects.all()),
                    "bot_versions": sorted(
                        f"{v.bot_id}:{v.number}:{v.status}" for v in BotVersion.objects.all()
                    ),
                    "tables": sorted(Table.objects.values_list("code", flat=True)),
                    "finished_games": sorted(
                        f"{g.table.code}#{g.number}:v{g.version}:{g.actions.count()}"
                        for g in finished.select_related("table")
                    ),
                }))
                """
            )
        )

    def create_players(self, n: int) -> list[tuple[str, str]]:
        """``n`` users, each with a logged-in session: [(username, session key)]. Made in the
        database, as benchmarks/ws_load.py does: the sign-up and log-in forms are throttled per
        address, and they are not what this test is about."""
        return [
            (str(u), str(k))
            for u, k in self.shell(
                f"""
                import json
                from importlib import import_module
                from django.conf import settings
                from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
                from accounts.models import User

                store_class = import_module(settings.SESSION_ENGINE).SessionStore
                out = []
                for i in range({n}):
                    user = User.objects.create_user(f"embedded{{i}}", password=None)
                    store = store_class()
                    store[SESSION_KEY] = str(user.pk)
                    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
                    store.create()
                    out.append([user.username, store.session_key])
                print("RESULT " + json.dumps(out))
                """
            )
        ]

    def table_activity(self, codes: list[str]) -> dict[str, dict[str, int]]:
        """Per table: games dealt and finished, the highest game version, actions by actor."""
        return dict(
            self.shell(
                f"""
                import json
                from django.db.models import Count, Max, Q
                from games.models import Action, Game, Table

                out = {{}}
                for table in Table.objects.filter(code__in={codes!r}):
                    games = Game.objects.filter(table=table)
                    by_actor = dict(
                        Action.objects.filter(game__table=table)
                        .values_list("actor").annotate(n=Count("id"))
                    )
                    out[table.code] = {{
                        "games": games.count(),
                        "finished": games.filter(status=Game.Status.FINISHED).count(),
                        "version": games.aggregate(v=Max("version"))["v"] or 0,
                        **{{f"actions_{{k}}": v for k, v in by_actor.items()}},
                    }}
                print("RESULT " + json.dumps(out))
                """
            )
        )


def assert_all_gone(before: list[psutil.Process], ports: list[int], seconds: float = 60) -> None:
    """Every process of a run has exited and nothing listens on its ports any more."""

    def alive() -> list[str]:
        left = []
        for p in before:
            with contextlib.suppress(psutil.NoSuchProcess):
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    left.append(f"{p.pid} {' '.join(p.cmdline())[:120]}")
        return left

    def listening() -> list[int]:
        busy = []
        for port in ports:
            with socket.socket() as sock:
                sock.settimeout(1)
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    busy.append(port)
        return busy

    for _ in deadline_loop(seconds, "the processes of the run to exit"):
        if not alive() and not listening():
            return
    raise AssertionError(f"left running: {alive()}; still listening: {listening()}")


def server_errors(log: str) -> list[str]:
    """daphne's access-log lines with a 5xx status (``/healthz`` answers 503 while workers
    start: not an error)."""
    return [
        m.group(0)
        for m in ACCESS_LOG.finditer(log)
        if m.group(2).startswith("5") and m.group(1) != "/healthz"
    ]


# ---------------------------------------------------------------------------- playing
@dataclass
class Player:
    """One user playing one practice table: what they saw and did."""

    username: str
    session: str
    code: str = ""
    csrf: str = ""
    statuses: list[tuple[str, int]] = field(default_factory=list)  # (request, HTTP status)
    versions: list[int] = field(default_factory=list)
    moves: int = 0
    updates: int = 0  # game_state_update frames: one per move of any seat
    games_started: int = 0
    games_ended: int = 0
    timeouts: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    closed: tuple[int, str] | None = None  # the server closed the socket: (code, reason)

    def advanced(self) -> int:
        return max(self.versions, default=0) - min(self.versions, default=0)


def request(
    port: int, player: Player, method: str, path: str, *, form: dict[str, str] | None = None
) -> tuple[int, dict[str, str]]:
    """One HTTP request as ``player`` (session cookie, and the CSRF token for a form)."""
    cookies = {"sessionid": player.session}
    headers = {"Host": f"127.0.0.1:{port}"}
    body = None
    if form is not None:
        cookies["csrftoken"] = player.csrf
        body = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": player.csrf})
        headers.update(
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"http://127.0.0.1:{port}",
                "Referer": f"http://127.0.0.1:{port}/",
            }
        )
    headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        out = {k.lower(): v for k, v in response.getheaders() if k.lower() != "set-cookie"}
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            if name.strip() == "csrftoken":
                player.csrf = rest.split(";", 1)[0]
    finally:
        conn.close()
    player.statuses.append((f"{method} {path}", response.status))
    return response.status, out


def start_practice(port: int, player: Player) -> None:
    """The home page (for the CSRF cookie), Practice against the mixed house AIs, then the
    table page it redirects to."""
    status, _ = request(port, player, "GET", "/")
    assert status == 200, player.statuses
    status, headers = request(port, player, "POST", "/tables/practice/", form={"level": "mixed"})
    assert status == 302, player.statuses
    location = urllib.parse.urlparse(headers["location"]).path
    match = re.fullmatch(r"/t/([^/]+)/", location)
    assert match, location
    player.code = match.group(1)
    status, _ = request(port, player, "GET", location)
    assert status == 200, player.statuses


async def play(port: int, player: Player, seconds: float) -> None:
    """Sit at the practice table's WebSocket for ``seconds``: answer every ``your_turn`` with
    its first legal play (or a pass), deal the next game when one ends, ping now and then."""
    import websockets
    from websockets.exceptions import ConnectionClosed

    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    url = f"ws://127.0.0.1:{port}/ws/tables/{player.code}/"

    async with websockets.connect(
        url,
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={player.session}"},
        max_size=2**22,
        open_timeout=60,
    ) as sock:

        async def send(frame: dict[str, Any]) -> None:
            await sock.send(json.dumps(frame))

        async def answer(turn: dict[str, Any]) -> None:
            if turn["legal"]:
                await send(
                    {
                        "type": "play_cards",
                        "version": turn["version"],
                        "cards": turn["legal"][0]["cards"],
                    }
                )
            else:
                await send({"type": "pass_turn", "version": turn["version"]})
            player.moves += 1

        while (left := end - loop.time()) > 0:
            try:
                raw = await asyncio.wait_for(sock.recv(), timeout=min(left, 10))
            except TimeoutError:
                await send({"type": "ping"})
                continue
            except ConnectionClosed as exc:
                close = exc.rcvd
                player.closed = (close.code, close.reason) if close else (1006, "no close frame")
                return
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "snapshot":
                game = frame.get("game")
                if game:
                    player.versions.append(game["version"])
                if isinstance(frame.get("your_turn"), dict):
                    await answer(frame["your_turn"])
                elif game and game.get("status") == "finished":
                    await send({"type": "next_game"})
            elif kind == "your_turn":
                player.versions.append(frame["version"])
                await answer(frame)
            elif kind == "game_state_update":
                player.versions.append(frame["version"])
                player.updates += 1
            elif kind == "game_started":
                player.versions.append(frame["version"])
                player.games_started += 1
            elif kind == "game_ended":
                player.games_ended += 1
                await send({"type": "next_game"})
            elif kind == "turn_timeout":
                player.timeouts += 1
            elif kind == "error":
                player.errors[frame["code"]] = player.errors.get(frame["code"], 0) + 1
                if frame["code"] == "stale_version":
                    await send({"type": "sync"})


async def play_all(port: int, players: list[Player], seconds: float) -> None:
    """Start every player's Practice at once, then play all the tables together."""
    await asyncio.gather(*(asyncio.to_thread(start_practice, port, p) for p in players))
    await asyncio.gather(*(play(port, p, seconds) for p in players))
