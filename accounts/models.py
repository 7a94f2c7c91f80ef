"""The project's user model (custom from day one, so it can grow without a painful swap)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person who plays, hosts tables and writes bots."""

    display_name = models.CharField(
        _("display name"),
        max_length=50,
        blank=True,
        help_text=_("Shown at tables instead of your username."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def __str__(self) -> str:
        return self.username

    @property
    def public_name(self) -> str:
        """The name other players see."""
        return self.display_name or self.username
