"""The tests' WebSocket client, one for every test that talks to the site's sockets.

:class:`Conn` connects through the project's ASGI application (``config.asgi``) as a browser
would (same origin, the session cookie of a logged-in user or none for a guest), keeps every
frame it receives and waits on conditions, never for a fixed time:
``await conn.until(is_type("your_turn"))`` returns the first unread frame that matches, or fails
when the socket stays silent for ``timeout`` seconds; :func:`wait_until` polls any condition
with a deadline. :meth:`Conn.drain` (read until the socket has been quiet for
``wait`` seconds) is only for checking that nothing more arrives.

>>> is_type("turn", seat=1)({"type": "turn", "seat": 1, "round": 0})
True
>>> table_path("abc")
'/ws/tables/abc/'
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

__all__ = [
    "Conn",
    "Frame",
    "cookie_for",
    "db",
    "is_type",
    "lobby_path",
    "table_conns",
    "table_path",
    "wait_until",
]

Frame = dict[str, Any]

#: Seconds a wait on a frame or a condition lasts before the test fails.
TIMEOUT = 5.0


def table_path(code: str) -> str:
    """The socket path of the table ``code``."""
    return f"/ws/tables/{code}/"


def lobby_path() -> str:
    """The lobby's socket path.

    >>> lobby_path()
    '/ws/lobby/'
    """
    return "/ws/lobby/"


def is_type(kind: str, **fields: Any) -> Callable[[Frame], bool]:
    """A frame predicate: its ``type`` is ``kind`` and each of ``fields`` has that value.

    >>> is_type("error", code="bad_json")({"type": "error", "code": "stale"})
    False
    """
    return lambda f: f["type"] == kind and all(f.get(k) == v for k, v in fields.items())


class Conn:
    """A WebSocket client (``cookie``: a session id, None for a guest) that keeps every frame
    it received in :attr:`frames` (for leak checks) and those no wait consumed yet in
    :attr:`unread`."""

    def __init__(self, path: str, cookie: str | None = None) -> None:
        from config.asgi import application

        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
        if cookie:
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.frames: list[Frame] = []
        self.unread: list[Frame] = []

    async def open(self) -> Frame:
        """Connect and return the first ``snapshot`` frame (table and lobby sockets send one)."""
        connected, _ = await self.comm.connect()
        assert connected
        return await self.until(lambda f: f["type"] == "snapshot")

    async def send(self, frame: Frame | str) -> None:
        """Send a frame (a dict as JSON, a string as it is)."""
        await self.comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def receive(self, timeout: float = TIMEOUT) -> Frame:
        """The next frame off the socket (kept in :attr:`frames` and :attr:`unread`)."""
        frame = await self.comm.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        self.unread.append(frame)
        return frame

    async def until(self, pred: Callable[[Frame], bool], timeout: float = TIMEOUT) -> Frame:
        """The first unread frame matching ``pred`` (marked read; the others stay unread);
        fails when the socket stays silent for ``timeout`` seconds before one arrives."""
        while True:
            for i, frame in enumerate(self.unread):
                if pred(frame):
                    del self.unread[i]
                    return frame
            await self.receive(timeout)

    async def drain(self, wait: float = 0.05) -> None:
        """Read every frame until the socket has been quiet for ``wait`` seconds."""
        while not await self.comm.receive_nothing(timeout=wait):
            await self.receive()

    async def error(self, frame: Frame | str) -> Frame:
        """Send ``frame`` and return the ``error`` frame it gets."""
        await self.send(frame)
        return await self.until(lambda f: f["type"] == "error")

    def of_type(self, kind: str) -> list[Frame]:
        """Every frame of ``kind`` received so far, read or not."""
        return [f for f in self.frames if f["type"] == kind]

    async def close(self) -> None:
        await self.comm.disconnect()


async def table_conns(table: Any, users: Sequence[Any]) -> list[Conn]:
    """An open socket at ``table`` for each of ``users``, in order (each past its snapshot)."""
    conns = []
    for user in users:
        conn = Conn(table_path(table.code), await cookie_for(user))
        await conn.open()
        conns.append(conn)
    return conns


async def started_with_spectator(table: Any, users: Sequence[Any]) -> tuple[list[Conn], Conn]:
    """Each of ``users``' sockets at ``table`` and an anonymous spectator's; the first starts
    the game and every one of them has seen its ``game_started``."""
    conns = await table_conns(table, users)
    spectator = Conn(table_path(table.code))
    await spectator.open()
    await conns[0].send({"type": "start_game"})
    for conn in [*conns, spectator]:
        await conn.until(is_type("game_started"))
    return conns, spectator


@database_sync_to_async
def cookie_for(user: Any) -> str:
    """A session cookie of ``user`` for :class:`Conn`."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@database_sync_to_async
def db(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` (ORM or services code) off the event loop and return what it returns."""
    return fn()


async def wait_until(
    check: Callable[[], Awaitable[Any] | Any],
    *,
    timeout: float = TIMEOUT,
    interval: float = 0.02,
    what: str = "the condition",
) -> Any:
    """Poll ``check`` (a function, or a coroutine function) until it returns something true
    and return that; fail after ``timeout`` seconds. The sleep between polls only paces the
    loop: the condition decides.

    >>> asyncio.run(wait_until(lambda: 3))
    3
    """
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} did not hold within {timeout}s")
        await asyncio.sleep(interval)
