"""Limits per user across all their browser sockets (issue 24 items 10 and 11: the frame and
chat limits were per socket, so 20 lobby sockets of one user sent 60 of 60 chat lines): open
sockets per user, frames per user and chat lines per user, on every table, page and daphne
process (the counters live in Redis: games.limits)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games import limits, seat_leases, services
from games.consumers import CLOSE_IDLE, CLOSE_TOO_MANY, LoopWatch, socket_watch
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
    (games.limits.Leases): two processes together get exactly the burst; once the bucket
    refills, a process spends what it still holds on top (at most one lease less a frame), and
    a lease left unused is dropped after FRAME_LEASE_SECONDS."""
    rate = limits.Rate.parse("40/2s")  # burst 40, 20 a second, leases of 10
    name = f"lease-test:{uuid.uuid4().hex}"
    here, there = limits.Leases(), limits.Leases()  # two daphne processes
    assert await here.take(name, rate)  # leases 10, spends 1: 30 left in Redis
    allowed_there = [await there.take(name, rate) for _ in range(32)]
    assert allowed_there == [True] * 30 + [False] * 2  # three leases, then nothing
    allowed_here = [await here.take(name, rate) for _ in range(10)]
    assert allowed_here == [True] * 9 + [False]  # the rest of its own lease
    clock.advance(0.51)  # 10.2 tokens refilled
    assert [await there.take(name, rate) for _ in range(11)] == [True] * 10 + [False]
    clock.advance(0.11)  # 2.2 tokens back: a lease of 10 is not there, single tokens are
    assert [await here.take(name, rate) for _ in range(3)] == [True, True, False]

    clock.advance(5.0)  # the bucket is full again (40)
    assert await here.take(name, rate)  # leases 10, spends 1: 9 held here, 30 in Redis
    clock.advance(1.0)  # the bucket is full again: the 9 are still held (the bounded slack)
    assert [await there.take(name, rate) for _ in range(41)] == [True] * 40 + [False]
    assert [await here.take(name, rate) for _ in range(10)] == [True] * 9 + [False]

    clock.advance(5.0)  # full again
    assert await here.take(name, rate)  # 9 held here
    clock.advance(limits.FRAME_LEASE_SECONDS)  # the 9 are dropped; the bucket is full
    assert [await there.take(name, rate) for _ in range(41)] == [True] * 40 + [False]
    assert not await here.take(name, rate)  # nothing held any more, nothing in Redis


async def test_slots_renew_renews_every_held_slot_in_one_call(clock: FrozenClock) -> None:
    names = [f"ws:user:renew-{uuid.uuid4().hex}" for _ in range(3)]
    for name in names:
        assert await limits.aslot_acquire(name, "mine", cap=1)
    clock.advance(limits.LEASE_SECONDS - 5)
    await limits.aslots_renew([(names[0], "mine"), (names[1], "mine")])
    clock.advance(10)  # past the first lease: only the renewed slots are still held
    assert not limits.slot_acquire(names[0], "other", cap=1)  # the sync and async clients agree
    assert not await limits.aslot_acquire(names[1], "other", cap=1)
    assert limits.slot_acquire(names[2], "other", cap=1)
    await limits.aslots_renew([])  # nothing held: no call
    await limits.aslot_release(names[2], "other")
    assert await limits.aslot_acquire(names[2], "again", cap=1)


async def test_slots_renew_takes_lapsed_slots_again_and_sets_each_key_s_expiry(
    clock: FrozenClock,
) -> None:
    """One script call for every slot: a lapsed member is taken again, two members of one key
    are both renewed, and every key lives as long as its newest lease (plus a second)."""
    shared, lapsed = (f"ws:user:renew-{uuid.uuid4().hex}" for _ in range(2))
    assert await limits.aslot_acquire(shared, "a", cap=2)
    assert await limits.aslot_acquire(shared, "b", cap=2)
    assert await limits.aslot_acquire(lapsed, "c", cap=1)
    clock.advance(limits.LEASE_SECONDS + 1)  # every lease has lapsed
    await limits.aslots_renew([(shared, "a"), (shared, "b"), (lapsed, "c")])
    assert not await limits.aslot_acquire(shared, "d", cap=2)  # a and b hold both slots
    assert not await limits.aslot_acquire(lapsed, "e", cap=1)
    redis = limits.sync_client()
    for name in (shared, lapsed):
        key = limits.cache.make_key(f"slots:{name}")
        assert redis.zrange(key, 0, -1) in ([b"a", b"b"], [b"c"])
        ttl = redis.pttl(key)
        assert limits.LEASE_SECONDS * 1000 < ttl <= (limits.LEASE_SECONDS + 1) * 1000


class _Socket:
    """What the process's socket watch reads and calls on a consumer."""

    def __init__(
        self,
        name: str,
        *,
        last_seen: float,
        slot: str | None,
        renewed: float,
        seat: tuple[int, int, int] | None = None,
        leased: float = 0.0,
    ) -> None:
        self.channel_name = name
        self.last_seen = last_seen
        self.slot = slot
        self.slot_renewed = renewed
        self.seat = seat
        self.lease_renewed = leased
        self.closed: list[int] = []

    def presence(self) -> tuple[int, int, int, str] | None:
        return None if self.seat is None else (*self.seat, self.channel_name)

    async def close(self, code: int) -> None:
        self.closed.append(code)


async def test_one_watch_closes_idle_sockets_and_renews_due_slots_in_one_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[list[tuple[str, str]]] = []
    leased: list[list[tuple[int, int, int, str]]] = []

    async def renew(held: list[tuple[str, str]]) -> None:
        calls.append(held)

    async def hold_many(held: list[tuple[int, int, int, str]]) -> None:
        leased.append(held)

    monkeypatch.setattr(limits, "aslots_renew", renew)
    monkeypatch.setattr(seat_leases, "ahold_many", hold_many)
    watch = LoopWatch()
    due = limits.LEASE_SECONDS / 3 + 1
    lease_due = seat_leases.renew_every()
    sockets = {
        "idle": _Socket("idle", last_seen=0.0, slot="ws:user:1", renewed=0.0, seat=(7, 0, 1)),
        "due": _Socket(
            "due", last_seen=95.0, slot="ws:user:1", renewed=100.0 - due, seat=(7, 1, 1)
        ),
        "due2": _Socket(
            "due2",
            last_seen=99.0,
            slot="ws:user:2",
            renewed=100.0 - due,
            seat=(7, 2, 2),
            leased=100.0 - lease_due,
        ),
        "fresh": _Socket(
            "fresh", last_seen=99.0, slot="ws:user:3", renewed=99.0, seat=(8, 0, 3), leased=99.0
        ),
        "guest": _Socket("guest", last_seen=99.0, slot=None, renewed=0.0),
    }
    for socket in sockets.values():
        watch.sockets[socket] = None  # type: ignore[index]
    await watch.tick(100.0, idle=45.0)
    assert sockets["idle"].closed == [CLOSE_IDLE]
    assert [s.closed for n, s in sockets.items() if n != "idle"] == [[], [], [], []]
    assert calls == [[("ws:user:1", "due"), ("ws:user:2", "due2")]]
    # the seat leases due (not the closed socket's, not a fresh one's) in one call too
    assert leased == [[(7, 1, 1, "due"), (7, 2, 2, "due2")]]
    assert sockets["idle"] not in watch.sockets  # type: ignore[comparison-overlap]
    await watch.tick(101.0, idle=45.0)  # renewed just now: not again
    assert len(calls) == 1
    assert len(leased) == 1


async def test_a_process_watches_its_sockets_with_one_task(settings: Any) -> None:
    _user_row, cookie = await _user("watched")
    conns = [Conn("/ws/lobby/", cookie) for _ in range(3)]
    before = socket_watch.watched()
    for conn in conns:
        await conn.open()
    assert socket_watch.watched() == before + 3
    for conn in conns:
        await conn.close()
    assert socket_watch.watched() == before
