"""A newcomer signs up in a real Chromium and lands on their profile page."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_and_reach_profile(live_server: Any, page: Any) -> None:
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").click()
    page.wait_for_url("**/accounts/signup/")

    page.get_by_label("Username").fill("browser_bao")
    page.get_by_label("Email").fill("bao@example.com")
    page.get_by_label("Display name").fill("Bảo")
    page.get_by_label("Password", exact=True).fill("tr1cky-Lantern-42")
    page.get_by_label("Password confirmation").fill("tr1cky-Lantern-42")
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_url("**/accounts/profile/")
    assert page.get_by_role("heading", level=1).inner_text() == "Bảo"
    assert page.get_by_text("Welcome, Bảo!").is_visible()
    assert page.get_by_role("heading", name="My bots").is_visible()
    assert User.objects.filter(username="browser_bao").exists()


def test_duplicate_username_shows_the_error_in_the_page(live_server: Any, page: Any) -> None:
    User.objects.create_user("taken", "taken@example.com", "tr1cky-Lantern-42")
    page.goto(live_server.url + "/accounts/signup/")
    page.get_by_label("Username").fill("taken")
    page.get_by_label("Email").fill("other@example.com")
    page.get_by_label("Password", exact=True).fill("tr1cky-Lantern-42")
    page.get_by_label("Password confirmation").fill("tr1cky-Lantern-42")
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_load_state()
    assert page.get_by_text("A user with that username already exists.").is_visible()
    assert "/accounts/signup/" in page.url
