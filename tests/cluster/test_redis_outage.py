"""Issue 27: a short Redis outage (docs/cluster.md "PostgreSQL, Redis: failover on paper").
Two web nodes behind HAProxy use a Redis of this test's own (the shared one is never touched):
it is killed while people play and started again, empty, on the same port. Moves accepted before
stay; a move sent during the outage is stored or refused, never half-done; every client ends up
on the current version (reconnecting when its socket was closed) and play goes on: no move lost,
none applied twice."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from games.models import Action, Game
from tests.cluster.conftest import Client, cluster, free_port, needs_haproxy, wait_for
from tests.cluster.test_failover import _cookie, _move, _play_one
from tests.games.live import started_table

REDIS_SERVER = shutil.which("redis-server")

pytestmark = [
    needs_haproxy,
    pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not installed"),
    pytest.mark.live_server,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def _redis(port: int, folder: Path) -> subprocess.Popen[bytes]:
    assert REDIS_SERVER is not None
    folder.mkdir(exist_ok=True)
    proc = subprocess.Popen(
        [
            REDIS_SERVER,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
    )
    import redis

    wait_for(lambda: _pings(redis.Redis(port=port)), what="the test's Redis")
    return proc


def _pings(client: Any) -> bool:
    try:
        return bool(client.ping())
    except Exception:
        return False


def _resync(client: Client, want: int, timeout: float = 30.0) -> None:
    """What the page does: read on; a closed socket reconnects (snapshot); a socket that hears
    nothing sends ``sync``... here: reconnect when no update arrives."""
    deadline = time.monotonic() + timeout
    while client.version < want:
        try:
            client.until(
                lambda f: f["type"] == "game_state_update" and f["version"] >= want, timeout=2
            )
        except (ConnectionClosed, TimeoutError, OSError):
            client.reconnect()
        if time.monotonic() > deadline:
            pytest.fail(f"client stuck at version {client.version}, want {want}")


def _play(clients: list[Client], game: Game) -> int:
    """The seat to act plays (reconnecting first when its socket was closed, as the page
    does); every client reaches the new version, reconnecting if need be."""
    seat, move = _move(game)
    before = Game.objects.get(pk=game.pk).version
    mover = clients[seat]
    try:
        mover.send({"type": "game_action", "version": before, "action": move})
    except (ConnectionClosed, OSError):
        mover.reconnect()
        mover.send({"type": "game_action", "version": before, "action": move})
    for client in clients:
        _resync(client, before + 1)
    return before + 1


def test_a_short_redis_outage_loses_no_move(tmp_path: Path, settings: Any) -> None:
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    server = _redis(port, tmp_path / "redis")
    try:
        settings.CHANNEL_LAYERS = {
            "default": {
                **settings.CHANNEL_LAYERS["default"],
                "CONFIG": {
                    **settings.CHANNEL_LAYERS["default"]["CONFIG"],
                    "hosts": [{"address": url, "socket_timeout": 5.0}],
                },
            }
        }
        table, users, game = started_table()
        settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
        cookies = [_cookie(u) for u in users]
        with cluster(tmp_path) as c:
            clients = [Client(c, f"/ws/tables/{table.code}/", k) for k in cookies]
            for client in clients:
                client.connect()
            for _ in range(2):
                version = _play_one(clients, game)

            server.send_signal(signal.SIGKILL)
            server.wait(10)
            seat, move = _move(game)
            clients[seat].send({"type": "game_action", "version": version, "action": move})
            with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):
                clients[seat].until(lambda f: f["type"] in ("error", "game_state_update"), 3)
            stored = Game.objects.get(pk=game.pk).version
            assert stored in (version, version + 1)

            server = _redis(port, tmp_path / "redis")  # back, empty
            for client in clients:
                _resync(client, stored)
            # refused while Redis was away: play it now; else it stands, played once
            version = _play(clients, game) if stored == version else stored
            for _ in range(3):
                version = _play(clients, game)
            reconnects = [cl.reconnects for cl in clients]
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(10)
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, version + 1))
    assert all(n >= 1 for n in reconnects)  # their sockets were closed (1011) and came back
