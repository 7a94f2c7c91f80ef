"""Fixed sample states for bot authors (Test Bot, the validation game's situations), as each
game chooses them.

A sample is a real engine state and the seat to act, with a title and a description as
:data:`Line`: an English template marked with ``gettext_noop`` and its params, a param being a
string or another line (the site translates each part in the reader's language, as it does a
history line). A game gives its samples with ``bot_samples()``; by default they are
:func:`played_samples`: seeded games of the game's own house AI, keeping the first decision of
each kind the game tells apart (``sample_kind``), titled by ``sample_text``.

>>> from games.engine.stud import GAME
>>> samples = played_samples(GAME)
>>> len(samples) >= 10, samples[0].key
(True, 'stud_01')
>>> line_text(samples[0].title)
'Third street: bring_in, complete'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, Union

from games.engine.core.text import gettext_noop

if TYPE_CHECKING:
    from games.engine.core.protocol import Game

__all__ = [
    "MAX_MOVES",
    "PLAYED_SAMPLES",
    "PLAYED_SEEDS",
    "BotSample",
    "Line",
    "line",
    "line_text",
    "played_samples",
]

#: An English template (``gettext_noop``) and its params; a param is a string or a line.
Line: TypeAlias = tuple[str, Mapping[str, Union[str, "Line"]]]

#: How many samples a played list keeps, and how many seeded games it may look through.
PLAYED_SAMPLES = 12
PLAYED_SEEDS = 60
MAX_MOVES = 600


def line(template: str, **params: str | Line) -> Line:
    """A :data:`Line` (``template`` must be marked with ``gettext_noop`` where it is written).

    >>> line("Seat {seat}", seat="2")
    ('Seat {seat}', {'seat': '2'})
    """
    return template, params


def line_text(value: str | Line) -> str:
    """A line in English (its params filled in, nested lines too).

    >>> line_text(("{a}, {b}", {"a": "x", "b": ("B{n}", {"n": "1"})}))
    'x, B1'
    """
    if isinstance(value, str):
        return value
    template, params = value
    if not params:
        return template
    return template.format(**{k: line_text(v) for k, v in params.items()})


@dataclass(frozen=True)
class BotSample:
    """One fixed situation: its ``key``, ``title`` and ``description`` (lines), the state and
    the seat whose turn it is."""

    key: str
    title: Line
    description: Line
    state: Any
    seat: int


def played_samples(game: Game) -> list[BotSample]:
    """Samples of ``game`` from seeded games of its house AI (medium): every seat's decision
    is a candidate, the first of each ``game.sample_kind`` is kept, in the order met, up to
    :data:`PLAYED_SAMPLES`, at ``game.sample_players`` seats (else its smallest table)."""
    players = game.sample_players or game.min_players
    seen: set[tuple[Any, ...]] = set()
    cases: list[BotSample] = []
    for seed in range(PLAYED_SEEDS):
        state = game.new_game({"players": players}, seed=seed)
        for _ in range(MAX_MOVES):
            pending = game.round_status(state).pending
            if getattr(state, "finished", False) or not pending:
                break
            seat = pending[0]
            view = game.bot_view(state, seat)
            kind = game.sample_kind(view)
            if kind not in seen:
                seen.add(kind)
                title, description = game.sample_text(view)
                key = f"{game.name}_{len(cases) + 1:02d}"
                cases.append(BotSample(key, title, description, state, seat))
                if len(cases) >= PLAYED_SAMPLES:
                    return cases
            state, _events = game.apply(state, game.house_action(state, seat, "medium"))
    return cases


def generic_sample_text(name: str) -> tuple[Line, Line]:
    """The title and description of a sample of a game that words none.

    >>> line_text(generic_sample_text("highcard")[0])
    'highcard sample'
    """
    return (
        line(gettext_noop("{game} sample"), game=name),
        line(gettext_noop("A {game} decision."), game=name),
    )
