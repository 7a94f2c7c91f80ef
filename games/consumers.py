"""WebSocket consumers: a live table (``/ws/tables/<code>/``) and the lobby chat (``/ws/lobby/``).

Thin by design: parse and validate a frame, rate-limit it, call one service or selector through
``database_sync_to_async``, map errors to ``error`` frames. Game updates reach the socket as
group messages sent by the services on commit. The frames are in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from channels.consumer import AsyncConsumer, get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.functional import empty

from games import jsontext, limits, realtime, seat_leases, selectors, services, threads
from games.engine.core import jsonsafe
from games.realtime import fanout

logger = logging.getLogger(__name__)

Frame = dict[str, Any]
CLOSE_NOT_FOUND = 4404
CLOSE_IDLE = 4408
#: Close code of a socket refused because its user has too many open (``too_many_sockets``).
CLOSE_TOO_MANY = 4429
#: Deepest JSON nesting a frame may have (the protocol's frames nest 2–3 levels).
FRAME_MAX_DEPTH = 16


def db_call(fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """``database_sync_to_async`` on the process's database pool (``games.threads``, not the
    one thread-sensitive thread): tables do not queue behind each other; services lock the rows
    they change; the thread idle last, with its connection, takes the call. For reads
    (selectors); a service that announces what it did is called with :func:`db_work`."""
    return database_sync_to_async(fn, thread_sensitive=False, executor=threads.database_pool())


def db_work(fn: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """:func:`db_call` of a service that announces what it did: the service is given an
    ``Outbox`` as its ``sink`` (``games.services.unit.Work.sink``), so its frames, collected
    on commit in the worker thread, are sent from the event loop when the call returns,
    instead of the thread hopping to another loop for each broadcast and waiting there."""

    def collecting(*args: Any, **kwargs: Any) -> tuple[Any, realtime.Outbox]:
        box = realtime.Outbox()
        try:
            result = fn(*args, sink=box, **kwargs)
        except BaseException:
            fanout.send_now(list(box))  # what committed before the error still goes
            raise
        return result, box

    call = db_call(collecting)

    async def run(*args: Any, **kwargs: Any) -> Any:
        result, sends = await call(*args, **kwargs)
        if sends:
            await realtime.send_async(sends)
        return result

    return run


@dataclass
class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class FrameError(Exception):
    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


def _int(frame: Frame, name: str, *, required: bool = True) -> int | None:
    value = frame.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise FrameError("bad_frame", f"{name} must be an integer")
    return value


def _str(frame: Frame, name: str, *, required: bool = True) -> str | None:
    value = frame.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise FrameError("bad_frame", f"{name} must be a string")
    return value


def _play_cards(frame: Frame) -> Frame:
    action = {"type": "play", "cards": frame.get("cards")}
    return {"version": frame.get("version"), "action": action}


def _pass_turn(frame: Frame) -> Frame:
    return {"version": frame.get("version"), "action": {"type": "pass"}}


#: The older frames that mean a ``game_action``, kept for clients written before it (the site's
#: own pages send ``game_action`` for every game): each is rewritten into the ``game_action``
#: frame it stands for, here and nowhere else, so both give the same answer (docs/protocol.md
#: "Aliases"). An error frame's ``ref`` still names the frame the client sent.
GAME_ACTION_ALIASES: dict[str, Callable[[Frame], Frame]] = {
    "play_cards": _play_cards,
    "pass_turn": _pass_turn,
}


def as_game_action(frame: Frame) -> Frame:
    """``frame`` as the ``game_action`` it stands for (an alias of :data:`GAME_ACTION_ALIASES`
    rewritten, anything else unchanged).

    >>> as_game_action({"type": "play_cards", "version": 3, "cards": ["3S"]})
    {'version': 3, 'action': {'type': 'play', 'cards': ['3S']}, 'type': 'game_action'}
    >>> as_game_action({"type": "pass_turn", "version": 4})
    {'version': 4, 'action': {'type': 'pass'}, 'type': 'game_action'}
    >>> as_game_action({"type": "sync"})
    {'type': 'sync'}
    """
    alias = GAME_ACTION_ALIASES.get(str(frame.get("type")))
    if alias is None:
        return frame
    return {**alias(frame), "type": "game_action"}


async def dispatch_without_db_hop(consumer: AsyncConsumer, message: dict[str, Any]) -> None:
    """``AsyncConsumer.dispatch`` without its ``aclose_old_connections()`` before every
    message: that is a ``sync_to_async`` hop to the process's single thread-sensitive thread,
    so every socket's every frame queued behind one thread. These consumers never use the ORM
    on the event loop; their database work runs in :func:`db_call`
    (``database_sync_to_async`` closes stale connections around each call in its own thread)."""
    handler = getattr(consumer, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


class LoopWatch:
    """The sockets of one event loop and the one task that watches them all."""

    def __init__(self) -> None:
        self.sockets: dict[BaseConsumer, None] = {}  # ordered set
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while self.sockets:
            idle = float(settings.GAMES_WS_IDLE_SECONDS)
            await asyncio.sleep(min(5.0, idle / 3, seat_leases.renew_every()))
            await self.tick(time.monotonic(), idle)

    async def tick(self, now: float, idle: float) -> None:
        """Close the sockets idle for more than ``idle`` seconds; renew, in one Redis round
        trip, the slots last renewed more than a third of ``limits.LEASE_SECONDS`` ago, and in
        another the seat leases (``games.seat_leases``) due within the next tick."""
        closing: list[BaseConsumer] = []
        renew: list[tuple[str, str]] = []
        leases: list[tuple[int, int, int, str]] = []
        lease_due = seat_leases.renew_every() * 0.9
        for socket in list(self.sockets):
            if now - socket.last_seen > idle:
                self.sockets.pop(socket, None)
                closing.append(socket)
                continue
            if socket.slot is not None and now - socket.slot_renewed > limits.LEASE_SECONDS / 3:
                socket.slot_renewed = now
                renew.append((socket.slot, socket.channel_name))
            held = socket.presence()
            if held is not None and now - socket.lease_renewed >= lease_due:
                socket.lease_renewed = now
                leases.append(held)
        for socket in closing:
            try:
                await socket.close(code=CLOSE_IDLE)
            except Exception:  # the socket went away meanwhile
                logger.warning("closing an idle socket failed", exc_info=True)
        if renew:
            try:
                await limits.aslots_renew(renew)
            except Exception:  # Redis away for a moment: the limits fail open, sockets live
                logger.warning("socket slot renewal failed", exc_info=True)
        if leases:
            try:
                await seat_leases.ahold_many(leases)
            except Exception:  # Redis away: the leases lapse and the heal recounts the seats
                logger.warning("seat lease renewal failed", exc_info=True)


class SocketWatch:
    """Every open socket's idle watchdog and slot renewal, **one task per event loop** (a
    daphne process has one) instead of one per socket: every ``min(5, idle / 3)`` seconds it
    closes the sockets idle for ``GAMES_WS_IDLE_SECONDS`` (:data:`CLOSE_IDLE`) and renews the
    slots of ``GAMES_WS_MAX_SOCKETS_PER_USER`` that are due in one Redis round trip
    (``limits.slots_renew``). Per-socket tasks each woke every 5 s and renewed with a thread
    hop and a Redis script of their own: with hundreds of idle sockets that was most of a
    paced table's CPU (docs/benchmarks.md, "Issue 26 … session 11")."""

    def __init__(self) -> None:
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopWatch] = (
            weakref.WeakKeyDictionary()
        )

    def add(self, socket: BaseConsumer) -> None:
        loop = asyncio.get_running_loop()
        watch = self._loops.get(loop)
        if watch is None:
            watch = self._loops[loop] = LoopWatch()
        watch.sockets[socket] = None
        if watch.task is None or watch.task.done():
            watch.task = loop.create_task(watch.run())

    def discard(self, socket: BaseConsumer) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - disconnect always runs on the loop
            return
        watch = self._loops.get(loop)
        if watch is None:
            return
        watch.sockets.pop(socket, None)
        if not watch.sockets and watch.task is not None:
            watch.task.cancel()
            watch.task = None

    def watched(self) -> int:
        """How many sockets of the running loop are watched (for the tests)."""
        watch = self._loops.get(asyncio.get_running_loop())
        return len(watch.sockets) if watch is not None else 0


#: The process's :class:`SocketWatch`.
socket_watch = SocketWatch()


class BaseConsumer(AsyncWebsocketConsumer):
    """Frame parsing, limits, heartbeat and error mapping shared by both sockets."""

    handlers: dict[str, str] = {}
    #: Frame types rewritten by :func:`as_game_action` before dispatch.
    aliases: frozenset[str] = frozenset()

    async def dispatch(self, message: dict[str, Any]) -> None:
        await dispatch_without_db_hop(self, message)

    async def setup_limits(self) -> bool:
        """Claim one of the user's socket slots and start the frame limits and the idle
        watchdog; False (after an error frame ``too_many_sockets`` and a close with
        :data:`CLOSE_TOO_MANY`) when the user already has ``GAMES_WS_MAX_SOCKETS_PER_USER``
        sockets open, on any table, page or daphne process."""
        self.slot: str | None = None
        if self.user is not None:
            slot = f"ws:user:{self.user.pk}"
            cap = int(settings.GAMES_WS_MAX_SOCKETS_PER_USER)
            if not await limits.aslot_acquire(slot, self.channel_name, cap=cap):
                await self.send_error(
                    "too_many_sockets", f"at most {cap} open sockets per user", limit=cap
                )
                await self.close(code=CLOSE_TOO_MANY)
                return False
            self.slot = slot
        self.bucket = TokenBucket(
            float(settings.GAMES_WS_RATE),
            float(settings.GAMES_WS_BURST),
        )
        self.chat_bucket = TokenBucket(
            float(settings.GAMES_CHAT_RATE),
            float(settings.GAMES_CHAT_BURST),
        )
        self.last_seen = time.monotonic()
        self.slot_renewed = self.lease_renewed = self.last_seen
        socket_watch.add(self)
        return True

    def presence(self) -> tuple[int, int, int, str] | None:
        """The seat lease this socket holds while it lives (``games.seat_leases``), as
        ``(table_id, seat, user_id, member)``; None for a socket that holds no seat."""
        return None

    async def stop_watch(self) -> None:
        """Leave the process's :data:`socket_watch` and give back the socket's slot (every
        disconnect calls it)."""
        socket_watch.discard(self)
        slot = getattr(self, "slot", None)
        if slot is not None:
            self.slot = None
            await limits.aslot_release(slot, self.channel_name)

    async def frame_allowed(self) -> bool:
        """One frame's rate: this socket's bucket (``GAMES_WS_RATE``/``GAMES_WS_BURST``), then
        the user's, shared by all their sockets (``GAMES_WS_USER_RATE``)."""
        if not self.bucket.take():
            return False
        if self.user is None:
            return True
        rate = limits.setting_rate("GAMES_WS_USER_RATE")
        # leased: Redis is asked once per limits.lease_size(rate) frames, not for each
        return await limits.frame_leases.take(f"ws:user:{self.user.pk}", rate)

    @functools.cached_property
    def user(self) -> Any:
        """The signed-in user of the socket, None for a visitor. Read once: channels'
        ``AuthMiddleware`` resolved it before the consumer ran and it does not change while
        the socket lives; unwrapped from channels' lazy object, so the frames that follow (and
        the services they call) read the user's fields directly."""
        user = self.scope.get("user")
        if user is None:
            return None
        wrapped = getattr(user, "_wrapped", user)
        user = user if wrapped is empty else wrapped
        return user if user.is_authenticated else None

    async def send_frame(self, frame: Frame) -> None:
        await self.send(text_data=jsontext.dumps(frame))

    async def send_error(self, code: str, detail: str = "", **extra: Any) -> None:
        await self.send_frame(realtime.error_frame(code, detail, **extra))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.last_seen = time.monotonic()
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        limit = int(settings.GAMES_WS_MAX_FRAME)
        if len(raw) > limit or len(raw.encode("utf-8", "replace")) > limit:
            await self.send_error("frame_too_large", f"frames are limited to {limit} bytes")
            return
        if not await self.frame_allowed():
            await self.send_error("rate_limited", "slow down")
            return
        try:
            frame = jsonsafe.loads(raw, max_depth=FRAME_MAX_DEPTH)
        except jsonsafe.JSONTooDeepError:
            await self.send_error("bad_json", f"frames nest at most {FRAME_MAX_DEPTH} levels")
            return
        except ValueError:
            await self.send_error("bad_json", "frames are JSON objects")
            return
        if not isinstance(frame, dict):
            await self.send_error("bad_json", "frames are JSON objects")
            return
        kind = frame.get("type")
        if isinstance(kind, str) and kind in self.aliases:
            frame = as_game_action(frame)
        name = self.handlers.get(frame["type"]) if isinstance(kind, str) else None
        if name is None:
            await self.send_error("unknown_type", f"unknown frame type {kind!r}", ref=kind)
            return
        handler: Callable[[Frame], Awaitable[None]] = getattr(self, name)
        try:
            await handler(frame)
        except FrameError as exc:
            await self.send_error(exc.code, exc.detail, ref=kind)
        except services.TableError as exc:
            await self.send_error(exc.code, exc.detail, ref=kind, **exc.extra)
        except ValueError as exc:  # engine errors (and selector refusals) carry a code
            code = getattr(exc, "code", None) or str(exc) or "bad_frame"
            detail = getattr(exc, "detail", "")
            await self.send_error(str(code), str(detail), ref=kind)
        except Exception:
            logger.exception("websocket handler failed", extra={"frame_type": kind})
            await self.send_error("internal", "something went wrong; nothing changed", ref=kind)

    async def ping(self, frame: Frame) -> None:
        await self.send_frame({"type": "pong", "server_time": time.time()})

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A frame a service broadcast to one of this socket's groups."""
        await self.send_frame(event["frame"])

    async def chat_allowed(self) -> None:
        """One chat line: this socket's bucket, then the user's across all their sockets and
        tables (``GAMES_CHAT_USER_RATE``)."""
        if not self.chat_bucket.take():
            raise FrameError("rate_limited", "one chat line per second")
        rate = limits.setting_rate("GAMES_CHAT_USER_RATE")
        if self.user is not None and await limits.atake(f"chat:user:{self.user.pk}", rate):
            raise FrameError("rate_limited", "too many chat lines: wait a moment")


class TableConsumer(BaseConsumer):
    """One socket at a live table: a player (seated user) or a spectator."""

    handlers = {
        "join_table": "join_table",
        "leave_table": "leave_table",
        "player_ready": "player_ready",
        "start_game": "start_game",
        "game_action": "game_action",
        "send_message": "send_message",
        "add_bot": "add_bot",
        "kick": "kick",
        "set_option": "set_option",
        "next_game": "next_game",
        "end_session": "end_session",
        "rematch": "rematch",
        "rematch_answer": "rematch_answer",
        "suggest": "suggest",
        "arrange": "arrange",
        "show_hands": "show_hands",
        "sync": "sync",
        "ping": "ping",
    }

    aliases = frozenset(GAME_ACTION_ALIASES)

    table_id: int
    seat: int | None
    groups_joined: set[str]
    #: This spectator chose to see every hand live (``show_hands``; a casual table whose host
    #: allows it): the ``hands`` entries of a ``table.frames`` message are theirs too.
    hands: bool = False

    async def connect(self) -> None:
        code = str(self.scope["url_route"]["kwargs"]["code"])
        table = await db_call(selectors.table_get_by_code)(code=code)
        await self.accept()
        if table is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.table_id = table.pk
        self.seat = None
        self.groups_joined = set()
        if not await self.setup_limits():
            return
        await self._bind(connecting=True)

    def presence(self) -> tuple[int, int, int, str] | None:
        seat = getattr(self, "seat", None)
        if self.user is not None and seat is not None:
            return (self.table_id, seat, self.user.pk, self.channel_name)
        return None

    async def disconnect(self, code: int) -> None:
        await self.stop_watch()
        if not hasattr(self, "table_id"):
            return
        for group in list(self.groups_joined):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = set()
        if self.user is not None and self.seat is not None:
            try:
                await db_work(services.table_presence)(
                    table_id=self.table_id,
                    user=self.user,
                    counted_seat=self.seat,
                    connected=False,
                    member=self.channel_name,
                )
            except Exception:
                logger.exception("presence update on disconnect failed")
        self.seat = None

    async def _bind(self, *, connecting: bool = False) -> None:
        """Count this socket at the user's seat (if any), join the right groups, send a
        snapshot. Runs on connect and whenever a service asks (``table.rebind``)."""
        seat = await db_work(services.table_presence)(
            table_id=self.table_id,
            user=self.user,
            counted_seat=self.seat,
            connected=True,
            member=self.channel_name,
        )
        self.seat = seat
        if self.hands:  # still allowed? (seated now, or the host changed the option)
            try:
                answer = await db_call(selectors.spectator_hands)(
                    table_id=self.table_id, user=self.user
                )
                self.hands = answer["mode"] == "live"
            except selectors.HandsRefused:
                self.hands = False
        wanted = {realtime.table_group(self.table_id)}
        if seat is None:
            wanted.add(realtime.spectators_group(self.table_id))
        else:
            wanted.add(realtime.seat_group(self.table_id, seat))
        if self.user is not None:
            wanted.add(realtime.user_group(self.table_id, self.user.pk))
        for group in wanted - self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        for group in self.groups_joined - wanted:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = wanted
        if connecting:
            await db_work(services.timers_rearm)(table_id=self.table_id)
        await self.sync({})
        if connecting and self.user is not None:
            # the records of this user's bots' moves made before this socket connected (a
            # reload): owner-only, like the live bot_record frames of their per-user group
            records = await db_call(services.game_bot_records)(
                table_id=self.table_id, user=self.user
            )
            for frame in records:
                await self.send_frame(frame)

    async def table_rebind(self, event: dict[str, Any]) -> None:
        await self._bind()

    async def table_frames(self, event: dict[str, Any]) -> None:
        """One move's (or lobby change's) frames for the whole table in one message: send only
        everyone's entries and this socket's own seat's (a spectator: the spectators'),
        already serialised. ``self.seat`` is set only by :meth:`_bind` from the database."""
        for text in realtime.audience_frames(event["frames"], seat=self.seat, hands=self.hands):
            await self.send(text_data=text)

    # ----------------------------------------------------------------- frames
    async def sync(self, frame: Frame) -> None:
        snapshot = await db_call(selectors.table_snapshot)(table_id=self.table_id, user=self.user)
        await self.send_frame(snapshot)

    async def show_hands(self, frame: Frame) -> None:
        """A spectator turns "show every hand" on or off (``{"on": bool}``, default true):
        the ``show_hands`` answer (docs/protocol.md "Watching with hands shown")."""
        on = frame.get("on", True)
        if not isinstance(on, bool):
            raise FrameError("bad_frame", "on must be true or false")
        if not on:
            self.hands = False
            await self.send_frame({"type": "show_hands", "on": False, "mode": None})
            return
        answer = await db_call(selectors.spectator_hands)(table_id=self.table_id, user=self.user)
        self.hands = answer["mode"] == "live"
        await self.send_frame(answer)

    async def join_table(self, frame: Frame) -> None:
        seat = _int(frame, "seat", required=False)
        await db_work(services.seat_join)(table_id=self.table_id, user=self.user, seat=seat)

    async def leave_table(self, frame: Frame) -> None:
        await db_work(services.seat_leave)(table_id=self.table_id, user=self.user)

    async def player_ready(self, frame: Frame) -> None:
        ready = frame.get("ready", True)
        if not isinstance(ready, bool):
            raise FrameError("bad_frame", "ready must be true or false")
        await db_work(services.seat_ready)(table_id=self.table_id, user=self.user, ready=ready)

    async def start_game(self, frame: Frame) -> None:
        await db_work(services.table_start)(table_id=self.table_id, user=self.user)

    async def game_action(self, frame: Frame) -> None:
        """Any game's move: ``{"version": int, "action": {"type": str, ...}}``. The action's
        fields pass through to the engine, which validates them (stud: ``{"type": "call"}``,
        Tiến Lên: ``{"type": "play", "cards": [...]}``; ``play_cards`` / ``pass_turn`` arrive
        here rewritten by :func:`as_game_action`)."""
        version = _int(frame, "version") or 0
        action = frame.get("action")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise FrameError("bad_frame", "action must be an object with a string type")
        if len(action["type"]) > 32 or len(action) > 8:
            raise FrameError("bad_frame", "action is too large")
        await db_work(services.game_play)(
            table_id=self.table_id, user=self.user, version=version, action=action
        )

    async def send_message(self, frame: Frame) -> None:
        text = _str(frame, "text")
        room = _str(frame, "room", required=False)
        if room is not None and room not in ("table", "spectators"):
            raise FrameError("bad_frame", "room must be 'table' or 'spectators'")
        if self.user is None:
            raise FrameError("login_required", "log in to chat")
        await self.chat_allowed()
        await db_work(services.chat_post)(
            user=self.user, text=text or "", table_id=self.table_id, room=room
        )

    async def add_bot(self, frame: Frame) -> None:
        seat = _int(frame, "seat")
        level = _str(frame, "level", required=False) or "medium"
        version = _int(frame, "bot_version", required=False)
        await db_work(services.seat_add_bot)(
            table_id=self.table_id,
            user=self.user,
            seat=seat or 0,
            level=level,
            bot_version_id=version,
        )

    async def kick(self, frame: Frame) -> None:
        seat = _int(frame, "seat")
        await db_work(services.seat_kick)(table_id=self.table_id, user=self.user, seat=seat or 0)

    async def set_option(self, frame: Frame) -> None:
        name = _str(frame, "name")
        if "value" not in frame:
            raise FrameError("bad_frame", "value is required")
        await db_work(services.table_set_option)(
            table_id=self.table_id, user=self.user, name=name or "", value=frame["value"]
        )

    async def next_game(self, frame: Frame) -> None:
        if self.user is None:
            raise FrameError("not_seated", "only players deal the next game")
        await db_work(services.game_next)(table_id=self.table_id, user=self.user)

    async def end_session(self, frame: Frame) -> None:
        await db_work(services.table_end)(table_id=self.table_id, user=self.user)

    async def rematch(self, frame: Frame) -> None:
        await db_work(services.rematch_offer)(table_id=self.table_id, user=self.user)

    async def rematch_answer(self, frame: Frame) -> None:
        accept = frame.get("accept")
        if not isinstance(accept, bool):
            raise FrameError("bad_frame", "accept must be true or false")
        await db_work(services.rematch_answer)(
            table_id=self.table_id, user=self.user, accept=accept
        )

    async def suggest(self, frame: Frame) -> None:
        answer = await db_call(selectors.game_suggestion)(table_id=self.table_id, user=self.user)
        await self.send_frame(answer)

    async def arrange(self, frame: Frame) -> None:
        mode = _str(frame, "mode", required=False) or "rank"
        answer = await db_call(selectors.hand_arranged)(
            table_id=self.table_id, user=self.user, mode=mode
        )
        await self.send_frame(answer)


class LobbyConsumer(BaseConsumer):
    """The lobby chat: everyone reads, logged-in users post."""

    handlers = {"send_message": "send_message", "sync": "sync", "ping": "ping"}

    async def connect(self) -> None:
        await self.accept()
        if not await self.setup_limits():
            return
        await self.channel_layer.group_add(realtime.LOBBY_GROUP, self.channel_name)
        if self.user is not None:  # the quick-play pass names this person's table here
            await self.channel_layer.group_add(
                realtime.quickplay_group(self.user.pk), self.channel_name
            )
        await self.sync({})

    async def disconnect(self, code: int) -> None:
        await self.stop_watch()
        await self.channel_layer.group_discard(realtime.LOBBY_GROUP, self.channel_name)
        if self.user is not None:
            await self.channel_layer.group_discard(
                realtime.quickplay_group(self.user.pk), self.channel_name
            )

    async def sync(self, frame: Frame) -> None:
        chat = await db_call(selectors.lobby_chat_history)()
        user = self.user
        await self.send_frame(
            {
                "type": "snapshot",
                "chat": chat,
                "you": {
                    "user_id": user.pk if user else None,
                    "name": user.public_name if user else None,
                },
                "server_time": time.time(),
            }
        )

    async def send_message(self, frame: Frame) -> None:
        text = _str(frame, "text")
        if self.user is None:
            raise FrameError("login_required", "log in to chat")
        await self.chat_allowed()
        await db_work(services.chat_post)(user=self.user, text=text or "")


class EchoConsumer(AsyncWebsocketConsumer):
    """Benchmark baseline (only routed when ``GAMES_ENABLE_ECHO_WS``): echoes every frame to
    the sender through the channel layer, like a one-member table group. It dispatches like
    the table consumer (no database hop per message) so that it stays a floor."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        await dispatch_without_db_hop(self, message)

    async def connect(self) -> None:
        self.group = f"echo-{self.channel_name[-12:]}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(
            self.group, {"type": "echo.frame", "text": text_data or ""}
        )

    async def echo_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
