"""benchmarks/move_timeline.py's summary: the marks of each table matched into moves, in order,
and the time from each step to the next."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.move_timeline import SINCE, STEPS, summary


def _write(folder: Path, pid: int, rows: Sequence[tuple[object, str, int]]) -> None:
    lines = [f"{table}\t{step}\t{at}" for table, step, at in rows]
    (folder / f"marks.{pid}").write_text("\n".join(lines) + "\n")


def test_each_tables_moves_are_matched_in_order_and_timed_step_by_step(tmp_path: Path) -> None:
    ms = 1_000_000
    steps = [s for s in STEPS if not s.startswith("socket")] + ["socket"] * 4
    # table 7: two whole moves, each step 1 ms after the one before (the second move 2 ms)
    first = [(7, step, (10 + i) * ms) for i, step in enumerate(steps)]
    second = [(7, step, (100 + 2 * i) * ms) for i, step in enumerate(steps)]
    # table 8: a move that never reached its sockets is left out; a mark of no table too
    broken = [(8, step, (50 + i) * ms) for i, step in enumerate(steps[:6])]
    _write(tmp_path, 1, first + broken + [(None, "receive", 5 * ms)])
    _write(tmp_path, 2, second)  # another process's marks of the same table
    rows = {(step, since): (p50, p90, n) for step, since, p50, p90, n in summary(tmp_path)}
    assert list(rows) == SINCE
    assert rows["thread", "receive"] == (1.5, 1.0, 2)  # the median of 1 and 2 ms; p90 1 here
    assert rows["socket 4", "loop"][0] == (5 + 10) / 2
    assert rows["socket 4", "receive"] == ((11 + 22) / 2, 11.0, 2)
