"""External bots enter tournaments like any bot version, are seated at the round's table and
are rated (issue #17). The bot seat is played through the bot-player extension point (the test
process's stand-in, tests/conftest.py); tests/bots/external/test_live_site.py shows the same
seat answered by a real external program at an arena."""

from __future__ import annotations

import pytest

from bots.models import BotRatingEvent
from games.tournaments import services
from games.tournaments.models import Entry, Round, RoundTable
from tests.bots.external.helpers import external_bot
from tests.factories import UserFactory
from tests.games.tournaments.conftest import make_tournament
from tests.scheduler import FrozenClock, TestScheduler

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_external_bot_enters_a_tournament_is_seated_and_rated(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    ext_owner, js_owner = UserFactory.create(), UserFactory.create()
    _, ext_version, _ = external_bot(ext_owner)
    _, other_version, _ = external_bot(js_owner)
    t, _ = make_tournament(house=2, rounds=1, creator=ext_owner)
    services.entry_add_bot(tournament_id=t.pk, user=ext_owner, bot_version_id=ext_version.pk)
    services.entry_add_bot(tournament_id=t.pk, user=js_owner, bot_version_id=other_version.pk)
    assert t.entries.filter(kind=Entry.Kind.BOT).count() == 2

    services.tournaments_tick()
    table = RoundTable.objects.get().table
    seated = set(table.seats.filter(kind="bot").values_list("bot_version_id", flat=True))
    assert seated == {ext_version.pk, other_version.pk}

    for _ in range(400):
        if Round.objects.filter(tournament=t, status="finished").exists():
            break
        clock.advance(31)
        scheduler.run_due()
        services.tournaments_tick()
    else:
        raise AssertionError("the round did not finish")
    rated = set(BotRatingEvent.objects.values_list("version_id", flat=True))
    assert rated == {ext_version.pk, other_version.pk}
