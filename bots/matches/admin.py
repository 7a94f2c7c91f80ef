"""Duplicate-match admin (staff only; imported by ``bots/admin.py``): every user's matches with
their progress, their field and each entrant's results so far.

A match is created and stopped on its owner's pages (``bots.matches.services`` checks the field
and queues it on the lab worker), and the worker alone writes its progress and report: the
admin shows a match and may delete it, nothing more. Its games are not stored one by one (the
report and the per-deal series are what a match keeps), so they have no inline.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bots.matches.models import Match
from games.admin import StaffOnlyAdmin
from games.display import game_label


def _percent(value: Any) -> str:
    return f"{float(value) * 100:.1f}%" if isinstance(value, (int, float)) else "–"


def _number(value: Any) -> str:
    return f"{float(value):g}" if isinstance(value, (int, float)) else "–"


@admin.register(Match)
class MatchAdmin(StaffOnlyAdmin[Match]):
    list_display = (
        "id",
        "owner",
        "game_name",
        "field",
        "status",
        "progress",
        "error",
        "created_at",
        "finished_at",
    )
    list_display_links = ("id", "field")
    list_filter = ("status", "game", "stop_when_separated", "created_at")
    search_fields = ("=id", "owner__username", "error")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    fieldsets = (
        (None, {"fields": ("owner", "game_name", "status", "progress", "error")}),
        (capfirst(pgettext_lazy("admin", "entrants and results")), {"fields": ("results",)}),
        (
            capfirst(pgettext_lazy("admin", "settings")),
            {"fields": ("deals", "seed", "stop_when_separated")},
        ),
        (
            capfirst(pgettext_lazy("admin", "run")),
            {
                "fields": (
                    "created_at",
                    "started_at",
                    "finished_at",
                    "heartbeat_at",
                    "resumes",
                    "stop_requested",
                )
            },
        ),
        (
            capfirst(pgettext_lazy("admin", "raw data")),
            {"classes": ("collapse",), "fields": ("entrants", "report", "series", "stats")},
        ),
    )
    readonly_fields = (
        "owner",
        "game_name",
        "status",
        "progress",
        "error",
        "results",
        "deals",
        "seed",
        "stop_when_separated",
        "created_at",
        "started_at",
        "finished_at",
        "heartbeat_at",
        "resumes",
        "stop_requested",
        "entrants",
        "report",
        "series",
        "stats",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # created on the owner's pages, where the field is checked

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the worker alone writes a match

    @admin.display(description=pgettext_lazy("admin", "game"), ordering="game")
    def game_name(self, obj: Match) -> str:
        """The game's title in the active language ("Tiến Lên Miền Nam"), not its key."""
        return game_label(obj.game)

    @admin.display(description=pgettext_lazy("admin", "field"))
    def field(self, obj: Match) -> str:
        return " · ".join(obj.labels)

    @admin.display(description=pgettext_lazy("admin", "progress"), ordering="deals_done")
    def progress(self, obj: Match) -> str:
        return str(
            _("%(done)d of %(total)d deals (%(percent)s)")
            % {"done": obj.deals_done, "total": obj.deals, "percent": _percent(obj.progress)}
        )

    @admin.display(description=pgettext_lazy("admin", "results"))
    def results(self, obj: Match) -> SafeString:
        """One row per entrant, in field order: who it is and its line of the report."""
        lines = list((obj.report or {}).get("entrants") or [])
        head = format_html(
            "<tr>{}</tr>",
            format_html_join(
                "",
                "<th>{}</th>",
                (
                    (capfirst(label),)
                    for label in (
                        "#",
                        pgettext_lazy("admin", "entrant"),
                        pgettext_lazy("admin", "games"),
                        pgettext_lazy("admin", "first place rate"),
                        pgettext_lazy("admin", "mean points"),
                        pgettext_lazy("admin", "strikes"),
                        pgettext_lazy("admin", "disqualified"),
                    )
                ),
            ),
        )
        rows = []
        for index, entrant in enumerate(obj.entrants):
            line = lines[index] if index < len(lines) else {}
            rows.append(
                (
                    index + 1,
                    self._entrant(entrant),
                    line.get("games", 0),
                    _percent(line.get("first_rate")),
                    _number(line.get("mean_points")),
                    line.get("strikes", 0),
                    line.get("disqualified", 0),
                )
            )
        body = format_html_join(
            "",
            "<tr>{}</tr>",
            ((format_html_join("", "<td>{}</td>", ((c,) for c in r)),) for r in rows),
        )
        return format_html('<table class="match-results">{}{}</table>', head, body)

    @staticmethod
    def _entrant(entrant: dict[str, Any]) -> SafeString:
        label = str(entrant.get("label", ""))
        if entrant.get("kind") == "version" and entrant.get("version_id"):
            url = reverse("admin:bots_botversion_change", args=[entrant["version_id"]])
            link = format_html('<a href="{}">{}</a>', url, label)
            if entrant.get("external"):
                return format_html("{} ({})", link, pgettext_lazy("admin", "external bot"))
            return link
        return format_html("{}", label)
