from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

STRONG = "tr1cky-Lantern-42"


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "username": "newcomer",
        "email": "newcomer@example.com",
        "display_name": "New Comer",
        "password1": STRONG,
        "password2": STRONG,
    }
    data.update(overrides)
    return data


def test_signup_page_renders(client: Client) -> None:
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    assert b"Create your account" in response.content


def test_signup_creates_user_logs_in_and_lands_on_profile(client: Client) -> None:
    response = client.post(reverse("accounts:signup"), signup_data(), follow=True)

    assert response.redirect_chain[-1][0] == reverse("accounts:profile")
    user = User.objects.get(username="newcomer")
    assert user.email == "newcomer@example.com"
    assert user.display_name == "New Comer"
    assert user.check_password(STRONG)
    assert response.context["user"] == user
    assert "New Comer" in response.content.decode()


def test_duplicate_username_is_refused_with_a_clear_message(client: Client, user: User) -> None:
    before = User.objects.count()
    response = client.post(reverse("accounts:signup"), signup_data(username=user.username.upper()))

    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == before
    assert "_auth_user_id" not in client.session


def test_duplicate_email_is_refused(client: Client, user: User) -> None:
    before = User.objects.count()
    response = client.post(reverse("accounts:signup"), signup_data(email=user.email))

    assert "An account with this email already exists." in response.content.decode()
    assert User.objects.count() == before


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("password", "This password is too common."),
        ("12345678", "This password is entirely numeric."),
        ("ab1", "This password is too short."),
    ],
)
def test_weak_password_is_refused_with_a_clear_message(
    client: Client, password: str, message: str
) -> None:
    response = client.post(
        reverse("accounts:signup"), signup_data(password1=password, password2=password)
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_mismatched_passwords_are_refused(client: Client) -> None:
    response = client.post(reverse("accounts:signup"), signup_data(password2=STRONG + "x"))
    assert "The two password fields didn" in response.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_signed_in_user_is_sent_to_profile(user_client: Client) -> None:
    response = user_client.get(reverse("accounts:signup"))
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile")
