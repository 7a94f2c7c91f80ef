"""Duplicate matches (issue #16): every deal replayed with the field rotated over the seats.

Card games are luck-heavy, so a field of entrants (bots, house AIs…) is compared the way
duplicate bridge does it: each deal (a seed) is played once per cyclic rotation of the field
over the seats, so every entrant holds every seat's hand of every deal exactly once. The field
size is the number of seats.

Pure Python (no Django, no I/O, no processes): the site's match task and the local runner
``./bin/bot`` (:mod:`bots.lab`) both drive :func:`run_match`; for parallel play the caller
passes a ``mapper`` (e.g. a process pool's ``map``).

* :func:`plan_match` — the deterministic list of games: ``(deal_index, rotation, deal_seed,
  order)``, ``order[seat]`` the index of the entrant sitting there.
* :func:`play_game` — one game with the live tables' failure rules: a player that raises or
  returns an illegal move gets a **strike** and the engine's ``timeout_action`` (what a live
  table plays for a timed-out or failing seat: the house policy's pass / check-or-fold / …) is
  played instead; at :data:`STRIKES_TO_DISQUALIFY` strikes the seat is disqualified and every
  later move of it is the ``timeout_action`` without asking the player. Each game of a match is
  its own one-game table session, so strikes start at 0 in every game (live tables count them
  over the table session).
* :class:`DuplicateStats` — accumulates outcomes deal by deal; :meth:`~DuplicateStats.report`
  gives per-entrant numbers and 95 % confidence intervals, :meth:`~DuplicateStats.separated`
  the early-stop test, :meth:`~DuplicateStats.estimate` one point of the running series.
* :func:`run_match` — plan, play (optionally in parallel), accumulate, stop early (asked,
  or once the intervals separate), resume a stopped match; returns a :class:`MatchResult`
  (report + series).

The code: :mod:`~games.engine.duplicate.entrants` (the field), :mod:`~games.engine.duplicate.play`
(the plan and one game), :mod:`~games.engine.duplicate.stats` (tallies, intervals, the early-stop
test) and :mod:`~games.engine.duplicate.match` (:func:`run_match`); this package re-exports their
public names.

**Points** are each game's ``result["scores"][seat]``, in the game's own unit: Tiến Lên points
(cards left, chặt/thối penalties…; zero-sum), stud chips won or lost in the hand (zero-sum),
Diu score (units of the ``base`` stake; zero-sum). **First place** is ``result["winner"] ==
seat`` (as the site's statistics count wins; a game without a winner, e.g. a Diu draw, has no
first place); **last place** is the last seat of ``result["ranking"]``.

**Intervals.** Deals are the unit: the four (n) rotations of a deal are not independent, so for
every entrant the per-deal mean over its rotations is one observation ``x_1 … x_d``. The
interval is ``mean ± t(0.975, d-1) · s / √d`` (``s`` the sample standard deviation of the
per-deal means; Student's t quantile). Rates (first places) use the same formula on the
per-deal share of first places (a clustered Wald interval), clipped to [0, 1]. With fewer than
2 deals there is no interval (``None``). **Early stop** (``stop_when_separated``): after at
least ``min_deals`` deals, once the first entrant's points interval overlaps no other
entrant's.

>>> from games.engine.registry import find_game
>>> engine = find_game("tienlen")
>>> field = [HouseEntrant("hard"), HouseEntrant("easy")]
>>> result = run_match(engine, field, deals=3, seed=1)
>>> result.report["games"], [e["games"] for e in result.report["entrants"]]
(6, [6, 6])
>>> sum(e["mean_points"] for e in result.report["entrants"])  # Tiến Lên is zero-sum
0.0
"""

from __future__ import annotations

from games.engine.duplicate.entrants import (
    Decision,
    Entrant,
    EntrantError,
    FirstLegalEntrant,
    HouseEntrant,
    Player,
)
from games.engine.duplicate.match import Mapper, MatchProgress, MatchResult, run_match
from games.engine.duplicate.play import (
    STRIKES_TO_DISQUALIFY,
    GameOutcome,
    GameTask,
    PlannedGame,
    deal_seed,
    match_config,
    plan_match,
    play_game,
    play_task,
)
from games.engine.duplicate.stats import (
    MIN_DEALS_TO_SEPARATE,
    DuplicateStats,
    interval,
    points_unit,
    t_quantile,
)

__all__ = [
    "MIN_DEALS_TO_SEPARATE",
    "STRIKES_TO_DISQUALIFY",
    "Decision",
    "DuplicateStats",
    "Entrant",
    "EntrantError",
    "FirstLegalEntrant",
    "GameOutcome",
    "GameTask",
    "HouseEntrant",
    "Mapper",
    "MatchProgress",
    "MatchResult",
    "PlannedGame",
    "Player",
    "deal_seed",
    "interval",
    "match_config",
    "plan_match",
    "play_game",
    "play_task",
    "points_unit",
    "run_match",
    "t_quantile",
]
