from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_login_with_correct_password_lands_on_profile(
    client: Client, user: User, password: str
) -> None:
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": password}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_login_honours_next(client: Client, user: User, password: str) -> None:
    response = client.post(
        reverse("accounts:login") + "?next=/bots/",
        {"username": user.username, "password": password, "next": "/bots/"},
    )
    assert response["Location"] == "/bots/"


def test_login_with_wrong_password_says_so_and_logs_nobody_in(client: Client, user: User) -> None:
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": "wrong-password"}
    )
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_is_a_post_and_ends_the_session(user_client: Client) -> None:
    assert user_client.get(reverse("accounts:logout")).status_code == 405

    response = user_client.post(reverse("accounts:logout"))

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert "_auth_user_id" not in user_client.session
    assert user_client.get(reverse("accounts:profile")).status_code == 302


def test_nav_shows_login_or_user(client: Client, user: User) -> None:
    page = client.get(reverse("home")).content.decode()
    assert reverse("accounts:login") in page
    assert reverse("accounts:signup") in page

    client.force_login(user)
    page = client.get(reverse("home")).content.decode()
    assert "Alice" in page
    assert reverse("accounts:logout") in page
