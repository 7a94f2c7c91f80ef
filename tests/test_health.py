from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client, override_settings

from tests.bots.worker import BROKER_URL, celery_worker

pytestmark = pytest.mark.django_db


def test_health_reports_each_service_with_its_mode_and_version(client: Client) -> None:
    with (
        override_settings(CELERY_BROKER_URL=BROKER_URL, EMBEDDED_SERVICES=["postgres", "redis"]),
        celery_worker(queues=("default",), label="health-test"),
    ):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok"
    database = body["database"]
    assert (database["ok"], database["vendor"], database["mode"]) == (
        True,
        "postgresql",
        "embedded",
    )
    assert database["version"].split(".")[0].isdigit()
    layer = body["channel_layer"]
    assert (layer["ok"], layer["mode"]) == (True, "embedded")
    assert layer["backend"] == "games.realtime.layer.LocalFirstRedisChannelLayer"
    assert layer["version"].count(".") == 2
    celery = body["celery"]
    assert celery["ok"] is True
    assert any(name.startswith("health-test-") for name in celery["workers"])


def test_services_named_by_url_are_external(client: Client) -> None:
    with override_settings(EMBEDDED_SERVICES=[]):
        body = client.get("/healthz").json()
    assert body["database"]["mode"] == "external"
    assert body["channel_layer"]["mode"] == "external"


def test_health_is_degraded_without_a_worker(client: Client) -> None:
    # A Redis database no worker consumes (the test workers use BROKER_URL's).
    idle = urlsplit(settings.REDIS_URL)._replace(path="/12").geturl()
    with override_settings(CELERY_BROKER_URL=idle):
        response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["celery"] == {
        "ok": False,
        "mode": body["celery"]["mode"],
        "version": body["celery"]["version"],
        "workers": [],
        "ms": body["celery"]["ms"],
        "error": "no Celery worker answered",
    }


def test_health_is_degraded_when_redis_is_down(client: Client) -> None:
    dead = "redis://127.0.0.1:1/0"
    layers = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [dead]},
        }
    }
    with override_settings(CHANNEL_LAYERS=layers, CELERY_BROKER_URL=dead):
        response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["channel_layer"]["ok"] is False
    assert "error" in body["channel_layer"]
    assert body["celery"]["ok"] is False


def test_health_only_answers_get(client: Client) -> None:
    assert client.post("/healthz").status_code in (403, 405)
