"""The HTTP form of the bot API, for programs that prefer it to a WebSocket.

- ``GET /api/bot/stream``: the same frames as the socket, one JSON object per line
  (``application/x-ndjson``), an empty line every :data:`KEEPALIVE_SECONDS` to keep proxies
  awake. Served as an async streaming response (daphne).
- ``POST /api/bot/game/<id>/move`` (``<id>`` a table game's number, or a match game's
  ``match-<match id>-<n>``) with ``{"seq": n, "move": {...}}``: the ``move`` frame;
  200 ``{"ok": true, ...}`` or 400 ``{"error": {"code", "message"}}`` (the socket's codes).

Both need ``Authorization: Bearer <token>`` (401 ``auth_required`` / ``invalid_token``), and
both count against the token's rate limit (:mod:`bots.external.ratelimit`, setting
``BOTS_EXTERNAL_HTTP_RATE``): over it, 429 ``{"error": {"code": "rate_limited", "message",
"retry_after"}}`` with ``Retry-After``, and nothing is done (no move applied, no stream opened).
A client address that sent too many unknown tokens (``ACCOUNTS_BAD_TOKEN_RATE``) gets the same
429 before its token is looked up. A token holds at most ``BOTS_EXTERNAL_MAX_STREAMS`` streams
at once (shared by every daphne process): one more is 429 ``too_many_connections``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from bots.external import ratelimit, services, tokens
from bots.models import Bot
from games import limits
from games.engine.core import jsonsafe

KEEPALIVE_SECONDS = 7.0


def _unauthorized(raw: str | None) -> JsonResponse:
    code = "auth_required" if raw is None else "invalid_token"
    response = JsonResponse(
        {"error": {"code": code, "message": "a bot token is needed"}}, status=401
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


def _too_many(code: str, message: str, seconds: int, **extra: Any) -> JsonResponse:
    error = {"code": code, "message": message, "retry_after": seconds, **extra}
    response = JsonResponse({"error": error}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def _rate_limited(raw: str) -> JsonResponse | None:
    """Count this request against token ``raw``; the 429 answer when it is over the limit."""
    seconds = ratelimit.hit(tokens.token_hash(raw))
    if seconds is None:
        return None
    return _too_many(
        "rate_limited", f"too many requests with this token: retry in {seconds} s", seconds
    )


def _address(request: HttpRequest) -> str | None:
    return limits.address_key(request.META.get("REMOTE_ADDR"))


def _lookup(request: HttpRequest, raw: str | None) -> Bot | JsonResponse:
    """The bot of token ``raw``, else the answer: 429 for an address that sent too many
    unknown tokens (checked before the lookup), 401 for a missing or unknown one (counted)."""
    address = _address(request)
    if raw is not None and (wait := limits.bad_token_wait(address)) is not None:
        seconds = limits.retry_after(wait)
        message = f"too many unknown tokens from your address: retry in {seconds} s"
        return _too_many("rate_limited", message, seconds)
    bot: Bot | None = tokens.token_bot(raw) if raw else None
    if bot is None:
        if raw is not None:
            limits.bad_token_seen(address)
        return _unauthorized(raw)
    return bot


def _line(frame: dict[str, Any]) -> bytes:
    return (json.dumps(frame, separators=(",", ":")) + "\n").encode()


@csrf_exempt
@require_GET
async def stream(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    raw = tokens.bearer(dict(request.headers))
    if raw is not None and (limited := await sync_to_async(_rate_limited)(raw)) is not None:
        return limited
    bot = await database_sync_to_async(_lookup)(request, raw)
    if isinstance(bot, JsonResponse):
        return bot
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    slot = f"bot:stream:{bot.pk}"
    cap = int(getattr(settings, "BOTS_EXTERNAL_MAX_STREAMS", 4))
    if not await limits.aslot_acquire(slot, channel, cap=cap):
        message = f"at most {cap} streams per token: close one first"
        return _too_many("too_many_connections", message, 1, limit=cap)
    group = services.bot_group(bot.pk)
    await layer.group_add(group, channel)
    first = [services.hello_frame(bot)]
    first += await database_sync_to_async(services.external_resume)(bot=bot)

    async def lines() -> AsyncIterator[bytes]:
        renewed = time.monotonic()
        try:
            for frame in first:
                yield _line(frame)
            while True:
                if time.monotonic() - renewed > limits.LEASE_SECONDS / 3:
                    renewed = time.monotonic()
                    await limits.aslot_acquire(slot, channel, cap=1 << 30)
                try:
                    message = await asyncio.wait_for(layer.receive(channel), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield b"\n"
                    continue
                if message.get("type") == services.REVOKED_TYPE:
                    yield _line(services.error_frame("token_revoked", "the token was revoked"))
                    return
                if message.get("type") == services.MESSAGE_TYPE:
                    yield _line(message["frame"])
        finally:
            await layer.group_discard(group, channel)
            await limits.aslot_release(slot, channel)

    response = StreamingHttpResponse(lines(), content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@csrf_exempt
@require_POST
def move(request: HttpRequest, game_id: int | str) -> HttpResponse:
    raw = tokens.bearer(dict(request.headers))
    if raw is not None and (limited := _rate_limited(raw)) is not None:
        return limited
    bot = _lookup(request, raw)
    if isinstance(bot, JsonResponse):
        return bot
    try:
        if len(request.body) > 16_384:
            raise services.ExternalBotError("frame_too_big", "a move is at most 16 kB")
        try:
            body = jsonsafe.loads(request.body.decode("utf-8"), max_depth=16)
        except (ValueError, UnicodeDecodeError) as exc:
            raise services.ExternalBotError("bad_json", "the body is one JSON object") from exc
        if not isinstance(body, dict):
            raise services.ExternalBotError("bad_frame", "the body is one JSON object")
        done = services.external_submit_move(
            bot=bot, game_id=game_id, seq=body.get("seq"), move=body.get("move")
        )
    except services.ExternalBotError as exc:
        error: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if isinstance(exc.__cause__, services.ExternalBotError):
            error["reason"] = exc.__cause__.code
        return JsonResponse({"error": error}, status=400)
    return JsonResponse({"ok": True, **done})
