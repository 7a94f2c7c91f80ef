from __future__ import annotations

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_health_reports_every_dependency_ok(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == {"ok": True, "vendor": "postgresql", "ms": body["database"]["ms"]}
    assert body["channel_layer"]["ok"] is True
    assert body["channel_layer"]["mode"] == "redis"
    assert body["celery_broker"]["ok"] is True
    assert body["celery_broker"]["mode"] == "broker"


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
    assert body["celery_broker"]["ok"] is False


def test_embedded_mode_reports_in_memory_and_eager(client: Client) -> None:
    layers = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=layers, CELERY_BROKER_URL="memory://"):
        body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["channel_layer"] == {
        "ok": True,
        "mode": "in-memory",
        "backend": "channels.layers.InMemoryChannelLayer",
    }
    assert body["celery_broker"]["mode"] == "eager"


def test_health_only_answers_get(client: Client) -> None:
    assert client.post("/healthz").status_code in (403, 405)
