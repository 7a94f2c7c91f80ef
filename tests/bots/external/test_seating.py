"""Seating an external bot (issue 24 items 8 and 9, bots.seating): other users may seat an
open external bot only while its program is connected (``bot_offline``) and in at most 3 of its
4 games (``bot_share_full``: one is kept for its owner); nobody seats it past its limit of 4
(``bot_busy``), and that limit holds under concurrent requests (the bot's row is locked)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import User
from bots.external import presence
from bots.matches.services import MatchError, match_create, match_field_choices
from bots.models import Bot, BotVersion
from bots.selectors import arena_version_choices, bot_seat_choices
from games import services
from games.models import Seat, Table
from games.tournaments.models import Tournament
from games.tournaments.services import TournamentError, entry_add_bot
from tests.bots.external.helpers import bot_table, communicator, external_bot, receive
from tests.bots.live import new_user

SHARE_CODES = ("bot_offline", "bot_busy", "bot_share_full")


@pytest.fixture
def open_bot(db: None) -> Iterator[tuple[User, Bot, BotVersion]]:
    """Alice's external bot, open to others (``arena_open``); offline until a test connects
    it; its presence is cleared after the test."""
    alice = new_user("alice")
    bot, version, _token = external_bot(alice)
    bot.arena_open = True
    bot.save(update_fields=["arena_open"])
    yield alice, bot, version
    presence.client().delete(presence.online_key(bot.pk))


def online(bot: Bot) -> None:
    presence.connection_opened(bot_id=bot.pk, connection=f"test-{bot.pk}")


def _table_form(version: BotVersion) -> dict[str, str]:
    return {
        "name": "Friday",
        "game": "tienlen",
        "seats": "2",
        "seat_1": f"bot:{version.pk}",
        "visibility": "public",
        "session_length": "16",
        "turn_seconds": "30",
    }


def _api_match(user: User, version: BotVersion, seed: int = 1) -> Any:
    api = APIClient()
    api.force_authenticate(user)
    return api.post(
        "/api/matches/",
        {
            "game": "tienlen",
            "entrants": [
                {"kind": "version", "version_id": version.pk},
                {"kind": "house", "level": "easy"},
            ],
            "deals": 1,
            "seed": seed,
        },
        format="json",
    )


# --------------------------------------------------------------------------- offline


@pytest.mark.django_db
def test_others_cannot_seat_an_offline_external_bot_anywhere(
    open_bot: tuple[User, Bot, BotVersion], client: Client
) -> None:
    _alice, _bot, version = open_bot
    bob = new_user("bob")
    # the pickers do not offer it
    assert f"bot:{version.pk}" not in dict(bot_seat_choices(bob, game="tienlen"))
    assert str(version.pk) not in dict(arena_version_choices(bob))
    assert f"version:{version.pk}" not in {
        c.value for c in match_field_choices(user=bob, game="tienlen")
    }
    # tables/new with a bot seat
    client.force_login(bob)
    response = client.post(reverse("tables:create"), _table_form(version))
    assert response.status_code == 200
    assert "is offline: its program is not connected" in response.content.decode()
    assert not Table.objects.exists()
    # an arena (the service and the Bot Arena page)
    with pytest.raises(ValidationError) as refused:
        services.table_create_arena(
            owner=bob, bot_version_ids=[version.pk], house_levels=["easy"], start=False
        )
    assert refused.value.code == "bot_offline"
    page = client.post(
        reverse("bots:arena"),
        {"bots": [str(version.pk)], "house": ["easy"], "session_length": "16", "name": ""},
    )
    assert page.status_code == 200
    assert "is offline: its program is not connected" in page.content.decode()
    assert not Table.objects.exists()
    # the table's add_bot
    table = services.table_create(owner=bob, name="Free seat", options={"seats": 2})
    with pytest.raises(services.TableError) as err:
        services.seat_add_bot(table_id=table.pk, user=bob, seat=1, bot_version_id=version.pk)
    assert err.value.code == "bot_offline"
    assert Seat.objects.get(table=table, index=1).kind == Seat.Kind.EMPTY
    # a Bot Lab match, by the service and by the REST API
    with pytest.raises(MatchError) as info:
        match_create(
            owner=bob, game="tienlen", entrants=[f"version:{version.pk}", "house:easy"], deals=1
        )
    assert info.value.code == "bot_offline"
    answer = _api_match(bob, version)
    assert answer.status_code == 409
    assert answer.json()["code"] == "bot_offline"
    # a tournament takes only the entrant's own bots
    cup = Tournament.objects.create(
        creator=bob, name="Cup", game="tienlen", start_at="2030-01-01T00:00:00Z"
    )
    with pytest.raises(TournamentError) as entry:
        entry_add_bot(tournament_id=cup.pk, user=bob, bot_version_id=version.pk)
    assert entry.value.code == "unknown_bot"
    assert not cup.entries.exists()


@pytest.mark.django_db
def test_the_owner_seats_their_own_offline_bot_and_others_once_it_connects(
    open_bot: tuple[User, Bot, BotVersion],
) -> None:
    alice, bot, version = open_bot
    bot_table(alice, version, start=False)  # its owner: offline or not
    bob = new_user("bob")
    online(bot)
    table = services.table_create_arena(
        owner=bob, bot_version_ids=[version.pk], house_levels=["easy"], start=False
    )
    assert Seat.objects.get(table=table, index=0).bot_version_id == version.pk


@pytest.mark.django_db
def test_presence_lapses_without_life_and_ends_when_closed(
    open_bot: tuple[User, Bot, BotVersion], clock: Any
) -> None:
    _alice, bot, _version = open_bot
    assert not presence.bot_online(bot_id=bot.pk)
    presence.connection_opened(bot_id=bot.pk, connection="a")
    assert presence.bot_online(bot_id=bot.pk)
    clock.advance(presence.PRESENCE_SECONDS - 1)
    presence.connection_alive(bot_id=bot.pk, connection="a")  # renewed
    clock.advance(presence.PRESENCE_SECONDS - 1)
    assert presence.bot_online(bot_id=bot.pk)
    clock.advance(2)  # its process died: no more life
    assert not presence.bot_online(bot_id=bot.pk)
    presence.connection_opened(bot_id=bot.pk, connection="b")
    presence.connection_closed(bot_id=bot.pk, connection="b")
    assert not presence.bot_online(bot_id=bot.pk)
    assert presence.bots_online([bot.pk]) == set()


@pytest.mark.django_db(transaction=True)
async def test_an_open_socket_makes_the_bot_online() -> None:
    alice = await database_sync_to_async(new_user)("eve")
    bot, _, token = await database_sync_to_async(external_bot)(alice)
    comm = communicator(token)
    assert (await comm.connect())[0]
    assert (await receive(comm))["type"] == "hello"
    assert presence.bot_online(bot_id=bot.pk)
    await comm.disconnect()
    assert not presence.bot_online(bot_id=bot.pk)


# --------------------------------------------------------------------------- the owner's share


@pytest.mark.django_db
def test_others_take_at_most_three_of_four_games_one_stays_the_owners(
    open_bot: tuple[User, Bot, BotVersion], settings: Any
) -> None:
    """The issue's case: another user filled all 4 games (2 matches, 2 arenas) and its owner
    was locked out of their own bot."""
    settings.BOTS_EXTERNAL_MAX_GAMES = 4
    settings.BOTS_MATCHES_PER_USER = 10
    alice, bot, version = open_bot
    bob = new_user("bob")
    online(bot)
    entrants = [f"version:{version.pk}", "house:easy"]
    match_create(owner=bob, game="tienlen", entrants=entrants, deals=1, seed=1)
    match_create(owner=bob, game="tienlen", entrants=entrants, deals=1, seed=2)
    services.table_create_arena(
        owner=bob, bot_version_ids=[version.pk], house_levels=["easy"], start=False
    )
    with pytest.raises(ValidationError) as refused:  # the 4th: kept for its owner
        services.table_create_arena(
            owner=bob, bot_version_ids=[version.pk], house_levels=["easy"], start=False
        )
    assert refused.value.code == "bot_share_full"
    assert "1 of its 4 are kept for its owner" in refused.value.messages[0]
    answer = _api_match(bob, version, seed=3)
    assert (answer.status_code, answer.json()["code"]) == (409, "bot_share_full")
    assert Table.objects.filter(owner=bob).count() == 1
    # its owner still seats it
    mine = bot_table(alice, version, start=False)
    assert Seat.objects.get(table=mine, index=0).bot_version_id == version.pk
    # ...and now it plays its 4 games: nobody seats it again, saying it is the limit
    with pytest.raises(ValidationError) as busy:
        bot_table(alice, version, start=False)
    assert busy.value.code == "bot_busy"
    assert "already plays 4 games, the most at once" in busy.value.messages[0]


@pytest.mark.django_db
def test_the_share_follows_the_setting(
    open_bot: tuple[User, Bot, BotVersion], settings: Any
) -> None:
    settings.BOTS_EXTERNAL_MAX_GAMES = 4
    settings.BOTS_EXTERNAL_OWNER_RESERVED = 2
    _alice, bot, version = open_bot
    bob = new_user("bob")
    online(bot)
    for _ in range(2):
        services.table_create_arena(
            owner=bob, bot_version_ids=[version.pk], house_levels=["easy"], start=False
        )
    table = services.table_create(owner=bob, name="Free seat", options={"seats": 2})
    with pytest.raises(services.TableError) as err:
        services.seat_add_bot(table_id=table.pk, user=bob, seat=1, bot_version_id=version.pk)
    assert err.value.code == "bot_share_full"


# --------------------------------------------------------------------------- the limit races


@pytest.mark.django_db(transaction=True)
def test_simultaneous_create_table_requests_seat_exactly_the_limit(settings: Any) -> None:
    """Issue 24 item 9: 10 simultaneous ``POST /tables/new/`` once seated one external version
    at 9 tables. Counted under the bot row's lock, exactly 4 (the limit) are seated; the others
    are told it is the limit."""
    settings.BOTS_EXTERNAL_MAX_GAMES = 4
    owner = new_user("hal")
    _bot, version, _ = external_bot(owner)
    requests = 10
    clients = []
    for _ in range(requests):
        c = Client()
        c.force_login(owner)
        clients.append(c)
    start = threading.Barrier(requests)
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()

    def post(c: Client) -> None:
        try:
            start.wait()
            response = c.post(reverse("tables:create"), _table_form(version))
            with lock:
                answers.append((response.status_code, response.content.decode()))
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == requests
    assert sum(1 for status, _ in answers if status == 302) == 4
    refused = [body for status, body in answers if status != 302]
    assert len(refused) == requests - 4
    assert all("already plays 4 games, the most at once" in body for body in refused)
    assert all("is not ready" not in body for body in refused)
    seated = Seat.objects.filter(kind=Seat.Kind.BOT, bot_version=version)
    assert seated.values("table").distinct().count() == 4


@pytest.mark.django_db
def test_the_refusals_speak_vietnamese(
    open_bot: tuple[User, Bot, BotVersion], settings: Any
) -> None:
    alice, _bot, version = open_bot
    bob = new_user("bob")
    settings.BOTS_EXTERNAL_MAX_GAMES = 1
    with translation.override("vi"):
        with pytest.raises(ValidationError) as offline:
            services.table_create_arena(
                owner=bob, bot_version_ids=[version.pk], house_levels=["easy"], start=False
            )
        bot_table(alice, version, start=False)
        with pytest.raises(ValidationError) as busy:
            bot_table(alice, version, start=False)
    assert offline.value.code == "bot_offline"
    assert "đang ngoại tuyến" in offline.value.messages[0]
    assert busy.value.code == "bot_busy"
    assert "đang chơi 1 ván, tối đa cùng lúc" in busy.value.messages[0]
