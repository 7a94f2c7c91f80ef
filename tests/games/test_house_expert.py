"""The expert house AI at live tables (issue 18): offered with the other levels, seated by the
services, played by the autoplay task within ``HOUSE_AI_BUDGET_MS``."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from games import services
from games.engine.registry import find_game
from games.engine.tienlen import ai as tienlen_ai
from games.engine.tienlen.game import TienLenGame
from games.forms import PracticeForm, TableCreateForm
from games.models import Action, Game, Seat, Table
from games.services.autoplay import _house_move
from tests.factories import UserFactory
from tests.games.live import pending_seat, state_of

ENGINE = find_game("tienlen")


def test_expert_is_offered_wherever_the_levels_are() -> None:
    assert "expert" in services.house_levels()
    levels = [(lvl, lvl) for lvl in services.house_levels()]
    practice: Any = PracticeForm(house_levels=levels).fields["level"]
    assert "expert" in dict(practice.choices)
    seat: Any = TableCreateForm(house_levels=levels).fields["seat_1"]
    assert "house:expert" in [v for v, _ in _flat(seat.choices)]


def _flat(choices: Any) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for value, label in choices:
        if isinstance(label, (list, tuple)):
            out += _flat(label)
        else:
            out.append((value, label))
    return out


@pytest.mark.django_db(transaction=True)
def test_a_table_with_expert_seats_plays_their_turns(settings: Any) -> None:
    settings.HOUSE_AI_BUDGET_MS = 30
    owner = UserFactory.create(username="host", display_name="Host")
    table = services.table_create(
        owner=owner,
        name="Expert",
        seats=[
            services.SeatSpec(),
            services.SeatSpec(Seat.Kind.HOUSE, "expert"),
            services.SeatSpec(Seat.Kind.HOUSE, "expert"),
            services.SeatSpec(Seat.Kind.HOUSE, "hard"),
        ],
    )
    levels = list(Seat.objects.filter(table=table).order_by("index").values_list("house_level"))
    assert levels == [(None,), ("expert",), ("expert",), ("hard",)]
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table, number=1)
    # the owner plays the weakest legal play or passes; the house seats answer inline
    for _ in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        assert pending_seat(game) == 0
        legal = ENGINE.legal_actions(state_of(game), 0)
        action = legal[-1] if legal[-1]["type"] == "pass" else legal[0]
        move = {k: v for k, v in action.items() if k in ("type", "cards")}
        services.game_play(table_id=table.pk, user=owner, version=game.version, action=move)
    expert_moves = Action.objects.filter(game=game, seat__in=(1, 2))
    assert expert_moves.exists()
    assert set(expert_moves.values_list("actor", flat=True)) == {"house"}
    # every stored move replays: the expert's moves were legal
    state = ENGINE.new_game(game.config, game.seed)
    for row in Action.objects.filter(game=game).order_by("seq"):
        state, _ = ENGINE.apply(state, row.payload)


@pytest.mark.django_db
def test_an_unknown_level_is_refused_and_creates_nothing() -> None:
    owner = UserFactory.create(username="host2")
    with pytest.raises(ValidationError):
        services.table_create(
            owner=owner,
            name="Bad",
            seats=[services.SeatSpec(), services.SeatSpec(Seat.Kind.HOUSE, "grandmaster")],
        )
    assert not Table.objects.filter(owner=owner).exists()


class _Recording(TienLenGame):
    """The real Tiến Lên engine, remembering the keywords ``house_action`` was given."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def house_action(
        self, state: Any, /, seat: int, level: str = "medium", budget_ms: float | None = 300.0
    ) -> Any:
        self.calls.append({"budget_ms": budget_ms})
        return tienlen_ai.house_action(state, seat, level, budget_ms=budget_ms, iterations=20)


def test_autoplay_gives_searching_levels_the_budget_setting(settings: Any) -> None:
    settings.HOUSE_AI_BUDGET_MS = 42
    engine = _Recording()
    state = engine.new_game({"players": 4}, seed=5)
    move = _house_move(engine, state, state.turn, "expert")
    assert engine.calls == [{"budget_ms": 42.0}]
    engine.check(state, move)
    # a game whose house_action takes no budget is called without one
    stud = find_game("stud")
    s = stud.new_game({"players": 3}, seed=2)
    assert _house_move(stud, s, s.turn, "hard")["seat"] == s.turn
