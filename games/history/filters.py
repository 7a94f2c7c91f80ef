"""The history lists: filters, the public / own / bot / player / table lists, pages and rows,
and a table session's summary."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet

from games.history.records import JSON, is_archive, players_of, record_bot_owner_id
from games.models import Game, Seat, Table

if TYPE_CHECKING:
    from accounts.models import User


PAGE_SIZE = 20


# --------------------------------------------------------------------------- lists
@dataclass
class HistoryFilters:
    """Filters of the history lists (all optional)."""

    game: str = ""
    player: str = ""
    bot: int | None = None
    date_from: date | None = None
    date_to: date | None = None

    def query(self) -> dict[str, str]:
        out = {"game": self.game, "player": self.player}
        out["bot"] = str(self.bot) if self.bot is not None else ""
        out["from"] = self.date_from.isoformat() if self.date_from else ""
        out["to"] = self.date_to.isoformat() if self.date_to else ""
        return {k: v for k, v in out.items() if v}


def contains(key: str, value: int) -> Q:
    """``Game.players`` holds a seat whose ``key`` equals ``value`` (jsonb containment)."""
    return Q(players__contains=[{key: value}])


def _filtered(qs: QuerySet[Game], filters: HistoryFilters) -> QuerySet[Game]:
    if filters.game:
        qs = qs.filter(engine=filters.game)
    if filters.player:
        text = filters.player.replace('"', "").replace("\\", "").strip()
        if text:
            qs = qs.filter(players__icontains=f'"name": "{text}')
    if filters.bot is not None:
        qs = qs.filter(contains("bot_id", filters.bot))
    if filters.date_from:
        qs = qs.filter(started_at__date__gte=filters.date_from)
    if filters.date_to:
        qs = qs.filter(started_at__date__lte=filters.date_to)
    return qs


_LISTED = (Game.Status.FINISHED, Game.Status.RUNNING)


def _newest(qs: QuerySet[Game], filters: HistoryFilters | None) -> QuerySet[Game]:
    """``qs`` filtered by ``filters``, with its table, newest first."""
    return (
        _filtered(qs, filters or HistoryFilters())
        .select_related("table")
        .order_by("-started_at", "-pk")
    )


def game_list_public(*, filters: HistoryFilters | None = None) -> QuerySet[Game]:
    """Finished and running games of public tables, newest first."""
    qs = Game.objects.filter(table__visibility=Table.Visibility.PUBLIC, status__in=_LISTED)
    return _newest(qs, filters)


def game_list_mine(*, user: User, filters: HistoryFilters | None = None) -> QuerySet[Game]:
    """Games ``user`` played in as a person, or with one of their bots, or hosted."""
    qs = Game.objects.filter(
        contains("user_id", user.pk) | contains("bot_owner_id", user.pk) | Q(table__owner=user),
        status__in=(*_LISTED, Game.Status.ABORTED),
    )
    return _newest(qs, filters)


def game_list_bot(
    *, bot_id: int, user: User | None, filters: HistoryFilters | None = None
) -> QuerySet[Game]:
    """Games a bot played: those of public tables, and every one for the bot's owner."""
    qs = Game.objects.filter(contains("bot_id", bot_id), status__in=_LISTED)
    owner = user is not None and user.is_authenticated and record_bot_owner_id(bot_id) == user.pk
    if not owner:
        qs = qs.filter(table__visibility=Table.Visibility.PUBLIC)
    return _newest(qs, filters)


def game_list_player(
    *, user: User, public_only: bool, filters: HistoryFilters | None = None
) -> QuerySet[Game]:
    """Games ``user`` played as a person (only public tables' unless ``public_only`` is False)."""
    qs = Game.objects.filter(contains("user_id", user.pk), status__in=_LISTED)
    if public_only:
        qs = qs.filter(table__visibility=Table.Visibility.PUBLIC)
    return _newest(qs, filters)


def game_list_table(*, table: Table) -> QuerySet[Game]:
    """A table session's games in order."""
    return Game.objects.filter(table=table).select_related("table").order_by("number")


def bot_get(*, bot_id: int) -> Any:
    """The bot row (name, owner) or None."""
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    bot_model: Any = version_model._meta.get_field("bot").related_model
    return bot_model.objects.select_related("owner").filter(pk=bot_id).first()


def paginate(qs: QuerySet[Game], page: Any) -> Page[Game]:
    """One page of a history list (bad or out-of-range page numbers give the nearest page)."""
    return Paginator(qs, PAGE_SIZE).get_page(page)


def game_rows(games: Iterable[Game]) -> list[JSON]:
    """List rows: the game, its players' names, winner name and status."""
    rows = []
    for game in games:
        players = players_of(game)
        winner = game.winner_seat
        rows.append(
            {
                "game": game,
                "players": [p["name"] for p in players],
                "abandoned": [p["name"] for p in players if p.get("absent")],
                "winner": players[winner]["name"]
                if isinstance(winner, int) and winner < len(players)
                else None,
            }
        )
    return rows


def game_get(*, code: str, number: int) -> Game | None:
    """Game ``number`` of the table with link code ``code`` (the code is the share secret of a
    private table, as for the live table page)."""
    return Game.objects.select_related("table").filter(table__code=code, number=number).first()


def game_summary(game: Game) -> JSON:
    """Rounds and moves of a game (from the archive's summary when there is one)."""
    log = game.game_log
    if is_archive(log):
        assert isinstance(log, dict)
        summary = log.get("summary") or {}
        return {"rounds": summary.get("rounds"), "actions": summary.get("actions")}
    return {"rounds": game.total_rounds, "actions": game.version}


def session_context(*, table: Table) -> JSON:
    """A table session's length, games played, totals by seat name and whether it is over."""
    session = table.session if isinstance(table.session, dict) else {}
    last = Game.objects.filter(table=table).order_by("-number").first()
    names = [str(p["name"]) for p in players_of(last)] if last is not None else []
    totals = list(session.get("totals") or [])
    return {
        "games": int(session.get("games") or table.options.get("session_length", 16)),
        "played": Game.objects.filter(
            table=table, status=Game.Status.FINISHED, number__gte=table.session_first_game
        ).count(),
        "totals": [
            {"name": names[i] if i < len(names) else f"Seat {i + 1}", "points": t}
            for i, t in enumerate(totals)
        ],
        "finished": bool(session.get("finished")),
    }
