"""A Celery worker keeps its database connection from one task to the next (config/celery.py):
Celery's Django fixup, which closes every connection around each task, is held back, and a
connection is closed only when it is broken or older than ``CONN_MAX_AGE``."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from celery.fixups.django import DjangoWorkerFixup  # type: ignore[attr-defined]
from django.db import connection, transaction

from config import celery as worker_config

pytestmark = pytest.mark.django_db(transaction=True)


def _task_around(*, eager: bool = False) -> None:
    """What a worker runs around one task: Celery's fixup hooks, then ours (both are
    ``task_prerun`` / ``task_postrun`` receivers)."""
    fixup = DjangoWorkerFixup(worker_config.app)
    task = SimpleNamespace(request=SimpleNamespace(is_eager=eager))
    fixup.on_task_prerun(sender=task)
    worker_config.close_unusable_connections(sender=task)
    fixup.on_task_postrun(sender=task)
    worker_config.close_unusable_connections(sender=task)


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


def test_an_eager_task_inside_a_transaction_leaves_the_connection_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A task run in its caller's thread (``task_always_eager``, the tests) runs inside the
    caller's work: closing the connection there would end the caller's transaction."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    with transaction.atomic():
        connection.ensure_connection()
        raw = connection.connection
        _task_around(eager=True)
        assert connection.connection is raw
        assert connection.in_atomic_block
    _task_around()  # a worker's task outside any transaction keeps it too
    assert connection.connection is raw
