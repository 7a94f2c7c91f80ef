"""benchmarks/ladder.py's engine-played mode: real Tiến Lên games, one deal in every rotation,
the same trial from the same seed, and a noise grade that actually weakens a bot."""

from __future__ import annotations

import random

from benchmarks import ladder as bench
from bots.ladder import core


def test_an_engine_set_is_one_deal_in_every_rotation_and_repeats_from_its_seed() -> None:
    fld = ["medium", "noise08", "noise48", "noise88"]

    def rows(seed: int) -> list[list[float]]:
        lad = bench.EngineLadder(
            {}, random.Random(seed), anchors={"medium": 25.0}, noise=dict(bench.ENGINE_NOISE)
        )
        return lad.set_rows(fld)

    first = rows(3)
    assert len(first) == bench.SEATS
    assert all(sum(row) == 0 for row in first)  # a Tiến Lên deal's points are zero-sum
    assert rows(3) == first
    assert sum(core.set_outcome(first, bench.SEATS)) == 0


def test_more_noise_loses_more_over_engine_sets() -> None:
    lad = bench.EngineLadder(
        {}, random.Random(11), anchors={"medium": 25.0}, noise=dict(bench.ENGINE_NOISE)
    )
    totals = [0.0] * 4
    for _ in range(6):
        out = core.set_outcome(lad.set_rows(["medium", "noise08", "noise48", "noise88"]), 4)
        totals = [t + o for t, o in zip(totals, out, strict=True)]
    assert totals[0] > totals[3]  # the house AI against the bot that plays 88 % at random
