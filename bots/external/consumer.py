"""The WebSocket of external bots: ``/ws/bot/``, ``Authorization: Bearer <token>``.

Thin, like the table sockets (games/consumers.py): authenticate, join the bot's group
(:func:`bots.external.wire.bot_group`), send ``hello`` and what a reconnecting program
missed, then parse ``move`` frames and hand them to
:func:`bots.external.services.external_submit_move`. A bad frame gets an ``error`` frame with a
stable code and changes nothing; it never closes the socket.

Limits (docs/bot-api.md "Limits"), counted in Redis across daphne processes
(:mod:`games.limits`): a token holds at most ``BOTS_EXTERNAL_MAX_SOCKETS`` sockets at once
(more: ``too_many_connections``, close 4429); its frames are limited per socket
(``BOTS_EXTERNAL_WS_RATE``/``BOTS_EXTERNAL_WS_BURST``) and across all its sockets
(``BOTS_EXTERNAL_TOKEN_RATE``), except a ``move`` answering a ``turn`` this socket was sent
(:meth:`BotConsumer.frame_allowed`: a bot answering its own turns is never refused); an address
that sent too many unknown tokens (``ACCOUNTS_BAD_TOKEN_RATE``) is refused before the lookup
(``rate_limited``, close 4429).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from bots.external import presence, ratelimit, services, tokens, wire
from bots.models import Bot
from games import jsontext, limits, threads
from games.consumers import CLOSE_TOO_MANY, FRAME_MAX_DEPTH, TokenBucket
from games.engine.core import jsonsafe

logger = logging.getLogger(__name__)

#: Close code of a refused or revoked token.
CLOSE_UNAUTHORIZED = 4401
#: Longest frame a bot may send (a move is well under 1 kB).
FRAME_MAX_BYTES = 16_384
#: Open turns (sent, not yet answered) a socket remembers for its free answers.
OPEN_TURNS_KEPT = 64


def _db(fn: Any) -> Any:
    """On the process's database pool, as the table sockets' calls (``games.threads``)."""
    return database_sync_to_async(fn, thread_sensitive=False, executor=threads.database_pool())


class BotConsumer(AsyncWebsocketConsumer):
    bot: Bot | None = None
    group: str | None = None
    slot: str | None = None
    renewer: asyncio.Task[None] | None = None
    alive: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.open_turns: dict[tuple[str, int], None] = {}
        raw = tokens.bearer(self.scope.get("headers", []))
        address = limits.scope_address(self.scope)
        if raw and (wait := await limits.abad_token_wait(address)) is not None:
            await self.accept()
            seconds = limits.retry_after(wait)
            await self.send_frame(
                wire.error_frame(
                    "rate_limited",
                    f"too many unknown tokens from your address: retry in {seconds} s",
                    retry_after=seconds,
                )
            )
            await self.close(code=CLOSE_TOO_MANY)
            return
        bot = await _db(tokens.token_bot)(raw) if raw else None
        if raw and bot is None:
            await limits.abad_token_seen(address)
        await self.accept()
        if bot is None:
            code = "auth_required" if raw is None else "invalid_token"
            message = (
                "send Authorization: Bearer <token>" if raw is None else "unknown or revoked token"
            )
            await self.send_frame(wire.error_frame(code, message))
            await self.close(code=CLOSE_UNAUTHORIZED)
            return
        slot = f"bot:ws:{bot.pk}"
        cap = int(settings.BOTS_EXTERNAL_MAX_SOCKETS)
        if not await limits.aslot_acquire(slot, self.channel_name, cap=cap):
            await self.send_frame(
                wire.error_frame(
                    "too_many_connections", f"at most {cap} sockets per token", limit=cap
                )
            )
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.slot = slot
        self.renewer = asyncio.ensure_future(self._renew())
        self.bot = bot
        self.bucket = TokenBucket(
            float(settings.BOTS_EXTERNAL_WS_RATE),
            float(settings.BOTS_EXTERNAL_WS_BURST),
        )
        self.group = wire.bot_group(bot.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # the bot is online while this socket is open (others may seat it: bots.seating)
        await sync_to_async(presence.connection_opened)(bot_id=bot.pk, connection=self.channel_name)
        self.alive = asyncio.create_task(self.keep_alive(bot.pk))
        await self.send_frame(services.hello_frame(bot))
        for frame in await _db(services.external_resume)(bot=bot):
            await self.send_frame(frame)

    async def _renew(self) -> None:
        """Renew the socket's slot while it lives (a dead process's slots lapse)."""
        try:
            while self.slot is not None:
                await asyncio.sleep(limits.LEASE_SECONDS / 3)
                await limits.aslot_acquire(self.slot, self.channel_name, cap=1 << 30)
        except asyncio.CancelledError:
            pass
        except Exception:
            logger.warning("bot socket slot renewal failed", exc_info=True)

    async def disconnect(self, code: int) -> None:
        if self.alive is not None:
            self.alive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.alive
        if self.bot is not None:
            await sync_to_async(presence.connection_closed)(
                bot_id=self.bot.pk, connection=self.channel_name
            )
        if self.renewer is not None:
            self.renewer.cancel()
            self.renewer = None
        if self.slot is not None:
            slot, self.slot = self.slot, None
            await limits.aslot_release(slot, self.channel_name)
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def keep_alive(self, bot_id: int) -> None:
        """Renew this socket's presence while it stays open (bots.external.presence)."""
        renew = sync_to_async(presence.connection_alive)
        while True:
            await asyncio.sleep(presence.refresh_every())
            try:
                await renew(bot_id=bot_id, connection=self.channel_name)
            except Exception:  # Redis away for a moment: the next round tries again
                logger.warning("bot presence not renewed", exc_info=True, extra={"bot": bot_id})

    async def send_frame(self, frame: dict[str, Any]) -> None:
        if frame.get("type") == "turn":
            self._turn_opened(frame.get("game_id"), frame.get("seq"))
        await self.send(text_data=jsontext.dumps(frame))

    def _turn_opened(self, game_id: Any, seq: Any) -> None:
        if isinstance(seq, int):
            self.open_turns[(str(game_id), seq)] = None
            while len(self.open_turns) > OPEN_TURNS_KEPT:
                del self.open_turns[next(iter(self.open_turns))]

    async def frame_allowed(self, frame: dict[str, Any]) -> bool:
        """Every rate limit of a frame, in one place. A ``move`` answering a ``turn`` this
        socket was sent (and not answered yet), or the bot's own open turn as the server knows
        it (:meth:`exempt`: a turn sent before a reconnect), is free: a bot playing its own
        turns is never refused. Any other frame counts against this socket's bucket, then
        against the token's, shared by all its sockets and processes
        (``BOTS_EXTERNAL_TOKEN_RATE``)."""
        if frame.get("type") == "move":
            answer = (str(frame.get("game_id")), frame.get("seq"))
            if answer in self.open_turns:
                del self.open_turns[answer]
                return True
        if self.bucket.take():
            assert self.bot is not None
            rate = limits.setting_rate("BOTS_EXTERNAL_TOKEN_RATE")
            if await limits.atake(f"bot:{self.bot.pk}", rate) is None:
                return True
        return await self.exempt(frame)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.bot is None:
            return
        try:
            frame = self.parse(text_data, bytes_data)
            if not await self.frame_allowed(frame):
                await self.send_frame(self.rate_limited(frame))
                return
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
                raise wire.ExternalBotError("unknown_type", f"unknown frame type {kind!r}")
        except wire.ExternalBotError as exc:
            extra = {}
            if isinstance(exc.__cause__, wire.ExternalBotError):
                extra["reason"] = exc.__cause__.code
            await self.send_frame(wire.error_frame(exc.code, exc.message, **extra))
        except Exception:  # never crash the socket: the program may try again
            logger.exception("external bot frame failed", extra={"bot": self.bot.pk})
            await self.send_frame(wire.error_frame("server_error", "try again"))

    async def exempt(self, frame: dict[str, Any]) -> bool:
        """Whether ``frame`` answers the bot's own open turn: never refused for the rate
        (:func:`bots.external.ratelimit.exempt_from_rate_limit`)."""
        if frame.get("type") != "move" or self.bot is None:
            return False
        return bool(
            await _db(ratelimit.exempt_from_rate_limit)(
                bot_id=self.bot.pk, game_id=frame.get("game_id"), seq=frame.get("seq")
            )
        )

    def rate_limited(self, frame: dict[str, Any]) -> dict[str, Any]:
        """The ``rate_limited`` error: the refused frame's ``game_id`` and ``seq`` (a move's;
        else null) and ``retry_after``, the seconds until one more frame is allowed."""
        rate = self.bucket.rate
        wait = max(0.0, 1.0 - self.bucket.tokens) / rate if rate > 0 else 1.0
        return wire.error_frame(
            "rate_limited",
            f"more than {rate:g} frames a second (bursts of {self.bucket.burst:g})",
            game_id=frame.get("game_id"),
            seq=frame.get("seq"),
            retry_after=round(max(wait, 0.001), 3),
        )

    def parse(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
        if text_data is None:
            raise wire.ExternalBotError("bad_json", "send text frames of JSON")
        if len(text_data) > FRAME_MAX_BYTES:
            raise wire.ExternalBotError("frame_too_big", "frames are at most 16 kB")
        try:
            frame = jsonsafe.loads(text_data, max_depth=FRAME_MAX_DEPTH)
        except (ValueError, jsonsafe.JSONTooDeepError) as exc:
            raise wire.ExternalBotError("bad_json", "a frame is one JSON object") from exc
        if not isinstance(frame, dict):
            raise wire.ExternalBotError("bad_frame", "a frame is one JSON object")
        return frame

    async def bot_frame(self, message: dict[str, Any]) -> None:
        await self.send_frame(message["frame"])

    async def bot_revoked(self, message: dict[str, Any]) -> None:
        await self.send_frame(wire.error_frame("token_revoked", "the token was revoked"))
        await self.close(code=CLOSE_UNAUTHORIZED)
