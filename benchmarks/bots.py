"""Bots at live tables: per-move sandbox overhead, and whole 4-bot games per minute.

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/tienlen_bench \\
      python benchmarks/bots.py [--moves 500] [--games 8] [--json]

Part 1, in one process and one run (the series are interleaved so noise hits all alike):

* ``bare``: ``MiniRacer().call("getNextMove", state)`` in this process, no sandbox;
* ``sandbox``: :meth:`bots.sandbox.BotProcess.move` (pipe to the child, hardened harness,
  timeout, validation) on the same code and state (benchmarks/bots_sandbox.py's bot and state);
* ``registry`` / ``registry-process``: :meth:`bots.runtime.BotRegistry.play`, the call a live
  bot turn makes (sandbox lookup, LRU bookkeeping, result record), with the bot in a warm pool
  child (the default) and in a process of its own (``mode="process"``, the earlier design).

Part 2: an arena table of the four example bots (random, greedy, defensive, greedy) through
REAL Celery workers in the layout of ``./bin/run`` (one for ``default,bots``, and the shard
worker of ``bots.0`` with the threads pool; Redis broker on a dedicated database), bot delay 0
and next game after 0 s: games finished per minute and the per-move overhead through the
worker (:func:`move_overheads`: p50/p90/p99 against the 5 ms target), beside the
same four bots playing whole games in this process with bare MiniRacer calls and the engine
(no Celery, no database, no sandbox) as the baseline; once per sandbox mode (``--modes``, the
worker's ``BOTS_SANDBOX_MODE``), in the same run. The overheads are also split into each
seat's first move of a game (its sandbox is opened for the game: started at the deal,
bots/warmup.py, but with no bot delay the turn comes before it is ready) and the others.
``--bot-delay 0.8`` plays at the site's pace instead (each turn a timer through the broker; the
delay is taken off the overheads; with it the sandboxes open during the first turn's delay).

``--deals SEED`` makes two runs play the same games, move for move, so that their games per
minute compare (without it the deals come from the OS's randomness and 16 games take 500 to 900
moves): this process and the workers deal from the seeds ``SEED, SEED+1, …`` in turn
(``games.seeds``), and the ``test_`` twin is made afresh, so the games get the same ids and the
random bot the same ``Math.random`` sequence (seeded by the game's id, ``bots.runtime.
game_seed``). Each mode prints a fingerprint of its games (their seeds and every move): equal
fingerprints, equal games.

The database named by ``DATABASE_URL`` gets a ``test_`` twin (created or reused) that this
script fills and leaves behind.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder comes first on sys.path and its name would shadow the
# `bots` app: drop the folder and import the sibling benchmark as `benchmarks.bots_sandbox`.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ.setdefault("BOTS_WORKER_BROKER", "redis://127.0.0.1:6379/14")

from benchmarks.bots_sandbox import BOT_CODE, pct, realistic_state  # noqa: E402

EXAMPLES = ("random", "greedy", "defensive", "greedy")


# --------------------------------------------------------------------------- part 1
def move_overhead(moves: int, warmup: int) -> dict[str, list[float]]:
    from py_mini_racer import MiniRacer

    from bots.runtime import BotRegistry
    from bots.sandbox import BotProcess

    state = realistic_state()
    bare = MiniRacer()
    bare.eval(BOT_CODE)
    expected = bare.call("getNextMove", state)
    series: dict[str, list[float]] = {
        "bare": [],
        "sandbox": [],
        "registry": [],
        "registry-process": [],
    }
    registry = BotRegistry()
    per_process = BotRegistry(mode="process")
    with BotProcess(BOT_CODE) as bot:
        for i in range(warmup + moves):
            t0 = time.perf_counter()
            result = bare.call("getNextMove", state, timeout_sec=5.0)
            t1 = time.perf_counter()
            outcome = bot.move(state)
            t2 = time.perf_counter()
            turn = registry.play(
                ("bench", 0, 1), load_code=lambda: BOT_CODE, game_state=state, timeout_s=5.0
            )
            t3 = time.perf_counter()
            old = per_process.play(
                ("bench", 0, 1), load_code=lambda: BOT_CODE, game_state=state, timeout_s=5.0
            )
            t4 = time.perf_counter()
            if result != expected or outcome.value != expected or turn.value != expected:
                raise SystemExit(f"unexpected result: {result} / {outcome} / {turn}")
            if old.value != expected:
                raise SystemExit(f"unexpected result: {old}")
            if i >= warmup:
                series["bare"].append((t1 - t0) * 1000)
                series["sandbox"].append((t2 - t1) * 1000)
                series["registry"].append((t3 - t2) * 1000)
                series["registry-process"].append((t4 - t3) * 1000)
    registry.close_all()
    per_process.close_all()
    bare.close()
    return series


# --------------------------------------------------------------------------- part 2
def bare_games(n: int) -> tuple[float, int]:
    """Play ``n`` 4-bot games in this process (bare MiniRacer per seat + the engine); returns
    the seconds taken and the number of moves."""
    from py_mini_racer import MiniRacer

    from bots.examples import example_code
    from games.engine.registry import find_game

    engine: Any = find_game("tienlen")  # bot_view/parse_bot_move: Tiến Lên's own helpers
    ctxs = []
    for key in EXAMPLES:
        ctx = MiniRacer()
        ctx.eval(example_code(key))
        ctxs.append(ctx)
    moves = 0
    t0 = time.perf_counter()
    for g in range(n):
        state = engine.new_game({"players": 4, "started_at": time.time()}, 1000 + g)
        while engine.result(state) is None:
            seat = engine.round_status(state).pending[0]
            value = ctxs[seat].call("getNextMove", engine.bot_view(state, seat), timeout_sec=5)
            action = dict(engine.parse_bot_move(state, seat, value))
            state, _ = engine.apply(state, {**action, "seat": seat, "at": time.time()})
            moves += 1
    elapsed = time.perf_counter() - t0
    for ctx in ctxs:
        ctx.close()
    return elapsed, moves


def move_overheads(
    games: list[Any], *, first: list[bool] | None = None, delay: float = 0.0
) -> list[float]:
    """Per bot move of ``games``, in ms: the time from the previous move (when this seat's turn
    opened) to this move, both stamped by the server as it applied them (``Action.payload
    ["at"]``), minus the bot's own time in its sandbox (``bot_record["elapsed_ms"]``, measured
    inside the sandbox: what a bare call costs) and the bot ``delay`` (seconds) the turn
    waited on purpose. What is left is everything the worker adds to
    a move: the commit and broadcast of the previous move, the hand-off to the next turn, the
    reads, the sandbox round trip, the lock and the write. A game's first move is left out (it
    follows the deal, not a move). ``first``, when given, gets for each move whether it was its
    seat's first of the game (its sandbox opened for this game: ``bots/warmup.py``)."""
    from games.models import Action

    out: list[float] = []
    for game in games:
        rows = list(
            Action.objects.filter(game=game).order_by("seq").values_list("payload", "bot_record")
        )
        seen = {rows[0][0].get("seat")} if rows else set()
        for (before, _), (payload, record) in itertools.pairwise(rows):
            seat = payload.get("seat")
            opened = seat not in seen
            seen.add(seat)
            if not isinstance(record, dict) or "elapsed_ms" not in record:
                continue
            gap_ms = (float(payload["at"]) - float(before["at"])) * 1000.0
            out.append(gap_ms - delay * 1000.0 - float(record["elapsed_ms"]))
            if first is not None:
                first.append(opened)
    return out


def fingerprint(games: list[Any]) -> str:
    """A short digest of ``games``: each one's seed and every move as the engine stored it
    (the server's time stamp and the bot's record left out). Two runs with equal
    fingerprints played the same games."""
    from games.models import Action

    digest = hashlib.sha256()
    for game in games:
        digest.update(f"{game.number}:{game.seed}".encode())
        for payload in (
            Action.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)
        ):
            move = {k: v for k, v in payload.items() if k != "at"}
            digest.update(json.dumps(move, sort_keys=True).encode())
    return digest.hexdigest()[:12]


def worker_games(
    n: int, mode: str, delay: float = 0.0, deals: int | None = None
) -> tuple[float, int, list[float], list[float], list[bool], str]:
    """Play an arena through a real worker until ``n`` games finished; returns the seconds
    from the create call to the n-th game's end, the moves played, each game's seconds, each
    bot move's overhead (:func:`move_overheads`), whether it was its seat's first, and the
    games' :func:`fingerprint`. ``deals``: the first of the seeds every process deals from
    (the twin database made afresh), else the OS's randomness."""
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=deals is None)
    from bots.examples import example_code
    from bots.models import BotVersion
    from games import seeds, services
    from games.models import Action, Game
    from tests.bots.worker import celery_worker, wait_for
    from tests.factories import BotVersionFactory, UserFactory

    settings.GAMES_SCHEDULER = "tests.bots.worker.BrokerScheduler"
    settings.GAMES_COUNTDOWN_SECONDS = 0.0
    owner = UserFactory.create(username=f"bench-{time.time_ns()}")
    versions = [
        BotVersionFactory.create(
            bot__owner=owner,
            bot__name=f"{key} {i}",
            code=example_code(key),
            status=BotVersion.Status.READY,
        )
        for i, key in enumerate(EXAMPLES)
    ]
    env = {
        "GAMES_ARENA_NEXT_GAME_SECONDS": "0",
        "GAMES_BOT_DELAY_SECONDS": str(delay),
        "BOTS_SANDBOX_MODE": mode,
    }
    pinned = None if deals is None else [deals + i for i in range(4 * 32)]
    # The layout of ./bin/run (config/launcher/supervisor.py): a worker for ``default`` and
    # ``bots``, and the shard worker of ``bots.0`` (one process, a thread per game at a time).
    with (
        seeds.use(seeds.in_turn(pinned) if pinned else seeds.system),
        celery_worker(env=env, queues=("default", "bots"), label="bench-default", seeds=pinned),
        celery_worker(
            env=env,
            queues=("bots.0",),
            pool="threads",
            concurrency=8,
            label="bench-bots-0",
            clean=False,
            seeds=pinned,
        ) as log,
    ):
        t0 = time.perf_counter()
        session = 16 if n <= 16 else 32  # an arena session's lengths (games.models)
        table = services.table_create_arena(
            owner=owner, bot_version_ids=[v.pk for v in versions], session_length=session
        )

        def done() -> bool:
            return Game.objects.filter(table=table, status=Game.Status.FINISHED).count() >= n

        wait_for(done, timeout=60 * n, log=log, poll=0.05)
        elapsed = time.perf_counter() - t0
    games = list(Game.objects.filter(table=table, status=Game.Status.FINISHED).order_by("number"))
    games = games[:n]
    moves = Action.objects.filter(game__in=games).count()
    spans = [(g.ended_at - g.started_at).total_seconds() for g in games if g.ended_at]
    first: list[bool] = []
    overheads = move_overheads(games, first=first, delay=delay)
    return elapsed, moves, spans, overheads, first, fingerprint(games)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--modes", default="process,pool", help="sandbox modes of part 2")
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="part 2's bot delay (GAMES_BOT_DELAY_SECONDS; the site's is 0.8): each turn is then "
        "a timer through the broker, and the delay is taken off each move's overhead",
    )
    parser.add_argument(
        "--deals",
        type=int,
        metavar="SEED",
        help="part 2 deals from the seeds SEED, SEED+1, ... and remakes its database, so that "
        "two runs play the same games (compare their fingerprints)",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= 32:
        parser.error("--games: part 2 plays one arena session, of at most 32 games")

    series = move_overhead(args.moves, args.warmup)
    print(f"part 1: {args.moves} moves after {args.warmup} warm-up, interleaved")
    print(f"{'series':<12}{'p50 ms':>10}{'p90 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for name, samples in series.items():
        print(
            f"{name:<12}{pct(samples, 50):>10.3f}{pct(samples, 90):>10.3f}"
            f"{pct(samples, 99):>10.3f}{max(samples):>10.3f}"
        )
    out: dict[str, Any] = {}
    for name in ("sandbox", "registry", "registry-process"):
        o50 = pct(series[name], 50) - pct(series["bare"], 50)
        o99 = pct(series[name], 99) - pct(series["bare"], 99)
        r50 = pct(series[name], 50) / pct(series["bare"], 50)
        r99 = pct(series[name], 99) / pct(series["bare"], 99)
        out[name] = {"overhead_p50_ms": o50, "overhead_p99_ms": o99, "ratio_p50": r50}
        out[name] |= {"ratio_p99": r99}
        print(
            f"{name} overhead vs bare: p50 {o50:.3f} ms, p99 {o99:.3f} ms "
            f"(x{r50:.2f} / x{r99:.2f}) -> target < 5 ms p99 {'MET' if o99 < 5 else 'MISSED'}"
        )

    bare_s, bare_moves = bare_games(args.games)
    bare_gpm = args.games / bare_s * 60
    print(f"part 2: {args.games} games of 4 example bots")
    print(
        f"bare in-process : {bare_gpm:10.1f} games/min "
        f"({bare_s / bare_moves * 1000:.2f} ms/move, {bare_moves} moves)"
    )
    out["games"] = {"bare_games_per_min": bare_gpm, "bare_ms_per_move": bare_s / bare_moves * 1000}
    for mode in args.modes.split(","):
        worker_s, worker_moves, spans, overheads, first, digest = worker_games(
            args.games, mode, args.bot_delay, args.deals
        )
        worker_gpm = args.games / worker_s * 60
        print(
            f"worker, {mode:<8}: {worker_gpm:10.1f} games/min "
            f"({worker_s / worker_moves * 1000:.2f} ms/move, {worker_moves} moves, "
            f"game p50 {pct(spans, 50):.2f} s); bare / worker x{bare_gpm / worker_gpm:.1f}; "
            f"games {digest}"
        )
        o50, o90, o99 = (pct(overheads, q) for q in (50, 90, 99))
        print(
            f"  move overhead through the worker ({len(overheads)} bot moves): p50 {o50:.2f} "
            f"p90 {o90:.2f} p99 {o99:.2f} max {max(overheads):.2f} ms "
            f"-> target < 5 ms p99 {'MET' if o99 < 5 else 'MISSED'}"
        )
        split = {}
        for label, is_first in (("a seat's first move of the game", True), ("the others", False)):
            part = [o for o, f in zip(overheads, first, strict=True) if f is is_first]
            if part:
                split[is_first] = [pct(part, q) for q in (50, 90, 99)]
                print(
                    f"    {label} ({len(part)}): p50 {split[is_first][0]:.2f} "
                    f"p90 {split[is_first][1]:.2f} p99 {split[is_first][2]:.2f} ms"
                )
        out["games"][mode] = {
            "worker_games_per_min": worker_gpm,
            "worker_ms_per_move": worker_s / worker_moves * 1000,
            "overhead_p50_ms": o50,
            "overhead_p90_ms": o90,
            "overhead_p99_ms": o99,
            "first_moves_p50_p90_p99_ms": split.get(True),
            "other_moves_p50_p90_p99_ms": split.get(False),
            "fingerprint": digest,
        }
    if args.json:
        print(json.dumps(out))
    return 0 if out["sandbox"]["overhead_p99_ms"] < 5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
