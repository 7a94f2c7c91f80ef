"""Per-move overhead of the bot sandbox versus a bare in-process mini-racer call.

Run:  python benchmarks/bots_sandbox.py [--moves 500] [--starts 20] [--json]

Measures, in one run and on the same machine:

* ``sandbox``: :meth:`bots.sandbox.BotProcess.move` wall time as the caller sees it (JSON
  encode, pipe round trip to the child, hardened harness call with timeout, result
  serialisation, microtask fence, reply validation);
* ``bare``: ``MiniRacer().call("getNextMove", state)`` in this process, no sandbox, on the
  same bot code and the same game state (JIT warmed up the same way);
* cold start: ``BotProcess(code).start()`` (spawn Python, start V8, harden, load the bot).

The two move series are interleaved (one sandbox move, one bare call) so that noise from other
processes hits both alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.sandbox import BotProcess

BOT_CODE = r"""
// A small but realistic Tiến Lên bot: play the lowest-ranked valid move that does not
// break a pair/triple unless forced; pass when nothing beats the table.
var movesMade = 0;
function weight(move) {
  var total = 0;
  for (var i = 0; i < move.cards.length; i++) total += move.cards[i].value;
  return total / move.cards.length + (move.type === "single" ? 0 : 0.5);
}
function getNextMove(gameState) {
  movesMade++;
  var valid = gameState.validMoves.filter(function (m) { return m.type !== "pass"; });
  if (valid.length === 0) return { action: "pass" };
  var counts = {};
  gameState.myCards.forEach(function (c) { counts[c.rank] = (counts[c.rank] || 0) + 1; });
  var best = null, bestScore = Infinity;
  for (var i = 0; i < valid.length; i++) {
    var m = valid[i];
    var breaks = m.type === "single" && counts[m.cards[0].rank] > 1 ? 20 : 0;
    var score = weight(m) + breaks;
    if (score < bestScore) { bestScore = score; best = m; }
  }
  var cards = best.cards.map(function (c) { return { rank: c.rank, suit: c.suit }; });
  return { action: "play", cards: cards };
}
"""

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
SUITS = ["S", "C", "D", "H"]


def realistic_state() -> dict[str, Any]:
    """A mid-game state: 13 cards in hand, 20 valid moves (singles, pairs, a run)."""
    hand = [
        {"rank": RANKS[i], "suit": SUITS[(i * 3) % 4], "value": i * 4 + (i * 3) % 4}
        for i in range(13)
    ]
    moves: list[dict[str, Any]] = [{"type": "single", "cards": [card]} for card in hand]
    for i in range(4):
        moves.append({"type": "pair", "cards": [hand[i], dict(hand[i], suit="H")]})
    for i in range(3):
        moves.append({"type": "straight", "cards": hand[i : i + 3]})
    assert len(moves) == 20
    return {
        "gameId": "bench-1",
        "myPosition": 2,
        "myCards": hand,
        "playerCardCounts": [13, 11, 13, 9],
        "currentTurn": 2,
        "lastPlay": {"position": 1, "type": "single", "cards": [hand[0]]},
        "passedPlayers": [0],
        "validMoves": moves,
        "history": [{"position": p, "action": "pass"} for p in range(8)],
    }


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = parser.parse_args()

    from py_mini_racer import MiniRacer

    state = realistic_state()

    bare = MiniRacer()
    bare.eval(BOT_CODE)
    sandbox_ms: list[float] = []
    bare_ms: list[float] = []
    with BotProcess(BOT_CODE) as bot:
        if not bot.load_outcome.ok:
            raise SystemExit(f"bot failed to load: {bot.load_outcome}")
        expected = bare.call("getNextMove", state)
        for i in range(args.warmup + args.moves):
            t0 = time.perf_counter()
            outcome = bot.move(state)
            t1 = time.perf_counter()
            result = bare.call("getNextMove", state, timeout_sec=5.0)
            t2 = time.perf_counter()
            if not outcome.ok or outcome.value != expected or result != expected:
                raise SystemExit(f"unexpected result: {outcome} / {result}")
            if i >= args.warmup:
                sandbox_ms.append((t1 - t0) * 1000)
                bare_ms.append((t2 - t1) * 1000)
    bare.close()

    start_ms: list[float] = []
    for _ in range(args.starts):
        t0 = time.perf_counter()
        bot = BotProcess(BOT_CODE)
        load = bot.start()
        start_ms.append((time.perf_counter() - t0) * 1000)
        bot.close()
        assert load.ok

    rows = {
        "sandbox move": sandbox_ms,
        "bare MiniRacer call": bare_ms,
    }
    print(
        f"bot sandbox benchmark: {args.moves} moves (after {args.warmup} warm-up), "
        f"{args.starts} cold starts, state {len(json.dumps(state))} bytes JSON"
    )
    print(f"{'series':<22}{'p50 ms':>10}{'p90 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for name, samples in rows.items():
        print(
            f"{name:<22}{pct(samples, 50):>10.3f}{pct(samples, 90):>10.3f}"
            f"{pct(samples, 99):>10.3f}{max(samples):>10.3f}"
        )
    over50 = pct(sandbox_ms, 50) - pct(bare_ms, 50)
    over99 = pct(sandbox_ms, 99) - pct(bare_ms, 99)
    print(
        f"overhead (sandbox - bare): p50 {over50:.3f} ms, p99 {over99:.3f} ms; "
        f"ratio p50 {pct(sandbox_ms, 50) / pct(bare_ms, 50):.2f}x, "
        f"p99 {pct(sandbox_ms, 99) / pct(bare_ms, 99):.2f}x"
    )
    target = "MET" if over99 < 5.0 else "MISSED"
    print(f"target: overhead < 5 ms at p99 -> {target}")
    print(
        f"cold start (spawn + V8 + harden + load): p50 {statistics.median(start_ms):.1f} ms, "
        f"max {max(start_ms):.1f} ms"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "sandbox_p50_ms": pct(sandbox_ms, 50),
                    "sandbox_p99_ms": pct(sandbox_ms, 99),
                    "bare_p50_ms": pct(bare_ms, 50),
                    "bare_p99_ms": pct(bare_ms, 99),
                    "overhead_p50_ms": over50,
                    "overhead_p99_ms": over99,
                    "cold_start_p50_ms": statistics.median(start_ms),
                    "cold_start_max_ms": max(start_ms),
                }
            )
        )
    return 0 if over99 < 5.0 else 1


if __name__ == "__main__":
    sys.exit(main())
