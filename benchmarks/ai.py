"""House AI benchmark: duplicate-deal matches of one house level against a field of another.

Run ``python benchmarks/ai.py --game tienlen --level expert --field hard --deals 500 --seed 1
--jobs 2 --iterations 150`` (``--budget-ms 300`` for a time budget instead; ``--json out.json``
writes the report). Every game registered in :mod:`games.engine.registry` and each of its
``house_levels`` can be named. The match is :func:`games.engine.duplicate.run_match`: every
deal is played once per rotation of the seats, so ``level`` holds each seat's hand of every
deal once; intervals are 95 % and clustered by deal (the per-deal mean over the rotations is
one observation).

It prints, for ``level`` and for the field (the mean of its seats): games, first-place rate
with its interval, mean points per game with its interval, and the mean time per move; the
time is also given as a ratio against the field's time per move, measured in the same run.

The searching levels take ``budget_ms`` / ``iterations`` keywords in ``house_action``
(Tiến Lên's expert does); for a game whose ``house_action`` takes neither, the flags are
ignored and the level plays with its own default budget (the script says so).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.core.protocol import Game
from games.engine.duplicate import GameOutcome, MatchProgress, run_match
from games.engine.registry import GAMES, find_game


def search_keywords(
    engine: Game, budget_ms: float | None, iterations: int | None
) -> dict[str, Any]:
    """The budget keywords ``engine.house_action`` accepts (only those)."""
    params = inspect.signature(engine.house_action).parameters
    out: dict[str, Any] = {}
    if "budget_ms" in params:
        out["budget_ms"] = budget_ms
    if "iterations" in params and iterations is not None:
        out["iterations"] = iterations
    return out


class _Player:
    def __init__(self, engine: Game, level: str, keywords: Mapping[str, Any]) -> None:
        self.engine = engine
        self.level = level
        self.keywords = dict(keywords)

    def decide(self, state: Any, seat: int) -> Mapping[str, Any]:
        return self.engine.house_action(state, seat, self.level, **self.keywords)

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class LevelEntrant:
    """A house level seated through ``house_action`` with the match's search budget (a
    picklable :class:`games.engine.duplicate.Entrant`)."""

    level: str
    name: str
    budget_ms: float | None = None
    iterations: int | None = None

    def player(self, engine: Game, *, seat: int, seed: int) -> _Player:
        if self.level not in engine.house_levels:
            raise ValueError(f"{engine.name} has no house level {self.level!r}")
        return _Player(engine, self.level, search_keywords(engine, self.budget_ms, self.iterations))


_POOL: Any = None


def _pool_map(fn: Any, tasks: Any) -> list[GameOutcome]:
    return list(_POOL.map(fn, list(tasks), chunksize=1))


def _line(name: str, e: Mapping[str, Any]) -> str:
    fci = e["first_ci"] or [float("nan")] * 2
    pci = e["points_ci"] or [float("nan")] * 2
    ms = e["mean_move_ms"]
    return (
        f"{name:<16}{e['games']:>7}  {100 * e['first_rate']:6.1f}% ({100 * fci[0]:5.1f}–"
        f"{100 * fci[1]:5.1f})  {e['mean_points']:+7.2f} ({pci[0]:+6.2f} to {pci[1]:+6.2f})"
        f"  {ms if ms is not None else float('nan'):8.3f}"
    )


def field_summary(entrants: list[dict[str, Any]]) -> dict[str, Any]:
    """The field's seats pooled: games, first rate, mean points, time per move (no interval:
    the seats of one deal are not independent)."""
    games = sum(e["games"] for e in entrants)
    moves = sum(e["moves"] for e in entrants)
    ms = sum((e["mean_move_ms"] or 0.0) * e["moves"] for e in entrants)
    return {
        "games": games,
        "first_rate": sum(e["firsts"] for e in entrants) / games if games else 0.0,
        "mean_points": sum(e["mean_points"] * e["games"] for e in entrants) / games
        if games
        else 0.0,
        "mean_move_ms": ms / moves if moves else None,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tienlen", choices=sorted(GAMES))
    parser.add_argument("--level", default="expert")
    parser.add_argument("--field", default="hard")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the most)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=None, help="time budget per move")
    parser.add_argument("--iterations", type=int, default=None, help="rollouts per move")
    parser.add_argument("--json", type=Path, default=None, help="write the report here")
    parser.add_argument(
        "--max-minutes",
        type=float,
        default=None,
        help="stop after the deal in play when this much wall time has passed (the report "
        "covers the deals played)",
    )
    parser.add_argument("--progress", type=int, default=0, help="print a line every N deals")
    args = parser.parse_args(argv)
    engine = find_game(args.game)
    for level in (args.level, args.field):
        if level not in engine.house_levels:
            parser.error(f"{args.game} levels are {', '.join(engine.house_levels)}, not {level!r}")
    budget = args.budget_ms
    if budget is None and args.iterations is None:
        budget = 300.0
    n = args.players or engine.max_players
    entrants = [LevelEntrant(args.level, f"{args.level}", budget, args.iterations)]
    entrants += [
        LevelEntrant(args.field, f"{args.field}#{k}", budget, args.iterations) for k in range(1, n)
    ]
    keywords = search_keywords(engine, budget, args.iterations)
    global _POOL
    start = time.perf_counter()

    def should_stop() -> bool:
        limit = args.max_minutes
        return limit is not None and time.perf_counter() - start > 60 * limit

    def progress(p: MatchProgress) -> None:
        if args.progress and p.deals_done % args.progress == 0:
            e = p.stats.entrant_report(0)
            print(
                f"… {p.deals_done}/{p.deals} deals: {args.level} {100 * e['first_rate']:.1f}% "
                f"first, {e['mean_points']:+.2f} points, {time.perf_counter() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    if args.jobs > 1:
        _POOL = Pool(args.jobs)
    try:
        result = run_match(
            engine,
            entrants,
            args.deals,
            args.seed,
            mapper=_pool_map if _POOL is not None else None,
            deals_per_batch=max(1, 4 * args.jobs),
            on_progress=progress,
            should_stop=should_stop,
        )
    finally:
        if _POOL is not None:
            _POOL.close()
            _POOL.join()
    wall = time.perf_counter() - start
    report = result.report
    lines = report["entrants"]
    field = field_summary(lines[1:])
    me = lines[0]
    ratio = (
        me["mean_move_ms"] / field["mean_move_ms"]
        if me["mean_move_ms"] and field["mean_move_ms"]
        else None
    )
    print(
        f"# {args.game}: {args.level} vs {n - 1}× {args.field}, {report['deals']} deals, "
        f"{report['games']} games, seed {args.seed}, search budget "
        f"{keywords or '(the level’s own default)'}; {platform.python_version()}, "
        f"{os.cpu_count()} cores, {args.jobs} jobs, {wall:.0f} s"
        + (f" (stopped at the time limit; {args.deals} planned)" if report["stopped"] else "")
    )
    print(
        f"{'entrant':<16}{'games':>7}  {'first place (95% CI)':<22}  "
        f"{'points/game (95% CI)':<27}  {'ms/move':>8}"
    )
    for e in lines:
        print(_line(e["name"], e))
    print(
        f"{'field (pooled)':<16}{field['games']:>7}  {100 * field['first_rate']:6.1f}%"
        f"{'':15}  {field['mean_points']:+7.2f}{'':21}  {field['mean_move_ms'] or 0:8.3f}"
    )
    if ratio is not None:
        print(f"time per move of {args.level} / {args.field}: {ratio:.1f}×")
    out = {
        **report,
        "level": args.level,
        "field": args.field,
        "budget": keywords,
        "field_pooled": field,
        "move_time_ratio": ratio,
        "wall_seconds": round(wall, 1),
    }
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
