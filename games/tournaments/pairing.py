"""Pairing and standings of tournaments: pure functions, no Django (docs/tournaments.md).

Entrants are ints (entry ids). A *table* of a round is a list of ``table_size`` seats, each an
entrant or ``None``: a *filler* seat the house AI plays when the entrants do not fill whole
tables (a bye at two-player tables). Fillers are not entrants; for repeat counting they are one
pseudo-entrant (:data:`FILLER`), so the byes go round.

>>> round_robin_round([1, 2, 3, 4], 2, 1)
[[1, 4], [2, 3]]
>>> table_sizes(6, 4)
[3, 3]
>>> seat_points([5, -5, 0, 0])
[3.0, 0.0, 1.5, 1.5]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

#: The pseudo-entrant every filler (house) seat counts as when repeats are counted.
FILLER = -1
#: How many search steps a round's grouping may take (it keeps the best found so far).
SEARCH_BUDGET = 20_000

Seats = list[int | None]


def table_sizes(entrants: int, table_size: int) -> list[int]:
    """How many entrants sit at each table of a round: as few tables as hold everyone, the
    filler seats spread from the last table back (never more than one apart).

    >>> table_sizes(4, 4), table_sizes(5, 4), table_sizes(3, 2), table_sizes(2, 4)
    ([4], [3, 2], [2, 1], [2])
    """
    if entrants <= 0:
        return []
    tables = math.ceil(entrants / table_size)
    sizes = [table_size] * tables
    for i in range(tables * table_size - entrants):
        sizes[tables - 1 - (i % tables)] -= 1
    return sizes


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a <= b else (b, a)


def meetings(history: Iterable[Sequence[int | None]]) -> Counter[tuple[int, int]]:
    """How often each pair sat at one table (filler seats count as :data:`FILLER`).

    >>> meetings([[1, 2, None], [1, 2]])[(1, 2)], meetings([[1, None]])[(-1, 1)]
    (2, 1)
    """
    met: Counter[tuple[int, int]] = Counter()
    for table in history:
        seats = [FILLER if e is None else e for e in table]
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                if a == FILLER and b == FILLER:
                    continue
                met[_key(a, b)] += 1
    return met


def repeats(tables: Iterable[Sequence[int | None]], met: Counter[tuple[int, int]]) -> int:
    """The repeated meetings a round's ``tables`` add to ``met`` (pairs that met before)."""
    total = 0
    for table in tables:
        seats = [FILLER if e is None else e for e in table]
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                if not (a == FILLER and b == FILLER):
                    total += met[_key(a, b)]
    return total


def group_tables(
    order: Sequence[int],
    table_size: int,
    met: Counter[tuple[int, int]],
    budget: int = SEARCH_BUDGET,
) -> list[Seats]:
    """Tables for ``order`` (the entrants, most preferred together first: the standings for a
    Swiss round) with the fewest repeated meetings: a depth-first search that fills the tables
    in turn, each from the first entrant left and then the cheapest, nearest ones; it stops at
    a round with no repeat or after ``budget`` steps with the best round found.

    >>> group_tables([1, 2, 3, 4], 2, Counter({(1, 2): 1}))
    [[1, 3], [2, 4]]
    """
    sizes = table_sizes(len(order), table_size)
    pos = {e: i for i, e in enumerate(order)}
    best: list[list[int]] | None = None
    best_cost = math.inf
    steps = 0

    def add_cost(x: int, group: list[int], filler: bool) -> int:
        cost = sum(met[_key(x, y)] for y in group)
        return cost + (met[_key(x, FILLER)] if filler else 0)

    def fill(t: int, group: list[int], left: list[int], done: list[list[int]], cost: int) -> None:
        nonlocal best, best_cost, steps
        if cost >= best_cost or best_cost == 0 or (steps > budget and best is not None):
            return
        steps += 1
        if len(group) == sizes[t]:
            done = [*done, group]
            if t + 1 == len(sizes):
                best, best_cost = done, cost
                return
            filler = sizes[t + 1] < table_size
            first = left[0]
            fill(t + 1, [first], left[1:], done, cost + add_cost(first, [], filler))
            return
        filler = sizes[t] < table_size
        need = sizes[t] - len(group)
        last = pos[group[-1]]
        candidates = [x for x in left if pos[x] > last]
        candidates.sort(key=lambda x: (add_cost(x, group, filler), pos[x]))
        for x in candidates:
            if sum(1 for y in left if pos[y] > pos[x]) < need - 1:
                continue  # too few entrants after x to complete the table in order
            rest = [y for y in left if y != x]
            fill(t, [*group, x], rest, done, cost + add_cost(x, group, filler))

    if sizes:
        first = order[0]
        fill(0, [first], list(order[1:]), [], add_cost(first, [], sizes[0] < table_size))
    if best is None:  # pragma: no cover - the first descent always completes a round
        best, start = [], 0
        for size in sizes:
            best.append(list(order[start : start + size]))
            start += size
    return [[*g, *([None] * (table_size - len(g)))] for g in best]


def round_robin_round(
    entrants: Sequence[int],
    table_size: int,
    number: int,
    history: Iterable[Sequence[int | None]] = (),
) -> list[Seats]:
    """Round ``number`` (from 1) of a round-robin: at two-player tables the circle method
    (every pair meets once in ``n - 1`` rounds, ``n`` for an odd ``n``, whose bye goes round);
    at larger tables the grouping with the fewest repeated meetings so far (the entrants in
    registration order, rotated each round).

    >>> round_robin_round([1, 2, 3], 2, 1), round_robin_round([1, 2, 3], 2, 2)
    ([[1, None], [2, 3]], [[1, 3], [None, 2]])
    """
    people = list(entrants)
    if table_size == 2:
        ring: list[int | None] = [*people, None] if len(people) % 2 else list(people)
        m = len(ring)
        if m < 2:
            return [[*ring, None]] if ring else []
        rest = ring[1:]
        shift = (number - 1) % (m - 1)
        rest = rest[-shift:] + rest[:-shift] if shift else rest
        arranged = [ring[0], *rest]
        tables = [[arranged[i], arranged[m - 1 - i]] for i in range(m // 2)]
        return [t for t in tables if not (t[0] is None and t[1] is None)]
    shift = (number - 1) % max(1, len(people))
    order = people[shift:] + people[:shift]
    return group_tables(order, table_size, meetings(history))


def swiss_round(
    standing_order: Sequence[int],
    table_size: int,
    history: Iterable[Sequence[int | None]] = (),
) -> list[Seats]:
    """A Swiss round: entrants of close standing (``standing_order``, best first) together,
    with the fewest repeated meetings (:func:`group_tables`)."""
    return group_tables(list(standing_order), table_size, meetings(history))


# --------------------------------------------------------------------------- standings
def seat_points(totals: Sequence[float]) -> list[float]:
    """Tournament points of each seat of a finished table from its session totals: one point
    for every other seat it finished above, half for every seat level with it (so a table of
    ``k`` hands out ``k (k - 1) / 2`` points; at two-player tables win 1, draw ½, loss 0)."""
    out = []
    for i, mine in enumerate(totals):
        points = 0.0
        for j, other in enumerate(totals):
            if i != j:
                points += 1.0 if mine > other else 0.5 if mine == other else 0.0
        out.append(points)
    return out


@dataclass(frozen=True)
class TableResult:
    """A finished table: per seat the entrant (None: a filler) and its session total."""

    seats: tuple[int | None, ...]
    totals: tuple[int, ...]


@dataclass
class Standing:
    entry: int
    points: float = 0.0
    game_points: int = 0
    buchholz: float = 0.0
    head_to_head: float = 0.0
    played: int = 0
    rank: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(entrants: Sequence[int], results: Iterable[TableResult]) -> list[Standing]:
    """The standings, best first. Order: tournament points, then total game points (the
    session totals summed), then Buchholz (the sum of the points of every opponent met, once
    per meeting), then head-to-head (the points scored against the other entrants tied on all
    of those, at the tables they shared), then registration order. Entrants equal on all four
    share a rank.

    >>> rows = standings([1, 2], [TableResult((1, 2), (3, -3))])
    >>> [(r.entry, r.points, r.rank) for r in rows]
    [(1, 1.0, 1), (2, 0.0, 2)]
    """
    rows = {e: Standing(entry=e) for e in entrants}
    versus: Counter[tuple[int, int]] = Counter()
    versus_points: dict[tuple[int, int], float] = {}
    for table in results:
        points = seat_points(table.totals)
        for i, e in enumerate(table.seats):
            if e is None or e not in rows:
                continue
            row = rows[e]
            row.points += points[i]
            row.game_points += int(table.totals[i])
            row.played += 1
            for j, o in enumerate(table.seats):
                if j == i or o is None or o not in rows:
                    continue
                row.opponents.append(o)
                mine, theirs = table.totals[i], table.totals[j]
                score = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                versus_points[(e, o)] = versus_points.get((e, o), 0.0) + score
                versus[(e, o)] += 1
    for row in rows.values():
        row.buchholz = sum(rows[o].points for o in row.opponents)
    registration = {e: i for i, e in enumerate(entrants)}

    def main_key(r: Standing) -> tuple[float, int, float]:
        return (-r.points, -r.game_points, -r.buchholz)

    ordered = sorted(rows.values(), key=lambda r: (main_key(r), registration[r.entry]))
    out: list[Standing] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and main_key(ordered[j]) == main_key(ordered[i]):
            j += 1
        tied = ordered[i:j]
        members = {r.entry for r in tied}
        for r in tied:
            r.head_to_head = sum(
                v for (a, b), v in versus_points.items() if a == r.entry and b in members
            )
        tied.sort(key=lambda r: (-r.head_to_head, registration[r.entry]))
        out.extend(tied)
        i = j
    for n, r in enumerate(out):
        same = n > 0 and (main_key(r), r.head_to_head) == (
            main_key(out[n - 1]),
            out[n - 1].head_to_head,
        )
        r.rank = out[n - 1].rank if same else n + 1
    return out
