"""Account pages: sign up, profile, API token. Login, logout and password change are
Django's own views wired in ``accounts/urls.py`` with our templates."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import SignUpForm
from accounts.models import User
from accounts.services import token_get_or_create, token_regenerate
from accounts.throttle import SIGNUP, throttle
from bots.selectors import bot_list
from games.selectors import game_list_for_user, opponents_recent, table_list_for_user

PROFILE_LIST_LIMIT = 20


@require_http_methods(["GET", "POST"])
@throttle(SIGNUP)
def signup(request: HttpRequest) -> HttpResponse:
    # where to go afterwards (an invite link sends people here through the login page)
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "accounts:profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.public_name}
        )
        return redirect(next_url or "accounts:profile")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


def _current_user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # guaranteed by @login_required
    return user


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    user = _current_user(request)
    context = {
        "profile_user": user,
        "tables": table_list_for_user(user=user, limit=PROFILE_LIST_LIMIT),
        "games": game_list_for_user(user=user, limit=PROFILE_LIST_LIMIT),
        "bots": bot_list(owner=user)[:PROFILE_LIST_LIMIT],
        "opponents": opponents_recent(user=user),
    }
    return render(request, "accounts/profile.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    user = _current_user(request)
    if request.method == "POST":
        token_regenerate(user=user)
        messages.success(request, _("A new token was issued. The old one no longer works."))
        return redirect("accounts:token")
    return render(request, "accounts/token.html", {"token": token_get_or_create(user=user)})
