"""Fixed sample game states for "Test Bot" (issue #5, seed 002 §7.2), one list per game.

Each sample is a real engine state, so what a bot sees here is exactly what it would see at a
table (``engine.bot_view``), and its answer is judged by the engine
(``engine.parse_bot_move``). Each game chooses its own samples (``engine.bot_samples()``, see
:mod:`games.engine.core.samples`: Tiến Lên's are scripted deals and plays, the others' come
from seeded games played by the house AI). Everything is deterministic: the same list, in the
same order, on every call. Pure Python: no Django.

Titles and descriptions are :class:`Text`: English with ``{placeholders}``, marked with
``gettext_noop`` for the site's catalog (by the game that wrote them) and translated where they
are shown (:func:`localize_result`, with the reader's language).

>>> cases = sample_cases()
>>> len(cases) >= 10, cases[0].key
(True, 'opening_lead')
>>> cases[0].view()["metadata"]["isFirstTurn"]
True
>>> [len(sample_cases(g)) >= 10 for g in ("stud", "diu")]
[True, True]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.engine.core.samples import Line
from games.engine.registry import DEFAULT_GAME, find_game

__all__ = ["SampleCase", "Text", "line_as_text", "localize_result", "sample_cases"]


@dataclass(frozen=True)
class Text:
    """A message for the reader: an English ``msgid`` with ``{placeholders}`` filled from
    ``params`` (a value that is itself a :class:`Text` is translated too). ``str()`` is the
    English text; :meth:`render` translates with the catalog lookup it is given.

    >>> t = Text("Seat {seat}: {what}", (("seat", "2"), ("what", Text("Discard"))))
    >>> str(t), t.render({"Seat {seat}: {what}": "Ghế {seat}: {what}", "Discard": "Bỏ bài"}.get)
    ('Seat 2: Discard', 'Ghế 2: Bỏ bài')
    >>> Text.from_json(t.to_json()) == t
    True
    """

    msgid: str
    params: tuple[tuple[str, str | Text], ...] = ()

    def render(self, translate: Callable[[str], str | None] | None = None) -> str:
        """The text, each message looked up with ``translate`` (English when it answers None
        or empty, or when a translation's placeholders do not match)."""
        args = {k: v.render(translate) if isinstance(v, Text) else v for k, v in self.params}
        own = (translate(self.msgid) if translate and self.msgid else None) or self.msgid
        if not args:
            return own
        try:
            return own.format(**args)
        except (KeyError, IndexError, ValueError):
            return self.msgid.format(**args)

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        params = {k: v.to_json() if isinstance(v, Text) else v for k, v in self.params}
        return {"msgid": self.msgid, "params": params}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Text:
        params = tuple(
            (str(k), cls.from_json(v) if isinstance(v, Mapping) else str(v))
            for k, v in dict(obj.get("params") or {}).items()
        )
        return cls(str(obj["msgid"]), params)


def text(msgid: str, **params: str | Text) -> Text:
    """A :class:`Text` (``msgid`` must be marked with ``gettext_noop`` where it is written)."""
    return Text(msgid, tuple(params.items()))


def line_as_text(line: Line | str) -> Text:
    """A game's :data:`games.engine.core.samples.Line` (template and params, a param maybe a
    line itself) as a :class:`Text`.

    >>> str(line_as_text(("{a} and {b}", {"a": "x", "b": ("B{n}", {"n": "1"})})))
    'x and B1'
    """
    if isinstance(line, str):
        return Text(line)
    template, params = line
    return Text(
        template,
        tuple((k, v if isinstance(v, str) else line_as_text(v)) for k, v in params.items()),
    )


def localize_result(
    result: Mapping[str, Any], translate: Callable[[str], str | None]
) -> dict[str, Any]:
    """A Test Bot result (``SampleResult.to_json()``) with the texts it has messages for
    (``i18n``, dropped from the copy: ``title``, ``description``, ``table``…) translated; a
    result without them is returned as it is.

    >>> r = {"title": "Discard", "i18n": {"title": {"msgid": "Discard", "params": {}}}}
    >>> localize_result(r, {"Discard": "Bỏ bài"}.get)
    {'title': 'Bỏ bài'}
    """
    out = dict(result)
    messages = out.pop("i18n", None)
    if isinstance(messages, Mapping):
        for name, message in messages.items():
            if isinstance(message, Mapping) and "msgid" in message:
                out[name] = Text.from_json(message).render(translate)
    return out


@dataclass(frozen=True)
class SampleCase:
    """One fixed situation: the state, whose turn it is, and what it exercises (``title``
    and ``description`` in English; ``title_text`` and ``description_text`` to translate)."""

    key: str
    title_text: Text
    description_text: Text
    state: Any
    seat: int
    game: str = DEFAULT_GAME

    @property
    def title(self) -> str:
        return str(self.title_text)

    @property
    def description(self) -> str:
        return str(self.description_text)

    def view(self) -> dict[str, Any]:
        """The bot's ``gameState`` for this sample (a fresh dict on every call)."""
        return dict(find_game(self.game).bot_view(self.state, self.seat))


@cache
def _cached(game: str) -> tuple[SampleCase, ...]:
    return tuple(
        SampleCase(
            s.key, line_as_text(s.title), line_as_text(s.description), s.state, s.seat, game=game
        )
        for s in find_game(game).bot_samples()
    )


def sample_cases(game: str = DEFAULT_GAME) -> list[SampleCase]:
    """The fixed samples of ``game``, in display order (built once per process).
    ``unknown_game`` for a name the registry does not know."""
    find_game(game)
    return list(_cached(game))
