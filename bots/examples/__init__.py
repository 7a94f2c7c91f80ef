"""Example bots and the editor's starter templates, per game (JavaScript files beside this
module: ``<key>.js``; a game's template is ``template.js`` for Tiến Lên, ``<game>_template.js``
otherwise)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.utils.translation import gettext_noop as _

__all__ = ["EXAMPLES", "Example", "example_code", "examples_for", "template_code"]

_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Example:
    key: str
    title: str  # English, marked for translation: shown through ``gettext``
    summary: str
    game: str = "tienlen"

    @property
    def code(self) -> str:
        return example_code(self.key)


EXAMPLES: tuple[Example, ...] = (
    Example(
        "random",
        _("Random"),
        _("Picks any legal move at random; sometimes passes."),
    ),
    Example(
        "greedy",
        _("Greedy"),
        _("Sheds the most cards as cheaply as possible; saves its 2s."),
    ),
    Example(
        "defensive",
        _("Defensive"),
        _("Keeps a strong hand and blocks opponents close to out."),
    ),
    Example(
        "stud_caller",
        _("Calling station"),
        _("Never folds, never raises: checks when it can, else calls."),
        game="stud",
    ),
    Example(
        "stud_reader",
        _("Hand reader"),
        _("Rates its pairs and draws against the up cards; raises strong hands, folds weak ones."),
        game="stud",
    ),
    Example(
        "diu_random",
        _("Random"),
        _("Takes a diu when it can; otherwise any legal reply at random."),
        game="diu",
    ),
    Example(
        "diu_builder",
        _("Meld builder"),
        _("Claims only what leaves fewer loose cards, keeps its 听用, discards the loosest card."),
        game="diu",
    ),
)

#: The starter template of each game (its file name without ``.js``).
TEMPLATES = {"tienlen": "template", "stud": "stud_template", "diu": "diu_template"}


def examples_for(game: str) -> list[Example]:
    """The examples written for ``game``, in display order."""
    return [e for e in EXAMPLES if e.game == game]


@cache
def example_code(key: str) -> str:
    """The source of an example (``random``, ``stud_reader``…) or a template
    (``template``, ``stud_template``…)."""
    if key not in {e.key for e in EXAMPLES} | set(TEMPLATES.values()):
        raise KeyError(key)
    return (_DIR / f"{key}.js").read_text(encoding="utf-8")


def template_code(game: str = "tienlen") -> str:
    """The code a new bot of ``game`` starts with (seed 002 §4.4); Tiến Lên's for a game
    without a template of its own."""
    return example_code(TEMPLATES.get(game, TEMPLATES["tienlen"]))
