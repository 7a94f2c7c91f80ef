"""The Celery application.

Workers start with ``celery -A config worker``. Settings come from Django's settings under the
``CELERY_`` namespace. Tasks are sent through ``games.realtime.schedule`` (the one scheduler).
"""

from __future__ import annotations

import os

from celery import Celery, signals

from config import shards

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# ``--bot-shards lease``: bot shard queues follow leases in Redis (config/shards.py)
shards.install(app)
# Celery's Django fixup closes every database connection before and after each task (Celery 5.7:
# ``conn.close()``, whatever ``CONN_MAX_AGE`` says) unless ``CELERY_DB_REUSE_MAX`` is set, and
# then only every that many tasks: each paced bot turn opened a new PostgreSQL connection (~7
# ms, docs/benchmarks.md). Set high, so that the connections' own age and health decide
# (:func:`close_unusable_connections`, Django's rule for each request).
app.conf.CELERY_DB_REUSE_MAX = 100_000


@signals.worker_init.connect
@signals.worker_process_init.connect
def tune_garbage_collection(**_: object) -> None:
    """The worker's garbage collector as daphne's (config/gctune.py): the start-up heap frozen
    (in a prefork child: after the fork), collections rarer and timed."""
    from config import gctune
    from games.metrics import watch_gc

    gctune.tune()
    watch_gc()


@signals.worker_init.connect
@signals.worker_process_init.connect
def keep_database_connections(**_: object) -> None:
    """A worker keeps its database connection from one task to the next.

    Without it each task, so each bot move, opened a new connection to PostgreSQL (a few
    milliseconds, the largest single cost of a paced bot move through the worker): Celery's own
    closing is held back by ``CELERY_DB_REUSE_MAX`` above, and
    :func:`close_unusable_connections` closes a connection only when Django's ``CONN_MAX_AGE``
    says. Workers keep theirs for ``WORKER_DB_CONN_MAX_AGE`` seconds (60) with health checks,
    in every run mode; daphne's setting is left as it is."""
    from django.conf import settings
    from django.db import connections

    age = settings.WORKER_DB_CONN_MAX_AGE
    for alias in connections:
        connections[alias].settings_dict["CONN_MAX_AGE"] = age
        connections[alias].settings_dict["CONN_HEALTH_CHECKS"] = True


@signals.task_prerun.connect
@signals.task_postrun.connect
def close_unusable_connections(sender: object = None, **_: object) -> None:
    """Before and after each task a worker runs, close this thread's database connections that
    are broken (an error left them unusable, a failed health check) or older than
    ``CONN_MAX_AGE`` (:func:`keep_database_connections`: ``WORKER_DB_CONN_MAX_AGE``), as Django
    does around each request; the others are kept for the next task.

    A task run eagerly (in the caller's thread: the tests, ``task_always_eager``) is left
    alone, as Celery's fixup leaves it: it runs inside its caller's work, perhaps inside a
    transaction, and the caller's connection is not the task's to close."""
    request = getattr(sender, "request", None)
    if getattr(request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
