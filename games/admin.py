from __future__ import annotations

from django.contrib import admin

from games.models import Action, ChatMessage, Game, Seat, Table


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
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ("code", "name", "game", "owner", "visibility", "status", "created_at")
    list_filter = ("status", "visibility", "game", "created_at")
    search_fields = ("code", "name", "owner__username")
    readonly_fields = ("code", "created_at", "updated_at")
    raw_id_fields = ("owner",)
    date_hierarchy = "created_at"
    inlines = (SeatInline,)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin[Seat]):
    list_display = ("table", "index", "kind", "user", "bot_version", "ready", "disqualified")
    list_filter = ("kind", "ready", "disqualified")
    search_fields = ("table__code", "table__name", "user__username", "bot_version__bot__name")
    raw_id_fields = ("table", "user", "bot_version")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
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
class ActionAdmin(admin.ModelAdmin[Action]):
    list_display = ("game", "seq", "seat", "actor", "created_at")
    list_filter = ("actor",)
    search_fields = ("game__table__code",)
    raw_id_fields = ("game",)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin[ChatMessage]):
    list_display = ("created_at", "room", "table", "author", "is_system", "text")
    list_filter = ("room", "is_system", "created_at")
    search_fields = ("text", "author__username", "table__code")
    raw_id_fields = ("table", "author")
