"""The ladder's models (imported by :mod:`bots.models`, so they belong to the bots app)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class LadderEntrant(models.Model):
    """One entrant of the ladder of ``game`` at ``seats`` seats: a bot's promoted version, or a
    house AI (``house_level``, a fixed anchor). ``mu``/``sigma`` are its current skill (the
    per-set update, replaced by every refit); ``games`` and ``faults`` count its ladder games and
    those where it earned a strike (a crash, a timeout, an illegal move)."""

    class State(models.TextChoices):
        PLACING = "placing", _("Placing")
        SETTLED = "settled", _("Settled")
        SUSPENDED = "suspended", _("Suspended")
        RETIRED = "retired", _("Replaced")

    game = models.CharField(pgettext_lazy("admin", "game"), max_length=20)
    seats = models.PositiveSmallIntegerField(pgettext_lazy("admin", "seats"))
    bot = models.ForeignKey(
        "bots.Bot", on_delete=models.CASCADE, null=True, blank=True, related_name="ladder_entries"
    )
    version = models.ForeignKey(
        "bots.BotVersion",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ladder_entries",
    )
    house_level = models.CharField(
        pgettext_lazy("admin", "house AI"), max_length=16, blank=True, default=""
    )
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    games = models.PositiveIntegerField(pgettext_lazy("admin", "games"), default=0)
    faults = models.PositiveIntegerField(pgettext_lazy("admin", "faulty games"), default=0)
    state = models.CharField(
        pgettext_lazy("admin", "state"),
        max_length=10,
        choices=State.choices,
        default=State.PLACING,
    )
    #: Why it is suspended (a stable code: ``faults``).
    reason = models.CharField(pgettext_lazy("admin", "reason"), max_length=20, blank=True)
    last_played_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ladder entrant")
        verbose_name_plural = _("ladder entrants")
        ordering = ["game", "seats", "-mu"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seats", "version"],
                condition=Q(version__isnull=False),
                name="ladder_unique_version",
            ),
            models.UniqueConstraint(
                fields=["game", "seats", "house_level"],
                condition=~Q(house_level=""),
                name="ladder_unique_house",
            ),
        ]

    def __str__(self) -> str:
        who = self.house_level or f"version {self.version_id}"
        return f"ladder {self.game}/{self.seats}: {who}"

    @property
    def anchor(self) -> bool:
        return bool(self.house_level)


class LadderSet(models.Model):
    """One duplicate set: one deal (``seed``) played in every rotation at once, one table per
    rotation (:class:`LadderTable`). ``field`` are the entrant ids in field order (the focus
    first); ``totals`` each one's total over the set once it is recorded; ``faults`` each one's
    faulty games in it."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        VOID = "void", _("Void")

    game = models.CharField(pgettext_lazy("admin", "game"), max_length=20)
    seats = models.PositiveSmallIntegerField(pgettext_lazy("admin", "seats"))
    seed = models.BigIntegerField(pgettext_lazy("admin", "seed"))
    field = models.JSONField(pgettext_lazy("admin", "field"), default=list)
    totals = models.JSONField(pgettext_lazy("admin", "totals"), default=list, blank=True)
    faults = models.JSONField(pgettext_lazy("admin", "faults"), default=list, blank=True)
    status = models.CharField(
        pgettext_lazy("admin", "status"),
        max_length=10,
        choices=Status.choices,
        default=Status.RUNNING,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("ladder set")
        verbose_name_plural = _("ladder sets")
        ordering = ["-pk"]
        indexes = [models.Index(fields=["game", "seats", "status"], name="ladderset_status_idx")]

    def __str__(self) -> str:
        return f"ladder set {self.pk} ({self.game}/{self.seats})"


class LadderTable(models.Model):
    """The table of one rotation of a :class:`LadderSet` (one game, dealt the set's seed)."""

    ladder_set = models.ForeignKey(LadderSet, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="ladder_table"
    )
    rotation = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name = _("ladder table")
        verbose_name_plural = _("ladder tables")
        ordering = ["ladder_set", "rotation"]
        constraints = [
            models.UniqueConstraint(
                fields=["ladder_set", "rotation"], name="laddertable_unique_rotation"
            )
        ]

    def __str__(self) -> str:
        return f"ladder set {self.ladder_set_id} rotation {self.rotation}"
