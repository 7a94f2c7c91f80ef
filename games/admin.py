from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from games.models import Action, ChatMessage, Game, Seat, Table

M = TypeVar("M", bound=models.Model)


class StaffOnlyAdmin(admin.ModelAdmin[M]):
    """Hidden from, and closed to, a signed-in user who is not staff: every user may enter the
    admin for their own bots (bots.admin), and for nothing else. Staff keep their permissions."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff) and super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and super().has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff) and super().has_add_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and super().has_delete_permission(request, obj)


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    fields = (
        "index",
        "kind",
        "user",
        "bot_version",
        "house_level",
        "ready",
        "strikes",
        "disqualified",
    )
    raw_id_fields = ("user", "bot_version")


@admin.register(Table)
class TableAdmin(StaffOnlyAdmin[Table]):
    list_display = ("code", "name", "game", "owner", "visibility", "status", "created_at")
    list_filter = ("status", "visibility", "game", "created_at")
    search_fields = ("code", "name", "owner__username")
    readonly_fields = ("code", "created_at", "updated_at")
    raw_id_fields = ("owner",)
    date_hierarchy = "created_at"
    inlines = (SeatInline,)


@admin.register(Seat)
class SeatAdmin(StaffOnlyAdmin[Seat]):
    list_display = ("table", "index", "kind", "user", "bot_version", "ready", "disqualified")
    list_filter = ("kind", "ready", "disqualified")
    search_fields = ("table__code", "table__name", "user__username", "bot_version__bot__name")
    raw_id_fields = ("table", "user", "bot_version")


@admin.register(Game)
class GameAdmin(StaffOnlyAdmin[Game]):
    list_display = (
        "table",
        "number",
        "engine",
        "status",
        "version",
        "winner_seat",
        "started_at",
        "ended_at",
    )
    list_filter = ("status", "engine", "started_at")
    search_fields = ("table__code", "table__name")
    raw_id_fields = ("table",)
    readonly_fields = ("seed",)
    date_hierarchy = "started_at"


@admin.register(Action)
class ActionAdmin(StaffOnlyAdmin[Action]):
    list_display = ("game", "seq", "seat", "actor", "created_at")
    list_filter = ("actor",)
    search_fields = ("game__table__code",)
    raw_id_fields = ("game",)


@admin.register(ChatMessage)
class ChatMessageAdmin(StaffOnlyAdmin[ChatMessage]):
    list_display = ("created_at", "room", "table", "author", "is_system", "text")
    list_filter = ("room", "is_system", "created_at")
    search_fields = ("text", "author__username", "table__code")
    raw_id_fields = ("table", "author")


# Tournament rows (games/tournaments/models.py) have their admin beside them.
import games.tournaments.admin  # noqa: E402, F401

# Quick play and people's ratings (games/quickplay/models.py) likewise.
from games.quickplay import admin as quickplay_admin  # noqa: E402, F401
