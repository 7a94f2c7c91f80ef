from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from bots.selectors import bot_list
from bots.services import bot_create, bot_update, botversion_create

pytestmark = pytest.mark.django_db


def test_bot_create_with_code_makes_version_one(user: User) -> None:
    bot = bot_create(owner=user, name="Gecko", code="// v1")
    assert [(v.number, v.code) for v in bot.versions.all()] == [(1, "// v1")]


def test_new_code_appends_a_version_and_never_edits(user: User) -> None:
    bot = bot_create(owner=user, name="Gecko", code="// v1")
    bot_update(bot=bot, code="// v2")
    botversion_create(bot=bot, code="// v3")
    assert list(bot.versions.order_by("number").values_list("number", "code")) == [
        (1, "// v1"),
        (2, "// v2"),
        (3, "// v3"),
    ]
    assert bot_list(owner=user).get().latest_version == 3  # type: ignore[attr-defined]


def test_bot_names_are_unique_per_owner(user: User, other_user: User) -> None:
    bot_create(owner=user, name="Gecko")
    bot_create(owner=other_user, name="Gecko")
    with pytest.raises(ValidationError):
        bot_create(owner=user, name="Gecko")
