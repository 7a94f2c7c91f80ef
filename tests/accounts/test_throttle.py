"""Sign-up and log-in are throttled per client address (issue 14: 40 accounts in 13.6 s)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

_addresses = itertools.count(1)
STRONG = "tr1cky-Lantern-42"


def _client() -> Client:
    """A client at an address no other test used (the counters live in the shared cache)."""
    n = next(_addresses)
    return Client(REMOTE_ADDR=f"10.77.{n // 250}.{n % 250 + 1}")


def _signup(client: Client, n: int, **extra: Any) -> Any:
    data = {
        "username": f"spam{n}",
        "email": f"spam{n}@example.com",
        "display_name": f"Spam {n}",
        "password1": STRONG,
        "password2": STRONG,
    }
    return client.post(reverse("accounts:signup"), data, **extra)


def test_signup_is_throttled_per_address_with_a_429(settings: Any) -> None:
    settings.ACCOUNTS_SIGNUP_RATE = "3/h"
    spammer = _client()
    for n in range(3):
        assert _signup(spammer, n).status_code == 302
        spammer.logout()
    refused = _signup(spammer, 3)
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many attempts from your network" in refused.content.decode()
    assert not User.objects.filter(username="spam3").exists()
    # showing the form is not counted and still works; another address is not affected
    assert spammer.get(reverse("accounts:signup")).status_code == 200
    assert _signup(_client(), 4).status_code == 302


def test_login_is_throttled_per_address_right_or_wrong(settings: Any) -> None:
    settings.ACCOUNTS_LOGIN_RATE = "3/m"
    user = UserFactory.create(username="target")
    guesser = _client()
    for guess in ("a", "b", "c"):
        response = guesser.post(
            reverse("accounts:login"), {"username": "target", "password": guess}
        )
        assert response.status_code == 200  # the form again, with its error
    right = {"username": user.username, "password": DEFAULT_PASSWORD}
    refused = guesser.post(reverse("accounts:login"), right)
    assert refused.status_code == 429
    assert "_auth_user_id" not in guesser.session
    assert _client().post(reverse("accounts:login"), right).status_code == 302


def test_admin_login_is_throttled_too(settings: Any) -> None:
    settings.ACCOUNTS_LOGIN_RATE = "1/m"
    client = _client()
    data = {"username": "admin", "password": "nope"}
    assert client.post("/admin/login/", data).status_code == 200
    assert client.post("/admin/login/", data).status_code == 429


def test_the_throttled_page_is_translated(settings: Any) -> None:
    settings.ACCOUNTS_SIGNUP_RATE = "1/h"
    client = _client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    _signup(client, 100)
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    refused = _signup(client, 101)
    assert refused.status_code == 429
    with translation.override("vi"):
        expected = translation.gettext("Too many attempts")
    assert expected != "Too many attempts"
    assert expected in refused.content.decode()


def test_failed_logins_are_limited_per_account_whatever_the_address(
    settings: Any, clock: Any
) -> None:
    """Issue 24 item 12: 30 guesses from 30 addresses were all answered."""
    settings.ACCOUNTS_LOGIN_ACCOUNT_RATE = "3/15m"
    user = UserFactory.create(username="victim")
    for guess in ("a", "b", "c"):
        answer = _client().post(
            reverse("accounts:login"), {"username": "Victim", "password": guess}
        )
        assert answer.status_code == 200  # a wrong password: the form again
    right = {"username": user.username, "password": DEFAULT_PASSWORD}
    refused = _client().post(reverse("accounts:login"), right)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "300"  # one more try every 5 minutes
    assert "Too many failed log-ins for this account" in refused.content.decode()
    # the admin's log-in shares the count; another account is not affected
    assert _client().post("/admin/login/", right).status_code == 429
    UserFactory.create(username="bystander")
    other = {"username": "bystander", "password": DEFAULT_PASSWORD}
    assert _client().post(reverse("accounts:login"), other).status_code == 302
    # a short window: the owner gets in minutes later, and a success costs nothing
    clock.advance(300)
    owner = _client()
    assert owner.post(reverse("accounts:login"), right).status_code == 302
    assert "_auth_user_id" in owner.session
    assert _client().post(reverse("accounts:login"), right).status_code == 302


def test_the_account_limit_page_is_translated(settings: Any, clock: Any) -> None:
    settings.ACCOUNTS_LOGIN_ACCOUNT_RATE = "1/h"
    data = {"username": "nobody", "password": "x"}
    assert _client().post(reverse("accounts:login"), data).status_code == 200
    refused = _client().post(reverse("accounts:login") + "?lang=vi", data)
    assert refused.status_code == 429
    assert "Tài khoản này có quá nhiều lần đăng nhập sai" in refused.content.decode()
