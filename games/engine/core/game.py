"""The shared shape of every game (seed 004: turns and rounds), implemented once.

A game package subclasses :class:`GameBase` and supplies only its rules — ``validate_config``,
``new_game``, ``legal_actions``, ``apply``, ``view``, ``round_status``, ``result``, the state's
JSON form (``state_to_json`` / ``state_from_json``) and ``log_actions`` (the accepted actions,
what ``replay`` takes) — plus the presentation facts it wants to override (``title``,
``table_options`` with their ``table_option_labels``, ``combo_name``, ``system_line`` with
``system_messages``, ``event_text``, ``reason_labels``, ``seat_stats``,
``house_levels``/``house_action``, ``final_hands`` …). Everything else has a working default
here: record, replay, per-round history, turn marks, timeouts, checks, bots' views and
moves, the ``your_turn`` payload, sessions with running totals, initial events and the
conformance scenario format.

>>> from games.engine.tienlen import GAME
>>> isinstance(GAME, GameBase), GAME.title
(True, 'Tiến Lên Miền Nam')
>>> state = GAME.new_game({"players": 2}, 3)
>>> GAME.replay(**{k: v for k, v in GAME.record(state).items() if k != "game"}) == state
True
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

from games.engine.core import session as sessions
from games.engine.core.errors import IllegalActionError
from games.engine.core.examples import BotExample
from games.engine.core.history import round_history
from games.engine.core.protocol import (
    Action,
    Event,
    Game,
    GameRecord,
    JSONDict,
    RoundStatus,
    SeatStat,
    members,
)
from games.engine.core.reference import BotReference
from games.engine.core.samples import BotSample, Line, generic_sample_text, played_samples
from games.engine.core.scenarios import ScenarioFormat
from games.engine.core.text import gettext_noop

__all__ = ["REQUIRED", "SUPPLIED", "GameBase", "TurnState", "seat_name", "without_seat"]


class TurnState(Protocol):
    """What the core needs of a game's state: its config and seed, whether it ended, when the
    current turn started, and a copy that can be changed safely."""

    config: dict[str, Any]
    seed: int | str
    finished: bool
    turn_started_at: float | None

    def copy(self) -> Any: ...


S = TypeVar("S", bound=TurnState)


def without_seat(action: Mapping[str, Any]) -> Action:
    """An action as a client or bot names it: without the ``seat`` (the server adds it).

    >>> without_seat({"type": "play", "seat": 1, "cards": ["3S"]})
    {'type': 'play', 'cards': ['3S']}
    """
    return {k: v for k, v in action.items() if k != "seat"}


def seat_name(names: Sequence[str | None], seat: object) -> str:
    """A seat's player name for a system line: its name, else ``Seat n`` (1-based), else ``?``.

    >>> seat_name(["Ann", None], 0), seat_name(["Ann", None], 1), seat_name([], "x")
    ('Ann', 'Seat 2', '?')
    """
    if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"Seat {seat + 1}" if isinstance(seat, int) else "?"


#: The members a game package's modules may supply as plain functions (see
#: :class:`GameBase`): every method of :class:`~games.engine.core.protocol.Game` but ``check``
#: (a rules module's ``check`` is a finer helper with its own arguments; a game that has a
#: cheaper check than applying writes the method), plus ``log_actions``.
SUPPLIED: frozenset[str] = frozenset(
    {n for n in members(Game) if inspect.isfunction(getattr(Game, n, None))} - {"check"}
) | {"log_actions"}

#: What the core cannot default: a game must supply each of these.
REQUIRED: tuple[str, ...] = (
    "validate_config",
    "new_game",
    "legal_actions",
    "apply",
    "view",
    "round_status",
    "result",
    "state_to_json",
    "state_from_json",
    "log_actions",
)


class GameBase(Generic[S]):
    """A game's module object: the rules its package supplies, the rest from the core.

    Subclasses set ``name``, ``title``, ``rules_version``, ``min_players``, ``max_players`` and
    ``state_type``, and name the modules that supply their functions in the class statement:
    ``class TienLenGame(GameBase[TienLenState], modules=(rules, views, state, ai, session))``.
    Each member of :data:`SUPPLIED` that a listed module exports (names it in ``__all__``)
    becomes a static method of the class, unless the class body writes it; two modules
    exporting different functions under one name is an error, and so is a game that leaves one
    of :data:`REQUIRED` to the core. Every method is a pure function of its arguments; the
    object holds no game.

    >>> import types
    >>> mod = types.ModuleType("demo_rules")
    >>> mod.replay = lambda config, seed, actions: "replayed"
    >>> mod.__all__ = ["replay"]
    >>> from games.engine.stud import StudGame
    >>> class Demo(StudGame, modules=(mod,)):
    ...     pass
    >>> Demo().replay({}, 1, [])
    'replayed'
    >>> class Broken(GameBase[Any]):
    ...     pass
    Traceback (most recent call last):
    ...
    TypeError: Broken supplies no validate_config, new_game, legal_actions, apply, view, ...
    """

    def __init_subclass__(cls, *, modules: Sequence[ModuleType] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found: dict[str, Any] = {}
        for module in modules:
            for name in getattr(module, "__all__", ()):
                if name not in SUPPLIED or name in vars(cls):
                    continue
                fn = getattr(module, name)
                if name in found and found[name] is not fn:
                    raise TypeError(
                        f"{cls.__name__}: {name} is exported by two of its modules;"
                        " write the method in the class"
                    )
                found[name] = fn
        for name, fn in found.items():
            setattr(cls, name, staticmethod(fn))
        missing = [n for n in REQUIRED if getattr(cls, n) is getattr(GameBase, n)]
        if missing:
            raise TypeError(f"{cls.__name__} supplies no {', '.join(missing)}")

    name: str = ""
    #: The game's readable name (English; the site translates it).
    title: str = ""
    rules_version: str = ""
    min_players: int = 2
    max_players: int = 2
    state_type: type[S]

    #: House AI strengths, weakest first (the default AI plays the first legal action).
    house_levels: tuple[str, ...] = ("medium",)
    #: This game's own table options with their defaults (passed to :meth:`session_start`).
    table_options: Mapping[str, Any] = {}
    #: The allowed values of table options that are words (offered as choices).
    table_option_choices: Mapping[str, tuple[str, ...]] = {}
    #: English labels of the table options, by name (the site translates them; an option
    #: without one shows its name).
    table_option_labels: Mapping[str, str] = {}
    #: English labels of the word options' values, by option then value (the site translates
    #: them; a value without one shows as a word).
    table_option_value_labels: Mapping[str, Mapping[str, str]] = {}
    #: The table options a host rarely changes (the Create Table form folds them under
    #: "Advanced").
    advanced_table_options: tuple[str, ...] = ()
    #: The codes of the game's own system chat lines (:meth:`system_line`).
    system_codes: tuple[str, ...] = ()
    #: English templates of those lines, by code (``str.format`` with the line's params); a
    #: pair is (singular, plural), chosen by the param ``n``.
    system_messages: Mapping[str, str | tuple[str, str]] = {}
    #: Readable English names of the result's transfer reasons (a reason without one shows
    #: its code).
    reason_labels: Mapping[str, str] = {}
    #: The game's own per-seat numbers of the player statistics, counted from each finished
    #: game's result (besides points and wins, which every game has).
    seat_stats: tuple[SeatStat, ...] = ()
    #: True when the end of a game leaves some cards hidden for good (:meth:`final_hands`):
    #: such a game's export is a hand history, never its seed.
    hides_cards: bool = False
    #: True when the history's English text (the one exports keep) uses :meth:`event_line`;
    #: False when the game's event lines are shown only at display time (the replay page,
    #: in the reader's language) and exports keep the site's generic lines, byte for byte.
    export_event_lines: bool = True
    #: How the conformance runner reads this game's scenarios.
    scenario_format: ScenarioFormat = ScenarioFormat()
    #: The codes of the game's own rulings, each with a one-line description (the codes every
    #: game shares are :data:`games.engine.core.errors.ERROR_CODES`).
    error_codes: Mapping[str, str] = {}
    #: What a bot's author reads when a move gets one of :attr:`error_codes`, by code (English,
    #: marked with ``gettext_noop``; the site translates it).
    bot_error_sentences: Mapping[str, str] = {}
    #: What ``result["scores"]`` count, for duplicate-match reports (English, translated by the
    #: site).
    points_unit: str = gettext_noop("points")
    #: The package whose ``bots/`` folder holds the JavaScript of :attr:`bot_examples` and
    #: :attr:`bot_template` (``bots/<key>.js``); "" when the game ships none.
    bot_files: str = ""
    #: The example bots the editor offers for the game, in display order.
    bot_examples: tuple[BotExample, ...] = ()
    #: The key of the game's starter template (``bots/<key>.js``); None: the default game's.
    bot_template: str | None = None
    #: The game's part of the bot API reference (:mod:`games.engine.core.reference`): its
    #: sections and their Vietnamese text; by default none, so the reference shows only the
    #: sections every game shares.
    bot_reference: BotReference = BotReference()
    #: The label of each of the game's action types where a move is described in words (Test
    #: Bot results, the validation log), by type (English, marked with ``gettext_noop``; the
    #: site translates it). A type without one: the type itself, capitalised.
    action_labels: Mapping[str, str] = {}
    #: Seats of the sample games (Test Bot) and of the validation game; None: the smallest
    #: table of at least 3.
    sample_players: int | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, rules_version={self.rules_version!r})"

    # ------------------------------------------------------------------ the game's own rules
    def validate_config(self, config: Mapping[str, Any]) -> JSONDict:
        """Normalized options, or ``bad_config`` (the game supplies it)."""
        raise NotImplementedError

    def new_game(self, config: Mapping[str, Any], seed: int | str) -> S:
        """Deal a game from a seed (the game supplies it)."""
        raise NotImplementedError

    def legal_actions(self, state: S, /, seat: int) -> list[Action]:
        """Every legal action of a seat, empty when it has none (the game supplies it)."""
        raise NotImplementedError

    def apply(self, state: S, /, action: Mapping[str, Any]) -> tuple[S, list[Event]]:
        """``(new_state, events)``; an illegal action raises with a code (the game's)."""
        raise NotImplementedError

    def view(self, state: S, /, seat: int | None) -> JSONDict:
        """The JSON view of a seat, or a spectator (None) (the game supplies it)."""
        raise NotImplementedError

    def views(self, state: S, /, seats: Sequence[int | None]) -> list[JSONDict]:
        """:meth:`view` of each of ``seats``, in order (a move sends one view per audience).
        A game whose views share costly public parts computes them once here (Tiến Lên).

        >>> from games.engine.stud import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GameBase.views(GAME, s, [0, None]) == [GAME.view(s, 0), GAME.view(s, None)]
        True
        """
        return [self.view(state, seat) for seat in seats]

    def round_status(self, state: S, /, now: float | None = None) -> RoundStatus:
        """Round index, pending seats, deadline (seed 004) (the game supplies it)."""
        raise NotImplementedError

    def result(self, state: S, /) -> JSONDict | None:
        """None until the game ends; then at least ``scores`` (the game supplies it)."""
        raise NotImplementedError

    def state_to_json(self, state: S, /) -> JSONDict:
        """The state as JSON (see :mod:`games.engine.core.state`) (the game supplies it)."""
        raise NotImplementedError

    def state_from_json(self, obj: Mapping[str, Any]) -> S:
        """The state back from :meth:`state_to_json`, or ``bad_state`` (the game's)."""
        raise NotImplementedError

    def log_actions(self, state: S, /) -> list[Action]:
        """The accepted actions so far, as :meth:`replay` takes them (the game supplies it)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ defaults
    def default_config(self) -> JSONDict:
        """The default table options: :meth:`validate_config` of nothing.

        >>> from games.engine.stud import GAME
        >>> GAME.default_config()["small_bet"]
        5
        """
        return self.validate_config({})

    def initial_events(self, state: S, /) -> list[Event]:
        """Events announcing a freshly dealt game; by default the game's end (an instant
        result) or a ``turn`` event per pending seat.

        >>> from games.engine.tienlen import GAME
        >>> [e.type for e in GameBase.initial_events(GAME, GAME.new_game({"players": 2}, 1))]
        ['turn']
        """
        res = self.result(state)
        if res is not None:
            return [Event("game_ended", res)]
        status = self.round_status(state)
        return [
            Event("turn", {"seat": s, "round": status.round_index, "deadline": status.check_at})
            for s in status.pending
        ]

    def check(self, state: S, /, action: Mapping[str, Any]) -> None:
        """Raise exactly what :meth:`apply` would raise, without applying; by default it
        applies and drops the result.

        >>> from games.engine.diu import GAME
        >>> s = GAME.new_game({}, 1)
        >>> GAME.check(s, GAME.timeout_action(s, s.turn)) is None
        True
        """
        self.apply(state, action)

    def timeout_action(self, state: S, /, seat: int) -> Action:
        """The action played for a seat whose time ran out, marked ``auto``; by default its
        first legal action.

        >>> from games.engine.tienlen import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GameBase.timeout_action(GAME, s, s.turn)["auto"]
        True
        """
        if self.result(state) is not None:
            raise IllegalActionError("game_over", "the game has ended")
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalActionError("not_your_turn", f"seat {seat} has nothing to do")
        return {**legal[0], "auto": True}

    def public_action(self, action: Mapping[str, Any]) -> Action:
        """A played action as every seat and spectator may see it named (a ``turn_timeout``
        frame): every field the game put in it, without the server's bookkeeping (``seat``,
        ``at``, ``auto``). A game whose actions carry a field other seats must not see (a card
        put down face down) overrides this.

        >>> from games.engine.tienlen import GAME
        >>> GAME.public_action({"type": "play", "cards": ["3S"], "seat": 1, "at": 5, "auto": True})
        {'type': 'play', 'cards': ['3S']}
        """
        return {k: v for k, v in action.items() if k not in ("seat", "at", "auto")}

    def mark_turn_start(self, state: S, /, at: float) -> S:
        """A copy of the state whose current turn started at ``at`` (unix seconds).

        >>> from games.engine.tienlen import GAME
        >>> s = GAME.mark_turn_start(GAME.new_game({"players": 2, "turn_seconds": 10}, 1), 5.0)
        >>> GAME.round_status(s).check_at
        15.0
        """
        st: S = state.copy()
        st.turn_started_at = at
        return st

    # ------------------------------------------------------------------ records and replays
    def record(self, state: S, /) -> GameRecord:
        """``{"game", "config", "seed", "actions"}``: everything needed to replay the game.

        >>> from games.engine.stud import GAME
        >>> GAME.record(GAME.new_game({"players": 2}, 1))["actions"]
        []
        """
        return {
            "game": self.name,
            "config": dict(state.config),
            "seed": state.seed,
            "actions": self.log_actions(state),
        }

    def end_stats(self, state: S, /) -> JSONDict:
        """The ``stats`` of a finished game's ``game_ended`` frame: rounds, actions, cards each
        seat played and the longest play (``None`` where the game's moves play no cards from a
        hand). By default from the ``play`` actions' ``cards`` (or ``card``); a game whose
        moves are otherwise overrides it.

        >>> from games.engine.tienlen import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> s, _ = GAME.apply(s, {**GAME.legal_actions(s, s.turn)[0], "seat": s.turn})
        >>> stats = GAME.end_stats(s)
        >>> stats["actions"], sum(stats["cards_played"]), len(stats["longest"]["cards"])
        (1, 1, 1)
        """
        actions = self.record(state).get("actions", [])
        players = int(state.config["players"])
        cards_played = [0] * players
        longest: JSONDict | None = None
        for action in actions:
            if action.get("type") != "play":
                continue
            # a play of several cards, or of one (``card``)
            cards = list(action["cards"]) if "cards" in action else [action["card"]]
            cards_played[int(action["seat"])] += len(cards)
            if longest is None or len(cards) > len(longest["cards"]):
                longest = {
                    "seat": action["seat"],
                    "cards": cards,
                    "combo": self.combo_name(cards),
                }
        view = self.view(state, None)
        return {
            "rounds": int(view.get("round", 0)) + 1,
            "actions": len(actions),
            "cards_played": cards_played if any(a.get("type") == "play" for a in actions) else None,
            "longest": longest,
        }

    def replay(
        self, config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
    ) -> S:
        """Rebuild a game from its seed and accepted actions (an illegal one raises); a game
        may bind a faster replay that skips the events.

        >>> from games.engine.tienlen import GAME
        >>> GameBase.replay(GAME, {"players": 2}, 1, []) == GAME.new_game({"players": 2}, 1)
        True
        """
        state = self.new_game(config, seed)
        for action in actions:
            state, _ = self.apply(state, action)
        return state

    def history(
        self, state_or_record: S | Mapping[str, Any], round_index: int, seat: int | None
    ) -> JSONDict:
        """One round's start view, public turns and end view (seed 004 "viewing history"),
        of a state or a record.

        >>> from games.engine.diu import GAME
        >>> GAME.history(GAME.new_game({}, 1), 0, None)["start"]["round"]
        0
        >>> GAME.history(42, 0, None)  # type: ignore[arg-type]
        Traceback (most recent call last):
        ...
        games.engine.core.errors.IllegalActionError: bad_state: history needs a state or a ...
        """
        if isinstance(state_or_record, self.state_type):
            record: object = self.record(state_or_record)
        else:
            record = state_or_record
        if not isinstance(record, Mapping):
            raise IllegalActionError("bad_state", "history needs a state or a game record")
        return round_history(self, record, round_index, seat)

    # ------------------------------------------------------------------ presentation facts
    def combo_name(self, cards: Sequence[str]) -> str | None:
        """The name of the combination ``cards`` make, for labels; None: the game names none.

        >>> from games.engine.stud import GAME
        >>> GAME.combo_name(["2C"]) is None
        True
        """
        return None

    def system_line(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> tuple[str, JSONDict] | None:
        """The table chat's system line for a public event (``kind`` its type) or, with
        ``kind`` ``"result"``, for the finished game's result: a code of :attr:`system_codes`
        and its params; None (the default): nothing worth a line.

        >>> from games.engine.stud import GAME
        >>> GAME.system_line("result", {"winner": 0}, ["Ann", "Bo"]) is None
        True
        """
        return None

    def system_message(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> str | None:
        """The English text of :meth:`system_line` (its template of :attr:`system_messages`,
        or the code itself); None when there is no line.

        >>> from games.engine.stud import GAME
        >>> GAME.system_message("turn", {}, []) is None
        True
        """
        line = self.system_line(kind, data, names)
        if line is None:
            return None
        code, params = line
        template = self.system_messages.get(code)
        if isinstance(template, tuple):
            template = template[0] if params.get("n") == 1 else template[1]
        return code if template is None else template.format_map(params)

    def event_line(
        self, event: Mapping[str, Any], names: Sequence[str]
    ) -> tuple[str | tuple[str, str], JSONDict] | None:
        """The game's own history line for a public event as an English template (marked with
        ``gettext_noop``; a (singular, plural) pair is chosen by ``params["n"]``) and its params
        (players' names, cards as written): the site translates the template at display time.
        None (the default): the site's generic line.

        >>> from games.engine.stud import GAME
        >>> GAME.event_line({"type": "raise", "seat": 0}, ["Ann"]) is None
        True
        """
        return None

    def event_text(self, event: Mapping[str, Any], names: Sequence[str]) -> str | None:
        """The game's own English line for a public event of the history (``names`` by seat):
        :meth:`event_line` formatted in English; None (the default): the site's generic line.

        >>> from games.engine.stud import GAME
        >>> GAME.event_text({"type": "raise", "seat": 0}, ["Ann"]) is None
        True
        """
        line = self.event_line(event, names)
        if line is None:
            return None
        template, params = line
        if isinstance(template, tuple):
            template = template[0] if params.get("n") == 1 else template[1]
        return template.format_map(params)

    def turn_payload(self, state: S, /, seat: int) -> JSONDict | None:
        """The game's own fields of the ``your_turn`` frame for ``seat`` (None when it has
        nothing to do): ``time_limit`` (this turn's seconds) and ``legal`` (its legal actions
        without the seat) by default.

        >>> from games.engine.stud import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> p = GameBase.turn_payload(GAME, s, s.turn)
        >>> p["time_limit"], p["legal"][0]
        (30, {'type': 'bring_in'})
        >>> GameBase.turn_payload(GAME, s, 1 - s.turn) is None
        True
        """
        if seat not in self.round_status(state).pending:
            return None
        return {
            "time_limit": state.config.get("turn_seconds"),
            "legal": [without_seat(a) for a in self.legal_actions(state, seat)],
        }

    def final_hands(self, state: S, /) -> list[list[str | None]] | None:
        """What the end of a game shows everyone (replays use it): each seat's cards, None for
        a card that stays hidden; None while the game is on. By default the spectator view's
        ``hands`` of the finished game.

        >>> from games.engine.tienlen import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.final_hands(s) is None
        True
        """
        if self.result(state) is None:
            return None
        hands = self.view(state, None).get("hands")
        if not isinstance(hands, list):
            return None
        return [list(h) if isinstance(h, list) else [] for h in hands]

    def duplicate_config(
        self, config: Mapping[str, Any], seed: int | str, rotation: int
    ) -> JSONDict | None:
        """The config of a duplicate of the game dealt from ``config`` and ``seed`` with its
        hands rotated by ``rotation`` seats: seat ``s`` holds what seat ``s + rotation`` was
        dealt, and everything that follows the hands (who leads) follows them too, so each
        player of a duplicate set holds each hand once in the same position (Bot Arena sets,
        ``games.services.play``). None when the game cannot deal fixed hands (the default):
        its games are then dealt fresh.

        >>> from games.engine.stud import GAME
        >>> GAME.duplicate_config({"players": 2}, 1, 1) is None
        True
        """
        return None

    # ------------------------------------------------------------------ house AI and bots
    def house_action(self, state: S, /, seat: int, level: str = "medium") -> Action:
        """The house AI's move for ``seat`` at ``level`` (one of :attr:`house_levels`); by
        default the first legal action.

        >>> from games.engine.stud import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GameBase.house_action(GAME, s, s.turn)["type"]
        'bring_in'
        """
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalActionError("not_your_turn", f"seat {seat} has nothing to do")
        return dict(legal[0])

    def suggest(self, state: S, /, seat: int) -> Action:
        """The move suggested to a seat: the house AI's, by default.

        >>> from games.engine.diu import GAME
        >>> s = GAME.new_game({}, 1)
        >>> GameBase.suggest(GAME, s, s.turn)["type"]
        'discard'
        """
        return self.house_action(state, seat)

    def arrange(self, cards: Iterable[object], mode: str = "rank") -> list[str]:
        """A hand re-ordered for display; by default as it is.

        >>> from games.engine.stud import GAME
        >>> GAME.arrange(["KS", "2C"])
        ['KS', '2C']
        """
        return [str(c) for c in cards]

    def bot_view(self, state: S, /, seat: int, session_scores: list[int] | None = None) -> JSONDict:
        """The bot API ``gameState``; by default the seat's view, its position, its legal
        actions (without the seat) and the session scores.

        >>> from games.engine.stud import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> g = GameBase.bot_view(GAME, s, s.turn)
        >>> g["myPosition"] == s.turn, g["legalActions"][0]
        (True, {'type': 'bring_in'})
        """
        return {
            "myPosition": seat,
            "view": self.view(state, seat),
            "legalActions": [without_seat(a) for a in self.legal_actions(state, seat)],
            "sessionScores": list(session_scores or []),
        }

    def parse_bot_move(self, state: S, /, seat: int, obj: object) -> Action:
        """A bot's return as a validated engine action; by default an action object
        (``{"type", ...}``) that :meth:`check` accepts for the seat.

        >>> from games.engine.stud import GAME
        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GameBase.parse_bot_move(GAME, s, s.turn, {"type": "bring_in"})["type"]
        'bring_in'
        >>> GameBase.parse_bot_move(GAME, s, s.turn, "fold")
        Traceback (most recent call last):
        ...
        games.engine.core.errors.IllegalActionError: bad_bot_move: a move must be an object
        """
        if not isinstance(obj, Mapping) or not isinstance(obj.get("type"), str):
            raise IllegalActionError("bad_bot_move", "a move must be an object")
        action = {**obj, "seat": seat}
        self.check(state, action)
        return action

    def bot_samples(self) -> list[BotSample]:
        """The fixed sample states of Test Bot, in display order: by default
        :func:`games.engine.core.samples.played_samples` (the house AI's seeded games).

        >>> from games.engine.diu import GAME
        >>> GAME.bot_samples()[0].key
        'diu_01'
        """
        return played_samples(self)

    def sample_kind(self, view: Mapping[str, Any]) -> tuple[Any, ...]:
        """What tells two played samples apart (a bot's ``gameState`` ``view``); by default
        only the view's size, so nearly every sample is the first decision.

        >>> GameBase.sample_kind(None, {"a": 1})  # type: ignore[arg-type]
        (1,)
        """
        return (len(view),)

    def sample_text(self, view: Mapping[str, Any]) -> tuple[Line, Line]:
        """A played sample's title and description (lines); by default the game's name.

        >>> from games.engine.stud import GAME
        >>> GameBase.sample_text(GAME, {})[0]
        ('{game} sample', {'game': 'stud'})
        """
        return generic_sample_text(self.name)

    def sample_situation(self, view: Mapping[str, Any]) -> tuple[list[str], Line] | None:
        """The Test Bot list's hand (labels) and a line about the table, for a sample's
        ``view``; None (the default): no hand, and the sample's description.

        >>> from games.engine.core.game import GameBase
        >>> GameBase.sample_situation(None, {}) is None  # type: ignore[arg-type]
        True
        """
        return None

    # ------------------------------------------------------------------ sessions
    def session_start(
        self, players: int, games: int = 16, options: Mapping[str, Any] | None = None
    ) -> JSONDict:
        """A new table session: ``players`` seats, ``games`` games (1–1000), ``options`` the
        game's :attr:`table_options` and ``turn_seconds`` (checked by :meth:`validate_config`).

        >>> from games.engine.stud import GAME
        >>> s = GameBase.session_start(GAME, 3, 4, {"ante": 2})
        >>> s["games"], s["options"]["ante"], s["totals"]
        (4, 2, [0, 0, 0])
        """
        own = (*self.table_options, "turn_seconds")
        opts = sessions.own_options(options, own)
        games = sessions.check_games(games)
        cfg = self.validate_config({"players": players, **opts})
        return {
            "game": self.name,
            "players": int(cfg["players"]),
            "games": games,
            "options": {k: cfg[k] for k in own if k in cfg},
            "results": [],
            "totals": [0] * int(cfg["players"]),
            "finished": False,
        }

    def session_next_config(self, session: Mapping[str, Any]) -> JSONDict:
        """The config of the session's next game (pass it to :meth:`new_game` with a fresh
        seed): the players and the session's options, by default.

        >>> from games.engine.stud import GAME
        >>> GameBase.session_next_config(GAME, GameBase.session_start(GAME, 2))["players"]
        2
        """
        sessions.check_open(session)
        return {"players": int(session["players"]), **session["options"]}

    def session_record(self, session: Mapping[str, Any], result: Mapping[str, Any]) -> JSONDict:
        """The session with a finished game's result (:meth:`result`) added to the totals.

        >>> from games.engine.stud import GAME
        >>> s = GameBase.session_start(GAME, 2)
        >>> GameBase.session_record(GAME, s, {"winner": 1, "scores": [-2, 2]})["totals"]
        [-2, 2]
        """
        scores = sessions.result_scores(session, result)
        return sessions.recorded(session, sessions.new_entry(session, result, scores), scores)

    def session_summary(self, session: Mapping[str, Any]) -> JSONDict:
        """Totals, ranking, per-game breakdown, progress.

        >>> from games.engine.stud import GAME
        >>> GameBase.session_summary(GAME, GameBase.session_start(GAME, 2))["played"]
        0
        """
        return sessions.summary(session)
