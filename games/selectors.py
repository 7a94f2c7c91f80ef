"""Read-side queries of the games app. Views, API and other apps read tables and games here."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q, QuerySet
from django.urls import reverse

from games import deals, realtime
from games.engine.registry import DEFAULT_GAME, find_game
from games.models import (
    SPECTATOR_HANDS_LIVE,
    Action,
    ChatMessage,
    Game,
    Mode,
    Seat,
    Table,
    is_rated,
    spectator_hands_live,
)

if TYPE_CHECKING:
    from accounts.models import User

Frame = dict[str, Any]
OPEN_STATUSES = (Table.Status.WAITING, Table.Status.READY, Table.Status.IN_PROGRESS)


def table_list_public(*, limit: int | None = None) -> QuerySet[Table]:
    """Public tables that are not finished, newest first, with their filled-seat count. The bot
    ladder's tables are left out: they run all day (the ladder's page lists their games)."""
    qs = (
        Table.objects.filter(visibility=Table.Visibility.PUBLIC, status__in=OPEN_STATUSES)
        .exclude(options__mode=Mode.LADDER.value)
        .select_related("owner")
        .annotate(filled_seats=Count("seats", filter=~Q(seats__kind=Seat.Kind.EMPTY)))
        .order_by("-created_at")
    )
    return qs[:limit] if limit is not None else qs


def table_list_for_user(*, user: User, limit: int | None = None) -> QuerySet[Table]:
    """Tables the user hosts or sits at, newest first."""
    qs = (
        Table.objects.filter(Q(owner=user) | Q(seats__user=user))
        .distinct()
        .select_related("owner")
        .order_by("-created_at")
    )
    return qs[:limit] if limit is not None else qs


def game_list_recent(*, limit: int = 10) -> QuerySet[Game]:
    """Finished games of public tables, most recently ended first (not the bot ladder's)."""
    return (
        Game.objects.filter(status=Game.Status.FINISHED, table__visibility=Table.Visibility.PUBLIC)
        .exclude(table__options__mode=Mode.LADDER.value)
        .select_related("table")
        .order_by("-ended_at")[:limit]
    )


def game_list_for_user(*, user: User, limit: int | None = None) -> QuerySet[Game]:
    """Games played at tables the user hosted or sat at, newest first."""
    qs = (
        Game.objects.filter(Q(table__owner=user) | Q(table__seats__user=user))
        .distinct()
        .select_related("table")
        .order_by("-started_at")
    )
    return qs[:limit] if limit is not None else qs


#: How many of a user's latest games "recent opponents" looks through, and how many it lists.
OPPONENT_GAMES = 30
OPPONENT_LIMIT = 8


def opponents_recent(
    *, user: User, games: int = OPPONENT_GAMES, limit: int = OPPONENT_LIMIT
) -> list[User]:
    """People (not bots) who sat at a game with ``user`` in their last ``games`` games, most
    recent first, each once, at most ``limit`` (the profile's "Recent opponents")."""
    from django.contrib.auth import get_user_model

    order: list[int] = []
    # Game.players keeps who sat when each game was dealt (seats change hands afterwards)
    played = Game.objects.filter(players__contains=[{"user_id": user.pk}]).order_by("-started_at")
    for players in played.values_list("players", flat=True)[:games]:
        ids = [p.get("user_id") for p in players or () if isinstance(p, dict)]
        for pk in ids:
            if isinstance(pk, int) and pk != user.pk and pk not in order:
                order.append(pk)
    order = order[:limit]
    found = get_user_model().objects.in_bulk(order)
    return [found[pk] for pk in order if pk in found]


# --------------------------------------------------------------------------- live tables
CHAT_HISTORY = 50


def table_get_by_code(*, code: str) -> Table | None:
    """The table behind a link code (``/t/<code>/``, ``/ws/tables/<code>/``), or None."""
    return Table.objects.filter(code=code).first()


def _chat_lines(*, table_id: int | None, room: str, limit: int = CHAT_HISTORY) -> list[Frame]:
    qs = ChatMessage.objects.filter(room=room).select_related("author")
    qs = qs.filter(table__isnull=True) if table_id is None else qs.filter(table_id=table_id)
    lines = list(qs.order_by("-created_at", "-pk")[:limit])
    lines.reverse()
    return [
        realtime.message_json(m, m.author.public_name if m.author is not None else None)
        for m in lines
    ]


def lobby_chat_history(*, limit: int = CHAT_HISTORY) -> list[Frame]:
    """The last lobby chat lines, oldest first, as protocol ``message`` objects."""
    return _chat_lines(table_id=None, room=ChatMessage.Room.LOBBY, limit=limit)


def table_seat_of(*, table_id: int, user: User | None) -> int | None:
    """The seat index where ``user`` sits at the table, or None."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Seat.objects.filter(table_id=table_id, kind=Seat.Kind.HUMAN, user=user)
        .values_list("index", flat=True)
        .first()
    )


def table_snapshot(*, table_id: int, user: User | None) -> Frame:
    """The ``snapshot`` frame for ``user`` (None/anonymous: a spectator): lobby state, the
    caller's own view of the current game, their pending turn, the session and chat."""
    table = Table.objects.get(pk=table_id)
    seats = list(
        Seat.objects.filter(table_id=table_id)
        .select_related("user", "bot_version__bot")
        .order_by("index")
    )
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    authed = user is not None and user.is_authenticated
    mine = next(
        (
            s
            for s in seats
            if authed and s.kind == Seat.Kind.HUMAN and user and s.user_id == user.pk
        ),
        None,
    )
    seat = mine.index if mine is not None else None
    engine = find_game(table.game)
    game_json: Frame | None = None
    your_turn: Frame | None = None
    access = deals.SPECTATOR_FULL
    if game is not None:
        state = engine.state_from_json(game.state)
        game_json = {
            "number": game.number,
            "position": game.position,
            "games": table.games_total,
            "version": game.version,
            "status": game.status,
            "state": engine.view(state, seat),
        }
        if seat is None:  # a spectator: deal secrecy (docs/history.md "Live spectators")
            game.table = table
            access = deals.spectator_access(game)
            over = game.status != Game.Status.RUNNING
            if access == deals.SPECTATOR_HIDDEN or (access == deals.SPECTATOR_NO_REVEAL and over):
                game_json.update(state=None, hidden=deals.DEAL_IN_PLAY)
        if (
            seat is not None
            and game.status == Game.Status.RUNNING
            and seat in engine.round_status(state).pending
        ):
            your_turn = realtime.your_turn_frame(engine, game, state, seat)
    rooms = {"table": _chat_lines(table_id=table_id, room=ChatMessage.Room.TABLE)}
    if game_json is not None and game_json.get("hidden"):  # no line naming cards or a hand
        rooms["table"] = [
            m
            for m in rooms["table"]
            if not (m["system"] and deals.line_shows_cards(m.get("params")))
        ]
    if seat is None:
        rooms["spectators"] = _chat_lines(table_id=table_id, room=ChatMessage.Room.SPECTATORS)
    return {
        "type": "snapshot",
        "table": realtime.table_json(table, seats, game.number if game else None),
        "seats": [realtime.seat_json(s, table.owner_id) for s in seats],
        "you": {
            "role": "player" if seat is not None else "spectator",
            "seat": seat,
            "is_host": authed and user is not None and user.pk == table.owner_id,
            "user_id": user.pk if authed and user is not None else None,
            "name": user.public_name if authed and user is not None else None,
        },
        "game": game_json,
        "your_turn": your_turn,
        "session": realtime.session_json(table.session, engine, games=table.games_total)
        if table.session
        else None,
        "rematch": realtime.rematch_json(table),
        "chat": rooms,
        "server_time": time.time(),
    }


class HandsRefused(ValueError):
    """A spectator's ``show_hands`` refused: ``code`` ``not_spectator`` (a seated player) or
    ``hands_not_shown`` (the host keeps ``spectator_hands: never``)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


#: How many of a rated table's latest finished games the one-game-behind view looks through
#: for one whose deal is over everywhere.
BEHIND_LOOKBACK = 3


def spectator_hands(*, table_id: int, user: User | None) -> Frame:
    """A spectator asks to see every hand (docs/protocol.md "Watching with hands shown"): the
    ``show_hands`` answer. At a casual table whose host chose ``spectator_hands: live``:
    ``mode`` ``live`` and ``hands``, the current game's ``all_hands`` frame (or null). At a
    rated table (:func:`games.models.is_rated`) never live: ``mode`` ``behind``, ``game`` the
    latest finished game whose deal is over everywhere (``games.deals.deal_is_open``; null if
    none yet), ``playing`` the game in play (null between games) and ``replay_url`` that
    game's replay. Raises
    :class:`HandsRefused` otherwise."""
    from django.urls import reverse

    if table_seat_of(table_id=table_id, user=user) is not None:
        raise HandsRefused("not_spectator", "players see their own hand only")
    table = Table.objects.get(pk=table_id)
    latest = Game.objects.filter(table_id=table_id).order_by("-number").first()
    if is_rated(table):
        behind: Game | None = None
        finished = Game.objects.filter(table_id=table_id, status=Game.Status.FINISHED)
        for game in finished.select_related("table").order_by("-number")[:BEHIND_LOOKBACK]:
            if not deals.deal_is_open(game):
                behind = game
                break
        return {
            "type": "show_hands",
            "on": True,
            "mode": "behind",
            "game": behind.number if behind is not None else None,
            "playing": latest.number
            if latest is not None and latest.status == Game.Status.RUNNING
            else None,
            "replay_url": reverse("tables:replay", args=[table.code, behind.number])
            + "?seat=spectator&hands=all"
            if behind is not None
            else None,
        }
    if not spectator_hands_live(table):
        raise HandsRefused("hands_not_shown", "the host does not show the hands to spectators")
    hands = None
    if latest is not None:
        latest.table = table
        if deals.spectator_access(latest) == deals.SPECTATOR_FULL:
            engine = find_game(latest.engine)
            state = engine.state_from_json(latest.state)
            hands = realtime.all_hands_frame(engine, latest, state, table.seat_count)
    return {"type": "show_hands", "on": True, "mode": SPECTATOR_HANDS_LIVE, "hands": hands}


def game_suggestion(*, table_id: int, user: User | None) -> Frame:
    """The house AI's suggestion for the caller's pending turn (nothing is played)."""
    seat = table_seat_of(table_id=table_id, user=user)
    if seat is None:
        raise ValueError("not_seated")
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    if game is None or game.status != Game.Status.RUNNING:
        raise ValueError("no_game")
    engine = find_game(game.engine)
    state = engine.state_from_json(game.state)
    action = dict(engine.suggest(state, seat))
    action.pop("seat", None)
    return {"type": "suggestion", "version": game.version, "action": action}


def hand_arranged(*, table_id: int, user: User | None, mode: str) -> Frame:
    """The caller's own hand re-ordered by rank or grouped into combinations."""
    seat = table_seat_of(table_id=table_id, user=user)
    if seat is None:
        raise ValueError("not_seated")
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    if game is None:
        raise ValueError("no_game")
    engine = find_game(game.engine)
    hand = engine.view(engine.state_from_json(game.state), seat).get("hand") or []
    return {"type": "arranged", "cards": list(engine.arrange(hand, mode))}


def game_actions(*, game: Game) -> list[dict[str, Any]]:
    """The accepted actions of a game in order (what ``engine.replay`` takes)."""
    return [
        dict(a)
        for a in Action.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)
    ]


# --------------------------------------------------------------------------- finished-game results
# Read by other apps (bots.ratings.ratings_record_game) after a game ends.


@dataclass(frozen=True)
class FinishedSeat:
    """Who held a seat of a finished game: ``kind`` is a ``Seat.Kind`` value."""

    index: int
    kind: str
    bot_version_id: int | None
    house_level: str | None = None


@dataclass(frozen=True)
class FinishedGame:
    """The outcome of a finished game: the engine's ``ranking`` (seat indices, best first)."""

    id: int
    table_id: int
    mode: str
    ended_at: datetime
    winner_seat: int | None
    ranking: list[int]
    seats: list[FinishedSeat]
    game: str = DEFAULT_GAME


def game_finished_get(*, game_id: int) -> FinishedGame | None:
    """A finished game with its table mode, ranking and the seats' occupants, or None when the
    game does not exist or is not finished (running, aborted). Seats come from the occupants
    snapshot taken at the deal (``Game.players``); games dealt before snapshots read the table's
    seats (tables pin their occupants and bot versions for the whole session)."""
    game = (
        Game.objects.filter(pk=game_id, status=Game.Status.FINISHED)
        .select_related("table")
        .only(
            "pk",
            "table_id",
            "table__options",
            "table__game",
            "ended_at",
            "winner_seat",
            "result",
            "started_at",
            "players",
        )
        .first()
    )
    if game is None:
        return None
    result = game.result if isinstance(game.result, dict) else {}
    ranking = [s for s in result.get("ranking") or [] if isinstance(s, int)]
    players = game.players if isinstance(game.players, list) else []
    if players and all(isinstance(p, dict) and "seat" in p for p in players):
        seats = [
            FinishedSeat(
                index=int(p["seat"]),
                kind=str(p.get("kind")),
                bot_version_id=p.get("bot_version_id"),
                house_level=p.get("house_level"),
            )
            for p in players
        ]
    else:
        seats = [
            FinishedSeat(index=index, kind=kind, bot_version_id=version_id, house_level=level)
            for index, kind, version_id, level in Seat.objects.filter(table_id=game.table_id)
            .order_by("index")
            .values_list("index", "kind", "bot_version_id", "house_level")
        ]
    return FinishedGame(
        id=game.pk,
        table_id=game.table_id,
        mode=game.table.mode,
        ended_at=game.ended_at or game.started_at,
        winner_seat=game.winner_seat,
        ranking=ranking,
        seats=seats,
        game=game.table.game,
    )


#: The games with a How to Play page, in the order the pages list them: the page's template.
RULES_PAGES = {
    "tienlen": "how_to_play.html",
    "stud": "how_to_play_stud.html",
    "diu": "how_to_play_diu.html",
}


def rules_page_url(game: str | None) -> str | None:
    """The How to Play page of ``game``: Tiến Lên's at ``/how-to-play/``, the others' at
    ``/how-to-play/<game>/``; None for a game without one."""
    if game not in RULES_PAGES:
        return None
    if game == DEFAULT_GAME:
        return reverse("how_to_play")
    return reverse("how_to_play_game", args=[game])
