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

    Celery closes every connection after each task unless it may be kept (Django's
    ``CONN_MAX_AGE``); with the default 0 each task, so each bot move, opened a new connection
    to PostgreSQL (a few milliseconds, the largest single cost of a bot move through the
    worker). Workers keep theirs for ``WORKER_DB_CONN_MAX_AGE`` seconds (60) with health checks,
    in every run mode; daphne's setting is left as it is."""
    from django.conf import settings
    from django.db import connections

    age = settings.WORKER_DB_CONN_MAX_AGE
    for alias in connections:
        connections[alias].settings_dict["CONN_MAX_AGE"] = age
        connections[alias].settings_dict["CONN_HEALTH_CHECKS"] = True
