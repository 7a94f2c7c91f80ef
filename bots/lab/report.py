"""The text of a duplicate-match report (``./bin/bot match`` without ``--json``).

>>> report = {"game": "stud", "points_unit": "chips won or lost", "seed": 1, "seats": 2,
...     "deals": 2, "games": 4, "deals_planned": 2, "stopped": None, "entrants": [
...     {"name": "a", "games": 4, "first_rate": 0.75, "first_ci": [0.2, 1.0],
...      "mean_points": 2.5, "points_ci": [-1.0, 6.0], "last_rate": 0.25, "strikes": 0,
...      "mean_move_ms": 0.5},
...     {"name": "b", "games": 4, "first_rate": 0.25, "first_ci": None,
...      "mean_points": -2.5, "points_ci": None, "last_rate": 0.75, "strikes": 1,
...      "mean_move_ms": None}]}
>>> print(format_report(report, []))  # doctest: +NORMALIZE_WHITESPACE
Duplicate match: stud, 2 seats, 2 deals x 2 rotations = 4 games, seed 1
Points: chips won or lost per game. Intervals: 95 %, one observation per deal (Student's t).
<BLANKLINE>
entrant  games  first  95% CI          points  95% CI          last  strikes  ms/move
a            4  75.0%  [20.0, 100.0]    +2.50  [-1.00, +6.00]  25.0%       0     0.50
b            4  25.0%  -                -2.50  -               75.0%       1        -
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["format_report", "sparkline"]

_BARS = "▁▂▃▄▅▆▇█"
CHART_WIDTH = 60


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _pct_ci(ci: Sequence[float] | None) -> str:
    return "-" if ci is None else f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _pts_ci(ci: Sequence[float] | None) -> str:
    return "-" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def sparkline(values: Sequence[float], lo: float, hi: float, width: int = CHART_WIDTH) -> str:
    """``values`` as bars between ``lo`` and ``hi``, at most ``width`` of them (sampled).

    >>> sparkline([0.0, 1.0, 2.0], 0.0, 2.0)
    '▁▅█'
    """
    if not values:
        return ""
    if len(values) > width:
        step = len(values) / width
        values = [values[min(len(values) - 1, int((i + 1) * step) - 1)] for i in range(width)]
    span = hi - lo
    out = []
    for v in values:
        k = 0 if span <= 0 else round((v - lo) / span * (len(_BARS) - 1))
        out.append(_BARS[max(0, min(len(_BARS) - 1, k))])
    return "".join(out)


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def format_report(report: Mapping[str, Any], series: Sequence[Mapping[str, Any]]) -> str:
    """The report as text: a header, one line per entrant, and (with a ``series``) a chart of
    each entrant's running mean points after each deal."""
    deals, seats = int(report["deals"]), int(report["seats"])
    lines = [
        f"Duplicate match: {report['game']}, {seats} seats, {deals} deals x {seats} rotations"
        f" = {report['games']} games, seed {report['seed']}",
        f"Points: {report.get('points_unit', 'points')} per game. Intervals: 95 %, one "
        "observation per deal (Student's t).",
    ]
    planned = report.get("deals_planned")
    if report.get("stopped") == "separated":
        lines.append(f"Stopped early after {deals} of {planned} deals: the intervals separated.")
    elif report.get("stopped") == "stopped":
        lines.append(f"Stopped after {deals} of {planned} deals.")
    lines.append("")
    header = ["entrant", "games", "first", "95% CI", "points", "95% CI", "last", "strikes"]
    rows = [[*header, "ms/move"]]
    for e in report["entrants"]:
        ms = e.get("mean_move_ms")
        rows.append(
            [
                str(e["name"]),
                str(e["games"]),
                _pct(e["first_rate"]),
                _pct_ci(e["first_ci"]),
                f"{e['mean_points']:+.2f}",
                _pts_ci(e["points_ci"]),
                _pct(e["last_rate"]),
                str(e["strikes"]),
                "-" if ms is None else f"{ms:.2f}",
            ]
        )
    lines += _table(rows, right={1, 2, 4, 6, 7, 8})
    if len(series) > 1:
        lines += ["", "Running estimate (mean points per game after each deal):"]
        per = [[float(p["mean_points"][i]) for p in series] for i in range(len(rows) - 1)]
        lo = min(min(v) for v in per)
        hi = max(max(v) for v in per)
        width = max(len(str(e["name"])) for e in report["entrants"])
        for e, values in zip(report["entrants"], per, strict=True):
            name = str(e["name"]).ljust(width)
            lines.append(f"{name}  {sparkline(values, lo, hi)}  {values[-1]:+.2f}")
        lines.append(f"{''.ljust(width)}  scale {lo:+.2f} .. {hi:+.2f}")
    return "\n".join(lines)
