"""Invariants every registered game keeps, shared by the parametrised playouts
(``test_properties.py``) and each game's own playouts (which add its specific ones).

``check_common(game, state)``: the state survives JSON and ``replay(record)``; every view and
bot view is JSON; the spectator sees no hand; no view shows a card another seat holds in secret
(:func:`hidden_cards`; a game whose cards repeat, Diu, checks that by masking in its own tests).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from games.engine.core.protocol import Game
from games.engine.stud.cards import card_id
from games.engine.stud.rules import UP_POSITIONS
from games.engine.tienlen.cards import mask_to_ids


def _tienlen_hidden(state: Any, owner: int, viewer: int | None) -> list[str]:
    if state.finished or owner == viewer:
        return []
    return mask_to_ids(state.hands[owner])


def _stud_hidden(state: Any, owner: int, viewer: int | None) -> list[str]:
    """Every card of ``owner`` not dealt yet, and its down cards unless ``viewer`` is the owner
    or they were shown at the showdown."""
    live = state.active[owner] and not state.folded[owner]
    shown = viewer == owner or (state.showdown and live)
    return [
        card_id(c)
        for i, c in enumerate(state.cards[owner])
        if i >= state.dealt[owner] or (i not in UP_POSITIONS and not shown)
    ]


#: Card ids of ``owner`` that ``viewer`` (None: a spectator) may not see, by game.
HIDDEN: dict[str, Callable[[Any, int, int | None], list[str]]] = {
    "tienlen": _tienlen_hidden,
    "stud": _stud_hidden,
}


def hidden_cards(game: Game, state: Any, owner: int, viewer: int | None) -> list[str]:
    """What ``viewer`` may not see of ``owner``'s cards (empty for a game not in HIDDEN)."""
    hidden = HIDDEN.get(game.name)
    return hidden(state, owner, viewer) if hidden else []


def players(state: Any) -> int:
    return int(state.config["players"])


def check_common(game: Game, state: Any, *, replay: bool = True) -> None:
    """The invariants of every game's state (see the module docstring)."""
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
    if replay:
        record = game.record(state)
        assert record["game"] == game.name
        assert game.replay(record["config"], record["seed"], record["actions"]) == state
    n = players(state)
    assert game.view(state, None).get("hand") is None
    for seat in [None, *range(n)]:
        text = json.dumps(game.view(state, seat))
        if seat is not None:
            text += json.dumps(game.bot_view(state, seat))
        for owner in range(n):
            for cid in hidden_cards(game, state, owner, seat):
                assert f'"{cid}"' not in text, f"seat {seat} sees {cid} of seat {owner}"


def check_public_events(game: Game, state: Any, events: list[Any]) -> None:
    """Events go to a seat of the table or to everyone, are JSON, and a public one shows no
    card a spectator may not see."""
    n = players(state)
    for event in events:
        assert event.to is None or 0 <= event.to < n
        text = json.dumps(event.to_json())
        if event.public:
            for owner in range(n):
                for cid in hidden_cards(game, state, owner, None):
                    assert f'"{cid}"' not in text, f"public event shows {cid}"
