"""Limits per user across all their browser sockets (issue 24 items 10 and 11: the frame and
chat limits were per socket, so 20 lobby sockets of one user sent 60 of 60 chat lines): open
sockets per user, frames per user and chat lines per user, on every table, page and daphne
process (the counters live in Redis: games.limits)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games import limits, services
from games.consumers import CLOSE_TOO_MANY
from tests.factories import UserFactory
from tests.scheduler import FrozenClock
from tests.ws import Conn, cookie_for, db, is_type, table_path

pytestmark = pytest.mark.django_db(transaction=True)


async def _user(name: str) -> tuple[Any, str]:
    user = await db(lambda: UserFactory.create(username=name, display_name=name.title()))
    return user, await cookie_for(user)


async def test_a_user_holds_a_limited_number_of_sockets(settings: Any) -> None:
    settings.GAMES_WS_MAX_SOCKETS_PER_USER = 3
    user, cookie = await _user("many")
    table = await db(lambda: services.table_create(owner=user, name="Mine"))
    open_ = [Conn("/ws/lobby/", cookie), Conn(table_path(table.code), cookie)]
    open_.append(Conn("/ws/lobby/", cookie))
    for conn in open_:
        await conn.open()
    # the fourth, whatever page it is for, is refused with a stable code and close code
    extra = Conn(table_path(table.code), cookie)
    assert (await extra.comm.connect())[0]
    refused = await extra.until(is_type("error"))
    assert (refused["code"], refused["limit"]) == ("too_many_sockets", 3)
    closed = await extra.comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": CLOSE_TOO_MANY}
    # others are not affected, guests are not counted; a closed socket frees its slot
    _other, other_cookie = await _user("other")
    other = Conn("/ws/lobby/", other_cookie)
    await other.open()
    guest = Conn("/ws/lobby/")
    await guest.open()
    await open_[0].close()
    again = Conn("/ws/lobby/", cookie)
    await again.open()
    for conn in (*open_[1:], other, guest, again):
        await conn.close()


async def test_frames_are_limited_per_user_across_sockets(
    settings: Any, clock: FrozenClock
) -> None:
    settings.GAMES_WS_USER_RATE = "4/m"  # each socket's own limit (20 at once) is far off
    _user_row, cookie = await _user("pinger")
    conns = [Conn("/ws/lobby/", cookie) for _ in range(3)]
    for conn in conns:
        await conn.open()
    answers = []
    for conn in conns:
        for _ in range(2):
            await conn.send({"type": "ping"})
            frame = await conn.until(lambda f: f["type"] in ("pong", "error"))
            answers.append(frame.get("code", frame["type"]))
    assert answers == ["pong"] * 4 + ["rate_limited"] * 2
    clock.advance(15.0)  # one frame back
    await conns[0].send({"type": "ping"})
    assert (await conns[0].until(lambda f: f["type"] in ("pong", "error")))["type"] == "pong"
    for conn in conns:
        await conn.close()


async def test_chat_is_limited_per_user_across_sockets_and_tables(
    settings: Any, clock: FrozenClock
) -> None:
    settings.GAMES_CHAT_USER_RATE = "3/m"
    user, cookie = await _user("talker")
    table = await db(lambda: services.table_create(owner=user, name="Talk"))
    conns = [Conn("/ws/lobby/", cookie) for _ in range(4)]
    conns.append(Conn(table_path(table.code), cookie))
    for conn in conns:
        await conn.open()
    listener = Conn("/ws/lobby/")
    await listener.open()
    codes = []
    for n, conn in enumerate(conns):  # one line per socket: each socket's own limit is far off
        await conn.send({"type": "send_message", "text": f"line {n}"})
        if n < 3:
            codes.append((await listener.until(is_type("message_received")))["text"])
        else:
            codes.append((await conn.until(is_type("error")))["code"])
    assert codes == ["line 0", "line 1", "line 2", "rate_limited", "rate_limited"]
    # another user chats freely
    _other, other_cookie = await _user("quiet")
    other = Conn("/ws/lobby/", other_cookie)
    await other.open()
    await other.send({"type": "send_message", "text": "hi"})
    assert (await listener.until(is_type("message_received")))["text"] == "hi"
    clock.advance(20.0)  # one line back
    await conns[0].send({"type": "send_message", "text": "later"})
    assert (await listener.until(is_type("message_received")))["text"] == "later"
    for conn in (*conns, listener, other):
        await conn.close()


async def test_frame_leases_never_let_more_through_than_the_shared_bucket(
    clock: FrozenClock,
) -> None:
    """Each process takes a user's frame tokens from Redis a quarter of the burst at a time
    (games.limits.Leases): two processes together still get exactly the burst, and a lease
    left unused expires once the bucket would have refilled it."""
    rate = limits.Rate.parse("40/2s")  # burst 40, 20 a second, leases of 10
    name = f"lease-test:{uuid.uuid4().hex}"
    here, there = limits.Leases(), limits.Leases()  # two daphne processes
    assert await here.take(name, rate)  # leases 10, spends 1: 30 left in Redis
    allowed_there = [await there.take(name, rate) for _ in range(32)]
    assert allowed_there == [True] * 30 + [False] * 2  # three leases, then nothing
    allowed_here = [await here.take(name, rate) for _ in range(10)]
    assert allowed_here == [True] * 9 + [False]  # the rest of its own lease
    clock.advance(0.51)  # 10.2 tokens refilled; the leases expired
    assert [await there.take(name, rate) for _ in range(11)] == [True] * 10 + [False]
    clock.advance(0.11)  # 2.2 tokens back: a lease of 10 is not there, single tokens are
    assert [await here.take(name, rate) for _ in range(3)] == [True, True, False]
