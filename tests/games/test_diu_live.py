"""Suijiang Diu (绥江丢) at a live table, end to end over the project's WebSockets: a hand from
the deal to 丢 with every seat's frames checked against the engine's own views (no other hand,
no undrawn stock card, D never prompted), the ``your_turn`` prompt payload, ``game_action``
errors, the game's own timers (a new table's 45 s discard, 25 s poll) through the turn-timeout
chain, house AIs, and the 4-seat table with the game's own options.

The deal is pinned: the test replays candidate seeds through the engine with the policy it plays
(the medium house AI at every seat) and takes the first whose hand goes through an offer and a
meld to 丢, so the assertions below are about a hand that really does all of it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games import services
from games.engine.diu.cards import KINDS, NAMES
from games.engine.diu.commit import nonce, verify
from games.engine.diu.game import TABLE_TIMERS
from games.engine.registry import find_game
from games.models import Action, ChatMessage, Game, Seat, Table
from tests.factories import UserFactory
from tests.games.live import replay_states
from tests.scheduler import SCHEDULER, FrozenClock
from tests.ws import Conn, Frame, db, is_type, table_conns

#: A new table's timers by prompt kind (a new Diu table's friendlier ones, issue 25).
SECONDS = {
    "discard": TABLE_TIMERS["t_play"],
    "call": TABLE_TIMERS["t_call"],
    "diu": TABLE_TIMERS["t_call"],
    "offer": TABLE_TIMERS["t_offer"],
}

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE: Any = find_game("diu")


def _playout(seed: int) -> tuple[Any, list[str]]:
    """The hand of ``seed`` played by the medium house AI at every seat: final state, events."""
    config = ENGINE.session_next_config(ENGINE.session_start(4, 16, {}))
    state = ENGINE.new_game({**config, "started_at": 0.0}, seed)
    types: list[str] = []
    while not state.finished:
        seat = ENGINE.prompt(state)["seat"]
        state, events = ENGINE.apply(state, {**ENGINE.house_action(state, seat, "medium")})
        types += [e.type for e in events]
    return state, types


def _diu_seed() -> int:
    """The first seed whose hand has an offer, a meld and ends in 丢 within 40 moves."""
    for seed in range(1, 300):
        state, types = _playout(seed)
        if len(state.log) <= 40 and "offered" in types and "meld" in types and "diu" in types:
            return seed
    raise AssertionError("no seed reaches 丢 through a meld")


@pytest.fixture
def pinned(deal_seeds: Callable[..., None]) -> int:
    seed = _diu_seed()
    deal_seeds(seed)
    return seed


def diu_table(humans: int = 4, **options: Any) -> tuple[Table, list[Any]]:
    """A diu table: ``humans`` ready people (the host at seat 0), the rest medium house AIs."""
    users = [UserFactory.create(username=f"d{i}", display_name=f"D{i}") for i in range(humans)]
    specs = [services.SeatSpec()] + [
        services.SeatSpec(Seat.Kind.HOUSE, "medium") for _ in range(4 - humans)
    ]
    table = services.table_create(
        owner=users[0], name="Diu", game="diu", options={"seats": 4, **options}, seats=specs
    )
    for i, user in enumerate(users[1:], start=1):
        services.seat_join(table_id=table.pk, user=user, seat=i)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table, users


async def next_turn(conns: list[Conn]) -> tuple[Conn, Frame] | None:
    """The next ``your_turn`` frame any of ``conns`` receives; None once the hand ended."""
    for _ in range(300):
        for conn in conns:
            await conn.drain(0.01)
            for frame in list(conn.unread):
                if frame["type"] == "your_turn":
                    conn.unread.remove(frame)
                    return conn, frame
                if frame["type"] == "game_ended":
                    return None
    raise AssertionError("no your_turn frame arrived")


def game_state(table: Table) -> Any:
    game = Game.objects.get(table=table, number=1)
    return ENGINE.state_from_json(game.state)


def walk(obj: Any, key: str) -> list[Any]:
    """Every value stored under ``key`` anywhere in ``obj``."""
    found: list[Any] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                found.append(v)
            found += walk(v, key)
    elif isinstance(obj, list):
        for v in obj:
            found += walk(v, key)
    return found


async def test_a_hand_from_the_deal_to_diu_without_leaks(pinned: int) -> None:
    table, users = await db(diu_table)
    conns = await table_conns(table, users)
    spectator = Conn(f"/ws/tables/{table.code}/")
    assert (await spectator.open())["you"]["role"] == "spectator"
    await conns[0].send({"type": "start_game"})
    started = [await c.until(is_type("game_started")) for c in [*conns, spectator]]
    roles = started[0]["state"]["roles"]
    d_seat = roles["D"]
    for seat, frame in enumerate(started[:4]):
        state = frame["state"]
        assert state["game"] == "diu"
        assert state["sitting_out"] == d_seat
        assert state["role"] == next(r for r, s in roles.items() if s == seat)
        assert state["hands"] is None
        assert state["hand_counts"][d_seat] is None
        assert set(state["stock"]) == {"count", "delivered", "buffer", "drawn", "commitments"}
        assert len(state["stock"]["commitments"]) == state["stock"]["delivered"] == 10
        hands = [e for e in frame["events"] if e["type"] == "hand"]
        if seat == d_seat:
            assert state["hand"] is None
            assert hands == []
        else:
            assert [h["cards"] for h in hands] == [state["hand"]]
            assert len(state["hand"]) == (18 if roles["A"] == seat else 17)
    assert started[4]["state"]["hand"] is None
    assert not [e for e in started[4]["events"] if e["type"] in ("hand", "prompt")]

    moves = 0
    while (turn_at := await next_turn(conns)) is not None:
        conn, turn = turn_at
        seat = conns.index(conn)
        assert seat != d_seat  # D never gets a prompt
        assert turn["seat"] == seat
        state = await db(lambda: game_state(table))
        prompt = ENGINE.prompt(state)
        assert prompt["seat"] == seat
        assert turn["version"] == len(state.log)
        assert turn["kind"] == prompt["kind"]
        assert turn["options"] == prompt["options"]
        assert turn["legal"] == [
            {k: v for k, v in a.items() if k != "seat"} for a in ENGINE.legal_actions(state, seat)
        ]
        assert turn["deadline"] == ENGINE.round_status(state).check_at
        expected = SECONDS[turn["kind"]]
        assert turn["turn_seconds"] == turn["time_limit"] == expected
        for action in turn["legal"]:  # only the seat's own cards are named
            used = [action["card"]] if "card" in action else action.get("cards", [])
            hand = list(state.hands[seat])
            for card in used:
                hand.remove(card)
        move = ENGINE.house_action(state, seat, "medium")
        move.pop("seat")
        await conn.send({"type": "game_action", "version": turn["version"], "action": move})
        await conn.until(is_type("game_state_update", version=turn["version"] + 1))
        moves += 1
        assert moves < 60

    ended = await conns[0].until(is_type("game_ended"))
    result = ended["result"]
    final, _ = _playout(pinned)
    assert result["result"] == "win"
    assert result["winner"] == final.winner
    assert result["diu"]["cards"] == final.diu_cards
    assert sum(result["scores"]) == 0
    assert result["scores"][d_seat] == 0
    assert ended["stats"]["cards_played"] is None
    assert ended["session"]["played"] == 1

    for conn in [*conns, spectator]:
        await conn.drain(0.1)
    game = await db(lambda: Game.objects.get(table=table, number=1))
    states = await db(lambda: replay_states(game))
    stock0 = states[0].stock
    assert ENGINE.state_to_json(states[-1]) == game.state
    # every seat and the spectator saw exactly the engine's view of it at every version
    for audience, conn in [*enumerate(conns), (None, spectator)]:
        updates = [f for f in conn.frames if f["type"] == "game_state_update"]
        assert [u["version"] for u in updates] == list(range(1, len(states)))
        for update in updates:
            expected_view = json.loads(json.dumps(ENGINE.view(states[update["version"]], audience)))
            assert update["state"] == expected_view
        for frame in conn.frames:
            if frame["type"] not in ("game_started", "game_state_update", "your_turn"):
                continue
            for event in frame.get("events", []):
                if event["type"] in ("hand", "prompt"):
                    assert audience is not None
                    assert event.get("seat", audience) == audience
            for stock in walk(frame, "stock"):  # counts and commitments, never a card
                assert isinstance(stock, (int, dict))
                if isinstance(stock, dict):
                    assert set(stock) <= {"count", "delivered", "buffer", "drawn", "commitments"}
                    assert all(len(h) == 64 for h in stock["commitments"])
            # no undrawn card's key ever reaches anyone (it opens the commitment when drawn)
            shown = states[min(frame.get("version", 0), len(states) - 1)]
            text = json.dumps(frame)
            assert not any(nonce(shown.seed, i) in text for i in range(shown.drawn, len(stock0)))
        finished = [u for u in updates if u["state"]["finished"]]
        before = [u for u in updates if not u["state"]["finished"]]
        assert all(u["state"]["hands"] is None for u in before)
        assert finished
        assert finished[0]["state"]["hands"] is not None  # shown at the end
        turns = [f for f in conn.frames if f["type"] == "your_turn"]
        assert audience != d_seat or not turns
        assert all(t["seat"] == audience for t in turns)
        assert len({t["version"] for t in turns}) == len(turns)
    # a drawn card appears first in its card_open event, never before
    opened = [
        e["card"]
        for u in spectator.frames
        if u["type"] == "game_state_update"
        for e in u["events"]
        if e["type"] == "card_open"
    ]
    assert opened == list(states[0].stock[: len(opened)])
    pushed = {
        e["first"] + i: h
        for f in spectator.frames
        if f["type"] in ("game_started", "game_state_update")
        for e in f["events"]
        if e["type"] == "stock_batch"
        for i, h in enumerate(e["commitments"])
    }
    for f in spectator.frames:
        for e in f.get("events", []) if f["type"] == "game_state_update" else []:
            if e["type"] == "card_open":
                assert verify(e["card"], e["nonce"], pushed[e["index"]])
    # who claimed what, and the 丢, in the table chat
    lines = await db(
        lambda: list(
            ChatMessage.objects.filter(table=table, is_system=True).values_list("text", flat=True)
        )
    )
    assert any(" claimed " in line for line in lines)
    assert any("丢" in line and "won the hand" in line for line in lines)
    coded = await db(
        lambda: list(
            ChatMessage.objects.filter(table=table, code__startswith="diu_").values_list(
                "code", "params", "text"
            )
        )
    )
    melds = [(p, t) for c, p, t in coded if c in ("diu_meld", "diu_meld_stock")]
    assert melds
    assert all({"name", "card", "claim", "cards"} <= set(p) for p, _t in melds)
    assert all(p["name"] in t and p["cards"] in t for p, t in melds)
    result = [(c, p) for c, p, _t in coded if c.startswith("diu_result_win")]
    assert result
    assert result[0][1]["game"] == 1
    for conn in [*conns, spectator]:
        await conn.close()


async def test_only_the_prompted_seat_acts_and_errors_change_nothing() -> None:
    table, users = await db(diu_table)
    conns = await table_conns(table, users)
    spectator = Conn(f"/ws/tables/{table.code}/")
    await spectator.open()
    await conns[0].send({"type": "start_game"})
    started = await conns[0].until(is_type("game_started"))
    roles = started["state"]["roles"]
    turn_at = await next_turn(conns)
    assert turn_at is not None
    conn, turn = turn_at
    seat = conns.index(conn)
    assert seat == roles["A"]
    assert turn["kind"] == "discard"
    v = turn["version"]
    card = turn["legal"][0]["card"]
    stale = await conn.error(
        {"type": "game_action", "version": v + 2, "action": {"type": "discard", "card": card}}
    )
    assert stale["code"] == "stale_version"
    assert stale["version"] == v
    for action, code in (
        ({"type": "pass"}, "illegal_action"),
        ({"type": "accept"}, "illegal_action"),
        ({"type": "discard", "card": "99"}, "bad_card"),
        ({"type": "fold"}, "bad_action"),
    ):
        err = await conn.error({"type": "game_action", "version": v, "action": action})
        assert err["code"] == code, action
        assert err["ref"] == "game_action"
    state = await db(lambda: game_state(table))
    missing = [k for k in KINDS if k not in state.hands[seat]]
    if missing:  # 18 cards rarely hold all 21 kinds
        err = await conn.error(
            {"type": "game_action", "version": v, "action": {"type": "discard", "card": missing[0]}}
        )
        assert err["code"] == "not_in_hand"
    for other in range(4):  # B, C and D alike: not their prompt
        if other == seat:
            continue
        err = await conns[other].error(
            {"type": "game_action", "version": v, "action": {"type": "discard", "card": card}}
        )
        assert err["code"] == "not_your_turn"
    err = await spectator.error(
        {"type": "game_action", "version": v, "action": {"type": "discard", "card": card}}
    )
    assert err["code"] == "not_seated"
    assert await db(lambda: Action.objects.filter(game__table=table).count()) == 0
    # the server sets seat, at and auto: a client cannot act for another seat
    await conn.send(
        {
            "type": "game_action",
            "version": v,
            "action": {"type": "discard", "card": card, "seat": roles["D"], "auto": True},
        }
    )
    await conn.until(is_type("game_state_update", version=v + 1))
    (row,) = await db(lambda: list(Action.objects.filter(game__table=table)))
    assert row.seat == seat
    assert row.payload["seat"] == seat
    assert row.payload["card"] == card
    assert "auto" not in row.payload
    for c in [*conns, spectator]:
        await c.close()


async def test_timeouts_discard_after_20s_and_pass_a_poll_after_15s(
    clock: FrozenClock, pinned: int
) -> None:
    table, users = await db(diu_table)
    conns = await table_conns(table, users)
    await conns[0].send({"type": "start_game"})
    await conns[0].until(is_type("game_started"))
    turn_at = await next_turn(conns)
    assert turn_at is not None
    conn, turn = turn_at
    a_seat = conns.index(conn)
    assert turn["kind"] == "discard"
    assert turn["deadline"] == clock.now + SECONDS["discard"]  # t_play from the deal
    game = await db(lambda: Game.objects.get(table=table, number=1))
    assert game.notified["timer"]["at"] == clock.now + SECONDS["discard"]

    async def time_out(seconds: float) -> Frame:
        clock.advance(seconds)
        assert await db(SCHEDULER.run_due) >= 1
        return await conns[0].until(is_type("turn_timeout"))

    state = await db(lambda: game_state(table))
    auto_card = ENGINE.timeout_action(state, a_seat)["card"]
    timed = await time_out(SECONDS["discard"] + 1)
    assert timed["seat"] == a_seat
    assert timed["reason"] == "timeout"
    assert timed["action"] == {"type": "discard", "card": auto_card}
    # the discard is polled: the next prompt (a call, or a discard if everyone auto-passed)
    turn_at = await next_turn(conns)
    assert turn_at is not None
    conn, turn = turn_at
    seconds = SECONDS[turn["kind"]]
    assert turn["deadline"] == clock.now + seconds
    polled = conns.index(conn)
    timed = await time_out(seconds + 1)
    assert timed["seat"] == polled
    expected = {"discard": "discard", "call": "pass", "diu": "pass", "offer": "decline"}
    assert timed["action"]["type"] == expected[turn["kind"]]
    rows = await db(lambda: list(Action.objects.filter(game__table=table).order_by("seq")))
    assert [r.actor for r in rows] == ["timeout", "timeout"]
    assert all(r.payload["auto"] for r in rows)
    for c in conns:
        await c.close()


async def test_house_ais_play_the_other_seats_to_the_end(pinned: int) -> None:
    table, users = await db(lambda: diu_table(humans=1))
    (me,) = await table_conns(table, users)
    await me.send({"type": "start_game"})
    started = await me.until(is_type("game_started"))
    assert started["state"]["players"] == 4
    for _ in range(200):
        turn_at = await next_turn([me])
        if turn_at is None:
            break
        _, turn = turn_at
        assert turn["seat"] == 0
        state = await db(lambda: game_state(table))
        move = ENGINE.house_action(state, 0, "medium")
        move.pop("seat")
        await me.send({"type": "game_action", "version": turn["version"], "action": move})
    ended = await me.until(is_type("game_ended"))
    assert ended["result"]["result"] in ("win", "exhausted")
    assert sum(ended["result"]["scores"]) == 0
    game = await db(lambda: Game.objects.get(table=table, number=1))
    actors = await db(lambda: set(Action.objects.filter(game=game).values_list("actor", flat=True)))
    assert "house" in actors
    payloads = await db(lambda: list(Action.objects.filter(game=game, actor="house")))
    assert any(p.payload["type"] == "discard" and p.payload["card"] for p in payloads)
    await me.close()


def test_a_diu_table_has_four_seats_and_its_own_options(client: Client) -> None:
    owner = UserFactory.create(username="dopt")
    table = services.table_create(
        owner=owner,
        name="Diu",
        game="diu",
        options={"seats": 4, "t_call": 10, "decline_policy": "normal_flow"},
    )
    assert table.options["t_call"] == 10
    assert table.options["t_play"] == TABLE_TIMERS["t_play"]
    assert table.options["decline_policy"] == "normal_flow"
    assert "hide_hand_counts" not in table.options
    for bad in (
        {"seats": 3},
        {"seats": 4, "t_play": 0},
        {"seats": 4, "rotation": "random"},
        {"seats": 4, "claim_shapes": "triples"},
        {"seats": 4, "shuffle_mode": "overhand"},
        {"seats": 4, "hand_size_lead": 0},
        {"seats": 4, "riffle_count": 21},
        {"seats": 4, "prefetch_batch": 0},
        {"seats": 4, "prefetch_refill_at": -1},
        {"seats": 4, "prefetch_refill_inclusive": "yes"},
        {"seats": 4, "hand_size_lead": 40, "hand_size_other": 30},
    ):
        with pytest.raises(ValidationError):
            services.table_create(owner=owner, name="Bad", game="diu", options=bad)
    # every §13 switch is a table option (the deal, shuffle, shapes and prefetch ones too)
    house = services.table_create(
        owner=owner,
        name="House rules",
        game="diu",
        options={
            "seats": 4,
            "claim_shapes": "pong",
            "shuffle_mode": "riffle3",
            "riffle_count": 5,
            "hand_size_lead": 12,
            "hand_size_other": 11,
            "prefetch_batch": 5,
            "prefetch_refill_at": 1,
            "prefetch_refill_inclusive": False,
        },
    )
    assert house.options["claim_shapes"] == "pong"
    assert house.options["hand_size_other"] == 11
    with pytest.raises(services.TableError) as err:
        services.table_set_option(table_id=table.pk, user=owner, name="diu_mode", value="nope")
    assert err.value.code == "bad_frame"
    services.table_set_option(table_id=table.pk, user=owner, name="t_offer", value=12)
    for seat in (1, 2, 3):
        services.seat_add_bot(table_id=table.pk, user=owner, seat=seat, level="easy")
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    table.refresh_from_db()
    session: dict[str, Any] = table.session or {}
    assert session["options"]["t_call"] == 10
    assert session["options"]["t_offer"] == 12
    assert session["options"]["decline_policy"] == "normal_flow"
    game = Game.objects.get(table=table, number=1)
    assert game.config["t_call"] == 10

    # the Create Table form: diu is offered with its options and only 4 seats
    client.force_login(owner)
    page = client.get(reverse("tables:create")).content.decode()
    assert 'value="diu"' in page
    assert 'data-game-options="diu"' in page
    assert 'name="t_call"' in page
    for name in ("claim_shapes", "shuffle_mode", "hand_size_lead", "prefetch_refill_inclusive"):
        assert f'name="{name}"' in page
    assert '<option value="pong"' in page
    ranges = page.split('id="game-seat-ranges" type="application/json">')[1].split("<")[0]
    assert json.loads(ranges)["diu"] == [4, 4]
    data = {
        "name": "Diu night",
        "game": "diu",
        "seats": "4",
        "seat_1": "house:easy",
        "seat_2": "house:medium",
        "seat_3": "house:hard",
        "visibility": "public",
        "session_length": "16",
        "turn_seconds": "30",
        "t_call": "12",
        "t_offer": "15",
        "t_play": "25",
        "rotation": "winner_becomes_a",
        "allow_diu_on_discard": "on",
        "chow_split_double7": "on",
        "repoll_includes_passers": "on",
        "auto_pass_no_option": "on",
        "base": "2",
        "copies_per_kind": "4",
        "wild_count": "4",
    }
    response = client.post(reverse("tables:create"), data)
    assert response.status_code == 302
    made = Table.objects.get(name="Diu night")
    assert made.seat_count == 4
    assert made.options["t_play"] == 25
    assert made.options["rotation"] == "winner_becomes_a"
    assert made.options["chi_restriction"] == "relative"  # left blank: the default
    assert made.options["allow_diu_on_discard"] is True
    assert made.options["hard_bonus"] is False
    assert made.options["base"] == 2
    three = client.post(reverse("tables:create"), {**data, "name": "Three", "seats": "3"})
    assert three.status_code == 200
    assert not Table.objects.filter(name="Three").exists()
    page = client.get(reverse("table", args=[made.code])).content.decode()
    config = json.loads(page.split('id="table-config" type="application/json">')[1].split("<")[0])
    assert config["game"] == "diu"
    assert "css/diu.css" in page
    strings = json.loads(page.split('id="table-i18n">')[1].split("</script>")[0])
    assert strings["diu_names"] == NAMES  # the board's card names are the engine's
    assert strings["diu_role_D"]
