"""Django's PostgreSQL backend, whose health check trusts a connection proven moments ago.

With ``CONN_HEALTH_CHECKS`` Django checks a kept connection (a ``SELECT 1`` round trip) at the
first use after every ``close_old_connections``, that is once per request, per
``database_sync_to_async`` call and per Celery task: in daphne **every move** paid that round
trip, as the first thing of its transaction (``atomic`` turning autocommit off), and so did
every bot move in a worker. A connection is not checked again while its last proven round trip
(a ``COMMIT`` that succeeded, or a check that passed) is younger than
``DB_HEALTH_CHECK_GRACE_SECONDS`` (1 s; 0 checks as Django does): a connection busy with moves
skips the check, one idle for longer is checked as before. A connection that broke within that
second (a database restart, a failover) fails its next statement instead: that call answers
with Django's ``OperationalError`` and changes nothing, and the connection is dropped (Django
marks it, ``errors_occurred``, and checks and closes it at the end of the call, as after any
database error), so the next call opens a new one (tests/test_db_backend.py;
docs/benchmarks.md, session 17).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    health_check_done: bool  # Django's (its stubs do not declare it)
    #: (the psycopg connection, ``time.monotonic()``) of the last round trip known to have
    #: succeeded on it; None before one.
    proven: tuple[Any, float] | None = None

    def prove(self) -> None:
        """Note that the current connection has just answered."""
        self.proven = (self.connection, time.monotonic())

    def _commit(self) -> None:
        super()._commit()  # type: ignore[misc]  # Django's, not in its stubs
        if self.connection is not None:
            self.prove()

    def is_usable(self) -> bool:
        usable: bool = super().is_usable()
        if usable:
            self.prove()
        return usable

    def close_if_health_check_failed(self) -> None:
        proven = self.proven
        if (
            proven is not None
            and not self.health_check_done
            and self.connection is not None
            and proven[0] is self.connection
            and time.monotonic() - proven[1] < settings.DB_HEALTH_CHECK_GRACE_SECONDS
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
