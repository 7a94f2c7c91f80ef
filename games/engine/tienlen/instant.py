"""Instant wins (tới trắng), checked right after the deal.

When a hand qualifies for several, the name reported is the first in :data:`OPENING_ORDER` or
:data:`OTHER_ORDER` (the most specific first: a 4-pair run with 3♠ is reported as such, not as
a 3-pair run). Every one is worth the same points.

>>> from games.engine.tienlen.cards import ids_to_mask as m
>>> hand = m(["2S", "2C", "2D", "2H", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"])
>>> instant_win(hand, opening=False), instant_win(hand, opening=True)
('four_twos', 'four_twos')
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["INSTANT_WINS", "OPENING_ORDER", "OTHER_ORDER", "instant_win"]

_POP = tuple(bin(n).count("1") for n in range(16))
_THREE_S = 1
_BLACK = sum(0b0011 << (4 * r) for r in range(13))
_RED = sum(0b1100 << (4 * r) for r in range(13))


def _counts(hand: int) -> list[int]:
    return [_POP[(hand >> (4 * r)) & 15] for r in range(13)]


def _longest_pairs_run(counts: list[int]) -> int:
    best = cur = 0
    for r in range(12):
        cur = cur + 1 if counts[r] >= 2 else 0
        best = max(best, cur)
    return best


def _four_threes(hand: int, c: list[int]) -> bool:
    return c[0] == 4


def _four_twos(hand: int, c: list[int]) -> bool:
    return c[12] == 4


def _pairs_run_with_3s(length: int) -> Callable[[int, list[int]], bool]:
    def check(hand: int, c: list[int]) -> bool:
        return bool(hand & _THREE_S) and all(c[r] >= 2 for r in range(length))

    return check


def _triples(k: int) -> Callable[[int, list[int]], bool]:
    def check(hand: int, c: list[int]) -> bool:
        return sum(1 for x in c if x >= 3) >= k

    return check


def _three_fours(hand: int, c: list[int]) -> bool:
    return sum(1 for x in c if x == 4) >= 3


def _five_pairs_one_triple(hand: int, c: list[int]) -> bool:
    # The whole hand splits into 5 pairs (a four is 2 pairs) and 1 triple.
    return hand.bit_count() == 13 and 1 not in c and c.count(3) == 1


def _five_pairs_run_one_triple(hand: int, c: list[int]) -> bool:
    for start in range(8):
        run = range(start, start + 5)
        if all(c[r] >= 2 for r in run) and any(c[r] >= 3 for r in range(13) if r not in run):
            return True
    return False


def _five_pairs_run(hand: int, c: list[int]) -> bool:
    return _longest_pairs_run(c) >= 5


def _six_pairs(hand: int, c: list[int]) -> bool:
    return sum(x // 2 for x in c) >= 6


def _dragon(hand: int, c: list[int]) -> bool:
    return all(c[r] >= 1 for r in range(12))


def _one_colour(hand: int, c: list[int]) -> bool:
    return hand.bit_count() == 13 and (hand & _BLACK == hand or hand & _RED == hand)


#: Name → test, for every instant win in the rulings.
INSTANT_WINS: dict[str, Callable[[int, list[int]], bool]] = {
    "four_threes": _four_threes,
    "four_twos": _four_twos,
    "three_pairs_run_with_3S": _pairs_run_with_3s(3),
    "four_pairs_run_with_3S": _pairs_run_with_3s(4),
    "three_triples": _triples(3),
    "four_triples": _triples(4),
    "three_fours": _three_fours,
    "five_pairs_one_triple": _five_pairs_one_triple,
    "five_pairs_run_one_triple": _five_pairs_run_one_triple,
    "five_pairs_run": _five_pairs_run,
    "six_pairs": _six_pairs,
    "dragon": _dragon,
    "one_colour": _one_colour,
}

#: Opening games (and the game after a tới trắng), most specific first.
OPENING_ORDER: tuple[str, ...] = (
    "four_twos",
    "three_fours",
    "four_threes",
    "four_triples",
    "five_pairs_run_one_triple",
    "five_pairs_one_triple",
    "four_pairs_run_with_3S",
    "three_pairs_run_with_3S",
    "three_triples",
)
#: Every other game, most specific first.
OTHER_ORDER: tuple[str, ...] = ("four_twos", "dragon", "one_colour", "five_pairs_run", "six_pairs")


def instant_win(hand: int, opening: bool) -> str | None:
    """The instant win a dealt hand qualifies for, or None.

    >>> from games.engine.tienlen.cards import ids_to_mask as m
    >>> dragon = m(["3S", "4C", "5D", "6H", "7S", "8C", "9D", "10H", "JS", "QC", "KD", "AH", "AS"])
    >>> instant_win(dragon, opening=False), instant_win(dragon, opening=True)
    ('dragon', None)
    """
    counts = _counts(hand)
    for name in OPENING_ORDER if opening else OTHER_ORDER:
        if INSTANT_WINS[name](hand, counts):
            return name
    return None
