"""benchmarks/ladder.py's engine-played mode: real Tiến Lên games, one deal in every rotation,
the same trial from the same seed, a noise grade that actually weakens a bot, and the round
robin that measures the field's true strengths."""

from __future__ import annotations

import random

from benchmarks import ladder as bench
from bots.ladder import core


def _ladder(seed: int) -> bench.EngineLadder:
    return bench.EngineLadder(
        {}, random.Random(seed), anchors=dict(bench.ENGINE_ANCHORS), noise=dict(bench.ENGINE_FIELD)
    )


def test_an_engine_set_is_one_deal_in_every_rotation_and_repeats_from_its_seed() -> None:
    fld = ["hard", "medium", "m60", "easy"]
    first = _ladder(3).set_rows(fld)
    assert len(first) == bench.SEATS
    assert all(sum(row) == 0 for row in first)  # a Tiến Lên deal's points are zero-sum
    assert _ladder(3).set_rows(fld) == first
    assert sum(core.set_outcome(first, bench.SEATS)) == 0


def test_more_noise_loses_more_over_engine_sets() -> None:
    lad = _ladder(11)
    totals = [0.0] * 4
    for _ in range(6):
        out = core.set_outcome(lad.set_rows(["hard", "medium", "m80", "rand"]), 4)
        totals = [t + o for t, o in zip(totals, out, strict=True)]
    assert totals[1] > totals[2]  # the house AI against itself playing 80 % at random


def test_the_field_of_known_strength_is_the_round_robins_order() -> None:
    assert set(bench.ENGINE_STRENGTH) == set(bench.ENGINE_FIELD)
    assert set(bench.ENGINE_ANCHORS) <= set(bench.ENGINE_FIELD)
    strengths = sorted(bench.ENGINE_STRENGTH.values())
    assert len(set(strengths)) == len(strengths)
    # a small round robin: every entrant plays the same number of zero-sum sets
    field = {k: bench.ENGINE_FIELD[k] for k in ("hard", "medium", "m45", "rand", "easy")}
    measured = bench.round_robin(field, passes=1, seed=4)
    assert set(measured) == set(field)
    assert abs(sum(mean for mean, _ in measured.values())) < 1e-9
    assert all(err > 0 for _, err in measured.values())


def test_games_to_the_same_interval_width_reads_the_median_trial() -> None:
    marks = (8, 16, 32)

    def track(spans: tuple[int, int, int]) -> bench.Track:
        return bench.Track({}, {}, {}, 0.0, dict(zip(marks, spans, strict=True)))

    narrow = [track((6, 2, 1)), track((5, 4, 2)), track((9, 2, 2))]
    wide = [track((9, 6, 4)), track((9, 5, 3)), track((9, 9, 2))]
    assert bench.median_span(narrow, 16) == 2
    assert bench.games_to_width(narrow, 2, marks) == 16
    assert bench.games_to_width(wide, 2, marks) is None
    assert bench.games_to_width(wide, 4, marks) == 32
    assert bench.median_span([bench.Track({}, {}, {}, 0.0)], 8) == 11  # never got there
    assert bench._ratio(16, None, 32).startswith("> 2.00")


def test_the_benchmark_refits_with_the_sites_refit_unless_told() -> None:
    lad = _ladder(5)
    for key in bench.ENGINE_FIELD:
        lad.enter(key)
    for _ in range(3):
        lad.step()
    assert lad.refit() == core.refit(lad.sets, {k: (v, 1.0) for k, v in lad.anchors.items()})
    lad.refit_fn = core.refit_ranks
    assert lad.refit() == core.refit_ranks(lad.sets, {k: (v, 1.0) for k, v in lad.anchors.items()})
