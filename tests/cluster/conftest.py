"""Two web nodes behind a real HAProxy (docs/cluster.md): the helpers of tests/cluster/.

The nodes are daphne processes forked from the test process (``daphne.testing.DaphneProcess``,
as tests/browser/conftest.py does), so they share its test database, Redis prefix and settings;
HAProxy runs with the configuration config/haproxy.py writes (deploy/haproxy.cfg is the same
for two fixed ports). ``./bin/test`` installs Debian's haproxy when it runs as root; elsewhere
these tests are skipped with a message that says how to install it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

HAPROXY = shutil.which("haproxy") or (
    "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
)

needs_haproxy = pytest.mark.skipif(
    HAPROXY is None,
    reason="haproxy is not installed: apt-get install -y haproxy (./bin/test does it as root)",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(cond: Callable[[], Any], timeout: float = 20.0, what: str = "a condition") -> Any:
    """Poll ``cond`` until it returns something truthy (returned) or fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


def http_get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status), response.read()
    except urllib.error.HTTPError as exc:
        return int(exc.code), exc.read()
    except OSError:
        return 0, b""


@dataclass
class Cluster:
    """Web nodes (name -> daphne process) behind HAProxy at ``proxy``."""

    nodes: dict[str, Any]
    ports: dict[str, int]
    proxy: int
    haproxy: subprocess.Popen[bytes] | None = None
    killed: list[str] = field(default_factory=list)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.proxy}{path}"

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.proxy}{path}"

    def kill(self, name: str) -> None:
        """``kill -9`` the node ``name`` (its daphne)."""
        os.kill(self.nodes[name].pid, signal.SIGKILL)
        self.nodes[name].join(timeout=10)
        self.killed.append(name)


def _start_node(application: Callable[[], Any]) -> Any:
    from channels.layers import channel_layers
    from daphne.testing import DaphneProcess  # type: ignore[import-untyped]

    # Each node makes its own channel layer: one this process made (the test's own sends)
    # would be forked into both with the same client prefix, and the two nodes would take
    # each other's messages off Redis, as two real machines never do.
    channel_layers.backends.clear()
    server = DaphneProcess("127.0.0.1", application)
    server.start()
    if not server.ready.wait(timeout=30):
        server.terminate()
        pytest.fail("daphne did not start")
    return server


@contextlib.contextmanager
def cluster(tmp_path: Path, names: tuple[str, ...] = ("a", "b")) -> Iterator[Cluster]:
    """Web nodes ``names`` behind HAProxy, both up in the proxy's checks when this yields."""
    from django.db import connections

    from config.haproxy import render

    def application() -> Any:
        from config.asgi import application

        return application

    connections.close_all()  # each forked node opens its own connections
    nodes: dict[str, Any] = {}
    try:
        for name in names:
            nodes[name] = _start_node(application)
        ports = {name: int(server.port.value) for name, server in nodes.items()}
        proxy = free_port()
        cfg = tmp_path / "haproxy.cfg"
        stats = free_port()
        cfg.write_text(
            render(
                bind=f"127.0.0.1:{proxy}",
                servers=[(n, f"127.0.0.1:{p}") for n, p in ports.items()],
                stats=f"127.0.0.1:{stats}",
            )
        )
        assert HAPROXY is not None
        log = open(tmp_path / "haproxy.log", "wb")  # noqa: SIM115 - closed below
        haproxy = subprocess.Popen([HAPROXY, "-db", "-f", str(cfg)], stdout=log, stderr=log)
        found = Cluster(nodes=nodes, ports=ports, proxy=proxy, haproxy=haproxy)

        def all_up() -> bool:
            status, body = http_get(f"http://127.0.0.1:{stats}/;csv")
            rows = [r.split(",") for r in body.decode(errors="replace").splitlines()]
            up = {r[1] for r in rows if len(r) > 17 and r[0] == "web" and r[17] == "UP"}
            return status == 200 and up - {"BACKEND"} == set(names)

        try:
            wait_for(all_up, what="HAProxy to see every node up")
        except BaseException:
            print(http_get(f"http://127.0.0.1:{stats}/;csv")[1].decode()[:3000])
            print(http_get(f"http://127.0.0.1:{ports[names[0]]}/healthz?scope=node"))
            raise
        try:
            yield found
        finally:
            haproxy.terminate()
            haproxy.wait(10)
            log.close()
    finally:
        for server in nodes.values():
            if server.is_alive():
                server.terminate()
                server.join(timeout=10)


class Client:
    """A browser's table socket through the proxy (``websockets``' sync client): reconnects
    with its session cookie and resyncs from the snapshot's version, as static/js does."""

    def __init__(self, c: Cluster, path: str, cookie: str) -> None:
        self.c, self.path, self.cookie = c, path, cookie
        self.ws: Any = None
        self.version = 0
        self.frames: list[dict[str, Any]] = []
        self.reconnects = 0

    def connect(self, timeout: float = 20.0) -> int:
        """Connect through the proxy (retrying while no node answers) and read the snapshot;
        returns its game version."""
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect
        from websockets.typing import Origin

        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ws = connect(
                    self.c.ws_url(self.path),
                    origin=Origin(f"http://127.0.0.1:{self.c.proxy}"),
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    open_timeout=5,
                    legacy=True,  # a plain connection: this client reconnects by itself
                )
                snapshot = self.until(lambda f: f["type"] == "snapshot")
                break
            except (OSError, TimeoutError, WebSocketException):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        self.version = int(snapshot["game"]["version"])
        return self.version

    def reconnect(self) -> int:
        self.reconnects += 1
        with contextlib.suppress(Exception):
            self.ws.close()
        return self.connect()

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> Any:
        """The next frame matching ``pred`` (raises ConnectionClosed when the node dies)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such frame")
            frame = json.loads(self.ws.recv(timeout=left))
            self.frames.append(frame)
            if frame.get("type") == "game_state_update":
                self.version = max(self.version, int(frame["version"]))
            if pred(frame):
                return frame


@pytest.fixture(autouse=True)
def _no_timers_left_behind() -> Iterator[None]:
    """The nodes of these tests send their timers to the test worker's broker
    (``tests.bots.worker.BrokerScheduler``) where no worker runs: empty it afterwards."""
    yield
    from tests.bots.worker import purge

    purge()
