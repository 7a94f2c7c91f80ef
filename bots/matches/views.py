"""Pages of duplicate matches: Evaluate (the form), a match (live progress, report, chart), the
list of one's matches; and Promote. Owner-only: another user's match or bot is a 404. The
match page polls the REST API (``/api/matches/<id>/``, :mod:`bots.matches.api`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from bots.matches.api import MatchSerializer
from bots.matches.services import (
    MAX_DEALS,
    FieldChoice,
    MatchError,
    bot_promote,
    default_seed,
    match_create,
    match_field_choices,
    match_get,
    match_list,
)
from bots.models import Bot, BotVersion
from bots.selectors import bot_list as select_bot_list
from games.engine.registry import GAMES
from games.throttles import creation_limited

EMPTY_SEAT = ""


def _owner(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # guaranteed by @login_required
    return user


def _own_bot(request: HttpRequest, bot_id: int) -> Bot:
    return get_object_or_404(select_bot_list(owner=_owner(request)), pk=bot_id)


def entrant_title(label: str) -> str:
    """A report label as shown: ``house:hard`` is "House AI (hard)" in the active language."""
    if label.startswith("house:"):
        level = label.split(":", 1)[1]
        level, _sep, rest = level.partition("#")
        words = {
            "easy": _("easy"),
            "medium": _("medium"),
            "hard": _("hard"),
            "expert": _("expert"),
        }
        shown = _("House AI (%(level)s)") % {"level": words.get(level, level)}
        return f"{shown} #{rest}" if rest else shown
    return label


def points_unit(game: str) -> str:
    """What a game's points count (the game's ``points_unit``), in the active language."""
    engine = GAMES.get(game)
    return _(engine.points_unit) if engine is not None else _("points")


def _grouped(choices: list[FieldChoice]) -> list[tuple[str, list[tuple[str, str]]]]:
    names = {
        "house": _("House AIs"),
        "mine": _("Your bots"),
        "open": _("Other players' open bots"),
    }
    groups: dict[str, list[tuple[str, str]]] = {}
    for c in choices:
        groups.setdefault(c.group, []).append((c.value, entrant_title(c.label)))
    return [(names[g], groups[g]) for g in ("house", "mine", "open") if g in groups]


class EvaluateForm(forms.Form):
    """Evaluate ``version``: the rest of the field (one select per other seat), deals, seed."""

    deals = forms.IntegerField(
        label=gettext_lazy("Deals"),
        min_value=1,
        max_value=MAX_DEALS,
        initial=20,
        help_text=gettext_lazy(
            "Each deal is played once per rotation of the field over the seats."
        ),
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"),
        min_value=0,
        help_text=gettext_lazy("The same field, deals and seed replay the same match."),
    )
    stop_when_separated = forms.BooleanField(
        label=gettext_lazy("Stop early once the intervals separate"),
        required=False,
        help_text=gettext_lazy(
            "After at least 10 deals, when your version's points interval overlaps no other's."
        ),
    )

    def __init__(self, *args: Any, user: User, version: BotVersion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.version = version
        engine = GAMES[version.bot.game]
        grouped = _grouped(match_field_choices(user=user, game=engine.name))
        self.seat_names: list[str] = []
        # the default field: the previous ready version of this bot, then the house AIs
        older = (
            BotVersion.objects.filter(
                bot=version.bot, status=BotVersion.Status.READY, number__lt=version.number
            )
            .order_by("-number")
            .values_list("pk", flat=True)
            .first()
        )
        levels: list[str] = [lv for lv in ("hard", "medium", "easy") if lv in engine.house_levels]
        levels += [lv for lv in engine.house_levels if lv not in levels]
        defaults = ([f"version:{older}"] if older else []) + [f"house:{lv}" for lv in levels]
        default_size = min(engine.max_players, max(engine.min_players, 4))
        for seat in range(2, engine.max_players + 1):
            name = f"seat_{seat}"
            required = seat <= engine.min_players
            options: list[Any] = [] if required else [(EMPTY_SEAT, _("— no one (fewer seats) —"))]
            self.fields[name] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": seat},
                choices=options + grouped,
                required=required,
                initial=defaults[(seat - 2) % len(defaults)]
                if seat <= default_size
                else EMPTY_SEAT,
            )
            self.seat_names.append(name)
        self.fields["seed"].initial = default_seed()

    def seat_fields(self) -> list[Any]:
        return [self[name] for name in self.seat_names]

    def entrants(self) -> list[str]:
        rest = [self.cleaned_data[n] for n in self.seat_names if self.cleaned_data.get(n)]
        return [f"version:{self.version.pk}", *rest]


@login_required
@require_http_methods(["GET", "POST"])
@creation_limited("matches")
def match_new(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """Evaluate: choose the field, deals and seed for version ``number``; start the match."""
    user = _owner(request)
    bot = _own_bot(request, bot_id)
    version = BotVersion.objects.filter(bot=bot, number=number).defer("code").first()
    if version is None:
        raise Http404("No such version.")
    if version.status != BotVersion.Status.READY:  # an external bot's one version is ready
        messages.error(request, _("Only a ready version of a bot can be evaluated."))
        return redirect("bots:versions", bot_id=bot.pk)
    form = EvaluateForm(request.POST or None, user=user, version=version)
    if request.method == "POST" and form.is_valid():
        try:
            match = match_create(
                owner=user,
                game=bot.game,
                entrants=form.entrants(),
                deals=form.cleaned_data["deals"],
                seed=form.cleaned_data["seed"],
                stop_when_separated=form.cleaned_data["stop_when_separated"],
            )
        except MatchError as exc:
            form.add_error(None, f"{exc.message} ({exc.code})")
        else:
            return redirect("bots:match", match_id=match.pk)
    return render(
        request,
        "bots/matches/new.html",
        {"bot": bot, "version": version, "form": form, "engine": GAMES[bot.game]},
    )


@login_required
@require_GET
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match: live progress (polled), Stop, the report table and the running-estimate chart."""
    try:
        match = match_get(owner=_owner(request), match_id=match_id)
    except MatchError as exc:
        raise Http404("No such match.") from exc
    titles = {label: entrant_title(label) for label in match.labels}
    return render(
        request,
        "bots/matches/detail.html",
        {
            "match": match,
            "data": MatchSerializer(match).data,
            "titles": titles,
            "engine": GAMES.get(match.game),
            "unit": points_unit(match.game),
        },
    )


@login_required
@require_GET
def matches(request: HttpRequest) -> HttpResponse:
    """One's matches, newest first."""
    page = Paginator(match_list(owner=_owner(request)), 25).get_page(request.GET.get("page"))
    rows = [(m, [entrant_title(lb) for lb in m.labels]) for m in page.object_list]
    return render(request, "bots/matches/list.html", {"page": page, "rows": rows, "games": GAMES})


@login_required
@require_POST
def version_promote(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """Promote version ``number`` (``?unpromote=1`` / ``number`` 0: back to the latest ready)."""
    bot = _own_bot(request, bot_id)
    try:
        bot_promote(bot=bot, number=None if number == 0 else number)
    except MatchError as exc:
        messages.error(request, exc.message)
    else:
        if number:
            messages.success(
                request,
                _("v%(n)s is promoted: others who seat %(bot)s play against it.")
                % {"n": number, "bot": bot.name},
            )
        else:
            messages.success(request, _("No promoted version: others get the latest ready one."))
    target = request.POST.get("next") or ""
    if target == "list":
        return redirect("bots:list")
    return redirect("bots:versions", bot_id=bot.pk)
