"""Pages of the bots app."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from bots.selectors import bot_list as select_bot_list


@login_required
def bot_list(request: HttpRequest) -> HttpResponse:
    """My Bots: the user's bot slots. The editor arrives with the bot issue."""
    assert isinstance(request.user, User)
    return render(request, "bots/bot_list.html", {"bots": select_bot_list(owner=request.user)})
