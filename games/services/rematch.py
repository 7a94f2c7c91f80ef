"""Rematch (issue #29): after a session, one click offers the same people a new session at the
same table (same code, seats and options). It starts when every person has answered and at
least one accepted; the seats of those who declined, or did not answer before the deadline
(``GAMES_REMATCH_SECONDS``), go to the quick-play pool (:func:`offer_seat_to_pool`) or to a
house AI. Bots and house AIs accept by themselves. Tournament and Bot Arena tables have their
own flow and refuse (``no_rematch``). docs/protocol.md, "Rematch".

The offer lives on the table row (``Table.rematch``), changed only under the table lock, so two
people who click at once make one offer (the second click is that person's acceptance)."""

from __future__ import annotations

import secrets
from collections import Counter
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction

from games import clock, extensions, realtime
from games.models import Mode, Seat, Table
from games.services.lines import system_message, table_changed
from games.services.sql import lock_table
from games.services.unit import (
    TASK_REMATCH_DEADLINE,
    TASK_TABLE_BEGIN,
    Frame,
    TableCtx,
    TableError,
    Work,
    countdown_seconds,
    engine_of,
    user_name,
)

if TYPE_CHECKING:
    from accounts.models import User

#: Table modes that never offer a rematch: their sessions follow their own flow.
NO_REMATCH_MODES = (Mode.TOURNAMENT.value, Mode.ARENA.value)


def rematch_seconds() -> float:
    """How long an offer waits for the answers (``GAMES_REMATCH_SECONDS``, 60 s)."""
    return float(settings.GAMES_REMATCH_SECONDS)


def offer_seat_to_pool(ctx: TableCtx, seat: Seat, leaving: set[int] | None = None) -> bool:
    """Offer ``seat`` (of a person who declined the rematch, table locked, the seat still
    theirs) to the people waiting for a game (``games.extensions.rematch_seat_take``: at a
    quick-play table, the quick-play pool, docs/quickplay.md "Rematch"). True when someone
    took it (the seat saved as theirs, ready); False to have a house AI sit instead. A taker
    may also save it empty: a table with an empty seat waits in the lobby (``waiting``) instead
    of counting down, and starts as any lobby does."""
    return extensions.rematch_seat_take(
        table=ctx.table, seat=seat, seats=ctx.seats, leaving=leaving or {seat.index}
    )


def _people(ctx: TableCtx) -> list[Seat]:
    return [s for s in ctx.seats if s.kind == Seat.Kind.HUMAN and s.user_id is not None]


def _require_session_over(ctx: TableCtx) -> None:
    if ctx.table.mode in NO_REMATCH_MODES:
        raise TableError("no_rematch", "tournament and arena tables have no rematch")
    if ctx.table.status != Table.Status.COMPLETED or ctx.table.session is None:
        raise TableError("no_session_over", "a rematch follows a session that is over")


def _require_seat(ctx: TableCtx, user: User | None) -> Seat:
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in first")
    mine = ctx.seat_of(user)
    if mine is None:
        raise TableError("not_seated", "only the people seated at the table answer")
    return mine


def _offer_frame(ctx: TableCtx) -> Frame:
    return {"type": "rematch_offer", "rematch": realtime.rematch_json(ctx.table)}


@transaction.atomic
def rematch_offer(*, table_id: int, user: User | None, sink: realtime.Sink | None = None) -> Frame:
    """A seated person offers a rematch after the session (the ``rematch`` frame). The offerer
    accepts; everyone at the table gets ``rematch_offer``; the deadline task is armed. When an
    offer is already open this is the caller's acceptance (``already_answered`` if they had
    accepted). A table with one person starts at once. Returns the offer."""
    ctx = lock_table(table_id)
    _require_session_over(ctx)
    mine = _require_seat(ctx, user)
    if ctx.table.rematch is not None:
        return _answer(ctx, mine, accept=True, sink=sink)
    now = clock.now()
    deadline = now + rematch_seconds()
    people = _people(ctx)
    ctx.table.rematch = {
        "id": secrets.token_urlsafe(6),
        "by": mine.index,
        "name": user_name(mine.user),
        "people": [s.index for s in people],
        "answers": {str(mine.index): True},
        "deadline": deadline,
    }
    work = Work(sink=sink)
    system_message(ctx, work, "rematch_offered", {"name": user_name(mine.user)})
    if _all_answered(ctx.table.rematch):
        offer = dict(ctx.table.rematch)
        _resolve(ctx, work)
        work.commit()
        return offer
    ctx.table.save(update_fields=["rematch"])
    work.send(realtime.table_group(ctx.table.pk), _offer_frame(ctx))
    work.timer(TASK_REMATCH_DEADLINE, [ctx.table.pk, ctx.table.rematch["id"]], rematch_seconds())
    work.commit()
    return dict(ctx.table.rematch)


@transaction.atomic
def rematch_answer(
    *, table_id: int, user: User | None, accept: bool, sink: realtime.Sink | None = None
) -> Frame:
    """A seated person answers the open offer (``rematch_answer``); an answer may change while
    the offer is open (the offerer withdraws with ``accept: false``). ``rematch_closed`` when no
    offer is open, ``already_answered`` for the same answer twice. Once every person has
    answered the offer is settled (:func:`_resolve`)."""
    ctx = lock_table(table_id)
    if ctx.table.mode in NO_REMATCH_MODES:
        raise TableError("no_rematch", "tournament and arena tables have no rematch")
    mine = _require_seat(ctx, user)
    if ctx.table.rematch is None:  # never made, lapsed, or started already
        raise TableError("rematch_closed", "no rematch offer is open")
    return _answer(ctx, mine, accept=accept, sink=sink)


def _answer(ctx: TableCtx, mine: Seat, *, accept: bool, sink: realtime.Sink | None = None) -> Frame:
    offer = dict(ctx.table.rematch or {})
    answers = dict(offer["answers"])
    if mine.index not in offer["people"]:
        raise TableError("not_seated", "you sat down after the offer was made")
    if answers.get(str(mine.index)) is bool(accept):
        raise TableError("already_answered", "you already gave that answer")
    answers[str(mine.index)] = bool(accept)
    offer["answers"] = answers
    ctx.table.rematch = offer
    work = Work(sink=sink)
    if _all_answered(offer):
        _resolve(ctx, work)
    else:
        ctx.table.save(update_fields=["rematch"])
        work.send(realtime.table_group(ctx.table.pk), _offer_frame(ctx))
    work.commit()
    return offer


def _all_answered(offer: dict[str, Any]) -> bool:
    return all(str(i) in offer["answers"] for i in offer["people"])


@transaction.atomic
def rematch_deadline(*, table_id: int, offer_id: str) -> bool:
    """The offer's deadline passed (task): whoever has not answered declines, and the offer is
    settled. A late, early or duplicate delivery, or one for an older offer, changes nothing."""
    ctx = lock_table(table_id)
    offer = ctx.table.rematch
    if not isinstance(offer, dict) or offer.get("id") != offer_id:
        return False
    if float(offer["deadline"]) > clock.now() + 0.5:
        return False  # an early timer; the right one is still scheduled
    answers = dict(offer["answers"])
    for index in offer["people"]:
        answers.setdefault(str(index), False)
    ctx.table.rematch = {**offer, "answers": answers}
    work = Work()
    _resolve(ctx, work)
    work.commit()
    return True


def _house_level(ctx: TableCtx) -> str:
    """The level of a house AI taking a person's seat: the one most house AIs at the table
    play (the weaker one on a tie), else the engine's middle level (medium)."""
    levels = list(engine_of(ctx.table.game).house_levels)
    here = Counter(s.house_level for s in ctx.seats if s.kind == Seat.Kind.HOUSE)
    if here:
        best = max(here.values())
        return next(level for level in levels if here.get(level) == best)
    return "medium" if "medium" in levels else levels[0]


def _resolve(ctx: TableCtx, work: Work) -> None:
    """Every person answered (or the deadline passed): with at least one acceptance the
    decliners' seats go to the pool or a house AI and the new session counts down at once;
    with none the offer lapses and the table stays completed."""
    offer = dict(ctx.table.rematch or {})
    answers = {int(k): bool(v) for k, v in offer["answers"].items()}
    group = realtime.table_group(ctx.table.pk)
    accepted = [i for i in offer["people"] if answers.get(i)]
    declined = [i for i in offer["people"] if not answers.get(i)]
    ctx.table.rematch = None
    if not accepted:
        ctx.table.save(update_fields=["rematch"])
        work.send(group, {"type": "rematch_ended", "outcome": "lapsed", "declined": declined})
        system_message(ctx, work, "rematch_lapsed", {})
        return
    level = _house_level(ctx)
    for seat in (s for s in ctx.seats if s.index in declined):
        user, name = seat.user, user_name(seat.user)
        if user is not None:
            work.rebinds.append(realtime.user_group(ctx.table.pk, user.pk))
        work.send(
            group, {"type": "player_left", "seat": seat.index, "name": name, "reason": "left"}
        )
        if offer_seat_to_pool(ctx, seat, set(declined)):
            if seat.kind == Seat.Kind.HUMAN and seat.user is not None:
                name = user_name(seat.user)
                system_message(ctx, work, "seat_filled", {"name": name, "seat": seat.index + 1})
            continue
        seat.kind = Seat.Kind.HOUSE
        seat.house_level = level
        seat.user = None
        seat.bot_version = None
        seat.name = ""
        seat.connections = 0
        seat.away_since = None
        seat.save()
        house = realtime.house_name(seat.index, level)
        system_message(ctx, work, "seat_filled", {"name": house, "seat": seat.index + 1})
    if ctx.table.owner_id not in {s.user_id for s in ctx.seats if s.kind == Seat.Kind.HUMAN}:
        heir = next(s for s in ctx.seats if s.index in accepted)
        assert heir.user is not None
        ctx.table.owner = heir.user
        system_message(ctx, work, "host_changed", {"name": user_name(heir.user)})
        work.rebinds.extend(
            realtime.user_group(ctx.table.pk, s.user_id)
            for s in ctx.seats
            if s.kind == Seat.Kind.HUMAN and s.user_id is not None
        )
    for seat in ctx.seats:  # a fresh session: everyone present and ready, no strikes
        seat.ready = seat.kind != Seat.Kind.EMPTY
        seat.auto = False
        seat.away_since = None
        seat.strikes = 0
        seat.disqualified = False
        seat.save(update_fields=["ready", "auto", "away_since", "strikes", "disqualified"])
    last = ctx.game.number if ctx.game is not None else 0
    ctx.table.session = None
    ctx.table.session_first_game = last + 1
    ctx.table.next_game_at = None
    # every seat filled (the pool may have left one empty): the new session counts down now
    full = all(s.kind != Seat.Kind.EMPTY for s in ctx.seats)
    ctx.table.status = Table.Status.READY if full else Table.Status.WAITING
    delay = countdown_seconds()
    ctx.table.starts_at = clock.now_datetime() + timedelta(seconds=delay) if full else None
    ctx.table.save(
        update_fields=[
            "rematch",
            "session",
            "session_first_game",
            "owner",
            "next_game_at",
            "starts_at",
        ]
    )
    work.send(
        group,
        {
            "type": "rematch_ended",
            "outcome": "started",
            "accepted": accepted,
            "declined": declined,
        },
    )
    system_message(ctx, work, "rematch_started", {})
    table_changed(ctx, work)
    if full:
        work.send(
            group,
            {"type": "countdown", "starts_at": realtime.ts(ctx.table.starts_at), "seconds": delay},
        )
        work.timer(TASK_TABLE_BEGIN, [ctx.table.pk, ctx.table.version], delay)
