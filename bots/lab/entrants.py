"""Entrants of a local duplicate match: a JavaScript bot file run in the project's sandbox, or
a house AI (``house:easy|medium|hard``, any level the game's engine has).

A bot entrant plays like a seated bot at a live table (``bots.services.bot_seat_player``): one
sandboxed :class:`~bots.sandbox.BotProcess` per game and seat (globals live for one game),
``gameState`` is ``engine.bot_view(state, seat)``, the return goes through
``engine.parse_bot_move``; a timeout, exception, bad return or illegal move raises an
:class:`~games.engine.duplicate.EntrantError` (a strike: the core plays the engine's
``timeout_action``); a sandbox that died is restarted for the next move, as the live registry
does. Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bots.sandbox import BotProcess, SandboxLimits
from games.engine.core.protocol import Game
from games.engine.duplicate import Decision, Entrant, EntrantError, HouseEntrant, Player

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "BotFileEntrant",
    "EntrantSpecError",
    "SandboxPlayer",
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
