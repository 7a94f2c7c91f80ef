"""The WebSocket route of external bots (config/asgi.py serves it outside the browser sockets'
origin check: a program sends no ``Origin``, and its token, not a cookie, authenticates it)."""

from __future__ import annotations

from typing import Any

from bots.external.consumer import BotConsumer

BOT_WS_PATH = "/ws/bot/"

bot_socket: Any = BotConsumer.as_asgi()
