"""Tournament admin (staff only; imported by ``games/admin.py``): tournaments with their
entries, rounds, progress and standings; rounds with their tables and results.

A tournament is created on the site (``games.tournaments.services`` checks its settings), and
what the beat task writes (status, rounds, tables, results) is read-only here: an edit could
only contradict the tables that were played. While it is open for entries its name, visibility
and start time can be changed; the settings its entrants were checked against cannot.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.admin import StaffOnlyAdmin
from games.display import game_label
from games.tournaments import services
from games.tournaments.models import Entry, Round, RoundResult, RoundTable, Tournament

#: What staff may change while a tournament is open for entries (nothing once it started).
EDITABLE = ("name", "visibility", "start_at")
#: Fixed at creation: its entrants (bots, house AIs, seats) were checked against them.
FIXED = (
    "game",
    "format",
    "rounds",
    "table_size",
    "games_per_round",
    "turn_seconds",
    "round_gap_seconds",
)


class ReadOnlyInline(admin.TabularInline[Any, Any]):
    """Rows the services write: shown, never added, changed or deleted here."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = ("kind", "entrant", "user", "house_level", "bot_version", "created_at")
    readonly_fields = fields
    verbose_name = pgettext_lazy("admin", "entry")
    verbose_name_plural = pgettext_lazy("admin", "entries")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("user", "bot_version__bot")

    @admin.display(description=pgettext_lazy("admin", "entrant"))
    def entrant(self, obj: Entry) -> str:
        return services.entry_name(obj)


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "status", "start_at", "started_at", "ended_at", "table_count")
    readonly_fields = fields
    show_change_link = True  # the round's page: its tables and results

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        return super().get_queryset(request).annotate(n_tables=Count("tables"))

    @admin.display(description=pgettext_lazy("admin", "tables"))
    def table_count(self, obj: Round) -> int:
        return int(getattr(obj, "n_tables", 0))


@admin.register(Tournament)
class TournamentAdmin(StaffOnlyAdmin[Tournament]):
    list_display = (
        "name",
        "game_name",
        "format",
        "visibility",
        "status",
        "progress",
        "entry_count",
        "creator",
        "start_at",
    )
    list_filter = ("status", "format", "visibility", "game", "start_at")
    search_fields = ("name", "invite_code", "creator__username")
    date_hierarchy = "start_at"
    fieldsets = (
        (
            None,
            {"fields": ("name", "game_name", "creator", "status", "progress", "invite_code")},
        ),
        (
            capfirst(pgettext_lazy("admin", "settings")),
            {
                "fields": (
                    "format",
                    "visibility",
                    "start_at",
                    "rounds",
                    "table_size",
                    "games_per_round",
                    "turn_seconds",
                    "round_gap_seconds",
                )
            },
        ),
        (capfirst(pgettext_lazy("admin", "standings")), {"fields": ("standings",)}),
        (None, {"fields": ("created_at",)}),
    )
    inlines = (RoundInline, EntryInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return (
            super()
            .get_queryset(request)
            .select_related("creator")
            .annotate(
                n_entries=Count("entries", distinct=True),
                n_finished=Count(
                    "round_set", filter=Q(round_set__status=Round.Status.FINISHED), distinct=True
                ),
            )
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # created on the site, where its settings are checked

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fixed = (
            "game_name",
            "creator",
            "status",
            "progress",
            "invite_code",
            "standings",
            "created_at",
        )
        if obj is not None and obj.status != Tournament.Status.REGISTRATION:
            return fixed + FIXED + EDITABLE
        return fixed + FIXED

    @admin.display(description=pgettext_lazy("admin", "game"), ordering="game")
    def game_name(self, obj: Tournament) -> str:
        """The game's title in the active language ("Tiến Lên Miền Nam"), not its key."""
        return game_label(obj.game)

    @admin.display(description=pgettext_lazy("admin", "progress"))
    def progress(self, obj: Tournament) -> str:
        done = getattr(obj, "n_finished", None)
        if done is None:
            done = obj.round_set.filter(status=Round.Status.FINISHED).count()
        return str(_("%(done)d of %(total)d rounds played") % {"done": done, "total": obj.rounds})

    @admin.display(description=pgettext_lazy("admin", "entries"), ordering="n_entries")
    def entry_count(self, obj: Tournament) -> int:
        return int(getattr(obj, "n_entries", 0))

    @admin.display(description=pgettext_lazy("admin", "standings"))
    def standings(self, obj: Tournament) -> SafeString | str:
        if obj.pk is None:
            return "–"
        rows = services.standings_of(obj)
        if not any(s.played for s in rows):
            return str(_("No round has finished yet."))
        names = {
            e.pk: services.entry_name(e)
            for e in obj.entries.select_related("user", "bot_version__bot")
        }
        head = format_html(
            "<tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            capfirst(pgettext_lazy("admin", "entrant")),
            capfirst(pgettext_lazy("admin", "points")),
            capfirst(pgettext_lazy("admin", "game points")),
            capfirst(pgettext_lazy("admin", "tables played")),
        )
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (s.rank, names.get(s.entry, s.entry), f"{s.points:g}", s.game_points, s.played)
                for s in rows
            ),
        )
        return format_html('<table class="standings">{}{}</table>', head, body)


class RoundTableInline(ReadOnlyInline):
    model = RoundTable
    fields = ("index", "table_link", "seats", "finished_at")
    readonly_fields = fields

    @admin.display(description=pgettext_lazy("admin", "table"))
    def table_link(self, obj: RoundTable) -> SafeString:
        url = reverse("admin:games_table_change", args=[obj.table_id])
        return format_html('<a href="{}">{}</a>', url, obj.table.code)


class RoundResultInline(ReadOnlyInline):
    model = RoundResult
    fields = ("entrant", "round_table", "seat", "total", "points")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[RoundResult]:
        return (
            super()
            .get_queryset(request)
            .select_related("entry__user", "entry__bot_version__bot", "round_table")
        )

    @admin.display(description=pgettext_lazy("admin", "entrant"))
    def entrant(self, obj: RoundResult) -> str:
        return services.entry_name(obj.entry)


@admin.register(Round)
class RoundAdmin(StaffOnlyAdmin[Round]):
    list_display = ("tournament", "number", "status", "start_at", "started_at", "ended_at")
    list_filter = ("status", "start_at")
    search_fields = ("tournament__name",)
    list_select_related = ("tournament",)
    fields = ("tournament", "number", "status", "start_at", "started_at", "ended_at", "seeds")
    readonly_fields = fields
    inlines = (RoundTableInline, RoundResultInline)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the beat task opens rounds

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # shown only: the tables were played with these seeds

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its tournament would lose a round it counts on
