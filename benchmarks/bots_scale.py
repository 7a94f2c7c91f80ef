"""Scale of bot execution: one sandbox process per bot (``process``) vs warm pool children
holding one fresh V8 context per bot (``pool``), measured in the same run.

Run:  python benchmarks/bots_scale.py [--seats 32] [--games 8] [--moves 400] [--json]

No database, no Celery. Four parts, each with both modes:

1. **Memory**: ``--seats`` bots loaded with benchmarks/bots_sandbox.py's bot, each after 20
   moves; the sandbox processes' PSS summed from ``/proc/<pid>/smaps_rollup`` (PSS shares the
   pages common to several processes fairly) -> bot seats per GB.
2. **Spawns**: ``--games`` arena games of the four example bots (random, greedy, defensive,
   greedy) played with the engine through :class:`bots.runtime.BotRegistry` exactly as the live
   tables call it (``play`` per turn, ``release_game`` at the end); sandbox processes started,
   counted at the one place every child is started (the spawner thread).
3. **Move overhead**: ``--moves`` interleaved calls of the bot on a realistic state: a bare
   in-process ``MiniRacer.call`` (the baseline), ``BotRegistry.play`` in each mode.
4. **Move overhead with neighbours busy**: the same, while three other bots of each mode (in
   the measured bot's pool child; in their own processes) play the same bot back to back in
   other threads: a shard worker's thread pool at work.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from benchmarks.bots_sandbox import BOT_CODE, pct, realistic_state  # noqa: E402
from bots.runtime import BotRegistry, SandboxMode  # noqa: E402
from bots.sandbox import BotProcess, PooledBot, SandboxPool, session  # noqa: E402

MODES: tuple[SandboxMode, ...] = ("process", "pool")
EXAMPLES = ("random", "greedy", "defensive", "greedy")


def pss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    raise RuntimeError(f"no Pss for {pid}")


@contextmanager
def counting_spawns() -> Iterator[list[int]]:
    """Count the sandbox children started meanwhile (every one goes through the spawner)."""
    spawner = session._spawner
    original = spawner.popen
    count = [0]

    def popen(argv: list[str], **kwargs: Any) -> Any:
        count[0] += 1
        return original(argv, **kwargs)

    spawner.popen = popen  # type: ignore[method-assign]
    try:
        yield count
    finally:
        spawner.popen = original  # type: ignore[method-assign]


# --------------------------------------------------------------------------- 1. memory
def memory(seats: int) -> dict[str, dict[str, float]]:
    state = realistic_state()
    out: dict[str, dict[str, float]] = {}
    for mode in MODES:
        pool = SandboxPool()
        bots: list[BotProcess | PooledBot] = [
            BotProcess(BOT_CODE) if mode == "process" else pool.bot(BOT_CODE) for _ in range(seats)
        ]
        for bot in bots:
            assert bot.start().ok
            for _ in range(20):
                assert bot.move(state).ok
        pids = {bot.pid for bot in bots if bot.pid is not None}
        total_mb = sum(pss_kb(pid) for pid in pids) / 1024
        for bot in bots:
            bot.close()
        pool.close()
        out[mode] = {
            "processes": len(pids),
            "pss_mb": total_mb,
            "mb_per_seat": total_mb / seats,
            "seats_per_gb": seats / (total_mb / 1024),
        }
    return out


# --------------------------------------------------------------------------- 2. spawns
def arena_games(games: int) -> dict[str, dict[str, float]]:
    from bots.examples import example_code
    from games.engine.registry import find_game

    engine: Any = find_game("tienlen")
    codes = [example_code(key) for key in EXAMPLES]
    out: dict[str, dict[str, float]] = {}
    for mode in MODES:
        pool = SandboxPool()
        registry = BotRegistry(mode=mode, pool=pool)
        moves = 0
        with counting_spawns() as spawns:
            t0 = time.perf_counter()
            for g in range(games):
                key = f"game:{g}"
                state = engine.new_game({"players": 4, "started_at": time.time()}, 1000 + g)
                while engine.result(state) is None:
                    seat = engine.round_status(state).pending[0]
                    turn = registry.play(
                        (key, seat, 100 + seat),
                        load_code=codes[seat].__str__,  # the seat's code, when it is loaded
                        game_state=engine.bot_view(state, seat),
                        timeout_s=5.0,
                    )
                    assert turn.ok, turn
                    action = dict(engine.parse_bot_move(state, seat, turn.value))
                    state, _ = engine.apply(state, {**action, "seat": seat, "at": time.time()})
                    moves += 1
                registry.release_game(key)
            elapsed = time.perf_counter() - t0
        registry.close_all()
        pool.close()
        out[mode] = {
            "spawns": spawns[0],
            "moves": moves,
            "seconds": elapsed,
            "ms_per_move": elapsed / moves * 1000,
        }
    return out


# --------------------------------------------------------------------------- 3./4. overhead
def overhead(moves: int, warmup: int, *, busy_neighbours: int = 0) -> dict[str, list[float]]:
    from py_mini_racer import MiniRacer

    state = realistic_state()
    bare = MiniRacer()
    bare.eval(BOT_CODE)
    expected = bare.call("getNextMove", state)
    pool = SandboxPool()
    registries = {mode: BotRegistry(mode=mode, pool=pool) for mode in MODES}
    series: dict[str, list[float]] = {"bare": [], **{mode: [] for mode in MODES}}
    stop = threading.Event()
    neighbours: list[BotProcess | PooledBot] = []
    for _ in range(busy_neighbours):
        neighbours += [pool.bot(BOT_CODE), BotProcess(BOT_CODE)]

    def think(bot: BotProcess | PooledBot) -> None:
        while not stop.is_set():
            bot.move(state)

    def caller(registry: BotRegistry) -> Callable[[], Any]:
        def call() -> Any:
            key = ("bench", 0, 1)
            return registry.play(key, load_code=lambda: BOT_CODE, game_state=state, timeout_s=5.0)

        return call

    calls = {mode: caller(registry) for mode, registry in registries.items()}
    for mode in MODES:
        calls[mode]()  # start the sandboxes before the neighbours fill the child
    threads = []
    for bot in neighbours:
        assert bot.start().ok
        threads.append(threading.Thread(target=think, args=(bot,), daemon=True))
    for thread in threads:
        thread.start()
    try:
        for i in range(warmup + moves):
            t0 = time.perf_counter()
            result = bare.call("getNextMove", state, timeout_sec=5.0)
            t1 = time.perf_counter()
            if result != expected:
                raise SystemExit(f"unexpected bare result {result}")
            row = [(t1 - t0) * 1000]
            for mode in MODES:
                t0 = time.perf_counter()
                value = calls[mode]().value
                row.append((time.perf_counter() - t0) * 1000)
                if value != expected:
                    raise SystemExit(f"unexpected {mode} result {value}")
            if i >= warmup:
                for name, ms in zip(series, row, strict=True):
                    series[name].append(ms)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        for bot in neighbours:
            bot.close()
        for registry in registries.values():
            registry.close_all()
        pool.close()
        bare.close()
    return series


def summary(series: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    bare50, bare99 = pct(series["bare"], 50), pct(series["bare"], 99)
    out = {}
    for name, samples in series.items():
        p50, p99 = pct(samples, 50), pct(samples, 99)
        out[name] = {"p50_ms": p50, "p99_ms": p99, "max_ms": max(samples)}
        if name != "bare":
            out[name] |= {"overhead_p50_ms": p50 - bare50, "overhead_p99_ms": p99 - bare99}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=32)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

    result: dict[str, Any] = {"memory": memory(args.seats)}
    mem = result["memory"]
    print(f"1. memory: {args.seats} seats loaded, 20 moves each (PSS of the sandbox processes)")
    for mode in MODES:
        m = mem[mode]
        print(
            f"   {mode:<8} {m['processes']:>3.0f} processes {m['pss_mb']:>8.1f} MB "
            f"{m['mb_per_seat']:>6.2f} MB/seat {m['seats_per_gb']:>7.1f} seats/GB"
        )
    gain = mem["pool"]["seats_per_gb"] / mem["process"]["seats_per_gb"]
    print(f"   seats per GB, pool / process: x{gain:.1f} (target >= x4)")

    result["games"] = arena_games(args.games)
    print(f"2. {args.games} arena games of 4 example bots through BotRegistry")
    for mode in MODES:
        g = result["games"][mode]
        print(
            f"   {mode:<8} {g['spawns']:>4} spawns {g['moves']:>5} moves "
            f"{g['ms_per_move']:>6.3f} ms/move"
        )

    for label, busy in (("3. move overhead", 0), ("4. move overhead, 3+3 busy neighbours", 3)):
        stats = summary(overhead(args.moves, args.warmup, busy_neighbours=busy))
        result[f"overhead_busy_{busy}"] = stats
        print(f"{label}: {args.moves} interleaved moves after {args.warmup} warm-up")
        for name, s in stats.items():
            extra = (
                f"  overhead p50 {s['overhead_p50_ms']:.3f} p99 {s['overhead_p99_ms']:.3f}"
                if name != "bare"
                else ""
            )
            print(f"   {name:<8} p50 {s['p50_ms']:.3f} p99 {s['p99_ms']:.3f} ms{extra}")
    if args.json:
        print(json.dumps(result))
    met = gain >= 4 and result["overhead_busy_0"]["pool"]["overhead_p99_ms"] < 5
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
