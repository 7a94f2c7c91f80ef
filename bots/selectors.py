"""Read-side queries of the bots app."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Case, F, Max, OuterRef, Q, QuerySet, Subquery, Value, When

from bots.external import presence
from bots.models import DEFAULT_GAME, Bot, BotRating, BotRatingEvent, BotVersion, game_title
from bots.seating import external_offline_filter

if TYPE_CHECKING:
    from accounts.models import User

#: ``games.Game.Status.FINISHED``; games are reached through the ``Seat.bot_version`` relation.
GAME_FINISHED = "finished"


def bot_list(*, owner: User) -> QuerySet[Bot]:
    """The user's bots, most recently changed first, with their latest version number and
    that version's status (``latest_status``)."""
    latest = BotVersion.objects.filter(bot=OuterRef("pk")).order_by("-number")
    return (
        Bot.objects.filter(owner=owner)
        .annotate(
            latest_version=Max("versions__number"),
            latest_status=Subquery(latest.values("status")[:1]),
            promoted_number=F("promoted_version__number"),
        )
        .order_by("-updated_at")
    )


def botversion_list(*, bot: Bot) -> QuerySet[BotVersion]:
    """A bot's versions, newest first, without their code."""
    return BotVersion.objects.filter(bot=bot).defer("code").order_by("-number")


def botversion_get(*, bot: Bot, number: int) -> BotVersion:
    """One version of ``bot`` by number (``BotVersion.DoesNotExist`` if there is none)."""
    return BotVersion.objects.get(bot=bot, number=number)


def botversion_latest(*, bot: Bot) -> BotVersion | None:
    return BotVersion.objects.filter(bot=bot).order_by("-number").first()


def botversion_ready_list(*, owner: User, game: str | None = None) -> QuerySet[BotVersion]:
    """Versions ``owner`` may seat at a table: validated ``ready``, newest first; with
    ``game``, only versions of bots written for that game."""
    versions = BotVersion.objects.filter(bot__owner=owner, status=BotVersion.Status.READY)
    if game is not None:
        versions = versions.filter(bot__game=game)
    return (
        versions.select_related("bot").defer("code", "validation").order_by("bot__name", "-number")
    )


@dataclass
class VersionResults:
    """What one version achieved: its validation game and the real games it played."""

    number: int
    status: str
    created_at: datetime
    validation: dict[str, Any]
    games: int = 0
    wins: int = 0
    points: int = 0
    points_per_game: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def average_points(self) -> float | None:
        return self.points / self.games if self.games else None

    def to_json(self) -> dict[str, Any]:
        validation = {k: v for k, v in self.validation.items() if k != "records"}
        return {
            "number": self.number,
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "validation": validation,
            "games": self.games,
            "wins": self.wins,
            "average_points": (
                None if self.average_points is None else round(self.average_points, 2)
            ),
            "win_rate": None if self.win_rate is None else round(self.win_rate, 3),
        }


def botversion_results(*, bot: Bot, numbers: Iterable[int]) -> list[VersionResults]:
    """Results per version of ``bot`` (in the order asked; unknown numbers are skipped).

    Real games: every finished game of a table where a seat held the version (tables pin the
    version they seated), counted from that seat: a win when ``Game.winner_seat`` is the seat,
    points from ``Game.scores[seat]``. Two queries whatever the number of games.
    """
    wanted = list(dict.fromkeys(numbers))
    versions = {
        v.number: v for v in BotVersion.objects.filter(bot=bot, number__in=wanted).defer("code")
    }
    results = {
        n: VersionResults(
            number=n,
            status=v.status,
            created_at=v.created_at,
            validation=dict(v.validation or {}),
        )
        for n, v in versions.items()
    }
    rows = (
        BotVersion.objects.filter(
            bot=bot, number__in=wanted, seats__table__games__status=GAME_FINISHED
        )
        .values_list(
            "number",
            "seats__index",
            "seats__table__games__winner_seat",
            "seats__table__games__scores",
        )
        .order_by()
    )
    for number, seat, winner, scores in rows:
        res = results[number]
        res.games += 1
        if winner is not None and winner == seat:
            res.wins += 1
        if isinstance(scores, list) and seat < len(scores) and isinstance(scores[seat], int):
            res.points += scores[seat]
            res.points_per_game.append(scores[seat])
    return [results[n] for n in wanted if n in results]


def botversion_seatable_list(
    *, user: Any, game: str | None = None, others: bool = True, free: bool = True
) -> QuerySet[BotVersion]:
    """The versions ``user`` may seat at a table (the one rule,
    :meth:`bots.models.BotVersionQuerySet.seatable`, which ``games.services`` applies to the
    ``add_bot`` frame and Bot Arena): validated ``ready`` versions of the user's own bots and,
    with ``others``, of bots whose owners opened them to others (``Bot.arena_open``); with
    ``game``, only that game's bots. Own versions first; no code is loaded. With ``free`` (a
    picker) the external bots that cannot be seated now are left out: at their limit of games,
    or another user's and offline (bots.seating checks both again when seating)."""
    versions = BotVersion.objects.seatable(user=user, game=game, others=others, free=free)
    if free and others:
        versions = versions.filter(external_offline_filter(user))
    mine = Case(When(bot__owner=user, then=Value(0)), default=Value(1))
    return (
        versions.select_related("bot__owner")
        .defer("code", "validation")
        .order_by(mine, "bot__name", "bot_id", "-number")
    )


def bot_seat_choices(
    user: Any, game: str | None = None, *, free: bool = True
) -> list[tuple[str, str]]:
    """Choices for the Create Table form's bot group (``games.forms.BotChoices``):
    ``("bot:<version id>", "<name> v<number>")`` for each version
    :func:`botversion_seatable_list` allows — the user's own ready versions, then ready
    versions of other users' bots opened to others (labelled ``"… · <owner>"``); a bot of
    another game than Tiến Lên is labelled ``"… · <game>"``. A bot plays one game: with
    ``game`` (the table's) only that game's bots are offered, so a posted bot of another game
    is not a valid choice. ``free=False`` (checking a posted form) keeps the bots that cannot
    be seated now, so the seating says why (``bot_busy``, ``bot_offline``)."""
    choices = []
    versions = list(botversion_seatable_list(user=user, game=game, free=free))
    online = presence.connected(v.bot_id for v in versions if v.bot.is_external)
    for version in versions:
        label = _version_label(version)
        if version.bot.owner_id != user.pk:
            label += f" · {version.bot.owner.public_name}"
        label += presence.suffix(version.bot, online)  # an external bot: connected or offline
        choices.append((f"bot:{version.pk}", label))
    return choices


def _version_label(version: BotVersion) -> str:
    label = f"{version.bot.name} v{version.number}"
    if version.bot.game != DEFAULT_GAME:
        label += f" · {game_title(version.bot.game)}"
    return label


# --------------------------------------------------------------------------- ratings

#: Points of a bot's rating history drawn in its chart (the most recent ones).
HISTORY_LIMIT = 200


def bot_leaderboard(*, game: str = DEFAULT_GAME) -> QuerySet[BotRating]:
    """Rated bots of ``game``, best first: by conservative estimate (mu − 3σ), then games
    played, then bot id (a stable order for pagination). No code is loaded. A bot plays one
    game, so its rating only ever meets bots of that game."""
    return (
        BotRating.objects.filter(games__gt=0, bot__game=game)
        .select_related("bot", "bot__owner")
        .annotate(last_version_number=F("last_version__number"))
        .order_by("-ordinal", "-games", "bot_id")
    )


def botrating_rank(*, rating: BotRating) -> int:
    """The 1-based place of ``rating`` on the :func:`bot_leaderboard` of its bot's game."""
    game = rating.bot.game  # loaded with the rating on the rating page
    ahead = BotRating.objects.filter(games__gt=0, bot__game=game).filter(
        Q(ordinal__gt=rating.ordinal)
        | Q(ordinal=rating.ordinal, games__gt=rating.games)
        | Q(ordinal=rating.ordinal, games=rating.games, bot_id__lt=rating.bot_id)
    )
    return ahead.count() + 1


def bot_public_get(*, bot_id: int) -> Bot | None:
    """A bot with its owner and rating (``bot.rating`` may be missing), for the public rating
    page; None if there is no such bot."""
    return Bot.objects.select_related("owner", "rating").filter(pk=bot_id).first()


def botrating_history(*, bot: Bot, limit: int = HISTORY_LIMIT) -> list[BotRatingEvent]:
    """The bot's last ``limit`` rated games, oldest first, each with ``version_number``."""
    events: list[BotRatingEvent] = list(
        BotRatingEvent.objects.filter(bot=bot)
        .annotate(version_number=F("version__number"))
        .order_by("-played_at", "-pk")[:limit]
    )
    events.reverse()
    return events


# --------------------------------------------------------------------------- arena and practice

#: The game of Bot Arena and Practice tables (``games.services.table_create_arena`` and
#: ``table_create_practice`` deal Tiến Lên); only bots of this game are offered there.
ARENA_GAME = DEFAULT_GAME


def arena_version_choices(
    user: Any, *, own: list[tuple[str, str]] | None = None, free: bool = True
) -> list[tuple[str, str]]:
    """Versions ``user`` may seat at a Bot Arena table, as ``(version id, label)``: each of
    their own ready versions (:func:`practice_version_choices`; pass them as ``own`` when the
    caller has them already), then the version every other user's bot that is open to the arena
    (``Bot.arena_open``) plays with: its promoted version, else its newest ready one. With
    ``free`` (the picker) external bots that cannot be seated now are left out (at their limit,
    or offline); ``free=False`` checks a posted form, and the seating says why (bot_busy...)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    if own is None:
        own = practice_version_choices(user)
    # the one seating rule: another user's open bot is offered with its promoted version, else
    # its latest ready one (BotVersionQuerySet.seatable)
    open_versions = (
        BotVersion.objects.seatable(user=user, game=ARENA_GAME, free=free)
        # offline: others may not seat it (bots.seating)
        .filter(external_offline_filter(user) if free else Q())
        .exclude(bot__owner=user)
        .select_related("bot__owner")
        .defer("code", "validation")
        .order_by("bot__name")
    )
    others = [
        (str(v.pk), f"{v.bot.name} v{v.number} · {v.bot.owner.public_name}") for v in open_versions
    ]
    return own + others


def practice_version_choices(user: Any) -> list[tuple[str, str]]:
    """The user's own ready versions of :data:`ARENA_GAME` bots, for Practice with your bot."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return [
        (str(v.pk), f"{v.bot.name} v{v.number}")
        for v in botversion_ready_list(owner=user, game=ARENA_GAME)
    ]
