"""A running match's lease: the worker playing a run of a match holds a Redis key that lapses
``BOTS_MATCH_LEASE_SECONDS`` (5) after its last renewal, renewed every
``BOTS_MATCH_LEASE_TICK_SECONDS`` (1) by a thread of that worker (:class:`MatchLease`, the
leases of :mod:`games.leases` that bot shards use). A worker killed mid-match stops renewing,
so beat's ``bots-matches-heal`` (every ``BOTS_MATCH_HEAL_SECONDS``, 2) finds a running match
without a live lease (:func:`leased`) within seconds, instead of waiting for its database
heartbeat to go ``BOTS_MATCH_STALE_SECONDS`` (30) stale, which stays the fallback (Redis away).

The key names the run (``match.<id>.<resumes>``): a run the healer gave up (a stalled worker
that comes back) and the run that resumes the match never share a lease, and the old run is
fenced in the database anyway (it writes only while ``resumes`` is its own)."""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterable
from types import TracebackType

from django.conf import settings

from games.leases import ShardLeases, lease_key
from games.redis_clients import sync_client

logger = logging.getLogger(__name__)

PREFIX = "tienlen:lab"

__all__ = ["MatchLease", "lease_name", "lease_seconds", "leased"]


def lease_seconds() -> float:
    """A run's lease lapses this long after its last renewal (``BOTS_MATCH_LEASE_SECONDS``)."""
    return float(settings.BOTS_MATCH_LEASE_SECONDS)


def lease_name(match_id: int, resumes: int) -> str:
    """The leased name of run ``resumes`` of match ``match_id``.

    >>> lease_name(7, 1)
    'match.7.1'
    """
    return f"match.{match_id}.{resumes}"


def leased(runs: Iterable[tuple[int, int]]) -> set[tuple[int, int]]:
    """The runs ``(match id, resumes)`` whose lease is alive (one Redis round trip). Raises
    ``redis.RedisError`` when Redis does not answer (the caller then knows nothing)."""
    runs = list(runs)
    if not runs:
        return set()
    pipe = sync_client().pipeline(transaction=False)
    for match_id, resumes in runs:
        pipe.exists(lease_key(lease_name(match_id, resumes), PREFIX))
    return {run for run, alive in zip(runs, pipe.execute(), strict=True) if alive}


class MatchLease:
    """Hold run ``resumes`` of match ``match_id``'s lease while the ``with`` block runs: taken
    on entry, renewed by a daemon thread, released on a normal exit. A process that dies does
    not release it (it lapses): nor does a ``BaseException`` that is not an ``Exception`` (a
    worker being killed), so the healer sees the run as gone only once it lapsed. Redis away:
    logged, the match plays on (the database heartbeat still guards it)."""

    def __init__(self, match_id: int, resumes: int) -> None:
        self.name = lease_name(match_id, resumes)
        me = f"{socket.gethostname()}:{os.getpid()}:{self.name}"
        self.leases = ShardLeases(
            sync_client(), me, [], ttl_s=lease_seconds(), takeover=False, prefix=PREFIX
        )
        self.tick_s = float(settings.BOTS_MATCH_LEASE_TICK_SECONDS)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lease-{self.name}", daemon=True)

    def __enter__(self) -> MatchLease:
        try:
            if not self.leases.take(self.name):
                logger.warning("match lease %s already held", self.name)
        except Exception:
            logger.exception("match lease %s: not taken", self.name)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.tick_s):
            try:
                if self.leases.tick().lost:
                    logger.warning("match lease %s lapsed (a stall): taken again", self.name)
                    self.leases.take(self.name)
            except Exception:  # Redis away for a moment: the next tick tries again
                logger.exception("match lease %s: renewal failed", self.name)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        if kind is not None and not issubclass(kind, Exception):
            return  # dying: let it lapse
        try:
            self.leases.release_all()
        except Exception:
            logger.exception("match lease %s: not released", self.name)
