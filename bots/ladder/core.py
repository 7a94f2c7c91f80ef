"""The ladder's pure code (no Django, no database): which entrant to place next and against whom
(:func:`choose_set`), how a duplicate set's games become one outcome (:func:`set_outcome`), the
per-set rating update (:func:`rate_set`), the refit over every ladder set by its margins
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
    "fit_margins",
    "priority",
    "rank_ranges",
    "rate_set",
    "refit",
    "refit_ranks",
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
    """The periodic refit: every finished ladder set at once, **by its margins**
    (:func:`fit_margins`), not only by its order. Returns ``key → (mu, sigma)`` of every
    non-anchor entrant that played, on the anchors' scale. The same sets always give the same
    ladder, whatever order they were recorded in (they are summed in ``SetRecord.order``).

    >>> a = SetRecord(1, ("x", "y"), (1.0, -1.0)); b = SetRecord(2, ("y", "x"), (1.0, -1.0))
    >>> refit([a, b], {}) == refit([b, a], {})
    True
    """
    return fit_margins(sets, anchors, anchor_sigma)


#: A set's centered totals get this many pseudo-observations of their raw spread in the
#: estimate of the noise (:func:`fit_margins`): with few sets the noise is not guessed small.
NOISE_PRIOR_DOF = 4.0


def fit_margins(
    sets: Sequence[SetRecord],
    anchors: Mapping[Any, tuple[float, float]],
    anchor_sigma: float = ANCHOR_PRIOR_SIGMA,
) -> dict[Hashable, tuple[float, float]]:
    """Skills fitted to the duplicate sets' **point totals** (a Thurstone model with margins,
    i.e. Gaussian least squares with priors). A set's outcome is each entrant's total over the
    rotations; the hands' luck cancels in it, so what is left of the margin is the play's own
    noise, and the margin says *how much* better, not only *whether*. The model: an entrant
    ``k`` has a strength ``θ_k`` in set points, and a set's totals less their mean are
    ``θ_i − mean(θ of the set's field) + e_i``, the noise ``e`` of one standard deviation ``s``
    for all sets (the set's own deviations from their mean, so ``seats − 1`` degrees of
    freedom a set).

    * ``s`` is estimated from the residuals, with :data:`NOISE_PRIOR_DOF` pseudo-observations of
      the raw spread of the centered totals (larger than the residuals'), so few sets give a
      wide, not a narrow, interval;
    * the priors: every non-anchor entrant at the site's prior (μ 25 ± 25/3), every anchor at its
      house skill ± ``anchor_sigma`` (anchors float: their house skills fix the scale, not
      their fitted values), translated into set points by the scale map below;
    * the scale: the affine map ``skill = shift + factor × θ`` that best (least squares) carries
      the anchors' fitted strengths to their house skills (:func:`_points_map`); with fewer
      than two distinct anchors, or anchors fitted in reverse, the factor is the one that
      reads the noise of a set as the set model's ``beta`` (:func:`set_model`);
    * ``sigma`` is ``factor`` × the posterior standard deviation of ``θ_k`` (the posterior
      covariance is ``(XᵀX / s² + prior precisions)⁻¹``). The scale's own uncertainty is not
      added (measured honest in docs/benchmarks.md "Bot ladder": the true rank within the shown
      range, identical code twice within its own range).

    The fit is done twice: once with a weak prior (to find the map), then with the priors
    translated by that map. Pure Python (the fields are small: a Cholesky solve of one row
    per entrant that ever played).

    >>> sets = [SetRecord(i, ("a", "b", "m", "h"), (6.0, -6.0, -8.0, 8.0)) for i in range(30)]
    >>> fit = fit_margins(sets, {"m": (25.0, 1.0), "h": (28.0, 1.0)})
    >>> sorted(fit), fit["a"][0] > fit["b"][0], fit["a"][1] < 1.0
    (['a', 'b'], True, True)
    """
    ordered = sorted(sets, key=lambda s: s.order)
    keys = sorted({k for s in ordered for k in s.field}, key=_order)
    if not keys:
        return {}
    index = {k: i for i, k in enumerate(keys)}
    size = len(keys)
    gram = [[0.0] * size for _ in range(size)]  # XᵀX: the sum of each set's centering matrix
    moment = [0.0] * size  # Xᵀy: the sum of each entrant's centered totals
    raw = 0.0  # Σ of the centered totals' squares
    dof = 0
    seats = 0
    for record in ordered:
        n = len(record.field)
        if n < 2:
            continue
        seats = max(seats, n)
        mean = sum(record.totals) / n
        ids = [index[k] for k in record.field]
        for i, total in zip(ids, record.totals, strict=True):
            moment[i] += total - mean
            raw += (total - mean) ** 2
            for j in ids:
                gram[i][j] += (1.0 if i == j else 0.0) - 1.0 / n
        dof += n - 1
    raw_var = raw / dof if dof else 0.0
    floor = 1e-6 + 1e-9 * raw_var
    anchored = {k: float(v[0]) for k, v in anchors.items() if k in index}

    def solve(
        noise_var: float, prior: Mapping[Hashable, tuple[float, float]]
    ) -> tuple[list[float], list[list[float]]]:
        # the posterior mean and covariance of θ under priors θ_k ~ N(mean, sd²)
        mat = [[g / noise_var for g in row] for row in gram]
        vec = [m / noise_var for m in moment]
        for k, i in index.items():
            mean, sd = prior[k]
            mat[i][i] += 1.0 / (sd * sd)
            vec[i] += mean / (sd * sd)
        inverse = _spd_inverse(mat)
        theta = [sum(inverse[i][j] * vec[j] for j in range(size)) for i in range(size)]
        return theta, inverse

    def residual_var(theta: Sequence[float]) -> float:
        # RSS = yᵀy − 2θᵀXᵀy + θᵀXᵀXθ, with NOISE_PRIOR_DOF pseudo-observations of raw_var
        fitted = sum(
            theta[i] * sum(gram[i][j] * theta[j] for j in range(size)) for i in range(size)
        )
        rss = max(0.0, raw - 2.0 * sum(t * m for t, m in zip(theta, moment, strict=True)) + fitted)
        return max(floor, (rss + NOISE_PRIOR_DOF * raw_var) / (dof + NOISE_PRIOR_DOF))

    weak_sd = 10.0 * math.sqrt(max(raw_var, floor))
    noise_var = max(floor, raw_var)
    theta, _ = solve(noise_var, dict.fromkeys(keys, (0.0, weak_sd)))
    noise_var = residual_var(theta)
    theta, _ = solve(noise_var, dict.fromkeys(keys, (0.0, weak_sd)))
    noise_var = residual_var(theta)
    set_beta = set_model(max(2, seats)).beta
    shift, factor = _points_map(
        [(theta[index[k]], house) for k, house in anchored.items()],
        set_beta / math.sqrt(noise_var),
    )
    prior = {
        k: (
            ((anchored[k] - shift) / factor, anchor_sigma / factor)
            if k in anchored
            else ((PRIOR_MU - shift) / factor, PRIOR_SIGMA / factor)
        )
        for k in keys
    }
    theta, cov = solve(noise_var, prior)
    noise_var = residual_var(theta)
    theta, cov = solve(noise_var, prior)
    shift, factor = _points_map([(theta[index[k]], house) for k, house in anchored.items()], factor)
    # the map puts the anchors' mean where their house skills' mean is: an entrant's skill is
    # their house mean + factor × (θ_k − the anchors' mean θ), so its sd is that difference's
    frame = [index[k] for k in anchored]
    out: dict[Hashable, tuple[float, float]] = {}
    for k, i in index.items():
        if k in anchors:
            continue
        var = cov[i][i]
        if frame:
            w = 1.0 / len(frame)
            var += -2.0 * w * sum(cov[i][a] for a in frame) + w * w * sum(
                cov[a][b] for a in frame for b in frame
            )
        out[k] = (shift + factor * theta[i], factor * math.sqrt(max(0.0, var)))
    return out


def _points_map(pairs: Sequence[tuple[float, float]], fallback: float) -> tuple[float, float]:
    """``(shift, factor)`` of ``skill = shift + factor × points`` from the anchors'
    ``(fitted points, house skill)`` pairs: least squares when at least two anchors differ and
    their fitted order agrees with their house order on the whole (factor > 0), else
    ``fallback`` as the factor and a shift that puts the anchors' (or, with none, the points')
    mean at their house mean (or at the prior's μ).

    >>> _points_map([(-10.0, 20.0), (10.0, 30.0)], 1.0)
    (25.0, 0.5)
    >>> _points_map([], 0.2)
    (25.0, 0.2)
    >>> _points_map([(4.0, 28.0)], 0.5)
    (26.0, 0.5)
    """
    if not pairs:
        return PRIOR_MU, fallback
    fitted_mean = sum(f for f, _ in pairs) / len(pairs)
    house_mean = sum(h for _, h in pairs) / len(pairs)
    spread = sum((f - fitted_mean) ** 2 for f, _ in pairs)
    factor = fallback
    if len(pairs) >= 2 and spread > 1e-12:
        fitted = sum((f - fitted_mean) * (h - house_mean) for f, h in pairs) / spread
        if fitted > 0:
            factor = fitted
    return house_mean - factor * fitted_mean, factor


def _spd_inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a symmetric positive definite matrix (Cholesky).

    >>> [[round(x, 9) for x in row] for row in _spd_inverse([[4.0, 1.0], [1.0, 2.0]])]
    [[0.285714286, -0.142857143], [-0.142857143, 0.571428571]]
    """
    n = len(matrix)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            acc = matrix[i][j] - sum(low[i][k] * low[j][k] for k in range(j))
            if i == j:
                low[i][i] = math.sqrt(max(acc, 1e-300))
            else:
                low[i][j] = acc / low[j][j]
    # the inverse of the lower factor, then L⁻ᵀ L⁻¹
    inv_low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        inv_low[i][i] = 1.0 / low[i][i]
        for j in range(i):
            inv_low[i][j] = -sum(low[i][k] * inv_low[k][j] for k in range(j, i)) / low[i][i]
    return [
        [sum(inv_low[k][i] * inv_low[k][j] for k in range(max(i, j), n)) for j in range(n)]
        for i in range(n)
    ]


def refit_ranks(
    sets: Sequence[SetRecord],
    anchors: Mapping[Any, tuple[float, float]],
    anchor_sigma: float = ANCHOR_PRIOR_SIGMA,
) -> dict[Hashable, tuple[float, float]]:
    """Session 11's refit, kept for comparison (the benchmark's ``--refit ranks``): every set
    replayed from the priors in a fixed order (``SetRecord.order``) as one openskill
    Plackett–Luce update of its **ranks** (:func:`rate_set`), the anchors floating with a prior
    of ``anchor_sigma``, then mapped back onto the anchors' scale by :func:`_scale_map`. It
    throws the margins away: docs/benchmarks.md "Bot ladder".

    >>> a = SetRecord(1, ("x", "y"), (1.0, -1.0)); b = SetRecord(2, ("y", "x"), (1.0, -1.0))
    >>> refit_ranks([a, b], {}) == refit_ranks([b, a], {})
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
