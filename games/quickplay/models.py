"""Rows of quick play and people's per-game ratings (docs/quickplay.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy


class PoolEntry(models.Model):
    """A person waiting in the quick-play pool: ``user`` is unique, so a person is in at most
    one pool (one game and seat count) at a time."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quickplay_entry"
    )
    game = models.CharField(max_length=32)
    seats = models.PositiveSmallIntegerField()
    #: The person's rating mu for ``game`` when they joined (what the pairing compares).
    mu = models.FloatField()
    #: The client address at join (fair seating: one address is never seated twice at a table).
    address = models.CharField(max_length=64, blank=True, default="")
    joined_at = models.DateTimeField()

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "quick-play pool entry")
        verbose_name_plural = pgettext_lazy("admin", "quick-play pool entries")
        ordering = ["joined_at", "pk"]
        indexes = [models.Index(fields=["game", "seats", "joined_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}/{self.seats}"


class QuickPlaySeat(models.Model):
    """A person seated at a formed quick-play table (the history the fair-seating rules read)."""

    table = models.ForeignKey(
        "games.Table", on_delete=models.CASCADE, related_name="quickplay_seats"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quickplay_seats"
    )
    address = models.CharField(max_length=64, blank=True, default="")
    waited_seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField()

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "quick-play seat")
        verbose_name_plural = pgettext_lazy("admin", "quick-play seats")
        ordering = ["-created_at", "pk"]
        indexes = [models.Index(fields=["user", "-created_at"])]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="quickplay_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}"


class PersonRating(models.Model):
    """A person's rating in one game (openskill Plackett–Luce, mu 25, sigma 25/3 at first),
    moved by every rated game they finish (quick-play tables: ``options["rated"]``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_ratings"
    )
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "person rating")
        verbose_name_plural = pgettext_lazy("admin", "person ratings")
        ordering = ["game", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="person_rating_one_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}: {self.ordinal:.1f}"


class PersonRatingEvent(models.Model):
    """One rated game of a person; ``(user, played)`` is unique, so a game is rated once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="person_rating_events"
    )
    game = models.CharField(max_length=32)
    played = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="person_rating_events"
    )
    rank = models.PositiveSmallIntegerField()
    rated_players = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField()

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "person rating event")
        verbose_name_plural = pgettext_lazy("admin", "person rating events")
        ordering = ["user", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "played"], name="person_rating_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} game {self.played_id}: #{self.rank}"
