"""The HTTP form of the bot API, for programs that prefer it to a WebSocket.

- ``GET /api/bot/stream``: the same frames as the socket, one JSON object per line
  (``application/x-ndjson``), and an empty line whenever :data:`KEEPALIVE_SECONDS` pass with
  no line sent, to keep proxies awake. Served as an async streaming response (daphne).
- ``POST /api/bot/game/<id>/move`` (``<id>`` a table game's number, or a match game's
  ``match-<match id>-<n>``) with ``{"seq": n, "move": {...}}``: the ``move`` frame;
  200 ``{"ok": true, ...}`` or 400 ``{"error": {"code", "message"}}`` (the socket's codes).

Both need ``Authorization: Bearer <token>`` (401 ``auth_required`` / ``invalid_token``), and
both count against the token's rate limit (:mod:`bots.external.ratelimit`, setting
``BOTS_EXTERNAL_HTTP_RATE``): over it, 429 ``{"error": {"code": "rate_limited", "message",
"retry_after"}}`` (a move's also ``game_id`` and ``seq``) with ``Retry-After``, and nothing is
done (no move applied, no stream opened) — except for a move that answers the bot's own open
turn (:func:`bots.external.ratelimit.exempt_from_rate_limit`), which is never refused.
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

from bots.external import presence, ratelimit, services, tokens, wire
from bots.models import Bot
from games import clock, limits
from games.engine.core import jsonsafe

KEEPALIVE_SECONDS = 7.0
#: Longest move request body (the socket's frame limit).
FRAME_MAX_BYTES = 16_384


def _unauthorized(raw: str | None) -> JsonResponse:
    code = "auth_required" if raw is None else "invalid_token"
    response = JsonResponse(
        {"error": {"code": code, "message": "a bot token is needed"}}, status=401
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


def _rate_limited(raw: str) -> JsonResponse | None:
    """Count this request against token ``raw``; the 429 answer when it is over the limit."""
    seconds = ratelimit.hit(tokens.token_hash(raw))
    return None if seconds is None else _too_many_requests(seconds)


def _too_many(code: str, message: str, seconds: int, **extra: Any) -> JsonResponse:
    error = {"code": code, "message": message, "retry_after": seconds, **extra}
    response = JsonResponse({"error": error}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def _too_many_requests(seconds: int, **extra: Any) -> JsonResponse:
    message = f"too many requests with this token: retry in {seconds} s"
    return _too_many("rate_limited", message, seconds, **extra)


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


def _move_body(request: HttpRequest) -> dict[str, Any]:
    """The move request's JSON object ({} when it is none)."""
    if len(request.body) > FRAME_MAX_BYTES:
        raise wire.ExternalBotError("frame_too_big", "a move is at most 16 kB")
    try:
        body = jsonsafe.loads(request.body.decode("utf-8"), max_depth=16)
    except (ValueError, UnicodeDecodeError) as exc:
        raise wire.ExternalBotError("bad_json", "the body is one JSON object") from exc
    if not isinstance(body, dict):
        raise wire.ExternalBotError("bad_frame", "the body is one JSON object")
    return body


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
    cap = int(settings.BOTS_EXTERNAL_MAX_STREAMS)
    if not await limits.aslot_acquire(slot, channel, cap=cap):
        message = f"at most {cap} streams per token: close one first"
        return _too_many("too_many_connections", message, 1, limit=cap)
    group = wire.bot_group(bot.pk)
    await layer.group_add(group, channel)
    first = [services.hello_frame(bot)]
    first += await database_sync_to_async(services.external_resume)(bot=bot)

    # the bot is online while this stream is open (others may seat it: bots.seating)
    alive = sync_to_async(presence.connection_alive)

    async def lines() -> AsyncIterator[bytes]:
        try:
            await alive(bot_id=bot.pk, connection=channel)
            for frame in first:
                yield _line(frame)
            renewed = clock.now()
            leased = time.monotonic()
            while True:
                if clock.now() - renewed >= presence.refresh_every():
                    await alive(bot_id=bot.pk, connection=channel)
                    renewed = clock.now()
                if time.monotonic() - leased > limits.LEASE_SECONDS / 3:
                    leased = time.monotonic()
                    await limits.aslot_acquire(slot, channel, cap=1 << 30)
                try:
                    message = await asyncio.wait_for(layer.receive(channel), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield b"\n"
                    continue
                if message.get("type") == wire.REVOKED_TYPE:
                    yield _line(wire.error_frame("token_revoked", "the token was revoked"))
                    return
                if message.get("type") == wire.MESSAGE_TYPE:
                    yield _line(message["frame"])
        finally:
            await sync_to_async(presence.connection_closed)(bot_id=bot.pk, connection=channel)
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
    seconds = ratelimit.hit(tokens.token_hash(raw)) if raw is not None else None
    bot = _lookup(request, raw)
    if isinstance(bot, JsonResponse):
        return _too_many_requests(seconds) if seconds is not None else bot
    try:
        body = _move_body(request)
        seq = body.get("seq")
        if seconds is not None and not ratelimit.exempt_from_rate_limit(
            bot_id=bot.pk, game_id=game_id, seq=seq
        ):
            return _too_many_requests(seconds, game_id=game_id, seq=seq)
        done = services.external_submit_move(
            bot=bot, game_id=game_id, seq=seq, move=body.get("move")
        )
    except wire.ExternalBotError as exc:
        if seconds is not None:  # over the limit, and no answer to an open turn
            return _too_many_requests(seconds, game_id=game_id)
        error: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if isinstance(exc.__cause__, wire.ExternalBotError):
            error["reason"] = exc.__cause__.code
        return JsonResponse({"error": error}, status=400)
    return JsonResponse({"ok": True, **done})
