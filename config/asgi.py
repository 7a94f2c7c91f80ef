"""ASGI entry point: HTTP through Django, WebSocket through Channels.

Serve with ``daphne config.asgi:application``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import autobahn.util as autobahn_util
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

# Build Django's app first: it sets up the app registry before routing imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import (  # noqa: E402
    CookieMiddleware,
    InstanceSessionWrapper,
    SessionMiddleware,
)

from bots.external.routing import BOT_WS_PATH, bot_socket  # noqa: E402
from config import gctune  # noqa: E402
from config.proxy import TrustedProxyMiddleware, refuse_proxy_headers  # noqa: E402
from games.metrics import SocketGauge, watch_gc  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

refuse_proxy_headers(sys.argv)

# autobahn colours the arguments of its debug log lines with click (installed for Celery) as it
# builds them, on every frame sent, whether debug is logged or not (autobahn/util.py ``hl``):
# plain text costs nothing. Only the colour of autobahn's own debug lines changes.
autobahn_util._HAS_CLICK = False


class SocketSessionMiddleware(SessionMiddleware):
    """channels' ``SessionMiddleware`` for the browser sockets, which never change the session:
    it is resolved at connect as channels does, and the socket's ``send`` goes on unwrapped
    (channels wraps it to save a modified session on an HTTP response, checking the session
    on every frame a socket sends)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        inner: Any = self.inner
        return await inner(wrapper.scope, receive, send)


# channels' AuthMiddlewareStack with the session middleware above.
browser_sockets = AllowedHostsOriginValidator(
    CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(URLRouter(websocket_urlpatterns))))
)


async def websocket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """External bots' socket (token auth, no Origin: bots/external/routing.py), else the
    browser sockets (origin-checked, session auth)."""
    app = bot_socket if scope.get("path") == BOT_WS_PATH else browser_sockets
    await app(scope, receive, send)  # type: ignore[arg-type]


# The client's address (throttles, limits, REMOTE_ADDR) from X-Forwarded-For only when a
# proxy named in TRUSTED_PROXIES sent it (config/proxy.py).
application = TrustedProxyMiddleware(
    ProtocolTypeRouter({"http": django_asgi_app, "websocket": SocketGauge(websocket)})
)

# Everything loaded so far lives as long as the process: out of every later collection, and the
# collections themselves timed (config/gctune.py, tienlen_gc_pause_seconds).
gctune.tune()
watch_gc()
