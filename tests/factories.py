"""factory_boy factories for the Django models."""

from __future__ import annotations

import factory
from django.utils import timezone

from accounts.models import User
from bots.models import Bot, BotVersion
from games.models import Game, Seat, Table

DEFAULT_PASSWORD = "correct-horse-battery-staple"


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.django.Password(DEFAULT_PASSWORD)


class BotFactory(factory.django.DjangoModelFactory[Bot]):
    class Meta:
        model = Bot

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Bot {n}")
    description = "A test bot."


class BotVersionFactory(factory.django.DjangoModelFactory[BotVersion]):
    class Meta:
        model = BotVersion

    bot = factory.SubFactory(BotFactory)
    number = factory.Sequence(lambda n: n + 1)
    code = "function play(state) { return { action: 'pass' }; }"


class TableFactory(factory.django.DjangoModelFactory[Table]):
    class Meta:
        model = Table

    owner = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Table {n}")


class SeatFactory(factory.django.DjangoModelFactory[Seat]):
    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    index = 0
    kind = Seat.Kind.HUMAN
    user = factory.SubFactory(UserFactory)


class GameFactory(factory.django.DjangoModelFactory[Game]):
    class Meta:
        model = Game

    table = factory.SubFactory(TableFactory)
    number = 1
    engine = "tienlen"
    seed = 42
    status = Game.Status.FINISHED
    ended_at = factory.LazyFunction(timezone.now)
