"""Diu's Test Bot samples: played by the house AI, one per prompt kind, reply shapes, where the
card came from and how far the stock is gone (see :mod:`games.engine.core.samples`).

>>> from games.engine.diu import GAME
>>> view = GAME.bot_view(GAME.new_game({}, 1), GAME.new_game({}, 1).turn)
>>> sample_kind(view)[0]
'discard'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.samples import Line, line
from games.engine.core.text import gettext_noop

__all__ = ["PROMPT_TITLES", "sample_kind", "sample_situation", "sample_text"]

#: The title of a sample, per prompt kind.
PROMPT_TITLES = {
    "discard": gettext_noop("Discard"),
    "call": gettext_noop("A card is up: claim it or pass"),
    "diu": gettext_noop("Diu chance"),
    "offer": gettext_noop("An offer"),
}


def sample_kind(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """A sample's kind: the prompt, whether 丢 or a claim is open, the card's source, and the
    stock in steps of 12."""
    prompt = view["prompt"] or {}
    actions = {str(o["action"]) for o in prompt.get("options", [])}
    source = (view["card"] or {}).get("source")
    return (
        prompt.get("kind"),
        "diu" in actions,
        "claim" in actions,
        source,
        view["stockCount"] // 12,
    )


def sample_text(view: Mapping[str, Any]) -> tuple[Line, Line]:
    """A sample's title (the prompt, the claims open) and description (role, cards, stock,
    the card up, the replies)."""
    prompt = view["prompt"] or {}
    kind = str(prompt.get("kind"))
    shapes = sorted({str(o["action"]) for o in prompt.get("options", [])})
    claims = sorted({str(o["type"]) for o in prompt.get("options", []) if "type" in o})
    title = line(PROMPT_TITLES.get(kind, kind))
    if "diu" in shapes:
        title = line(gettext_noop("A card is up: you can diu (win)"))
    if claims:
        title = line(gettext_noop("{title} ({claims})"), title=title, claims=", ".join(claims))
    up = view["card"]
    where = (
        line(
            gettext_noop("card {card} from seat {seat} ({source})"),
            card=str(up["card"]),
            seat=str(up["seat"]),
            source=str(up["source"]),
        )
        if up
        else line(gettext_noop("no card up"))
    )
    description = line(
        gettext_noop(
            "You are {role} (seat {seat}), {cards} cards, {stock} in the stock; {where}. "
            "Replies: {replies}."
        ),
        role=str(view["myRole"]),
        seat=str(view["myPosition"]),
        cards=str(len(view["myCards"])),
        stock=str(view["stockCount"]),
        where=where,
        replies=", ".join(shapes),
    )
    return title, description


def sample_situation(view: Mapping[str, Any]) -> tuple[list[str], Line]:
    """The bot's cards and the card up (or that it discards)."""
    card = view["card"]
    table = (
        line(
            gettext_noop("Card {card} up, from seat {seat} ({source})"),
            card=str(card["card"]),
            seat=str(card["seat"]),
            source=str(card["source"]),
        )
        if card
        else line(gettext_noop("You discard"))
    )
    return [str(c) for c in view["myCards"]], table
