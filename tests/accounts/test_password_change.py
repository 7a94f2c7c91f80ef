from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

NEW = "another-Lantern-77"


def test_password_change_requires_login(client: Client) -> None:
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_password_change_with_wrong_old_password_changes_nothing(
    user_client: Client, user: User, password: str
) -> None:
    response = user_client.post(
        reverse("accounts:password_change"),
        {"old_password": "not-it", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(password)


def test_password_change_keeps_the_user_logged_in(
    user_client: Client, user: User, password: str
) -> None:
    response = user_client.post(
        reverse("accounts:password_change"),
        {"old_password": password, "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_change_done")
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert user_client.get(reverse("accounts:profile")).status_code == 200


def test_weak_new_password_is_refused(user_client: Client, user: User, password: str) -> None:
    response = user_client.post(
        reverse("accounts:password_change"),
        {"old_password": password, "new_password1": "password", "new_password2": "password"},
    )
    assert "This password is too common." in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(password)
