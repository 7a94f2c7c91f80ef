"""Forged or missing CSRF tokens are refused with a clear page, and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from accounts.models import User
from bots.models import Bot

pytestmark = pytest.mark.django_db

FORGED = "x" * 64


@pytest.fixture
def csrf_client() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "y" * 32  # a cookie that does not match the forged token
    return client


def assert_refused(response: object) -> None:
    assert getattr(response, "status_code", None) == 403
    assert "This form could not be accepted" in response.content.decode()  # type: ignore[attr-defined]


def test_forged_csrf_on_signup_creates_nobody(csrf_client: Client) -> None:
    response = csrf_client.post(
        reverse("accounts:signup"),
        {
            "csrfmiddlewaretoken": FORGED,
            "username": "forger",
            "email": "forger@example.com",
            "password1": "tr1cky-Lantern-42",
            "password2": "tr1cky-Lantern-42",
        },
    )
    assert_refused(response)
    assert not User.objects.filter(username="forger").exists()


def test_missing_csrf_on_login_logs_nobody_in(
    csrf_client: Client, user: User, password: str
) -> None:
    response = csrf_client.post(
        reverse("accounts:login"), {"username": user.username, "password": password}
    )
    assert_refused(response)
    assert "_auth_user_id" not in csrf_client.session


def test_forged_csrf_on_logout_keeps_the_session(csrf_client: Client, user: User) -> None:
    csrf_client.force_login(user)
    assert_refused(csrf_client.post(reverse("accounts:logout"), {"csrfmiddlewaretoken": FORGED}))
    assert csrf_client.session["_auth_user_id"] == str(user.pk)


def test_forged_csrf_on_token_regeneration_keeps_the_token(csrf_client: Client, user: User) -> None:
    token = Token.objects.create(user=user)
    csrf_client.force_login(user)
    assert_refused(csrf_client.post(reverse("accounts:token"), {"csrfmiddlewaretoken": FORGED}))
    assert Token.objects.get(user=user).key == token.key


def test_session_api_write_without_csrf_is_refused(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post("/api/bots/", {"name": "Forged"}, content_type="application/json")
    assert response.status_code == 403
    assert "CSRF Failed" in response.json()["detail"]
    assert not Bot.objects.filter(name="Forged").exists()


def test_real_csrf_token_is_accepted(user: User, password: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("accounts:login"))
    token = client.cookies["csrftoken"].value
    response = client.post(
        reverse("accounts:login"),
        {"username": user.username, "password": password, "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
