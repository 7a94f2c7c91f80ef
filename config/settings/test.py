"""Tests: `./bin/test`.

The suite runs against a real PostgreSQL and a real Redis, never an embedded stand-in, so what
passes here behaves the same in production. `bin/test` checks both are reachable first.
"""

from __future__ import annotations

import uuid

from .base import *  # noqa: F403
from .base import build_logging, env, prepare_threshold

DEBUG = False
SECRET_KEY = "test-only-secret-key-not-for-production"
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]

DATABASES = {
    "default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/tienlen"),
}
if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("config.settings.test needs a PostgreSQL DATABASE_URL.")
DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = prepare_threshold()
DATABASES["default"]["ENGINE"] = "config.postgresql"  # as base.py: the tests run the site's

REDIS_URL = env.str("REDIS_URL", default="redis://127.0.0.1:6379/0")
# A fresh key prefix per test process: throttle counters and channel groups never leak
# between runs, and a developer's own data in the same Redis is never touched. A real worker
# that a test starts (tests/bots/worker.py) gets the caller's TEST_RUN_ID, so its frames reach
# the caller's sockets.
TEST_RUN_ID = env.str("TEST_RUN_ID", default="") or uuid.uuid4().hex[:8]
_RUN = TEST_RUN_ID
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "games.realtime.layer.LocalFirstRedisChannelLayer",
        # base.py's socket_timeout (30 s) over the blocking receive (5 s): with redis-py's
        # default (5 s) a busy machine's sockets died with "Timeout reading from redis"
        "CONFIG": {
            "hosts": [{"address": REDIS_URL, "socket_timeout": 30.0}],
            "prefix": f"test-{_RUN}:channels:",
        },
    }
}
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"test-{_RUN}",
        "TIMEOUT": 600,
    }
}

# Every task (timers, bot turns, validation games, Test Bot runs, ratings) goes through the
# test scheduler (tests/scheduler.py, the one seam of games.realtime.get_scheduler): the real
# tasks, run in the test's thread when the injected clock (games.clock; the ``clock`` fixture)
# says they are due, at once for a zero delay. Tests that need real workers start them
# (tests/bots/worker.py). The broker is the real Redis, which the health check pings.
CELERY_BROKER_URL = REDIS_URL
GAMES_SCHEDULER = "tests.scheduler.SCHEDULER"

# Live tables: bots act at once (a zero delay runs the task at once).
GAMES_BOT_DELAY_SECONDS = 0.0
GAMES_COUNTDOWN_SECONDS = 0.0

# Generous limits so the suite never trips them by accident; tests that check throttling
# lower them with override_settings.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"write": "1000/minute", "anon": "10000/minute"},
}
# Sign-up and log-in throttles per address (accounts.throttle); tests/accounts/test_throttle.py
# lowers them.
ACCOUNTS_SIGNUP_RATE = "10000/m"
ACCOUNTS_LOGIN_RATE = "10000/m"
ACCOUNTS_LOGIN_ACCOUNT_RATE = "10000/m"
ACCOUNTS_BAD_TOKEN_RATE = "10000/m"
# Per-user and per-token limits (games.limits); tests/games/test_limits.py and
# tests/bots/external/test_token_limits.py lower them.
GAMES_WS_USER_RATE = "10000/s"
GAMES_CHAT_USER_RATE = "10000/s"
GAMES_CREATE_RATES = dict.fromkeys(
    ("tables", "tournaments", "bots", "matches", "arenas"), "100000/h"
)
BOTS_EXTERNAL_TOKEN_RATE = "10000/s"

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve static files from the source folders; tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

LOGGING = build_logging("WARNING", "console")
