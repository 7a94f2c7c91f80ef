"""The contract every game module fulfils (seed 004: turns and rounds), and its small types.

A game is data plus pure functions. Tables, bots and replays only talk to this protocol, so no
caller special-cases a game.

>>> status = RoundStatus(round_index=2, pending=(1,), check_at=None)
>>> status.round_index, status.pending
(2, (1,))
>>> Event("passed", {"seat": 1}).to_json()
{'type': 'passed', 'seat': 1}
>>> Event("hand", {"cards": ["3S"]}, to=0).public
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    NamedTuple,
    Protocol,
    TypeAlias,
    runtime_checkable,
)

if TYPE_CHECKING:
    from games.engine.core.examples import BotExample
    from games.engine.core.reference import BotReference
    from games.engine.core.samples import BotSample, Line
    from games.engine.core.scenarios import ScenarioFormat

__all__ = [
    "CONCERNS",
    "Action",
    "BotOps",
    "Event",
    "Game",
    "GameFacts",
    "GameRecord",
    "GameRecords",
    "GameRules",
    "GameText",
    "HouseAI",
    "JSONDict",
    "RoundStatus",
    "SeatStat",
    "SessionOps",
    "members",
]

JSONDict: TypeAlias = dict[str, Any]
#: An action is a small JSON-able dict, e.g. ``{"type": "pass", "seat": 1}``.
Action: TypeAlias = dict[str, Any]
#: Everything needed to rebuild a game: ``{"config": ..., "seed": ..., "actions": [...]}``.
GameRecord: TypeAlias = dict[str, Any]


class RoundStatus(NamedTuple):
    """Seed 004's round status: the round index, who must act, when to check again.

    ``check_at`` is a unix time (the pending turn's deadline) or None when nothing is scheduled
    (no known turn start, or the game is over).

    >>> RoundStatus(0, (), None).pending
    ()
    """

    round_index: int
    pending: tuple[int, ...]
    check_at: float | None


class SeatStat(NamedTuple):
    """A number the player statistics count for a seat in a finished game's result, named
    ``key``: with ``kind`` ``"listed"`` whether the seat is in the result's list ``source``;
    ``"received"`` / ``"paid"`` how many of the result's ``transfers`` with reason ``source``
    went to / came from the seat. ``label`` names it on the statistics pages (English, marked
    with ``gettext_noop`` and translated by the site; the key when empty).

    >>> SeatStat("cuts_made", "received", "chat", "Cuts made").kind
    'received'
    """

    key: str
    kind: Literal["listed", "received", "paid"]
    source: str
    label: str = ""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for one audience: ``to`` is a seat, or None for everyone.

    >>> e = Event("cards_played", {"seat": 0, "cards": ["3S"]})
    >>> e.public, e.to_json()["type"]
    (True, 'cards_played')
    """

    type: str
    data: JSONDict = field(default_factory=dict)
    to: int | None = None

    @property
    def public(self) -> bool:
        """True when every seat and spectator may see the event.

        >>> Event("turn").public
        True
        """
        return self.to is None

    def to_json(self) -> JSONDict:
        """The event as a JSON-able dict with its ``type`` first (the audience is not included).

        >>> Event("turn", {"seat": 3}).to_json()
        {'type': 'turn', 'seat': 3}
        """
        return {"type": self.type, **self.data}


@runtime_checkable
class GameFacts(Protocol):
    """Who a game is and what its tables offer: plain data, no state involved."""

    name: str
    title: str
    rules_version: str
    min_players: int
    max_players: int

    @property
    def table_options(self) -> Mapping[str, Any]: ...

    @property
    def table_option_choices(self) -> Mapping[str, tuple[str, ...]]: ...

    @property
    def table_option_labels(self) -> Mapping[str, str]: ...

    @property
    def table_option_value_labels(self) -> Mapping[str, Mapping[str, str]]: ...

    @property
    def advanced_table_options(self) -> tuple[str, ...]: ...

    @property
    def hides_cards(self) -> bool: ...

    @property
    def scenario_format(self) -> ScenarioFormat: ...

    @property
    def error_codes(self) -> Mapping[str, str]: ...


@runtime_checkable
class GameRules(Protocol):
    """The rules (seed 004): deal, legal actions, apply, views, rounds, timeouts, result."""

    def default_config(self) -> JSONDict: ...

    def validate_config(self, config: Mapping[str, Any]) -> JSONDict: ...

    def new_game(self, config: Mapping[str, Any], seed: int | str) -> Any: ...

    def initial_events(self, state: Any, /) -> list[Event]: ...

    def legal_actions(self, state: Any, /, seat: int) -> list[Action]: ...

    def apply(self, state: Any, /, action: Mapping[str, Any]) -> tuple[Any, list[Event]]: ...

    def check(self, state: Any, /, action: Mapping[str, Any]) -> None: ...

    def view(self, state: Any, /, seat: int | None) -> JSONDict: ...

    def views(self, state: Any, /, seats: Sequence[int | None]) -> list[JSONDict]: ...

    def round_status(self, state: Any, /, now: float | None = None) -> RoundStatus: ...

    def timeout_action(self, state: Any, /, seat: int) -> Action: ...

    def public_action(self, action: Mapping[str, Any]) -> Action: ...

    def mark_turn_start(self, state: Any, /, at: float) -> Any: ...

    def result(self, state: Any, /) -> JSONDict | None: ...


@runtime_checkable
class GameRecords(Protocol):
    """Records, replays, per-round history and the state's stored JSON form."""

    def record(self, state: Any, /) -> GameRecord: ...

    def end_stats(self, state: Any, /) -> JSONDict: ...

    def replay(
        self, config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
    ) -> Any: ...

    def history(self, state_or_record: Any, round_index: int, seat: int | None) -> JSONDict: ...

    def state_to_json(self, state: Any, /) -> JSONDict: ...

    def state_from_json(self, obj: Mapping[str, Any]) -> Any: ...


@runtime_checkable
class SessionOps(Protocol):
    """Table-session helpers of a game (a session is a run of games at one table)."""

    def session_start(
        self, players: int, games: int = 16, options: Mapping[str, Any] | None = None
    ) -> JSONDict: ...

    def session_next_config(self, session: Mapping[str, Any]) -> JSONDict: ...

    def session_record(self, session: Mapping[str, Any], result: Mapping[str, Any]) -> JSONDict: ...

    def session_summary(self, session: Mapping[str, Any]) -> JSONDict: ...


@runtime_checkable
class HouseAI(Protocol):
    """The house AI: its strengths, its move, the Suggestion button, duplicate deals."""

    @property
    def house_levels(self) -> tuple[str, ...]: ...

    def house_action(self, state: Any, /, seat: int, level: str = "medium") -> Action: ...

    def suggest(self, state: Any, /, seat: int) -> Action: ...

    def duplicate_config(
        self, config: Mapping[str, Any], seed: int | str, rotation: int
    ) -> dict[str, Any] | None: ...


@runtime_checkable
class BotOps(Protocol):
    """What a bot sees (``gameState``), how its answer becomes an engine action, what its
    author reads about a refused move, and the fixed sample states of Test Bot and the
    validation game (:mod:`games.engine.core.samples`)."""

    def bot_view(
        self, state: Any, /, seat: int, session_scores: list[int] | None = None
    ) -> JSONDict: ...

    def parse_bot_move(self, state: Any, /, seat: int, obj: object) -> Action: ...

    @property
    def bot_error_sentences(self) -> Mapping[str, str]: ...

    @property
    def sample_players(self) -> int | None: ...

    def bot_samples(self) -> list[BotSample]: ...

    def sample_kind(self, view: Mapping[str, Any]) -> tuple[Any, ...]: ...

    def sample_text(self, view: Mapping[str, Any]) -> tuple[Line, Line]: ...

    def sample_situation(self, view: Mapping[str, Any]) -> tuple[list[str], Line] | None: ...

    @property
    def bot_reference(self) -> BotReference: ...

    @property
    def bot_files(self) -> str: ...

    @property
    def bot_examples(self) -> tuple[BotExample, ...]: ...

    @property
    def bot_template(self) -> str | None: ...


@runtime_checkable
class GameText(Protocol):
    """What the table and the history show: chat and history lines, labels, the ``your_turn``
    payload, final hands, hand order. English, marked for the site to translate."""

    @property
    def system_codes(self) -> tuple[str, ...]: ...

    @property
    def system_messages(self) -> Mapping[str, str | tuple[str, str]]: ...

    @property
    def reason_labels(self) -> Mapping[str, str]: ...

    @property
    def seat_stats(self) -> tuple[SeatStat, ...]: ...

    @property
    def export_event_lines(self) -> bool: ...

    @property
    def points_unit(self) -> str: ...

    @property
    def action_labels(self) -> Mapping[str, str]: ...

    def turn_payload(self, state: Any, /, seat: int) -> JSONDict | None: ...

    def combo_name(self, cards: Sequence[str]) -> str | None: ...

    def system_line(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> tuple[str, JSONDict] | None: ...

    def system_message(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> str | None: ...

    def event_line(
        self, event: Mapping[str, Any], names: Sequence[str]
    ) -> tuple[str | tuple[str, str], JSONDict] | None: ...

    def event_text(self, event: Mapping[str, Any], names: Sequence[str]) -> str | None: ...

    def final_hands(self, state: Any, /) -> list[list[str | None]] | None: ...

    def arrange(self, cards: Iterable[object], mode: str = "rank") -> list[str]: ...


@runtime_checkable
class Game(GameFacts, GameRules, GameRecords, SessionOps, HouseAI, BotOps, GameText, Protocol):
    """What a game's module object exposes (see ``games.engine.tienlen.GAME``), grouped by
    concern: :class:`GameFacts` (identity, table options), :class:`GameRules` (seed 004),
    :class:`GameRecords` (records, replays, storage), :class:`SessionOps` (runs of games at a
    table), :class:`HouseAI`, :class:`BotOps` and :class:`GameText` (what the table and the
    history show). A caller that needs one concern may type against that part alone.

    Every member is always there: :class:`games.engine.core.game.GameBase` gives the defaults,
    a game package supplies its rules and overrides the facts that are its own. Callers never
    probe with ``hasattr``.

    >>> from games.engine.stud import GAME
    >>> all(isinstance(GAME, part) for part in CONCERNS)
    True
    >>> sum(len(members(part)) for part in CONCERNS) == len(members(Game))
    True
    """


#: The parts of :class:`Game`, one per concern.
CONCERNS: tuple[type, ...] = (
    GameFacts,
    GameRules,
    GameRecords,
    SessionOps,
    HouseAI,
    BotOps,
    GameText,
)


def members(protocol: type) -> tuple[str, ...]:
    """The member names a protocol of this module declares (its own and its parts').

    >>> members(BotOps)[:2]
    ('bot_view', 'parse_bot_move')
    >>> len(members(Game))
    68
    """
    names: dict[str, None] = {}
    for klass in reversed(protocol.__mro__):
        if klass is Protocol or klass is object or klass.__module__ != __name__:
            continue
        for name in (*getattr(klass, "__annotations__", {}), *vars(klass)):
            if not name.startswith("_"):
                names[name] = None
    return tuple(names)
