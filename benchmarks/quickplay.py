"""Quick play's pairing under load: 200 simulated people joining and leaving.

Run (PostgreSQL must be up; the settings want a ``REDIS_URL``)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tienlen_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
        python benchmarks/quickplay.py [--people 200] [--minutes 2] [--seed 7] [--json]

``--people`` people (ratings mu drawn from N(25, 4), one address in ten shared by two
accounts) arrive at random over ``--minutes`` simulated minutes, each choosing Tiến Lên at 4
seats (70%), 3 seats (15%) or 2 seats (15%); one in five leaves the pool after a random 2–20 s
if not seated by then. Simulated time (``games.clock``) moves in 0.25 s steps; every join runs
a pairing pass on commit (as in production) and beat's pass runs every simulated second. The
real services run against PostgreSQL (tables are created, seated and started; the tests'
scheduler runs the zero-delay tasks inline and keeps the later ones pending).

Reported for each run:

- **pairing time**: simulated seconds from join to seated, p50 / p95 (people who left unseated
  are counted apart);
- **rating spread per table**: max − min mu of the people at a table (tables of two or more
  people), p50 / p95, on openskill's scale (display points are × 24);
- **pass wall time**: milliseconds of real time per pairing pass, p50 / p95;
- tables formed, people per table, house AIs seated.

The **baseline** is the same arrival sequence with rating ignored (``QUICKPLAY_GAP_START`` huge:
first come, first seated), run in the same process; ratios are quick play ÷ baseline.

The database named by ``DATABASE_URL`` gets a ``test_`` twin (created or reused) that this
script fills and leaves behind.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")


@dataclass
class Arrival:
    at: float
    mu: float
    address: str
    seats: int
    leaves_after: float | None


def arrivals(people: int, minutes: float, seed: int) -> list[Arrival]:
    rng = random.Random(seed)
    out = []
    for i in range(people):
        shared = rng.random() < 0.2  # in a shared pair: 10% of addresses
        address = f"10.9.{(i // 2) % 250}.{i // 500}" if shared else f"10.8.{i % 250}.{i // 250}"
        seats = rng.choices([4, 3, 2], weights=[70, 15, 15])[0]
        leaves = rng.uniform(2, 20) if rng.random() < 0.2 else None
        out.append(Arrival(rng.uniform(0, minutes * 60), rng.gauss(25, 4), address, seats, leaves))
    return sorted(out, key=lambda a: a.at)


class SimClock:
    def __init__(self, start: float) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(label: str, plan: list[Arrival], *, gap_start: float | None) -> dict[str, Any]:
    from django.conf import settings

    from accounts.models import User
    from games import clock as games_clock
    from games import tasks
    from games.models import Seat
    from games.quickplay import services
    from games.quickplay.models import PersonRating, PoolEntry, QuickPlaySeat

    if gap_start is not None:
        settings.QUICKPLAY_GAP_START = gap_start
    pass_ms: list[float] = []
    real_pair = services.pool_pair

    def timed_pair(**kwargs: Any) -> list[int]:
        t0 = time.perf_counter()
        try:
            return real_pair(**kwargs)
        finally:
            pass_ms.append((time.perf_counter() - t0) * 1000)

    tasks.pool_pair = timed_pair  # the join's pass
    PoolEntry.objects.all().delete()
    QuickPlaySeat.objects.all().delete()
    stamp = f"{label}{int(time.time() * 1000) % 10**8}"
    users = User.objects.bulk_create(
        [User(username=f"qp{stamp}_{i}", password="!") for i in range(len(plan))]
    )
    PersonRating.objects.bulk_create(
        [
            PersonRating(user=u, game="tienlen", mu=a.mu, sigma=3.0, ordinal=a.mu - 9)
            for u, a in zip(users, plan, strict=True)
        ]
    )
    start = time.time()
    sim = SimClock(start)
    joined: dict[int, float] = {}
    left: set[int] = set()
    step = 0.25
    nxt = 0
    last_beat = 0.0
    end = plan[-1].at + 120
    with games_clock.use(sim):
        t = 0.0
        while t <= end:
            sim.t = start + t
            while nxt < len(plan) and plan[nxt].at <= t:
                a, u = plan[nxt], users[nxt]
                services.pool_join(user=u, game="tienlen", seats=a.seats, address=a.address)
                joined[u.pk] = t
                nxt += 1
            for i in range(nxt):
                a, u = plan[i], users[i]
                if (
                    a.leaves_after is not None
                    and u.pk not in left
                    and t - joined[u.pk] >= a.leaves_after
                    and services.pool_leave(user=u)
                ):
                    left.add(u.pk)
            if t - last_beat >= 1.0:
                timed_pair()
                last_beat = t
            if nxt == len(plan) and not PoolEntry.objects.exists():
                break
            t += step
    seats = list(
        QuickPlaySeat.objects.filter(user__in=users).values_list(
            "table_id", "user_id", "waited_seconds"
        )
    )
    mu_of = {u.pk: a.mu for u, a in zip(users, plan, strict=True)}
    by_table: dict[int, list[int]] = {}
    for table_id, user_id, _ in seats:
        by_table.setdefault(table_id, []).append(user_id)
    spreads = [
        max(mu_of[u] for u in us) - min(mu_of[u] for u in us)
        for us in by_table.values()
        if len(us) >= 2
    ]
    waits = [w for _, _, w in seats]
    house = Seat.objects.filter(table_id__in=by_table, kind="house").count()
    tasks.pool_pair = real_pair
    return {
        "run": label,
        "people": len(plan),
        "seated": len(seats),
        "left_unseated": len(left),
        "tables": len(by_table),
        "people_per_table": round(len(seats) / max(1, len(by_table)), 2),
        "house_ais": house,
        "wait_p50_s": round(pct(waits, 0.5), 2),
        "wait_p95_s": round(pct(waits, 0.95), 2),
        "spread_p50_mu": round(pct(spreads, 0.5), 2),
        "spread_p95_mu": round(pct(spreads, 0.95), 2),
        "pass_p50_ms": round(pct(pass_ms, 0.5), 2),
        "pass_p95_ms": round(pct(pass_ms, 0.95), 2),
        "passes": len(pass_ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True)
    plan = arrivals(args.people, args.minutes, args.seed)
    default_gap = settings.QUICKPLAY_GAP_START
    quick = run("quickplay", plan, gap_start=default_gap)
    base = run("baseline", plan, gap_start=1e9)
    ratios = {
        k: round(quick[k] / base[k], 2) if base[k] else None
        for k in (
            "wait_p50_s",
            "wait_p95_s",
            "spread_p50_mu",
            "spread_p95_mu",
            "pass_p50_ms",
            "pass_p95_ms",
        )
    }
    result = {"quickplay": quick, "baseline": base, "ratio_quickplay_to_baseline": ratios}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    keys = [k for k in quick if k != "run"]
    print(f"{'':22} {'quick play':>12} {'baseline':>12} {'ratio':>8}")
    for k in keys:
        r = ratios.get(k)
        print(f"{k:22} {quick[k]!s:>12} {base[k]!s:>12} {'' if r is None else r!s:>8}")


if __name__ == "__main__":
    main()
