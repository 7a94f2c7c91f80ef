from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from games.models import Action, ChatMessage, Game, Seat, Table, validate_table_options
from games.selectors import table_list_public
from games.services import table_create
from tests.factories import GameFactory, TableFactory

pytestmark = pytest.mark.django_db


def test_table_create_makes_seats_and_seats_the_owner(user: User) -> None:
    table = table_create(owner=user, name="Friday", options={"seats": 3})

    seats = list(table.seats.order_by("index"))
    assert [s.index for s in seats] == [0, 1, 2]
    assert seats[0].kind == Seat.Kind.HUMAN
    assert seats[0].user == user
    assert all(s.kind == Seat.Kind.EMPTY for s in seats[1:])
    assert len(table.code) >= 8
    assert str(table) == f"Friday ({table.code})"


@pytest.mark.parametrize(
    "options",
    [
        {"seats": 8},
        {"seats": 1},
        {"session_length": 20},
        {"mode": "blitz"},
        {"turn_seconds": 0},
        {"hide_hand_counts": "yes"},
        {"colour": "red"},
    ],
)
def test_bad_table_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        validate_table_options({"seats": 4, **options})


def test_seat_counts_are_each_games_own() -> None:
    validate_table_options({"seats": 7}, game="stud")
    validate_table_options({"seats": 7})  # no game: any game's range
    for game, seats in (("tienlen", 5), ("diu", 3), ("stud", 8)):
        with pytest.raises(ValidationError) as err:
            validate_table_options({"seats": seats}, game=game)
        assert "seats" in err.value.message_dict


def test_table_codes_are_unique(user: User) -> None:
    codes = {table_create(owner=user, name=f"T{n}").code for n in range(20)}
    assert len(codes) == 20


def test_seat_kind_must_match_its_occupant(user: User) -> None:
    table = TableFactory.create()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, index=0, kind=Seat.Kind.EMPTY, user=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, index=0, kind=Seat.Kind.BOT)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, index=7, kind=Seat.Kind.EMPTY)  # stud seats 0..6
    Seat.objects.create(table=table, index=6, kind=Seat.Kind.EMPTY)


def test_seat_index_is_unique_per_table() -> None:
    table = TableFactory.create()
    Seat.objects.create(table=table, index=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, index=0)


def test_action_seq_is_unique_per_game() -> None:
    game = GameFactory.create(status=Game.Status.RUNNING, ended_at=None)
    Action.objects.create(game=game, seq=1, seat=0, actor=Action.Actor.HUMAN, payload={"pass": 1})
    with pytest.raises(IntegrityError), transaction.atomic():
        Action.objects.create(game=game, seq=1, seat=1, actor=Action.Actor.BOT)


def test_running_game_cannot_have_ended() -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        GameFactory.create(status=Game.Status.RUNNING)


def test_lobby_chat_has_no_table_and_table_chat_has_one() -> None:
    ChatMessage.objects.create(room=ChatMessage.Room.LOBBY, text="hi all")
    ChatMessage.objects.create(room=ChatMessage.Room.TABLE, table=TableFactory.create(), text="gl")
    with pytest.raises(IntegrityError), transaction.atomic():
        ChatMessage.objects.create(room=ChatMessage.Room.TABLE, text="lost")


def test_public_list_hides_private_and_completed_tables() -> None:
    TableFactory.create(name="open")
    TableFactory.create(name="secret", visibility=Table.Visibility.PRIVATE)
    TableFactory.create(name="done", status=Table.Status.COMPLETED)
    assert [t.name for t in table_list_public()] == ["open"]
