"""A player's or a bot's statistics over finished games (SQL aggregates) and their chart."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import Q, QuerySet

from games.charts import line_chart
from games.history.filters import _contains
from games.history.records import JSON, _bot_owner_id
from games.models import Game, Table

if TYPE_CHECKING:
    from accounts.models import User


CHART_POINTS = 200


# --------------------------------------------------------------------------- statistics
@dataclass
class Stats:
    """A player's or a bot's record over finished games."""

    games: int = 0
    wins: int = 0
    points: int = 0
    cong: int = 0
    cuts_made: int = 0
    cuts_suffered: int = 0
    timeline: list[tuple[Game, int, int]] = field(default_factory=list)  # game, score, total

    @property
    def average(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0


def seat_summary(result: Mapping[str, Any], seat: int) -> JSON:
    """One seat's numbers in a finished game's result: points, win, cóng, cuts made/suffered.

    >>> seat_summary({"winner": 1, "scores": [-5, 5], "cong": [0], "transfers": [
    ...     {"from": 0, "to": 1, "points": 3, "reason": "chat"}]}, 1)
    {'points': 5, 'won': True, 'cong': False, 'cuts_made': 1, 'cuts_suffered': 0}
    """
    scores = result.get("scores") or []
    transfers = [t for t in result.get("transfers") or [] if isinstance(t, Mapping)]
    return {
        "points": int(scores[seat]) if seat < len(scores) else 0,
        "won": result.get("winner") == seat,
        "cong": seat in (result.get("cong") or []),
        "cuts_made": sum(1 for t in transfers if t.get("reason") == "chat" and t.get("to") == seat),
        "cuts_suffered": sum(
            1 for t in transfers if t.get("reason") == "chat" and t.get("from") == seat
        ),
    }


#: Seat predicates of the statistics: which seats of ``Game.players`` are the subject's.
_SEAT_MATCH = {
    # a person's games in absence (the house played them after an abandonment) do not count
    "user": "p.elem->>'kind' = 'human' AND p.elem->'user_id' = %s::jsonb"
    " AND coalesce(p.elem->>'absent', '') <> 'absent'",
    "bot": "p.elem->'bot_id' = %s::jsonb",
}

# Every (game, seat) of the subject in the finished games of a queryset, with the seat's numbers
# (:func:`seat_summary` in SQL), then the running total in game order and the whole-set totals;
# only every k-th row (and the last) is returned for the chart, k = ceil(rows / CHART_POINTS).
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
    CASE WHEN result->'winner' = to_jsonb(seat) THEN 1 ELSE 0 END AS won,
    CASE WHEN jsonb_typeof(result->'cong') = 'array' AND result->'cong' @> to_jsonb(seat)
         THEN 1 ELSE 0 END AS cong,
    (SELECT count(*) FROM jsonb_array_elements(
       CASE WHEN jsonb_typeof(result->'transfers') = 'array'
            THEN result->'transfers' ELSE '[]'::jsonb END) t
     WHERE jsonb_typeof(t) = 'object' AND t->>'reason' = 'chat'
       AND t->'to' = to_jsonb(seat)) AS cuts_made,
    (SELECT count(*) FROM jsonb_array_elements(
       CASE WHEN jsonb_typeof(result->'transfers') = 'array'
            THEN result->'transfers' ELSE '[]'::jsonb END) t
     WHERE jsonb_typeof(t) = 'object' AND t->>'reason' = 'chat'
       AND t->'from' = to_jsonb(seat)) AS cuts_suffered
  FROM seats
),
ordered AS (
  SELECT game_id, points,
    sum(points) OVER w AS total,
    row_number() OVER w AS rn,
    count(*) OVER () AS n,
    sum(won) OVER () AS wins,
    sum(points) OVER () AS all_points,
    sum(cong) OVER () AS all_cong,
    sum(cuts_made) OVER () AS all_made,
    sum(cuts_suffered) OVER () AS all_suffered
  FROM per
  WINDOW w AS (ORDER BY ended_at ASC NULLS FIRST, game_id, seat
               ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
SELECT game_id, points, total, n, wins, all_points, all_cong, all_made, all_suffered
FROM ordered
WHERE rn = n OR mod(rn, greatest(1, ceil(n / %s::numeric))::bigint) = 0
ORDER BY rn
"""


def _stats_sql(qs: QuerySet[Game], kind: str, subject: int) -> Stats:
    """Exact totals over every finished game of ``qs`` by database aggregates (PostgreSQL),
    and at most :data:`CHART_POINTS` points of the running total for the chart."""
    games_sql, games_params = qs.values("pk").query.sql_with_params()
    sql = _STATS_SQL.format(games=games_sql, match=_SEAT_MATCH[kind])
    with connection.cursor() as cursor:
        cursor.execute(sql, [*games_params, json.dumps(subject), CHART_POINTS])
        rows = cursor.fetchall()
    stats = Stats()
    if not rows:
        return stats
    _, _, _, n, wins, points, cong, made, suffered = rows[-1]
    stats.games, stats.wins, stats.points = int(n), int(wins), int(points)
    stats.cong, stats.cuts_made, stats.cuts_suffered = int(cong), int(made), int(suffered)
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
    q = _contains("user_id", user.pk) & (Q(engine=game) if game else Q())
    return _stats_sql(_finished(q, public_only=public_only), "user", user.pk)


def bot_stats(*, bot_id: int, user: User | None, game: str = "") -> Stats:
    """A bot's games (public tables; every table for its owner), each seat it held counted.
    Totals cover every game; the chart at most :data:`CHART_POINTS`."""
    owner = user is not None and user.is_authenticated and _bot_owner_id(bot_id) == user.pk
    q = _contains("bot_id", bot_id) & (Q(engine=game) if game else Q())
    return _stats_sql(_finished(q, public_only=not owner), "bot", bot_id)


def points_chart(stats: Stats) -> Any:
    """The cumulative points after each game as a server-side SVG line chart geometry."""
    values = [0] + [total for _, _, total in stats.timeline]
    labels = ["start"] + [
        f"{g.table.name} #{g.number}: {score:+d} → {total}" for g, score, total in stats.timeline
    ]
    return line_chart(values, labels)
