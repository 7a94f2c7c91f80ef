"""Write-side operations of the accounts app."""

from __future__ import annotations

from django.db import transaction
from rest_framework.authtoken.models import Token

from accounts.models import User


def token_get_or_create(*, user: User) -> Token:
    """The user's REST API token, created on first use."""
    token, _created = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def token_regenerate(*, user: User) -> Token:
    """Revoke the user's API token and issue a new one."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
