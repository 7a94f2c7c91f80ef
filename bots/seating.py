"""Who may seat an external bot, and how often at once: checked under a lock on the bot's row.

An external bot (its program runs on its owner's machine, :mod:`bots.external`) plays at
most :func:`bots.models.external_games_limit` games at once (``BOTS_EXTERNAL_MAX_GAMES``, 4):
each table it sits at that is not completed, and each match of the Bot Lab queued or running
with it in its field (a match is one game while it runs). Of those:

- **its owner comes first**: other users may seat it in at most ``limit - reserved`` games
  (:func:`others_share`, ``BOTS_EXTERNAL_OWNER_RESERVED`` = 1 kept for the owner: 3 of 4), so
  its owner can always seat it somewhere (``bot_share_full`` past that). A game counts as
  another user's when that user hosts the table (or started the match);
- **only while it is connected**: other users may seat it only while its program is online
  (:mod:`bots.external.presence`); ``bot_offline`` otherwise. Its owner may seat it offline
  (their own program, their own losses);
- **never past the limit**: ``bot_busy`` once it plays 4 games.

:func:`external_seats_check` runs inside the transaction that seats the bot (creating a table
with bot seats, putting a bot at a seat, queueing a match): it locks the external bots' rows
(``SELECT … FOR UPDATE``, in id order), counts their games inside the lock and raises
:class:`SeatRefused`; the seat rows are written before the lock is released, so concurrent
requests are counted one after another and exactly the limit is seated. JS bots (run in the
sandbox) are not limited here. games reaches this through ``games.extensions`` (installed in
``bots/apps.py``); the Bot Lab's matches call it directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

from bots.external import presence
from bots.models import Bot, BotVersion, Match, external_games_limit

#: Games of an external bot kept for its owner (setting ``BOTS_EXTERNAL_OWNER_RESERVED``).
OWNER_RESERVED = 1


class SeatRefused(ValidationError):
    """An external bot may not be seated now; ``code`` is ``bot_offline``, ``bot_busy`` or
    ``bot_share_full`` (a ``ValidationError``, so form and service callers show its message)."""


def others_share() -> int:
    """Games of one external bot other users may hold at once: the limit less the owner's
    reserved games (4 - 1 = 3), never below 0.

    >>> from django.test import override_settings
    >>> with override_settings(BOTS_EXTERNAL_MAX_GAMES=4, BOTS_EXTERNAL_OWNER_RESERVED=1):
    ...     others_share()
    3
    """
    reserved = int(settings.BOTS_EXTERNAL_OWNER_RESERVED)
    return max(0, external_games_limit() - max(0, reserved))


def external_games(*, bot: Bot, exclude_table: int | None = None) -> tuple[int, int]:
    """``(games, by_others)``: the games ``bot`` plays now (tables not completed, other than
    ``exclude_table``, plus matches in flight) and how many of them other users host."""
    from games.models import Seat, Table  # bots depends on games, never the reverse

    tables = Table.objects.filter(
        pk__in=Seat.objects.filter(kind=Seat.Kind.BOT, bot_version__bot=bot).values("table")
    ).exclude(status=Table.Status.COMPLETED)
    if exclude_table is not None:
        tables = tables.exclude(pk=exclude_table)
    matches = Match.objects.filter(
        status__in=Match.IN_FLIGHT, entrants__contains=[{"bot_id": bot.pk}]
    ).values_list("owner_id", flat=True)
    hosts = [*tables.values_list("owner_id", flat=True), *matches]
    return len(hosts), sum(1 for host in hosts if host != bot.owner_id)


def external_seats_check(
    *, user: Any, version_ids: Iterable[int], table_id: int | None = None
) -> None:
    """Refuse (:class:`SeatRefused`) to let ``user`` seat the external bots among
    ``version_ids`` in one more game (the table ``table_id`` they may already sit at, or a new
    table or match). Call it inside the transaction that then writes the seats: the bots'
    rows stay locked until it ends. Versions of JS bots are let through unchecked."""
    ids = {int(v) for v in version_ids}
    if not ids:
        return
    bot_ids = set(
        BotVersion.objects.filter(pk__in=ids, bot__kind=Bot.Kind.EXTERNAL).values_list(
            "bot_id", flat=True
        )
    )
    if not bot_ids:
        return
    bots = list(Bot.objects.select_for_update().filter(pk__in=bot_ids).order_by("pk"))
    owner_id = getattr(user, "pk", None)
    foreign = [b.pk for b in bots if b.owner_id != owner_id]
    online = presence.bots_online(foreign)
    limit = external_games_limit()
    share = others_share()
    for bot in bots:
        mine = bot.owner_id == owner_id
        if not mine and bot.pk not in online:
            raise SeatRefused(
                _(
                    "%(bot)s is offline: its program is not connected, so only its owner may "
                    "seat it."
                )
                % {"bot": bot.name},
                code="bot_offline",
            )
        games, by_others = external_games(bot=bot, exclude_table=table_id)
        if games + 1 > limit:
            raise SeatRefused(
                _("%(bot)s already plays %(n)s games, the most at once.")
                % {"bot": bot.name, "n": games},
                code="bot_busy",
            )
        if not mine and by_others + 1 > share:
            raise SeatRefused(
                _(
                    "%(bot)s already plays %(n)s games for other players, the most others may "
                    "seat at once: %(kept)s of its %(limit)s are kept for its owner."
                )
                % {"bot": bot.name, "n": by_others, "kept": limit - share, "limit": limit},
                code="bot_share_full",
            )


def external_offline_filter(user: Any) -> Q:
    """A ``BotVersion`` filter leaving out other users' external bots that are offline (the
    pickers offer only what can be seated now)."""
    owner_id = getattr(user, "pk", None)
    candidates = list(
        Bot.objects.filter(kind=Bot.Kind.EXTERNAL)
        .filter(Q(arena_open=True))
        .exclude(owner_id=owner_id)
        .values_list("pk", flat=True)
    )
    offline = set(candidates) - presence.bots_online(candidates)
    return ~Q(bot_id__in=offline) if offline else Q()
