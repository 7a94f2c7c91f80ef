"""My Bots pages of external bots: create one, see how to connect, make or revoke its token.

The token is shown once, on the page that answers the POST that made it (never stored in the
clear, never in a URL)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from bots.external.services import external_bot_create, external_disconnect_all, move_timeout
from bots.external.tokens import token_issue, token_revoke
from bots.forms import BotCreateForm
from bots.models import Bot, external_games_limit
from games.throttles import creation_limited


def _owner(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # login_required runs first
    return user


def _own_external(request: HttpRequest, bot_id: int) -> Bot:
    return get_object_or_404(Bot, pk=bot_id, owner=_owner(request), kind=Bot.Kind.EXTERNAL)


def _page(
    request: HttpRequest, bot: Bot, token: str | None = None, status: int = 200
) -> HttpResponse:
    ws = request.build_absolute_uri("/ws/bot/").replace("http", "ws", 1)
    return render(
        request,
        "bots/external.html",
        {
            "bot": bot,
            "token": token,
            "ws_url": ws,
            "stream_url": request.build_absolute_uri(reverse("api:bot_api:stream")),
            "move_seconds": move_timeout(),
            "games_limit": external_games_limit(),
        },
        status=status,
    )


@login_required
@require_POST
@creation_limited("bots")
def external_create(request: HttpRequest) -> HttpResponse:
    """Create an external bot and show its first token (once)."""
    owner = _owner(request)
    form = BotCreateForm(request.POST, owner=owner)
    if form.is_valid():
        try:
            bot = external_bot_create(
                owner=owner,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                game=form.cleaned_data["game"],
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return redirect("bots:list")
        messages.success(request, _("Bot “%(name)s” created.") % {"name": bot.name})
        return _page(request, bot, token_issue(bot=bot))
    for errors in form.errors.values():
        messages.error(request, " ".join(str(e) for e in errors))
    return redirect("bots:list")


@login_required
@require_GET
def external_detail(request: HttpRequest, bot_id: int) -> HttpResponse:
    return _page(request, _own_external(request, bot_id))


@login_required
@require_POST
def external_token(request: HttpRequest, bot_id: int) -> HttpResponse:
    """``action=regenerate``: a new token (shown once; the old one stops working and its open
    connections close); ``action=revoke``: no token until a new one is made."""
    bot = _own_external(request, bot_id)
    action = request.POST.get("action")
    if action == "regenerate":
        token = token_issue(bot=bot)
        external_disconnect_all(bot_id=bot.pk)
        return _page(request, bot, token)
    if action == "revoke":
        token_revoke(bot=bot)
        external_disconnect_all(bot_id=bot.pk)
        messages.success(request, _("The token was revoked."))
        return redirect("bots:external", bot_id=bot.pk)
    return _page(request, bot, status=400)
