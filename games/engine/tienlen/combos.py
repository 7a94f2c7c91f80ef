"""Combinations, comparisons, cuts and legal-play enumeration on 52-bit masks.

A *kind* packs a combination's type, length and top card into one int
(``type << 12 | length << 6 | top``) so comparisons are integer arithmetic. Enumeration builds
masks from per-rank nibbles with precomputed tables and only generates plays that can beat the
table when following.

>>> from games.engine.tienlen.cards import ids_to_mask, mask_to_ids
>>> k = classify(ids_to_mask(["3S", "4D", "5H"]))
>>> kind_name(k), kind_length(k), kind_top(k)
('straight', 3, 11)
>>> classify(ids_to_mask(["2S", "3S", "4S"]))
0
>>> len(lead_plays(ids_to_mask(["3S", "3C", "4S"])))
4
"""

from __future__ import annotations

__all__ = [
    "BEAT",
    "CUT",
    "CUT_VONG",
    "FOUR",
    "KIND_NAMES",
    "NO",
    "PAIR",
    "PAIRS_RUN",
    "SINGLE",
    "STRAIGHT",
    "TRIPLE",
    "beat_status",
    "classify",
    "cut_amount",
    "follow_plays",
    "is_hang",
    "kind_length",
    "kind_name",
    "kind_top",
    "kind_type",
    "lead_plays",
    "make_kind",
]

SINGLE, PAIR, TRIPLE, STRAIGHT, PAIRS_RUN, FOUR = 1, 2, 3, 4, 5, 6
#: Names used in actions, events and the conformance format.
KIND_NAMES: dict[int, str] = {
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    STRAIGHT: "straight",
    PAIRS_RUN: "pairs_run",
    FOUR: "four",
}

#: ``beat_status`` results.
NO, BEAT, CUT, CUT_VONG = 0, 1, 2, 3

_TWO_RANK = 12

# --- tables -----------------------------------------------------------------------------------

_POP = tuple(bin(n).count("1") for n in range(16))
#: _SUBS[k][nibble] = sub-nibbles of ``nibble`` with k bits, ascending.
_SUBS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(s for s in range(1, 16) if s & n == s and _POP[s] == k) for n in range(16))
    for k in range(5)
)
#: _SH[k][rank][nibble] = the k-card sub-masks of that rank's nibble, shifted into place.
_SH: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(s << (4 * r) for s in _SUBS[k][n]) for n in range(16)) for r in range(13))
    for k in range(5)
)
_SH1, _SH2, _SH3 = _SH[1], _SH[2], _SH[3]


def make_kind(ctype: int, length: int, top: int) -> int:
    """Pack a kind.

    >>> kind_name(make_kind(PAIR, 1, 7))
    'pair'
    """
    return (ctype << 12) | (length << 6) | top


def kind_type(kind: int) -> int:
    """The type constant of a kind.

    >>> kind_type(make_kind(FOUR, 1, 3)) == FOUR
    True
    """
    return kind >> 12


def kind_length(kind: int) -> int:
    """Number of ranks in a straight or pairs run (1 for other types).

    >>> kind_length(make_kind(PAIRS_RUN, 4, 30))
    4
    """
    return (kind >> 6) & 63


def kind_top(kind: int) -> int:
    """Index of the strongest card of the play.

    >>> kind_top(make_kind(SINGLE, 1, 51))
    51
    """
    return kind & 63


def kind_name(kind: int) -> str:
    """The type name of a kind.

    >>> kind_name(make_kind(STRAIGHT, 5, 20))
    'straight'
    """
    return KIND_NAMES[kind >> 12]


def is_hang(kind: int) -> bool:
    """True for hàng: a pairs run (≥3 pairs) or a four of a kind.

    >>> is_hang(make_kind(FOUR, 1, 3)), is_hang(make_kind(TRIPLE, 1, 3))
    (True, False)
    """
    t = kind >> 12
    return t in (FOUR, PAIRS_RUN)


def classify(mask: int) -> int:
    """The kind of a set of cards, or 0 when it is no combination.

    >>> from games.engine.tienlen.cards import ids_to_mask as m
    >>> [kind_name(classify(m(c))) for c in (["2H"], ["9S", "9D"], ["KS", "KC", "KH"])]
    ['single', 'pair', 'triple']
    >>> kind_name(classify(m(["4S", "4C", "5S", "5C", "6D", "6H"])))
    'pairs_run'
    >>> classify(m(["QS", "KS", "AS", "2S"])), classify(m(["4S", "4C", "5S", "5C"]))
    (0, 0)
    """
    if mask <= 0 or mask >> 52:
        return 0
    n = mask.bit_count()
    top = mask.bit_length() - 1
    if n == 1:
        return (SINGLE << 12) | (1 << 6) | top
    low = (mask & -mask).bit_length() - 1
    rlo = low >> 2
    rhi = top >> 2
    if rlo == rhi:
        if n == 2:
            return (PAIR << 12) | (1 << 6) | top
        if n == 3:
            return (TRIPLE << 12) | (1 << 6) | top
        return (FOUR << 12) | (1 << 6) | top
    if rhi == _TWO_RANK:
        return 0
    span = rhi - rlo + 1
    if span < 3:
        return 0
    if n == span:
        per = 1
        ctype = STRAIGHT
    elif n == 2 * span:
        per = 2
        ctype = PAIRS_RUN
    else:
        return 0
    shifted = mask >> (4 * rlo)
    for _ in range(span):
        if _POP[shifted & 15] != per:
            return 0
        shifted >>= 4
    return (ctype << 12) | (span << 6) | top


def beat_status(kind: int, top_kind: int) -> int:
    """Can a play of ``kind`` go on ``top_kind``? ``NO``, ``BEAT``, ``CUT`` or ``CUT_VONG``.

    ``CUT_VONG`` is a cut that needs vòng (3 đôi thông or tứ quý); ``CUT`` needs none
    (4+ đôi thông).

    >>> from games.engine.tienlen.cards import ids_to_mask as m
    >>> two = classify(m(["2H"]))
    >>> beat_status(classify(m(["5S", "5C", "5D", "5H"])), two) == CUT_VONG
    True
    >>> run4 = classify(m(["4S", "4C", "5S", "5C", "6S", "6C", "7S", "7C"]))
    >>> beat_status(run4, classify(m(["2S", "2H"]))) == CUT
    True
    >>> beat_status(classify(m(["3S", "4S", "5S", "6S"])), classify(m(["9H", "10H", "JH"])))
    1
    """
    t = kind >> 12
    tt = top_kind >> 12
    top = kind & 63
    ttop = top_kind & 63
    if t == tt:
        if t <= TRIPLE:
            return BEAT if top > ttop else NO
        if t == STRAIGHT:
            ln = (kind >> 6) & 63
            tln = (top_kind >> 6) & 63
            return BEAT if ln > tln or (ln == tln and top > ttop) else NO
        if t == FOUR:
            return CUT_VONG if top > ttop else NO
        # pairs runs
        ln = (kind >> 6) & 63
        tln = (top_kind >> 6) & 63
        if tln == 3:
            if ln >= 4:
                return CUT
            return CUT_VONG if top > ttop else NO
        return CUT if ln > tln or (ln == tln and top > ttop) else NO
    if t == PAIRS_RUN:
        ln = (kind >> 6) & 63
        if tt == SINGLE:
            if ttop >= 48:
                return CUT if ln >= 4 else CUT_VONG
            return NO
        if tt == PAIR:
            return CUT if ttop >= 48 and ln >= 4 else NO
        if tt == FOUR:
            return CUT if ln >= 4 else NO
        return NO
    if t == FOUR:
        if tt == SINGLE:
            return CUT_VONG if ttop >= 48 else NO
        if tt == PAIRS_RUN:
            return CUT_VONG if ((top_kind >> 6) & 63) == 3 else NO
        return NO
    return NO


def cut_amount(top_mask: int, top_kind: int, twos_run: int) -> int:
    """Chặt points for cutting ``top_kind``: the single-2 run, 2 × a pair of 2s, or 4 (hàng).

    >>> from games.engine.tienlen.cards import ids_to_mask as m
    >>> cut_amount(m(["2S", "2H"]), classify(m(["2S", "2H"])), 0)
    6
    >>> cut_amount(m(["2H"]), classify(m(["2H"])), 3)
    3
    """
    t = top_kind >> 12
    if t == SINGLE:
        return twos_run
    if t == PAIR:
        bits = top_mask >> 48
        return 2 * (_POP[bits & 3] + 2 * _POP[(bits >> 2) & 3])
    return 4


# --- enumeration ------------------------------------------------------------------------------


def _nibbles(hand: int) -> list[int]:
    return [(hand >> s) & 15 for s in (0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48)]


def _runs(
    out: list[int],
    nibs: list[int],
    comps: tuple[tuple[tuple[int, ...], ...], ...],
    need: int,
    min_len: int,
    eq_len: int,
    floor: int,
) -> None:
    """Append every run (straight with need=1, pairs run with need=2) of length ≥ min_len.

    Runs of length ``eq_len`` must have a top component ≥ ``floor`` (a mask); ranks 3..A only.
    """
    start = 0
    while start <= 12 - min_len:
        # length of the run of usable ranks from start
        end = start
        while end < 12 and _POP[nibs[end]] >= need:
            end += 1
        avail = end - start
        if avail < min_len:
            start = end + 1
            continue
        for s in range(start, end - min_len + 1):
            cur: list[int] = list(comps[s][nibs[s]])
            for r in range(s + 1, end):
                length = r - s + 1
                rc = comps[r][nibs[r]]
                if length == eq_len:
                    good = [c for c in rc if c >= floor]
                    if good:
                        out.extend([p | c for p in cur for c in good])
                    if r == end - 1:
                        break
                    cur = [p | c for p in cur for c in rc]
                else:
                    cur = [p | c for p in cur for c in rc]
                    if length >= min_len:
                        out.extend(cur)
        start = end + 1


def lead_plays(hand: int, required: int = 0) -> list[int]:
    """Every play a leader may make from ``hand`` (masks); with ``required``, only plays that
    contain that card.

    Order: singles, pairs, triples, fours (each by rank), then straights, then pairs runs.

    >>> from games.engine.tienlen.cards import ids_to_mask as m, mask_to_ids
    >>> [mask_to_ids(p) for p in lead_plays(m(["3S", "4S", "5S", "5C"]), m(["3S"]))]
    [['3S'], ['3S', '4S', '5S'], ['3S', '4S', '5C']]
    """
    out: list[int] = []
    m = hand
    while m:
        low = m & -m
        out.append(low)
        m ^= low
    nibs = _nibbles(hand)
    trip: list[int] = []
    four: list[int] = []
    for r in range(13):
        n = nibs[r]
        if _POP[n] >= 2:
            out.extend(_SH2[r][n])
            if n == 15:
                trip.extend(_SH3[r][n])
                four.append(15 << (4 * r))
            elif _POP[n] == 3:
                trip.append(n << (4 * r))
    out.extend(trip)
    out.extend(four)
    _runs(out, nibs, _SH1, 1, 3, 0, 0)
    _runs(out, nibs, _SH2, 2, 3, 0, 0)
    if required:
        return [p for p in out if p & required]
    return out


def follow_plays(hand: int, top_mask: int, top_kind: int, vong: bool) -> list[int]:
    """Every play from ``hand`` that beats or cuts ``top_kind`` (with or without vòng).

    >>> from games.engine.tienlen.cards import ids_to_mask as m, mask_to_ids
    >>> hand = m(["5S", "5C", "5D", "5H", "9D", "2C"])
    >>> two = m(["2S"])
    >>> [mask_to_ids(p) for p in follow_plays(hand, two, classify(two), True)]
    [['2C'], ['5S', '5C', '5D', '5H']]
    >>> [mask_to_ids(p) for p in follow_plays(hand, two, classify(two), False)]
    [['2C']]
    """
    t = top_kind >> 12
    top = top_kind & 63
    out: list[int] = []
    if t == SINGLE:
        m = (hand >> (top + 1)) << (top + 1)
        while m:
            low = m & -m
            out.append(low)
            m ^= low
        if top >= 48:
            nibs = _nibbles(hand)
            _runs(out, nibs, _SH2, 2, 3 if vong else 4, 0, 0)
            if vong:
                _fours(out, nibs, 0)
        return out
    if t in (PAIR, TRIPLE):
        k = 2 if t == PAIR else 3
        floor = 2 << top
        rtop = top >> 2
        sh = _SH[k]
        for r in range(rtop, 13):
            n = (hand >> (4 * r)) & 15
            if _POP[n] >= k:
                if r == rtop:
                    out.extend([c for c in sh[r][n] if c >= floor])
                else:
                    out.extend(sh[r][n])
        if t == PAIR and top >= 48:
            _runs(out, _nibbles(hand), _SH2, 2, 4, 0, 0)
        return out
    if t == STRAIGHT:
        ln = (top_kind >> 6) & 63
        _runs(out, _nibbles(hand), _SH1, 1, ln, ln, 2 << top)
        return out
    nibs = _nibbles(hand)
    if t == FOUR:
        if vong:
            _fours(out, nibs, (top >> 2) + 1)
        _runs(out, nibs, _SH2, 2, 4, 0, 0)
        return out
    # pairs run on the table
    ln = (top_kind >> 6) & 63
    if ln == 3:
        if vong:
            _runs(out, nibs, _SH2, 2, 3, 3, 2 << top)
            _fours(out, nibs, 0)
        else:
            _runs(out, nibs, _SH2, 2, 4, 0, 0)
        return out
    _runs(out, nibs, _SH2, 2, ln, ln, 2 << top)
    return out


def _fours(out: list[int], nibs: list[int], from_rank: int) -> None:
    for r in range(from_rank, 13):
        if nibs[r] == 15:
            out.append(15 << (4 * r))
