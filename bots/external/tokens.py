"""External bots' API tokens: made once, shown once, stored as a SHA-256 hash.

A token is ``tlb_`` plus 32 random bytes (URL-safe base64): guessing one is hopeless, so one
unsalted SHA-256 is the right hash (a lookup key, as for API keys), and a stolen database holds
no usable token. It is not the user's DRF token: it only plays that one bot.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping

from django.db import transaction
from django.utils import timezone

from bots.models import Bot

PREFIX = "tlb_"


def token_hash(raw: str) -> str:
    """The stored form of token ``raw``.

    >>> len(token_hash("tlb_x"))
    64
    """
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


class NotExternalError(ValueError):
    """Tokens belong to external bots only."""

    code = "not_external"


@transaction.atomic
def token_issue(*, bot: Bot) -> str:
    """Make a new token for external ``bot`` (any earlier one stops working at once) and return
    it: the only time it is ever readable."""
    locked = Bot.objects.select_for_update().get(pk=bot.pk)
    if locked.kind != Bot.Kind.EXTERNAL:
        raise NotExternalError("only external bots have API tokens")
    raw = PREFIX + secrets.token_urlsafe(32)
    locked.token_hash = token_hash(raw)
    locked.token_hint = raw[: len(PREFIX) + 4]
    locked.token_created_at = timezone.now()
    locked.save(update_fields=["token_hash", "token_hint", "token_created_at", "updated_at"])
    bot.token_hash, bot.token_hint = locked.token_hash, locked.token_hint
    bot.token_created_at = locked.token_created_at
    return raw


def token_revoke(*, bot: Bot) -> None:
    """Revoke ``bot``'s token: programs using it are refused from their next request (open
    sockets are closed by :func:`bots.external.services.external_disconnect_all`)."""
    Bot.objects.filter(pk=bot.pk).update(token_hash="", token_hint="", token_created_at=None)
    bot.token_hash, bot.token_hint, bot.token_created_at = "", "", None


def token_bot(raw: str | None) -> Bot | None:
    """The external bot whose token is ``raw``; None for a missing, malformed or revoked one."""
    if not raw or not raw.startswith(PREFIX) or len(raw) > 200:
        return None
    return (
        Bot.objects.filter(kind=Bot.Kind.EXTERNAL, token_hash=token_hash(raw))
        .exclude(token_hash="")
        .first()
    )


def bearer(headers: Iterable[tuple[bytes, bytes]] | Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (ASGI header pairs or a
    ``request.headers``-like mapping); None without one.

    >>> bearer([(b"authorization", b"Bearer tlb_abc")]), bearer({"Authorization": "Basic x"})
    ('tlb_abc', None)
    """
    if isinstance(headers, Mapping):
        value = next((v for k, v in headers.items() if k.lower() == "authorization"), None)
    else:
        value = next(
            (v.decode("latin-1") for k, v in headers if k.lower() == b"authorization"), None
        )
    if not value:
        return None
    scheme, _, token = value.strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None
