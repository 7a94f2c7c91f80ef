"""The ladder's pure code (no Django, no database): which entrant to place next and against whom
(:func:`choose_set`), how a duplicate set's games become one outcome (:func:`set_outcome`), the
per-set rating update (:func:`rate_set`), the refit over every ladder set in a fixed order
(:func:`refit`), rank intervals (:func:`rank_ranges`) and states (:func:`entrant_state`).

The site (:mod:`bots.ladder.services`) and the benchmark (``benchmarks/ladder.py``) both call
these functions; docs/bot-ladder.md states the rules with their numbers.

>>> rotations(3)
[[0, 1, 2], [2, 0, 1], [1, 2, 0]]
>>> set_outcome([[5, 0, -5], [0, -5, 5], [-5, 5, 0]], 3)  # entrant 0 at seats 0, 1, 2
[0.0, 0.0, 0.0]
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce

__all__ = [
    "ANCHOR_PRIOR_SIGMA",
    "MODEL",
    "PRIOR_MU",
    "PRIOR_SIGMA",
    "Entry",
    "Policy",
    "SetRecord",
    "choose_random",
    "choose_set",
    "entrant_state",
    "priority",
    "rank_ranges",
    "rate_set",
    "refit",
    "rotations",
    "seat_of",
    "set_model",
    "set_outcome",
    "should_suspend",
    "with_skill",
]

#: The rating model: openskill's Weng–Lin Plackett–Luce (defaults mu 25, sigma 25/3, beta 25/6:
#: the play noise of one game), the one the arena's ratings use (bots.ratings).
MODEL = PlackettLuce()
PRIOR_MU = 25.0
PRIOR_SIGMA = 25.0 / 3
BETA = 25.0 / 6
#: One model per field size for the per-set update (:func:`set_model`).
_SET_MODELS: dict[int, PlackettLuce] = {}


def set_model(seats: int) -> PlackettLuce:
    """The model of one duplicate set of ``seats`` entrants: the same Plackett–Luce with
    ``beta`` = 25/6 ÷ √seats. A set's outcome is a total over ``seats`` games whose hands'
    luck cancels, so only the play noise is left, averaged over ``seats`` games: its standard
    deviation is one game's ÷ √seats. With one game's ``beta`` a set would be read as four
    times as noisy as it is, and skills fitted against the fixed anchors (whose skills are on
    one game's scale) come out squeezed together (docs/benchmarks.md "Bot ladder").

    >>> round(set_model(4).beta, 4)
    2.0833
    """
    if seats not in _SET_MODELS:
        _SET_MODELS[seats] = PlackettLuce(beta=BETA / math.sqrt(max(1, seats)))
    return _SET_MODELS[seats]


@dataclass(frozen=True)
class Policy:
    """The scheduler's and the states' numbers (docs/bot-ladder.md "How it chooses").

    * ``new_games``: below this many games an entrant is *new* (priority + ``new_bonus``);
    * ``idle_seconds``: an entrant idle this long gets + ``idle_bonus`` (linear up to it);
    * ``settle_games`` / ``settle_width``: *settled* once it has played this many games and its
      rank range (:func:`rank_ranges`) spans at most ``settle_width`` ranks beyond its own
      (2: "rank 4–6"), else *placing*;
    * ``z``: the width of the rank range: another entrant is surely above when its skill exceeds
      this one's by more than ``z`` standard deviations of the difference (1.96: 97.5 % one-sided;
      1.64 proved too narrow: docs/benchmarks.md "Bot ladder");
    * ``pool``: opponents are drawn from the ``seats - 1 + pool`` entrants nearest in rating;
    * ``fault_share`` / ``fault_min_games``: suspended when more than this share of its ladder
      games had a fault (a crash, a timeout, an illegal move: a strike), once it has played
      ``fault_min_games``."""

    new_games: int = 12
    new_bonus: float = 1.0
    idle_seconds: float = 6 * 3600.0
    idle_bonus: float = 0.5
    settle_games: int = 24
    settle_width: int = 2
    z: float = 1.96
    pool: int = 2
    fault_share: float = 0.25
    fault_min_games: int = 8


@dataclass(frozen=True)
class Entry:
    """One entrant as the scheduler sees it. ``anchor``: a house AI (skill fixed, never the
    focus). ``available``: may be seated now (an external bot connected and within its limits;
    not suspended; not already in a set in flight)."""

    key: Hashable
    mu: float = PRIOR_MU
    sigma: float = PRIOR_SIGMA
    games: int = 0
    idle: float = 0.0
    anchor: bool = False
    available: bool = True


def rotations(seats: int) -> list[list[int]]:
    """Rotation ``r`` of a duplicate set: ``rotations(n)[r][seat]`` is the field index (0..n-1)
    of the entrant at ``seat``. Entrant ``i`` sits at seat ``(i + r) mod n``; every entrant
    plays every seat of the deal once."""
    return [[(seat - r) % seats for seat in range(seats)] for r in range(seats)]


def seat_of(index: int, rotation: int, seats: int) -> int:
    """The seat of field entrant ``index`` in ``rotation``."""
    return (index + rotation) % seats


def set_outcome(scores: Sequence[Sequence[float]], seats: int) -> list[float]:
    """Each field entrant's total over a duplicate set: ``scores[r][seat]`` is rotation ``r``'s
    game score of ``seat``. The deal's luck cancels: every entrant held every hand once."""
    totals = [0.0] * seats
    for r, row in enumerate(scores):
        for i in range(seats):
            totals[i] += float(row[seat_of(i, r, seats)])
    return [round(t, 9) for t in totals]


def _ranks(totals: Sequence[float]) -> list[float]:
    """1 = best (the highest total); equal totals share a rank."""
    return [float(1 + sum(1 for u in totals if u > t)) for t in totals]


def rate_set(
    skills: Sequence[tuple[float, float]], totals: Sequence[float], anchors: Sequence[bool]
) -> list[tuple[float, float]]:
    """The per-set update: the field's ``(mu, sigma)`` after one duplicate set whose totals
    are ``totals`` (one Plackett–Luce update of :func:`set_model`, ranks by total, ties
    shared). Anchors keep theirs.

    >>> after = rate_set([(25.0, 8.0), (25.0, 8.0)], [10.0, -10.0], [False, False])
    >>> after[0][0] > 25.0 > after[1][0]
    True
    """
    model = set_model(len(skills))
    before = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
    after = model.rate(before, ranks=_ranks(totals))
    return [
        (mu, sigma) if anchor else (float(new.mu), float(new.sigma))
        for (mu, sigma), anchor, (new,) in zip(skills, anchors, after, strict=True)
    ]


@dataclass(frozen=True)
class SetRecord:
    """A finished ladder set as the refit replays it: its field (entrant keys, in field order)
    and each one's total."""

    order: int
    field: tuple[Hashable, ...]
    totals: tuple[float, ...]


#: The refit's prior on an anchor: its house skill ± this (it floats, :func:`refit`).
ANCHOR_PRIOR_SIGMA = 2.0
#: The refit's fitted scale factor is kept within these bounds (few or close anchors).
SCALE_BOUNDS = (0.25, 4.0)


def refit(
    sets: Sequence[SetRecord],
    anchors: Mapping[Any, tuple[float, float]],
    anchor_sigma: float = ANCHOR_PRIOR_SIGMA,
) -> dict[Hashable, tuple[float, float]]:
    """Every ladder set replayed from the priors in a fixed order (``SetRecord.order``, the set
    id): the same sets always give the same ladder, whatever order they were recorded in.
    Returns ``key → (mu, sigma)`` of every non-anchor entrant that played.

    Unlike the per-set update, the refit also fits the **scale**: the anchors *float*, each
    starting from its house skill with a prior of ``anchor_sigma`` and updated like any entrant,
    so the replay's skills sit on the scale its sets imply rather than being stretched away from
    anchors pinned at hand-set numbers. The result is then mapped back onto the anchors' scale
    by the affine map that best carries the anchors' fitted skills to their house skills (least
    squares; with fewer than two distinct anchors only a shift; the factor is kept within
    :data:`SCALE_BOUNDS`); every ``sigma`` is multiplied by the same factor. The map is
    monotone, so the order is the replay's.

    >>> a = SetRecord(1, ("x", "y"), (1.0, -1.0)); b = SetRecord(2, ("y", "x"), (1.0, -1.0))
    >>> refit([a, b], {}) == refit([b, a], {})
    True
    """
    skills: dict[Hashable, tuple[float, float]] = {
        key: (mu, anchor_sigma) for key, (mu, _) in anchors.items()
    }
    for record in sorted(sets, key=lambda s: s.order):
        field = list(record.field)
        before = [skills.get(key) or (PRIOR_MU, PRIOR_SIGMA) for key in field]
        after = rate_set(before, record.totals, [False] * len(field))
        for key, skill in zip(field, after, strict=True):
            skills[key] = skill
    shift, factor = _scale_map(
        [(skills[key][0], house) for key, (house, _) in anchors.items() if key in skills]
    )
    return {
        key: (shift + factor * mu, factor * sigma)
        for key, (mu, sigma) in skills.items()
        if key not in anchors
    }


def _scale_map(pairs: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """``(shift, factor)`` of the least-squares map ``house ≈ shift + factor × fitted`` over
    the anchors' ``(fitted, house)`` pairs: ``(0, 1)`` for none, a shift only for one (or
    anchors fitted alike), the factor within :data:`SCALE_BOUNDS`.

    >>> _scale_map([(10.0, 20.0), (30.0, 30.0)])
    (15.0, 0.5)
    >>> _scale_map([(24.0, 25.0)])
    (1.0, 1.0)
    """
    if not pairs:
        return 0.0, 1.0
    fitted_mean = sum(f for f, _ in pairs) / len(pairs)
    house_mean = sum(h for _, h in pairs) / len(pairs)
    spread = sum((f - fitted_mean) ** 2 for f, _ in pairs)
    factor = 1.0
    if len(pairs) >= 2 and spread > 1e-9:
        factor = sum((f - fitted_mean) * (h - house_mean) for f, h in pairs) / spread
        factor = min(SCALE_BOUNDS[1], max(SCALE_BOUNDS[0], factor))
    return house_mean - factor * fitted_mean, factor


def rank_ranges(entries: Sequence[Entry], z: float = Policy.z) -> dict[Hashable, tuple[int, int]]:
    """``key → (best, worst)`` rank each entrant may hold: ``best`` is 1 + the entrants surely
    above it, ``worst`` the field size less those surely below, where *surely* means the skills
    differ by more than ``z`` standard deviations of their difference.

    >>> e = [Entry("a", 30, 0.5), Entry("b", 25, 0.5), Entry("c", 24.9, 0.5)]
    >>> rank_ranges(e)
    {'a': (1, 1), 'b': (2, 3), 'c': (2, 3)}
    """
    n = len(entries)
    out: dict[Hashable, tuple[int, int]] = {}
    for a in entries:
        above = below = 0
        for b in entries:
            if b is a:
                continue
            spread = z * math.hypot(a.sigma, b.sigma)
            if b.mu - a.mu > spread:
                above += 1
            elif a.mu - b.mu > spread:
                below += 1
        out[a.key] = (1 + above, n - below)
    return out


def priority(entry: Entry, span: int, field: int, policy: Policy = Policy()) -> float:
    """How uncertain an entrant's rank is (the highest is placed next): its skill's sigma
    relative to the prior's, plus its rank range as a share of the field (``span`` = worst −
    best), + ``new_bonus`` while it has fewer than ``new_games`` games, + up to ``idle_bonus``
    for time idle (linear up to ``idle_seconds``).

    >>> priority(Entry("n"), span=11, field=12) > priority(Entry("o", sigma=1, games=99), 0, 12)
    True
    """
    score = entry.sigma / PRIOR_SIGMA + span / max(1, field - 1)
    if entry.games < policy.new_games:
        score += policy.new_bonus
    score += policy.idle_bonus * min(1.0, max(0.0, entry.idle) / policy.idle_seconds)
    return score


def choose_set(
    entries: Sequence[Entry], seats: int, rng: random.Random, policy: Policy = Policy()
) -> list[Hashable] | None:
    """The next set's field (entrant keys, the focus first), or None when fewer than ``seats``
    entrants are available or none of them may be placed (anchors only).

    The **focus** is the available non-anchor entrant with the highest :func:`priority` (ties:
    fewer games, then key order). Its ``seats - 1`` **opponents** are drawn at random (``rng``)
    from the ``seats - 1 + pool`` other available entrants nearest to it in rating (``mu``;
    ties by key), anchors included."""
    ready = [e for e in entries if e.available]
    if len(ready) < seats:
        return None
    ranges = rank_ranges(entries, policy.z)
    candidates = [e for e in ready if not e.anchor]
    if not candidates:
        return None
    focus = max(
        candidates,
        key=lambda e: (
            priority(e, ranges[e.key][1] - ranges[e.key][0], len(entries), policy),
            -e.games,
            _order(e.key),
        ),
    )
    others = sorted(
        (e for e in ready if e.key != focus.key),
        key=lambda e: (abs(e.mu - focus.mu), _order(e.key)),
    )
    pool = others[: seats - 1 + max(0, policy.pool)]
    picked = rng.sample(pool, seats - 1)
    picked.sort(key=lambda e: _order(e.key))
    return [focus.key, *(e.key for e in picked)]


def _order(key: Hashable) -> tuple[str, str]:
    return (type(key).__name__, f"{key!s:>20}")


def choose_random(
    entries: Sequence[Entry], seats: int, rng: random.Random
) -> list[Hashable] | None:
    """The baseline the benchmark compares with: a random field of available entrants."""
    ready = [e for e in entries if e.available]
    if len(ready) < seats:
        return None
    return [e.key for e in rng.sample(ready, seats)]


def entrant_state(games: int, span: int, policy: Policy = Policy()) -> str:
    """``placing`` or ``settled`` (suspension is decided by :func:`should_suspend`).

    >>> entrant_state(30, 2), entrant_state(30, 3), entrant_state(4, 0)
    ('settled', 'placing', 'placing')
    """
    return "settled" if games >= policy.settle_games and span <= policy.settle_width else "placing"


def should_suspend(games: int, faults: int, policy: Policy = Policy()) -> bool:
    """Whether a version with ``faults`` faulty games of ``games`` is suspended: more than
    ``fault_share`` of them, once it has played ``fault_min_games``.

    >>> should_suspend(8, 3), should_suspend(8, 2), should_suspend(4, 4)
    (True, False, False)
    """
    return games >= policy.fault_min_games and faults > policy.fault_share * games


def with_skill(entry: Entry, skill: tuple[float, float]) -> Entry:
    """``entry`` with skill ``(mu, sigma)``."""
    return replace(entry, mu=skill[0], sigma=skill[1])
