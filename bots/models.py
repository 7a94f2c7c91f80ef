"""User-written JavaScript bots and their immutable, numbered versions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_CODE_LENGTH = 200_000


class Bot(models.Model):
    """A bot slot owned by a user; its code lives in numbered versions."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="bot_unique_name_per_owner"),
        ]
        indexes = [models.Index(fields=["owner", "-updated_at"], name="bot_owner_idx")]

    def __str__(self) -> str:
        return self.name


class BotVersion(models.Model):
    """One saved revision of a bot's code. Versions are never edited, only added."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending validation")
        READY = "ready", _("Ready")
        NOT_READY = "not_ready", _("Not ready")

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    code = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    validation = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="botversion_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="botversion_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"
