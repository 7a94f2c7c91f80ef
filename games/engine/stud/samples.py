"""Stud's Test Bot samples: played by the house AI at 3 seats, one per street and set of legal
actions, titled by street (see :mod:`games.engine.core.samples`).

>>> from games.engine.stud import GAME
>>> view = GAME.bot_view(GAME.new_game({"players": 3}, 1), 0)
>>> sample_kind(view)[0]
3
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.samples import Line, line
from games.engine.core.text import card_text, gettext_noop

__all__ = ["STREET_TITLES", "sample_kind", "sample_situation", "sample_text"]

#: The title of a sample, per street (``{legal}``: the legal actions).
STREET_TITLES = {
    3: gettext_noop("Third street: {legal}"),
    4: gettext_noop("Fourth street: {legal}"),
    5: gettext_noop("Fifth street: {legal}"),
    6: gettext_noop("Sixth street: {legal}"),
    7: gettext_noop("Seventh street: {legal}"),
}


def sample_kind(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """A sample's kind: its street and its legal actions."""
    return (view["street"], tuple(m["action"] for m in view["validMoves"]))


def sample_text(view: Mapping[str, Any]) -> tuple[Line, Line]:
    """A sample's title (street and legal actions) and description (seat, pot, to call)."""
    legal = ", ".join(m["action"] for m in view["validMoves"])
    street = view["street"]
    pot = sum(p["amount"] for p in view["pots"])
    to_call = (view["yourTurn"] or {}).get("amount_to_call", 0)
    title = (
        line(STREET_TITLES[street], legal=legal)
        if street in STREET_TITLES
        else line("{street} street: {legal}", street=str(street), legal=legal)
    )
    description = line(
        gettext_noop("Seat {seat} of {players}; pot {pot}, {to_call} to call. Legal now: {legal}."),
        seat=str(view["myPosition"]),
        players=str(view["metadata"]["players"]),
        pot=str(pot),
        to_call=str(to_call),
        legal=legal,
    )
    return title, description


def sample_situation(view: Mapping[str, Any]) -> tuple[list[str], Line]:
    """The bot's cards and what the others still in the hand show."""
    hand = [card_text(c["id"]) for c in view["myCards"]]
    up: Line | None = None
    for p in view["players"]:
        if p["seat"] == view["myPosition"] or not p["inHand"]:
            continue
        shown = line(
            gettext_noop("seat {seat}: {cards}"),
            seat=str(p["seat"]),
            cards=" ".join(card_text(c["id"]) for c in p["upCards"]),
        )
        up = shown if up is None else line("{a}; {b}", a=up, b=shown)
    if up is None:
        return hand, line(gettext_noop("Everyone else folded"))
    return hand, line(gettext_noop("Showing — {hands}"), hands=up)
