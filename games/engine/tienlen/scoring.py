"""Ranking and scoring: every penalty is a transfer, so a game is zero-sum.

>>> from games.engine.tienlen.cards import ids_to_mask as m
>>> thui_points(m(["2H", "2S", "5S", "5C", "5D", "5H", "7S", "7C", "8S", "8C", "9D", "9H"]))
11
>>> transfers_json([(1, 0, 8, "cards")])
[{'from': 1, 'to': 0, 'points': 8, 'reason': 'cards'}]
"""

from __future__ import annotations

from typing import Any

from games.engine.tienlen.cards import mask_to_ids
from games.engine.tienlen.state import TienLenState

__all__ = [
    "REASONS",
    "compute_result",
    "loser_key",
    "scores_from",
    "thui_points",
    "transfers_json",
]

#: Transfer reasons of the conformance format.
REASONS = ("cards", "cong", "toi_trang", "chat", "thui", "den_bai")

_POP = tuple(bin(n).count("1") for n in range(16))
Transfer = tuple[int, int, int, str]


def thui_points(hand: int) -> int:
    """Thúi of a hand: heo values of its 2s plus 4 per hàng (each four of a kind, the four 2s
    included, then each maximal run of ≥3 consecutive pairs among the other ranks).

    Four 2s pay both: their heo values (1 + 1 + 2 + 2) and 4 for the hàng, so 10.

    >>> from games.engine.tienlen.cards import ids_to_mask as m
    >>> thui_points(m(["2S", "2D"])), thui_points(m(["3S", "3C", "4S", "4C", "5S", "5C", "6S"]))
    (3, 4)
    >>> thui_points(m(["3S", "3C", "4S", "4C", "4D", "4H", "5S", "5C"]))
    4
    >>> thui_points(m(["2S", "2C", "2D", "2H"])), thui_points(m(["2S", "2C", "2D", "2H", "KS",
    ...     "KC", "KD", "KH"]))
    (10, 14)
    """
    twos = hand >> 48
    points = _POP[twos & 3] + 2 * _POP[(twos >> 2) & 3]
    hang = 1 if twos == 15 else 0  # four 2s: a tứ quý (never in a pairs run)
    run = 0
    for r in range(12):
        n = (hand >> (4 * r)) & 15
        if n == 15:
            hang += 1
            c = 0
        else:
            c = _POP[n]
        if c >= 2:
            run += 1
        else:
            if run >= 3:
                hang += 1
            run = 0
    if run >= 3:
        hang += 1
    return points + 4 * hang


def loser_key(hand: int) -> tuple[int, int, int]:
    """Sort key of a loser (smaller is better): cards left, sum of ``value``, highest card.

    >>> from games.engine.tienlen.cards import ids_to_mask as m
    >>> loser_key(m(["3S", "AH"]))
    (2, 13, 47)
    """
    total = 0
    m = hand
    while m:
        low = m & -m
        total += ((low.bit_length() - 1) >> 2) + 1
        m ^= low
    return (hand.bit_count(), total, hand.bit_length() - 1)


def scores_from(transfers: list[Transfer], players: int) -> list[int]:
    """Points received minus points paid, per seat.

    >>> scores_from([(1, 0, 8, "cards"), (2, 1, 3, "chat")], 3)
    [8, -5, -3]
    """
    scores = [0] * players
    for payer, payee, points, _ in transfers:
        scores[payer] -= points
        scores[payee] += points
    return scores


def transfers_json(transfers: list[Transfer]) -> list[dict[str, Any]]:
    """Transfers as conformance objects.

    >>> transfers_json([(3, 1, 2, "thui")])[0]["reason"]
    'thui'
    """
    return [{"from": a, "to": b, "points": p, "reason": r} for a, b, p, r in transfers]


def compute_result(st: TienLenState) -> dict[str, Any]:
    """The result of a finished game (see ``GAME.result``).

    >>> from games.engine.tienlen.rules import new_game
    >>> hand = ["2S", "2C", "2D", "2H", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]
    >>> other = ["3C", "4C", "5D", "6C", "7C", "8D", "9C", "10C", "JC", "QC", "KC", "AC", "AD"]
    >>> st = new_game({"players": 2, "hands": [hand, other], "opening": True}, seed=0)
    >>> r = compute_result(st)
    >>> r["instant_win"], r["scores"]
    ('four_twos', [26, -26])
    """
    n = st.players
    toi = 13 * n
    transfers: list[Transfer] = list(st.settled)
    winner = st.out[0]
    losers = [s for s in range(n) if s != winner]
    cong: list[int] = []
    den_bai: int | None = None
    if st.instant_win is not None:
        ranking = [winner, *sorted(losers, key=lambda s: (loser_key(st.hands[s]), s))]
        for s in losers:
            transfers.append((s, winner, toi, "toi_trang"))
            thui = thui_points(st.hands[s])
            if thui:
                transfers.append((s, winner, thui, "thui"))
    else:
        cong = sorted(s for s in losers if not (st.played >> s) & 1)
        if st.config.get("play_on_after_winner"):
            finishers = list(st.out)
            rest = [s for s in losers if s not in finishers and s not in cong]
            rest.sort(key=lambda s: (loser_key(st.hands[s]), s))
            ranking = finishers + rest
        else:
            rest = [s for s in losers if s not in cong]
            ranking = [winner, *sorted(rest, key=lambda s: (loser_key(st.hands[s]), s))]
        ranking += sorted(cong, key=lambda s: (loser_key(st.hands[s]), s))
        for s in losers:
            left = st.hands[s].bit_count()  # at game end: 0 for a player who went out later
            if left:
                transfers.append((s, winner, left, "cards"))
        if cong and len(cong) == len(losers):
            den_bai = next((s for s in st.den_bai if s in cong), None)
        if den_bai is not None:
            transfers.append((den_bai, winner, toi * len(cong), "den_bai"))
        else:
            for s in cong:
                transfers.append((s, winner, toi, "cong"))
        if cong:
            for s in cong:
                thui = thui_points(st.hands[s])
                if thui:
                    transfers.append((s, winner, thui, "thui"))
        else:
            last = ranking[-1]
            thui = thui_points(st.hands[last])
            if thui:
                transfers.append((last, ranking[-2], thui, "thui"))
    return {
        "finished": True,
        "winner": winner,
        "ranking": ranking,
        "cong": cong,
        "instant_win": st.instant_win,
        "den_bai": den_bai,
        "transfers": transfers_json(transfers),
        "scores": scores_from(transfers, n),
        "hands": [mask_to_ids(h) for h in st.hands],
    }
