"""Write-side operations of the bots app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from bots.models import Bot, BotVersion

if TYPE_CHECKING:
    from accounts.models import User


@transaction.atomic
def bot_create(*, owner: User, name: str, description: str = "", code: str | None = None) -> Bot:
    """Create a bot slot; with ``code``, also its first version."""
    bot = Bot(owner=owner, name=name, description=description)
    bot.full_clean()
    bot.save()
    if code is not None:
        botversion_create(bot=bot, code=code)
    return bot


@transaction.atomic
def bot_update(
    *,
    bot: Bot,
    name: str | None = None,
    description: str | None = None,
    code: str | None = None,
) -> Bot:
    """Rename or describe a bot; new ``code`` is saved as a new version, never an edit."""
    if name is not None:
        bot.name = name
    if description is not None:
        bot.description = description
    bot.full_clean()
    bot.save()
    if code is not None:
        botversion_create(bot=bot, code=code)
    return bot


@transaction.atomic
def botversion_create(*, bot: Bot, code: str) -> BotVersion:
    """Append the next numbered version; the bot row is locked so numbers never collide."""
    locked = Bot.objects.select_for_update().get(pk=bot.pk)
    latest = locked.versions.aggregate(n=Max("number"))["n"] or 0
    version = BotVersion.objects.create(bot=locked, number=latest + 1, code=code)
    Bot.objects.filter(pk=bot.pk).update(updated_at=timezone.now())
    return version
