"""Issue 27: any web node serves any table. Two daphne nodes behind a real HAProxy share one
PostgreSQL and one Redis; the node under a table's sockets is killed with ``kill -9`` while a
move is in flight; every client reconnects through the proxy to the other node, resyncs by the
game's version and plays on: no accepted move is lost and none is applied twice."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from django.test import Client as DjangoClient
from websockets.exceptions import ConnectionClosed

from games.engine.registry import find_game
from games.models import Action, Game
from tests.cluster.conftest import Client, cluster, needs_haproxy, wait_for
from tests.games.live import pending_seat, started_table, state_of

pytestmark = [
    needs_haproxy,
    pytest.mark.live_server,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def _cookie(user: Any) -> str:
    client = DjangoClient()
    client.force_login(user)
    return str(client.cookies["sessionid"].value)


def _move(game: Game) -> tuple[int, dict[str, Any]]:
    """The seat to act and a legal move for it (the easy house AI's)."""
    seat = pending_seat(game)
    move = dict(find_game(game.engine).house_action(state_of(game), seat, "easy"))
    move.pop("seat", None)
    return seat, move


def _play_one(clients: list[Client], game: Game) -> int:
    """The seat to act plays through its socket; every client sees the new version."""
    seat, move = _move(game)
    before = clients[seat].version
    clients[seat].send({"type": "game_action", "version": before, "action": move})
    for client in clients:
        try:
            client.until(lambda f: f["type"] == "game_state_update" and f["version"] == before + 1)
        except TimeoutError:
            print(
                seat,
                move,
                before,
                Game.objects.get(pk=game.pk).version,
                [str(f)[-600:] for f in clients[seat].frames],
            )
            raise
    return before + 1


def test_a_killed_node_s_sockets_resync_through_the_proxy_on_the_other(
    tmp_path: Path, settings: Any
) -> None:
    # the nodes' timers go to the test worker's broker (tests/bots/worker.py), where nothing
    # consumes them: people play every move of this test within their turn time
    table, users, game = started_table()
    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    cookies = [_cookie(u) for u in users]
    path = f"/ws/tables/{table.code}/"
    with cluster(tmp_path) as c:
        clients = [Client(c, path, cookie) for cookie in cookies]
        for client in clients:
            client.connect()
        for _ in range(3):
            version = _play_one(clients, game)
        accepted = version

        # A move in flight, and node a dies under it: sockets on a are cut, b's stay.
        seat, move = _move(game)
        clients[seat].send({"type": "game_action", "version": accepted, "action": move})
        c.kill("a")
        cut = []
        for i, client in enumerate(clients):
            try:
                client.until(
                    lambda f: f["type"] == "game_state_update" and f["version"] == accepted + 1,
                    timeout=5,
                )
            except (ConnectionClosed, TimeoutError):
                cut.append(i)
        assert cut, "leastconn spread the four sockets over both nodes: a held some"
        assert len(cut) < len(clients), "b's sockets stayed open"

        # The cut clients reconnect through the proxy (to b) and resync from the snapshot.
        for i in cut:
            snapshot_version = clients[i].reconnect()
            assert snapshot_version >= accepted  # nothing accepted before the kill is lost
        in_db = Game.objects.get(pk=game.pk).version
        assert in_db in (accepted, accepted + 1)
        # The in-flight move, sent again with the version it was made at: played once.
        clients[seat].send({"type": "game_action", "version": accepted, "action": move})
        if in_db == accepted + 1:
            error = clients[seat].until(lambda f: f["type"] == "error")
            assert error["code"] == "stale_version"
            assert error["version"] == accepted + 1
        else:
            clients[seat].until(
                lambda f: f["type"] == "game_state_update" and f["version"] == accepted + 1
            )
        wait_for(lambda: all(cl.version == accepted + 1 for cl in clients) or _sync(clients))
        for _ in range(3):
            version = _play_one(clients, game)

    assert version == accepted + 4
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, version + 1))  # every move once, none twice, none lost
    assert Game.objects.get(pk=game.pk).version == version


def _sync(clients: list[Client]) -> bool:
    """Read what is waiting on each socket (updates that arrived while others reconnected)."""
    for client in clients:
        with contextlib.suppress(TimeoutError):
            client.until(lambda f: False, timeout=0.05)
    return False
