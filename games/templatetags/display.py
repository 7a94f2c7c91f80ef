"""Template filters for system-made names (:mod:`games.display`) and the board script a page
imports for a game (``{% board_script engine %}``).

``{% load display %}`` then ``{{ table.name|table_name }}``, ``{{ p.name|player_name }}``,
``{{ game.engine|game_label }}``."""

from __future__ import annotations

from django import template
from django.contrib.staticfiles import finders
from django.templatetags.static import static

from games import display

register = template.Library()

register.filter("table_name", display.table_name)
register.filter("player_name", display.player_name)
register.filter("game_label", display.game_label)


@register.filter
def player_names(names: list[str] | None) -> str:
    """Seat names joined with ", ", each through :func:`games.display.player_name`."""
    return ", ".join(display.player_name(n) for n in names or [])


@register.simple_tag
def board_script(engine: str | None) -> str:
    """The URL of a game's board module: static/js/boards/<game>.js, else boards/generic.js
    (as the table page picks it, games/views.py)."""
    path = f"js/boards/{engine}.js"
    return static(path if engine and finders.find(path) else "js/boards/generic.js")
