"""Example bots and the editor's starter templates, per game. Each game lists its own
(``Game.bot_examples`` and ``Game.bot_template``, :mod:`games.engine.core.examples`) and ships
their JavaScript as ``bots/<key>.js`` in its package (``Game.bot_files``); this module reads
them for every registered game.

>>> [e.key for e in examples_for("stud")]
['stud_caller', 'stud_reader']
>>> "getNextMove" in template_code("diu"), template_code("nope") == template_code()
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from games.engine.registry import DEFAULT_GAME, GAMES, find_game

__all__ = [
    "Example",
    "all_examples",
    "example_code",
    "example_path",
    "examples_for",
    "template_code",
]


@dataclass(frozen=True)
class Example:
    key: str
    title: str  # English, marked for translation: shown through ``gettext``
    summary: str
    game: str = DEFAULT_GAME

    @property
    def code(self) -> str:
        return example_code(self.key)


def examples_for(game: str) -> list[Example]:
    """The examples written for ``game``, in display order (none for an unknown game)."""
    engine = GAMES.get(game)
    if engine is None:
        return []
    return [Example(e.key, e.title, e.summary, game=game) for e in engine.bot_examples]


def all_examples() -> list[Example]:
    """Every registered game's examples, game by game."""
    return [e for game in GAMES for e in examples_for(game)]


def example_path(key: str) -> Path:
    """The file of an example (``random``, ``stud_reader``…) or of a game's template
    (``template``, ``stud_template``…): ``bots/<key>.js`` in its game's package; ``KeyError``
    for a key no registered game lists."""
    for game in GAMES.values():
        keys = {e.key for e in game.bot_examples} | {game.bot_template}
        if key in keys and game.bot_files:
            return Path(str(resources.files(game.bot_files) / "bots" / f"{key}.js"))
    raise KeyError(key)


def example_code(key: str) -> str:
    """The source of an example or a template (:func:`example_path`)."""
    return example_path(key).read_text(encoding="utf-8")


def template_code(game: str = DEFAULT_GAME) -> str:
    """The code a new bot of ``game`` starts with (seed 002 §4.4); the default game's for a
    game without a template of its own."""
    engine = GAMES.get(game)
    key = engine.bot_template if engine is not None else None
    return example_code(key or str(find_game(DEFAULT_GAME).bot_template))
