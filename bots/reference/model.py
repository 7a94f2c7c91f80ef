"""The reference's data model: sections of paragraphs, tables, lists and code blocks.

Inline markup in the text is limited to `code`, **bold** and [links](url). Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Block", "Section", "code", "p", "rows3", "table", "ul"]


@dataclass(frozen=True)
class Block:
    """``kind`` is ``p`` (text), ``table`` (header + rows), ``list`` (items) or ``code``."""

    kind: str
    text: str = ""
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    items: tuple[str, ...] = ()
    lang: str = ""


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    level: int
    blocks: tuple[Block, ...] = field(default_factory=tuple)
    in_panel: bool = True
    game: str | None = None
    """The game the section documents (None: every game); the editor panel shows the shared
    sections and those of the bot's game."""


def p(text: str) -> Block:
    return Block("p", text=" ".join(text.split()))


def table(header: tuple[str, ...], *rows: tuple[str, ...]) -> Block:
    return Block("table", header=header, rows=rows)


def ul(*items: str) -> Block:
    return Block("list", items=tuple(" ".join(i.split()) for i in items))


def code(lang: str, text: str) -> Block:
    return Block("code", text=text.strip("\n"), lang=lang)


def rows3(fields: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, ...], ...]:
    """Rows of a (field, type, meaning) table, the name set as code."""
    return tuple((f"`{name}`", kind, meaning) for name, kind, meaning in fields)
