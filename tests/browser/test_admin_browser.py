"""The admin for bot owners in a real Chromium: a signed-up user (not staff) opens /admin/, sees
their own bot and not another user's, and edits their bot's description."""

from __future__ import annotations

from typing import Any

import pytest

from bots.models import Bot
from tests.browser.helpers import log_in
from tests.factories import BotFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_signed_up_user_edits_their_bot_in_the_admin(live_server: Any, page: Any) -> None:
    base = live_server.url
    owner = UserFactory.create(username="slotowner")
    stranger = UserFactory.create(username="stranger")
    mine = BotFactory.create(owner=owner, name="Owner Bot", description="old words")
    BotFactory.create(owner=stranger, name="Stranger Bot", description="hidden")
    log_in(page, base, owner)

    page.goto(base + "/admin/")
    assert "not authorized" not in page.content()
    # the index lists Bots and Bot versions only
    assert page.locator("tr[class^='model-']").count() == 2
    page.locator("tr.model-bot").get_by_role("link", name="Bots", exact=True).click()
    page.wait_for_url("**/admin/bots/bot/")
    results = page.locator("#result_list")
    assert results.get_by_role("link", name="Owner Bot").count() == 1
    assert "Stranger Bot" not in page.content()
    assert "stranger" not in page.locator("#changelist").inner_text()

    results.get_by_role("link", name="Owner Bot").click()
    page.wait_for_url(f"**/admin/bots/bot/{mine.pk}/change/")
    page.get_by_label("Description").fill("new words from the admin")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url("**/admin/bots/bot/")
    assert page.locator(".messagelist .success").count() == 1

    mine.refresh_from_db()
    assert mine.description == "new words from the admin"
    assert mine.owner == owner
    assert Bot.objects.get(name="Stranger Bot").description == "hidden"
