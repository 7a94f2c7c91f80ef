"""Admin of quick play and people's ratings (read mostly: the services write these rows)."""

from __future__ import annotations

from django.contrib import admin

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


@admin.register(PersonRatingEvent)
class PersonRatingEventAdmin(admin.ModelAdmin[PersonRatingEvent]):
    list_display = ("user", "game", "played", "rank", "rated_players", "mu_before", "mu_after")
    list_filter = ("game",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "played")
