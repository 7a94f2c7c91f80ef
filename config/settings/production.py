"""Production: daphne and `celery -A config worker` as separate processes, PostgreSQL, Redis.

Refuses to start without DJANGO_SECRET_KEY, with DJANGO_DEBUG on, or without DATABASE_URL,
REDIS_URL and DJANGO_ALLOWED_HOSTS.
"""

from __future__ import annotations

import environ
from django.core.exceptions import ImproperlyConfigured


def _required(name: str) -> str:
    value: str = environ.Env().str(name, default="")
    if not value.strip():
        raise ImproperlyConfigured(f"{name} must be set in production.")
    return value


# Checked before base.py reads them (base.py's message is about ./bin/run).
_required("DATABASE_URL")
_required("REDIS_URL")

from .base import *  # noqa: E402, F403
from .base import env  # noqa: E402

SECRET_KEY = _required("DJANGO_SECRET_KEY")
if len(SECRET_KEY) < 32 or SECRET_KEY.startswith("django-insecure"):
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be a random string of 32+ characters.")

DEBUG = env.bool("DJANGO_DEBUG", default=False)
if DEBUG:
    raise ImproperlyConfigured("DJANGO_DEBUG must be off in production.")

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=[])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must list the site's host names.")
CSRF_TRUSTED_ORIGINS = env.list(
    "DJANGO_CSRF_TRUSTED_ORIGINS", default=[f"https://{host}" for host in ALLOWED_HOSTS]
)

# HTTPS behind a proxy that sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = False

EMAIL_BACKEND = env.str(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend"
)
