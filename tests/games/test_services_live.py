"""Live-table services: lobby, the play path, game flow, sessions, chat, practice."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from games import realtime, services
from games.engine.core.errors import EngineError
from games.engine.registry import find_game
from games.models import Action, ChatMessage, Game, Seat, Table
from tests.factories import UserFactory
from tests.games.live import (
    four_player_table,
    pending_seat,
    replay_states,
    seat_users,
    started_table,
    state_of,
)
from tests.scheduler import SCHEDULER

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = find_game("tienlen")


def play_one(table: Table, game: Game) -> int:
    """The pending human plays their first legal action (a play if any)."""
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    action = ENGINE.legal_actions(state_of(game), seat)[0]
    move: dict[str, Any] = {"type": action["type"]}
    if action["type"] == "play":
        move["cards"] = action["cards"]
    return services.game_play(table_id=table.pk, user=user, version=game.version, action=move)


def test_start_implies_the_hosts_ready_when_everybody_else_is() -> None:
    """Issue 25: a host alone with house AIs had to press Ready and then Start."""
    host = UserFactory.create()
    table = services.table_create(
        owner=host,
        name="Alone",
        seats=[services.SeatSpec(), *[services.SeatSpec("house", "easy")] * 3],
    )
    assert table.status == Table.Status.WAITING
    services.table_start(table_id=table.pk, user=host)
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS
    assert Seat.objects.get(table=table, index=0).ready
    # another person not ready yet: Start still refuses, and changes nothing
    table, users = four_player_table()
    for user in (users[0], users[2]):
        services.seat_ready(table_id=table.pk, user=user, ready=False)
    with pytest.raises(services.TableError) as err:
        services.table_start(table_id=table.pk, user=users[0])
    assert err.value.code == "not_ready"
    assert not Seat.objects.get(table=table, index=0).ready


def test_lobby_ready_and_start_deals_game_one() -> None:
    table, users = four_player_table()
    assert table.status == Table.Status.READY
    services.seat_ready(table_id=table.pk, user=users[2], ready=False)
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    with pytest.raises(services.TableError) as err:
        services.table_start(table_id=table.pk, user=users[0])
    assert err.value.code == "not_ready"
    services.seat_ready(table_id=table.pk, user=users[2])
    with pytest.raises(services.TableError) as err:
        services.table_start(table_id=table.pk, user=users[1])
    assert err.value.code == "not_host"
    services.table_start(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    assert table.status == Table.Status.IN_PROGRESS
    game = Game.objects.get(table=table)
    assert game.number == 1
    assert game.status == Game.Status.RUNNING
    assert 0 <= game.seed < 2**63
    assert game.config["started_at"] > 0
    assert table.session is not None
    assert table.session["games"] == 16


def test_join_errors_and_kick_and_bots() -> None:
    owner = UserFactory.create(username="host")
    table = services.table_create(owner=owner, name="T", options={"seats": 3})
    guest = UserFactory.create(username="guest")
    with pytest.raises(services.TableError, match="seat_taken"):
        services.seat_join(table_id=table.pk, user=guest, seat=0)
    with pytest.raises(services.TableError, match="login_required"):
        services.seat_join(table_id=table.pk, user=None)
    assert services.seat_join(table_id=table.pk, user=guest) == 1
    with pytest.raises(services.TableError, match="already_seated"):
        services.seat_join(table_id=table.pk, user=guest)
    services.seat_add_bot(table_id=table.pk, user=owner, seat=2, level="hard")
    with pytest.raises(services.TableError, match="no_seat"):
        services.seat_join(table_id=table.pk, user=UserFactory.create(username="late"))
    with pytest.raises(services.TableError, match="not_host"):
        services.seat_kick(table_id=table.pk, user=guest, seat=2)
    services.seat_kick(table_id=table.pk, user=owner, seat=1)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert [s.kind for s in seats] == ["human", "empty", "house"]
    assert seats[2].house_level == "hard"
    services.table_set_option(table_id=table.pk, user=owner, name="hide_hand_counts", value=True)
    with pytest.raises(services.TableError, match="bad_frame"):
        services.table_set_option(table_id=table.pk, user=owner, name="turn_seconds", value=1)
    table.refresh_from_db()
    assert table.options["hide_hand_counts"] is True
    assert ChatMessage.objects.filter(table=table, is_system=True).count() >= 3


def test_table_create_validates_game_and_seats() -> None:
    owner = UserFactory.create(username="host")
    with pytest.raises(EngineError):
        services.table_create(owner=owner, name="X", game="poker")
    with pytest.raises(ValidationError):
        services.table_create(
            owner=owner, name="X", seats=[services.SeatSpec(), services.SeatSpec("house", "pro")]
        )


def test_stale_version_and_engine_errors_change_nothing() -> None:
    table, _users, game = started_table()
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    with pytest.raises(services.TableError) as err:
        services.game_play(table_id=table.pk, user=user, version=5, action={"type": "pass"})
    assert err.value.code == "stale_version"
    assert err.value.extra == {"version": 0}
    with pytest.raises(EngineError) as eerr:
        services.game_play(table_id=table.pk, user=user, version=0, action={"type": "pass"})
    assert eerr.value.code == "leader_cannot_pass"
    other = seat_users(table)[(seat + 1) % 4]
    with pytest.raises(EngineError) as eerr:
        services.game_play(
            table_id=table.pk, user=other, version=0, action={"type": "play", "cards": ["3S"]}
        )
    assert eerr.value.code == "not_your_turn"
    game.refresh_from_db()
    assert game.version == 0
    assert not Action.objects.filter(game=game).exists()


def test_play_path_queries(django_assert_num_queries: Any) -> None:
    table, _users, game = started_table()
    seat = pending_seat(game)
    user = seat_users(table)[seat]
    action = ENGINE.legal_actions(state_of(game), seat)[0]
    # the table's lock with its seats and latest game (one message); insert the action and
    # update the game in one statement; the transaction itself (Django logs BEGIN where psycopg
    # would send it: here the test's transaction has begun already), COMMIT
    with django_assert_num_queries(4):
        services.game_play(
            table_id=table.pk,
            user=user,
            version=0,
            action={"type": "play", "cards": action["cards"]},
        )
    game.refresh_from_db()
    assert game.version == 1
    assert game.notified["version"] == 1
    assert list(game.notified["seats"]) == [str(pending_seat(game))]


def test_full_game_replays_and_next_game() -> None:
    table, users, game = started_table()
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        play_one(table, game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    assert sum(game.scores or []) == 0
    replayed = ENGINE.replay(
        game.config, game.seed, [a.payload for a in Action.objects.filter(game=game)]
    )
    assert ENGINE.state_to_json(replayed) == game.state
    assert [a.seq for a in Action.objects.filter(game=game)] == list(range(1, game.version + 1))
    table.refresh_from_db()
    assert table.session is not None
    assert table.session["results"][0]["winner"] == game.winner_seat
    assert table.next_game_at is not None
    pending = SCHEDULER.take(services.TASK_NEXT_GAME)
    assert [p[2] for p in pending] == [[table.pk, 1]]
    # a player deals now; the automatic timer then does nothing
    assert services.game_next(table_id=table.pk, user=users[1]) is True
    assert services.game_next(table_id=table.pk, after_game=1) is False
    second = Game.objects.get(table=table, number=2)
    assert second.config["opening"] is (game.result.get("instant_win") is not None)


def test_last_game_completes_the_session() -> None:
    table, users, game = started_table()
    # pretend 15 games were played already
    session: dict[str, Any] = dict(Table.objects.get(pk=table.pk).session or {})
    ops: Any = ENGINE
    for _ in range(15):
        session = ops.session_record(session, {"winner": 0, "scores": [3, -1, -1, -1]})
    Table.objects.filter(pk=table.pk).update(session=session)
    while game.status == Game.Status.RUNNING:
        play_one(table, game)
        game.refresh_from_db()
    table.refresh_from_db()
    assert table.status == Table.Status.COMPLETED
    assert table.session is not None
    assert table.session["finished"] is True
    assert not SCHEDULER.take(services.TASK_NEXT_GAME)
    with pytest.raises(services.TableError, match="bad_state"):
        services.game_next(table_id=table.pk, user=users[0])
    over = ChatMessage.objects.get(table=table, code="session_over")
    assert over.params is not None
    assert set(over.params) == {"name", "points"}
    best = over.params["name"]
    assert over.text == f"Session over: {best} wins with {over.params['points']}."
    won = ChatMessage.objects.get(room="lobby", code="lobby_session_won")
    assert won.is_system
    assert won.author is None
    assert won.params == {"name": best, "table": "Live", "code": table.code}
    assert won.text == f"{best} won the session at Live."


def test_system_lines_are_stored_with_code_and_params() -> None:
    table, _users, game = started_table()
    lines = list(ChatMessage.objects.filter(table=table, is_system=True).order_by("pk"))
    assert all(m.code in realtime.SYSTEM_CODES for m in lines)
    joined = [m for m in lines if m.code == "seat_joined"]
    assert [m.params for m in joined] == [{"name": f"P{i}", "seat": i + 1} for i in (1, 2, 3)]
    assert joined[0].text == "P1 joined seat 2."  # the English fallback
    dealt = lines[-1]
    assert (dealt.code, dealt.params, dealt.text) == (
        "game_dealt",
        {"game": 1, "games": 16},
        "Game 1 of 16 is dealt.",
    )
    while game.status == Game.Status.RUNNING:
        play_one(table, game)
        game.refresh_from_db()
    codes = set(ChatMessage.objects.filter(table=table).values_list("code", flat=True))
    assert codes & {"game_won", "game_won_instant"}
    assert "round_won" in codes or "game_won_instant" in codes


def test_public_tables_are_announced_in_the_lobby() -> None:
    owner = UserFactory.create(username="host", display_name="Lan")
    table = services.table_create(owner=owner, name="Friday", game="stud")
    line = ChatMessage.objects.get(room="lobby")
    assert (line.is_system, line.author, line.code) == (True, None, "lobby_table_opened")
    assert line.params == {"name": "Lan", "table": "Friday", "game": "stud", "code": table.code}
    assert line.text == "Lan opened a public table Friday (stud)."
    services.table_create(owner=owner, name="Secret", visibility=Table.Visibility.PRIVATE)
    services.table_create_practice(owner=owner)
    assert ChatMessage.objects.filter(room="lobby").count() == 1


def test_practice_table_plays_house_ais_until_the_human() -> None:
    owner = UserFactory.create(username="solo")
    table = services.table_create_practice(owner=owner)
    assert table.mode == "practice"
    assert table.visibility == "private"
    assert table.status == Table.Status.IN_PROGRESS
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert [s.house_level for s in seats[1:]] == ["easy", "medium", "hard"]
    game = Game.objects.get(table=table)
    if game.status == Game.Status.RUNNING:
        assert pending_seat(game) == 0  # the house seats played up to the human's turn
        assert Action.objects.filter(game=game).exclude(actor="house").count() == 0


def test_chat_rules() -> None:
    table, users = four_player_table()
    spectator = UserFactory.create(username="watcher")
    msg = services.chat_post(user=users[1], text="  <b>hi</b>  ", table_id=table.pk)
    assert msg.text == "<b>hi</b>"
    assert msg.room == "table"
    with pytest.raises(services.TableError, match="wrong_room"):
        services.chat_post(user=spectator, text="hi", table_id=table.pk, room="table")
    assert services.chat_post(user=spectator, text="hi", table_id=table.pk).room == "spectators"
    with pytest.raises(services.TableError, match="message_too_long"):
        services.chat_post(user=users[0], text="x" * 501)
    with pytest.raises(services.TableError, match="empty_message"):
        services.chat_post(user=users[0], text="   ")
    with pytest.raises(services.TableError, match="login_required"):
        services.chat_post(user=None, text="hi")
    assert services.chat_post(user=users[0], text="x" * 500).room == "lobby"


def test_replay_states_helper_matches_db() -> None:
    table, _users, game = started_table()
    for _ in range(5):
        game.refresh_from_db()
        play_one(table, game)
    game.refresh_from_db()
    assert ENGINE.state_to_json(replay_states(game)[-1]) == game.state
