"""Tables, seats, games, actions and chat.

A *table* is a session of N games (seed 002 §2) with 2–7 *seats* (each game's own range:
``game_seat_range``). Each *game* keeps the engine's
current state as JSON plus an append-only log of *actions* numbered by ``seq``; ``Game.version``
equals the number of actions applied. The rules themselves live in the pure ``games.engine``
package, never here.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine.registry import DEFAULT_GAME, GAMES
from games.occupants import Occupant, new_table_code

MIN_SEATS = 2
#: The most seats any registered game takes (7 today); the seat index check constraint uses it,
#: so a game with more players needs a migration (``makemigrations --check`` fails until then).
MAX_SEATS = max(engine.max_players for engine in GAMES.values())
SESSION_LENGTHS = (16, 32)


class Mode(models.TextChoices):
    CASUAL = "casual", _("Casual")
    PRACTICE = "practice", _("Practice")
    ARENA = "arena", _("Bot arena")
    HYBRID = "hybrid", _("Hybrid")
    TOURNAMENT = "tournament", _("Tournament")
    LADDER = "ladder", _("Ladder")


def game_table_options(game: str | None) -> dict[str, Any]:
    """A game's own table options with their defaults: the engine's ``table_options``; empty
    for a game without any or an unknown one. The table passes them to the engine's
    ``session_start``."""
    engine = GAMES.get(game) if isinstance(game, str) else None
    return dict(engine.table_options) if engine is not None else {}


def game_seat_range(game: str | None) -> tuple[int, int]:
    """The seat counts a table of ``game`` allows: the engine's ``min_players`` ..
    ``max_players`` within ``MIN_SEATS`` .. ``MAX_SEATS`` (that whole range for no or an
    unknown game).

    >>> game_seat_range("tienlen"), game_seat_range("stud")
    ((2, 4), (2, 7))
    """
    engine = GAMES.get(game) if isinstance(game, str) else None
    if engine is None:
        return MIN_SEATS, MAX_SEATS
    return max(MIN_SEATS, engine.min_players), min(MAX_SEATS, engine.max_players)


#: The ``spectator_hands`` table option (docs/protocol.md "Watching with hands shown"): may a
#: spectator of a casual table choose to see every hand live? ``never`` (the default, also when
#: the option is absent) or ``live``. A rated table (:func:`is_rated`) never shows them live.
SPECTATOR_HANDS_NEVER = "never"
SPECTATOR_HANDS_LIVE = "live"
SPECTATOR_HANDS = (SPECTATOR_HANDS_NEVER, SPECTATOR_HANDS_LIVE)


def is_rated(table: Any) -> bool:
    """Whether ``table``'s games are rated: a tournament's table, or ``options["rated"]`` is
    true (a quick-play table). The one rule every "rated" check asks.

    >>> is_rated(Table(options={"mode": "casual"})), is_rated(Table(options={"rated": True}))
    (False, True)
    """
    options = table.options if isinstance(table.options, dict) else {}
    return table.mode == Mode.TOURNAMENT.value or options.get("rated") is True


def spectator_hands_live(table: Any) -> bool:
    """Whether a spectator of ``table`` may choose to see every hand live: the host chose
    ``spectator_hands: live`` and the table is not rated (:func:`is_rated`)."""
    options = table.options if isinstance(table.options, dict) else {}
    live = options.get("spectator_hands") == SPECTATOR_HANDS_LIVE
    return live and not is_rated(table)


def default_table_options(game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Options of a new table of ``game``; validated by :func:`validate_table_options`."""
    return {
        "seats": 4,
        "session_length": 16,
        "turn_seconds": 30,
        "mode": Mode.CASUAL.value,
        **game_table_options(game),
    }


def _game_option_defaults(game: str | None) -> dict[str, Any]:
    """The game's option defaults, or (no game: the field validator) every game's."""
    if game is not None:
        return game_table_options(game)
    merged: dict[str, Any] = {}
    for name in GAMES:
        merged.update(game_table_options(name))
    return merged


def _round_games_errors(options: dict[str, Any]) -> dict[str, str]:
    """A tournament or ladder table's ``round_games``: only there, and 1 to the longest
    session."""
    round_games = options["round_games"]
    if options.get("mode") not in (Mode.TOURNAMENT.value, Mode.LADDER.value):
        return {"round_games": "Only a tournament or ladder table has round games."}
    if (
        not isinstance(round_games, int)
        or isinstance(round_games, bool)
        or not 1 <= round_games <= max(SESSION_LENGTHS)
    ):
        return {"round_games": f"Round games must be between 1 and {max(SESSION_LENGTHS)}."}
    return {}


def _own_option_errors(options: dict[str, Any], own: dict[str, Any]) -> dict[str, str]:
    """A game's own options keep the type of their defaults (true/false, whole numbers)."""
    errors: dict[str, str] = {}
    for name, default in own.items():
        value = options.get(name, default)
        if isinstance(default, bool) and not isinstance(value, bool):
            errors[name] = "Must be true or false."
        elif (
            isinstance(default, int)
            and not isinstance(default, bool)
            and (not isinstance(value, int) or isinstance(value, bool))
        ):
            errors[name] = "Must be a whole number."
    return errors


def _spectator_hands_errors(options: dict[str, Any]) -> dict[str, str]:
    """``spectator_hands``: "never" or "live", and never "live" at a rated table (its watchers
    see the hands one game behind, docs/history.md "Watching with hands shown")."""
    hands = options.get("spectator_hands", SPECTATOR_HANDS_NEVER)
    if hands not in SPECTATOR_HANDS:
        return {
            "spectator_hands": str(_("Spectators' view of the hands must be “never” or “live”."))
        }
    if hands == SPECTATOR_HANDS_LIVE and (
        options.get("mode") == Mode.TOURNAMENT.value or options.get("rated") is True
    ):
        return {
            "spectator_hands": str(
                _(
                    "A rated table never shows the hands live: its watchers see them one game behind."  # noqa: E501
                )
            )
        }
    return {}


def validate_table_options(options: Any, game: str | None = None) -> None:
    """Raise ``ValidationError`` unless ``options`` is a well-formed table options dict.

    Without ``game`` (the model field's validator) any game's own options are allowed and only
    their types are checked; with ``game`` (:meth:`Table.clean`, the services) only that game's
    are, and the engine's ``session_start`` judges their values."""
    if not isinstance(options, dict):
        raise ValidationError(_("Options must be an object."), code="invalid")
    errors: dict[str, str] = {}
    own = _game_option_defaults(game)
    unknown = (
        set(options)
        - set(default_table_options(game=""))
        - set(own)
        - {"round_games", "rated", "quickplay", "spectator_hands"}
    )
    if unknown:
        errors["options"] = f"Unknown options: {', '.join(sorted(unknown))}."
    seats = options.get("seats", 4)
    low, high = game_seat_range(game)
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        errors["seats"] = f"Seats must be between {low} and {high}."
    if options.get("session_length", 16) not in SESSION_LENGTHS:
        errors["session_length"] = "A session has 16 or 32 games."
    if "round_games" in options:  # a tournament table: its round's games (of the session's)
        errors.update(_round_games_errors(options))
    for flag in ("rated", "quickplay"):  # a quick-play table (docs/quickplay.md)
        if flag in options and not isinstance(options[flag], bool):
            errors[flag] = "Must be true or false."
    errors.update(_spectator_hands_errors(options))
    turn_seconds = options.get("turn_seconds", 30)
    if not isinstance(turn_seconds, int) or not 5 <= turn_seconds <= 300:
        errors["turn_seconds"] = "Turn time must be between 5 and 300 seconds."
    errors.update(_own_option_errors(options, own))
    if options.get("mode", Mode.CASUAL.value) not in Mode.values:
        errors["mode"] = f"Mode must be one of {', '.join(Mode.values)}."
    if not errors and game is not None:
        engine = GAMES.get(game)
        if engine is not None:
            chosen = {k: options.get(k, v) for k, v in own.items()}
            try:
                engine.session_start(
                    seats,
                    int(options.get("session_length", 16)),
                    {**chosen, "turn_seconds": turn_seconds},
                )
            except ValueError as exc:
                errors["options"] = str(getattr(exc, "detail", "") or exc)
    if errors:
        raise ValidationError(errors)


class Table(models.Model):
    """A table session: 2–7 seats (the game's own range) playing 16 or 32 games of one engine."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        READY = "ready", _("Ready")
        IN_PROGRESS = "in_progress", _("In progress")
        COMPLETED = "completed", _("Completed")

    code = models.CharField(max_length=16, unique=True, default=new_table_code, editable=False)
    name = models.CharField(max_length=80)
    game = models.CharField(
        max_length=32, default=DEFAULT_GAME, help_text=_("Engine name, e.g. 'tienlen'.")
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_tables"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    options = models.JSONField(default=default_table_options, validators=[validate_table_options])
    version = models.PositiveIntegerField(
        default=0, help_text=_("Bumped on every lobby change; clients drop stale updates.")
    )
    session = models.JSONField(
        null=True, blank=True, help_text=_("The engine's table-session state (totals, results).")
    )
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text=_("End of the start countdown while it runs.")
    )
    next_game_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the next game is dealt automatically.")
    )
    session_first_game = models.PositiveIntegerField(
        default=1,
        help_text=_(
            "Number of the current session's first game: a rematch starts a new session at the "
            "same table and the table keeps counting its games."
        ),
    )
    rematch = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The open rematch offer after a session (who offered, answers, deadline)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["visibility", "status", "-created_at"], name="table_lobby_idx"),
            models.Index(fields=["owner", "-created_at"], name="table_owner_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"

    def clean(self) -> None:
        super().clean()
        validate_table_options(self.options, game=self.game)

    @property
    def seat_count(self) -> int:
        return int(self.options.get("seats", 4))

    @property
    def mode(self) -> str:
        return str(self.options.get("mode", Mode.CASUAL.value))

    @property
    def games_total(self) -> int:
        """How many games the table's session has for its players: the session length, or at a
        tournament table the round's games (``round_games``; the session ends after them)."""
        return int(self.options.get("round_games") or self.options.get("session_length", 16))


class Seat(Occupant):
    """One place at a table: empty, a person, a user's bot version, or a house bot."""

    class Kind(models.TextChoices):
        EMPTY = "empty", _("Empty")
        HUMAN = "human", _("Human")
        BOT = "bot", _("Bot")
        HOUSE = "house", _("House bot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.EMPTY)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot_version = models.ForeignKey(
        "bots.BotVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    # NULL (not "") marks "no house bot": the seat_kind_matches_occupant constraint tests it.
    house_level = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    name = models.CharField(
        max_length=80,
        blank=True,
        default="",
        help_text=_("A house AI's name at this table (blank: the usual one of its seat)."),
    )
    ready = models.BooleanField(default=False)
    strikes = models.PositiveSmallIntegerField(default=0)
    disqualified = models.BooleanField(default=False)
    connections = models.PositiveSmallIntegerField(
        default=0, help_text=_("Open sockets of the seated user.")
    )
    away_since = models.DateTimeField(
        null=True, blank=True, help_text=_("When the seated user's last socket closed.")
    )
    auto = models.BooleanField(
        default=False, help_text=_("Played by the house policy until the player returns.")
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.CheckConstraint(condition=Q(index__lt=MAX_SEATS), name="seat_index_range"),
            models.CheckConstraint(
                condition=Occupant.occupant_condition("empty", "human", "bot", "house"),
                name="seat_kind_matches_occupant",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code}#{self.index} ({self.kind})"


class Game(models.Model):
    """Game *number* of a table's session: engine state now, and its archive when finished."""

    #: Not a column: the seats that had a stored move when ``games.services.sql.game_seats``
    #: read this row (a bot-turn task's read, for the bot player of that turn); None when it
    #: was read otherwise (a locked table's game, ``lock_table``, never carries it).
    moved_seats: frozenset[int] | None = None

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(
        help_text=_("The table's game number (a rematch's session goes on counting).")
    )
    session_position = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("n of N in its table session (blank: the number, a table's first session)."),
    )
    engine = models.CharField(max_length=32)
    rules_version = models.CharField(max_length=16, default="1")
    seed = models.BigIntegerField(help_text=_("RNG seed. Never sent to a client while live."))
    config = models.JSONField(default=dict, blank=True)
    state = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=0, help_text=_("Number of actions applied."))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    players = models.JSONField(default=list, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    total_rounds = models.PositiveIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    game_log = models.JSONField(
        null=True,
        blank=True,
        help_text=_("Compact archive: rules version, config, seed, actions, result, summary."),
    )
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When game_log was written by the archiving task."),
    )
    result = models.JSONField(null=True, blank=True)
    notified = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("Seed-004 notification state: who was told it is their turn, per version."),
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=Q(status="running", ended_at__isnull=True) | ~Q(status="running"),
                name="game_running_not_ended",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "-ended_at"], name="game_recent_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} game {self.number} ({self.status})"

    @property
    def position(self) -> int:
        """n of N in its table session: the number, or after a rematch its place in the new
        session (the table keeps counting, so ``number`` stays the game's address)."""
        return int(self.session_position or self.number)


class Action(models.Model):
    """One applied action, in order. ``(game, seq)`` is unique: a replayed write fails loudly."""

    class Actor(models.TextChoices):
        HUMAN = "human", _("Human")
        BOT = "bot", _("Bot")
        HOUSE = "house", _("House bot")
        TIMEOUT = "timeout", _("Timeout")
        SYSTEM = "system", _("System")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    actor = models.CharField(max_length=8, choices=Actor.choices)
    bot_record = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "A bot seat's move record (time used, strike reason, console output). "
            "Only the bot's owner ever sees it."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} #{self.seq} seat {self.seat} ({self.actor})"


class ChatMessage(models.Model):
    """A chat line in the lobby (no table) or at a table, for players or for spectators."""

    class Room(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        TABLE = "table", _("Table")
        SPECTATORS = "spectators", _("Spectators")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="chat_messages"
    )
    room = models.CharField(max_length=12, choices=Room.choices, default=Room.TABLE)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="chat_messages",
    )
    #: The line as written; for a system line the English rendering of ``code`` + ``params``
    #: (old rows, the admin, and clients that do not know the code).
    text = models.CharField(max_length=500)
    is_system = models.BooleanField(default=False)
    #: A system line's stable code (``games.realtime.SYSTEM_CODES``); clients render it in the
    #: reader's language from ``params``. Null for players' lines and older system lines.
    code = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001 (null: no code)
    params = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(room="lobby", table__isnull=True)
                | (~Q(room="lobby") & Q(table__isnull=False)),
                name="chat_room_matches_table",
            ),
        ]
        indexes = [
            models.Index(fields=["table", "room", "created_at"], name="chat_room_idx"),
        ]

    def __str__(self) -> str:
        where = self.table.code if self.table is not None else "lobby"
        return f"[{where}/{self.room}] {self.text[:40]}"


INVITE_TOKEN_BYTES = 24  # 32 url-safe characters: 192 random bits


def new_invite_token() -> str:
    """An unguessable, url-safe token for an invite link ``/tables/invite/<token>/``."""
    return secrets.token_urlsafe(INVITE_TOKEN_BYTES)


class TableInvite(models.Model):
    """An invite link to a private table (docs/protocol.md, "Invite links"): whoever opens it,
    signed in, takes an empty seat. The host revokes it (``revoked_at``); the row stays so that
    an old link says it was revoked rather than that it never existed. A table has at most one
    live (unrevoked) link."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_invites"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invite link")
        verbose_name_plural = _("invite links")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(revoked_at__isnull=True),
                name="invite_one_live_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} invite{' (revoked)' if self.revoked_at else ''}"


# Tournament rows live in games.tournaments (docs/tournaments.md), registered with this app here.
# Quick play and people's per-game ratings (docs/quickplay.md).
from games.quickplay.models import (  # noqa: E402, F401
    PersonRating,
    PersonRatingEvent,
    PoolEntry,
    QuickPlaySeat,
)
from games.tournaments.models import (  # noqa: E402, F401
    Entry,
    PlayerRating,
    PlayerRatingEvent,
    Round,
    RoundResult,
    RoundTable,
    Tournament,
)
