"""Production settings refuse to start when misconfigured (checked in a fresh interpreter)."""

from __future__ import annotations

import subprocess

import pytest

from tests.settings_probe import probe_settings

GOOD_SECRET = "k" * 20 + "-production-secret-0123456789"
PROBE = (
    "import django; from django.conf import settings; django.setup(); "
    "print(settings.DEBUG, settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, "
    "settings.DATABASES['default']['ENGINE'], getattr(settings, 'CELERY_TASK_ALWAYS_EAGER', False))"
)


def run_production(**env: str) -> subprocess.CompletedProcess[str]:
    return probe_settings(
        "config.settings.production",
        PROBE,
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/tienlen",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            "DJANGO_ALLOWED_HOSTS": "arena.example.com",
            **env,
        },
    )


def test_refuses_to_start_without_a_secret_key() -> None:
    result = run_production(DJANGO_SECRET_KEY="<unset>")
    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY must be set in production." in result.stderr


def test_refuses_a_short_or_insecure_secret_key() -> None:
    result = run_production(DJANGO_SECRET_KEY="django-insecure-abc")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be a random string" in result.stderr


@pytest.mark.parametrize("value", ["true", "1", "on"])
def test_refuses_to_start_with_debug_on(value: str) -> None:
    result = run_production(DJANGO_SECRET_KEY=GOOD_SECRET, DJANGO_DEBUG=value)
    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_DEBUG must be off in production." in result.stderr


@pytest.mark.parametrize("missing", ["DATABASE_URL", "REDIS_URL", "DJANGO_ALLOWED_HOSTS"])
def test_refuses_to_start_without_required_services(missing: str) -> None:
    result = run_production(DJANGO_SECRET_KEY=GOOD_SECRET, **{missing: "<unset>"})
    assert result.returncode != 0
    assert missing in result.stderr


def test_starts_with_a_complete_environment() -> None:
    result = run_production(DJANGO_SECRET_KEY=GOOD_SECRET)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "False",
        "True",
        "True",
        "config.postgresql",  # Django's PostgreSQL backend with the health-check grace
        "False",
    ]
