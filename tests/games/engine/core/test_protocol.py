"""The ``Game`` protocol grouped by concern, and game classes bound from their modules."""

from __future__ import annotations

import inspect
import types
from typing import Any

import pytest

from games.engine.core.game import REQUIRED, SUPPLIED, GameBase
from games.engine.core.protocol import CONCERNS, Game, members
from games.engine.registry import GAMES
from games.engine.stud import StudGame
from games.engine.tienlen import ai as tienlen_ai
from games.engine.tienlen import rules as tienlen_rules
from games.engine.tienlen import session as tienlen_session
from games.engine.tienlen import views as tienlen_views
from tests.fourth_game import GAME as HIGH_CARD


def test_concerns_split_the_protocol_without_overlap() -> None:
    names = [n for part in CONCERNS for n in members(part)]
    assert len(names) == len(set(names))
    assert set(names) == set(members(Game))


@pytest.mark.parametrize("game", [*GAMES.values(), HIGH_CARD], ids=lambda g: g.name)
def test_every_game_is_every_concern(game: Any) -> None:
    assert isinstance(game, Game)
    for part in CONCERNS:
        assert isinstance(game, part), part.__name__


def test_bound_functions_are_the_modules_own() -> None:
    """The class statement's modules supply the rules, views, AI and sessions: the very
    functions, as static methods (no wrapper on the move path)."""
    cls = type(GAMES["tienlen"])
    for name, module in [
        ("apply", tienlen_rules),
        ("replay", tienlen_rules),
        ("log_actions", tienlen_rules),
        ("view", tienlen_views),
        ("bot_view", tienlen_views),
        ("house_action", tienlen_ai),
        ("session_start", tienlen_session),
    ]:
        bound = inspect.getattr_static(cls, name)
        assert isinstance(bound, staticmethod), name
        assert bound.__func__ is getattr(module, name), name


def test_the_class_body_wins_over_a_module() -> None:
    """Tiến Lên's rules module exports a finer ``check(state, seat, mask)``: ``check`` is
    never taken from a module, and a method the class writes is never replaced."""
    game = GAMES["tienlen"]
    assert "check" not in SUPPLIED
    assert inspect.getattr_static(type(game), "check").__qualname__ == "TienLenGame.check"
    assert inspect.getattr_static(type(game), "initial_events").__qualname__ == (
        "TienLenGame.initial_events"
    )


def _module(**functions: Any) -> types.ModuleType:
    mod = types.ModuleType("demo")
    for name, fn in functions.items():
        setattr(mod, name, fn)
    mod.__all__ = list(functions)  # type: ignore[attr-defined]
    return mod


def test_two_modules_exporting_one_member_is_an_error() -> None:
    a = _module(replay=lambda config, seed, actions: "a")
    b = _module(replay=lambda config, seed, actions: "b")
    with pytest.raises(TypeError, match="replay is exported by two of its modules"):

        class Twice(StudGame, modules=(a, b)):
            pass


def test_a_game_missing_its_rules_is_refused_when_defined() -> None:
    with pytest.raises(TypeError) as err:

        class Empty(GameBase[Any], modules=(_module(apply=lambda state, action: None),)):
            pass

    for name in REQUIRED:
        assert (name in str(err.value)) is (name != "apply")


def test_names_outside_the_protocol_are_not_bound() -> None:
    mod = _module(helper=lambda: 1, replay=lambda config, seed, actions: "mine")

    class Demo(StudGame, modules=(mod,)):
        pass

    assert not hasattr(Demo, "helper")
    replayed: object = Demo().replay({}, 1, [])
    assert replayed == "mine"
