"""Conformance runner benchmark: random 4-player Tiến Lên scenarios through
``python -m games.engine.conformance`` against a plain reference runner.

Run ``python benchmarks/conformance.py [--scenarios 1500 --rounds 7 --before DIR]``. It prints a
table; it writes nothing but a temporary scenario file. The scenarios are random complete games
from a seed (a legal play or pass most turns, and also timeouts, actions of the wrong seat, plays
of cards the seat does not hold, and actions after the game is over).

The yardstick, measured in the same process as the runner, alternating with it, is a plain
reference runner (:func:`plain_run_input`): the same rules module called directly (no game
registry, no scenario format objects, no events), ``json.loads`` / ``json.dumps``. Its output
must equal the runner's, which the benchmark checks. The ratio is reference time / runner time
(1.0 = as fast as the reference); CPU seconds (``time.process_time``) of each run.

``--before DIR`` times a second checkout too (``git archive <commit> games | tar -x -C DIR``):
each round runs both checkouts, each in a fresh process, one after the other, so both ratios
come from the same run. ``--processes`` also times whole processes (start-up included).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def make_scenarios(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` random 4-player scenarios (import the engine of this checkout)."""
    sys.path.insert(0, str(ROOT))
    from games.engine.core.rng import Rng
    from games.engine.tienlen import GAME
    from games.engine.tienlen.cards import mask_to_ids

    out = []
    for n in range(count):
        rng = Rng(seed * 1_000_003 + n)
        deck = rng.shuffle(list(range(52)))
        hands = [mask_to_ids(sum(1 << c for c in deck[i * 13 : (i + 1) * 13])) for i in range(4)]
        opening = rng.below(2) == 0
        options = {"opening": True} if opening else {"opening": False, "leader": rng.below(4)}
        state = GAME.new_game({"players": 4, "hands": hands, **options}, 0)
        actions: list[dict[str, Any]] = []
        while GAME.result(state) is None:
            seat = state.turn
            roll = rng.below(20)
            if roll == 0:
                actions.append({"seat": (seat + 1) % 4, "pass": True})  # not your turn
                continue
            if roll == 1:
                other = state.hands[(seat + 1) % 4]
                actions.append({"seat": seat, "play": mask_to_ids(other & -other)})  # not held
                continue
            if roll in (2, 3):
                action = GAME.timeout_action(state, seat)
                actions.append({"timeout": True})
            else:
                moves = GAME.legal_actions(state, seat)
                action = moves[rng.below(len(moves))]
                if action["type"] == "pass":
                    actions.append({"seat": seat, "pass": True})
                else:
                    actions.append({"seat": seat, "play": action["cards"]})
            state, _ = GAME.apply(state, action)
        actions.extend({"seat": s, "pass": True} for s in range(rng.below(4)))  # after the end
        out.append(
            {
                "game": "tienlen",
                "players": 4,
                "hands": hands,
                "options": options,
                "actions": actions,
            }
        )
    return out


# --- the plain reference runner ------------------------------------------------------------------


def plain_run_input(text: str) -> str:
    """The reference: a JSON array of Tiến Lên scenarios run straight on the rules module."""
    from games.engine.tienlen import rules
    from games.engine.tienlen.combos import KIND_NAMES, classify

    def run(sc: Mapping[str, Any]) -> dict[str, Any]:
        config = {"players": sc["players"], "hands": sc["hands"], **sc.get("options", {})}
        state = rules.new_game(config, 0)
        results: list[dict[str, Any]] = []
        for raw in sc["actions"]:
            if state.finished:
                results.append({"ok": False, "error": "game_over"})
                continue
            auto = None
            if raw.get("timeout") is True:
                action = rules.timeout_action(state, state.turn)
                auto = {"seat": action["seat"]}
                auto.update(
                    {"pass": True} if action["type"] == "pass" else {"play": action["cards"]}
                )
            elif "play" in raw:
                action = {"type": "play", "seat": raw["seat"], "cards": raw["play"]}
            else:
                action = {"type": "pass", "seat": raw["seat"]}
            try:
                seat, mask, is_auto, at = rules.parse_action(action)
                state = rules._apply(state, seat, mask, is_auto, at, None)
            except ValueError as exc:
                results.append({"ok": False, "error": exc.code})  # type: ignore[attr-defined]
                continue
            res: dict[str, Any] = {"ok": True}
            if auto is not None:
                res["auto"] = auto
            if mask >= 0:
                res["combo"] = KIND_NAMES[classify(mask) >> 12]
            res["next"] = None if state.finished else state.turn
            results.append(res)
        final = rules.result(state)
        if final is None:
            transfers, scores = rules.partial_transfers(state)
            return {
                "results": results,
                "finished": False,
                "winner": None,
                "instant_win": None,
                "ranking": None,
                "cong": [],
                "transfers": transfers,
                "scores": scores,
            }
        keys = ("winner", "instant_win", "ranking", "cong", "transfers", "scores")
        return {"results": results, "finished": True, **{k: final[k] for k in keys}}

    return json.dumps([run(sc) for sc in json.loads(text)], ensure_ascii=False)


def _cpu(fn: Callable[[], str]) -> tuple[float, str]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def worker(path: str, pairs: int) -> None:
    """Time the runner of the checkout on ``sys.path`` and the reference, alternating."""
    from games.engine.conformance import run_input

    text = Path(path).read_text()
    runner, plain = [], []
    for _ in range(pairs):
        t_run, out_run = _cpu(lambda: run_input(text))
        t_plain, out_plain = _cpu(lambda: plain_run_input(text))
        if json.loads(out_run) != json.loads(out_plain):
            raise SystemExit("the runner's output differs from the reference's")
        runner.append(t_run)
        plain.append(t_plain)
    print(json.dumps({"runner": runner, "plain": plain}))


def run_worker(root: Path, path: str, pairs: int) -> dict[str, list[float]]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", path, "--pairs", str(pairs)]
    done = subprocess.run(cmd, env=env, cwd=root, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def process_cpu(cmd: list[str], root: Path, path: str) -> float:
    """CPU seconds (user + system) of one whole process reading the scenario file."""
    before = os.times()
    with open(path) as stdin:
        subprocess.run(
            cmd,
            cwd=root,
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            check=True,
            env={**os.environ, "PYTHONPATH": str(root)},
        )
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenarios", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pairs", type=int, default=1, help="runner/reference pairs a process")
    parser.add_argument("--before", help="a second checkout's root to time in the same rounds")
    parser.add_argument("--processes", action="store_true", help="also time whole processes")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.pairs)
        return

    versions = {"after (this checkout)": ROOT}
    if args.before:
        versions = {"before": Path(args.before).resolve(), **versions}
    scenarios = make_scenarios(args.scenarios)
    steps = sum(len(sc["actions"]) for sc in scenarios)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(scenarios, fh)
        path = fh.name
    plain_cmd = [
        sys.executable,
        "-c",
        "import sys, benchmarks.conformance as b; "
        "sys.stdout.write(b.plain_run_input(sys.stdin.read()))",
    ]
    runner_cmd = [sys.executable, "-m", "games.engine.conformance"]
    ratios: dict[str, list[float]] = {name: [] for name in versions}
    cpu: dict[str, list[float]] = {name: [] for name in versions}
    proc: dict[str, list[float]] = {name: [] for name in versions}
    try:
        for _ in range(args.rounds):
            for name, root in versions.items():
                times = run_worker(root, path, args.pairs)
                for t_run, t_plain in zip(times["runner"], times["plain"], strict=True):
                    ratios[name].append(t_plain / t_run)
                    cpu[name].append(t_run)
                if args.processes:
                    t_run = process_cpu(runner_cmd, root, path)
                    t_plain = process_cpu([*plain_cmd], ROOT, path)
                    proc[name].append(t_plain / t_run)
    finally:
        os.unlink(path)

    print(f"{args.scenarios} random 4-player scenarios, {steps} actions; {args.rounds} rounds")
    print("| checkout | runner CPU s (median) | reference / runner: median (min–max) |")
    print("|---|---:|---:|")
    for name in versions:
        r = ratios[name]
        line = f"| {name} | {statistics.median(cpu[name]):.3f} | "
        line += f"{statistics.median(r):.2f}× ({min(r):.2f}–{max(r):.2f}) |"
        if args.processes:
            p = proc[name]
            line += f" whole process {statistics.median(p):.2f}× ({min(p):.2f}–{max(p):.2f})"
        print(line)


if __name__ == "__main__":
    main()
