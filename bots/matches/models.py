"""The :class:`Match` model (imported by :mod:`bots.models`, so it belongs to the bots app)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Match(models.Model):
    """A duplicate-deal match of a field of entrants over ``deals`` deals of ``game`` from
    ``seed`` (:func:`games.engine.duplicate.run_match`), played by a ``lab`` worker.

    ``entrants``: one dict per seat of the field, in field order: ``{"kind": "version",
    "version_id": …, "label": …}`` (an external bot's also ``"external": true, "bot_id": …``)
    or ``{"kind": "house", "level": …, "label": …}``. The lab plays it in slices, round-robin by
    user (:func:`bots.matches.services.match_execute`). The first entrant is the one being
    evaluated. ``report`` is the core's report after the last deal played, ``series`` its
    running estimate (one point per deal), ``stats`` the core's statistics after that deal
    (``DuplicateStats.to_json``: what a resumed run continues from)."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        STOPPED = "stopped", _("Stopped")
        FINISHED = "finished", _("Finished")
        FAILED = "failed", _("Failed")

    IN_FLIGHT = (Status.QUEUED, Status.RUNNING)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bot_matches",
        verbose_name=pgettext_lazy("admin", "owner"),
    )
    game = models.CharField(pgettext_lazy("admin", "game"), max_length=20)
    entrants = models.JSONField(pgettext_lazy("admin", "entrants"), default=list)
    deals = models.PositiveIntegerField(pgettext_lazy("admin", "deals"))
    seed = models.BigIntegerField(pgettext_lazy("admin", "seed"))
    stop_when_separated = models.BooleanField(
        pgettext_lazy("admin", "stop when separated"), default=False
    )
    status = models.CharField(
        pgettext_lazy("admin", "status"),
        max_length=10,
        choices=Status.choices,
        default=Status.QUEUED,
    )
    deals_done = models.PositiveIntegerField(pgettext_lazy("admin", "deals played"), default=0)
    report = models.JSONField(pgettext_lazy("admin", "report"), default=dict, blank=True)
    series = models.JSONField(pgettext_lazy("admin", "series"), default=list, blank=True)
    error = models.CharField(pgettext_lazy("admin", "error"), max_length=40, blank=True, default="")
    stop_requested = models.BooleanField(pgettext_lazy("admin", "stop requested"), default=False)
    created_at = models.DateTimeField(pgettext_lazy("admin", "created at"), auto_now_add=True)
    started_at = models.DateTimeField(pgettext_lazy("admin", "started at"), null=True, blank=True)
    finished_at = models.DateTimeField(pgettext_lazy("admin", "finished at"), null=True, blank=True)
    #: When it (last) joined the lab's queue: created, back for its next slice, or resumed
    #: (the order of one user's matches in :func:`bots.matches.services.next_slice`).
    queued_at = models.DateTimeField(pgettext_lazy("admin", "queued at"), null=True, blank=True)
    #: When its last slice began (the round-robin by user of ``next_slice``).
    served_at = models.DateTimeField(
        pgettext_lazy("admin", "last slice started"), null=True, blank=True
    )
    #: Last sign of life: when it was (re)queued, its last deal was saved, or a move began
    #: (every ``BOTS_MATCH_HEARTBEAT_SECONDS``; the healer).
    heartbeat_at = models.DateTimeField(
        pgettext_lazy("admin", "last sign of life"), null=True, blank=True
    )
    #: ``DuplicateStats.to_json()`` after the last saved deal (the healer resumes from it).
    stats = models.JSONField(pgettext_lazy("admin", "statistics"), default=dict, blank=True)
    #: Times the healer resumed it after its worker was lost; it also tells a run (the worker
    #: that claimed it) from a later one, so a presumed-dead worker never writes over it.
    resumes = models.PositiveSmallIntegerField(pgettext_lazy("admin", "resumes"), default=0)

    class Meta:
        verbose_name = _("bot match")
        verbose_name_plural = _("bot matches")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="botmatch_owner_idx"),
            models.Index(fields=["status", "heartbeat_at"], name="botmatch_status_idx"),
            models.Index(fields=["owner", "-served_at"], name="botmatch_served_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(deals__gte=1), name="botmatch_deals_min"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, {self.deals} deals)"

    @property
    def in_flight(self) -> bool:
        return self.status in self.IN_FLIGHT

    @property
    def labels(self) -> list[str]:
        return [str(e.get("label", "")) for e in self.entrants]

    @property
    def progress(self) -> float:
        return min(1.0, self.deals_done / self.deals) if self.deals else 0.0

    def entrant(self, index: int) -> dict[str, Any]:
        return dict(self.entrants[index])
