from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from bots.models import Bot, BotVersion
from bots.selectors import (
    bot_list,
    bot_seat_choices,
    botversion_list,
    botversion_ready_list,
    botversion_results,
)
from bots.services import (
    bot_create,
    bot_delete,
    bot_update,
    botversion_create,
    botversion_rollback,
)
from games.models import Game, Seat
from tests.factories import (
    BotFactory,
    BotVersionFactory,
    GameFactory,
    SeatFactory,
    TableFactory,
)

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


# --------------------------------------------------------------------------- versions


def test_rollback_adds_a_version_with_the_old_code(user: User) -> None:
    bot = bot_create(owner=user, name="Roller", code="// v1")
    bot_update(bot=bot, code="// v2")
    new = botversion_rollback(bot=bot, number=1)
    assert new.number == 3
    assert new.code == "// v1"
    assert new.status == BotVersion.Status.PENDING
    assert list(botversion_list(bot=bot).values_list("number", flat=True)) == [3, 2, 1]
    assert BotVersion.objects.get(bot=bot, number=1).code == "// v1"  # history untouched
    with pytest.raises(BotVersion.DoesNotExist):
        botversion_rollback(bot=bot, number=9)


def test_bot_list_carries_the_latest_status(user: User) -> None:
    bot = bot_create(owner=user, name="Status", code="// v1")
    BotVersion.objects.filter(bot=bot).update(status=BotVersion.Status.NOT_READY)
    botversion_create(bot=bot, code="// v2")
    row = bot_list(owner=user).get()
    assert row.latest_version == 2  # type: ignore[attr-defined]
    assert row.latest_status == "pending"  # type: ignore[attr-defined]


def test_compare_counts_validation_and_real_games(user: User, other_user: User) -> None:
    bot = bot_create(owner=user, name="Cmp", code="// v1")
    v1 = bot.versions.get(number=1)
    v2 = botversion_create(bot=bot, code="// v2")
    BotVersion.objects.filter(pk=v1.pk).update(
        status=BotVersion.Status.READY,
        validation={"ready": True, "moves": 40, "avg_ms": 1.5, "records": [{"n": 1}]},
    )
    # v1 sat at seat 1 of a table that finished two games (won one) and has one running.
    table = TableFactory.create(owner=other_user)
    SeatFactory.create(table=table, index=0, user=other_user)
    SeatFactory.create(table=table, index=1, kind=Seat.Kind.BOT, user=None, bot_version=v1)
    GameFactory.create(table=table, number=1, winner_seat=1, scores=[-3, 3])
    GameFactory.create(table=table, number=2, winner_seat=0, scores=[5, -5])
    GameFactory.create(
        table=table, number=3, status=Game.Status.RUNNING, ended_at=None, scores=[0, 0]
    )
    # Another user's bot at another table does not count.
    foreign = BotVersionFactory.create(bot=BotFactory.create(owner=other_user), number=1)
    other = TableFactory.create(owner=other_user)
    SeatFactory.create(table=other, index=0, kind=Seat.Kind.BOT, user=None, bot_version=foreign)
    GameFactory.create(table=other, number=1, winner_seat=0, scores=[9, -9])

    results = botversion_results(bot=bot, numbers=[1, 2, 7])
    assert [r.number for r in results] == [1, 2]
    first, second = results
    assert (first.games, first.wins, first.points) == (2, 1, -2)
    assert first.average_points == -1.0
    assert first.win_rate == 0.5
    assert first.status == "ready"
    assert "records" not in first.to_json()["validation"]
    assert first.to_json()["validation"]["avg_ms"] == 1.5
    assert (second.games, second.wins, second.average_points) == (0, 0, None)
    assert second.number == v2.number


def test_compare_takes_two_queries(user: User, django_assert_num_queries: object) -> None:
    bot = bot_create(owner=user, name="Q", code="// v1")
    botversion_create(bot=bot, code="// v2")
    with django_assert_num_queries(2):  # type: ignore[operator]
        botversion_results(bot=bot, numbers=[1, 2])


def test_delete_a_bot_unless_it_was_seated(user: User) -> None:
    bot = bot_create(owner=user, name="Gone", code="// v1")
    bot_delete(bot=bot)
    assert not Bot.objects.filter(name="Gone").exists()

    kept = bot_create(owner=user, name="Kept", code="// v1")
    SeatFactory.create(kind=Seat.Kind.BOT, user=None, bot_version=kept.versions.get())
    with pytest.raises(ValidationError):
        bot_delete(bot=kept)
    assert Bot.objects.filter(name="Kept").exists()


def test_ready_versions_for_seating(user: User, other_user: User) -> None:
    bot = bot_create(owner=user, name="Seatable", code="// v1")
    botversion_create(bot=bot, code="// v2")
    BotVersion.objects.filter(bot=bot, number=2).update(status=BotVersion.Status.READY)
    bot_create(owner=other_user, name="Theirs", code="// v1")
    BotVersion.objects.filter(bot__owner=other_user).update(status=BotVersion.Status.READY)
    assert [(v.bot.name, v.number) for v in botversion_ready_list(owner=user)] == [("Seatable", 2)]
    assert bot_seat_choices(user) == [(f"bot:{bot.versions.get(number=2).pk}", "Seatable v2")]
