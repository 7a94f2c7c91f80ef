"""Helpers for the live-table tests: tables with seated users, engine states from the DB."""

from __future__ import annotations

from typing import Any

from games import services
from games.engine.registry import find_game
from games.models import Action, Game, Seat, Table
from tests.factories import UserFactory
from tests.scheduler import RecordingScheduler


def four_player_table(**options: Any) -> tuple[Table, list[Any]]:
    """A public 4-seat table with four ready humans (the host at seat 0), not started."""
    users = [UserFactory.create(username=f"p{i}", display_name=f"P{i}") for i in range(4)]
    table = services.table_create(owner=users[0], name="Live", options=options or None)
    for i, user in enumerate(users[1:], start=1):
        services.seat_join(table_id=table.pk, user=user, seat=i)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table, users


def started_table(**options: Any) -> tuple[Table, list[Any], Game]:
    table, users = four_player_table(**options)
    services.table_start(table_id=table.pk, user=users[0])
    game = Game.objects.get(table=table, number=1)
    return table, users, game


def house_game(recorder: RecordingScheduler) -> tuple[Game, list[Any]]:
    """A 2-seat game whose host left at once: both seats are the server's. Returns the game
    and the first bot turn the leave scheduled (nothing has run: the recorder, installed once
    the game is dealt, holds it)."""
    owner = UserFactory.create(username="host")
    table = services.table_create(owner=owner, name="House", options={"seats": 2})
    services.seat_add_bot(table_id=table.pk, user=owner, seat=1, level="easy")
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table, number=1)
    recorder.install()
    services.seat_leave(table_id=table.pk, user=owner)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    first = [t for t in recorder.turns() if t[0] == [game.pk, game.version]]
    assert first, recorder.calls
    recorder.calls.clear()
    return game, first[0][0]


def state_of(game: Game) -> Any:
    game.refresh_from_db()
    return find_game(game.engine).state_from_json(game.state)


def pending_seat(game: Game) -> int:
    engine = find_game(game.engine)
    return engine.round_status(state_of(game)).pending[0]


def replay_states(game: Game) -> list[Any]:
    """The game's state after 0, 1, 2 … actions, rebuilt from seed, config and actions."""
    engine = find_game(game.engine)
    state = engine.new_game(game.config, game.seed)
    states = [state]
    for action in Action.objects.filter(game=game).order_by("seq"):
        state, _ = engine.apply(state, action.payload)
        states.append(state)
    return states


def seat_users(table: Table) -> dict[int, Any]:
    return {s.index: s.user for s in Seat.objects.filter(table=table).select_related("user")}


def another_connection(*, autocommit: bool) -> Any:
    """A psycopg connection of its own to the test database (another session's locks)."""
    import psycopg as pg
    from django.db import connection

    info = connection.settings_dict
    return pg.connect(
        host=info["HOST"] or None,
        port=info["PORT"] or None,
        user=info["USER"],
        dbname=info["NAME"],
        password=info["PASSWORD"] or None,
        autocommit=autocommit,
    )
