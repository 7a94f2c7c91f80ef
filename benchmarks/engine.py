"""Engine benchmark: random 4-player Tiến Lên games and legal-move enumeration.

Run ``python benchmarks/engine.py`` (optionally ``--games N --hands N``). It prints a table; it
writes nothing. Every figure is also given as a ratio against a naive baseline measured in the
same run (an itertools enumerator that classifies every subset of the hand), so results from
different machines stay comparable.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.core.rng import Rng
from games.engine.tienlen import GAME
from games.engine.tienlen.combos import (
    CUT_VONG,
    NO,
    beat_status,
    classify,
    lead_plays,
)
from games.engine.tienlen.rules import apply_mask, can_pass, legal_masks, new_game
from games.engine.tienlen.state import TienLenState

CONFIG = {"players": 4, "opening": True}


def naive_legal(state: TienLenState, seat: int) -> list[int]:
    """Baseline: every subset of the hand (itertools), classified and compared one by one."""
    if state.finished or state.turn != seat:
        return []
    hand = state.hands[seat]
    cards = [i for i in range(52) if hand >> i & 1]
    out = []
    for k in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, k):
            mask = sum(1 << c for c in combo)
            kind = classify(mask)
            if not kind:
                continue
            if state.top == 0:
                if state.required and not mask & state.required:
                    continue
            else:
                status = beat_status(kind, state.top_kind)
                if status == NO or (status == CUT_VONG and seat == state.round_leader):
                    continue
            out.append(mask)
    return out


def play_fast(seed: int, enumerate_moves: Callable[[TienLenState, int], list[int]]) -> int:
    """One complete random game on the mask API; returns the number of actions."""
    rng = Rng(seed)
    state = new_game(CONFIG, seed)
    actions = 0
    while not state.finished:
        seat = state.turn
        moves = enumerate_moves(state, seat)
        if can_pass(state, seat):
            moves.append(-1)
        state = apply_mask(state, seat, moves[rng.below(len(moves))])
        actions += 1
    return actions


def play_public(seed: int) -> int:
    """One complete random game on the public API (dict actions, sorted lists, events)."""
    rng = Rng(seed)
    state = GAME.new_game(CONFIG, seed)
    actions = 0
    while GAME.result(state) is None:
        moves = GAME.legal_actions(state, state.turn)
        state, _ = GAME.apply(state, moves[rng.below(len(moves))])
        actions += 1
    return actions


def timed(fn: Callable[[int], object], runs: int, start: int = 0) -> list[float]:
    times = []
    for i in range(runs):
        t0 = time.perf_counter()
        fn(start + i)
        times.append(time.perf_counter() - t0)
    return times


def random_hands(count: int, seed: int = 99) -> list[int]:
    rng = Rng(seed)
    hands = []
    for _ in range(count):
        deck = rng.shuffle(list(range(52)))
        hands.append(sum(1 << c for c in deck[:13]))
    return hands


def naive_lead(hand: int) -> list[int]:
    cards = [i for i in range(52) if hand >> i & 1]
    out = []
    for k in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, k):
            mask = sum(1 << c for c in combo)
            if classify(mask):
                out.append(mask)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--baseline-games", type=int, default=5)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--baseline-hands", type=int, default=40)
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, ")
    print(f"{platform.processor() or platform.platform()}; one process, one core\n")

    for _ in range(50):  # warm-up
        play_fast(10**6 + _, legal_masks)

    fast = timed(lambda s: play_fast(s, legal_masks), args.games)
    actions = [play_fast(s, legal_masks) for s in range(min(args.games, 500))]
    public = timed(play_public, max(args.games // 4, 1))
    naive = timed(lambda s: play_fast(s, naive_legal), args.baseline_games)
    hands = random_hands(args.hands)
    t0 = time.perf_counter()
    counts = [len(lead_plays(h)) for h in hands]
    lead_time = (time.perf_counter() - t0) / len(hands)
    t0 = time.perf_counter()
    for h in hands[: args.baseline_hands]:
        naive_lead(h)
    naive_lead_time = (time.perf_counter() - t0) / args.baseline_hands

    def ms(x: float) -> str:
        return f"{x * 1000:9.3f}"

    med_fast = statistics.median(fast)
    med_naive = statistics.median(naive)
    print("| measurement | median ms | p90 ms | per second | vs baseline |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| random 4-player game, enumeration every turn (mask API) | {ms(med_fast)} | "
        f"{ms(statistics.quantiles(fast, n=10)[8])} | {1 / statistics.mean(fast):8.0f} | "
        f"{med_naive / med_fast:8.0f}x |"
    )
    med_pub = statistics.median(public)
    print(
        f"| random 4-player game, public API (dict actions, events) | {ms(med_pub)} | "
        f"{ms(statistics.quantiles(public, n=10)[8])} | {1 / statistics.mean(public):8.0f} | "
        f"{med_naive / med_pub:8.0f}x |"
    )
    print(
        f"| baseline: same games, naive itertools enumerator | {ms(med_naive)} | "
        f"{ms(max(naive))} | {1 / statistics.mean(naive):8.2f} | 1x |"
    )
    print(
        f"| enumerate every lead of a random 13-card hand | {ms(lead_time)} | | "
        f"{1 / lead_time:8.0f} | {naive_lead_time / lead_time:8.0f}x |"
    )
    print(
        f"| baseline: naive itertools lead enumeration | {ms(naive_lead_time)} | | "
        f"{1 / naive_lead_time:8.1f} | 1x |"
    )
    print(
        f"\nactions per game: median {statistics.median(actions):.0f}; "
        f"legal leads per random hand: median {statistics.median(counts):.0f}, "
        f"max {max(counts)}"
    )
    print(f"target (< 2 ms median per game, mask API): {'met' if med_fast < 0.002 else 'NOT met'}")


if __name__ == "__main__":
    main()
