"""Issue 24 item 7: one user added 120 expert house AIs to a tournament in 4 s and started it,
and house-AI moves at another person's table went from 0.85 s to 2.88 s. Entrants per
tournament are capped, and so are the house AIs (and expert house AIs) one user may add; a
tournament table's server turns go to ``bots.tournament`` (a worker of its own at a lower CPU
priority), never to the shards of people's tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from config.settings import base
from games import realtime
from games.models import Game, Table
from games.tournaments import services
from games.tournaments.models import Entry
from tests.factories import UserFactory
from tests.games.tournaments.conftest import make_tournament
from tests.scheduler import SCHEDULER, FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)


def _code(call: Any) -> str:
    with pytest.raises(services.TournamentError) as err:
        call()
    return err.value.code


def test_the_limits_and_their_documented_numbers() -> None:
    assert base.TOURNAMENTS_MAX_ENTRANTS == 64
    assert base.TOURNAMENTS_HOUSE_PER_USER == 16
    assert base.TOURNAMENTS_EXPERT_PER_USER == 4
    assert (services.max_entrants(), services.house_per_user(), services.expert_per_user()) == (
        64,
        16,
        4,
    )


def test_a_full_tournament_takes_no_more_entrants_of_any_kind(
    clock: FrozenClock, settings: Any
) -> None:
    settings.TOURNAMENTS_MAX_ENTRANTS = 3
    t, _ = make_tournament(people=2, house=1, start_in=600)
    assert _code(lambda: services.entry_join(tournament_id=t.pk, user=UserFactory.create())) == (
        "tournament_full"
    )
    assert (
        _code(lambda: services.entry_add_house(tournament_id=t.pk, user=t.creator, level="easy"))
        == "tournament_full"
    )
    assert Entry.objects.filter(tournament=t).count() == 3


def test_house_ais_and_experts_per_user_across_their_tournaments(
    clock: FrozenClock, settings: Any
) -> None:
    settings.TOURNAMENTS_HOUSE_PER_USER = 3
    settings.TOURNAMENTS_EXPERT_PER_USER = 1
    creator = UserFactory.create()
    first, _ = make_tournament(creator=creator, start_in=600)
    second, _ = make_tournament(creator=creator, start_in=600)
    services.entry_add_house(tournament_id=first.pk, user=creator, level="expert")
    assert (
        _code(
            lambda: services.entry_add_house(tournament_id=second.pk, user=creator, level="expert")
        )
        == "expert_limit"
    )
    services.entry_add_house(tournament_id=second.pk, user=creator, level="hard")
    services.entry_add_house(tournament_id=second.pk, user=creator, level="medium")
    assert (
        _code(lambda: services.entry_add_house(tournament_id=first.pk, user=creator, level="easy"))
        == "house_limit"
    )
    assert Entry.objects.filter(kind=Entry.Kind.HOUSE).count() == 3
    # another user's allowance is their own
    other_t, _ = make_tournament(start_in=600)
    services.entry_add_house(tournament_id=other_t.pk, user=other_t.creator, level="expert")
    # a tournament that is over no longer counts
    second.status = second.Status.CANCELLED
    second.save(update_fields=["status"])
    services.entry_add_house(tournament_id=first.pk, user=creator, level="easy")


def test_the_form_shows_the_limits_error_in_both_languages(
    clock: FrozenClock, settings: Any
) -> None:
    settings.TOURNAMENTS_EXPERT_PER_USER = 0
    t, _ = make_tournament(start_in=600)
    client = Client()
    client.force_login(t.creator)
    url = f"/tournaments/{t.pk}/house/"
    page = client.post(url, {"level": "expert"}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert b"You already have 0 expert house AIs" in page.content
    client.cookies["django_language"] = "vi"
    page = client.post(url, {"level": "expert"}, HTTP_ACCEPT_LANGUAGE="vi", follow=True)
    assert "Bạn đã có 0 AI nhà cấp chuyên gia".encode() in page.content
    assert not Entry.objects.filter(tournament=t).exists()
    settings.TOURNAMENTS_MAX_ENTRANTS = 2
    services.entry_add_house(tournament_id=t.pk, user=t.creator, level="easy")
    services.entry_add_house(tournament_id=t.pk, user=t.creator, level="easy")
    page = client.post(url, {"level": "easy"}, HTTP_ACCEPT_LANGUAGE="vi", follow=True)
    assert "Giải đã đủ người: tối đa 2 người tham gia.".encode() in page.content


def test_a_tournament_tables_server_turns_go_to_the_tournament_queue(
    clock: FrozenClock, settings: Any
) -> None:
    """Every house-AI turn of a tournament table waits in the scheduler with its queue:
    ``bots.tournament``, whatever the game's id (people's tables: ``bots.<id mod N>``)."""
    settings.BOTS_QUEUE_SHARDS = 4
    settings.GAMES_BOT_DELAY_SECONDS = 0.5
    SCHEDULER.take()
    make_tournament(house=4)
    services.tournaments_tick()
    queues: list[str] = []
    for _ in range(40):
        clock.advance(1)
        pending = SCHEDULER.take("games.seat_autoplay")
        queues += [queue for _, _, _, queue in pending]
        for _, name, args, _ in pending:
            realtime.schedule(name, args, delay=0)
        SCHEDULER.run_due()
        if len(queues) >= 10:
            break
    assert len(queues) >= 10
    assert set(queues) == {"bots.tournament"}
    game = Game.objects.get(table__in=Table.objects.all())
    assert realtime.bot_queue(game.pk) == f"bots.{game.pk % 4}"
    SCHEDULER.take()


def test_a_turn_task_sends_what_it_does_not_play_back_to_the_queue_it_came_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's ``seat_autoplay`` reads its queue from the message (no query on the hot
    path); without one (the tests' scheduler) the service reads it from the table."""
    from games import services as table_services
    from games import tasks

    seen: list[Any] = []

    def record(**kw: Any) -> bool:
        seen.append(kw["queue"])
        return True

    monkeypatch.setattr(table_services, "game_autoplay_turns", record)
    task: Any = tasks.seat_autoplay
    task.push_request(delivery_info={"routing_key": "bots.tournament"})
    try:
        task.run(7, 3)
    finally:
        task.pop_request()
    tasks.seat_autoplay.run(7, 3)
    assert seen == ["bots.tournament", None]
    assert realtime.is_bot_queue("bots.tournament")
    assert not realtime.is_bot_queue("default")
    assert not realtime.is_bot_queue(None)
