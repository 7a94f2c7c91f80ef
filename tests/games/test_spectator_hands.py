"""Watching with hands shown (issue #29): the ``spectator_hands`` table option, a spectator's
``show_hands`` over a real socket, and rated tables, which never show the hands live but one
game behind (a finished game whose deal is over everywhere). docs/protocol.md "Watching with
hands shown"."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation

from games import deals, services
from games.models import Game, Table, is_rated, validate_table_options
from games.services import TableError
from tests.factories import UserFactory
from tests.games.live import pending_seat, seat_users, started_table, state_of
from tests.games.test_consumers_live import card_strings
from tests.games.test_deal_secrecy import ALL_CARDS, ENGINE, _round_tables
from tests.scheduler import FrozenClock, TestScheduler
from tests.ws import Conn, cookie_for, db, is_type, table_path

pytestmark = pytest.mark.django_db(transaction=True)


def _hands(game: Game) -> list[list[str]]:
    state = state_of(game)
    return [list(ENGINE.view(state, s)["hand"]) for s in range(4)]


def _move(table: Table, game: Game) -> None:
    """The pending seat plays its first legal move (a pass when it may only pass)."""
    game.refresh_from_db()
    seat = pending_seat(game)
    legal = ENGINE.legal_actions(state_of(game), seat)
    play = next((a for a in legal if a.get("type") == "play"), legal[0])
    services.game_play(
        table_id=table.pk,
        user=seat_users(table)[seat],
        version=game.version,
        action={k: v for k, v in play.items() if k != "seat"},
    )


# --------------------------------------------------------------------------- the option
def test_the_option_is_validated_everywhere(client: Client) -> None:
    owner = UserFactory.create()
    with pytest.raises(ValidationError) as err:
        services.table_create(owner=owner, name="T", options={"spectator_hands": "always"})
    assert "spectator_hands" in err.value.message_dict
    for bad in ("always", 1, True, None, ["live"]):
        with pytest.raises(ValidationError):
            validate_table_options({"spectator_hands": bad}, game="tienlen")
    with translation.override("en"), pytest.raises(ValidationError) as rated:
        validate_table_options({"mode": "tournament", "spectator_hands": "live"}, game="tienlen")
    assert "one game behind" in " ".join(rated.value.message_dict["spectator_hands"])
    validate_table_options({"spectator_hands": "never"}, game="tienlen")
    validate_table_options({"spectator_hands": "live"}, game="tienlen")
    assert Table.objects.count() == 0

    # the host's setting in the lobby: a clear code, nothing changed
    table = services.table_create(owner=owner, name="T")
    assert "spectator_hands" not in table.options  # never, by default
    with pytest.raises(TableError) as bad_value:
        services.table_set_option(
            table_id=table.pk, user=owner, name="spectator_hands", value="always"
        )
    assert bad_value.value.code == "bad_spectator_hands"
    table.refresh_from_db()
    assert "spectator_hands" not in table.options
    services.table_set_option(table_id=table.pk, user=owner, name="spectator_hands", value="live")
    table.refresh_from_db()
    assert table.options["spectator_hands"] == "live"
    Table.objects.filter(pk=table.pk).update(
        options={**table.options, "spectator_hands": "never", "mode": "tournament"}
    )
    table.refresh_from_db()
    assert is_rated(table)
    with pytest.raises(TableError) as rated_err:
        services.table_set_option(
            table_id=table.pk, user=owner, name="spectator_hands", value="live"
        )
    assert rated_err.value.code == "spectator_hands_rated"

    # the Create Table form, in Vietnamese: an unknown choice is refused, nothing is created
    client.force_login(owner)
    client.cookies["django_language"] = "vi"
    before = Table.objects.count()
    page = client.post(
        "/tables/new/",
        {
            "name": "Xem bài",
            "game": "tienlen",
            "seats": 4,
            "visibility": "public",
            "session_length": 16,
            "turn_seconds": 30,
            "spectator_hands": "always",
        },
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    assert page.status_code == 200
    assert Table.objects.count() == before
    assert "Người xem được thấy bài của mọi người" in page.content.decode()
    made = client.post(
        "/tables/new/",
        {
            "name": "Học",
            "game": "tienlen",
            "seats": 4,
            "visibility": "public",
            "session_length": 16,
            "turn_seconds": 30,
            "seat_1": "open",
            "seat_2": "open",
            "seat_3": "open",
            "spectator_hands": "live",
        },
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Table.objects.get(name="Học").options["spectator_hands"] == "live"


# --------------------------------------------------------------------------- casual tables
async def test_casual_table_live_spectator_who_asks_gets_every_hand() -> None:
    table, users, game = await db(lambda: started_table(spectator_hands="live"))
    watcher = Conn(table_path(table.code))
    plain = Conn(table_path(table.code))  # a spectator who did not ask
    await watcher.open()
    await plain.open()
    await watcher.send({"type": "show_hands", "on": True})
    answer = await watcher.until(is_type("show_hands"))
    assert answer["mode"] == "live"
    assert answer["hands"]["hands"] == await db(lambda: _hands(game))
    await db(lambda: _move(table, game))
    update = await watcher.until(is_type("all_hands", version=1))
    assert update["hands"] == await db(lambda: _hands(game))
    await plain.until(is_type("game_state_update", version=1))
    await plain.drain()
    assert not plain.of_type("all_hands")
    # the plain spectator's view is the one of today: no hand
    for frame in plain.frames:
        if frame["type"] in ("game_started", "game_state_update", "snapshot"):
            view = frame.get("state") or (frame.get("game") or {}).get("state") or {}
            assert not view.get("hand")
            assert not view.get("hands")
    # a seat may not ask, and turning it off stops the frames
    seated = Conn(table_path(table.code), await cookie_for(users[1]))
    await seated.open()
    refused = await seated.error({"type": "show_hands", "on": True})
    assert refused["code"] == "not_spectator"
    await watcher.send({"type": "show_hands", "on": False})
    assert (await watcher.until(is_type("show_hands")))["on"] is False
    await db(lambda: _move(table, game))
    await watcher.until(is_type("game_state_update", version=2))
    await watcher.drain()
    assert [f["version"] for f in watcher.of_type("all_hands")] == [1]
    for conn in (watcher, plain, seated):
        await conn.close()


async def test_casual_table_default_never_shows_the_hands() -> None:
    table, _users, game = await db(lambda: started_table())
    watcher = Conn(table_path(table.code))
    await watcher.open()
    refused = await watcher.error({"type": "show_hands", "on": True})
    assert refused["code"] == "hands_not_shown"
    await db(lambda: _move(table, game))
    await watcher.until(is_type("game_state_update", version=1))
    await watcher.drain()
    assert not watcher.of_type("all_hands")
    hands = {card for hand in await db(lambda: _hands(game)) for card in hand}
    for frame in watcher.frames:
        assert not (card_strings(frame) & hands), frame["type"]
    await watcher.close()


# --------------------------------------------------------------------------- rated tables
async def test_rated_table_shows_hands_only_one_game_behind(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    tables, mine, others = await db(lambda: _round_tables(clock, scheduler))
    table = tables[0]
    assert is_rated(table)
    # even a rated table's options saying "live" (written past the checks) show nothing live
    await db(
        lambda: Table.objects.filter(pk=table.pk).update(
            options={**table.options, "spectator_hands": "live"}
        )
    )
    watcher = Conn(table_path(table.code))
    await watcher.open()
    await watcher.send({"type": "show_hands", "on": True})
    behind = await watcher.until(is_type("show_hands"))
    assert behind["mode"] == "behind"
    assert behind["game"] == 1  # game 1 is over at both tables: its deal is closed
    assert behind["replay_url"] == f"/tables/{table.code}/games/1/replay/?seat=spectator&hands=all"
    first = await db(lambda: Game.objects.get(table=table, number=1))
    assert not await db(lambda: deals.deal_is_open(first))

    await db(lambda: scheduler._run(mine))  # game 2 at A, while B has not dealt it
    await watcher.until(is_type("game_ended", game=2))
    await watcher.drain()
    assert not watcher.of_type("all_hands")  # never live, even though the spectator asked
    live = [f for f in watcher.frames[1:] if f["type"] != "show_hands"]
    assert not set().union(*(card_strings(f) for f in live)) & ALL_CARDS
    await watcher.send({"type": "show_hands", "on": True})
    again = await watcher.until(is_type("show_hands"))
    assert again["game"] == 1  # game 2 is over at A, but its deal is still open at B
    await db(lambda: scheduler._run(others))
    await watcher.until(is_type("snapshot"))  # the deal closed: a resync
    await watcher.send({"type": "show_hands", "on": True})
    closed = await watcher.until(is_type("show_hands"))
    assert closed["game"] == 2
    await watcher.close()


def test_show_hands_answer_for_rated_before_any_finished_game(
    clock: FrozenClock, scheduler: TestScheduler, settings: Any
) -> None:
    from games import selectors

    owner = UserFactory.create()
    table = services.table_create(owner=owner, name="T", options={"mode": "tournament"})
    answer = selectors.spectator_hands(table_id=table.pk, user=None)
    assert answer == {
        "type": "show_hands",
        "on": True,
        "mode": "behind",
        "game": None,
        "playing": None,
        "replay_url": None,
    }


@pytest.mark.parametrize("rated", [{"mode": "tournament"}, {"rated": True}])
async def test_rated_table_live_frames_never_carry_hands_even_when_asked(
    rated: dict[str, Any],
) -> None:
    table, _users, game = await db(lambda: started_table())
    # a rated table whose options say "live" (written past the checks): still nothing live
    await db(
        lambda: Table.objects.filter(pk=table.pk).update(
            options={**table.options, **rated, "spectator_hands": "live"}
        )
    )
    assert await db(lambda: is_rated(Table.objects.get(pk=table.pk)))
    watcher = Conn(table_path(table.code))
    await watcher.open()
    await watcher.send({"type": "show_hands", "on": True})
    answer = await watcher.until(is_type("show_hands"))
    assert answer["mode"] == "behind"
    assert answer["game"] is None  # no finished game yet
    assert answer["playing"] == 1
    await db(lambda: _move(table, game))
    await watcher.until(is_type("game_state_update", version=1))
    await watcher.drain()
    assert not watcher.of_type("all_hands")
    hands = {card for hand in await db(lambda: _hands(game)) for card in hand}
    for frame in watcher.frames:
        assert not (card_strings(frame) & hands), frame["type"]
    await watcher.close()


async def test_a_table_that_becomes_rated_stops_the_live_hands_at_once() -> None:
    table, _users, game = await db(lambda: started_table(spectator_hands="live"))
    watcher = Conn(table_path(table.code))
    await watcher.open()
    await watcher.send({"type": "show_hands", "on": True})
    assert (await watcher.until(is_type("show_hands")))["mode"] == "live"
    await db(lambda: _move(table, game))
    await watcher.until(is_type("all_hands", version=1))
    await db(
        lambda: Table.objects.filter(pk=table.pk).update(options={**table.options, "rated": True})
    )
    await db(lambda: _move(table, game))
    await watcher.until(is_type("game_state_update", version=2))
    await watcher.drain()
    assert [f["version"] for f in watcher.of_type("all_hands")] == [1]
    await watcher.close()


def test_the_one_game_behind_replay_shows_every_hand_at_every_step(
    clock: FrozenClock, scheduler: TestScheduler, client: Client
) -> None:
    from tests.games.live import replay_states

    tables, mine, others = _round_tables(clock, scheduler)
    table = tables[0]
    scheduler._run(mine)  # game 2 at A; B has not dealt it
    url = f"/tables/{table.code}/games/2/replay.json?seat=spectator&hands=all"
    refused = client.get(url)
    assert refused.status_code == 409
    assert refused.json()["error"] == deals.DEAL_IN_PLAY
    scheduler._run(others)  # B plays it: the deal is over everywhere
    data = client.get(url).json()
    game = Game.objects.get(table=table, number=2)
    states = replay_states(game)
    assert len(data["steps"]) == len(states)
    for step, state in zip(data["steps"], states, strict=True):
        assert step["all_hands"] == [list(ENGINE.view(state, s)["hand"]) for s in range(4)]
    assert sum(len(h) for h in data["steps"][0]["all_hands"]) == 52
    page = client.get(f"/tables/{table.code}/games/2/replay/?seat=spectator&hands=all")
    assert page.status_code == 200
    assert b'data-all-hands="1"' in page.content
    plain = client.get(f"/tables/{table.code}/games/2/replay.json?seat=spectator").json()
    assert all("all_hands" not in step for step in plain["steps"])

    # a running game never shows every hand
    running, _users, _game = started_table()
    late = client.get(f"/tables/{running.code}/games/1/replay.json?hands=all")
    assert late.status_code == 409
    assert late.json()["error"] == "hands_need_finished"
