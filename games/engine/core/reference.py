"""The bot API reference's data model: sections of paragraphs, tables, lists and code blocks.

Each game writes its own part of the reference (its ``gameState``, moves and error codes) with
these blocks, in ``games/engine/<game>/reference.py``, and hands it over as a
:class:`BotReference` (``Game.bot_reference``); ``bots.reference`` puts every game's part
between the shared sections and renders the whole. Inline markup in the text is limited to
`code`, **bold** and [links](url). Pure Python.

>>> ref = BotReference(sections=(Section("x", "X", 2, (p("One  line."), sandbox_errors())),))
>>> [b.kind for b in ref.sections[0].blocks], ref.sections[0].blocks[0].text
(['p', 'sandbox_errors'], 'One line.')
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "Block",
    "BotReference",
    "Section",
    "code",
    "normal",
    "p",
    "rows3",
    "sandbox_errors",
    "table",
    "ul",
]


@dataclass(frozen=True)
class Block:
    """``kind`` is ``p`` (text), ``table`` (header + rows), ``list`` (items), ``code``, or
    ``sandbox_errors``: the table of the bot sandbox's failure codes, which the site fills in
    (they are the same for every game)."""

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


def sandbox_errors() -> Block:
    """The place of the sandbox's failure codes table (the site's, shared by every game)."""
    return Block("sandbox_errors")


def normal(text: str) -> str:
    """``text`` with its whitespace normalised, as the Vietnamese table's keys are.

    >>> normal(" a  b ")
    'a b'
    """
    return " ".join(text.split())


@dataclass(frozen=True)
class BotReference:
    """A game's part of the bot API reference: its ``sections`` (each with ``game`` set), the
    Vietnamese text of their words (``vi``: English text → Vietnamese, whitespace normalised
    on use) and the texts that read the same in Vietnamese (``keep``: names, notations)."""

    sections: tuple[Section, ...] = ()
    vi: tuple[tuple[str, str], ...] = ()
    keep: frozenset[str] = frozenset()
