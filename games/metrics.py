"""The live tables' Prometheus metrics (docs/cluster.md "Metrics"), in one place: the move path,
the sockets and the healers call these with one-line hooks.

Every process of a node writes to the node's ``PROMETHEUS_MULTIPROC_DIR`` (the launcher sets it:
``./bin/run`` and ``./bin/node``) and the node's web role serves the sum at ``/metrics``
(config/metrics.py); without that folder (tests, ``manage.py``) each process keeps its own.
Every metric carries the ``node`` label (``TIENLEN_NODE``, else the host name).

>>> moves_total._name, move_seconds._name, open_sockets._name
('tienlen_moves', 'tienlen_move_seconds', 'tienlen_open_sockets')
>>> socket_kind("/ws/tables/abc/"), socket_kind("/ws/lobby/"), socket_kind("/ws/bot/")
('table', 'lobby', 'bot')
"""

from __future__ import annotations

import functools
import gc
import socket
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from prometheus_client import Counter, Gauge, Histogram

P = ParamSpec("P")
R = TypeVar("R")

#: This node's name, the ``node`` label of every metric.
NODE = settings.TIENLEN_NODE or socket.gethostname()

moves_total = Counter(
    "tienlen_moves",
    "Moves applied to games (people, bots, house AIs, timeouts), as stored",
    ["node", "actor"],
)
move_seconds = Histogram(
    "tienlen_move_seconds",
    "Server time of a person's move: lock, apply, store, commit, frames sent to the layer",
    ["node"],
    buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
)
open_sockets = Gauge(
    "tienlen_open_sockets",
    "WebSockets open now (accepted, not yet closed), by kind",
    ["node", "kind"],
    multiprocess_mode="livesum",
)
bot_turn_seconds = Histogram(
    "tienlen_bot_turn_seconds",
    "Time a server seat takes to choose its move (a bot's sandbox or API, a house AI)",
    ["node", "kind"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0),
)
gc_pause_seconds = Histogram(
    "tienlen_gc_pause_seconds",
    "Time a garbage collection stopped this process (its event loop, for daphne), by generation",
    ["node", "generation"],
    buckets=(0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0),
)
timers_healed_total = Counter(
    "tienlen_timers_healed",
    "Live tables whose overdue timer beat's games.timers_heal re-armed",
    ["node"],
)


def move_applied(actor: str) -> None:
    """One move applied (games/services/play.py ``apply_action``)."""
    moves_total.labels(NODE, str(actor)).inc()


def timed_move(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorator: observe a person's move's server time (``game_play``), refused moves too."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            move_seconds.labels(NODE).observe(time.perf_counter() - started)

    return wrapper


def timed_bot_turn(kind: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: observe the time a server seat of ``kind`` ("bot", "house") takes to choose
    its move."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                bot_turn_seconds.labels(NODE, kind).observe(time.perf_counter() - started)

        return wrapper

    return decorate


def timers_healed(count: int) -> int:
    """``count`` tables re-armed by beat's healer (games/tasks.py); returns ``count``."""
    if count:
        timers_healed_total.labels(NODE).inc(count)
    return count


_gc_started: list[float] = []


def time_gc(phase: str, info: dict[str, int]) -> None:
    """The ``gc.callbacks`` hook of :func:`watch_gc`: one observation per collection."""
    if phase == "start":
        _gc_started[:] = [time.perf_counter()]
    elif _gc_started:
        gc_pause_seconds.labels(NODE, str(info.get("generation", -1))).observe(
            time.perf_counter() - _gc_started.pop()
        )


def watch_gc() -> None:
    """Observe every garbage collection of this process in ``tienlen_gc_pause_seconds`` (once
    per process; daphne and the Celery workers call it at start-up)."""
    if time_gc not in gc.callbacks:
        gc.callbacks.append(time_gc)


def socket_kind(path: str) -> str:
    """The ``kind`` label of a socket at ``path``."""
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2 and parts[0] == "ws":
        return {"tables": "table", "lobby": "lobby", "bot": "bot"}.get(parts[1], parts[1][:16])
    return "other"


class SocketGauge:
    """ASGI middleware: counts the WebSockets this process has open (from the app's accept to
    its close or the end of the connection) in ``tienlen_open_sockets``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "websocket":
            await self.app(scope, receive, send)
            return
        gauge = open_sockets.labels(NODE, socket_kind(str(scope.get("path", ""))))
        is_open = False

        async def counted_send(message: Any) -> None:
            nonlocal is_open
            kind = message.get("type")
            if kind == "websocket.accept" and not is_open:
                is_open = True
                gauge.inc()
            elif kind == "websocket.close" and is_open:
                is_open = False
                gauge.dec()
            await send(message)

        try:
            await self.app(scope, receive, counted_send)
        finally:
            if is_open:
                gauge.dec()
