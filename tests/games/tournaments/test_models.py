"""Tournament rows' own rules: an entry's kind matches its occupant, the rule a table's seat
follows too (both from ``games.models.Occupant``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import Occupant, Seat
from games.tournaments.models import Entry
from tests.factories import BotVersionFactory, UserFactory
from tests.games.tournaments.conftest import make_tournament

pytestmark = pytest.mark.django_db


def test_entry_kind_must_match_its_occupant() -> None:
    t, _ = make_tournament(start_in=600)
    user = UserFactory.create()
    version = BotVersionFactory.create()
    wrong: list[dict[str, Any]] = [
        {"kind": Entry.Kind.HUMAN, "house_level": "easy"},
        {"kind": Entry.Kind.HUMAN, "bot_version": version},
        {"kind": Entry.Kind.HOUSE},
        {"kind": Entry.Kind.HOUSE, "house_level": "easy", "bot_version": version},
        {"kind": Entry.Kind.BOT},
        {"kind": Entry.Kind.BOT, "bot_version": version, "house_level": "easy"},
    ]
    for fields in wrong:
        entry = Entry(tournament=t, user=user, **fields)
        with pytest.raises(ValidationError):  # the model's validation (forms, the admin)
            entry.full_clean()
        with pytest.raises(IntegrityError), transaction.atomic():  # and the database
            entry.save()
    assert not Entry.objects.exists()
    right: list[dict[str, Any]] = [
        {"kind": Entry.Kind.HUMAN},
        {"kind": Entry.Kind.HOUSE, "house_level": "easy"},
        {"kind": Entry.Kind.BOT, "bot_version": version},
    ]
    for fields in right:
        entry = Entry(tournament=t, user=user, **fields)
        entry.full_clean()
        entry.save()
    assert Entry.objects.count() == 3


def test_seats_and_entries_share_the_occupant_rule() -> None:
    # the same rule for the kinds both have; only a seat may be empty
    assert issubclass(Seat, Occupant)
    assert issubclass(Entry, Occupant)
    assert set(Occupant.OCCUPANT_RULES) == set(Seat.Kind.values)
    assert set(Entry.Kind.values) == set(Seat.Kind.values) - {Seat.Kind.EMPTY}
