"""Tournament rows (registered with the games app: ``games/models.py`` imports this module;
this one does not import it back).

All of a tournament's state is here, in PostgreSQL: a restart of any process loses nothing; the
beat task (``games.tournaments_tick``) picks up where things stand.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.display import game_label
from games.occupants import Occupant, new_table_code

MAX_ROUNDS = 20
MAX_GAMES_PER_ROUND = 16


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round-robin")
        SWISS = "swiss", _("Swiss")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        INVITE = "invite", _("By invitation")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Open for entries")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(pgettext_lazy("admin", "name"), max_length=80)
    game = models.CharField(pgettext_lazy("admin", "game"), max_length=32)
    format = models.CharField(
        pgettext_lazy("admin", "format"),
        max_length=16,
        choices=Format.choices,
        default=Format.SWISS,
    )
    visibility = models.CharField(
        pgettext_lazy("admin", "visibility"),
        max_length=8,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
    )
    invite_code = models.CharField(
        pgettext_lazy("admin", "invite code"), max_length=16, default=new_table_code, editable=False
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournaments",
        verbose_name=pgettext_lazy("admin", "creator"),
    )
    start_at = models.DateTimeField(pgettext_lazy("admin", "starts at"))
    rounds = models.PositiveSmallIntegerField(pgettext_lazy("admin", "number of rounds"), default=3)
    table_size = models.PositiveSmallIntegerField(pgettext_lazy("admin", "table size"), default=4)
    games_per_round = models.PositiveSmallIntegerField(
        pgettext_lazy("admin", "games per round"), default=2
    )
    turn_seconds = models.PositiveSmallIntegerField(
        pgettext_lazy("admin", "seconds per turn"), default=30
    )
    round_gap_seconds = models.PositiveIntegerField(
        pgettext_lazy("admin", "break between rounds (seconds)"),
        default=60,
        help_text=_("Break between the end of a round and the start of the next."),
    )
    status = models.CharField(
        pgettext_lazy("admin", "status"),
        max_length=16,
        choices=Status.choices,
        default=Status.REGISTRATION,
    )
    created_at = models.DateTimeField(pgettext_lazy("admin", "created at"), auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "tournament")
        verbose_name_plural = pgettext_lazy("admin", "tournaments")
        ordering = ["-start_at"]
        indexes = [models.Index(fields=["status", "start_at"], name="tournament_due_idx")]
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1, rounds__lte=MAX_ROUNDS), name="tournament_rounds"
            ),
            models.CheckConstraint(
                condition=Q(games_per_round__gte=1, games_per_round__lte=MAX_GAMES_PER_ROUND),
                name="tournament_games_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({game_label(self.game)}, {self.get_format_display()})"


class Entry(Occupant):
    """An entrant: a person, a house AI (added by the creator) or a bot version (entered by
    its owner, who is ``user``)."""

    class Kind(models.TextChoices):
        HUMAN = "human", _("Person")
        HOUSE = "house", _("House AI")
        BOT = "bot", _("Bot")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=pgettext_lazy("admin", "tournament"),
    )
    kind = models.CharField(pgettext_lazy("admin", "kind"), max_length=8, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_entries",
        verbose_name=pgettext_lazy("admin", "user"),
        help_text=_("The person; for a bot or a house AI, who entered it."),
    )
    house_level = models.CharField(  # noqa: DJ001
        pgettext_lazy("admin", "house AI level"), max_length=16, null=True, blank=True
    )
    bot_version = models.ForeignKey(
        "bots.BotVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries",
        verbose_name=pgettext_lazy("admin", "bot version"),
    )
    created_at = models.DateTimeField(pgettext_lazy("admin", "created at"), auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "entry")
        verbose_name_plural = pgettext_lazy("admin", "entries")
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(kind="human"),
                name="entry_one_person",
            ),
            models.UniqueConstraint(
                fields=["tournament", "bot_version"],
                condition=Q(kind="bot"),
                name="entry_one_bot_version",
            ),
            models.CheckConstraint(
                condition=Occupant.occupant_condition("human", "house", "bot"),
                name="entry_kind_matches",
            ),
        ]

    def __str__(self) -> str:
        return f"entry {self.pk} ({self.kind})"


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Scheduled")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="round_set",
        verbose_name=pgettext_lazy("admin", "tournament"),
    )
    number = models.PositiveSmallIntegerField(pgettext_lazy("admin", "number"))
    start_at = models.DateTimeField(pgettext_lazy("admin", "starts at"))
    status = models.CharField(
        pgettext_lazy("admin", "status"),
        max_length=10,
        choices=Status.choices,
        default=Status.PENDING,
    )
    seeds = models.JSONField(
        pgettext_lazy("admin", "deal seeds"),
        default=list,
        blank=True,
        help_text=_("The round's deal seeds: game n of every table."),
    )
    started_at = models.DateTimeField(pgettext_lazy("admin", "started at"), null=True, blank=True)
    ended_at = models.DateTimeField(pgettext_lazy("admin", "ended at"), null=True, blank=True)

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "round")
        verbose_name_plural = pgettext_lazy("admin", "rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]
        indexes = [models.Index(fields=["status", "start_at"], name="round_due_idx")]

    def __str__(self) -> str:
        return gettext("%(tournament)s round %(number)d (%(status)s)") % {
            "tournament": self.tournament_id,
            "number": self.number,
            "status": self.get_status_display(),
        }


class RoundTable(models.Model):
    """One table of a round: ``seats`` holds the entry id at each seat (None: a filler house
    AI that is not an entrant)."""

    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        related_name="tables",
        verbose_name=pgettext_lazy("admin", "round"),
    )
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.CASCADE,
        related_name="tournament_table",
        verbose_name=pgettext_lazy("admin", "table"),
    )
    index = models.PositiveSmallIntegerField(pgettext_lazy("admin", "index"))
    seats = models.JSONField(pgettext_lazy("admin", "seats (entry ids)"), default=list)
    finished_at = models.DateTimeField(pgettext_lazy("admin", "finished at"), null=True, blank=True)

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "round table")
        verbose_name_plural = pgettext_lazy("admin", "round tables")
        ordering = ["round", "index"]

    def __str__(self) -> str:
        return gettext("round %(round)s table %(index)d") % {
            "round": self.round_id,
            "index": self.index,
        }


class RoundResult(models.Model):
    """An entrant's result in a round: its table's session total and the points it earned."""

    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        related_name="results",
        verbose_name=pgettext_lazy("admin", "round"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        related_name="results",
        verbose_name=pgettext_lazy("admin", "entry"),
    )
    round_table = models.ForeignKey(
        RoundTable,
        on_delete=models.CASCADE,
        related_name="results",
        verbose_name=pgettext_lazy("admin", "round table"),
    )
    seat = models.PositiveSmallIntegerField(pgettext_lazy("admin", "seat"))
    total = models.IntegerField(pgettext_lazy("admin", "session total"))
    points = models.FloatField(pgettext_lazy("admin", "points"))

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "round result")
        verbose_name_plural = pgettext_lazy("admin", "round results")
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="result_one_per_round"),
        ]

    def __str__(self) -> str:
        return gettext("round %(round)s entry %(entry)s: %(points)s") % {
            "round": self.round_id,
            "entry": self.entry_id,
            "points": self.points,
        }


class PlayerRating(models.Model):
    """A person's tournament rating (openskill Plackett–Luce, as bots'), from the tables they
    played in tournament rounds, ranked against the other people at the table."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text=_("mu − 3 sigma: what the standings show."))
    tables = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "player rating")
        verbose_name_plural = pgettext_lazy("admin", "player ratings")
        ordering = ["-ordinal"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.ordinal:.1f}"


class PlayerRatingEvent(models.Model):
    """One rated round table of a person: ``(user, round_table)`` is unique, so a table is never
    rated twice."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_rating_events"
    )
    round_table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, related_name="rating_events"
    )
    rank = models.PositiveSmallIntegerField()
    rated_players = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = pgettext_lazy("admin", "player rating event")
        verbose_name_plural = pgettext_lazy("admin", "player rating events")
        ordering = ["user", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "round_table"], name="player_rating_one_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} table {self.round_table_id}: #{self.rank}"
