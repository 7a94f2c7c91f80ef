"""The settings ``./bin/run`` serves with (config/settings/local.py), read in a fresh
interpreter: database connections kept as in production."""

from __future__ import annotations

from pathlib import Path

from tests.settings_probe import probe_settings

PROBE = (
    "import django; from django.conf import settings; django.setup(); "
    "db = settings.DATABASES['default']; "
    "print(db['CONN_MAX_AGE'], db['CONN_HEALTH_CHECKS'], db['OPTIONS']['prepare_threshold'])"
)


def run_local(tmp_path: Path, **env: str) -> list[str]:
    result = probe_settings(
        "config.settings.local",
        PROBE,
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/tienlen",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            "TIENLEN_DATA_DIR": str(tmp_path),  # no services.env of a running ./bin/run
            **env,
        },
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_bin_run_keeps_database_connections_and_prepares_the_move_path(tmp_path: Path) -> None:
    """With 0 (Django's default) each move in daphne opened a PostgreSQL connection."""
    assert run_local(tmp_path) == ["60", "True", "5"]
    assert run_local(tmp_path, DJANGO_DB_CONN_MAX_AGE="0", DJANGO_DB_PREPARE_THRESHOLD="none") == [
        "0",
        "True",
        "None",
    ]
