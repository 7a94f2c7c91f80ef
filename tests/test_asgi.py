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


@pytest.mark.django_db(transaction=True)
async def test_a_signed_in_socket_is_its_sessions_user_and_sends_past_the_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The browser sockets resolve the session at connect (the lobby's snapshot names the
    user) and their frames go out without channels' per-message session check
    (config/asgi.py ``SocketSessionMiddleware``): that check failing changes nothing."""
    from channels.db import database_sync_to_async
    from channels.sessions import InstanceSessionWrapper

    from tests.factories import UserFactory
    from tests.ws import Conn, cookie_for

    user = await database_sync_to_async(UserFactory.create)(username="socket-owner")

    async def refuse(self: object, message: object) -> None:
        raise AssertionError("a socket's frame went through the session wrapper")

    monkeypatch.setattr(InstanceSessionWrapper, "send", refuse)
    conn = Conn("/ws/lobby/", await cookie_for(user))
    snapshot = await conn.open()
    await conn.send({"type": "ping"})
    pong = await conn.until(lambda f: f["type"] == "pong")
    assert "server_time" in pong
    assert snapshot["you"] == {"user_id": user.pk, "name": user.public_name}
    await conn.close()
