"""The stud and Diu expert house AIs at live tables (issue 18): seated by the services and
played by the autoplay task (the bots workers' path) within ``HOUSE_AI_BUDGET_MS``."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.engine.registry import find_game
from games.models import Action, Game, Seat
from games.services.autoplay import _house_move
from tests.factories import UserFactory
from tests.games.live import pending_seat, state_of


@pytest.mark.parametrize("name", ["stud", "diu"])
def test_expert_is_a_level_of_the_game(name: str) -> None:
    assert "expert" in find_game(name).house_levels
    assert "expert" in services.house_levels()


@pytest.mark.parametrize("name", ["stud", "diu"])
@pytest.mark.django_db(transaction=True)
def test_a_table_with_expert_seats_plays_their_turns(name: str, settings: Any) -> None:
    settings.HOUSE_AI_BUDGET_MS = 50
    engine = find_game(name)
    owner = UserFactory.create(username=f"host-{name}", display_name="Host")
    table = services.table_create(
        owner=owner,
        name="Expert",
        game=name,
        seats=[services.SeatSpec()] + [services.SeatSpec(Seat.Kind.HOUSE, "expert")] * 3,
    )
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table, number=1)
    # the owner plays the timeout move (check or fold, pass, auto-discard); the house seats
    # answer through the autoplay task
    for _ in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        assert pending_seat(game) == 0
        move = engine.timeout_action(state_of(game), 0)
        move = {k: v for k, v in move.items() if k not in ("seat", "auto")}
        services.game_play(table_id=table.pk, user=owner, version=game.version, action=move)
    game.refresh_from_db()
    assert game.status != Game.Status.RUNNING
    house = Action.objects.filter(game=game, seat__in=(1, 2, 3))
    assert house.exists()
    assert set(house.values_list("actor", flat=True)) == {"house"}
    # every stored move replays: the expert's moves were legal
    state = engine.new_game(game.config, game.seed)
    for row in Action.objects.filter(game=game).order_by("seq"):
        state, _ = engine.apply(state, row.payload)
    assert engine.result(state) is not None


@pytest.mark.parametrize("name", ["stud", "diu"])
def test_autoplay_passes_the_budget_setting(name: str, settings: Any) -> None:
    settings.HOUSE_AI_BUDGET_MS = 7
    real: Any = find_game(name)
    calls: list[float | None] = []

    class Recording(type(real)):  # type: ignore[misc]
        """The real engine, remembering the budget ``house_action`` was given."""

        def house_action(
            self, state: Any, /, seat: int, level: str = "medium", budget_ms: float | None = 300.0
        ) -> Any:
            calls.append(budget_ms)
            return real.house_action(state, seat, level, budget_ms=budget_ms)

    engine = Recording()
    state = engine.new_game(engine.default_config(), seed=5)
    seat = engine.round_status(state).pending[0]
    engine.check(state, _house_move(engine, state, seat, "expert"))
    assert calls == [7.0]
