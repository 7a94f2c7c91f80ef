"""Pages of the games app: home, how to play, create / join / practice, and the table page.

Views stay thin: forms validate, services change things, selectors read. Everything live on the
table page goes over the WebSocket (docs/protocol.md); this module only renders the first paint.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import extensions, services
from games.display import PRACTICE_NAME, game_label
from games.engine.registry import GAMES
from games.forms import (
    DEFAULT_HOUSE_LEVELS,
    MIXED_LEVEL,
    JoinForm,
    PracticeForm,
    TableCreateForm,
)
from games.models import Mode, Seat, Table, TableInvite
from games.quickplay import selectors as quickplay_selectors
from games.quickplay import services as quickplay_services
from games.selectors import RULES_PAGES, game_list_recent, rules_page_url, table_list_public
from games.throttles import creation_limited

HOME_LIST_LIMIT = 10
PRACTICE_SEATS = 4


def house_levels() -> list[tuple[str, Any]]:
    """The house AI strengths the services accept, with readable labels."""
    labels = dict(DEFAULT_HOUSE_LEVELS)
    return [(level, labels.get(level, level)) for level in services.house_levels()]


def table_url(code: str) -> str:
    """The shareable path of a table: ``/t/<code>/`` (``/tables/<code>/`` also works)."""
    try:
        return reverse("table", args=[code])
    except NoReverseMatch:  # pragma: no cover - config/urls.py routes it
        return reverse("tables:detail", args=[code])


def _seat_spec(spec: dict[str, Any]) -> services.SeatSpec:
    if spec["kind"] == "house":
        return services.SeatSpec(kind=Seat.Kind.HOUSE, house_level=spec["level"])
    if spec["kind"] == "bot":
        return services.SeatSpec(kind=Seat.Kind.BOT, bot_version_id=spec["bot_version"])
    return services.SeatSpec()


def _with_mode(form: TableCreateForm) -> dict[str, Any]:
    """The form's options plus the mode: ``hybrid`` when a user bot sits with people (the host
    always does), else ``casual``. Neither is rated."""
    options = form.table_options()
    if any(spec["kind"] == "bot" for spec in form.seat_specs()):
        options["mode"] = Mode.HYBRID.value
    return options


def home(request: HttpRequest) -> HttpResponse:
    status = quickplay_services.pool_status(user=request.user)
    context = {
        "public_tables": table_list_public(limit=HOME_LIST_LIMIT),
        "recent_games": game_list_recent(limit=HOME_LIST_LIMIT),
        "join_form": JoinForm(),
        "practice_form": PracticeForm(house_levels=house_levels()),
        "quickplay": [
            (
                name,
                game_label(name),
                seats,
                sum(n for key, n in status["pools"].items() if key.split("/")[0] == name),
            )
            for name, seats in quickplay_selectors.quickplay_choices()
        ],
        "quickplay_status": status,
    }
    return render(request, "home.html", context)


def rules_url(game: str | None) -> str:
    """The How to Play page of ``game`` (:func:`games.selectors.rules_page_url`); a game
    without a page gets Tiến Lên's."""
    return rules_page_url(game) or reverse("how_to_play")


def how_to_play(request: HttpRequest, game: str = "tienlen") -> HttpResponse:
    if game not in RULES_PAGES:
        raise Http404("no such game")
    pages = [(name, game_label(name), rules_url(name)) for name in RULES_PAGES]
    return render(request, RULES_PAGES[game], {"rules_game": game, "rules_pages": pages})


@login_required
@creation_limited("tables")
def table_create(request: HttpRequest) -> HttpResponse:
    levels = house_levels()
    if request.method == "POST":
        form = TableCreateForm(
            request.POST,
            house_levels=levels,
            # a bot plays one game: only bots of the posted game are valid seat choices
            # (busy or offline bots too: the service refuses them saying why, bot_busy...)
            bot_choices=extensions.bot_seat_choices(
                request.user, game=request.POST.get("game"), free=False
            ),
        )
        if form.is_valid():
            try:
                table = services.table_create(
                    owner=request.user,  # type: ignore[arg-type]
                    name=form.cleaned_data["name"],
                    game=form.cleaned_data["game"],
                    visibility=form.cleaned_data["visibility"],
                    options=_with_mode(form),
                    seats=[_seat_spec(spec) for spec in form.seat_specs()],
                )
            except ValidationError as exc:
                for message in exc.messages:
                    form.add_error(None, message)
            else:
                return redirect(table_url(table.code))
    else:
        user_name = getattr(request.user, "public_name", "") or request.user.get_username()
        form = TableCreateForm(
            house_levels=levels,
            bot_choices=extensions.bot_seat_choices(request.user),
            initial={"name": _("%(name)s's table") % {"name": user_name}},
        )
    chosen = form["game"].value()
    context = {
        "form": form,
        # "Read the rules" follows the chosen game (the page's script too, on a change)
        "game_rules_url": rules_url(chosen if isinstance(chosen, str) else None),
        "rules_urls": {name: rules_url(name) for name in GAMES},
    }
    return render(request, "games/table_create.html", context)


@require_POST
@login_required
@creation_limited("tables")
def table_practice(request: HttpRequest) -> HttpResponse:
    """One click: you against three house AIs, private, counting down to game 1 at once."""
    form = PracticeForm(request.POST, house_levels=house_levels())
    if not form.is_valid():
        messages.error(request, _("Choose a strength for the house AIs."))
        return redirect("home")
    level = form.cleaned_data["level"]
    user: Any = request.user
    if level == MIXED_LEVEL:
        table = services.table_create_practice(owner=user)
    else:
        house = services.SeatSpec(kind=Seat.Kind.HOUSE, house_level=level)
        table = services.table_create(
            owner=user,
            # stored in English, read in each viewer's language (games.display.table_name)
            name=PRACTICE_NAME % {"name": user.public_name},
            visibility=Table.Visibility.PRIVATE,
            options={"seats": PRACTICE_SEATS, "mode": Mode.PRACTICE.value},
            seats=[services.SeatSpec()] + [house] * (PRACTICE_SEATS - 1),
        )
        services.seat_ready(table_id=table.pk, user=user, ready=True)
        services.table_start(table_id=table.pk, user=user)
    return redirect(table_url(table.code))


def table_join(request: HttpRequest) -> HttpResponse:
    """Join by link: accepts a code or a full link and opens that table's page."""
    form = JoinForm(request.GET or None)
    if form.is_valid():
        code = form.cleaned_data["link"]
        if Table.objects.filter(code=code).exists():
            return redirect(table_url(code))
        form.add_error("link", _("No table has that code. Check the link you were given."))
    status = 404 if form.is_bound and form.errors else 200
    return render(request, "games/table_join.html", {"form": form}, status=status)


def board_template(game: str) -> str | None:
    """The board's own markup, ``templates/games/boards/<game>.html``, if the game has one:
    table.html includes it in its slots (``part``); a board without one draws in JS."""
    name = f"games/boards/{game}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def table_detail(request: HttpRequest, code: str) -> HttpResponse:
    """The live table page. Knowing the code is enough to watch; sitting needs a login."""
    table = get_object_or_404(Table.objects.select_related("owner"), code=code)
    seats = list(table.seats.select_related("user", "bot_version__bot").order_by("index"))
    user = request.user
    my_seat = next((s.index for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    share_path = table_url(table.code)
    style = f"css/{table.game}.css"  # the board's own styles, if it has any
    config = {
        "code": table.code,
        "game": table.game,
        # the game's board by convention: static/js/boards/<game>.js (docs/architecture.md)
        # (static/js/boards/generic.js for a game that brings no board of its own)
        "board_script": static(
            board if finders.find(board := f"js/boards/{table.game}.js") else "js/boards/generic.js"
        ),
        "ws": f"/ws/tables/{table.code}/",
        "share_url": request.build_absolute_uri(share_path),
        "home_url": reverse("home"),
        # the favicon while it is your turn in a hidden tab (static/js/table/notify.js)
        "favicon_turn": static("img/favicon-turn.svg"),
        "login_url": f"{reverse('accounts:login')}?next={share_path}",
        "rules_url": rules_url(table.game),
        "authenticated": user.is_authenticated,
        "user_id": user.pk if user.is_authenticated else None,
        "mode": table.mode,
        # how long a rematch offer waits (GAMES_REMATCH_SECONDS): its countdown bar's length
        "rematch_seconds": services.rematch_seconds(),
        "levels": [[value, str(label)] for value, label in house_levels()],
        # a bot seat's turn, as its timer shows it: the table's bot delay, then the bot's own
        # limit (BOTS_MOVE_TIMEOUT_SECONDS, 5 s), not the people's turn time
        "bot_turn_seconds": round(
            services.bot_delay() + float(settings.BOTS_MOVE_TIMEOUT_SECONDS), 2
        ),
    }
    context = {
        "table": table,
        "seats": seats,
        "my_seat": my_seat,
        "is_host": user.is_authenticated and table.owner_id == user.pk,
        "invite": _host_invite(request, table),
        "share_url": config["share_url"],
        "table_config": config,
        "board_style": static(style) if finders.find(style) else None,
        "board_template": board_template(table.game),
        "empty_kind": Seat.Kind.EMPTY,
        "notes": extensions.table_notes(table=table, seats=seats),
    }
    return render(request, "games/table.html", context)


# ----------------------------------------------------------------------------- invite links


def invite_url(request: HttpRequest, invite: TableInvite) -> str:
    """The absolute link that seats whoever opens it: ``/tables/invite/<token>/``."""
    return request.build_absolute_uri(reverse("tables:invite", args=[invite.token]))


def _host_invite(request: HttpRequest, table: Table) -> dict[str, Any] | None:
    """What the host's lobby shows of the invite link of a private table: ``url`` (None when
    there is no live link); None for anyone else, a public table or a finished session."""
    user = request.user
    if (
        not user.is_authenticated
        or table.owner_id != user.pk
        or table.visibility != Table.Visibility.PRIVATE
        or table.status == Table.Status.COMPLETED
    ):
        return None
    live = TableInvite.objects.filter(table=table, revoked_at__isnull=True).first()
    return {"url": invite_url(request, live) if live is not None else None}


#: The page an invite link that cannot seat you answers, per error code: (status, title, text).
def _invite_problem(code: str) -> tuple[int, str, str]:
    problems = {
        "invite_revoked": (
            410,
            _("This invite link was revoked"),
            _("The host turned this link off. Ask them for a new one."),
        ),
        "table_started": (
            409,
            _("The game has started"),
            _("This table is already playing, so no one can join it now. You can still watch."),
        ),
        "no_seat": (
            409,
            _("The table is full"),
            _("Every seat at this table is taken. You can still watch."),
        ),
    }
    return problems.get(
        code,
        (
            404,
            _("Invite link not found"),
            _("No table has this invite link. Check the link you were given."),
        ),
    )


def table_invite_open(request: HttpRequest, token: str) -> HttpResponse:
    """Open an invite link: sign in first (and come back), then sit at the table."""
    if not request.user.is_authenticated:
        login = reverse("accounts:login")
        return redirect(f"{login}?{urlencode({'next': request.get_full_path()})}")
    try:
        table = services.invite_accept(token=token, user=request.user)
    except services.TableError as exc:
        status, title, text = _invite_problem(exc.code)
        invite = TableInvite.objects.select_related("table").filter(token=token).first()
        watch = table_url(invite.table.code) if invite and status == 409 else None
        context = {"title": title, "text": text, "code": exc.code, "watch_url": watch}
        return render(request, "games/invite_problem.html", context, status=status)
    return redirect(table_url(table.code))


@require_POST
@login_required
def table_invite_make(request: HttpRequest, code: str) -> HttpResponse:
    """The host makes the table's invite link (or a new one after revoking)."""
    table = get_object_or_404(Table, code=code)
    try:
        services.invite_create(table_id=table.pk, user=request.user)  # type: ignore[arg-type]
    except services.TableError:
        messages.error(request, _("Only the host of a private table can make an invite link."))
    return redirect(table_url(table.code))


@require_POST
@login_required
def table_invite_revoke(request: HttpRequest, code: str) -> HttpResponse:
    """The host revokes the table's invite link: it stops seating anyone."""
    table = get_object_or_404(Table, code=code)
    try:
        services.invite_revoke(table_id=table.pk, user=request.user)  # type: ignore[arg-type]
    except services.TableError:
        messages.error(request, _("Only the host can revoke the invite link."))
    else:
        messages.success(request, _("The invite link was revoked. Old links no longer work."))
    return redirect(table_url(table.code))


@require_POST
@login_required
def table_invite_opponent(request: HttpRequest, user_id: int) -> HttpResponse:
    """The profile's "Invite" next to a recent opponent: a new private table for two with an
    invite link the host sends them."""
    me: Any = request.user
    other = get_object_or_404(
        get_user_model().objects.exclude(pk=me.pk), pk=user_id, is_active=True
    )
    name = _("%(host)s vs %(guest)s") % {"host": me.public_name, "guest": other.public_name}
    table, _invite = services.invite_table_create(owner=me, name=name[:80])
    return redirect(table_url(table.code))
