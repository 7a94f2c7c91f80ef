"""The statistics of a duplicate match: :class:`DuplicateStats` tallies outcomes deal by deal
(the deal is the unit of the 95 % t-intervals, see :func:`interval`); its
:meth:`~DuplicateStats.separated` is the early-stop test."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.core.protocol import JSONDict
from games.engine.duplicate.play import GameOutcome
from games.engine.registry import GAMES

__all__ = [
    "MIN_DEALS_TO_SEPARATE",
    "DuplicateStats",
    "interval",
    "points_unit",
    "t_quantile",
]

#: :meth:`DuplicateStats.separated` never answers True before this many deals.
MIN_DEALS_TO_SEPARATE = 10


def points_unit(name: str) -> str:
    """What game ``name``'s points (``result["scores"]``) count, for the report: the game's
    ``points_unit`` (English; the site translates it), ``points`` for an unknown name.

    >>> points_unit("stud"), points_unit("nope")
    ('chips won or lost', 'points')
    """
    game = GAMES.get(name)
    return game.points_unit if game is not None else "points"


#: Student's t quantile t(0.975, df) for df = 1 … 30.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t_quantile(df: int) -> float:
    """Student's t quantile at 0.975 with ``df`` degrees of freedom (a table up to 30, then
    the Cornish–Fisher expansion around 1.95996, exact to 3 decimals).

    >>> t_quantile(1), t_quantile(9), round(t_quantile(60), 3), round(t_quantile(10**6), 3)
    (12.706, 2.262, 2.0, 1.96)
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def interval(
    values: Sequence[float], *, lo: float | None = None, hi: float | None = None
) -> tuple[float, float] | None:
    """The 95 % interval of the mean of ``values`` (one per deal): ``mean ± t(0.975, d-1) ·
    s / √d``, clipped to ``[lo, hi]`` when given; None with fewer than 2 values.

    >>> interval([1.0, 2.0, 3.0, 4.0])
    (0.446..., 4.553...)
    >>> interval([0.0, 0.25, 0.5, 0.0], lo=0.0, hi=1.0)
    (0.0, 0.568...)
    >>> interval([5.0]) is None
    True
    """
    d = len(values)
    if d < 2:
        return None
    mean = math.fsum(values) / d
    var = math.fsum((v - mean) ** 2 for v in values) / (d - 1)
    half = t_quantile(d - 1) * math.sqrt(var / d)
    low, high = mean - half, mean + half
    if lo is not None:
        low = max(lo, low)
    if hi is not None:
        high = min(hi, high)
    return (low, high)


@dataclass
class _EntrantTally:
    games: int = 0
    firsts: int = 0
    lasts: int = 0
    points: float = 0.0
    strikes: int = 0
    disqualified: int = 0
    moves: int = 0
    move_ms: float = 0.0
    strike_codes: Counter[str] = field(default_factory=Counter)
    deal_points: list[float] = field(default_factory=list)
    deal_firsts: list[float] = field(default_factory=list)


def _rounded(ci: tuple[float, float] | None, digits: int) -> list[float] | None:
    return None if ci is None else [round(ci[0], digits), round(ci[1], digits)]


class DuplicateStats:
    """Per-entrant tallies of a duplicate match, fed one whole deal at a time.

    >>> stats = DuplicateStats(["a", "b"])
    >>> stats.add_deal([_demo(0, 0, (0, 1), (3, -3)), _demo(0, 1, (1, 0), (2, -2))])
    >>> [e["mean_points"] for e in stats.report()["entrants"]]
    [0.5, -0.5]
    """

    def __init__(self, names: Sequence[str], *, game: str = "", seed: int | str = 0) -> None:
        self.names = list(names)
        self.game = game
        self.seed = seed
        self.deals = 0
        self.games = 0
        self.tallies = [_EntrantTally() for _ in self.names]

    def add_deal(self, outcomes: Sequence[GameOutcome]) -> None:
        """Add every game (rotation) of one deal: each entrant's per-deal means are one
        observation of the intervals."""
        if not outcomes:
            raise ValueError("a deal has at least one game")
        n = len(self.names)
        deal_points = [0.0] * n
        deal_firsts = [0.0] * n
        seen = [0] * n
        for out in outcomes:
            for seat, index in enumerate(out.order):
                t = self.tallies[index]
                t.games += 1
                t.firsts += out.first[seat]
                t.lasts += out.last[seat]
                t.points += out.points[seat]
                t.strikes += out.strikes[seat]
                t.disqualified += out.disqualified[seat]
                t.moves += out.moves[seat]
                t.move_ms += out.move_ms[seat]
                t.strike_codes.update(out.strike_codes[seat])
                deal_points[index] += out.points[seat]
                deal_firsts[index] += out.first[seat]
                seen[index] += 1
            self.games += 1
        for index, t in enumerate(self.tallies):
            if seen[index]:
                t.deal_points.append(deal_points[index] / seen[index])
                t.deal_firsts.append(deal_firsts[index] / seen[index])
        self.deals += 1

    def to_json(self) -> JSONDict:
        """Everything the tallies hold, as JSON (store it to resume a match later with
        :meth:`from_json` and ``run_match(..., resume=...)``)."""
        return {
            "names": list(self.names),
            "game": self.game,
            "seed": self.seed,
            "deals": self.deals,
            "games": self.games,
            "tallies": [
                {
                    "games": t.games,
                    "firsts": t.firsts,
                    "lasts": t.lasts,
                    "points": t.points,
                    "strikes": t.strikes,
                    "disqualified": t.disqualified,
                    "moves": t.moves,
                    "move_ms": t.move_ms,
                    "strike_codes": dict(t.strike_codes),
                    "deal_points": list(t.deal_points),
                    "deal_firsts": list(t.deal_firsts),
                }
                for t in self.tallies
            ],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> DuplicateStats:
        """The tallies back from :meth:`to_json`.

        >>> stats = DuplicateStats(["a", "b"], game="stud", seed=4)
        >>> stats.add_deal([_demo(0, 0, (0, 1), (3, -3)), _demo(0, 1, (1, 0), (2, -2))])
        >>> DuplicateStats.from_json(stats.to_json()).report() == stats.report()
        True
        """
        stats = cls(list(obj["names"]), game=str(obj["game"]), seed=obj["seed"])
        stats.deals = int(obj["deals"])
        stats.games = int(obj["games"])
        for t, raw in zip(stats.tallies, obj["tallies"], strict=True):
            t.games, t.firsts, t.lasts = int(raw["games"]), int(raw["firsts"]), int(raw["lasts"])
            t.points, t.strikes = float(raw["points"]), int(raw["strikes"])
            t.disqualified, t.moves = int(raw["disqualified"]), int(raw["moves"])
            t.move_ms = float(raw["move_ms"])
            t.strike_codes = Counter({str(k): int(v) for k, v in raw["strike_codes"].items()})
            t.deal_points = [float(v) for v in raw["deal_points"]]
            t.deal_firsts = [float(v) for v in raw["deal_firsts"]]
        return stats

    def entrant_report(self, index: int) -> JSONDict:
        """One entrant's line of the report (see :meth:`report`)."""
        t = self.tallies[index]
        games = t.games or 1
        return {
            "name": self.names[index],
            "games": t.games,
            "first_rate": round(t.firsts / games, 4) if t.games else 0.0,
            "first_ci": _rounded(interval(t.deal_firsts, lo=0.0, hi=1.0), 4),
            "mean_points": round(t.points / games, 4) if t.games else 0.0,
            "points_ci": _rounded(interval(t.deal_points), 4),
            "firsts": t.firsts,
            "lasts": t.lasts,
            "last_rate": round(t.lasts / games, 4) if t.games else 0.0,
            "strikes": t.strikes,
            "strike_codes": dict(sorted(t.strike_codes.items())),
            "disqualified": t.disqualified,
            "moves": t.moves,
            "mean_move_ms": round(t.move_ms / t.moves, 3) if t.moves else None,
        }

    def report(self) -> JSONDict:
        """``{game, points_unit, seed, seats, deals, games, entrants: [...]}``; each entrant
        ``{name, games, first_rate, first_ci, mean_points, points_ci, firsts, lasts, last_rate,
        strikes, strike_codes, disqualified, moves, mean_move_ms}`` (``*_ci`` ``[low, high]``
        or None; ``mean_move_ms`` the only timing field)."""
        return {
            "game": self.game,
            "points_unit": points_unit(self.game),
            "seed": self.seed,
            "seats": len(self.names),
            "deals": self.deals,
            "games": self.games,
            "entrants": [self.entrant_report(i) for i in range(len(self.names))],
        }

    def estimate(self) -> JSONDict:
        """One point of the running-estimate series (after the deals so far): ``{deals,
        mean_points, points_ci, first_rate, first_ci}``, each a list in entrant order."""
        lines = [self.entrant_report(i) for i in range(len(self.names))]
        return {
            "deals": self.deals,
            **{k: [line[k] for line in lines] for k in _SERIES_KEYS},
        }

    def separated(self, *, min_deals: int = MIN_DEALS_TO_SEPARATE) -> bool:
        """The early-stop test: after at least ``min_deals`` deals, the first entrant's points
        interval overlaps no other entrant's (it is clearly better or clearly worse than each
        of them).

        >>> stats = DuplicateStats(["a", "b"])
        >>> for k in range(3):
        ...     a, b = _demo(k, 0, (0, 1), (10 + k, -10 - k)), _demo(k, 1, (1, 0), (4, -4))
        ...     stats.add_deal([a, b])
        >>> stats.separated(min_deals=3), stats.separated()
        (True, False)
        """
        if self.deals < max(2, min_deals) or len(self.names) < 2:
            return False
        mine = interval(self.tallies[0].deal_points)
        if mine is None:
            return False
        for t in self.tallies[1:]:
            other = interval(t.deal_points)
            if other is None or not (mine[1] < other[0] or other[1] < mine[0]):
                return False
        return True


_SERIES_KEYS = ("mean_points", "points_ci", "first_rate", "first_ci")


def _demo(
    deal: int, rotation: int, order: tuple[int, ...], points: tuple[float, ...]
) -> GameOutcome:
    """A hand-made outcome (for the doctests)."""
    n = len(order)
    best = max(range(n), key=lambda s: points[s])
    worst = min(range(n), key=lambda s: points[s])
    return GameOutcome(
        deal_index=deal,
        rotation=rotation,
        deal_seed=deal,
        order=order,
        points=points,
        first=tuple(s == best for s in range(n)),
        last=tuple(s == worst for s in range(n)),
        moves=(1,) * n,
        move_ms=(1.0,) * n,
        strikes=(0,) * n,
        disqualified=(False,) * n,
        strike_codes=tuple({} for _ in range(n)),
        result={},
        record={},
    )
