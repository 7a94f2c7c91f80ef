"""Combinations, the beat/cut table, and enumeration against a brute-force reference."""

from __future__ import annotations

import itertools

import pytest

from games.engine.core.rng import Rng
from games.engine.tienlen.cards import ids_to_mask
from games.engine.tienlen.combos import (
    BEAT,
    CUT,
    CUT_VONG,
    NO,
    beat_status,
    classify,
    cut_amount,
    follow_plays,
    kind_name,
    lead_plays,
)


def k(*cards: str) -> int:
    kind = classify(ids_to_mask(cards))
    assert kind, cards
    return kind


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        (["2H"], "single"),
        (["9S", "9D"], "pair"),
        (["2S", "2C", "2D"], "triple"),
        (["3S", "4C", "5D"], "straight"),
        (["3S", "4C", "5D", "6H", "7S", "8C", "9D", "10H", "JS", "QC", "KD", "AH"], "straight"),
        (["4S", "4C", "5S", "5C", "6D", "6H"], "pairs_run"),
        (["3S", "3C", "4S", "4C", "5S", "5C", "6S", "6C", "7S", "7C", "8S", "8C"], "pairs_run"),
        (["KS", "KC", "KD", "KH"], "four"),
    ],
)
def test_classify(cards: list[str], name: str) -> None:
    assert kind_name(k(*cards)) == name


@pytest.mark.parametrize(
    "cards",
    [
        ["KS", "AS", "2S"],  # no 2 in a straight
        ["AS", "AC", "2S", "2C", "KS", "KC"],  # no 2 in a pairs run
        ["3S", "4S"],
        ["3S", "5S", "6S"],
        ["3S", "3C", "4S", "4C"],  # two pairs are no combination
        ["3S", "3C", "3D", "4S", "4C", "4D"],
        ["3S", "3C", "4S", "5S"],
    ],
)
def test_not_combinations(cards: list[str]) -> None:
    assert classify(ids_to_mask(cards)) == 0


TWO = k("2S")
PAIR_TWOS = k("2S", "2H")
TRIPLE_TWOS = k("2S", "2C", "2D")
RUN3 = k("4S", "4C", "5S", "5C", "6S", "6C")
RUN3_HIGH = k("7S", "7C", "8S", "8C", "9S", "9C")
RUN4 = k("4S", "4C", "5S", "5C", "6S", "6C", "7S", "7C")
RUN4_HIGH = k("8S", "8C", "9S", "9C", "10S", "10C", "JS", "JC")
RUN5 = k("3S", "3C", "4S", "4C", "5S", "5C", "6S", "6C", "7S", "7C")
FOUR = k("5S", "5C", "5D", "5H")
FOUR_HIGH = k("KS", "KC", "KD", "KH")


@pytest.mark.parametrize(
    ("play", "top", "status"),
    [
        (RUN3, TWO, CUT_VONG),
        (FOUR, TWO, CUT_VONG),
        (RUN4, TWO, CUT),
        (RUN3, PAIR_TWOS, NO),
        (FOUR, PAIR_TWOS, NO),
        (RUN4, PAIR_TWOS, CUT),
        (RUN5, TRIPLE_TWOS, NO),
        (FOUR_HIGH, TRIPLE_TWOS, NO),
        (RUN3_HIGH, RUN3, CUT_VONG),
        (RUN3, RUN3_HIGH, NO),
        (FOUR, RUN3_HIGH, CUT_VONG),
        (RUN4, RUN3_HIGH, CUT),
        (FOUR_HIGH, FOUR, CUT_VONG),
        (FOUR, FOUR_HIGH, NO),
        (RUN4, FOUR_HIGH, CUT),
        (FOUR_HIGH, RUN4, NO),
        (RUN3_HIGH, RUN4, NO),
        (RUN4_HIGH, RUN4, CUT),
        (RUN4, RUN4_HIGH, NO),
        (RUN5, RUN4_HIGH, CUT),
        (FOUR, k("AH"), NO),
        (RUN4, k("AS", "AH"), NO),
        (k("2H"), TWO, BEAT),
        (k("3S", "4S", "5S", "6S"), k("QH", "KH", "AH"), BEAT),
        (k("QS", "KS", "AS"), k("QH", "KH", "AD"), NO),
        (k("QS", "KS", "AH"), k("QH", "KH", "AD"), BEAT),
        (k("9C", "9H"), k("9S", "9D"), BEAT),
        (k("9C", "9D"), k("9S", "9H"), NO),
        (k("3S", "3C", "3D"), k("2S", "2C", "2D"), NO),
        (k("AS"), k("3S", "3C"), NO),
    ],
)
def test_beat_table(play: int, top: int, status: int) -> None:
    assert beat_status(play, top) == status


def test_cut_amounts() -> None:
    assert cut_amount(ids_to_mask(["2D", "2H"]), PAIR_TWOS, 0) == 8
    assert cut_amount(ids_to_mask(["2S", "2C"]), PAIR_TWOS, 0) == 4
    assert cut_amount(0, RUN3, 0) == 4
    assert cut_amount(0, FOUR, 0) == 4
    assert cut_amount(ids_to_mask(["2H"]), TWO, 6) == 6


def _brute(hand: int) -> set[int]:
    cards = [i for i in range(52) if hand >> i & 1]
    out = set()
    for n in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, n):
            mask = sum(1 << c for c in combo)
            if classify(mask):
                out.add(mask)
    return out


def test_enumeration_matches_brute_force() -> None:
    rng = Rng(3)
    for _ in range(60):
        deck = rng.shuffle(list(range(52)))
        hand = sum(1 << c for c in deck[:13])
        every = _brute(hand)
        leads = lead_plays(hand)
        assert len(leads) == len(set(leads))
        assert set(leads) == every
        assert set(lead_plays(hand, 1 << deck[0])) == {m for m in every if m >> deck[0] & 1}
        other = lead_plays(sum(1 << c for c in deck[13:26]))
        for top in [rng.choice(other) for _ in range(8)]:
            tk = classify(top)
            for vong in (True, False):
                allowed = (BEAT, CUT, CUT_VONG) if vong else (BEAT, CUT)
                expected = {m for m in every if beat_status(classify(m), tk) in allowed}
                got = follow_plays(hand, top, tk, vong)
                assert len(got) == len(set(got))
                assert set(got) == expected


def test_every_suit_variant_of_long_straights_is_listed() -> None:
    hand = ids_to_mask(["3S", "3H", "4S", "4H", "5S", "5H", "6S", "6H", "7S", "7H", "8S", "8H"])
    straights = [m for m in lead_plays(hand) if kind_name(classify(m)) == "straight"]
    # windows of length L over 6 ranks, 2 suits each: sum (7 - L) * 2**L for L = 3..6
    assert len(straights) == sum((7 - n) * 2**n for n in range(3, 7))
