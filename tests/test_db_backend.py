"""config/postgresql: Django's health check, skipped for a connection proven moments ago."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.db.backends.postgresql import base as django_postgresql
from django.test import override_settings

from games.models import Table
from tests.games.live import another_connection

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[list[bool]]:
    """Django's ``SELECT 1`` health checks of this test's connection, as they run (each passes),
    with the site's grace of 1 s."""
    settings.DB_HEALTH_CHECK_GRACE_SECONDS = 1.0
    seen: list[bool] = []
    django_is_usable = django_postgresql.DatabaseWrapper.is_usable

    def is_usable(self: Any) -> bool:
        seen.append(True)
        return bool(django_is_usable(self))

    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "is_usable", is_usable)
    db: Any = connection
    db.ensure_connection()
    enabled = db.health_check_enabled
    db.health_check_enabled = True  # the tests' settings keep Django's default, off
    yield seen
    db.health_check_enabled = enabled


def a_move_s_transaction() -> None:
    """What a move does after ``close_old_connections`` (which asks for a new check): a
    transaction that turns autocommit off, reads and commits."""
    db: Any = connection
    db.health_check_done = False
    with transaction.atomic():
        Table.objects.exists()


def test_the_site_runs_this_backend() -> None:
    assert connection.vendor == "postgresql"
    assert type(connections["default"]).__module__ == "config.postgresql.base"


def test_a_connection_that_committed_moments_ago_is_not_checked(checks: list[bool]) -> None:
    a_move_s_transaction()  # not proven yet: checked, then its COMMIT proves it
    assert checks == [True]
    for _ in range(3):
        a_move_s_transaction()
    assert checks == [True]  # no SELECT 1 round trip per move


def test_a_connection_proven_longer_ago_than_the_grace_is_checked(checks: list[bool]) -> None:
    db: Any = connection
    a_move_s_transaction()
    db.proven = (db.connection, time.monotonic() - 1.5)  # its last COMMIT 1.5 s ago
    a_move_s_transaction()
    assert checks == [True, True]
    a_move_s_transaction()  # the check proved it
    assert checks == [True, True]


def test_another_connection_s_proof_does_not_count(checks: list[bool]) -> None:
    db: Any = connection
    db.proven = (object(), time.monotonic())  # a connection since closed and replaced
    a_move_s_transaction()
    assert checks == [True]


@override_settings(DB_HEALTH_CHECK_GRACE_SECONDS=0)
def test_a_grace_of_0_checks_as_django_does(checks: list[bool]) -> None:
    for _ in range(3):
        a_move_s_transaction()
    assert checks == [True] * 3


def test_a_failed_check_still_replaces_the_connection(
    checks: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    db: Any = connection
    db.proven = None
    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "is_usable", lambda self: False)
    broken = db.connection
    a_move_s_transaction()
    assert db.connection is not broken


def test_a_connection_broken_within_the_grace_fails_one_transaction_then_is_replaced(
    checks: list[bool],
) -> None:
    """What the grace costs: a connection that broke within the second after its last COMMIT
    is not checked, so the next transaction fails with Django's ``OperationalError`` (a move
    answers with an error and changes nothing); that connection is dropped and the next
    transaction runs on a new one."""
    from django.db import OperationalError, close_old_connections

    db: Any = connections["default"]
    info = db.settings_dict
    db.close()
    info["CONN_MAX_AGE"] = 60  # kept between calls, as the site keeps it
    try:
        db.ensure_connection()
        db.health_check_enabled = True
        a_move_s_transaction()  # checked (the new connection's first), then proven
        broken = db.connection.info.backend_pid
        with another_connection(autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [broken])
        close_old_connections()  # the next call begins: the connection is kept
        assert db.connection is not None
        with pytest.raises(OperationalError), transaction.atomic():
            Table.objects.exists()
        close_old_connections()  # the end of that call
        a_move_s_transaction()
        assert db.connection.info.backend_pid != broken
    finally:
        db.close()
        info["CONN_MAX_AGE"] = 0
