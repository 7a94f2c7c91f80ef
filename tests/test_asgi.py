"""The ASGI application routes HTTP through Django and guards WebSockets."""

from __future__ import annotations

import pytest
from channels.testing import HttpCommunicator, WebsocketCommunicator

from config.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_http_goes_through_django() -> None:
    communicator = HttpCommunicator(
        application, "GET", "/how-to-play/", headers=[(b"host", b"testserver")]
    )
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"How to play" in response["body"]


async def test_websocket_from_a_foreign_origin_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()
