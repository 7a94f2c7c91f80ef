"""Bot shards served by whichever bot worker is alive: a lease per shard queue in Redis.

Every bot and house-AI turn of a game goes to its shard queue ``bots.<game id mod N>``
(:func:`games.realtime.bot_queue`), and one worker process at a time must consume it so that a
JS bot's sandbox (and so its globals) stays in one process for the game. A bot worker started
with ``--bot-shards lease`` does not name its shard queues with ``-Q``: it consumes the shards
whose lease it holds, a Redis key ``tienlen:bots:lease:<queue>`` that names it and expires
``BOTS_SHARD_LEASE_SECONDS`` after it was last renewed. A thread of the worker, every
``BOTS_SHARD_TICK_SECONDS``:

* renews its leases (a lease it lost, after a long stall, is let go at once);
* says its home shard (``--bot-shard-home bots.<n>``: ./bin/run gives worker ``n`` shard ``n``)
  is wanted, ``tienlen:bots:home:<queue>``, and takes it when it is free;
* takes one free shard whose home worker is not alive either (the worker that held it died:
  its lease expired), so the survivors share a dead node's shards (not in its first
  ``BOTS_SHARD_LEASE_SECONDS``: the home workers started with it say they are there first);
* hands a shard it took over back when that shard's home worker is alive again.

``bots.tournament`` and ``bots.ladder`` (one queue each, tournament and ladder tables' turns)
are leased the same way by the workers whose home they are (``worker-tournament``,
``worker-ladder`` on every node with the role): one consumes the queue, the others wait, and one
of them takes it over within ``BOTS_SHARD_LEASE_SECONDS`` when its holder dies. Those workers
lease nothing else, and shard workers never take them.

Consuming follows the leases through Celery's own remote control (``add_consumer`` /
``cancel_consumer`` to itself, run in the worker's consumer thread). A shard gained or lost
closes this process's sandboxes of its games (any left from an earlier stay are stale), and a
gained shard's live tables are re-armed at once (:func:`games.services.timers_rearm_queue`):
the turn its dead owner had taken is lost with it (beat's ``games.timers_heal`` would find it
only once overdue by a whole bot move time). Before it consumes the shard, the new owner starts
rebuilding each of those games' bot sandboxes in the background, all seats at once, by playing
the bot's earlier turns of the game again (bots/warmup.py ``bot_rebuild_queue``,
bots/runtime.py), so a worker change is invisible to the bot. docs/bot-affinity.md tells the
whole story.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

import click
import redis
from celery import Celery, bootsteps

from games.leases import PREFIX, ShardLeases, Step, home_key, lease_key

__all__ = ["IDLE_QUEUE", "PREFIX", "LeaseLoop", "ShardLeases", "Step", "home_key", "lease_key"]

logger = logging.getLogger(__name__)

#: The queue a lease worker names with ``-Q``: nothing is ever sent to it (a Celery worker
#: must consume some queue); its shard queues are added as it takes their leases.
IDLE_QUEUE = "bots.idle"


def shard_queues(shards: int) -> list[str]:
    """The shard queues of ``BOTS_QUEUE_SHARDS`` = ``shards``.

    >>> shard_queues(3)
    ['bots.0', 'bots.1', 'bots.2']
    """
    return [f"bots.{n}" for n in range(max(1, shards))]


def is_shard(queue: str) -> bool:
    """Whether ``queue`` is a shard queue ``bots.<n>`` (not ``bots.tournament``,
    ``bots.ladder``: one queue each, whose worker consumes nothing else of the kind).

    >>> is_shard("bots.3"), is_shard("bots.tournament")
    (True, False)
    """
    return queue.removeprefix("bots.").isdigit()


def game_of_shard(queue: str, shards: int) -> Callable[[str], bool]:
    """Whether a sandbox registry game key (``game:<id>``) is a game of shard ``queue``; of
    ``bots.tournament`` or ``bots.ladder``: every game (the worker leasing it has no other).

    >>> game_of_shard("bots.1", 3)("game:7"), game_of_shard("bots.1", 3)("game:8")
    (True, False)
    >>> game_of_shard("bots.tournament", 3)("game:8")
    True
    """
    if not is_shard(queue):
        return lambda key: key.startswith("game:")
    n = int(queue.removeprefix("bots."))

    def which(key: str) -> bool:
        number = key.removeprefix("game:")
        return number.isdigit() and int(number) % max(1, shards) == n

    return which


class LeaseLoop:
    """The thread of a lease worker: ticks, and makes the worker consume what it holds."""

    def __init__(self, app: Celery, hostname: str, home: str | None, timer: Any = None) -> None:
        """``timer``: the worker consumer's timer, where a task with a countdown waits until
        it is due (:func:`_busy_with`)."""
        from django.conf import settings

        self.app, self.hostname, self.timer = app, hostname, timer
        self.shards = int(settings.BOTS_QUEUE_SHARDS)
        self.tick_s = float(settings.BOTS_SHARD_TICK_SECONDS)
        client = redis.Redis.from_url(str(app.conf.broker_url))
        me = f"{hostname}:{os.getpid()}"
        # A worker whose home is bots.tournament or bots.ladder leases that queue only: one of
        # the nodes' such workers consumes it, another takes it once its lease lapsed.
        shards = shard_queues(self.shards) if home is None or is_shard(home) else []
        self.leases = ShardLeases(
            client,
            me,
            shards,
            home=home,
            ttl_s=float(settings.BOTS_SHARD_LEASE_SECONDS),
        )
        self.consuming: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.run, name="bot-shard-leases", daemon=True)

    def start(self) -> None:
        self._thread.start()
        # a warm sandbox process before any shard comes: a shard taken over then rebuilds
        # its bots without starting one (a Python and V8 start, seconds on a loaded box)
        threading.Thread(target=_warm_sandboxes, name="sandbox-warm", daemon=True).start()

    def stop(self) -> None:
        """Stop consuming and let every lease go, so another worker takes them at once."""
        self._stop.set()
        self._thread.join(timeout=5)
        for queue in sorted(self.consuming):
            self._control("cancel_consumer", queue)
        self.leases.release_all()

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                self.once()
            except Exception:  # Redis away for a moment: the next tick tries again
                logger.exception("bot shard leases: tick failed")
            self._stop.wait(self.tick_s)

    def once(self) -> None:
        step = self.leases.tick()
        returning = set(step.returning)
        for queue in step.lost + step.returning:
            if queue in returning and queue not in self.consuming:
                continue  # stopped on an earlier tick: its last turns finish here (below)
            logger.info("bot shard %s: no longer consumed here", queue)
            if self._control("cancel_consumer", queue):
                self.consuming.discard(queue)
            self._forget(queue)
        for queue in step.returning:
            # never while this worker may still consume it, nor while a turn it took from the
            # queue (running, prefetched before the cancel, or waiting for its countdown: a
            # bot turn's delay) has not finished: the home worker would rebuild the bot from
            # its stored turns while this one still plays and stores a turn of it
            if queue not in self.consuming and not _busy_with(queue, self.timer):
                self.leases.release(queue)
                self._forget(queue)  # the sandboxes its last turns left here
        # a shard handed back is held until its last turns here are over, and is not consumed
        # again meanwhile (that took new turns, and the hand-back waited for those too)
        for queue in sorted(self.leases.held - self.consuming - returning):
            self._forget(queue)  # a stay before this one left stale sandboxes
            self._rebuild(queue)  # before any turn of it is taken here
            if self._control("add_consumer", queue):
                logger.info("bot shard %s: consumed here", queue)
                self.consuming.add(queue)
                self._rearm(queue)
        for queue in sorted(self.consuming - self.leases.held):
            if self._control("cancel_consumer", queue):
                self.consuming.discard(queue)

    def _control(self, command: str, queue: str) -> bool:
        """Ask this worker's consumer (in its own thread) to start or stop ``queue``."""
        method = getattr(self.app.control, command)
        replies = method(queue, destination=[self.hostname], reply=True, timeout=2.0)
        return bool(replies)

    def _forget(self, queue: str) -> None:
        from bots.runtime import registry

        registry.release_games(game_of_shard(queue, self.shards))

    def _rebuild(self, queue: str) -> None:
        """Start rebuilding the sandboxes of ``queue``'s live games' bots in the background
        (bots/warmup.py ``bot_rebuild_queue``), so that their turns find them ready."""
        from django.db import close_old_connections

        from bots.warmup import bot_rebuild_queue

        try:
            sandboxes = bot_rebuild_queue(queue)
            logger.info("bot shard %s: rebuilding %d bot sandboxes", queue, sandboxes)
        except Exception:  # each bot's next turn replays its earlier turns instead
            logger.exception("bot shard %s: rebuilding its bot sandboxes failed", queue)
        finally:
            close_old_connections()

    def _rearm(self, queue: str) -> None:
        from django.db import close_old_connections

        from games import services

        try:
            tables = services.timers_rearm_queue(queue)
            logger.info("bot shard %s: re-armed %d live tables", queue, tables)
        finally:
            close_old_connections()


def _warm_sandboxes() -> None:
    from bots.runtime import registry

    try:
        if registry.mode == "pool":
            registry.pool.warm(registry.limits)
    except Exception:  # the first bot starts one instead
        logger.exception("bot shard leases: warming a sandbox process failed")


def _busy_with(queue: str, timer: Any = None) -> bool:
    """Whether this worker process still runs or holds a task of ``queue``: running,
    prefetched, or taken with a countdown and waiting in the consumer's ``timer`` until it is
    due. Every bot turn at a table with a bot delay (0.8 s with people) is sent with a
    countdown, and Celery keeps such a task out of its reserved requests until then: it would
    run here, and store its move, after the home worker had read the bot's earlier turns to
    rebuild its sandbox (tests/bots/test_shard_takeover.py caught the bot one turn behind)."""
    from celery.worker import state

    for _ in range(3):  # another thread may change the sets meanwhile: look again
        try:
            requests = [
                *state.active_requests,
                *state.reserved_requests,
                *getattr(state, "scheduled_requests", ()),  # Celery >= 5.7 lists them too
                *_waiting(timer),
            ]
            break
        except RuntimeError:
            continue
    else:
        return True  # not known: keep the shard a tick longer
    return any((r.delivery_info or {}).get("routing_key") == queue for r in requests)


def _waiting(timer: Any) -> list[Any]:
    """The task requests waiting in ``timer`` for their countdown (what ``celery inspect
    scheduled`` lists: celery.worker.control ``_iter_schedule_requests``)."""
    from celery.worker.request import Request

    if timer is None:
        return []
    waiting = []
    for entry in list(timer.schedule.queue):
        args = getattr(getattr(entry, "entry", None), "args", None) or ()
        if args and isinstance(args[0], Request):
            waiting.append(args[0])
    return waiting


class ShardLeaseStep(bootsteps.StartStopStep):
    """The consumer bootstep of ``--bot-shards lease`` (registered by :func:`install`)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent: Any, bot_shards: str | None = None, **kwargs: Any) -> None:
        self.enabled = bot_shards == "lease"
        self.home: str | None = kwargs.get("bot_shard_home") or None
        self.loop: LeaseLoop | None = None
        super().__init__(parent, **kwargs)

    def start(self, c: Any) -> None:
        if self.loop is None:
            self.loop = LeaseLoop(c.app, c.hostname, self.home, getattr(c, "timer", None))
            self.loop.start()

    def shutdown(self, c: Any) -> None:
        if self.loop is not None:
            self.loop.stop()
            self.loop = None


def install(app: Celery) -> None:
    """Add the worker options ``--bot-shards lease`` and ``--bot-shard-home QUEUE``."""
    app.user_options["worker"].add(
        click.Option(
            ["--bot-shards"],
            default=None,
            help="'lease': consume the bot shard queues whose lease this worker holds.",
        )
    )
    app.user_options["worker"].add(
        click.Option(
            ["--bot-shard-home"],
            default=None,
            help="The shard queue (bots.<n>) this worker takes first and gets back; "
            "bots.tournament or bots.ladder: that queue only, through its lease.",
        )
    )
    app.steps["consumer"].add(ShardLeaseStep)
