"""Entrants of a local duplicate match: a JavaScript bot file run in the project's sandbox, or
a house AI (``house:easy|medium|hard``, any level the game's engine has).

An external bot (:class:`ExternalEntrant`, site matches only) is asked for every move through
an :class:`ExternalTurns` (the site's bot sockets), with the same time limit and strikes.

A bot entrant plays like a seated bot at a live table (``bots.turns.bot_seat_player``): one
sandboxed :class:`~bots.sandbox.BotProcess` per game and seat (globals live for one game),
``gameState`` is ``engine.bot_view(state, seat)``, the return goes through
``engine.parse_bot_move``; a timeout, exception, bad return or illegal move raises an
:class:`~games.engine.duplicate.EntrantError` (a strike: the core plays the engine's
``timeout_action``); a sandbox that died is restarted for the next move, as the live registry
does. Pure Python: no Django.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from bots.sandbox import BotProcess, SandboxLimits
from games.engine.core.protocol import Game
from games.engine.duplicate import (
    Decision,
    Entrant,
    EntrantError,
    GameOutcome,
    GameTask,
    HouseEntrant,
    Mapper,
    Player,
)

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "BotFileEntrant",
    "EntrantSpecError",
    "ExternalEntrant",
    "ExternalPlayer",
    "ExternalTurns",
    "MatchGame",
    "SandboxPlayer",
    "match_games_mapper",
    "parse_entrants",
]

#: Seconds per move, as at the live tables (``BOTS_MOVE_TIMEOUT_SECONDS``).
DEFAULT_TIMEOUT_S = 5.0
HOUSE_PREFIX = "house:"


class EntrantSpecError(ValueError):
    """A ``--vs`` (or first) argument that names no entrant; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class SandboxPlayer:
    """One bot seated in one game: its own sandbox process, started at once (the top-level
    code runs when the game starts)."""

    def __init__(self, engine: Game, code: str, *, seed: int, timeout_s: float) -> None:
        self.engine = engine
        self.timeout_s = timeout_s
        limits = SandboxLimits(move_timeout_s=timeout_s, load_timeout_s=timeout_s)
        self.process = BotProcess(code, limits=limits, seed=seed)
        self.process.start()

    def decide(self, state: Any, seat: int) -> Decision:
        process = self.process
        if process.load_outcome.ok and not process.alive:
            process.restart()  # it died on an earlier move: fresh child, globals reset
        outcome = process.move(self.engine.bot_view(state, seat), timeout_s=self.timeout_s)
        if not outcome.ok:
            raise EntrantError(
                str(outcome.error_code), outcome.error_message or "", ms=outcome.elapsed_ms
            )
        try:
            action = self.engine.parse_bot_move(state, seat, outcome.value)
        except ValueError as exc:
            code = f"illegal:{getattr(exc, 'code', 'illegal_move')}"
            raise EntrantError(code, str(exc), ms=outcome.elapsed_ms) from exc
        return Decision(action, ms=outcome.elapsed_ms)

    def close(self) -> None:
        self.process.close()


@dataclass(frozen=True)
class BotFileEntrant:
    """A JavaScript bot (its code, read once) under ``name``; picklable, so a process pool's
    workers can seat it."""

    name: str
    code: str
    path: str = ""
    timeout_s: float = DEFAULT_TIMEOUT_S

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        return SandboxPlayer(engine, self.code, seed=seed, timeout_s=self.timeout_s)


def _unique(names: Sequence[str]) -> list[str]:
    """Names made distinct: a repeated name gets ``#2``, ``#3``…

    >>> _unique(["greedy", "house:hard", "greedy"])
    ['greedy', 'house:hard', 'greedy#2']
    """
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def parse_entrants(
    specs: Sequence[str], engine: Game, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> list[Entrant]:
    """The entrants named by ``specs``: ``house:LEVEL`` (one of the engine's house levels) or
    the path of a ``.js`` bot file (named after the file). Errors: ``unknown_house_level``,
    ``no_such_file``, ``not_a_bot_file``.

    >>> from games.engine.registry import find_game
    >>> [e.name for e in parse_entrants(["house:hard", "house:easy"], find_game("stud"))]
    ['house:hard', 'house:easy']
    >>> parse_entrants(["house:godlike"], find_game("stud"))
    Traceback (most recent call last):
    ...
    bots.lab.entrants.EntrantSpecError: unknown_house_level: stud has no house level 'godlike' ...
    """
    made: list[tuple[str, Any]] = []
    for spec in specs:
        if spec.startswith(HOUSE_PREFIX):
            level = spec[len(HOUSE_PREFIX) :]
            if level not in engine.house_levels:
                levels = ", ".join(f"house:{lv}" for lv in engine.house_levels)
                raise EntrantSpecError(
                    "unknown_house_level",
                    f"{engine.name} has no house level {level!r} (it has {levels})",
                )
            made.append((spec, level))
            continue
        path = Path(spec)
        if not path.is_file():
            raise EntrantSpecError(
                "no_such_file", f"{spec!r} is neither house:LEVEL nor a readable bot file"
            )
        try:
            code = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise EntrantSpecError("not_a_bot_file", f"{spec}: {exc}") from exc
        made.append((path.stem, (str(path), code)))
    names = _unique([name for name, _ in made])
    out: list[Entrant] = []
    for name, (_, what) in zip(names, made, strict=True):
        if isinstance(what, str):
            out.append(HouseEntrant(what, name=name))
        else:
            out.append(BotFileEntrant(name, what[1], what[0], timeout_s))
    return out


def describe(entrant: Entrant) -> Mapping[str, Any]:
    """The export's player fields of an entrant (kind ``house`` or ``bot``)."""
    if isinstance(entrant, HouseEntrant):
        return {"name": entrant.name, "kind": "house", "house_level": entrant.level}
    return {"name": entrant.name, "kind": "bot", "house_level": None}


# --------------------------------------------------------------------------- external bots


@dataclass(frozen=True)
class MatchGame:
    """One game of a site match, as an external bot is told about it: game ``number`` (1 …
    ``games``) of match ``match_id`` is deal ``deal`` in rotation ``rotation``; ``game_id``
    (``match-<match_id>-<number>``) names it in the bot's frames.

    >>> g = MatchGame(7, 3, 8, 1, 0, "tienlen", 2, {})
    >>> g.game_id
    'match-7-3'
    """

    match_id: int
    number: int
    games: int
    deal: int
    rotation: int
    game: str
    players: int
    config: Mapping[str, Any]

    @property
    def game_id(self) -> str:
        return f"match-{self.match_id}-{self.number}"

    @classmethod
    def of(cls, match_id: int, deals: int, task: GameTask) -> MatchGame:
        """The game ``task`` plays (its planned deal and rotation) in a match of ``deals``."""
        n = len(task.planned.order)
        return cls(
            match_id=match_id,
            number=task.planned.deal_index * n + task.planned.rotation + 1,
            games=deals * n,
            deal=task.planned.deal_index,
            rotation=task.planned.rotation,
            game=task.engine.name,
            players=n,
            config=dict(task.config),
        )


class ExternalTurns(Protocol):
    """How a match reaches an external bot's program (the site's
    :class:`bots.external.matches.MatchTurns`: the bot's sockets and the Redis turn mailbox).
    Frames carry only what :meth:`ExternalPlayer.decide` passes (the seat's ``bot_view``)."""

    def start(self, *, bot_id: int, game: MatchGame, seat: int) -> None:
        """The bot sits at ``seat`` of ``game``: send ``game_start``."""
        ...

    def ask(
        self,
        *,
        bot_id: int,
        game: MatchGame,
        seat: int,
        seq: int,
        game_state: Mapping[str, Any],
        state: Mapping[str, Any],
        timeout_s: float,
    ) -> Any:
        """Send the ``turn`` and wait up to ``timeout_s`` for the bot's move: the raw move, or
        None when none came in time. ``state`` (the full engine state, never sent) lets the
        bot's socket check a move before it is accepted."""
        ...

    def end(self, *, bot_id: int, game: MatchGame, seat: int, result: Any) -> None:
        """``game`` ended (``result`` None: it was abandoned): send ``game_end``."""
        ...


class ExternalPlayer:
    """An external bot at one seat of one match game: every decision is a ``turn`` sent to the
    bot's program through ``turns``. No move in time is ``EntrantError("timeout")``, a move
    the engine refuses ``EntrantError("illegal:<code>")``: strikes, by the core's rules."""

    def __init__(
        self,
        engine: Game,
        turns: ExternalTurns,
        *,
        bot_id: int,
        game: MatchGame,
        seat: int,
        timeout_s: float,
    ) -> None:
        self.engine = engine
        self.turns = turns
        self.bot_id = bot_id
        self.game = game
        self.timeout_s = timeout_s
        turns.start(bot_id=bot_id, game=game, seat=seat)

    def decide(self, state: Any, seat: int) -> Decision:
        engine = self.engine
        # the move's number in the game, from 1: the moves played so far, plus one (as a
        # table turn's seq is the number its move gets in the game's history)
        seq = len(engine.record(state).get("actions") or []) + 1
        started = time.monotonic()
        raw = self.turns.ask(
            bot_id=self.bot_id,
            game=self.game,
            seat=seat,
            seq=seq,
            game_state=engine.bot_view(state, seat),
            state=engine.state_to_json(state),
            timeout_s=self.timeout_s,
        )
        ms = (time.monotonic() - started) * 1000
        if raw is None:
            raise EntrantError("timeout", f"no move within {self.timeout_s:g} s", ms=ms)
        try:
            action = engine.parse_bot_move(state, seat, raw)
        except ValueError as exc:
            code = f"illegal:{getattr(exc, 'code', 'illegal_move')}"
            raise EntrantError(code, str(exc), ms=ms) from exc
        return Decision(action, ms=ms)

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class ExternalEntrant:
    """An external bot (``bot_id``) in a site match, reached through ``turns``; seated only
    in a game bound with :meth:`for_game` (what :func:`match_games_mapper` does)."""

    name: str
    bot_id: int
    turns: ExternalTurns
    timeout_s: float = DEFAULT_TIMEOUT_S
    game: MatchGame | None = None

    def for_game(self, game: MatchGame) -> ExternalEntrant:
        return replace(self, game=game)

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        if self.game is None:
            raise ValueError("an external entrant plays only in a match game (for_game)")
        return ExternalPlayer(
            engine,
            self.turns,
            bot_id=self.bot_id,
            game=self.game,
            seat=seat,
            timeout_s=self.timeout_s,
        )


def match_games_mapper(match_id: int, deals: int) -> Mapper:
    """The ``mapper`` of :func:`~games.engine.duplicate.run_match` for a site match with
    external bots: plays the games in order (as the built-in ``map``), binding every
    :class:`ExternalEntrant` to the game it plays (its id in the frames), then sends each of
    them ``game_end`` (``result`` None when the game failed)."""

    def mapper(
        fn: Callable[[GameTask], GameOutcome], tasks: Iterable[GameTask]
    ) -> Iterator[GameOutcome]:
        for task in tasks:
            game = MatchGame.of(match_id, deals, task)
            field = tuple(
                e.for_game(game) if isinstance(e, ExternalEntrant) else e for e in task.entrants
            )
            seated = [
                (seat, e)
                for seat, index in enumerate(task.planned.order)
                if isinstance(e := field[index], ExternalEntrant)
            ]
            result: Any = None
            try:
                outcome = fn(replace(task, entrants=field))
                result = outcome.result
            finally:
                for seat, e in seated:
                    e.turns.end(bot_id=e.bot_id, game=game, seat=seat, result=result)
            yield outcome

    return mapper
