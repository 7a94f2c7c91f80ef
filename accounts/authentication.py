"""REST API token authentication with a message that says what to do next.

Failed lookups are counted per client address (:mod:`games.limits`, setting
``ACCOUNTS_BAD_TOKEN_RATE``): an address over it gets 429 ``rate_limited`` with
``Retry-After`` before its token is even looked up, so keys cannot be guessed in bulk.
"""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

from games import limits
from games.throttles import RateLimited

INVALID_TOKEN_MESSAGE = (
    "Invalid token: it is unknown or was regenerated. "
    "Copy your current token from /accounts/token/ and send 'Authorization: Token <key>'."
)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``) with a clearer failure."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        sent = authentication.get_authorization_header(request).split()
        if not sent or sent[0].lower() != self.keyword.lower().encode():
            return None  # no token: nothing looked up, nothing counted
        address = limits.address_key(request.META.get("REMOTE_ADDR"))
        wait = limits.bad_token_wait(address)
        if wait is not None:
            raise RateLimited(wait, "Too many unknown tokens from your address.")
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            limits.bad_token_seen(address)
            raise

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        try:
            return super().authenticate_credentials(key)
        except exceptions.AuthenticationFailed as exc:
            if "inactive" in str(exc.detail).lower():
                raise
            raise exceptions.AuthenticationFailed(INVALID_TOKEN_MESSAGE) from exc
