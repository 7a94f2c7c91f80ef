"""Example bots and the editor's starter template (JavaScript files beside this module)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["EXAMPLES", "Example", "example_code", "template_code"]

_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Example:
    key: str
    title: str
    summary: str

    @property
    def code(self) -> str:
        return example_code(self.key)


EXAMPLES: tuple[Example, ...] = (
    Example("random", "Random", "Picks any legal move at random; sometimes passes."),
    Example("greedy", "Greedy", "Sheds the most cards as cheaply as possible; saves its 2s."),
    Example("defensive", "Defensive", "Keeps a strong hand and blocks opponents close to out."),
)


@cache
def example_code(key: str) -> str:
    """The source of an example (``random``, ``greedy``, ``defensive``) or ``template``."""
    if key not in {e.key for e in EXAMPLES} | {"template"}:
        raise KeyError(key)
    return (_DIR / f"{key}.js").read_text(encoding="utf-8")


def template_code() -> str:
    """The code a new bot starts with (seed 002 §4.4)."""
    return example_code("template")
