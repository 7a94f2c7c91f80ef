"""Pages of the bots app: My Bots, the editor, version history, compare.

The editor's actions (save a version, Test Bot, syntax check, rename) go through the REST API
(``/api/bots/``) from ``static/js/bots/editor.js``; these views render pages and handle the
plain-form actions (create, delete, roll back). Every bot page is owner-only: another user's
bot is a 404 — except the public leaderboard and a rated bot's rating page, which show its name,
owner and rating, never its code.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from bots.arena import (
    anchor_rows,
    arena_house_levels,
    skill_band,
)
from bots.error_text import validation_message
from bots.examples import examples_for, template_code
from bots.forms import ArenaForm, BotCreateForm, PracticeBotForm
from bots.ladder.selectors import bot_placements, suspension_reason
from bots.models import DEFAULT_GAME, Bot, BotRating, BotVersion, game_choices
from bots.reference import render_html
from bots.samples import sample_cases
from bots.selectors import (
    ARENA_GAME,
    arena_version_choices,
    bot_leaderboard,
    bot_public_get,
    botrating_history,
    botrating_rank,
    botversion_get,
    botversion_latest,
    botversion_list,
    botversion_results,
    practice_version_choices,
)
from bots.selectors import (
    bot_list as select_bot_list,
)
from bots.services import (
    BotLabError,
    bot_lab_move,
    bot_lab_original,
    bot_set_arena_open,
    botversion_rollback,
    lab_error_text,
)
from bots.services import bot_create as create_bot
from bots.services import bot_delete as delete_bot
from games import services as game_services
from games.charts import line_chart
from games.engine.registry import GAMES
from games.selectors import rules_page_url
from games.throttles import creation_limited


def _owner(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # guaranteed by @login_required
    return user


def _own_bot(request: HttpRequest, bot_id: int) -> Bot:
    return get_object_or_404(select_bot_list(owner=_owner(request)), pk=bot_id)


def _own_version(bot: Bot, number: int) -> BotVersion:
    try:
        return botversion_get(bot=bot, number=number)
    except BotVersion.DoesNotExist as exc:
        raise Http404("No such version.") from exc


@login_required
@require_GET
def bot_list(request: HttpRequest) -> HttpResponse:
    """My Bots: the user's bot slots with the status of their latest version."""
    owner = _owner(request)
    return render(
        request,
        "bots/bot_list.html",
        {
            "bots": select_bot_list(owner=owner),
            "form": BotCreateForm(owner=owner),
            # the Bot Arena deals one game: only its bots may be opened to it
            "arena_game": ARENA_GAME,
        },
    )


@login_required
@require_POST
@creation_limited("bots")
def bot_create(request: HttpRequest) -> HttpResponse:
    """Create a bot with the starter template as version 1, then open the editor."""
    owner = _owner(request)
    form = BotCreateForm(request.POST, owner=owner)
    if form.is_valid():
        try:
            bot = create_bot(
                owner=owner,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                game=form.cleaned_data["game"],
                code=template_code(form.cleaned_data["game"]),
            )
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, _("Bot “%(name)s” created.") % {"name": bot.name})
            return redirect("bots:editor", bot_id=bot.pk)
    return render(
        request,
        "bots/bot_list.html",
        {"bots": select_bot_list(owner=owner), "form": form},
        status=400,
    )


@login_required
@require_GET
def bot_editor(request: HttpRequest, bot_id: int) -> HttpResponse:
    """The bot editor (seed 002 §4.4). ``?version=N`` opens an older version's code."""
    owner = _owner(request)
    bot = _own_bot(request, bot_id)
    if bot.kind == Bot.Kind.EXTERNAL:  # no code to edit: its token page (bots/external/)
        return redirect("bots:external", bot_id=bot.pk)
    latest = botversion_latest(bot=bot)
    shown = latest
    requested = request.GET.get("version", "")
    if requested.isdigit():
        shown = _own_version(bot, int(requested))
    code = shown.code if shown is not None else template_code(bot.game)
    # the examples' titles and summaries are English msgids, shown in the reader's language
    examples = [replace(e, title=_(e.title), summary=_(e.summary)) for e in examples_for(bot.game)]
    lab, lab_error = _lab_move(request, owner, bot)
    config: dict[str, Any] = {
        "bot": {"id": bot.pk, "name": bot.name, "description": bot.description, "game": bot.game},
        "code": code,
        "savedCode": latest.code if latest is not None else "",
        "shownVersion": shown.number if shown is not None else None,
        "latest": _version_json(latest),
        "template": template_code(bot.game),
        "examples": [{"key": e.key, "title": e.title, "code": e.code} for e in examples],
        "api": {
            "bot": reverse("api:bot-detail", args=[bot.pk]),
            "versions": reverse("api:bot-versions", args=[bot.pk]),
            "testRun": reverse("api:bot-test-run"),
            "checkSyntax": reverse("api:bot-check-syntax"),
        },
        "pages": {"versions": reverse("bots:versions", args=[bot.pk])},
        "static": {
            "loader": static("vendor/monaco/vs/loader.js"),
            "worker": static("js/bots/monaco-worker.js"),
            # the game's typed gameState (autocomplete), where it has one
            "dts": gamestate_types(bot.game),
        },
        "samples": len(sample_cases(bot.game)),
        "lab": lab,
    }
    context = {
        "bot": bot,
        "bots": select_bot_list(owner=owner),
        "latest": latest,
        "shown": shown,
        "config": config,
        "examples": examples,
        # render_html escapes every text it contains; only its own markup is left raw.
        "reference_html": mark_safe(
            render_html(game=bot.game, lang=get_language(), links=rules_pages())
        ),
        "lab": lab,
        "lab_error": lab_error,
    }
    return render(request, "bots/editor.html", context, status=404 if lab_error else 200)


def gamestate_types(game: str) -> str | None:
    """The URL of ``game``'s TypeScript declaration of ``gameState`` for the editor's
    autocomplete, ``static/js/bots/types/<game>.d.ts``; None when the game has none."""
    path = f"js/bots/types/{game}.d.ts"
    return static(path) if finders.find(path) else None


def rules_pages() -> dict[str, str | None]:
    """The reference panel's rules links (``rules/<game>.md``) as the site's pages: each
    game's How to Play page, or None for a game without one (its link's words alone)."""
    return {f"rules/{game}.md": rules_page_url(game) for game in GAMES}


def _lab_move(
    request: HttpRequest, owner: User, bot: Bot
) -> tuple[dict[str, Any] | None, dict[str, str] | None]:
    """The Replay lab's move when the editor is opened on one (``?game=<id>&seq=<n>&seat=<s>``,
    docs/history.md "Replay lab"): the recomputed gameState and what the bot did then, or the
    refusal (its code and text; the editor still opens, with status 404)."""
    if "game" not in request.GET:
        return None, None
    try:
        move = bot_lab_move(
            user=owner,
            game_id=request.GET.get("game", ""),
            seq=request.GET.get("seq", ""),
            seat=request.GET.get("seat", ""),
            bot=bot,
        )
    except BotLabError as exc:
        return None, {"code": exc.code, "text": lab_error_text(exc.code)}
    original = bot_lab_original(move)
    game = move.game
    return {
        "ref": {"game_id": game.pk, "seq": move.seq, "seat": move.seat},
        "original": original,
        "replay": reverse("tables:replay", args=[game.table.code, game.number])
        + f"?seat={move.seat}#step-{move.seq}",
        "table": game.table.name,
        "number": game.number,
    }, None


def _version_json(version: BotVersion | None) -> dict[str, Any] | None:
    if version is None:
        return None
    validation = version.validation or {}
    return {
        "number": version.number,
        "status": version.status,
        "statusLabel": str(version.get_status_display()),
        "message": validation_message(validation),
    }


@login_required
@require_POST
def bot_delete(request: HttpRequest, bot_id: int) -> HttpResponse:
    bot = _own_bot(request, bot_id)
    name = bot.name
    try:
        delete_bot(bot=bot)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("bots:editor", bot_id=bot.pk)
    messages.success(request, _("Bot “%(name)s” deleted.") % {"name": name})
    return redirect("bots:list")


@login_required
@require_GET
def version_list(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Version history: status, validation summary, open, roll back, compare."""
    bot = _own_bot(request, bot_id)
    versions = list(botversion_list(bot=bot))
    return render(
        request,
        "bots/version_list.html",
        {"bot": bot, "versions": versions, "latest_number": versions[0].number if versions else 0},
    )


@login_required
@require_GET
def version_detail(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """One version: its code and its validation game, move by move (owner-only)."""
    bot = _own_bot(request, bot_id)
    version = _own_version(bot, number)
    validation = version.validation or {}
    return render(
        request,
        "bots/version_detail.html",
        {
            "bot": bot,
            "version": version,
            "validation": validation,
            "records": validation.get("records", []),
        },
    )


@login_required
@require_POST
def version_rollback(request: HttpRequest, bot_id: int, number: int) -> HttpResponse:
    """Save version ``number``'s code as a new version (history is never rewritten)."""
    bot = _own_bot(request, bot_id)
    source = _own_version(bot, number)
    version = botversion_rollback(bot=bot, number=source.number)
    messages.success(
        request,
        _("Rolled back: v%(new)s has the code of v%(old)s.")
        % {"new": version.number, "old": source.number},
    )
    return redirect("bots:versions", bot_id=bot.pk)


@login_required
@require_GET
def version_compare(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Two versions side by side: validation game and real game results, and a code diff."""
    bot = _own_bot(request, bot_id)
    numbers: list[int] = []
    for key in ("a", "b"):
        raw = request.GET.get(key, "")
        if raw.isdigit():
            numbers.append(int(raw))
    if len(numbers) != 2 or numbers[0] == numbers[1]:
        messages.error(request, _("Pick two different versions to compare."))
        return redirect("bots:versions", bot_id=bot.pk)
    left, right = _own_version(bot, numbers[0]), _own_version(bot, numbers[1])
    results = botversion_results(bot=bot, numbers=numbers)
    return render(
        request,
        "bots/version_compare.html",
        {
            "bot": bot,
            "left": left,
            "right": right,
            "results": results,
            "diff": {"left": left.code, "right": right.code},
        },
    )


# --------------------------------------------------------------------------- ratings (public)

LEADERBOARD_PAGE_SIZE = 50


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Bot leaderboard of one game (``?game=``, default Tiến Lên): rated bots by rating
    (mu − 3σ, scaled), 50 per page. Public."""
    games = game_choices()
    game = request.GET.get("game", DEFAULT_GAME)
    if game not in dict(games):
        game = DEFAULT_GAME
    page = Paginator(bot_leaderboard(game=game), LEADERBOARD_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = [
        (page.start_index() + i, rating, *skill_band(rating.mu, rating.sigma))
        for i, rating in enumerate(page.object_list)
    ]
    anchors = anchor_rows(game) if game == ARENA_GAME else []
    context = {"page": page, "rows": rows, "game": game, "games": games, "anchors": anchors}
    return render(request, "bots/leaderboard.html", context)


@require_GET
def bot_rating(request: HttpRequest, bot_id: int) -> HttpResponse:
    """A bot's rating and its history chart. Public once the bot is rated (before that only its
    owner sees the page); never shows code."""
    bot = bot_public_get(bot_id=bot_id)
    if bot is None:
        raise Http404("No such bot.")
    try:
        rating: BotRating | None = bot.rating
    except ObjectDoesNotExist:
        rating = None
    is_owner = request.user.is_authenticated and request.user.pk == bot.owner_id
    placements = bot_placements(bot)
    if (rating is None or rating.games == 0) and not is_owner and not placements:
        raise Http404("This bot has no rated games yet.")
    for _ladder, line in placements:  # why it is suspended: for its owner only
        if is_owner:
            line.note = suspension_reason(line)
    events = botrating_history(bot=bot)
    values = [events[0].display_before, *(e.display_after for e in events)] if events else []
    labels = [_("Start")] + [
        _("%(date)s · place %(rank)s of %(of)s · %(rating)s")
        % {
            "date": date_format(timezone.localtime(e.played_at), "SHORT_DATETIME_FORMAT"),
            "rank": e.rank,
            "of": e.rated_bots,
            "rating": e.display_after,
        }
        for e in events
    ]
    return render(
        request,
        "bots/rating.html",
        {
            "bot": bot,
            "rating": rating,
            "rank": botrating_rank(rating=rating) if rating is not None and rating.games else None,
            # the leaderboard's scale: the estimate and its 95% band in rating points
            "skill": skill_band(rating.mu, rating.sigma) if rating is not None else None,
            "chart": line_chart(values, labels),
            "recent": list(reversed(events[-20:])),
            "is_owner": is_owner,
            "placements": placements,
        },
    )


# --------------------------------------------------------------------------- arena and practice


def _table_page(code: str) -> str:
    return reverse("tables:detail", args=[code])


@login_required
@creation_limited("arenas")
def arena_create(request: HttpRequest) -> HttpResponse:
    """Bot Arena: pick 2–4 bot versions; they play a session of 16 or 32 games in a row on a
    new table that anyone with the link watches (ratings update after every game)."""
    owner = _owner(request)
    own = practice_version_choices(owner)
    choices = arena_version_choices(owner, own=own)
    # a posted bot that cannot be seated just now is refused by the seating, saying why
    # (bot_offline, bot_busy, bot_share_full: bots.seating)
    posted = arena_version_choices(owner, own=own, free=False) if request.method == "POST" else []
    form = ArenaForm(request.POST or None, choices=posted or choices, levels=arena_house_levels())
    practice = PracticeBotForm(choices=own)
    if request.method == "POST" and form.is_valid():
        try:
            table = game_services.table_create_arena(
                owner=owner,
                bot_version_ids=form.cleaned_data["bots"],
                house_levels=form.cleaned_data["house"],
                name=form.cleaned_data["name"],
                session_length=form.cleaned_data["session_length"],
                visibility="public" if form.cleaned_data["public"] else "private",
            )
        except ValidationError as exc:
            for message in exc.messages:
                form.add_error(None, message)
        else:
            return redirect(_table_page(table.code))
    return render(
        request,
        "bots/arena.html",
        {
            "form": form,
            "practice": practice,
            "choices": posted or choices,
            "anchors": anchor_rows(),
        },
    )


@login_required
@require_POST
@creation_limited("tables")
def practice_create(request: HttpRequest) -> HttpResponse:
    """Practice with your bot against house AIs (with you at the table, or watching); never
    rated."""
    owner = _owner(request)
    form = PracticeBotForm(request.POST, choices=practice_version_choices(owner))
    if form.is_valid():
        try:
            table = game_services.table_create_practice(
                owner=owner,
                bot_version_id=form.cleaned_data["version"],
                watch=form.cleaned_data["watch"],
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            return redirect(_table_page(table.code))
    else:
        for errors in form.errors.values():
            messages.error(request, " ".join(str(e) for e in errors))
    return redirect("bots:arena")


@login_required
@require_POST
def bot_arena_open(request: HttpRequest, bot_id: int) -> HttpResponse:
    """Open (or close) one of your bots to other players' arena tables."""
    bot = _own_bot(request, bot_id)
    bot_set_arena_open(bot=bot, open_=request.POST.get("open") == "1")
    return redirect("bots:list")
