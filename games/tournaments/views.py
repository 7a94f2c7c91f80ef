"""Tournament pages: the list with the Create form, a tournament's page and its state
(``state.json``: the page's fallback while its socket is down; the live updates are pushed,
games/tournaments/live.py), and the entry forms' POST targets."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import extensions
from games.display import player_name
from games.forms import DEFAULT_HOUSE_LEVELS, game_title
from games.throttles import creation_limited
from games.tournaments import live, services
from games.tournaments.forms import TournamentCreateForm, TournamentEditForm
from games.tournaments.models import Entry, Tournament

LIST_LIMIT = 50


def _user(request: HttpRequest) -> Any:
    """The logged-in user (the views that call this are ``login_required``)."""
    return request.user


def _error_text(code: str) -> str:
    """The reader's-language message of a :class:`TournamentError` code."""
    texts = {
        "bad_state": _("Entries are closed: the tournament has started."),
        "not_invited": _("This tournament is by invitation: open the invitation link."),
        "already_entered": _("That entrant is in already."),
        "not_creator": _("Only the tournament's creator may do that."),
        "bad_level": _("Unknown house AI level."),
        "not_ready": _("That bot version is not ready."),
        "unknown_bot": _("No such bot version."),
        "same_program_twice": _(
            "That program is in already: another version of the bot, or another external "
            "bot of its owner, cannot enter the same tournament."
        ),
        "no_entry": _("No such entry."),
        "not_yours": _("That entry is not yours."),
        "not_editable": _("The tournament has started: it can no longer be edited."),
        "tournament_full": _("The tournament is full: at most %(n)s entrants.")
        % {"n": services.max_entrants()},
        "house_limit": _(
            "You already have %(n)s house AIs in tournaments that are not over: the most one "
            "person may add."
        )
        % {"n": services.house_per_user()},
        "expert_limit": _(
            "You already have %(n)s expert house AIs in tournaments that are not over: the "
            "most one person may add."
        )
        % {"n": services.expert_per_user()},
    }
    return texts.get(code, _("That did not work."))


@creation_limited("tournaments")
def tournament_list(request: HttpRequest) -> HttpResponse:
    form = TournamentCreateForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('accounts:login')}?next={request.path}")
        form = TournamentCreateForm(request.POST)
        if form.is_valid():
            try:
                t = services.tournament_create(creator=_user(request), **form.cleaned_data)
            except ValidationError as exc:
                for field, errors in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
            else:
                messages.success(request, _("Tournament created. Invite players with its link."))
                return redirect("tournaments:detail", pk=t.pk)
    visible = Q(visibility=Tournament.Visibility.PUBLIC)
    if request.user.is_authenticated:
        visible |= Q(creator=request.user) | Q(entries__user=_user(request))
    tournaments = Tournament.objects.filter(visible).distinct().order_by("-start_at")[:LIST_LIMIT]
    rows = [(t, game_title(t.game)) for t in tournaments]
    return render(request, "games/tournaments/list.html", {"form": form, "rows": rows})


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    t = get_object_or_404(Tournament.objects.select_related("creator"), pk=pk)
    code = request.GET.get("code") or request.POST.get("code")
    if not services.can_view(t, request.user, code):
        raise Http404
    return t


def state_json(t: Tournament, user: Any) -> dict[str, Any]:
    """What the tournament page shows, for ``user`` (their table of the round in play)."""
    return live.state_for(t, user)


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(request, pk)
    user = request.user
    labels = dict(DEFAULT_HOUSE_LEVELS)
    entries = list(t.entries.select_related("user", "bot_version__bot").order_by("id"))
    context = {
        "t": t,
        "game_title": game_title(t.game),
        "entries": [(e, player_name(services.entry_name(e))) for e in entries],
        "is_creator": user.is_authenticated and user.pk == t.creator_id,
        "entered": user.is_authenticated
        and any(e.kind == Entry.Kind.HUMAN and e.user_id == user.pk for e in entries),
        "bot_choices": extensions.bot_seat_choices(user, game=t.game)
        if user.is_authenticated
        else [],
        "house_levels": [
            (level, labels.get(level, level)) for level in services.house_levels_of(t.game)
        ],
        "code": request.GET.get("code", ""),
        "invite_url": request.build_absolute_uri(
            f"{reverse('tournaments:detail', args=[t.pk])}?code={t.invite_code}"
        ),
        "state": state_json(t, user),
    }
    return render(request, "games/tournaments/detail.html", context)


def tournament_state(request: HttpRequest, pk: int) -> JsonResponse:
    t = _tournament(request, pk)
    return JsonResponse(state_json(t, request.user))


def tournament_mine(request: HttpRequest) -> JsonResponse:
    """The logged-in person's tables that are ready now, in every tournament; empty for anyone
    else. The site-wide notification (static/js/tournament_notify.js) gets the same list pushed
    over its socket and reads this only while the socket is down."""
    tables = live.tables_of(request.user)
    return JsonResponse({"tables": tables})


def _back(t: Tournament, request: HttpRequest) -> HttpResponse:
    code = request.POST.get("code")
    url = reverse("tournaments:detail", args=[t.pk])
    return redirect(f"{url}?code={code}" if code else url)


def _run(request: HttpRequest, t: Tournament, action: Any, done: str) -> HttpResponse:
    try:
        action()
    except services.TournamentError as exc:
        messages.error(request, _error_text(exc.code))
    else:
        messages.success(request, done)
    return _back(t, request)


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator's Edit form, until the start; anyone else, or after the start: back to the
    tournament's page with the reason, nothing changed."""
    t = _tournament(request, pk)
    refusal = None
    if t.status != Tournament.Status.REGISTRATION:
        refusal = "not_editable"
    elif t.creator_id != request.user.pk:
        refusal = "not_creator"
    if refusal is not None:
        messages.error(request, _error_text(refusal))
        return redirect("tournaments:detail", pk=t.pk)
    form = TournamentEditForm.of(t)
    if request.method == "POST":
        form = TournamentEditForm(request.POST)
        if form.is_valid():
            try:
                services.tournament_update(
                    tournament_id=t.pk, user=_user(request), **form.cleaned_data
                )
            except services.TournamentError as exc:  # it started meanwhile
                messages.error(request, _error_text(exc.code))
                return redirect("tournaments:detail", pk=t.pk)
            except ValidationError as exc:
                for field, errors in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
            else:
                messages.success(request, _("Tournament updated."))
                return redirect("tournaments:detail", pk=t.pk)
    return render(request, "games/tournaments/edit.html", {"t": t, "form": form})


@login_required
@require_POST
def tournament_join(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(request, pk)
    code = request.POST.get("code")
    return _run(
        request,
        t,
        lambda: services.entry_join(tournament_id=t.pk, user=_user(request), code=code),
        _("You are in. Your table opens when a round starts."),
    )


@login_required
@require_POST
def tournament_add_bot(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(request, pk)
    # a version id: "bot:<id>" (the form), "version:<id>" (the match API's spelling) or "<id>"
    raw = str(request.POST.get("bot", "")).removeprefix("bot:").removeprefix("version:")
    if not raw.isdigit():
        messages.error(request, _error_text("unknown_bot"))
        return _back(t, request)
    return _run(
        request,
        t,
        lambda: services.entry_add_bot(
            tournament_id=t.pk,
            user=_user(request),
            bot_version_id=int(raw),
            code=request.POST.get("code"),
        ),
        _("Your bot is in."),
    )


@login_required
@require_POST
def tournament_add_house(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(request, pk)
    level = str(request.POST.get("level", ""))
    return _run(
        request,
        t,
        lambda: services.entry_add_house(tournament_id=t.pk, user=_user(request), level=level),
        _("House AI added."),
    )


@login_required
@require_POST
def tournament_start(request: HttpRequest, pk: int) -> HttpResponse:
    t = _tournament(request, pk)
    return _run(
        request,
        t,
        lambda: services.tournament_start_now(tournament_id=t.pk, user=_user(request)),
        _("The tournament starts now."),
    )


@login_required
@require_POST
def entry_withdraw(request: HttpRequest, entry_id: int) -> HttpResponse:
    entry = get_object_or_404(Entry, pk=entry_id)
    t = _tournament(request, entry.tournament_id)
    return _run(
        request,
        t,
        lambda: services.entry_withdraw(entry_id=entry_id, user=_user(request)),
        _("Entry withdrawn."),
    )
