"""The client's address behind a reverse proxy, trusting only the proxies you name.

daphne's ``--proxy-headers`` believes any ``X-Forwarded-For`` (its left-most address, which
the client writes itself), so every per-address throttle could be dodged by sending a new one
each time. This ASGI middleware wraps the whole site instead (HTTP and WebSocket): only when the
direct peer (``scope["client"]``) is in ``TRUSTED_PROXIES`` (env ``DJANGO_TRUSTED_PROXIES``,
CIDRs such as ``127.0.0.1/32,10.0.0.0/8``) is ``X-Forwarded-For`` read, from the right: the
right-most address that is not itself a trusted proxy is the client. Otherwise the peer is the
client and the header is ignored. Django's ``REMOTE_ADDR`` and the sockets' limits read the
rewritten ``scope["client"]``.

>>> nets = networks(["10.0.0.0/8", "127.0.0.1"])
>>> forwarded_client("127.0.0.1", ["6.6.6.6, 203.0.113.7, 10.1.2.3"], nets)
'203.0.113.7'
>>> forwarded_client("198.51.100.2", ["6.6.6.6"], nets)  # not a trusted peer: header ignored
'198.51.100.2'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(cidrs: Iterable[str]) -> list[Network]:
    """``cidrs`` as networks (a bare address is a /32 or /128)."""
    return [ipaddress.ip_network(c.strip(), strict=False) for c in cidrs if c.strip()]


def _trusted(address: str, nets: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in net for net in nets)


def forwarded_client(peer: str, headers: Sequence[str], nets: Sequence[Network]) -> str:
    """The client address: ``peer`` unless it is trusted, else the right-most address of the
    ``X-Forwarded-For`` values ``headers`` that is not a trusted proxy (the peer itself when
    every one is, or the header is missing or unreadable)."""
    if not nets or not _trusted(peer, nets):
        return peer
    hops = [hop.strip() for value in headers for hop in value.split(",")]
    for hop in reversed(hops):
        if not hop:
            continue
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer  # a garbled hop: trust nothing left of it
        if not _trusted(hop, nets):
            return hop
    return peer


class TrustedProxyMiddleware:
    """Rewrite ``scope["client"]`` from ``X-Forwarded-For`` sent by a trusted proxy."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") in ("http", "websocket") and scope.get("client"):
            nets = networks(settings.TRUSTED_PROXIES or [])
            peer, port = scope["client"][0], scope["client"][1]
            values = [
                v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"x-forwarded-for"
            ]
            client = forwarded_client(str(peer), values, nets)
            if client != peer:
                scope = dict(scope, client=(client, port))
        await self.app(scope, receive, send)


def refuse_proxy_headers(argv: Sequence[str]) -> None:
    """Refuse to serve under daphne's ``--proxy-headers`` (it trusts any client's header):
    name the proxies in ``DJANGO_TRUSTED_PROXIES`` instead."""
    if any(arg == "--proxy-headers" or arg.startswith("--proxy-headers-") for arg in argv):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            "Do not run daphne with --proxy-headers: it believes any X-Forwarded-For. Set "
            "DJANGO_TRUSTED_PROXIES to your proxy's addresses (CIDRs) instead (README, "
            "'Production')."
        )
