"""Pages of quick play and people's ratings (docs/quickplay.md): join/leave (forms that post,
then the waiting page), the waiting page, the people's leaderboard and a player's page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import skill
from games.charts import line_chart
from games.display import game_label
from games.engine.registry import DEFAULT_GAME, GAMES
from games.quickplay import selectors, services

#: People per page of the leaderboard.
PAGE_SIZE = 50


def client_address(request: HttpRequest) -> str:
    """The address fair seating records: ``REMOTE_ADDR`` (a trusted proxy's client address,
    config/proxy.py)."""
    return str(request.META.get("REMOTE_ADDR") or "")


@login_required
@require_POST
def join(request: HttpRequest) -> HttpResponse:
    game = request.POST.get("game", "")
    try:
        seats = int(request.POST.get("seats", ""))
    except ValueError:
        seats = 0
    try:
        services.pool_join(
            user=request.user,  # type: ignore[arg-type]
            game=game,
            seats=seats,
            address=client_address(request),
        )
    except services.QuickPlayError as exc:
        if exc.code == "already_playing":
            status = services.pool_status(user=request.user)
            if status.get("url"):
                return redirect(status["url"])
        if exc.code != "already_waiting":
            messages.error(request, exc.detail)
            return redirect("home")
    return redirect("quickplay:wait")


@login_required
@require_POST
def leave(request: HttpRequest) -> HttpResponse:
    services.pool_leave(user=request.user)  # type: ignore[arg-type]
    return redirect("home")


@login_required
@require_GET
def wait(request: HttpRequest) -> HttpResponse:
    status = services.pool_status(user=request.user)
    if status["state"] == "seated":
        return redirect(status["url"])
    if status["state"] == "idle":
        return redirect("home")
    return render(
        request,
        "games/quickplay/wait.html",
        {"status": status, "game_name": game_label(status["game"])},
    )


def _game(request: HttpRequest) -> str:
    game = request.GET.get("game", DEFAULT_GAME)
    return game if game in GAMES else DEFAULT_GAME


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """People rated in one game (``?game=``), best first, 50 a page. Public."""
    game = _game(request)
    page = Paginator(selectors.people_leaderboard(game=game), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = [
        (
            page.start_index() + i,
            r,
            skill.display_rating(r.mu, r.sigma),
            *skill.skill_band(r.mu, r.sigma),
        )
        for i, r in enumerate(page.object_list)
    ]
    games = [(name, game_label(name)) for name in GAMES]
    return render(
        request,
        "games/quickplay/leaderboard.html",
        {"page": page, "rows": rows, "game": game, "games": games},
    )


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A person's public page: their rating ± 95% interval in each game and a chart of one
    game's rating history (``?game=``). Public; no hidden information."""
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    ratings = selectors.rating_rows(person)
    game = request.GET.get("game") or (ratings[0].game if ratings else DEFAULT_GAME)
    if game not in GAMES:
        raise Http404("no such game")
    events = selectors.rating_history(person, game)
    values = []
    labels = []
    if events:
        first = events[0]
        values.append(skill.display_rating(first.mu_before, first.sigma_before))
        labels.append(_("Start"))
    for e in events:
        values.append(skill.display_rating(e.mu_after, e.sigma_after))
        labels.append(
            _("%(date)s · place %(rank)s of %(of)s · %(rating)s")
            % {
                "date": date_format(timezone.localtime(e.created_at), "SHORT_DATETIME_FORMAT"),
                "rank": e.rank,
                "of": e.rated_players,
                "rating": values[-1],
            }
        )
    return render(
        request,
        "games/quickplay/player.html",
        {
            "person": person,
            "ratings": ratings,
            "game": game,
            "game_name": game_label(game),
            "chart": line_chart(values, labels) if len(values) > 1 else None,
            "rows": [(r, game_label(r.game)) for r in ratings],
        },
    )
