"""Admin of quick play and people's ratings (read mostly: the services write these rows)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.translation import gettext as _

from games.quickplay.fairplay import DEFAULT_MAX_P
from games.quickplay.fairplay_report import fairplay_report
from games.quickplay.models import PersonRating, PersonRatingEvent, PoolEntry, QuickPlaySeat


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin[PoolEntry]):
    list_display = ("user", "game", "seats", "mu", "address", "joined_at")
    list_filter = ("game", "seats")
    search_fields = ("user__username", "address")
    raw_id_fields = ("user",)


@admin.register(QuickPlaySeat)
class QuickPlaySeatAdmin(admin.ModelAdmin[QuickPlaySeat]):
    list_display = ("table", "user", "address", "waited_seconds", "created_at")
    search_fields = ("user__username", "address", "table__code")
    raw_id_fields = ("user", "table")


@admin.register(PersonRating)
class PersonRatingAdmin(admin.ModelAdmin[PersonRating]):
    list_display = ("user", "game", "ordinal", "mu", "sigma", "games", "wins", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    #: Adds the "Fair play report" button to the ratings' list.
    change_list_template = "admin/games/personrating/change_list.html"

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view(self.fairplay_view)
        view.model_admin = self  # type: ignore[attr-defined]
        own = [path("fair-play/", view, name="games_fairplay")]
        return own + super().get_urls()

    def fairplay_view(self, request: HttpRequest) -> HttpResponse:
        """Staff only: the pairs of accounts whose games together look like collusion or
        farming (docs/quickplay.md "Fair play report")."""
        if not request.user.is_staff:
            raise PermissionDenied
        context: dict[str, Any] = {
            **self.admin_site.each_context(request),
            "title": _("Fair play report"),
            "rows": fairplay_report(),
            "days": settings.FAIRPLAY_DAYS,
            "min_games": settings.FAIRPLAY_MIN_GAMES,
            "max_p": DEFAULT_MAX_P,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/fairplay.html", context)


@admin.register(PersonRatingEvent)
class PersonRatingEventAdmin(admin.ModelAdmin[PersonRatingEvent]):
    list_display = ("user", "game", "played", "rank", "rated_players", "mu_before", "mu_after")
    list_filter = ("game",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "played")
