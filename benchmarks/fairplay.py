"""The fair play report's rule on a month of games (pure Python, no database).

Run::

    python benchmarks/fairplay.py [--games 20000] [--people 2000] [--seed 7] [--json]

``--games`` four-seat games (Tiến Lên-like zero-sum points) among ``--people`` accounts, 2–4
people a game (other seats house AIs), plus one farming pair (30 games, one always takes
from the other). Measured: wall time of ``suspicious_pairs`` (min of 3 runs) and whether the
farming pair comes first. The **baseline**, in the same run, is one pass over the same records
computing every person's mean share (the least any per-pair rule must do); the ratio is
report ÷ baseline.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.quickplay.fairplay import GameRecord, suspicious_pairs


def make_records(games: int, people: int, seed: int) -> list[GameRecord]:
    rng = random.Random(seed)
    out: list[GameRecord] = []
    for gid in range(games):
        n = rng.choice((2, 3, 4))
        users = rng.sample(range(1, people + 1), n)
        scores = [float(rng.randint(-13, 13)) for _ in range(3)]
        scores.append(-sum(scores))
        rng.shuffle(scores)
        out.append(GameRecord(gid, "tienlen", dict(enumerate(users)), scores))
    farmer, fed = people + 1, people + 2
    for i in range(30):
        out.append(GameRecord(games + i, "tienlen", {0: farmer, 1: fed}, [13.0, -13.0, 0.0, 0.0]))
    return out


def baseline(records: list[GameRecord]) -> dict[int, float]:
    total: dict[int, float] = defaultdict(float)
    count: dict[int, int] = defaultdict(int)
    for r in records:
        mean = sum(r.scores) / len(r.scores)
        for seat, user in r.people.items():
            total[user] += r.scores[seat] - mean
            count[user] += 1
    return {u: total[u] / count[u] for u in total}


def best_of(fn: object, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    records = make_records(args.games, args.people, args.seed)
    pairs = suspicious_pairs(records, min_games=5)
    report_s = best_of(lambda: suspicious_pairs(records, min_games=5))
    base_s = best_of(lambda: baseline(records))
    out = {
        "games": len(records),
        "people": args.people + 2,
        "listed": len(pairs),
        "farmer_first": bool(pairs)
        and (pairs[0].gainer, pairs[0].loser) == (args.people + 1, args.people + 2),
        "report_ms": round(report_s * 1000, 1),
        "baseline_ms": round(base_s * 1000, 1),
        "ratio": round(report_s / base_s, 2),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
