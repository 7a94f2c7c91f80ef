"""WebSocket routes of the games app (filled in by the real-time table issue)."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
