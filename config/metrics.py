"""``/metrics``: the node's Prometheus metrics (docs/cluster.md "Metrics").

The metrics themselves live in games/metrics.py. With ``PROMETHEUS_MULTIPROC_DIR`` set (the
launcher sets it per node) this sums every process of the node (daphne, its Celery workers);
without it, this process's own. Queue depths are read from the broker at each scrape.

Who may read it: with ``METRICS_TOKEN`` set, a request carrying ``Authorization: Bearer
<token>``; without it, only a request from the loopback address that came through no proxy (no
``X-Forwarded-For``). Anyone else gets a 404, as if there were no such page; the shipped HAProxy
configuration also refuses ``/metrics`` from outside (deploy/haproxy.py).
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import redis
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

from games.metrics import NODE

logger = logging.getLogger(__name__)


class QueueCollector(Collector):
    """``tienlen_queue_length{queue}``: messages waiting in each Celery queue (Redis ``LLEN``),
    and ``tienlen_queue_unacked``: messages taken by a worker and not yet acknowledged (running
    tasks and countdowns a worker holds; Kombu's ``unacked`` hash)."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        waiting = GaugeMetricFamily(
            "tienlen_queue_length", "Messages waiting in a Celery queue", labels=["node", "queue"]
        )
        unacked = GaugeMetricFamily(
            "tienlen_queue_unacked",
            "Messages a worker took and has not acknowledged (running or waiting countdowns)",
            labels=["node"],
        )
        names = [q.name for q in settings.CELERY_TASK_QUEUES]
        client = redis.Redis.from_url(
            settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2
        )
        try:
            with client.pipeline(transaction=False) as pipe:
                for name in names:
                    pipe.llen(name)
                pipe.hlen("unacked")
                counts = pipe.execute()
        except redis.RedisError:
            logger.warning("metrics: the broker did not answer")
            return
        finally:
            client.close()
        for name, count in zip(names, counts[:-1], strict=True):
            waiting.add_metric([NODE, name], float(count))
        unacked.add_metric([NODE], float(counts[-1]))
        yield waiting
        yield unacked


def forget_dead_processes(folder: Path) -> list[int]:
    """Drop the live gauges (open sockets) of this node's processes that died (a daphne killed
    and restarted by supervisord): a live gauge counts living processes only. Returns their
    ids. Counters and histograms of dead processes stay: they count what happened."""
    dead = []
    for path in folder.glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[-1]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            mark_process_dead(int(pid), str(folder))
            dead.append(int(pid))
        except PermissionError:  # alive, someone else's
            pass
    return dead


def registry() -> CollectorRegistry:
    """The node's metrics (every process's, when multiprocess) and the queue depths."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        forget_dead_processes(Path(folder))
        combined = CollectorRegistry()
        MultiProcessCollector(combined)
    else:
        combined = CollectorRegistry()
        combined.register(_ProcessMetrics())
    combined.register(QueueCollector())
    return combined


class _ProcessMetrics(Collector):
    """This process's own metrics (the default registry), for a single process."""

    def collect(self) -> Iterator[object]:  # type: ignore[override]
        yield from REGISTRY.collect()


def allowed(request: HttpRequest) -> bool:
    """May ``request`` read the metrics (see the module's docstring)?"""
    token = str(settings.METRICS_TOKEN or "")
    if token:
        given = request.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    if request.headers.get("X-Forwarded-For"):
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        raise Http404
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
