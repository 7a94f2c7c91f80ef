"""User-written JavaScript bots and their immutable, numbered versions."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import skill
from games.engine.registry import DEFAULT_GAME, GAMES

MAX_CODE_LENGTH = 200_000


def game_title(name: str) -> str:
    """The readable name of engine ``name`` (its ``title``; an unknown game shows its name).

    >>> game_title("stud"), game_title("nope")
    ('Seven-Card Stud', 'nope')
    """
    engine = GAMES.get(name)
    return engine.title if engine is not None else name


def game_choices() -> list[tuple[str, str]]:
    """``(engine name, title)`` of every game in the engine registry (``Bot.game`` choices)."""
    return [(name, game_title(name)) for name in GAMES]


class Bot(models.Model):
    """A bot slot owned by a user; its code lives in numbered versions.

    A bot of kind ``external`` has no code: a program elsewhere plays it over the bot token API
    (``bots.external``, docs/bot-api.md). It has one ``ready`` version with empty code, so
    seats, ratings and replays reference it like any version."""

    class Kind(models.TextChoices):
        JS = "js", _("JavaScript (sandbox)")
        EXTERNAL = "external", _("External (token API)")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    game = models.CharField(
        max_length=20,
        choices=game_choices,
        default=DEFAULT_GAME,
        help_text=_("The game this bot plays (fixed when the bot is created)."),
    )
    arena_open = models.BooleanField(
        default=False,
        help_text=_(
            "Open to the arena: other users may seat this bot's ready versions at their "
            "Bot Arena tables (they never see its code or its move records)."
        ),
    )
    kind = models.CharField(
        max_length=10,
        choices=Kind.choices,
        default=Kind.JS,
        help_text=_("Who plays the bot: its JavaScript versions, or an external program."),
    )
    #: SHA-256 (hex) of the external bot's API token; "" = no token. The token itself is shown
    #: once, when it is made (``bots.external.tokens``).
    token_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    token_hint = models.CharField(max_length=12, blank=True, default="", editable=False)
    token_created_at = models.DateTimeField(null=True, blank=True, editable=False)
    #: The version the bot plays with wherever others seat it (arenas, their tables, matches,
    #: tournaments); None = its latest ready version. Its owner may still seat any version.
    promoted_version = models.ForeignKey(
        "BotVersion",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("The version others play against; empty = the latest ready version."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("bot")
        verbose_name_plural = _("bots")
        ordering = ["-updated_at"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="bot_unique_name_per_owner"),
        ]
        indexes = [
            models.Index(fields=["owner", "-updated_at"], name="bot_owner_idx"),
            models.Index(fields=["token_hash"], name="bot_token_idx", condition=~Q(token_hash="")),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_external(self) -> bool:
        return self.kind == Bot.Kind.EXTERNAL

    @property
    def game_title(self) -> str:
        return game_title(self.game)


class BotVersionQuerySet(models.QuerySet["BotVersion"]):
    def seatable(
        self, *, user: Any, game: str | None = None, others: bool = True, free: bool = True
    ) -> BotVersionQuerySet:
        """**The** rule for which versions ``user`` may seat at a table (the Create Table
        form, the table's ``add_bot`` frame, Bot Arena; ``bots.selectors`` and
        ``games.services`` both ask here): ``ready`` versions of the user's own bots and, with
        ``others``, of bots whose owners opened them to others (``Bot.arena_open``); with
        ``game``, only bots written for that game. With ``free`` (the pickers) external bots
        already playing their limit of games are left out; the seating paths ask with
        ``free=False`` and then :func:`bots.seating.external_seats_check` (under a lock)
        refuses them with ``bot_busy``."""
        if user is None or not getattr(user, "is_authenticated", False):
            return self.none()
        # Another user's open bot is seated only with the version it plays with everywhere:
        # its promoted version, else its latest ready one (Promote, docs/bot-lab.md).
        whose = (
            Q(bot__owner=user) | Q(bot__arena_open=True, pk=models.Subquery(playing_version()))
            if others
            else Q(bot__owner=user)
        )
        versions = self.filter(whose, status=BotVersion.Status.READY)
        if free:
            versions = versions.exclude(bot__in=busy_external_bots())
        return versions if game is None else versions.filter(bot__game=game)


def playing_version() -> Any:
    """A subquery (``OuterRef("bot")``) of the id of the version the bot plays with wherever
    others seat it: its ready promoted version, else its latest ready version."""
    promoted = models.Case(
        models.When(pk=models.F("bot__promoted_version"), then=models.Value(0)),
        default=models.Value(1),
    )
    return (
        BotVersion.objects.filter(bot=models.OuterRef("bot"), status=BotVersion.Status.READY)
        .order_by(promoted, "-number")
        .values("pk")[:1]
    )


def move_timeout() -> float:
    """Seconds a bot may think per move (``BOTS_MOVE_TIMEOUT_SECONDS``, 5): at a live table,
    in a duplicate match, and an external bot's limit too. Read on each call (tests change it);
    the one reader of the setting."""
    return float(settings.BOTS_MOVE_TIMEOUT_SECONDS)


def external_games_limit() -> int:
    """Games an external bot may play at once (``BOTS_EXTERNAL_MAX_GAMES``, 4): the tables it
    sits at, and each duplicate-deal match in flight with it (one game each)."""
    return max(1, int(settings.BOTS_EXTERNAL_MAX_GAMES))


def busy_external_bots() -> Any:
    """Ids of the external bots already playing :func:`external_games_limit` games (a
    subquery): tables that are not completed, plus duplicate-deal matches queued or running
    with the bot in their field (a match counts as one game while it runs). ``seatable``
    leaves their versions out, so seating one more is refused like any version that may not
    be seated."""
    from django.db.models.functions import Coalesce, JSONObject

    from games.models import Seat, Table  # bots depends on games, never the reverse

    count = models.Func(models.F("pk"), function="COUNT")
    tables = (
        Seat.objects.filter(bot_version__bot=models.OuterRef("pk"), kind=Seat.Kind.BOT)
        .exclude(table__status=Table.Status.COMPLETED)
        .order_by()
        .annotate(
            n=models.Func(
                models.F("table"), function="COUNT", template="COUNT(DISTINCT %(expressions)s)"
            )
        )
        .values("n")
    )
    # a match's field names an external bot as {"bot_id": <id>, ...} (bots.matches)
    in_field = models.Func(
        JSONObject(bot_id=models.OuterRef("pk")),
        function="JSONB_BUILD_ARRAY",
        output_field=models.JSONField(),
    )
    matches = (
        Match.objects.filter(status__in=Match.IN_FLIGHT, entrants__contains=in_field)
        .order_by()
        .annotate(n=count)
        .values("n")
    )
    zero = models.Value(0)
    return (
        Bot.objects.filter(kind=Bot.Kind.EXTERNAL)
        .annotate(
            games=Coalesce(models.Subquery(tables), zero) + Coalesce(models.Subquery(matches), zero)
        )
        .filter(games__gte=external_games_limit())
        .values("pk")
    )


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

    objects = BotVersionQuerySet.as_manager()

    class Meta:
        verbose_name = _("bot version")
        verbose_name_plural = _("bot versions")
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="botversion_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="botversion_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"


# --------------------------------------------------------------------------- ratings

#: Display scale of a rating: ``RATING_BASE + RATING_SCALE * (mu - 3 * sigma)``. A new bot
#: (mu 25, sigma 25/3) shows 1500; each point of the conservative estimate is worth 24.
RATING_BASE = skill.RATING_BASE
RATING_SCALE = skill.RATING_SCALE
RATING_Z = skill.RATING_Z


def display_rating(mu: float, sigma: float) -> int:
    """The shown rating: the conservative estimate (mu − 3σ), scaled.

    >>> display_rating(25.0, 25.0 / 3)
    1500
    """
    return round(RATING_BASE + RATING_SCALE * (mu - RATING_Z * sigma))


class BotRating(models.Model):
    """A bot's current skill estimate (openskill Plackett–Luce), from its rated arena games.

    A bot is rated as a whole, whichever version played; ``last_version`` is the version of its
    latest rated game, and each :class:`BotRatingEvent` keeps the version of that game.
    """

    bot = models.OneToOneField(Bot, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(
        help_text=_("Conservative estimate mu − 3σ; the leaderboard order.")
    )
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text=_("Games the bot's seat won outright."))
    last_version = models.ForeignKey(
        BotVersion, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    last_played_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("bot rating")
        verbose_name_plural = _("bot ratings")
        ordering = ["-ordinal", "-games", "bot_id"]
        indexes = [models.Index(fields=["-ordinal", "-games"], name="botrating_board_idx")]

    def __str__(self) -> str:
        return f"{self.bot.name}: {self.display}"

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


class BotRatingEvent(models.Model):
    """One rated game of one bot: its place among the rated bots and the rating before/after.

    ``(bot, game_id)`` is unique, so recording a game twice fails loudly instead of counting it
    twice. ``game_id`` is the ``games.Game`` primary key (a plain integer: the bots app does not
    reach into the games app's models).
    """

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="rating_events")
    game_id = models.BigIntegerField()
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField(help_text=_("1 = best-placed of the rated bots."))
    rated_bots = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    played_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bot rating event")
        verbose_name_plural = _("bot rating events")
        ordering = ["bot", "played_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "game_id"], name="botratingevent_unique_game"),
        ]
        indexes = [models.Index(fields=["bot", "played_at"], name="botratingevent_bot_idx")]

    def __str__(self) -> str:
        return f"{self.bot_id} game {self.game_id}: #{self.rank}/{self.rated_bots}"

    @property
    def display_before(self) -> int:
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def display_after(self) -> int:
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def change(self) -> int:
        return self.display_after - self.display_before


# The duplicate-match model lives with its package (bots/matches/); importing it here makes it
# part of the bots app.
from bots.ladder.models import LadderEntrant as LadderEntrant  # noqa: E402
from bots.ladder.models import LadderSet as LadderSet  # noqa: E402
from bots.ladder.models import LadderTable as LadderTable  # noqa: E402
from bots.matches.models import Match as Match  # noqa: E402
