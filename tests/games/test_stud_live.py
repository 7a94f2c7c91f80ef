"""Seven-card stud at a live table, end to end over the project's WebSockets: a 3-player hand to
the showdown with no down card ever reaching another seat or a spectator before it, the generic
``game_action`` frame and its errors, turn timeouts (auto bring-in, check, fold), house AIs,
per-game table options."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games import services
from games.engine.registry import find_game
from games.engine.stud.cards import card_id
from games.engine.stud.rules import UP_POSITIONS
from games.models import Action, Game, Seat, Table, validate_table_options
from tests.factories import UserFactory
from tests.games.live import replay_states
from tests.scheduler import SCHEDULER, FrozenClock
from tests.ws import Conn, Frame, db, is_type, table_conns

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE = find_game("stud")


def stud_table(humans: int = 3, house: int = 0, **options: Any) -> tuple[Table, list[Any]]:
    """A stud table: ``humans`` ready people (the host at seat 0), then ``house`` house AIs."""
    users = [UserFactory.create(username=f"s{i}", display_name=f"S{i}") for i in range(humans)]
    specs = [services.SeatSpec() for _ in range(humans)] + [
        services.SeatSpec(Seat.Kind.HOUSE, "medium") for _ in range(house)
    ]
    table = services.table_create(
        owner=users[0],
        name="Stud",
        game="stud",
        options={"seats": humans + house, **options},
        seats=specs,
    )
    for i, user in enumerate(users[1:], start=1):
        services.seat_join(table_id=table.pk, user=user, seat=i)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table, users


async def start(table: Table, conns: list[Conn], spectator: Conn | None = None) -> None:
    await conns[0].send({"type": "start_game"})
    for conn in [*conns, *([spectator] if spectator else [])]:
        await conn.until(is_type("game_started"))


async def next_turn(conns: list[Conn]) -> tuple[Conn, Frame]:
    """The next ``your_turn`` frame any of ``conns`` receives (drained round robin)."""
    for _ in range(400):
        for conn in conns:
            await conn.drain(0.01)
            for frame in list(conn.unread):
                if frame["type"] == "your_turn":
                    conn.unread.remove(frame)
                    return conn, frame
                if frame["type"] == "game_ended":
                    raise AssertionError("the hand ended")
    raise AssertionError("no your_turn frame arrived")


def down_cards(state: Any, seat: int) -> set[str]:
    """Every card of ``seat`` that is dealt face down (or not dealt yet) in this hand."""
    return {card_id(c) for i, c in enumerate(state.cards[seat]) if i not in UP_POSITIONS}


def card_strings(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(card_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(card_strings(v) for v in obj)) if obj else set()
    return set()


def frames_before_showdown(frames: list[Frame]) -> list[Frame]:
    """The frames up to (not including) the one that ends the hand: the first
    ``game_state_update`` whose state is finished, or ``game_ended``."""
    out = []
    for frame in frames:
        if frame["type"] == "game_ended":
            break
        if frame["type"] == "game_state_update" and frame["state"]["finished"]:
            break
        out.append(frame)
    return out


async def test_three_players_to_showdown_over_websockets_without_leaks() -> None:
    table, users = await db(stud_table)
    conns = await table_conns(table, users)
    spectator = Conn(f"/ws/tables/{table.code}/")
    assert (await spectator.open())["you"]["role"] == "spectator"
    await conns[0].send({"type": "start_game"})
    for seat, conn in enumerate(conns):
        started = await conn.until(is_type("game_started"))
        state = started["state"]
        assert state["game"] == "stud"
        assert len(state["hand"]) == 3
        assert state["seats"][seat]["cards"] == state["hand"]
        for other in range(3):
            if other != seat:
                assert state["seats"][other]["cards"][:2] == [None, None]
        [down] = [e for e in started["events"] if e["type"] == "down_cards"]
        assert down["cards"] == state["hand"][:2]
    started = await spectator.until(is_type("game_started"))
    assert started["state"]["hand"] is None
    assert not [e for e in started["events"] if e["type"] == "down_cards"]

    moves = 0
    while True:
        conn, turn = await next_turn(conns)
        seat = conns.index(conn)
        assert turn["seat"] == turn["seat_index"] == seat
        assert turn["turn_seconds"] == turn["time_limit"] == 30
        assert turn["deadline"] is not None
        assert [a["type"] for a in turn["legal"]] == turn["legal_actions"]
        labels = {a["type"]: a["label"] for a in turn["legal"]}
        if "bring_in" in labels:
            assert labels["bring_in"] == f"Bring in {turn['bring_in_amount']}"
        if "call" in labels:
            assert labels["call"] == f"Call {turn['amount_to_call']}"
        # everyone stays in: the hand must reach the showdown
        name = next(n for n in ("check", "call", "bring_in") if n in turn["legal_actions"])
        await conn.send(
            {"type": "game_action", "version": turn["version"], "action": {"type": name}}
        )
        update = await conn.until(is_type("game_state_update", version=turn["version"] + 1))
        moves += 1
        assert next(e for e in update["events"] if e["type"] == "action")["action"] == name
        if update["state"]["finished"]:
            break
        assert moves < 60
    ended = await conns[0].until(is_type("game_ended"))
    result = ended["result"]
    assert result["showdown"] is True
    assert set(result["shown"]) == {"0", "1", "2"}
    assert all(len(h["cards"]) == 7 and h["hand"] for h in result["shown"].values())
    assert sum(result["scores"]) == 0
    assert result["pots"]
    for pot in result["pots"]:
        assert pot["winners"]
        assert sum(pot["shares"]) == pot["amount"]
        assert pot["hand"]
    assert ended["session"]["played"] == 1
    assert ended["session"]["stacks"] == result["stacks"]
    assert sum(result["stacks"]) == 600
    assert ended["stats"]["cards_played"] is None  # stud plays no cards from a hand

    for conn in [*conns, spectator]:
        await conn.drain(0.1)
    game = await db(lambda: Game.objects.get(table=table, number=1))
    states = await db(lambda: replay_states(game))
    final = states[-1]
    assert ENGINE.state_to_json(final) == game.state
    assert final.finished
    for seat, conn in enumerate(conns):
        before = frames_before_showdown(conn.frames)
        seen = set().union(*(card_strings(f) for f in before))
        for other in range(3):
            hidden = down_cards(final, other)
            if other == seat:
                dealt = {card_id(c) for c in final.cards[seat][:7]} - {
                    card_id(final.cards[seat][i]) for i in UP_POSITIONS
                }
                assert dealt <= seen  # the owner did get their own down cards
            else:
                assert not seen & hidden, (seat, other, seen & hidden)
        turns = [f["version"] for f in conn.frames if f["type"] == "your_turn"]
        assert len(turns) == len(set(turns))
    spectated = set().union(*(card_strings(f) for f in frames_before_showdown(spectator.frames)))
    for other in range(3):
        assert not spectated & down_cards(final, other)
    assert not [f for f in spectator.frames if f["type"] == "your_turn"]
    # at the showdown every hand still in is shown to everyone, with its name
    last = [f for f in spectator.frames if f["type"] == "game_state_update"][-1]
    assert all(None not in s["cards"] for s in last["state"]["seats"])
    assert [e for e in last["events"] if e["type"] == "showdown"]
    # the chat names the winning hand by its code (the page shows stud_hand_<code>)
    won = [
        f
        for f in spectator.frames
        if f["type"] == "message_received" and f["code"] in ("game_won_hand", "game_won")
    ]
    assert len(won) == 1
    assert won[0]["system"] is True
    assert won[0]["params"]["game"] == 1
    if won[0]["code"] == "game_won_hand":
        assert won[0]["params"]["hand"] == result["shown"][str(result["winner"])]["hand"]
        assert won[0]["params"]["hand"].replace("_", " ") in won[0]["text"]
    for conn in [*conns, spectator]:
        await conn.close()


async def test_game_action_errors_change_nothing() -> None:
    table, users = await db(stud_table)
    conns = await table_conns(table, users)
    spectator = Conn(f"/ws/tables/{table.code}/")
    await spectator.open()
    await start(table, conns)
    conn, turn = await next_turn(conns)
    seat = conns.index(conn)
    v = turn["version"]
    assert turn["legal_actions"] == ["bring_in", "complete"]
    assert turn["can_check"] is False
    stale = await conn.error({"type": "game_action", "version": v + 3, "action": {"type": "fold"}})
    assert stale["code"] == "stale_version"
    assert stale["version"] == v
    illegal = await conn.error({"type": "game_action", "version": v, "action": {"type": "check"}})
    assert illegal["code"] == "illegal_action"
    assert illegal["ref"] == "game_action"
    unknown = await conn.error({"type": "game_action", "version": v, "action": {"type": "allin"}})
    assert unknown["code"] == "bad_action"
    other = conns[(seat + 1) % 3]
    assert (await other.error({"type": "game_action", "version": v, "action": {"type": "call"}}))[
        "code"
    ] == "not_your_turn"
    assert (
        await spectator.error({"type": "game_action", "version": v, "action": {"type": "call"}})
    )["code"] == "not_seated"
    for bad in (
        {"type": "game_action", "version": v},
        {"type": "game_action", "version": v, "action": "call"},
        {"type": "game_action", "version": v, "action": {"kind": "call"}},
        {"type": "game_action", "version": v, "action": {"type": 5}},
        {"type": "game_action", "version": "0", "action": {"type": "call"}},
        {"type": "game_action", "version": v, "action": {"type": "x" * 40}},
        {"type": "game_action", "version": v, "action": {f"k{i}": i for i in range(9)}},
    ):
        assert (await conn.error(bad))["code"] == "bad_frame", bad
    huge = {"type": "game_action", "version": v, "action": {"type": "call", "pad": "x" * 5000}}
    assert (await conn.error(huge))["code"] == "frame_too_large"
    # the server sets seat, at and auto itself: a client cannot act for another seat
    await conn.send(
        {
            "type": "game_action",
            "version": v,
            "action": {"type": "bring_in", "seat": (seat + 1) % 3, "auto": True},
        }
    )
    await conn.until(is_type("game_state_update", version=v + 1))
    actions = await db(lambda: list(Action.objects.filter(game__table=table).order_by("seq")))
    assert len(actions) == 1
    assert actions[0].seat == seat
    assert actions[0].payload["seat"] == seat
    assert "auto" not in actions[0].payload
    assert actions[0].actor == "human"
    for c in [*conns, spectator]:
        await c.close()


async def test_timeouts_auto_bring_in_check_and_fold(clock: FrozenClock) -> None:
    table, users = await db(stud_table)
    conns = await table_conns(table, users)
    await start(table, conns)

    async def time_out() -> Frame:
        clock.advance(100)
        assert await db(SCHEDULER.run_due) >= 1
        return await conns[0].until(is_type("turn_timeout"))

    conn, turn = await next_turn(conns)
    bring = await time_out()
    assert bring["action"] == {"type": "bring_in"}
    assert bring["seat"] == conns.index(conn)
    assert bring["reason"] == "timeout"
    for _ in range(2):  # the others call the bring-in by hand
        conn, turn = await next_turn(conns)
        await conn.send(
            {"type": "game_action", "version": turn["version"], "action": {"type": "call"}}
        )
        await conn.until(is_type("game_state_update", version=turn["version"] + 1))
    conn, turn = await next_turn(conns)  # 4th street: first to act may check
    assert turn["can_check"] is True
    first = conns.index(conn)
    checked = await time_out()
    assert checked == {
        "type": "turn_timeout",
        "game": 1,
        "version": turn["version"] + 1,
        "seat": first,
        "action": {"type": "check"},
        "reason": "timeout",
    }
    conn, turn = await next_turn(conns)
    await conn.send({"type": "game_action", "version": turn["version"], "action": {"type": "bet"}})
    await conn.until(is_type("game_state_update", version=turn["version"] + 1))
    conn, turn = await next_turn(conns)  # facing a bet: a timeout folds
    folder = conns.index(conn)
    folded = await time_out()
    assert folded["action"] == {"type": "fold"}
    assert folded["seat"] == folder
    game = await db(lambda: Game.objects.get(table=table, number=1))
    state = ENGINE.state_from_json(game.state)
    assert state.folded[folder]
    auto = await db(lambda: list(Action.objects.filter(game=game, actor="timeout").order_by("seq")))
    assert [a.payload["type"] for a in auto] == ["bring_in", "check", "fold"]
    assert all(a.payload["auto"] for a in auto)
    for c in conns:
        await c.close()


async def test_house_ais_play_stud_to_the_end_of_the_hand() -> None:
    table, users = await db(lambda: stud_table(humans=1, house=2))
    (me,) = await table_conns(table, users)
    await start(table, [me])
    for _ in range(40):
        await me.drain(0.02)
        if any(f["type"] == "game_ended" for f in me.unread):
            break
        turns = [f for f in me.unread if f["type"] == "your_turn"]
        if not turns:
            continue
        turn = turns[-1]
        me.unread.clear()
        name = next(n for n in ("check", "call", "bring_in") if n in turn["legal_actions"])
        await me.send({"type": "game_action", "version": turn["version"], "action": {"type": name}})
    ended = await me.until(is_type("game_ended"))
    assert sum(ended["result"]["scores"]) == 0
    game = await db(lambda: Game.objects.get(table=table, number=1))
    actors = await db(lambda: set(Action.objects.filter(game=game).values_list("actor", flat=True)))
    assert "house" in actors
    await me.close()


async def test_seven_seat_hand_starts_and_plays_over_websockets() -> None:
    """Five people and two house AIs: seven seats dealt in, each person sees only their own
    down cards, the lowest door card brings in, and the hand plays to its end."""
    table, users = await db(lambda: stud_table(humans=5, house=2))
    assert table.seat_count == 7
    conns = await table_conns(table, users)
    await conns[0].send({"type": "start_game"})
    bring_in = None
    for seat, conn in enumerate(conns):
        started = await conn.until(is_type("game_started"))
        state = started["state"]
        assert state["players"] == 7
        assert len(state["seats"]) == 7
        assert state["seats"][seat]["cards"] == state["hand"]
        for other in range(7):
            cards = state["seats"][other]["cards"]
            assert len(cards) == 3
            assert cards[2] is not None  # every door card is up
            if other != seat:
                assert cards[:2] == [None, None]
        hand = next(e for e in started["events"] if e["type"] == "hand_started")
        assert len(hand["up"]) == 7
        assert hand["antes"] == [1] * 7
        bring_in = state["bring_in_seat"]
        assert state["turn"] == bring_in
    game = await db(lambda: Game.objects.get(table=table, number=1))
    first = await db(lambda: replay_states(game)[0])
    doors = {s: first.cards[s][2] for s in range(7)}
    assert bring_in == min(doors, key=lambda s: doors[s])  # the lowest door card (suit order)
    moves = 0
    while True:
        for conn in conns:
            await conn.drain(0.02)
        if any(f["type"] == "game_ended" for f in conns[0].unread):
            break
        for conn in conns:
            turns = [f for f in conn.unread if f["type"] == "your_turn"]
            conn.unread = [f for f in conn.unread if f["type"] != "your_turn"]
            if not turns:
                continue
            turn = turns[-1]
            assert turn["seat_index"] == conns.index(conn)
            name = next(n for n in ("check", "call", "bring_in") if n in turn["legal_actions"])
            await conn.send(
                {"type": "game_action", "version": turn["version"], "action": {"type": name}}
            )
            moves += 1
        assert moves < 200
    ended = await conns[0].until(is_type("game_ended"))
    result = ended["result"]
    assert len(result["scores"]) == 7
    assert sum(result["scores"]) == 0
    assert sum(result["stacks"]) == 7 * 200
    for c in conns:
        await c.close()


def test_stud_table_options_are_the_games_own() -> None:
    owner = UserFactory.create(username="opt")
    table = services.table_create(
        owner=owner, name="Big", game="stud", options={"seats": 2, "small_bet": 10, "big_bet": 20}
    )
    assert table.options["small_bet"] == 10
    assert table.options["buy_in"] == 200
    assert table.options["ante"] == 1
    assert "hide_hand_counts" not in table.options
    with pytest.raises(ValidationError):  # the engine refuses a bring-in at the small bet
        services.table_create(
            owner=owner, name="Bad", game="stud", options={"seats": 2, "bring_in": 5}
        )
    with pytest.raises(ValidationError):  # another game's option
        services.table_create(
            owner=owner, name="Bad", game="stud", options={"seats": 2, "hide_hand_counts": True}
        )
    with pytest.raises(ValidationError):
        validate_table_options({"seats": 2, "ante": "one"})
    validate_table_options({"seats": 2, "ante": 0, "buy_in": 50}, game="stud")
    # the session starts from them
    services.seat_add_bot(table_id=table.pk, user=owner, seat=1, level="easy")
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    table.refresh_from_db()
    session: dict[str, Any] = table.session or {}
    assert session["options"]["small_bet"] == 10
    assert session["options"]["big_bet"] == 20
    # the host may change the game's own options in the lobby, validated by the engine
    lobby = services.table_create(owner=owner, name="L", game="stud", options={"seats": 2})
    services.table_set_option(table_id=lobby.pk, user=owner, name="ante", value=2)
    lobby.refresh_from_db()
    assert lobby.options["ante"] == 2
    for name, value in (("bring_in", 9), ("hide_hand_counts", True), ("ante", -1)):
        with pytest.raises(services.TableError) as err:
            services.table_set_option(table_id=lobby.pk, user=owner, name=name, value=value)
        assert err.value.code == "bad_frame"


def test_create_table_form_offers_stud_with_its_options(client: Client) -> None:
    user = UserFactory.create(username="former", display_name="Former")
    client.force_login(user)
    page = client.get(reverse("tables:create")).content.decode()
    assert 'value="stud"' in page
    assert 'data-game-options="stud"' in page
    assert 'name="small_bet"' in page
    assert json.loads(
        page.split('id="game-seat-ranges" type="application/json">')[1].split("<")[0]
    )["stud"] == [2, 7]
    data = {
        "name": "Stud night",
        "game": "stud",
        "seats": "3",
        "seat_1": "house:easy",
        "seat_2": "house:hard",
        "visibility": "public",
        "session_length": "16",
        "turn_seconds": "30",
        "buy_in": "500",
        "ante": "2",
        "bring_in": "3",
        "small_bet": "10",
        "big_bet": "",
        "hide_hand_counts": "on",  # another game's option: ignored for stud
    }
    response = client.post(reverse("tables:create"), data)
    table = Table.objects.get(name="Stud night")
    assert response.status_code == 302
    assert table.game == "stud"
    assert table.options == {
        "seats": 3,
        "session_length": 16,
        "turn_seconds": 30,
        "mode": "casual",
        "buy_in": 500,
        "ante": 2,
        "bring_in": 3,
        "small_bet": 10,
        "big_bet": None,  # twice the small bet
    }
    own = {k: table.options[k] for k in ENGINE.table_options}
    assert ENGINE.session_start(3, 16, own)["options"]["big_bet"] == 20
    bad = client.post(reverse("tables:create"), {**data, "name": "Bad", "bring_in": "10"})
    assert bad.status_code == 200
    assert "bring_in must be" in bad.content.decode()
    assert not Table.objects.filter(name="Bad").exists()
    page = client.get(reverse("table", args=[table.code])).content.decode()
    config = json.loads(page.split('id="table-config" type="application/json">')[1].split("<")[0])
    assert config["game"] == "stud"


#: A stud bot for the JS bot system: check or call when it can, else the first legal move.
STUD_BOT = """
function getNextMove(gameState) {
  const names = gameState.validMoves.map((m) => m.action);
  for (const name of ["check", "call", "bring_in"]) {
    if (names.includes(name)) return { action: name };
  }
  return { action: names[0] };
}
"""


def test_a_js_bot_seat_plays_stud(bot_player: Any) -> None:
    from bots.models import BotVersion
    from bots.services import bot_release_game, bot_seat_player
    from tests.factories import BotVersionFactory

    bot_player(bot_seat_player)
    owner = UserFactory.create(username="botowner")
    version = BotVersionFactory.create(
        bot__owner=owner, code=STUD_BOT, status=BotVersion.Status.READY
    )
    table = services.table_create(
        owner=owner,
        name="Bots",
        game="stud",
        options={"seats": 3},
        seats=[
            services.SeatSpec(),
            services.SeatSpec(Seat.Kind.BOT, bot_version_id=version.pk),
            services.SeatSpec(Seat.Kind.HOUSE, "easy"),
        ],
    )
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table, number=1)
    try:
        for _ in range(60):
            game.refresh_from_db()
            if game.status != Game.Status.RUNNING:
                break
            state = ENGINE.state_from_json(game.state)
            assert ENGINE.round_status(state).pending == (0,)  # bots acted inline
            names = [a["type"] for a in ENGINE.legal_actions(state, 0)]
            move = next(n for n in ("check", "call", "bring_in") if n in names)
            services.game_play(
                table_id=table.pk, user=owner, version=game.version, action={"type": move}
            )
    finally:
        bot_release_game(game_key=f"game:{game.pk}")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    bot_moves = list(Action.objects.filter(game=game, seat=1).order_by("seq"))
    assert bot_moves
    assert all(a.actor == "bot" for a in bot_moves), [a.bot_record for a in bot_moves]
    assert all((a.bot_record or {}).get("strike", "missing") is None for a in bot_moves)
    assert {a.payload["type"] for a in bot_moves} <= {"check", "call", "bring_in", "fold"}
    assert Seat.objects.get(table=table, index=1).strikes == 0
