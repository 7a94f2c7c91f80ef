"""Geometry for small server-side SVG line charts (a bot's ratings, a player's scores).

Pure functions: the template draws the ``<svg>`` from the numbers computed here, so the chart
needs no JavaScript and no chart library.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    value: int
    label: str


@dataclass(frozen=True)
class ChartTick:
    y: float
    value: int


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: list[ChartPoint] = field(default_factory=list)
    ticks: list[ChartTick] = field(default_factory=list)

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of the ``<polyline>``."""
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def plot_right(self) -> int:
        return self.width - self.right

    @property
    def plot_bottom(self) -> int:
        return self.height - self.bottom


def _nice_step(span: float, ticks: int) -> int:
    """A round tick step (1, 2 or 5 × 10ⁿ) covering ``span`` in about ``ticks`` steps.

    >>> _nice_step(80, 4), _nice_step(87, 4), _nice_step(0, 4)
    (20, 50, 1)
    """
    raw = max(span / max(ticks, 1), 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return int(factor * magnitude)
    return int(10 * magnitude)  # pragma: no cover - the loop always returns


def line_chart(
    values: list[int],
    labels: list[str],
    *,
    width: int = 640,
    height: int = 220,
    left: int = 48,
    right: int = 12,
    top: int = 12,
    bottom: int = 24,
    ticks: int = 4,
) -> LineChart:
    """Place ``values`` (one per game, oldest first) on an SVG canvas of ``width``×``height``
    with round y-axis ticks; ``labels`` become each point's tooltip.

    >>> chart = line_chart([1500, 1540, 1520], ["a", "b", "c"], width=100, height=60,
    ...                    left=0, right=0, top=0, bottom=0)
    >>> chart.polyline
    '0.0,60.0 50.0,0.0 100.0,30.0'
    >>> [t.value for t in chart.ticks]
    [1500, 1510, 1520, 1530, 1540]
    """
    if not values:
        return LineChart(width, height, left, right, top, bottom)
    step = _nice_step(max(values) - min(values), ticks)
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        low, high = low - step, high + step
    plot_w = width - left - right
    plot_h = height - top - bottom

    def y_of(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    n = len(values)
    points = [
        ChartPoint(
            x=left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2),
            y=y_of(v),
            value=v,
            label=labels[i] if i < len(labels) else "",
        )
        for i, v in enumerate(values)
    ]
    tick_list = [ChartTick(y=y_of(v), value=v) for v in range(low, high + 1, step)]
    return LineChart(width, height, left, right, top, bottom, points, tick_list)
