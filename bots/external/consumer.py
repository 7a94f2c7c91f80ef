"""The WebSocket of external bots: ``/ws/bot/``, ``Authorization: Bearer <token>``.

Thin, like the table sockets (games/consumers.py): authenticate, join the bot's group
(:func:`bots.external.services.bot_group`), send ``hello`` and what a reconnecting program
missed, then parse ``move`` frames and hand them to
:func:`bots.external.services.external_submit_move`. A bad frame gets an ``error`` frame with a
stable code and changes nothing; it never closes the socket.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from bots.external import presence, services, tokens
from bots.models import Bot
from games.consumers import FRAME_MAX_DEPTH, TokenBucket
from games.engine.core import jsonsafe

logger = logging.getLogger(__name__)

#: Close code of a refused or revoked token.
CLOSE_UNAUTHORIZED = 4401
#: Longest frame a bot may send (a move is well under 1 kB).
FRAME_MAX_BYTES = 16_384


def _db(fn: Any) -> Any:
    return database_sync_to_async(fn, thread_sensitive=False)


class BotConsumer(AsyncWebsocketConsumer):
    bot: Bot | None = None
    group: str | None = None

    async def connect(self) -> None:
        raw = tokens.bearer(self.scope.get("headers", []))
        bot = await _db(tokens.token_bot)(raw) if raw else None
        await self.accept()
        if bot is None:
            code = "auth_required" if raw is None else "invalid_token"
            message = (
                "send Authorization: Bearer <token>" if raw is None else "unknown or revoked token"
            )
            await self.send_frame(services.error_frame(code, message))
            await self.close(code=CLOSE_UNAUTHORIZED)
            return
        self.bot = bot
        self.bucket = TokenBucket(
            float(getattr(settings, "BOTS_EXTERNAL_WS_RATE", 20)),
            float(getattr(settings, "BOTS_EXTERNAL_WS_BURST", 40)),
        )
        self.group = services.bot_group(bot.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await sync_to_async(presence.opened)(bot.pk)
        await self.send_frame(services.hello_frame(bot))
        for frame in await _db(services.external_resume)(bot=bot):
            await self.send_frame(frame)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.bot is not None:
                await sync_to_async(presence.closed)(self.bot.pk)

    async def send_frame(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.bot is None:
            return
        try:
            frame = self.parse(text_data, bytes_data)
            if not self.bucket.take():
                raise services.ExternalBotError("rate_limited", "too many frames")
            kind = frame.get("type")
            if kind == "ping":
                await self.send_frame({"type": "pong"})
            elif kind == "move":
                await _db(services.external_submit_move)(
                    bot=self.bot,
                    game_id=frame.get("game_id"),
                    seq=frame.get("seq"),
                    move=frame.get("move"),
                )
            else:
                raise services.ExternalBotError("unknown_type", f"unknown frame type {kind!r}")
        except services.ExternalBotError as exc:
            extra = {}
            if isinstance(exc.__cause__, services.ExternalBotError):
                extra["reason"] = exc.__cause__.code
            await self.send_frame(services.error_frame(exc.code, exc.message, **extra))
        except Exception:  # never crash the socket: the program may try again
            logger.exception("external bot frame failed", extra={"bot": self.bot.pk})
            await self.send_frame(services.error_frame("server_error", "try again"))

    def parse(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
        if text_data is None:
            raise services.ExternalBotError("bad_json", "send text frames of JSON")
        if len(text_data) > FRAME_MAX_BYTES:
            raise services.ExternalBotError("frame_too_big", "frames are at most 16 kB")
        try:
            frame = jsonsafe.loads(text_data, max_depth=FRAME_MAX_DEPTH)
        except (ValueError, jsonsafe.JSONTooDeepError) as exc:
            raise services.ExternalBotError("bad_json", "a frame is one JSON object") from exc
        if not isinstance(frame, dict):
            raise services.ExternalBotError("bad_frame", "a frame is one JSON object")
        return frame

    async def bot_frame(self, message: dict[str, Any]) -> None:
        await self.send_frame(message["frame"])

    async def bot_revoked(self, message: dict[str, Any]) -> None:
        await self.send_frame(services.error_frame("token_revoked", "the token was revoked"))
        await self.close(code=CLOSE_UNAUTHORIZED)
