"""The client's address behind a proxy (issue 24 item 12): X-Forwarded-For is believed only
from a proxy named in TRUSTED_PROXIES, read from the right, for HTTP and WebSocket alike, so
per-address throttles cannot be dodged with a made-up header (config/proxy.py)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.exceptions import ImproperlyConfigured

from config import asgi
from config.proxy import TrustedProxyMiddleware, forwarded_client, networks, refuse_proxy_headers

NETS = networks(["10.0.0.0/8", "::1"])


@pytest.mark.parametrize(
    ("peer", "header", "client"),
    [
        ("198.51.100.2", "6.6.6.6", "198.51.100.2"),  # no trusted peer: the header is ignored
        ("10.0.0.5", "6.6.6.6", "6.6.6.6"),
        ("10.0.0.5", "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # the right-most untrusted
        ("10.0.0.5", "6.6.6.6, 203.0.113.7, 10.1.1.1", "203.0.113.7"),  # a chain of proxies
        ("10.0.0.5", "10.1.1.1", "10.0.0.5"),  # only proxies: the peer
        ("10.0.0.5", "", "10.0.0.5"),
        ("10.0.0.5", "6.6.6.6, junk", "10.0.0.5"),  # garbled: trust nothing left of it
        ("::1", "2001:db8::1", "2001:db8::1"),
    ],
)
def test_forwarded_client(peer: str, header: str, client: str) -> None:
    assert forwarded_client(peer, [header] if header else [], NETS) == client


def test_nothing_is_trusted_by_default() -> None:
    assert forwarded_client("10.0.0.5", ["6.6.6.6"], []) == "10.0.0.5"


async def _seen_client(settings: Any, kind: str, peer: str, forwarded: str) -> Any:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen["client"] = scope["client"]

    scope = {
        "type": kind,
        "path": "/",
        "headers": [(b"x-forwarded-for", forwarded.encode())],
        "client": (peer, 5555),
    }
    communicator = ApplicationCommunicator(TrustedProxyMiddleware(app), scope)
    await communicator.wait(timeout=5)
    return seen["client"]


@pytest.mark.parametrize("kind", ["http", "websocket"])
async def test_the_middleware_rewrites_the_scope_only_for_a_trusted_peer(
    settings: Any, kind: str
) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]
    assert await _seen_client(settings, kind, "127.0.0.1", "1.2.3.4, 5.6.7.8") == ("5.6.7.8", 5555)
    assert await _seen_client(settings, kind, "198.51.100.2", "5.6.7.8") == ("198.51.100.2", 5555)


def test_the_site_is_served_through_it() -> None:
    assert isinstance(asgi.application, TrustedProxyMiddleware)


def test_daphne_proxy_headers_are_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_TRUSTED_PROXIES"):
        refuse_proxy_headers(["daphne", "--proxy-headers", "config.asgi:application"])
    refuse_proxy_headers(["daphne", "--bind", "0.0.0.0", "config.asgi:application"])


@pytest.mark.django_db(transaction=True)
async def test_a_made_up_header_does_not_dodge_a_throttle(settings: Any) -> None:
    """Bad bot tokens from one peer, each with a new X-Forwarded-For: still one address."""
    from channels.testing import WebsocketCommunicator

    settings.ACCOUNTS_BAD_TOKEN_RATE = "2/m"
    codes = []
    for n in range(3):
        headers = [
            (b"host", b"testserver"),
            (b"authorization", f"Bearer tlb_guess{n}".encode()),
            (b"x-forwarded-for", f"203.0.113.{n}".encode()),
        ]
        comm = WebsocketCommunicator(asgi.application, "/ws/bot/", headers=headers)
        comm.scope["client"] = ("198.51.100.50", 4000)
        assert (await comm.connect())[0]
        codes.append((await comm.receive_json_from(timeout=5))["code"])
        await comm.disconnect()
    assert codes == ["invalid_token", "invalid_token", "rate_limited"]
