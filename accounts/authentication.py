"""REST API token authentication with a message that says what to do next."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

INVALID_TOKEN_MESSAGE = (
    "Invalid token: it is unknown or was regenerated. "
    "Copy your current token from /accounts/token/ and send 'Authorization: Token <key>'."
)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``) with a clearer failure."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        try:
            return super().authenticate_credentials(key)
        except exceptions.AuthenticationFailed as exc:
            if "inactive" in str(exc.detail).lower():
                raise
            raise exceptions.AuthenticationFailed(INVALID_TOKEN_MESSAGE) from exc
