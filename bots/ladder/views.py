"""The ladder's pages: each ladder (public), in both languages."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from bots.ladder.selectors import get_ladder, ladder_lines, suspension_reason
from bots.ladder.services import POLICY, ladders
from bots.models import game_title


@require_GET
def ladder_index(request: HttpRequest) -> HttpResponse:
    """The first ladder's page (404 while no ladder runs)."""
    found = ladders()
    if not found:
        raise Http404("No ladder runs.")
    return redirect("bots:ladder", game=found[0].game, seats=found[0].seats)


@require_GET
def ladder_page(request: HttpRequest, game: str, seats: int) -> HttpResponse:
    """One ladder: rank range, entrant, skill ± its 95% interval, games, state, recent sets."""
    ladder = get_ladder(game, seats)
    if ladder is None:
        raise Http404("No such ladder.")
    lines = ladder_lines(ladder)
    viewer = request.user.pk if request.user.is_authenticated else None
    for line in lines:  # the reason of a suspension is its owner's to read
        if viewer is not None and line.owner_id == viewer:
            line.note = suspension_reason(line)
    context = {
        "ladder": ladder,
        "title": game_title(ladder.game),
        "lines": lines,
        "ladders": [(lad, game_title(lad.game)) for lad in ladders()],
        "policy": POLICY,
    }
    return render(request, "bots/ladder.html", context)
