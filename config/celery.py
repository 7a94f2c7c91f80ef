"""The Celery application.

Workers start with ``celery -A config worker``. Settings come from Django's settings under the
``CELERY_`` namespace. Tasks are sent through ``games.realtime.schedule`` (the one scheduler).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
