"""A Celery worker keeps its database connection from one task to the next (config/celery.py):
Celery's Django fixup, which closes every connection around each task, is held back, and a
connection is closed only when it is broken or older than ``CONN_MAX_AGE``."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup  # type: ignore[attr-defined]
from django.db import connection

from config import celery as worker_config

pytestmark = pytest.mark.django_db(transaction=True)


def _task_around() -> None:
    """What a worker runs around one task: Celery's fixup hooks, then ours (both are
    ``task_prerun`` / ``task_postrun`` receivers)."""
    fixup = DjangoWorkerFixup(worker_config.app)
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    fixup.on_task_prerun(sender=task)
    worker_config.close_unusable_connections()
    fixup.on_task_postrun(sender=task)
    worker_config.close_unusable_connections()


def test_a_task_keeps_the_connection_and_an_aged_one_is_renewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    connection.ensure_connection()
    raw = connection.connection
    _task_around()
    _task_around()
    assert connection.connection is raw  # neither Celery nor the age closed it
    connection.close_at = time.monotonic() - 1  # older than CONN_MAX_AGE now
    _task_around()
    assert connection.connection is None  # closed; the next query opens a new one
    connection.ensure_connection()
    assert connection.connection is not raw
