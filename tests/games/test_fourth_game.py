"""The proof that a game is one package: High Card (tests/fourth_game), written only for the
tests and registered by them, plays through the whole site with no change outside its module —
table creation (services and the form), the table WebSocket, a turn timeout on the tests'
scheduler and clock, a house AI seat, the history pages, the replay and export/import.

Every test here registers the game first (the autouse fixture) and removes it afterwards, so
no other test ever sees a fourth game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games import history, realtime, services
from games.engine import registry
from games.engine.conformance import run_scenario
from games.models import Action, ChatMessage, Game, Seat, Table
from tests.factories import UserFactory
from tests.fourth_game import GAME
from tests.fourth_game import rules as highcard_rules
from tests.games.engine import test_properties as shared_properties
from tests.scheduler import SCHEDULER, FrozenClock
from tests.ws import Conn, Frame, db, is_type, table_conns, table_path

NAME = GAME.name


@pytest.fixture(autouse=True)
def highcard() -> Iterator[Any]:
    """High Card in the registry for one test, and out of it afterwards."""
    registry.register(GAME)
    try:
        yield GAME
    finally:
        registry.unregister(NAME)


# --------------------------------------------------------------------------- the engine
def test_the_shared_engine_properties_hold_for_the_fourth_game() -> None:
    shared_properties.test_registered_games_fulfil_the_protocol(NAME)
    shared_properties.test_random_playouts_stay_legal(name=NAME)


def test_the_one_conformance_runner_runs_its_scenarios() -> None:
    state = GAME.new_game({"players": 2, "tricks": 1}, 9)
    a, b = state.hands[0][0], state.hands[1][0]
    out = run_scenario(
        {
            "game": NAME,
            "players": 2,
            "config": {"tricks": 1},
            "seed": 9,
            "actions": [
                {"type": "play", "seat": 1, "card": b},
                {"type": "play", "seat": 0, "card": a},
                {"timeout": True},
                {"type": "play", "seat": 0, "card": a},
            ],
        }
    )
    assert out["results"][0] == {"ok": False, "error": "not_your_turn"}
    assert out["results"][1] == {"ok": True, "next": [1]}
    assert out["results"][2]["auto"] == {"seat": 1, "action": "play"}
    assert out["results"][3] == {"ok": False, "error": "game_over"}
    assert out["finished"] is True
    assert sum(out["result"]["scores"]) == 0


def test_unregistered_it_is_an_unknown_game() -> None:
    registry.unregister(NAME)
    assert run_scenario({"game": NAME})["error"] == "unknown_game"
    assert "highcard_trick" not in realtime.SYSTEM_CODES
    registry.register(GAME)


# --------------------------------------------------------------------------- tables
def _users(*names: str) -> list[Any]:
    return [UserFactory.create(username=n, display_name=n.title()) for n in names]


def human_table(tricks: int = 3) -> tuple[Table, list[Any]]:
    """A High Card table of two ready people (the host at seat 0)."""
    users = _users("ann", "bo")
    table = services.table_create(
        owner=users[0], name="High", game=NAME, options={"seats": 2, "tricks": tricks}
    )
    services.seat_join(table_id=table.pk, user=users[1], seat=1)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table, users


def house_table(level: str = "sharp") -> tuple[Table, Any]:
    """The host at seat 0 against the house AI at ``level``, ready."""
    (owner,) = _users("host")
    table = services.table_create(
        owner=owner,
        name="House",
        game=NAME,
        options={"seats": 2},
        seats=[services.SeatSpec(), services.SeatSpec(Seat.Kind.HOUSE, level)],
    )
    services.seat_ready(table_id=table.pk, user=owner)
    table.refresh_from_db()
    return table, owner


def latest_game(table: Table) -> Game:
    game = Game.objects.filter(table=table).order_by("-number").first()
    assert game is not None
    return game


def play_human(table: Table, users: dict[int, Any]) -> Game:
    """Play the people's turns with their first legal card until game 1 ends (house and timed
    out seats act through the scheduler)."""
    for _ in range(40):
        game = latest_game(table)
        if game.status != Game.Status.RUNNING:
            return game
        state = GAME.state_from_json(game.state)
        seat = GAME.round_status(state).pending[0]
        card = GAME.legal_actions(state, seat)[0]["card"]
        services.game_play(
            table_id=table.pk,
            user=users[seat],
            version=game.version,
            action={"type": "play", "card": card},
        )
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_a_table_of_the_fourth_game_takes_its_seats_and_options() -> None:
    table, users = human_table(tricks=5)
    assert table.game == NAME
    assert table.options["tricks"] == 5
    assert table.seat_count == 2
    with pytest.raises(ValidationError):
        services.table_create(owner=users[0], name="Three", game=NAME, options={"seats": 3})
    with pytest.raises(ValidationError):
        services.table_create(owner=users[0], name="Many", game=NAME, options={"tricks": 40})
    # its own house level, one no other game has
    house, _ = house_table("sharp")
    assert Seat.objects.get(table=house, index=1).house_level == "sharp"
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.code]))
    assert page.status_code == 200
    html = page.content.decode()
    # it brings no board of its own: the page loads the generic one (view as text, legal
    # moves as buttons), while a game with a board file gets its own
    assert "js/boards/generic.js" in html
    assert f"js/boards/{NAME}.js" not in html
    stud = services.table_create(owner=users[0], name="Stud", game="stud")
    assert "js/boards/stud.js" in client.get(reverse("table", args=[stud.code])).content.decode()


@pytest.mark.django_db
def test_the_create_table_form_offers_the_fourth_game(client: Client) -> None:
    (user,) = _users("former")
    client.force_login(user)
    page = client.get(reverse("tables:create")).content.decode()
    assert f'value="{NAME}"' in page
    assert "High Card" in page
    assert 'name="tricks"' in page
    data = {
        "name": "High night",
        "game": NAME,
        "seats": "2",
        "seat_1": "house:sharp",
        "visibility": "public",
        "session_length": "16",
        "turn_seconds": "30",
        "tricks": "5",
    }
    response = client.post(reverse("tables:create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(name="High night")
    assert (table.game, table.options["tricks"], table.seat_count) == (NAME, 5, 2)
    seat = Seat.objects.get(table=table, index=1)
    assert (seat.kind, seat.house_level) == (Seat.Kind.HOUSE, "sharp")
    assert client.get(reverse("table", args=[table.code])).status_code == 200


# --------------------------------------------------------------------------- the socket
def _cards(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_cards(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(_cards(v) for v in obj)) if obj else set()
    return set()


async def _next_turn(conns: list[Conn]) -> tuple[Conn, Frame] | None:
    """The next ``your_turn`` any socket receives; None once the game ended."""
    for _ in range(200):
        for conn in conns:
            await conn.drain(0.01)
            for frame in list(conn.unread):
                if frame["type"] == "game_ended":
                    return None
                if frame["type"] == "your_turn":
                    conn.unread.remove(frame)
                    return conn, frame
    raise AssertionError("no your_turn frame arrived")


@pytest.mark.django_db(transaction=True)
async def test_a_whole_game_over_the_table_socket() -> None:
    table, users = await db(human_table)
    conns = await table_conns(table, users)
    spectator = Conn(table_path(table.code))
    await spectator.open()
    await conns[0].send({"type": "start_game"})
    started = [await c.until(is_type("game_started")) for c in [*conns, spectator]]
    game = await db(lambda: latest_game(table))
    dealt = GAME.state_from_json(game.state).dealt
    assert started[0]["state"]["hand"] == dealt[0]
    assert started[2]["state"]["hand"] is None
    assert not _cards(started[2]) & set(dealt[0] + dealt[1])  # a spectator sees no hand
    assert not _cards(started[0]) & set(dealt[1])  # nor a player the other's
    moves = 0
    while (turn := await _next_turn(conns)) is not None:
        conn, frame = turn
        seat = conns.index(conn)
        assert frame["legal"], frame
        assert {a["card"] for a in frame["legal"]} <= set(dealt[seat])
        version = frame["version"]
        action = {"type": "play", "card": frame["legal"][-1]["card"]}
        await conn.send({"type": "game_action", "version": version, "action": action})
        for other in [*conns, spectator]:
            await other.until(is_type("game_state_update", version=version + 1))
        moves += 1
    assert moves == 6
    ended = await spectator.until(is_type("game_ended"))
    game = await db(lambda: latest_game(table))
    assert game.status == Game.Status.FINISHED
    assert ended["result"] == game.result
    assert sum(game.scores) == 0
    state = GAME.state_from_json(game.state)
    result = GAME.result(state)
    assert result is not None
    assert game.winner_seat == result["winner"]
    rows = await db(lambda: list(Action.objects.filter(game=game).order_by("seq")))
    replayed = GAME.replay(game.config, game.seed, [r.payload for r in rows])
    assert replayed == state
    lines = await db(
        lambda: list(ChatMessage.objects.filter(table=table).values_list("code", flat=True))
    )
    assert "highcard_trick" in lines
    assert "highcard_result" in lines or "highcard_tie" in lines
    assert set(lines) <= realtime.SYSTEM_CODES  # registered at run time, its codes are in
    for c in [*conns, spectator]:
        await c.close()


# --------------------------------------------------------------------------- timers
@pytest.mark.django_db(transaction=True)
def test_a_turn_timeout_plays_the_seats_first_card(clock: FrozenClock) -> None:
    table, users = human_table()
    services.table_start(table_id=table.pk, user=users[0])
    game = latest_game(table)
    assert game.status == Game.Status.RUNNING
    state = GAME.state_from_json(game.state)
    seat = GAME.round_status(state).pending[0]
    expected = GAME.timeout_action(state, seat)
    clock.advance(int(table.options["turn_seconds"]) - 1)
    SCHEDULER.run_due()
    assert latest_game(table).version == 0  # not yet
    clock.advance(2)
    assert SCHEDULER.run_due() >= 1
    row = Action.objects.get(game=game, seq=1)
    assert row.actor == Action.Actor.TIMEOUT
    assert row.seat == seat
    assert (row.payload["card"], row.payload["auto"]) == (expected["card"], True)
    # the next turn has its own deadline, counted from the timeout
    game.refresh_from_db()
    after = GAME.state_from_json(game.state)
    assert GAME.round_status(after).pending == (1 - seat,)
    clock.advance(int(table.options["turn_seconds"]) + 1)
    assert SCHEDULER.run_due() >= 1
    assert Action.objects.filter(game=game, actor=Action.Actor.TIMEOUT).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_turn_timeout_frame_names_the_move_as_the_game_gave_it(
    clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: the site copies a move as the engine gave it. A field of this game's own in
    its timeout action reaches every seat's ``turn_timeout`` frame (the frame was cut to
    Tiến Lên's and Diu's ``type``/``cards``/``card``); the server's ``seat``, ``at`` and
    ``auto`` stay out (``Game.public_action``)."""
    from games.services import play

    real_timeout = GAME.timeout_action
    monkeypatch.setattr(
        GAME, "timeout_action", lambda state, seat: {**real_timeout(state, seat), "lead": "low"}
    )
    frames: list[dict[str, Any]] = []
    real_send = play.table_send

    def table_send(ctx: Any, work: Any, frame: Any, spectators: Any) -> None:
        frames.append(frame)
        real_send(ctx, work, frame, spectators)

    monkeypatch.setattr(play, "table_send", table_send)
    table, users = human_table()
    services.table_start(table_id=table.pk, user=users[0])
    game = latest_game(table)
    state = GAME.state_from_json(game.state)
    seat = GAME.round_status(state).pending[0]
    card = real_timeout(state, seat)["card"]
    clock.advance(int(table.options["turn_seconds"]) + 1)
    assert SCHEDULER.run_due() >= 1
    timeouts = [f for f in frames if f["type"] == "turn_timeout"]
    assert [f["action"] for f in timeouts] == [{"type": "play", "card": card, "lead": "low"}]
    assert Action.objects.get(game=game, seq=1).payload["lead"] == "low"


# --------------------------------------------------------------------------- house AI
@pytest.mark.django_db(transaction=True)
def test_a_house_ai_seat_plays_at_its_own_level() -> None:
    table, owner = house_table("sharp")
    services.table_start(table_id=table.pk, user=owner)
    game = play_human(table, {0: owner})
    assert game.status == Game.Status.FINISHED
    rows = list(Action.objects.filter(game=game).order_by("seq"))
    house = [r for r in rows if r.seat == 1]
    assert len(house) == 3
    assert {r.actor for r in house} == {Action.Actor.HOUSE}
    state = GAME.new_game(game.config, game.seed)
    for row in rows:
        if row.seat == 1:
            assert row.payload["card"] == highcard_rules.house_action(state, 1, "sharp")["card"]
        state, _ = GAME.apply(state, row.payload)


# --------------------------------------------------------------------------- history
def finished_game() -> tuple[Table, Any, Game]:
    table, owner = house_table("easy")
    services.table_start(table_id=table.pk, user=owner)
    return table, owner, play_human(table, {0: owner})


@pytest.mark.django_db(transaction=True)
def test_history_pages_replay_and_export_import(client: Client) -> None:
    table, owner, game = finished_game()
    client.force_login(owner)
    for url in (
        reverse("tables:history"),
        reverse("tables:history_mine"),
        reverse("tables:history_table", args=[table.code]),
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert reverse("tables:game", args=[table.code, 1]) in page.content.decode(), url
    detail = client.get(reverse("tables:game", args=[table.code, 1]))
    assert detail.status_code == 200
    assert "House #1" in detail.content.decode()
    assert client.get(reverse("tables:replay", args=[table.code, 1])).status_code == 200

    replay = client.get(reverse("tables:replay_json", args=[table.code, 1])).json()
    state = GAME.new_game(game.config, game.seed)
    views = [GAME.view(state, None)]
    for row in Action.objects.filter(game=game).order_by("seq"):
        state, _ = GAME.apply(state, row.payload)
        views.append(GAME.view(state, None))
    assert [s["view"] for s in replay["steps"]] == json.loads(json.dumps(views))
    assert replay["steps"][-1]["hands"] == GAME.final_hands(state)

    export = client.get(reverse("tables:export", args=[table.code, 1]))
    assert export["Content-Disposition"].startswith("attachment")
    data = export.json()
    assert data["game"] == NAME or data.get("engine") == NAME
    assert data["rules_version"] == "highcard-1"
    assert data["seed"] == game.seed  # nothing stays hidden at the end: a seeded export
    assert data["result"] == game.result
    shown = history.game_import(data=export.content)
    assert shown["signed"] is True
    assert [s["view"] for s in shown["steps"]] == [s["view"] for s in replay["steps"]]
    page = client.post(reverse("tables:history_import"), {"text": export.content.decode()})
    assert page.status_code == 200
    assert "replay-data" in page.content.decode()
