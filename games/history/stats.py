"""A player's or a bot's statistics over finished games (SQL aggregates) and their chart."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from django.db import connection
from django.db.models import Q, QuerySet

from games.charts import line_chart
from games.engine.core.protocol import SeatStat
from games.engine.registry import GAMES
from games.history.filters import contains
from games.history.records import JSON, record_bot_owner_id
from games.models import Game, Table

if TYPE_CHECKING:
    from accounts.models import User


CHART_POINTS = 200


# --------------------------------------------------------------------------- statistics
def seat_stats() -> tuple[SeatStat, ...]:
    """Every registered game's own per-seat numbers (``GAME.seat_stats``), each key once: the
    statistics count them over every game (a result without their fields counts 0).

    >>> [s.key for s in seat_stats()][:3]
    ['cong', 'cuts_made', 'cuts_suffered']
    """
    found: dict[str, SeatStat] = {}
    for engine in GAMES.values():
        for stat in engine.seat_stats:
            found.setdefault(stat.key, stat)
    return tuple(found.values())


class StatRow(NamedTuple):
    """One of the games' own numbers on a statistics page: ``label`` is English (the page
    translates it), ``html_id`` the element id (``stat-cuts-made``)."""

    key: str
    label: str
    value: int

    @property
    def html_id(self) -> str:
        return "stat-" + self.key.replace("_", "-")


@dataclass
class Stats:
    """A player's or a bot's record over finished games; ``counts`` holds the games' own
    numbers (:func:`seat_stats`), also readable as attributes (``stats.cong``)."""

    games: int = 0
    wins: int = 0
    points: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {s.key: 0 for s in seat_stats()})
    timeline: list[tuple[Game, int, int]] = field(default_factory=list)  # game, score, total

    def __getattr__(self, name: str) -> int:
        counts = self.__dict__.get("counts")
        if counts is None or name not in counts:
            raise AttributeError(name)
        return int(counts[name])

    @property
    def rows(self) -> list[StatRow]:
        """The games' own numbers in :attr:`counts`, in the registry's order, with labels."""
        return [
            StatRow(s.key, s.label or s.key, int(self.counts[s.key]))
            for s in seat_stats()
            if s.key in self.counts
        ]

    @property
    def average(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0


def _seat_value(stat: SeatStat, result: Mapping[str, Any], seat: int) -> bool | int:
    if stat.kind == "listed":
        return seat in (result.get(stat.source) or [])
    side = "to" if stat.kind == "received" else "from"
    return sum(
        1
        for t in result.get("transfers") or []
        if isinstance(t, Mapping) and t.get("reason") == stat.source and t.get(side) == seat
    )


def seat_summary(result: Mapping[str, Any], seat: int) -> JSON:
    """One seat's numbers in a finished game's result: points, win, and the games' own
    (:func:`seat_stats`: whether it is listed, how many transfers of a reason it got / paid).

    >>> seat_summary({"winner": 1, "scores": [-5, 5], "cong": [0], "transfers": [
    ...     {"from": 0, "to": 1, "points": 3, "reason": "chat"}]}, 1)
    {'points': 5, 'won': True, 'cong': False, 'cuts_made': 1, 'cuts_suffered': 0}
    """
    scores = result.get("scores") or []
    summary: JSON = {
        "points": int(scores[seat]) if seat < len(scores) else 0,
        "won": result.get("winner") == seat,
    }
    for stat in seat_stats():
        summary[stat.key] = _seat_value(stat, result, seat)
    return summary


#: Seat predicates of the statistics: which seats of ``Game.players`` are the subject's.
_SEAT_MATCH = {
    # a person's games in absence (the house played them after an abandonment) do not count
    "user": "p.elem->>'kind' = 'human' AND p.elem->'user_id' = %s::jsonb"
    " AND coalesce(p.elem->>'absent', '') <> 'absent'",
    "bot": "p.elem->'bot_id' = %s::jsonb",
}

#: The SQL of one :class:`SeatStat` per seat row of ``per`` (its ``source`` is a parameter).
_STAT_SQL = {
    "listed": "CASE WHEN jsonb_typeof(result->%s::text) = 'array'"
    " AND result->%s::text @> to_jsonb(seat) THEN 1 ELSE 0 END",
    "received": """(SELECT count(*) FROM jsonb_array_elements(
       CASE WHEN jsonb_typeof(result->'transfers') = 'array'
            THEN result->'transfers' ELSE '[]'::jsonb END) t
     WHERE jsonb_typeof(t) = 'object' AND t->>'reason' = %s::text
       AND t->'to' = to_jsonb(seat))""",
    "paid": """(SELECT count(*) FROM jsonb_array_elements(
       CASE WHEN jsonb_typeof(result->'transfers') = 'array'
            THEN result->'transfers' ELSE '[]'::jsonb END) t
     WHERE jsonb_typeof(t) = 'object' AND t->>'reason' = %s::text
       AND t->'from' = to_jsonb(seat))""",
}

# Every (game, seat) of the subject in the finished games of a queryset, with the seat's numbers
# (:func:`seat_summary` in SQL: ``s0``, ``s1`` … are the games' own), then the running total in
# game order and the whole-set totals; only every k-th row (and the last) is returned for the
# chart, k = ceil(rows / CHART_POINTS).
_STATS_SQL = """
WITH seats AS (
  SELECT g.id AS game_id, g.ended_at, g.result,
         CASE WHEN jsonb_typeof(p.elem->'seat') = 'number'
              THEN (p.elem->>'seat')::int ELSE (p.ord - 1)::int END AS seat
  FROM games_game g
  CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(g.players) = 'array' THEN g.players ELSE '[]'::jsonb END
  ) WITH ORDINALITY AS p(elem, ord)
  WHERE g.id IN ({games}) AND jsonb_typeof(g.result) = 'object'
    AND jsonb_typeof(p.elem) = 'object' AND {match}
),
per AS (
  SELECT game_id, ended_at, seat,
    CASE WHEN jsonb_typeof(result->'scores'->seat) = 'number'
         THEN (result->'scores'->>seat)::numeric ELSE 0 END AS points,
    CASE WHEN result->'winner' = to_jsonb(seat) THEN 1 ELSE 0 END AS won{stats}
  FROM seats
),
ordered AS (
  SELECT game_id, points,
    sum(points) OVER w AS total,
    row_number() OVER w AS rn,
    count(*) OVER () AS n,
    sum(won) OVER () AS wins,
    sum(points) OVER () AS all_points{stat_totals}
  FROM per
  WINDOW w AS (ORDER BY ended_at ASC NULLS FIRST, game_id, seat
               ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
SELECT game_id, points, total, n, wins, all_points{stat_columns}
FROM ordered
WHERE rn = n OR mod(rn, greatest(1, ceil(n / %s::numeric))::bigint) = 0
ORDER BY rn
"""


def _stats_sql(qs: QuerySet[Game], kind: str, subject: int) -> Stats:
    """Exact totals over every finished game of ``qs`` by database aggregates (PostgreSQL),
    and at most :data:`CHART_POINTS` points of the running total for the chart."""
    games_sql, games_params = qs.values("pk").query.sql_with_params()
    own = seat_stats()
    stat_params: list[str] = []
    for stat in own:
        stat_params += [stat.source] * _STAT_SQL[stat.kind].count("%s")
    sql = _STATS_SQL.format(
        games=games_sql,
        match=_SEAT_MATCH[kind],
        stats="".join(f",\n    {_STAT_SQL[s.kind]} AS s{i}" for i, s in enumerate(own)),
        stat_totals="".join(f",\n    sum(s{i}) OVER () AS all_s{i}" for i in range(len(own))),
        stat_columns="".join(f", all_s{i}" for i in range(len(own))),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*games_params, json.dumps(subject), *stat_params, CHART_POINTS])
        rows = cursor.fetchall()
    stats = Stats()
    if not rows:
        return stats
    _, _, _, n, wins, points, *totals = rows[-1]
    stats.games, stats.wins, stats.points = int(n), int(wins), int(points)
    stats.counts = {stat.key: int(total) for stat, total in zip(own, totals, strict=True)}
    games = Game.objects.select_related("table").in_bulk([r[0] for r in rows])
    stats.timeline = [(games[r[0]], int(r[1]), int(r[2])) for r in rows if r[0] in games]
    return stats


def _finished(q: Q, *, public_only: bool) -> QuerySet[Game]:
    qs = Game.objects.filter(q, status=Game.Status.FINISHED)
    if public_only:
        qs = qs.filter(table__visibility=Table.Visibility.PUBLIC)
    return qs


def player_stats(*, user: User, game: str = "", public_only: bool = True) -> Stats:
    """``user``'s finished games as a person (public tables only unless ``public_only`` is
    False: their own page). Totals cover every game; the chart at most :data:`CHART_POINTS`."""
    q = contains("user_id", user.pk) & (Q(engine=game) if game else Q())
    return _stats_sql(_finished(q, public_only=public_only), "user", user.pk)


def bot_stats(*, bot_id: int, user: User | None, game: str = "") -> Stats:
    """A bot's games (public tables; every table for its owner), each seat it held counted.
    Totals cover every game; the chart at most :data:`CHART_POINTS`."""
    owner = user is not None and user.is_authenticated and record_bot_owner_id(bot_id) == user.pk
    q = contains("bot_id", bot_id) & (Q(engine=game) if game else Q())
    return _stats_sql(_finished(q, public_only=not owner), "bot", bot_id)


def points_chart(stats: Stats) -> Any:
    """The cumulative points after each game as a server-side SVG line chart geometry."""
    values = [0] + [total for _, _, total in stats.timeline]
    labels = ["start"] + [
        f"{g.table.name} #{g.number}: {score:+d} → {total}" for g, score, total in stats.timeline
    ]
    return line_chart(values, labels)
