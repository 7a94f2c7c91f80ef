"""Example bots and starter templates of a game: what the editor offers, as data.

A game lists its examples (:class:`BotExample`: a key, a title and a one-line summary, English
marked with ``gettext_noop``) and the key of its starter template; the JavaScript of each is the
file ``bots/<key>.js`` in the package the game names (``Game.bot_files``), read by the site (the
engine does no I/O).

>>> BotExample("random", "Random", "Picks any legal move at random.").key
'random'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BotExample"]


@dataclass(frozen=True)
class BotExample:
    """An example bot: ``bots/<key>.js`` of its game's package, with its title and summary."""

    key: str
    title: str
    summary: str
