"""The demo data (``manage.py seed_demo``) promotes an example bot of every game that has
example bots, so a fresh site's ladder holds more than the house anchors (issue 28)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from bots.examples import all_examples
from bots.ladder import services
from bots.ladder.services import Ladder
from bots.models import Bot, BotVersion, LadderEntrant

pytestmark = pytest.mark.django_db(transaction=True)


def test_seed_demo_promotes_a_ready_example_bot_of_every_game(settings: Any) -> None:
    settings.DEBUG = True
    settings.HOUSE_AI_BUDGET_MS = 20.0
    call_command("seed_demo")
    games_with_bots = {e.game for e in all_examples()}
    promoted = Bot.objects.filter(
        owner__username__in=("lan", "minh"),
        promoted_version__status=BotVersion.Status.READY,
    )
    assert {bot.game for bot in promoted} == games_with_bots

    services.ladder_sync(Ladder("tienlen", 4))
    entrants = LadderEntrant.objects.filter(game="tienlen", seats=4)
    bots_on = entrants.filter(house_level="")
    assert list(bots_on.values_list("bot__name", flat=True)) == ["Greedy Gecko"]
    assert bots_on.get().state == LadderEntrant.State.PLACING
    assert entrants.exclude(house_level="").count() >= 1  # and the house anchors

    # a second run is idempotent: no new bots, no new versions, the promotions kept
    bots, versions = Bot.objects.count(), BotVersion.objects.count()
    call_command("seed_demo")
    assert (Bot.objects.count(), BotVersion.objects.count()) == (bots, versions)
    assert {bot.game for bot in promoted.all()} == games_with_bots
