"""The ladder's pure code (bots/ladder/core.py): rotations, duplicate totals, the per-set
update, the refit's determinism, rank ranges, the scheduler's choice, states and suspension."""

from __future__ import annotations

import doctest
import random

from bots.ladder import core
from bots.ladder.core import Entry, Policy, SetRecord


def test_doctests() -> None:
    failures, tried = doctest.testmod(core)
    assert tried > 5
    assert failures == 0


def test_every_entrant_holds_every_seat_once_per_set() -> None:
    for n in (2, 3, 4, 7):
        table = core.rotations(n)
        assert len(table) == n
        for index in range(n):
            seats = [row.index(index) for row in table]
            assert sorted(seats) == list(range(n))
            assert seats == [core.seat_of(index, r, n) for r in range(n)]


def test_a_duplicate_set_cancels_the_deals_luck() -> None:
    # seat 0's hand always wins 9: over the set every entrant held it once
    luck = [9.0, -3.0, -3.0, -3.0]
    skill = [2.0, 1.0, 0.0, -3.0]
    scores = [[luck[s] + skill[core.rotations(4)[r][s]] for s in range(4)] for r in range(4)]
    totals = core.set_outcome(scores, 4)
    assert totals == [4 * s for s in skill]


def test_the_per_set_update_moves_bots_and_never_anchors() -> None:
    before = [(25.0, 8.0), (28.0, 1.0), (25.0, 8.0)]
    after = core.rate_set(before, [3.0, 1.0, -4.0], [False, True, False])
    assert after[1] == (28.0, 1.0)
    assert after[0][0] > 25.0 > after[2][0]
    assert after[0][1] < 8.0
    assert after[2][1] < 8.0


def test_the_refit_gives_the_same_ladder_whatever_order_sets_were_recorded() -> None:
    rng = random.Random(5)
    sets = [
        SetRecord(i, tuple(rng.sample(["a", "b", "c", "d", "e"], 4)), (3.0, 1.0, -1.0, -3.0))
        for i in range(40)
    ]
    anchors = {"e": (25.0, 1.0)}
    first = core.refit(sets, anchors)
    shuffled = list(sets)
    rng.shuffle(shuffled)
    assert core.refit(shuffled, anchors) == first
    assert "e" not in first
    assert set(first) == {"a", "b", "c", "d"}


def _played_sets(truth: dict[str, float], count: int, seed: int, noise: float) -> list[SetRecord]:
    """``count`` sets of 4 drawn from ``truth``; a set's totals rank the entrants by true skill
    + play noise of sd ``noise``."""
    rng = random.Random(seed)
    sets = []
    for i in range(count):
        field = rng.sample(sorted(truth), 4)
        perf = [truth[k] + rng.gauss(0.0, noise) for k in field]
        totals = tuple(float(sum(1 for q in perf if q < p) * 2 - 3) for p in perf)
        sets.append(SetRecord(i, tuple(field), totals))
    return sets


def test_the_rank_refit_fits_the_scale_instead_of_stretching_away_from_the_anchors() -> None:
    # four anchors at their true skills and bots beyond them at both ends; sets more decisive
    # than the set model reads them (noise half its beta): with the anchors pinned the replay
    # stretches the ends away from them; the refit lets the anchors float (prior sd 2) and maps
    # the result back onto their scale, which lands nearer the truth in every sample
    anchors = {"easy": 20.0, "medium": 25.0, "hard": 28.0, "expert": 31.0}
    bots = {"low": 18.5, "mid": 26.5, "high": 33.5}
    priors = {k: (v, 1.0) for k, v in anchors.items()}
    for seed in (3, 4, 5, 6):
        sets = _played_sets({**anchors, **bots}, 600, seed, core.set_model(4).beta / 2)
        fitted = core.refit_ranks(sets, priors)
        pinned = core.refit_ranks(sets, priors, anchor_sigma=1e-6)
        assert set(fitted) == set(bots)
        assert fitted["low"][0] < fitted["mid"][0] < fitted["high"][0]
        error = sum(abs(fitted[k][0] - bots[k]) for k in ("low", "high"))
        assert error < sum(abs(pinned[k][0] - bots[k]) for k in ("low", "high")), seed
        assert all(abs(fitted[k][0] - t) < 3.0 for k, t in bots.items()), (seed, fitted)


def _margin_sets(
    truth: dict[str, float], count: int, seed: int, noise: float, points: float = 3.0
) -> list[SetRecord]:
    """``count`` duplicate sets of 4 drawn from ``truth`` with margins: a set's totals are
    ``points`` × (true skill − the field's mean) + play noise of sd ``noise`` (points), less
    the set's mean (zero-sum, as a Tiến Lên set is)."""
    rng = random.Random(seed)
    sets = []
    for i in range(count):
        field = rng.sample(sorted(truth), 4)
        mean = sum(truth[k] for k in field) / 4
        raw = [points * (truth[k] - mean) + rng.gauss(0.0, noise) for k in field]
        centre = sum(raw) / 4
        sets.append(SetRecord(i, tuple(field), tuple(r - centre for r in raw)))
    return sets


ANCHORS = {"easy": 20.0, "medium": 25.0, "hard": 28.0, "expert": 31.0}
BOTS = {"low": 18.5, "b21": 21.5, "b23": 23.0, "mid": 26.5, "b30": 29.5, "high": 33.5}


def test_the_margin_refit_finds_the_true_skills_on_the_anchors_scale() -> None:
    priors = {k: (v, 1.0) for k, v in ANCHORS.items()}
    for seed in (1, 2, 3):
        sets = _margin_sets({**ANCHORS, **BOTS}, 400, seed, noise=12.0)
        fitted = core.refit(sets, priors)
        assert set(fitted) == set(BOTS)
        assert sorted(fitted, key=lambda k: fitted[k][0]) == sorted(BOTS, key=BOTS.__getitem__)
        assert all(abs(fitted[k][0] - t) < 1.0 for k, t in BOTS.items()), (seed, fitted)


def test_the_margin_refits_intervals_are_honest_and_narrow_with_more_sets() -> None:
    # over many samples the truth lies within 1.96 sd of the fit about 95 % of the time
    priors = {k: (v, 1.0) for k, v in ANCHORS.items()}
    inside = total = 0
    for seed in range(20):
        fitted = core.refit(_margin_sets({**ANCHORS, **BOTS}, 60, 100 + seed, noise=12.0), priors)
        for key, (mu, sigma) in fitted.items():
            inside += abs(mu - BOTS[str(key)]) <= 1.96 * sigma
            total += 1
    assert 0.88 <= inside / total <= 1.0, inside / total
    few = core.refit(_margin_sets({**ANCHORS, **BOTS}, 30, 7, noise=12.0), priors)
    many = core.refit(_margin_sets({**ANCHORS, **BOTS}, 480, 7, noise=12.0), priors)
    assert all(many[k][1] < few[k][1] / 2.5 for k in BOTS)  # sigma ~ 1/sqrt(sets): 4 = sqrt 16


def test_the_margins_say_more_than_the_ranks_of_the_same_sets() -> None:
    priors = {k: (v, 1.0) for k, v in ANCHORS.items()}
    margin_error = rank_error = 0.0
    for seed in range(6):
        sets = _margin_sets({**ANCHORS, **BOTS}, 120, 200 + seed, noise=12.0)
        by_margin, by_rank = core.refit(sets, priors), core.refit_ranks(sets, priors)
        margin_error += sum(abs(by_margin[k][0] - t) for k, t in BOTS.items())
        rank_error += sum(abs(by_rank[k][0] - t) for k, t in BOTS.items())
    assert margin_error < rank_error


def test_the_margin_refit_without_anchors_or_sets() -> None:
    assert core.refit([], {"easy": (20.0, 1.0)}) == {}
    one = core.refit([SetRecord(1, ("a", "b", "c", "d"), (9.0, 3.0, -3.0, -9.0))], {})
    assert set(one) == {"a", "b", "c", "d"}
    assert one["a"][0] > one["b"][0] > one["c"][0] > one["d"][0]
    # one set says little: every interval is still wide (at least a third of the prior's)
    assert all(sigma > core.PRIOR_SIGMA / 3 for _, sigma in one.values())


def test_the_refits_scale_map_is_the_anchors_least_squares_fit() -> None:
    shift, factor = core._scale_map([(10.0, 20.0), (20.0, 25.0), (30.0, 30.0)])
    assert (shift, factor) == (15.0, 0.5)
    assert core._scale_map([]) == (0.0, 1.0)
    assert core._scale_map([(3.0, 25.0), (3.0, 28.0)]) == (23.5, 1.0)  # alike: a shift only
    assert core._scale_map([(0.0, 0.0), (1.0, 100.0)])[1] == core.SCALE_BOUNDS[1]


def test_a_set_is_read_with_the_noise_of_its_averaged_games() -> None:
    # a set's total averages `seats` games whose luck cancels: beta / sqrt(seats), so one set
    # moves a skill more than one game of the arena's model (beta 25/6) would
    assert core.set_model(4).beta == core.BETA / 2
    assert core.set_model(2).beta == core.BETA / 2**0.5
    field = [(25.0, 4.0), (25.0, 4.0), (25.0, 4.0), (25.0, 4.0)]
    after = core.rate_set(field, [9.0, 3.0, -3.0, -9.0], [False] * 4)
    one_game = core.MODEL.rate(
        [[core.MODEL.rating(mu=25.0, sigma=4.0)] for _ in field], ranks=[1, 2, 3, 4]
    )
    assert after[0][0] - 25.0 > one_game[0][0].mu - 25.0 + 0.1


def test_rank_ranges_are_97_5_percent_one_sided_per_pair() -> None:
    # 1.64 (90 %) left identical code promoted twice outside its own range in 3 of 15 trials
    assert Policy().z == 1.96
    apart = [Entry("a", 25.0 + 1.9 * 2**0.5, 1.0), Entry("b", 25.0, 1.0)]
    assert core.rank_ranges(apart) == {"a": (1, 2), "b": (1, 2)}
    assert core.rank_ranges(apart, z=1.64) == {"a": (1, 1), "b": (2, 2)}


def test_rank_ranges_widen_with_uncertainty() -> None:
    sure = [Entry(k, mu, 0.3) for k, mu in zip("abcd", (30, 27, 24, 21), strict=True)]
    assert core.rank_ranges(sure) == {"a": (1, 1), "b": (2, 2), "c": (3, 3), "d": (4, 4)}
    unsure = [*sure[:3], Entry("d", 21, 8.0)]
    ranges = core.rank_ranges(unsure)
    assert ranges["d"] == (1, 4)
    assert ranges["a"] == (1, 2)


def test_the_scheduler_places_the_least_certain_entrant_against_near_ratings() -> None:
    field = [
        Entry("anchor-low", 20.0, 1.0, anchor=True),
        Entry("anchor-mid", 25.0, 1.0, anchor=True),
        Entry("anchor-high", 28.0, 1.0, anchor=True),
        Entry("old", 31.0, 1.2, games=200),
        Entry("far", 45.0, 1.2, games=200),
        Entry("new", 27.0, 8.0, games=0),
    ]
    picked = core.choose_set(field, 3, random.Random(1), Policy(pool=0))
    assert picked is not None
    assert picked[0] == "new"
    assert set(picked[1:]) == {"anchor-high", "anchor-mid"}  # the two nearest to 27
    # with a pool, opponents are drawn from the nearest seats - 1 + pool
    seen = set()
    for seed in range(30):
        chosen = core.choose_set(field, 3, random.Random(seed), Policy(pool=1))
        assert chosen is not None
        assert chosen[0] == "new"
        seen.update(chosen[1:])
    assert seen == {"anchor-high", "anchor-mid", "old"}


def test_idle_and_few_games_raise_priority_and_unavailable_are_never_seated() -> None:
    policy = Policy()
    fresh = core.priority(Entry("x", games=0), span=0, field=4, policy=policy)
    worn = core.priority(Entry("x", games=99), span=0, field=4, policy=policy)
    assert fresh - worn == policy.new_bonus
    idle = core.priority(
        Entry("x", games=99, idle=policy.idle_seconds * 3), span=0, field=4, policy=policy
    )
    assert idle - worn == policy.idle_bonus
    field = [
        Entry("a", anchor=True),
        Entry("b", anchor=True),
        Entry("off", games=0, available=False),
        Entry("on", games=50, sigma=2.0),
    ]
    assert core.choose_set(field, 3, random.Random(0)) == ["on", "a", "b"]
    assert core.choose_set(field, 4, random.Random(0)) is None  # only three may sit
    assert core.choose_set(field[:2] + field[2:3], 2, random.Random(0)) is None  # anchors only


def test_states_and_suspension_thresholds() -> None:
    policy = Policy()
    assert core.entrant_state(policy.settle_games, policy.settle_width, policy) == "settled"
    assert core.entrant_state(policy.settle_games - 1, 0, policy) == "placing"
    assert core.entrant_state(policy.settle_games, policy.settle_width + 1, policy) == "placing"
    assert not core.should_suspend(policy.fault_min_games - 1, 99, policy)
    limit = int(policy.fault_share * 40)
    assert not core.should_suspend(40, limit, policy)
    assert core.should_suspend(40, limit + 1, policy)


def test_beat_runs_the_ladder_on_its_own_queue() -> None:
    from celery import current_app

    from bots import tasks  # registers the ladder's tasks, as a worker does
    from config.settings import base

    assert tasks.ladder_tick.name == "bots.tasks.ladder_tick"
    for entry in ("bots-ladder-tick", "bots-ladder-refit"):
        name = str(base.CELERY_BEAT_SCHEDULE[entry]["task"])
        assert name in current_app.tasks
        assert current_app.amqp.router.route({}, name)["queue"].name == "ladder"
    close = "bots.tasks.ladder_close_set_task"
    assert current_app.amqp.router.route({}, close)["queue"].name == "ladder"
