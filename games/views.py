"""Pages of the games app: home, how to play, and the table pages."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors import game_list_recent, table_list_public

HOME_LIST_LIMIT = 10


def home(request: HttpRequest) -> HttpResponse:
    context = {
        "public_tables": table_list_public(limit=HOME_LIST_LIMIT),
        "recent_games": game_list_recent(limit=HOME_LIST_LIMIT),
    }
    return render(request, "home.html", context)


def how_to_play(request: HttpRequest) -> HttpResponse:
    return render(request, "how_to_play.html")


@login_required
def table_create(request: HttpRequest) -> HttpResponse:
    """Placeholder until the table lobby issue lands."""
    return render(request, "games/table_create.html")
