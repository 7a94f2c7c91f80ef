from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_token_page_requires_login(client: Client) -> None:
    assert client.get(reverse("accounts:token")).status_code == 302


def test_token_page_shows_the_users_token(user_client: Client, user: User) -> None:
    page = user_client.get(reverse("accounts:token")).content.decode()
    token = Token.objects.get(user=user)
    assert token.key in page
    assert "Authorization: Token" in page


def test_regenerate_replaces_the_token(user_client: Client, user: User) -> None:
    user_client.get(reverse("accounts:token"))
    old = Token.objects.get(user=user).key

    response = user_client.post(reverse("accounts:token"), follow=True)

    new = Token.objects.get(user=user).key
    assert new != old
    page = response.content.decode()
    assert new in page
    assert "A new token was issued" in page
