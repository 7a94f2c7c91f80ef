"""Local development: `./bin/run`.

Embedded by default (SQLite, in-memory channel layer, eager Celery); setting DATABASE_URL and
REDIS_URL switches the same settings to PostgreSQL, channels-redis and a real Celery worker.
"""

from __future__ import annotations

from .base import *  # noqa: F403
from .base import LOG_LEVEL, build_logging, env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env.str(
    "DJANGO_SECRET_KEY", default="django-insecure-local-development-key-not-for-production"
)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list(
    "DJANGO_CSRF_TRUSTED_ORIGINS", default=["http://127.0.0.1:8000", "http://localhost:8000"]
)

# Serve files straight from static/ too, so editing CSS needs no collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

LOGGING = build_logging(LOG_LEVEL, env.str("DJANGO_LOG_FORMAT", default="console"))
