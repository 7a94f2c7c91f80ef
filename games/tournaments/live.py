"""Tournament live updates, pushed over the site's WebSockets (docs/tournaments.md "Live page
and notification").

Two channel-layer groups, one frame each:

- :func:`tournament_group` (every socket on a tournament's page,
  :class:`~games.tournaments.consumers.TournamentConsumer`) gets ``tournament_state``: the
  page's state, the same for every viewer (schedule, tables, standings, status);
- :func:`player_group` (every tournament socket of one logged-in user, the page's and the
  site-wide notification's, :class:`~games.tournaments.consumers.PlayerConsumer`) gets
  ``your_tables``: that user's tables in play, in every tournament. Only that user's sockets
  are in it, so nobody is told another person's table.

The services call :func:`push_on_commit`; the frames are built and sent after the commit
(through :func:`games.realtime.broadcast`), so they never announce what was rolled back, and a
failure to send never undoes anything.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from games import clock, realtime
from games.tournaments import services
from games.tournaments.models import Entry, PlayerRating, Round, RoundResult, RoundTable, Tournament

logger = logging.getLogger(__name__)

#: The frame types (docs/tournaments.md).
STATE_FRAME = "tournament_state"
TABLES_FRAME = "your_tables"


def tournament_group(tournament_id: int) -> str:
    """Every socket on the page of tournament ``tournament_id``.

    >>> tournament_group(7)
    'tournament-7'
    """
    return f"tournament-{tournament_id}"


def player_group(user_id: int) -> str:
    """Every tournament socket of one user (their "your table is ready" notification).

    >>> player_group(3)
    'tournament-player-3'
    """
    return f"tournament-player-{user_id}"


# --------------------------------------------------------------------------- state
def _house_level(entry: Entry) -> str | None:
    """A house AI entry's level (None for anyone else)."""
    return str(entry.house_level) if entry.kind == Entry.Kind.HOUSE else None


def _entry_rows(t: Tournament) -> list[dict[str, Any]]:
    entries = {e.pk: e for e in t.entries.select_related("user", "bot_version__bot").order_by("id")}
    people = [e.user_id for e in entries.values() if e.kind == Entry.Kind.HUMAN]
    ratings = dict(
        PlayerRating.objects.filter(user_id__in=people).values_list("user_id", "ordinal")
    )
    return [
        {
            "entry": s.entry,
            "rank": s.rank,
            "name": services.entry_name(entries[s.entry]),
            "kind": entries[s.entry].kind,
            # the page words a house AI in its reader's language (a pushed state is English)
            "house_level": _house_level(entries[s.entry]),
            "user_id": entries[s.entry].user_id,
            "points": s.points,
            "game_points": s.game_points,
            "buchholz": s.buchholz,
            "head_to_head": s.head_to_head,
            "played": s.played,
            "rating": (
                round(ratings[entries[s.entry].user_id], 1)
                if entries[s.entry].kind == Entry.Kind.HUMAN and entries[s.entry].user_id in ratings
                else None
            ),
        }
        for s in services.standings_of(t)
        if s.entry in entries
    ]


def public_state(t: Tournament) -> dict[str, Any]:
    """What the tournament page shows every viewer: status, rounds with their tables (and the
    entrants' results), standings. No per-user part (that is :func:`tables_of`)."""
    all_entries = list(t.entries.select_related("user", "bot_version__bot"))
    names = {e.pk: services.entry_name(e) for e in all_entries}
    levels = {e.pk: _house_level(e) for e in all_entries}
    rounds = []
    for r in Round.objects.filter(tournament=t).order_by("number"):
        tables = []
        for rt in RoundTable.objects.filter(round=r).select_related("table").order_by("index"):
            results = {x.entry_id: x for x in RoundResult.objects.filter(round_table=rt)}
            tables.append(
                {
                    "index": rt.index + 1,
                    "code": rt.table.code,
                    "url": reverse("table", args=[rt.table.code]),
                    "status": rt.table.status,
                    "finished": rt.finished_at is not None,
                    "seats": [
                        {
                            # a filler seat: the house AI named as its table names it
                            "name": names.get(e, "?")
                            if e is not None
                            else realtime.house_name(i, services.FILLER_LEVEL),
                            "house_level": levels.get(e) if e is not None else None,
                            "points": results[e].points if e in results else None,
                            "total": results[e].total if e in results else None,
                        }
                        for i, e in enumerate(rt.seats)
                    ],
                }
            )
        rounds.append(
            {
                "number": r.number,
                "status": r.status,
                "start_at": r.start_at.timestamp(),
                "tables": tables,
            }
        )
    return {
        "id": t.pk,
        "status": t.status,
        # the start is due (Start now, or its time came) and the tick is about to start it:
        # entries are closed already (docs/tournaments.md)
        "starting": t.status == Tournament.Status.REGISTRATION
        and t.start_at <= clock.now_datetime(),
        "rounds_total": t.rounds,
        "start_at": t.start_at.timestamp(),
        "rounds": rounds,
        "standings": _entry_rows(t),
    }


def state_for(t: Tournament, user: Any) -> dict[str, Any]:
    """:func:`public_state` plus ``your_table``: ``user``'s table of the round in play."""
    mine = services.your_table(t, user)
    return {
        **public_state(t),
        "your_table": (
            {"round": mine.round, "url": reverse("table", args=[mine.code])} if mine else None
        ),
    }


def tables_of(user: Any) -> list[dict[str, Any]]:
    """``user``'s tables in play in every tournament (empty for a guest): the list of
    ``/tournaments/mine.json`` and of the ``your_tables`` frame."""
    return [
        {
            "tournament": name,
            "round": mine.round,
            "url": reverse("table", args=[mine.code]),
            "page": reverse("tournaments:detail", args=[pk]),
        }
        for pk, name, mine in services.your_tables(user)
    ]


def snapshot(tournament_id: int | None, user: Any) -> dict[str, Any]:
    """The first frame of a tournament socket: the page's state (None for the site-wide
    socket) and ``user``'s tables in play."""
    t = Tournament.objects.filter(pk=tournament_id).first() if tournament_id else None
    return {
        "type": "snapshot",
        "state": public_state(t) if t is not None else None,
        "tables": tables_of(user),
    }


# --------------------------------------------------------------------------- pushing
def push(tournament_id: int, *, players: bool = True) -> None:
    """Send the tournament's state to its page's sockets and (``players``) each person entered
    in it their tables in play. After a commit; never raises."""
    try:
        t = Tournament.objects.filter(pk=tournament_id).first()
        if t is None:
            return
        frames: list[tuple[str, realtime.Frame]] = [
            (tournament_group(t.pk), {"type": STATE_FRAME, "state": public_state(t)})
        ]
        if players:
            people = get_user_model().objects.filter(
                tournament_entries__tournament=t, tournament_entries__kind=Entry.Kind.HUMAN
            )
            for user in people.order_by("pk"):
                frames.append(
                    (player_group(user.pk), {"type": TABLES_FRAME, "tables": tables_of(user)})
                )
        realtime.broadcast(frames)
    except Exception:  # a push is a courtesy: the committed change stands
        logger.exception("pushing tournament %s failed", tournament_id)


def push_on_commit(tournament_id: int, *, players: bool = True) -> None:
    """:func:`push` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: push(tournament_id, players=players))
