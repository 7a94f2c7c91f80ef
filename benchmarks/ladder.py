"""Ladder benchmark: how fast the ladder places a new version, against a baseline in the same run.

Run ``python benchmarks/ladder.py`` (``--trials N --luck X``). It prints a report; it writes
nothing. It drives the site's own pure code (:mod:`bots.ladder.core`: the scheduler's
``choose_set``, ``set_outcome``, the per-set ``rate_set``, ``refit``, ``rank_ranges`` and
``entrant_state``) on a simulated field of known strength, so a run takes seconds:

* **the field**: 12 entrants: the four house-AI anchors at their fixed skills (easy 20,
  medium 25, hard 28, expert 31, as ``bots.anchors``) and eight bots of graded true skill
  (18.5 … 33.5, 2.14 apart; three of them lie close to an anchor: 20.64 vs easy 20, 24.93
  vs medium 25, 31.36 vs expert 31, the pairs hardest to order);
* **a game**: each seat's performance is its entrant's true skill + the luck of the hand it
  holds (one draw per seat and deal, standard deviation ``--luck``, default 4.0) + the play's
  own noise (standard deviation ``BETA`` = 25/6, the rating model's); seats score by rank
  (+3, +1, −1, −3, zero-sum as a Tiến Lên deal is). **This is a model, not the engine**: the
  hand's luck is an assumption stated with its number (``--luck``), and the report repeats
  the comparison at half and at one and a half times it;
* **the ladder** (what the site runs): the focus is the least certain entrant, opponents the
  nearest in rating (``Policy.pool`` = 2 extra), one deal in every rotation (the luck cancels
  in ``set_outcome``);
* **the baseline** (same run, same code): the same focus choice but opponents drawn from the
  whole field (``Policy(pool=99)``) and a new deal for every rotation (no duplicate).

Each trial warms up the 11 established entrants (400 sets), then promotes a newcomer whose
true rank is drawn from 2…11, and plays on to 300 games. At each checkpoint of its games the
ladder is refitted (the site's refit, :func:`bots.ladder.core.refit`, by the sets' margins;
``--refit ranks``: session 11's by ranks) and the newcomer's rank and rank range are read.
Reported, ladder and baseline side by side: the share of trials within ±1 of the true rank and
the median width of the rank range at each checkpoint; the games until ≥ 90 % of trials stay
within ±1, and until the median range is at most 6, 4 and 2 ranks wide (**the same interval
width**), with the baseline ÷ ladder ratios; the Kendall τ of the ladder's order against the
true order at 150 games; whether identical code promoted twice lands within its own rank
range both times. ``--seed S`` draws another sample of trials.

``--engine`` plays every game with the Tiến Lên engine instead (:class:`EngineLadder`) on a
field of twelve players of distinct, measured strength (:data:`ENGINE_FIELD`: the house AI's
easy, medium and hard levels as anchors, nine bots playing a house level's move but a random
legal one with probability ``p``); ``--warmup`` sets before the newcomer enters. It reports
the same table (to 300 games) and identical code promoted twice. ``--round-robin PASSES``
measures the field's true strengths apart from any ladder (:func:`round_robin`).

Both modes refit every :attr:`SimLadder.refit_every` (10) sets, as the site refits every
``LADDER_REFIT_SECONDS``: the live skills go on from the refit (:func:`bots.ladder.core.refit`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.ladder import core

BETA = 25.0 / 6
SEATS = 4
ANCHORS = {"easy": 20.0, "medium": 25.0, "hard": 28.0, "expert": 31.0}
BOTS = {f"bot{i}": 18.5 + i * (15.0 / 7) for i in range(8)}
RANK_SCORES = (3.0, 1.0, -1.0, -3.0)
WARMUP_SETS = 400
AFTER_GAMES = 100  # a placement must hold this many more games of the newcomer
MAX_GAMES = 600
#: The refit the benchmark runs (``--refit``): the site's ``core.refit`` unless told otherwise.
REFIT: list[Any] = [core.refit]


def kendall_tau(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """Kendall's τ between two orders of the same keys (no ties)."""
    pos = {k: i for i, k in enumerate(b)}
    n = len(a)
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            if pos[a[i]] < pos[a[j]]:
                concordant += 1
            else:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


@dataclass
class SimLadder:
    truth: dict[str, float]
    rng: random.Random
    duplicate: bool = True
    policy: core.Policy = field(default_factory=core.Policy)
    luck: float = 4.0
    skills: dict[str, tuple[float, float]] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    last: dict[str, int] = field(default_factory=dict)
    active: list[str] = field(default_factory=list)
    sets: list[core.SetRecord] = field(default_factory=list)
    clock: int = 0
    anchors: dict[str, float] = field(default_factory=lambda: dict(ANCHORS))
    refit_every: int = 10
    #: None: :data:`REFIT` (``core.refit`` by the sets' margins, or ``--refit ranks``)
    refit_fn: Any = None

    def enter(self, key: str) -> None:
        anchored = key in self.anchors
        self.skills[key] = (
            (self.anchors[key], 1.0) if anchored else (core.PRIOR_MU, core.PRIOR_SIGMA)
        )
        self.games[key] = 0
        self.last[key] = self.clock
        self.active.append(key)

    def retire(self, key: str) -> None:
        self.active.remove(key)

    def entries(self) -> list[core.Entry]:
        return [
            core.Entry(
                key,
                *self.skills[key],
                games=self.games[key],
                idle=float(self.clock - self.last[key]) * 60.0,
                anchor=key in self.anchors,
            )
            for key in self.active
        ]

    def _game(self, order: Sequence[str], luck: Sequence[float]) -> list[float]:
        perf = [
            self.truth[key] + luck[seat] + self.rng.gauss(0.0, BETA)
            for seat, key in enumerate(order)
        ]
        ranked = sorted(range(SEATS), key=lambda s: -perf[s])
        scores = [0.0] * SEATS
        for place, seat in enumerate(ranked):
            scores[seat] = RANK_SCORES[place]
        return scores

    def set_rows(self, fld: Sequence[str]) -> list[list[float]]:
        """Each rotation's game scores by seat (one deal for all, unless not ``duplicate``)."""
        rows = []
        deal = [self.rng.gauss(0.0, self.luck) for _ in range(SEATS)]
        for order in core.rotations(SEATS):
            if not self.duplicate:
                deal = [self.rng.gauss(0.0, self.luck) for _ in range(SEATS)]
            rows.append(self._game([fld[i] for i in order], deal))
        return rows

    def play_set(self, picked: Sequence[Hashable]) -> None:
        fld = [str(k) for k in picked]
        totals = core.set_outcome(self.set_rows(fld), SEATS)
        anchored = [k in self.anchors for k in fld]
        after = core.rate_set([self.skills[k] for k in fld], totals, anchored)
        self.clock += 1
        for key, skill in zip(fld, after, strict=True):
            self.skills[key] = skill
            self.games[key] += SEATS
            self.last[key] = self.clock
        self.sets.append(core.SetRecord(len(self.sets), tuple(fld), tuple(totals)))
        if self.refit_every and len(self.sets) % self.refit_every == 0:
            self.skills.update({str(k): skill for k, skill in self.refit().items()})

    def refit(self) -> dict[Hashable, tuple[float, float]]:
        """The site's periodic refit (``bots.tasks.ladder_refit``) over every set so far."""
        return dict(
            (self.refit_fn or REFIT[0])(self.sets, {k: (v, 1.0) for k, v in self.anchors.items()})
        )

    def step(self) -> list[str]:
        picked = core.choose_set(self.entries(), SEATS, self.rng, self.policy)
        assert picked is not None
        self.play_set(picked)
        return [str(k) for k in picked]

    def refit_order(self) -> list[str]:
        """The active entrants best first after a refit over every set (the site's refit)."""
        fitted = self.refit()
        skill = {k: (fitted.get(k) or self.skills[k])[0] for k in self.active}
        return sorted(self.active, key=lambda k: (-skill[k], k))

    def ranges(self) -> dict[Hashable, tuple[int, int]]:
        return core.rank_ranges(self.entries(), self.policy.z)


def true_order(keys: Sequence[str], truth: dict[str, float]) -> list[str]:
    return sorted(keys, key=lambda k: -truth[k])


CHECKPOINTS = (8, 16, 24, 32, 40, 48, 64, 80, 96, 128, 150, 200, 250, 300)
MAX_SETS = 3000  # per trial after the newcomer enters (it is not the focus once settled)


@dataclass
class Track:
    """The newcomer's rank error (estimated − true, by skill) and state at each checkpoint of
    its games, and the Kendall τ of the refit ladder against the true order at 150 games. At
    every checkpoint the ladder is refitted first (as if the site's periodic refit had just
    run): rank, rank range and τ are the refit's, what the site shows after its refit."""

    error: dict[int, int]
    settled: dict[int, bool]
    in_range: dict[int, bool]
    tau150: float
    span: dict[int, int] = field(default_factory=dict)  # its rank range's worst − best


def follow(ladder: SimLadder, newcomer: str, marks: Sequence[int] = CHECKPOINTS) -> Track:
    ladder.enter(newcomer)
    truth_order = true_order(ladder.active, ladder.truth)
    true_rank = truth_order.index(newcomer) + 1
    error: dict[int, int] = {}
    settled: dict[int, bool] = {}
    in_range: dict[int, bool] = {}
    span: dict[int, int] = {}
    tau150 = 0.0
    pending = list(marks)
    for _ in range(MAX_SETS):
        if not pending:
            break
        picked = ladder.step()
        if newcomer not in picked:
            continue
        while pending and ladder.games[newcomer] >= pending[0]:
            mark = pending.pop(0)
            ladder.skills.update({str(k): skill for k, skill in ladder.refit().items()})
            live = sorted(ladder.active, key=lambda k: (-ladder.skills[k][0], k))
            error[mark] = live.index(newcomer) + 1 - true_rank
            best, worst = ladder.ranges()[newcomer]
            span[mark] = worst - best
            settled[mark] = core.entrant_state(ladder.games[newcomer], worst - best) == "settled"
            in_range[mark] = best <= true_rank <= worst
            if mark == 150:
                tau150 = kendall_tau(live, truth_order)
    return Track(error, settled, in_range, tau150, span)


def established(seed: int, *, duplicate: bool, policy: core.Policy, luck: float) -> SimLadder:
    rng = random.Random(seed)
    ladder = SimLadder({**ANCHORS, **BOTS}, rng, duplicate=duplicate, policy=policy, luck=luck)
    for key in ANCHORS:
        ladder.enter(key)
    keys = list(BOTS)
    held_out = keys[seed % len(keys)]
    for key in keys:
        if key != held_out:
            ladder.enter(key)
    for _ in range(WARMUP_SETS):
        ladder.step()
    ladder.truth["new"] = BOTS[held_out]
    return ladder


# ------------------------------------------------------------------ engine-played games

#: The engine field (session 11): twelve players of distinct strength. The house AI's three
#: rule levels are the anchors at their site skills (``bots.anchors``: easy 20, medium 25,
#: hard 28); nine bots play the move of a house level but, with probability ``p``, a legal move
#: drawn at random instead (``key → (level, p)``). The noise grades were chosen so that the true
#: strengths are distinct: :data:`ENGINE_STRENGTH`, measured apart from any ladder by a long
#: round robin (``--round-robin 8 --seed 2``: every 4-subset plays 8 duplicate sets), is the
#: true order (adjacent means 2.2 … 6.0 apart, standard errors 0.4 … 0.8). Note that ``easy``
#: is the weakest of all, weaker than a bot playing at random.
ENGINE_FIELD: dict[str, tuple[str, float]] = {
    "hard": ("hard", 0.0),
    "h12": ("hard", 0.12),
    "h24": ("hard", 0.24),
    "medium": ("medium", 0.0),
    "m12": ("medium", 0.12),
    "m30": ("medium", 0.30),
    "m45": ("medium", 0.45),
    "m60": ("medium", 0.60),
    "m80": ("medium", 0.80),
    "rand": ("easy", 1.0),
    "e50": ("easy", 0.50),
    "easy": ("easy", 0.0),
}
ENGINE_ANCHORS = {"easy": 20.0, "medium": 25.0, "hard": 28.0}
#: Mean duplicate-set total of each against the rest (the round robin above, 1320 sets each).
ENGINE_STRENGTH = {
    "hard": 25.48,
    "h12": 20.36,
    "h24": 14.80,
    "medium": 8.75,
    "m12": 5.69,
    "m30": 1.58,
    "m45": -2.81,
    "m60": -6.61,
    "m80": -10.87,
    "rand": -16.24,
    "e50": -18.42,
    "easy": -21.72,
}


@dataclass
class EngineLadder(SimLadder):
    """The same ladder with every game played by the Tiến Lên engine
    (:func:`games.engine.duplicate.play.play_game`): one seed per set dealt at every rotation
    (a new seed per rotation when not ``duplicate``), each seat's move from ``house_action``
    or, with its noise, at random (its own generator, seeded by the deal, seat and entrant)."""

    noise: dict[str, tuple[str, float]] = field(default_factory=dict)

    def set_rows(self, fld: Sequence[str]) -> list[list[float]]:
        from games.engine.duplicate.play import match_config, play_game
        from games.engine.registry import find_game

        engine: Any = find_game("tienlen")
        config = match_config(engine, SEATS)
        seed = self.rng.randrange(2**31)
        rows = []
        for r, order in enumerate(core.rotations(SEATS)):
            deal = seed if self.duplicate else self.rng.randrange(2**31)
            keys = [fld[i] for i in order]
            players = [
                _NoisyPlayer(engine, *self.noise[k], random.Random(f"{deal}/{r}/{k}")) for k in keys
            ]
            out = play_game(engine, config, deal, players)
            rows.append([float(p) for p in out.points])
        return rows


class _NoisyPlayer:
    def __init__(self, engine: Any, level: str, noise: float, rng: random.Random) -> None:
        self.engine, self.level, self.noise, self.rng = engine, level, noise, rng

    def decide(self, state: Any, seat: int) -> Any:
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(self.engine.legal_actions(state, seat))
        return self.engine.house_action(state, seat, self.level)

    def close(self) -> None:
        return None


def established_engine(
    seed: int, *, duplicate: bool, policy: core.Policy, warmup: int
) -> EngineLadder:
    ladder = EngineLadder(
        dict(ENGINE_STRENGTH),
        random.Random(seed),
        duplicate=duplicate,
        policy=policy,
        anchors=dict(ENGINE_ANCHORS),
        noise=dict(ENGINE_FIELD),
    )
    bots = [k for k in ENGINE_FIELD if k not in ENGINE_ANCHORS]
    held_out = bots[seed % len(bots)]
    for key in ENGINE_FIELD:
        if key != held_out:
            ladder.enter(key)
    for _ in range(warmup):
        ladder.step()
    ladder.truth["new"] = ENGINE_STRENGTH[held_out]
    ladder.noise["new"] = ENGINE_FIELD[held_out]
    return ladder


def round_robin(
    noise: dict[str, tuple[str, float]], passes: int, seed: int
) -> dict[str, tuple[float, float]]:
    """The engine field's true strengths, measured apart from any ladder: every 4-entrant
    subset of the field plays one duplicate set (a fresh deal in all four rotations) per pass;
    returns ``key → (mean set total, its standard error)``."""
    from itertools import combinations

    ladder = EngineLadder(dict.fromkeys(noise, 0.0), random.Random(seed), noise=dict(noise))
    totals: dict[str, list[float]] = {k: [] for k in noise}
    for _ in range(passes):
        for fld in combinations(sorted(noise), SEATS):
            for key, total in zip(fld, core.set_outcome(ladder.set_rows(fld), SEATS), strict=True):
                totals[key].append(total)
    return {
        k: (statistics.fmean(v), statistics.stdev(v) / len(v) ** 0.5) for k, v in totals.items()
    }


ENGINE_MARKS = CHECKPOINTS


def run_engine(trials: int, *, baseline: bool, seed: int, warmup: int) -> list[Track]:
    policy = core.Policy(pool=99) if baseline else core.Policy()
    return [
        follow(
            established_engine(seed + t, duplicate=not baseline, policy=policy, warmup=warmup),
            "new",
            ENGINE_MARKS,
        )
        for t in range(trials)
    ]


def run(trials: int, luck: float, *, baseline: bool, seed: int = 1000) -> list[Track]:
    policy = core.Policy(pool=99) if baseline else core.Policy()
    return [
        follow(established(seed + t, duplicate=not baseline, policy=policy, luck=luck), "new")
        for t in range(trials)
    ]


def share_within(tracks: list[Track], mark: int) -> float:
    return sum(1 for t in tracks if abs(t.error.get(mark, 99)) <= 1) / len(tracks)


def games_to(
    tracks: list[Track], share: float = 0.9, marks: Sequence[int] = CHECKPOINTS
) -> int | None:
    """The first checkpoint from which on at least ``share`` of the trials have the newcomer
    within ±1 of its true rank."""
    for i, mark in enumerate(marks):
        if all(share_within(tracks, m) >= share for m in marks[i:]):
            return mark
    return None


def twice(trials: int, luck: float, seed: int = 5000) -> tuple[int, int]:
    """Identical code promoted twice (the second replaces the first): in how many trials its
    true rank was within its rank range at 150 games both times, of how many."""
    return _twice(
        [
            established(seed + t, duplicate=True, policy=core.Policy(), luck=luck)
            for t in range(trials)
        ],
        CHECKPOINTS,
    )


def twice_engine(trials: int, seed: int, warmup: int) -> tuple[int, int]:
    """:func:`twice` with engine-played games."""
    ladders = (
        established_engine(seed + t, duplicate=True, policy=core.Policy(), warmup=warmup)
        for t in range(trials)
    )
    return _twice(ladders, ENGINE_MARKS)


def _twice(ladders: Iterable[SimLadder], marks: Sequence[int]) -> tuple[int, int]:
    ok = n = 0
    for ladder in ladders:
        first = follow(ladder, "new", marks)
        ladder.retire("new")
        ladder.truth["again"] = ladder.truth["new"]
        if isinstance(ladder, EngineLadder):
            ladder.noise["again"] = ladder.noise["new"]
        second = follow(ladder, "again", marks)
        ok += int(first.in_range.get(150, False) and second.in_range.get(150, False))
        n += 1
    return ok, n


def median_span(tracks: list[Track], mark: int) -> float:
    """The newcomer's median rank-range width (worst − best) at ``mark`` games (a trial that
    never got there counts as the widest, the field size)."""
    return statistics.median(t.span.get(mark, 11) for t in tracks)


def games_to_width(
    tracks: list[Track], width: int, marks: Sequence[int] = CHECKPOINTS
) -> int | None:
    """**The same interval width**, literally: the first checkpoint from which on the median
    trial shows the newcomer's rank range at most ``width`` ranks wide (2: "rank 4–6")."""
    for i, mark in enumerate(marks):
        if all(median_span(tracks, m) <= width for m in marks[i:]):
            return mark
    return None


def _ratio(ours: int | None, base: int | None, last: int) -> str:
    if ours and base:
        return f"{base / ours:.2f}"
    if ours:
        return f"> {last / ours:.2f} (baseline not within {last})"
    return "n/a"


def report(ours: list[Track], base: list[Track], marks: Sequence[int] = CHECKPOINTS) -> None:
    print("newcomer within +-1 of its true rank (share of trials) and its rank range's median")
    print("width (worst - best), by its games; ladder (L) and baseline (B), after a refit:")
    print(
        f"{'games':>8}{'L +-1':>8}{'B +-1':>8}{'L width':>9}{'B width':>9}"
        f"{'L settled':>11}{'L in range':>11}{'B in range':>11}"
    )
    for mark in marks:
        settled = sum(t.settled.get(mark, False) for t in ours) / len(ours)
        ranged = sum(t.in_range.get(mark, False) for t in ours) / len(ours)
        b_ranged = sum(t.in_range.get(mark, False) for t in base) / len(base)
        print(
            f"{mark:>8}{share_within(ours, mark):>8.2f}{share_within(base, mark):>8.2f}"
            f"{median_span(ours, mark):>9.1f}{median_span(base, mark):>9.1f}"
            f"{settled:>11.2f}{ranged:>11.2f}{b_ranged:>11.2f}"
        )
    last = marks[-1]
    g_ours, g_base = games_to(ours, marks=marks), games_to(base, marks=marks)
    print(f"games until 90% of trials stay within +-1: ladder {g_ours}, baseline {g_base}")
    print(f"baseline / ladder: {_ratio(g_ours, g_base, last)}")
    for width in (6, 4, 2):
        w_ours = games_to_width(ours, width, marks)
        w_base = games_to_width(base, width, marks)
        print(
            f"games until the median range is at most {width} wide: ladder {w_ours}, "
            f"baseline {w_base}; baseline / ladder: {_ratio(w_ours, w_base, last)}"
        )
    print(
        f"Kendall tau at 150 games (median): ladder "
        f"{statistics.median(t.tau150 for t in ours):.3f}, "
        f"baseline {statistics.median(t.tau150 for t in base):.3f}; ladder lowest "
        f"{min(t.tau150 for t in ours):.3f}, trials at >= 0.9: "
        f"{sum(t.tau150 >= 0.9 for t in ours) / len(ours):.0%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--luck", type=float, default=4.0)
    parser.add_argument(
        "--seed", type=int, default=0, help="added to every trial's seed (another sample of trials)"
    )
    parser.add_argument(
        "--engine",
        action="store_true",
        help="play every game with the Tiến Lên engine (house AI + graded noise), not the model",
    )
    parser.add_argument(
        "--round-robin",
        type=int,
        default=0,
        metavar="PASSES",
        help="measure the engine field's true strengths (every 4-subset plays PASSES sets)",
    )
    parser.add_argument("--warmup", type=int, default=300, help="warm-up sets (--engine)")
    parser.add_argument(
        "--refit",
        choices=("margins", "ranks"),
        default="margins",
        help="the refit: the site's, by the sets' point totals (margins), or session 11's by ranks",
    )
    args = parser.parse_args()
    REFIT[0] = core.refit if args.refit == "margins" else core.refit_ranks
    started = time.perf_counter()
    print(
        f"ladder benchmark: {args.trials} trials, 12 entrants, {SEATS} seats, seed +{args.seed}, "
        f"refit by {args.refit}"
    )
    if args.round_robin:
        noise = ENGINE_FIELD
        strengths = round_robin(noise, args.round_robin, seed=args.seed)
        print(f"round robin: {args.round_robin} passes over every 4-subset of the engine field")
        print(f"{'entrant':>10}{'level':>8}{'noise':>8}{'mean set total':>16}{'s.e.':>8}")
        for key in sorted(strengths, key=lambda k: -strengths[k][0]):
            mean, err = strengths[key]
            level, p = noise[key]
            print(f"{key:>10}{level:>8}{p:>8.2f}{mean:>16.3f}{err:>8.3f}")
        print(f"took {time.perf_counter() - started:.1f} s")
        return
    if args.engine:
        print("engine-played games: anchors house easy/medium/hard + 9 noisy bots (ENGINE_FIELD)")
        ours = run_engine(args.trials, baseline=False, seed=1000 + args.seed, warmup=args.warmup)
        base = run_engine(args.trials, baseline=True, seed=1000 + args.seed, warmup=args.warmup)
        report(ours, base, ENGINE_MARKS)
        ok, n = twice_engine(args.trials, seed=5000 + args.seed, warmup=args.warmup)
        print(
            "identical code promoted twice: true rank within its range at 150 games both "
            f"times: {ok}/{n}"
        )
        print(f"took {time.perf_counter() - started:.1f} s")
        return
    for luck in (args.luck, args.luck * 0.5, args.luck * 1.5):
        ours = run(args.trials, luck, baseline=False, seed=1000 + args.seed)
        base = run(args.trials, luck, baseline=True, seed=1000 + args.seed)
        print(f"\nhand luck sd {luck:.1f} (play noise sd {BETA:.2f})")
        report(ours, base)
    ok, n = twice(max(10, args.trials // 2), args.luck, seed=5000 + args.seed)
    print(
        "\nidentical code promoted twice: true rank within its range at 150 games both "
        f"times: {ok}/{n}"
    )
    print(f"took {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
