"""Broadcasting: one ``table.frames`` message per table, per-seat filtering on the socket side,
and the sinks a caller chooses for its sends (:data:`Sink`): sent now and waited for
(:func:`send_now`), handed to the sender loop without waiting (:func:`send_soon`), or collected
in an :class:`Outbox` for a consumer to send from its event loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from channels.layers import get_channel_layer

from games import jsontext
from games.realtime.frames import Frame
from games.realtime.groups import EVERYONE, HANDS, SPECTATORS, table_audience, table_group

logger = logging.getLogger(__name__)


def frame_text(frame: Frame) -> str:
    """A frame as the compact JSON text that goes on the socket (serialised once per move)."""
    return jsontext.dumps(frame)


def audience_frames(
    frames: Iterable[Sequence[Any]], *, seat: int | None, hands: bool = False
) -> list[str]:
    """The texts of a ``table.frames`` message that a socket at ``seat`` (None: a spectator)
    may receive, in order: everyone's frames plus its own seat's (or the spectators'; with
    ``hands``, a spectator who chose to see every hand, the ``hands`` entries too).

    A seat never receives another seat's entries: this is the only place the per-seat
    filtering of the single-message fan-out happens (docs/protocol.md).

    >>> msg = [("table", "t"), (0, "s0"), (1, "s1"), ("spectators", "sp")]
    >>> audience_frames(msg, seat=1), audience_frames(msg, seat=None)
    (['t', 's1'], ['t', 'sp'])
    >>> audience_frames([*msg, ("hands", "h")], seat=None, hands=True)
    ['t', 'sp', 'h']
    """
    out = []
    for audience, text in frames:
        if audience == EVERYONE:
            out.append(text)
        elif seat is None:
            if audience == SPECTATORS or (hands and audience == HANDS):
                out.append(text)
        elif type(audience) is int and audience == seat:
            out.append(text)
    return out


#: One channel-layer ``group_send``: (group, message).
Send = tuple[str, dict[str, Any]]

#: Where a caller's sends go: called with the sends and the message to log if they fail.
#: :func:`send_now` (the default), :func:`send_soon`, or an :class:`Outbox`.
Sink = Callable[[list[Send], str], None]


def broadcast(messages: Iterable[tuple[str, Frame]], sink: Sink | None = None) -> None:
    """Send each ``(group, frame)``, in order, in as few channel-layer messages as possible.

    Every frame for a table (its table, seat and spectators groups) travels in **one**
    ``table.frames`` message to the table group: an ordered list of ``[audience, json text]``
    from which each socket keeps only what :func:`audience_frames` allows it. Each frame is
    serialised once. Frames for other groups (the lobby) go as ``table.frame`` messages.

    Call it once the transaction has committed (``games.services.unit.Work.commit``): a frame
    never announces what was rolled back. ``sink``: where the messages go (default
    :func:`send_now`)."""
    sends: list[Send] = []
    tables: dict[int, list[list[Any]]] = {}  # the "frames" list of each table's message
    for group, frame in messages:
        target = table_audience(group)
        if target is None:
            sends.append((group, {"type": "table.frame", "frame": frame}))
            continue
        table_id, audience = target
        if table_id not in tables:
            tables[table_id] = []
            sends.append(
                (table_group(table_id), {"type": "table.frames", "frames": tables[table_id]})
            )
        tables[table_id].append([audience, frame_text(frame)])
    if sends:
        (send_now if sink is None else sink)(sends, "broadcast failed")


def rebind(groups: Iterable[str], sink: Sink | None = None) -> None:
    """Ask every socket in ``groups`` to reload its seat (after a join, leave or kick)."""
    sends: list[Send] = [(group, {"type": "table.rebind"}) for group in groups]
    if sends:
        (send_now if sink is None else sink)(sends, "rebind failed")


class Outbox(list[Send]):
    """A :data:`Sink` that keeps the sends: a consumer's database call passes one to the
    service (``games.consumers.db_work``) and sends what it holds with :func:`send_async` on
    its event loop once the call returns.

    This spares each move a hop from the worker thread to another event loop
    (:func:`send_now`) while the thread, and its database connection, wait; the sends still
    happen after the commit and before the consumer handles its socket's next frame.

    >>> box = Outbox()
    >>> rebind(["table-1-seat-0"], box)
    >>> box
    [('table-1-seat-0', {'type': 'table.rebind'})]
    """

    def __call__(self, sends: list[Send], failure: str = "") -> None:
        self.extend(sends)


#: Seconds a synchronous sender waits for its sends (Redis unreachable: the move stays).
SEND_TIMEOUT_S = 10.0

#: One item of the sender loop's queue: the sends, the failure message, and the future to
#: complete once they are done (None: nobody waits for them).
_Item = tuple[list[Send], str, "concurrent.futures.Future[None] | None"]


class _SenderLoop:
    """One event loop per process, in a daemon thread, that every synchronous sender (a task,
    a view, a worker thread) hands its channel-layer sends to.

    ``async_to_sync`` from a thread without a loop starts a new thread and a new event loop
    for each call, and channels-redis keeps its connection pool per loop: every move of a
    worker then opened a Redis connection, sent, and closed it (about a third of a bot move's
    time through the worker, docs/benchmarks.md "Bots"). Here the loop, and so the pool, live
    as long as the process. One coroutine takes the sends off a FIFO queue and sends them one
    after the other, so frames leave in the order they were handed over, from any thread,
    whether the caller waits for them (:func:`send_now`) or not (:func:`sends_in_background`).
    A forked child (Celery's prefork pool, daphne forked by the tests) starts its own loop
    (``os.register_at_fork``): the parent's thread does not exist in it."""

    def __init__(self) -> None:
        self._reset()
        # a forked child (daphne forked by the tests, Celery's prefork pool) starts afresh:
        # the parent's loop thread does not exist there, and a lock it held would stay held
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[_Item] | None = None
        self._thread: threading.Thread | None = None

    def _started(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Queue[_Item]]:
        with self._lock:
            alive = self._thread is not None and self._thread.is_alive()
            if self._loop is None or self._queue is None or not alive:
                loop = asyncio.new_event_loop()
                queue: asyncio.Queue[_Item] = asyncio.Queue()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    consumer = loop.create_task(self._consume(queue))
                    try:
                        loop.run_forever()
                    finally:
                        consumer.cancel()

                thread = threading.Thread(target=run, name="channel-layer-sends", daemon=True)
                thread.start()
                self._loop, self._queue, self._thread = loop, queue, thread
            return self._loop, self._queue

    @staticmethod
    async def _consume(queue: asyncio.Queue[_Item]) -> None:
        while True:
            sends, failure, done = await queue.get()
            try:
                if sends:
                    await send_async(sends, failure)  # logs its own failures
            finally:
                if done is not None and not done.done():
                    done.set_result(None)

    def submit(self, sends: list[Send], failure: str, *, wait: bool) -> None:
        """Queue ``sends``; with ``wait``, return once they (and all queued before) are done."""
        loop, queue = self._started()
        done: concurrent.futures.Future[None] | None = concurrent.futures.Future() if wait else None
        loop.call_soon_threadsafe(queue.put_nowait, (sends, failure, done))
        if done is not None:
            done.result(timeout=SEND_TIMEOUT_S)


_sender = _SenderLoop()


def send_now(sends: list[Send], failure: str = "broadcast failed") -> None:
    """The default :data:`Sink`: send from synchronous code (a task, a view, a worker thread)
    on this process's sender loop (:class:`_SenderLoop`) and return once the sends are done."""
    _submit(sends, failure, wait=True)


def send_soon(sends: list[Send], failure: str = "broadcast failed") -> None:
    """The :data:`Sink` of a run of server turns: hand the sends to the sender loop and return
    at once, so one move's frames go out while the next is being computed
    (:func:`games.services.autoplay.game_autoplay_turns`). They still leave in order, after
    everything handed over before them; the caller waits for them with :func:`flush`."""
    _submit(sends, failure, wait=False)


def flush() -> None:
    """Return once everything handed to this process's sender loop so far is sent (FIFO)."""
    _submit([], "broadcast failed", wait=True, always=True)


def _submit(sends: list[Send], failure: str, *, wait: bool, always: bool = False) -> None:
    if not sends and not always:
        return
    try:
        _sender.submit(sends, failure, wait=wait)
    except Exception:  # a broadcast failure must never undo a committed move
        logger.exception(failure)


async def send_async(sends: list[Send], failure: str = "broadcast failed") -> None:
    """Send collected messages from the event loop (see :class:`Outbox`)."""
    layer = get_channel_layer()
    if layer is None or not sends:  # pragma: no cover - channels is always configured here
        return
    try:
        for group, message in sends:
            await layer.group_send(group, message)
    except Exception:  # a broadcast failure must never undo a committed move
        logger.exception(failure)
