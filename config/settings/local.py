"""Local development: `./bin/run`.

The same system as production: PostgreSQL, channels-redis, Celery workers and beat.
``./bin/run`` starts embedded PostgreSQL and Redis when DATABASE_URL / REDIS_URL are not set
(config/launcher/) and passes their URLs to every process it starts. While it runs it also
writes them to ``.data/services.env``, read here, so ``python manage.py shell`` in another
terminal talks to the same servers.
"""

from __future__ import annotations

import os
from pathlib import Path

import environ

_DATA_DIR = Path(
    os.environ.get("TIENLEN_DATA_DIR") or Path(__file__).resolve().parents[2] / ".data"
)
if (_DATA_DIR / "services.env").is_file():
    environ.Env.read_env(str(_DATA_DIR / "services.env"), overwrite=False)

from .base import *  # noqa: E402, F403
from .base import LOG_LEVEL, build_logging, env  # noqa: E402

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
