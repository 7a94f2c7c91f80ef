"""Pages and JSON endpoints of game history: lists, a game's page, the replay viewer, export and
import, statistics. Thin: :mod:`games.history` computes everything (docs/history.md)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import formats
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.throttling import SimpleRateThrottle

from games import history
from games.display import game_settings, player_name
from games.engine.registry import GAMES
from games.history.bot_lab import lab_available
from games.models import Game, Table

ERROR_STATUS = {
    "forbidden_perspective": 403,
    "bad_seat": 400,
    "deal_in_play": 409,
    "hands_need_finished": 409,
}


def _all_hands(request: HttpRequest) -> bool:
    """``?hands=all``: every hand at every step (a finished game whose deal is over)."""
    return request.GET.get("hands") == "all"


#: The import's errors (``history.game_import``, the throttle) as sentences for people; the code
#: stays on the page as the message's ``data-code``.
IMPORT_ERRORS = {
    "throttled": gettext_noop("Too many imports in a row: wait a minute, then try again."),
    "too_large": gettext_noop("That file is too large: an export has at most %(bytes)s bytes."),
    "too_long": gettext_noop("That game is too long: an export has at most %(actions)s moves."),
    "bad_export": gettext_noop(
        "That is not a game export of this site: open the JSON file a game's Export button "
        "saves, unchanged."
    ),
    "not_finished": gettext_noop("That export has neither a deal to replay nor recorded turns."),
    "unknown_game": gettext_noop("That export is of a game this site does not have."),
    "unknown_rules_version": gettext_noop(
        "That export was played under rules this site no longer has."
    ),
    "tampered": gettext_noop(
        "That export was changed after this site made it, so it cannot be trusted and is not shown."
    ),
    "illegal_action": gettext_noop(
        "A move in that export breaks the rules, so the game cannot be replayed."
    ),
    "incomplete": gettext_noop("The moves in that export stop before the game ends."),
    "result_mismatch": gettext_noop("The result in that export is not the one its moves give."),
}


def import_error_text(code: str) -> str:
    """The sentence for import error ``code`` in the active language (a general one for a
    code without its own).

    >>> import_error_text("tampered").startswith("That export was changed")
    True
    """
    message = IMPORT_ERRORS.get(code)
    if message is None:
        return _("That file could not be opened as a game.")
    numbers = {
        "bytes": formats.number_format(history.MAX_IMPORT_BYTES, force_grouping=True),
        "actions": formats.number_format(history.MAX_IMPORT_ACTIONS, force_grouping=True),
    }
    return _(message) % numbers if "%(" in message else _(message)


MAX_UPLOAD_BYTES = history.MAX_IMPORT_BYTES


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value) if value else None
    except ValueError:
        return None


def _filters(request: HttpRequest) -> history.HistoryFilters:
    bot = request.GET.get("bot", "")
    game = request.GET.get("game", "")
    return history.HistoryFilters(
        game=game if game in GAMES else "",
        player=request.GET.get("player", "")[:80],
        bot=int(bot) if bot.isdigit() else None,
        date_from=_date(request.GET.get("from")),
        date_to=_date(request.GET.get("to")),
    )


def _list_page(
    request: HttpRequest, qs: Any, *, title: str, filters: history.HistoryFilters, **extra: Any
) -> HttpResponse:
    page = history.paginate(qs, request.GET.get("page"))
    context = {
        "title": title,
        "page": page,
        "rows": history.game_rows(page.object_list),
        "filters": filters,
        "query": urlencode(filters.query()),
        "game_names": sorted(GAMES),
        **extra,
    }
    return render(request, "games/history/list.html", context)


@require_GET
def history_public(request: HttpRequest) -> HttpResponse:
    """Recent games of public tables, with filters."""
    filters = _filters(request)
    return _list_page(
        request, history.game_list_public(filters=filters), title=_("Recent games"), filters=filters
    )


@login_required
@require_GET
def history_mine(request: HttpRequest) -> HttpResponse:
    """The games I played, hosted, or one of my bots played."""
    filters = _filters(request)
    qs = history.game_list_mine(user=request.user, filters=filters)  # type: ignore[arg-type]
    stats_url = reverse("tables:history_player", args=[request.user.pk])
    return _list_page(request, qs, title=_("My games"), filters=filters, stats_url=stats_url)


@require_GET
def history_bot(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A bot's games and statistics (public tables; all of them for its owner)."""
    bot = history.bot_get(bot_id=bot_id)
    if bot is None:
        raise Http404
    filters = _filters(request)
    user = _user(request)
    stats = history.bot_stats(bot_id=bot_id, user=user, game=filters.game)
    return _list_page(
        request,
        history.game_list_bot(bot_id=bot_id, user=user, filters=filters),
        title=_("%(name)s: games") % {"name": bot.name},
        filters=filters,
        stats=stats,
        chart=history.points_chart(stats),
        subject=bot.name,
        bot=bot,
    )


@require_GET
def history_player(request: HttpRequest, user_id: int) -> HttpResponse:
    """A player's statistics (public tables' games; all of them on your own page)."""
    player = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    user = _user(request)
    own = user is not None and user.pk == player.pk
    filters = _filters(request)
    stats = history.player_stats(user=player, game=filters.game, public_only=not own)
    qs = history.game_list_player(user=player, public_only=not own, filters=filters)
    name = str(getattr(player, "public_name", player.get_username()))
    return _list_page(
        request,
        qs,
        title=_("%(name)s: games") % {"name": name},
        filters=filters,
        stats=stats,
        chart=history.points_chart(stats),
        subject=name,
    )


@require_GET
def history_table(request: HttpRequest, code: str) -> HttpResponse:
    """A table session: its games in order with totals."""
    table = get_object_or_404(Table, code=code)
    games = list(history.game_list_table(table=table))
    context = {
        "table": table,
        "rows": history.game_rows(games),
        "session": history.session_context(table=table),
    }
    return render(request, "games/history/table.html", context)


def _game(code: str, number: int) -> Game:
    game = history.game_get(code=code, number=number)
    if game is None:
        raise Http404
    return game


@require_GET
def game_detail(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A game's page: players, options, rules version, result, transfers, session context."""
    game = _game(code, number)
    meta = history.game_meta(game)
    share = request.build_absolute_uri(reverse("tables:game", args=[code, number]))
    context = {
        "game": game,
        "meta": meta,
        "players": history.game_players(game),
        "transfers": history.transfers_named(meta),
        "share_url": share,
        "result_text": history.result_text(meta, url=share),
        "summary": history.game_summary(game),
        "settings": game_settings(meta.get("engine"), meta.get("options")),
    }
    return render(request, "games/history/game.html", context)


def _seat_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("seat", "")
    if raw in ("", "spectator"):
        return None
    try:
        return int(raw)
    except ValueError:
        raise history.HistoryError("bad_seat", "seat must be a number") from None


def _error(exc: history.HistoryError) -> JsonResponse:
    return JsonResponse(
        {"error": exc.code, "detail": exc.detail}, status=ERROR_STATUS.get(exc.code, 400)
    )


def _translate(game: Game, data: dict[str, Any]) -> None:
    """The replay's seat names and move texts in the reader's language (exports keep the
    English ones): a house AI's "AI Tùng (medium)" reads "AI Tùng (vừa)" in Vietnamese."""
    engine = history.engine_of(game.engine, game.rules_version)
    data["names"] = [player_name(n) if isinstance(n, str) else n for n in data["names"]]
    history.translate_steps(data["steps"], data["names"], engine)


@require_GET
def game_replay(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The replay viewer; the first perspective is the caller's own seat if they played."""
    game = _game(code, number)
    user = _user(request)
    try:
        seat = _seat_param(request) if "seat" in request.GET else None
        if "seat" not in request.GET:
            mine = history.viewer_seats(game, user)
            seat = mine[0] if mine else None
        data = history.game_replay(game=game, user=user, seat=seat, all_hands=_all_hands(request))
    except history.HistoryError as exc:
        if exc.code not in ERROR_STATUS or exc.code == "deal_in_play":  # say so plainly
            return render(
                request, "games/history/error.html", {"error": exc, "game": game}, status=409
            )
        data = history.game_replay(game=game, user=user, seat=None)
    _translate(game, data)
    context = {
        "game": game,
        "data": data,
        "json_url": reverse("tables:replay_json", args=[code, number]),
        "all_hands": _all_hands(request),
        "detail_url": reverse("tables:game", args=[code, number]),
        # the Replay lab (docs/history.md): only for the owner of a bot seat of a finished game
        "lab_url": reverse("api:game-bot-moves", args=[game.pk])
        if lab_available(game=game, user=user)
        else "",
    }
    return render(request, "games/history/replay.html", context)


@require_GET
def game_replay_json(request: HttpRequest, code: str, number: int) -> JsonResponse:
    """``GET …/replay.json?seat=<n>``: the steps from a seat's perspective (or a spectator's)."""
    game = _game(code, number)
    try:
        data = history.game_replay(
            game=game, user=_user(request), seat=_seat_param(request), all_hands=_all_hands(request)
        )
    except history.HistoryError as exc:
        return _error(exc)
    _translate(game, data)
    return JsonResponse(data)


@require_GET
def game_export(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """``GET …/export.json``: the game as a downloadable JSON file. A stud hand history adds
    the caller's own seat's cards (:func:`history.game_export`), so the caller matters."""
    game = _game(code, number)
    try:
        data = history.game_export(game=game, user=_user(request))
    except history.HistoryError as exc:  # e.g. unknown_rules_version: no replay, no export
        return JsonResponse({"error": exc.code, "detail": exc.detail}, status=409)
    response = HttpResponse(
        json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{code}-game-{number}.json"'
    patch_cache_control(response, private=True)  # a hand history holds the caller's own cards
    return response


class ImportRateThrottle(SimpleRateThrottle):
    """Imports per signed-in user (each replays a whole game and renders every step): the rate
    is the setting ``GAMES_IMPORT_RATE`` (default ``"30/hour"``), read on each request. The
    counters live in the cache, like the REST API's throttles."""

    scope = "history_import"

    def get_rate(self) -> str | None:
        return str(settings.GAMES_IMPORT_RATE)

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": str(request.user.pk)}


def _import_context(error: history.HistoryError | None) -> dict[str, Any]:
    return {"error": error, "error_text": import_error_text(error.code) if error else ""}


@login_required
@require_http_methods(["GET", "POST"])
def game_import(request: HttpRequest) -> HttpResponse:
    """Upload (or paste) an export; a valid one opens in the replay viewer. Signed-in users
    only, throttled (:class:`ImportRateThrottle`: 429 beyond the rate); at most
    ``history.MAX_IMPORT_BYTES`` bytes and ``history.MAX_IMPORT_ACTIONS`` actions."""
    error: history.HistoryError | None = None
    if request.method == "POST":
        throttle = ImportRateThrottle()
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]
            wait = throttle.wait()
            error = history.HistoryError(
                "throttled", f"too many imports: try again in {int(wait or 60)} seconds"
            )
            response = render(
                request, "games/history/import.html", _import_context(error), status=429
            )
            response["Retry-After"] = str(int(wait or 60))
            return response
        upload = request.FILES.get("file")
        raw: bytes | str
        if upload is not None:
            raw = upload.read(MAX_UPLOAD_BYTES + 1)
        else:
            raw = request.POST.get("text", "")
        try:
            data = history.game_import(data=raw)
        except history.HistoryError as exc:
            error = exc
        else:
            context = {"game": None, "data": data, "json_url": "", "detail_url": ""}
            return render(request, "games/history/replay.html", context)
    status = 400 if error is not None else 200
    return render(request, "games/history/import.html", _import_context(error), status=status)
