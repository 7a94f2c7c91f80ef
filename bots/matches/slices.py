"""A running match's sign of life: :class:`Heartbeat` renews it at most every few seconds of
the injected clock (:mod:`games.clock`), and :class:`Beating` calls it before every move of an
entrant and whenever a game seats it, so a slow deal is never taken for a lost worker while a
killed worker's match goes stale within ``BOTS_MATCH_STALE_SECONDS`` (docs/bot-lab.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games import clock
from games.engine.core.protocol import Game
from games.engine.duplicate import Decision, Entrant, Player

__all__ = ["Beating", "Heartbeat"]


@dataclass
class Heartbeat:
    """``beat()`` calls ``renew`` when ``every`` seconds have passed on :func:`games.clock.now`
    since it last did (the first call always does).

    >>> calls = []
    >>> hb = Heartbeat(lambda: calls.append(1), every=5.0, now=iter([0.0, 1.0, 6.0]).__next__)
    >>> hb(); hb(); hb(); len(calls)
    2
    """

    renew: Callable[[], None]
    every: float
    now: Callable[[], float] = clock.now
    last: float | None = field(default=None)

    def __call__(self) -> None:
        now = self.now()
        if self.last is not None and now - self.last < self.every:
            return
        self.last = now
        self.renew()


@dataclass(frozen=True)
class Beating:
    """An entrant whose players beat ``beat`` before every move (and when seated); its name,
    players and moves are ``inner``'s."""

    inner: Entrant
    beat: Callable[[], None]

    @property
    def name(self) -> str:
        return self.inner.name

    def player(self, engine: Game, *, seat: int, seed: int) -> Player:
        self.beat()
        return _BeatingPlayer(self.inner.player(engine, seat=seat, seed=seed), self.beat)


@dataclass(frozen=True)
class _BeatingPlayer:
    inner: Player
    beat: Callable[[], None]

    def decide(self, state: Any, seat: int) -> Mapping[str, Any] | Decision:
        self.beat()
        return self.inner.decide(state, seat)

    def close(self) -> None:
        self.inner.close()
