"""Tournament services: create, enter, withdraw, and the beat-driven :func:`tournaments_tick`
that starts tournaments and rounds when due and closes rounds whose tables are done.

Every function owns its transaction and locks the tournament row (``select_for_update``)
before it changes anything, so beat, a worker and a page request never race. All state is in
PostgreSQL; ``tick`` only looks at rows, so it is idempotent and a restart of any process loses
nothing (docs/tournaments.md).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from games import clock, deals, extensions, programs, realtime, seeds, skill
from games.engine.registry import GAMES
from games.models import Game, Mode, Seat, Table, game_seat_range
from games.services.lines import table_changed
from games.services.tables import SeatSpec, check_bot_versions, table_create, table_start
from games.services.unit import (
    TASK_SEAT_HOLD,
    TableCtx,
    Work,
    countdown_seconds,
    engine_of,
    hold_seconds,
)
from games.tournaments import pairing
from games.tournaments.models import (
    MAX_GAMES_PER_ROUND,
    MAX_ROUNDS,
    Entry,
    PlayerRating,
    PlayerRatingEvent,
    Round,
    RoundResult,
    RoundTable,
    Tournament,
)

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

#: People's tournament ratings: openskill's Plackett–Luce (mu 25, sigma 25/3), as the bots'.
RATING_MODEL = skill.RATING_MODEL

#: Beat runs this every few seconds (``CELERY_BEAT_SCHEDULE``).
TASK_TICK = "games.tournaments_tick"
#: Enqueued on commit when a round's table finishes: closes the round at once.
TASK_ADVANCE = "games.tournament_advance"
#: The house AI level of filler seats (not entrants).
FILLER_LEVEL = "medium"
#: The searching house AI (a full thinking budget, ``HOUSE_AI_BUDGET_MS``, every move): the
#: costly one, capped per user on its own (:func:`expert_per_user`).
EXPERT_LEVEL = "expert"


def max_entrants() -> int:
    """Entrants one tournament may have, people, bots and house AIs together
    (``TOURNAMENTS_MAX_ENTRANTS``, 64); more is ``tournament_full``."""
    return max(2, int(settings.TOURNAMENTS_MAX_ENTRANTS))


def house_per_user() -> int:
    """House-AI entrants one user may have added to tournaments not over yet (open for
    entries or running), all tournaments together (``TOURNAMENTS_HOUSE_PER_USER``, 16); more
    is ``house_limit``."""
    return max(0, int(settings.TOURNAMENTS_HOUSE_PER_USER))


def expert_per_user() -> int:
    """Of those, how many may be the expert house AI (``TOURNAMENTS_EXPERT_PER_USER``, 4);
    more is ``expert_limit``."""
    return max(0, int(settings.TOURNAMENTS_EXPERT_PER_USER))


class TournamentError(ValueError):
    """A rejected tournament operation with a stable ``code``."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}" if detail else code)


def _locked(tournament_id: int) -> Tournament:
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise TournamentError("no_tournament", "no such tournament")
    return t


def _require_registration(t: Tournament) -> None:
    if t.status != Tournament.Status.REGISTRATION:
        raise TournamentError("bad_state", f"the tournament is {t.status}")


def _require_room(t: Tournament) -> None:
    """One more entrant fits (the tournament row is locked, so the count holds)."""
    if t.entries.count() >= max_entrants():
        raise TournamentError("tournament_full", f"at most {max_entrants()} entrants")


def _require_house_allowance(user: User, level: str) -> None:
    """``user`` may add one more house AI of ``level`` (their house-AI entrants in
    tournaments not over yet). The user's row is locked first, so two requests at once (to
    two tournaments) cannot both take the last one."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    theirs = Entry.objects.filter(
        kind=Entry.Kind.HOUSE,
        user=user,
        tournament__status__in=(Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
    )
    if theirs.count() >= house_per_user():
        raise TournamentError("house_limit", f"at most {house_per_user()} house AIs per user")
    if level == EXPERT_LEVEL and theirs.filter(house_level=EXPERT_LEVEL).count() >= (
        expert_per_user()
    ):
        raise TournamentError("expert_limit", f"at most {expert_per_user()} expert house AIs")


def _push_on_commit(tournament_id: int, *, players: bool = True) -> None:
    """Push the tournament's page state (and, ``players``, each entrant's tables in play) to
    the sockets once this transaction commits (docs/tournaments.md "Live page and
    notification")."""
    from games.tournaments import live  # live reads through this module

    live.push_on_commit(tournament_id, players=players)


# --------------------------------------------------------------------------- create / enter
def _editable_errors(
    name: str, visibility: str, rounds: int, games_per_round: int
) -> dict[str, str]:
    """The per-field errors of the settings a creator may change until the start."""
    errors: dict[str, str] = {}
    if visibility not in Tournament.Visibility.values:
        errors["visibility"] = "Choose public or by invitation."
    if not 1 <= rounds <= MAX_ROUNDS:
        errors["rounds"] = f"From 1 to {MAX_ROUNDS} rounds."
    if not 1 <= games_per_round <= MAX_GAMES_PER_ROUND:
        errors["games_per_round"] = f"From 1 to {MAX_GAMES_PER_ROUND} games per round."
    if not name.strip():
        errors["name"] = "Give the tournament a name."
    return errors


@transaction.atomic
def tournament_create(
    *,
    creator: User,
    name: str,
    game: str,
    format: str,
    start_at: datetime,
    rounds: int = 3,
    table_size: int = 4,
    games_per_round: int = 2,
    turn_seconds: int = 30,
    visibility: str = Tournament.Visibility.PUBLIC,
    round_gap_seconds: int = 60,
) -> Tournament:
    """A new tournament open for entries; ``ValidationError`` (per field) for bad values."""
    errors: dict[str, str] = {}
    if game not in GAMES:
        errors["game"] = "Unknown game."
    else:
        low, high = game_seat_range(game)
        if not low <= table_size <= high:
            errors["table_size"] = f"{game} is played by {low} to {high} players."
    if format not in Tournament.Format.values:
        errors["format"] = "Choose round-robin or Swiss."
    errors.update(_editable_errors(name, visibility, rounds, games_per_round))
    if not 5 <= turn_seconds <= 300:
        errors["turn_seconds"] = "Turn time must be between 5 and 300 seconds."
    if not 0 <= round_gap_seconds <= 24 * 3600:
        errors["round_gap_seconds"] = "The break is at most a day."
    if errors:
        raise ValidationError(errors)
    return Tournament.objects.create(
        creator=creator,
        name=name.strip()[:80],
        game=game,
        format=format,
        visibility=visibility,
        start_at=start_at,
        rounds=rounds,
        table_size=table_size,
        games_per_round=games_per_round,
        turn_seconds=turn_seconds,
        round_gap_seconds=round_gap_seconds,
    )


#: What :func:`tournament_update` may change (the rest was chosen for the entrants).
EDITABLE = ("name", "start_at", "rounds", "games_per_round", "visibility")


@transaction.atomic
def tournament_update(
    *,
    tournament_id: int,
    user: User,
    name: str,
    start_at: datetime,
    rounds: int,
    games_per_round: int,
    visibility: str,
) -> Tournament:
    """The creator changes the tournament's name, start time, rounds, games per round or
    visibility while it is open for entries. ``TournamentError`` ``not_editable`` once it has
    started (or was cancelled), ``not_creator`` for anyone else; ``ValidationError`` (per
    field) for bad values. A refusal changes nothing."""
    t = _locked(tournament_id)
    if t.status != Tournament.Status.REGISTRATION:
        raise TournamentError("not_editable", f"the tournament is {t.status}")
    if t.creator_id != user.pk:
        raise TournamentError("not_creator", "only the creator edits the tournament")
    errors = _editable_errors(name, visibility, rounds, games_per_round)
    if errors:
        raise ValidationError(errors)
    t.name = name.strip()[:80]
    t.start_at = start_at
    t.rounds = rounds
    t.games_per_round = games_per_round
    t.visibility = visibility
    t.save(update_fields=list(EDITABLE))
    _push_on_commit(t.pk, players=False)
    return t


def can_view(t: Tournament, user: Any, code: str | None) -> bool:
    """Public tournaments are seen by anyone; invitation ones by the creator, entrants and
    whoever has the invite code."""
    if t.visibility == Tournament.Visibility.PUBLIC or (code and code == t.invite_code):
        return True
    if user is None or not user.is_authenticated:
        return False
    return t.creator_id == user.pk or t.entries.filter(user=user).exists()


@transaction.atomic
def entry_join(*, tournament_id: int, user: User, code: str | None = None) -> Entry:
    """A person enters (before the start); an invitation tournament needs its code."""
    t = _locked(tournament_id)
    _require_registration(t)
    if (
        t.visibility == Tournament.Visibility.INVITE
        and t.creator_id != user.pk
        and code != t.invite_code
    ):
        raise TournamentError("not_invited", "this tournament is by invitation")
    if t.entries.filter(kind=Entry.Kind.HUMAN, user=user).exists():
        raise TournamentError("already_entered", "you are in already")
    _require_room(t)
    entry = Entry.objects.create(tournament=t, kind=Entry.Kind.HUMAN, user=user)
    _push_on_commit(t.pk, players=False)
    return entry


@transaction.atomic
def entry_add_house(*, tournament_id: int, user: User, level: str) -> Entry:
    """The creator adds a house AI entrant (``level`` one of the game's house levels), within
    :func:`max_entrants` and the creator's :func:`house_per_user` (:func:`expert_per_user`
    experts)."""
    t = _locked(tournament_id)
    _require_registration(t)
    if t.creator_id != user.pk:
        raise TournamentError("not_creator", "only the creator adds house AIs")
    if level not in engine_of(t.game).house_levels:
        raise TournamentError("bad_level", f"unknown house AI level {level!r}")
    _require_room(t)
    _require_house_allowance(user, level)
    entry = Entry.objects.create(tournament=t, kind=Entry.Kind.HOUSE, user=user, house_level=level)
    _push_on_commit(t.pk, players=False)
    return entry


@transaction.atomic
def entry_add_bot(
    *, tournament_id: int, user: User, bot_version_id: int, code: str | None = None
) -> Entry:
    """A user enters one of their own ready bot versions of the tournament's game."""
    t = _locked(tournament_id)
    _require_registration(t)
    if (
        t.visibility == Tournament.Visibility.INVITE
        and t.creator_id != user.pk
        and code != t.invite_code
    ):
        raise TournamentError("not_invited", "this tournament is by invitation")
    try:
        check_bot_versions(user, [bot_version_id], arena=False, game=t.game)
    except ValidationError as exc:
        raise TournamentError(str(exc.code or "unknown_bot"), "; ".join(exc.messages)) from exc
    if t.entries.filter(kind=Entry.Kind.BOT, bot_version_id=bot_version_id).exists():
        raise TournamentError("already_entered", "that bot version is in already")
    entered = t.entries.filter(kind=Entry.Kind.BOT).values_list("bot_version_id", flat=True)
    if programs.same_program_twice([*entered, bot_version_id]):  # they could share a table
        raise TournamentError(
            programs.SAME_PROGRAM_TWICE,
            "that program is in already (another version of the bot, or another external bot "
            "of its owner)",
        )
    _require_room(t)
    entry = Entry.objects.create(
        tournament=t, kind=Entry.Kind.BOT, user=user, bot_version_id=bot_version_id
    )
    _push_on_commit(t.pk, players=False)
    return entry


@transaction.atomic
def entry_withdraw(*, entry_id: int, user: User) -> None:
    """Before the start: the entrant's user (or the creator) takes an entry back."""
    tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True)
    if not tournament_id:
        raise TournamentError("no_entry", "no such entry")
    t = _locked(tournament_id[0])
    _require_registration(t)
    entry = Entry.objects.get(pk=entry_id)
    if user.pk not in (entry.user_id, t.creator_id):
        raise TournamentError("not_yours", "that entry is not yours")
    entry.delete()
    _push_on_commit(t.pk, players=False)


@transaction.atomic
def tournament_start_now(*, tournament_id: int, user: User) -> None:
    """The creator moves the start to now; the tick starts it at once."""
    t = _locked(tournament_id)
    _require_registration(t)
    if t.creator_id != user.pk:
        raise TournamentError("not_creator", "only the creator starts the tournament")
    t.start_at = clock.now_datetime()
    t.save(update_fields=["start_at"])
    _push_on_commit(t.pk, players=False)
    transaction.on_commit(lambda: realtime.schedule(TASK_ADVANCE, [t.pk], delay=0))


# --------------------------------------------------------------------------- rounds
def _history(t: Tournament, before: int) -> list[list[int | None]]:
    return [
        list(rt.seats)
        for rt in RoundTable.objects.filter(round__tournament=t, round__number__lt=before)
    ]


def standings_of(t: Tournament) -> list[pairing.Standing]:
    """The current standings (finished tables of every round so far)."""
    entries = list(t.entries.order_by("id").values_list("id", flat=True))
    results: dict[int, list[RoundResult]] = {}
    for r in RoundResult.objects.filter(round__tournament=t).order_by("seat"):
        results.setdefault(r.round_table_id, []).append(r)
    tables = []
    for rt in RoundTable.objects.filter(round__tournament=t, finished_at__isnull=False):
        totals = list(rt.table.session["totals"]) if rt.table.session else [0] * len(rt.seats)
        tables.append(pairing.TableResult(tuple(rt.seats), tuple(int(x) for x in totals)))
    return pairing.standings(entries, tables)


def _pair(t: Tournament, number: int) -> list[list[int | None]]:
    entries = list(t.entries.order_by("id").values_list("id", flat=True))
    history = _history(t, number)
    if t.format == Tournament.Format.ROUND_ROBIN:
        return pairing.round_robin_round(entries, t.table_size, number, history)
    order = [s.entry for s in standings_of(t)]
    return pairing.swiss_round(order, t.table_size, history)


def _seat_spec(entry: Entry | None) -> SeatSpec:
    if entry is None:
        return SeatSpec(Seat.Kind.HOUSE, house_level=FILLER_LEVEL)
    if entry.kind == Entry.Kind.HOUSE:  # plays under its standings name
        return SeatSpec(Seat.Kind.HOUSE, house_level=entry.house_level, name=entry_name(entry))
    if entry.kind == Entry.Kind.BOT:
        return SeatSpec(Seat.Kind.BOT, bot_version_id=entry.bot_version_id)
    return SeatSpec()  # a person: seated below


def _start_round(t: Tournament, rnd: Round, now: datetime) -> None:
    """Pair the round, draw its deal seeds and open one table per group (the tournament row is
    locked). People are seated away since the start: the disconnect hold runs, and a person
    who does not open their table within it is played by the house (docs/tournaments.md)."""
    groups = _pair(t, rnd.number)
    rnd.seeds = [seeds.new_seed() for _ in range(t.games_per_round)]
    rnd.status = Round.Status.RUNNING
    rnd.started_at = now
    rnd.save(update_fields=["seeds", "status", "started_at"])
    entries = {e.pk: e for e in t.entries.all()}
    visibility = (
        Table.Visibility.PUBLIC
        if t.visibility == Tournament.Visibility.PUBLIC
        else Table.Visibility.PRIVATE
    )
    holds: list[tuple[int, int, str]] = []
    for index, group in enumerate(groups):
        seated = [entries.get(e) if e is not None else None for e in group]
        table = table_create(
            owner=t.creator,
            name=f"{t.name} · R{rnd.number} T{index + 1}"[:80],
            game=t.game,
            visibility=visibility,
            options={
                "seats": t.table_size,
                "mode": Mode.TOURNAMENT.value,
                "turn_seconds": t.turn_seconds,
                "round_games": t.games_per_round,
            },
            seats=[_seat_spec(e) for e in seated],
            host_seated=False,
            check_bots=False,  # the entries were checked when made; a round seats them all
            announce=False,  # the tournament's page lists its tables, not the lobby chat
        )
        for seat_index, entry in enumerate(seated):
            if entry is not None and entry.kind == Entry.Kind.HUMAN:
                Seat.objects.filter(table=table, index=seat_index).update(
                    kind=Seat.Kind.HUMAN, user_id=entry.user_id, ready=True, away_since=now
                )
                since = Seat.objects.get(table=table, index=seat_index).away_since
                assert since is not None
                holds.append((table.pk, seat_index, since.isoformat()))
        Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
        RoundTable.objects.create(round=rnd, table=table, index=index, seats=list(group))
        table_start(table_id=table.pk, user=t.creator)
    delay = hold_seconds() + countdown_seconds()

    def arm() -> None:
        for table_id, seat, since in holds:
            realtime.schedule(TASK_SEAT_HOLD, [table_id, seat, since], delay=delay)

    transaction.on_commit(arm)


def _close_tables(rnd: Round, now: datetime) -> tuple[bool, int]:
    """Record the results of the round's tables that completed: (whether all have, how many
    were recorded now)."""
    done = True
    recorded = 0
    for rt in rnd.tables.select_related("table").filter(finished_at__isnull=True):
        table = rt.table
        if table.status != Table.Status.COMPLETED:
            done = False
            continue
        totals = list(table.session["totals"]) if table.session else [0] * len(rt.seats)
        points = pairing.seat_points(totals)
        RoundResult.objects.bulk_create(
            [
                RoundResult(
                    round=rnd,
                    entry_id=entry,
                    round_table=rt,
                    seat=i,
                    total=int(totals[i]),
                    points=points[i],
                )
                for i, entry in enumerate(rt.seats)
                if entry is not None
            ]
        )
        rt.finished_at = now
        rt.save(update_fields=["finished_at"])
        _rate_people(rt, [int(x) for x in totals])
        recorded += 1
    return done, recorded


def _rate_people(rt: RoundTable, totals: list[int]) -> None:
    """Rate the people of a finished round table against each other by their session totals
    (equal totals share a rank); fewer than two people: nothing. Rows locked in user order."""
    humans = dict(
        Entry.objects.filter(
            pk__in=[e for e in rt.seats if e is not None], kind=Entry.Kind.HUMAN
        ).values_list("pk", "user_id")
    )
    people = [(seat, humans[e]) for seat, e in enumerate(rt.seats) if e in humans]
    if len(people) < 2:
        return
    fresh = RATING_MODEL.rating()
    user_ids = sorted(u for _, u in people)
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(user_id=u, mu=fresh.mu, sigma=fresh.sigma, ordinal=fresh.ordinal())
            for u in user_ids
        ],
        ignore_conflicts=True,
    )
    rows = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(user_id__in=user_ids)
        .order_by("user_id")
    }
    if PlayerRatingEvent.objects.filter(round_table=rt).exists():
        return
    ranks = [1 + sum(1 for s, _ in people if totals[s] > totals[seat]) for seat, _ in people]
    before = [RATING_MODEL.rating(mu=rows[u].mu, sigma=rows[u].sigma) for _, u in people]
    after = RATING_MODEL.rate([[r] for r in before], ranks=[float(r) for r in ranks])
    events = []
    for (_, user_id), rank, old, (new,) in zip(people, ranks, before, after, strict=True):
        row = rows[user_id]
        row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.ordinal()
        row.tables += 1
        row.save()
        events.append(
            PlayerRatingEvent(
                user_id=user_id,
                round_table=rt,
                rank=rank,
                rated_players=len(people),
                mu_before=old.mu,
                mu_after=new.mu,
                sigma_after=new.sigma,
            )
        )
    PlayerRatingEvent.objects.bulk_create(events)


@transaction.atomic
def tournament_advance(*, tournament_id: int) -> bool:
    """Bring one tournament up to date (idempotent): start it when due (cancelled with fewer
    than two entrants), start its due round, record its finished tables, close a round whose
    tables all finished and schedule the next one (``round_gap_seconds`` later) or finish the
    tournament. Returns whether anything changed. A change is pushed to the tournament page's
    sockets and the entrants' notifications on commit (:mod:`games.tournaments.live`)."""
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None or t.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return False
    changed = _advance(t, clock.now_datetime())
    if changed:
        _push_on_commit(t.pk)
    return changed


def _advance(t: Tournament, now: datetime) -> bool:
    """:func:`tournament_advance` of the locked row ``t``."""
    changed = False
    if t.status == Tournament.Status.REGISTRATION:
        if t.start_at > now:
            return False
        if t.entries.count() < 2:
            t.status = Tournament.Status.CANCELLED
            t.save(update_fields=["status"])
            return True
        t.status = Tournament.Status.RUNNING
        t.save(update_fields=["status"])
        Round.objects.get_or_create(tournament=t, number=1, defaults={"start_at": t.start_at})
        changed = True
    rnd = t.round_set.exclude(status=Round.Status.FINISHED).order_by("number").first()
    if rnd is None:
        return changed
    if rnd.status == Round.Status.PENDING:
        if rnd.start_at > now:
            return changed
        _start_round(t, rnd, now)
        return True
    done, recorded = _close_tables(rnd, now)
    if not done:
        if recorded:  # some tables' results are in: the standings moved
            _push_on_commit(t.pk)
        return changed
    rnd.status = Round.Status.FINISHED
    rnd.ended_at = now
    rnd.save(update_fields=["status", "ended_at"])
    if rnd.number < t.rounds:
        Round.objects.create(
            tournament=t,
            number=rnd.number + 1,
            start_at=now + timedelta(seconds=t.round_gap_seconds),
        )
        gap = float(t.round_gap_seconds)
        transaction.on_commit(lambda: realtime.schedule(TASK_ADVANCE, [t.pk], delay=gap))
    else:
        t.status = Tournament.Status.FINISHED
        t.save(update_fields=["status"])
    return True


def tournaments_tick() -> int:
    """Beat (every few seconds): advance every tournament that is due to start, has a due
    round or a round in play. Each in its own transaction. Returns how many changed."""
    now = clock.now_datetime()
    due = Tournament.objects.filter(
        Q(status=Tournament.Status.REGISTRATION, start_at__lte=now)
        | Q(status=Tournament.Status.RUNNING)
    ).values_list("pk", flat=True)
    changed = 0
    for pk in list(due):
        try:
            changed += int(tournament_advance(tournament_id=pk))
        except Exception:  # one broken tournament never stops the others' rounds
            logger.exception("advancing tournament %s failed", pk)
    return changed


# --------------------------------------------------------------------------- table hooks
def round_seed(table: Any, number: int) -> int | None:
    """``games.seeds`` provider: game ``number`` of a tournament table deals the round's seed
    ``number`` — the same deal at every table of the round."""
    options = getattr(table, "options", None) or {}
    if options.get("mode") != Mode.TOURNAMENT.value or table.pk is None:
        return None
    found = Round.objects.filter(tables__table_id=table.pk).values_list("seeds", flat=True).first()
    if not found:
        return None
    return int(found[(number - 1) % len(found)])


def round_deal(game: Game) -> deals.Deal | None:
    """``games.deals`` source: game ``n`` of a tournament table shares its deal (the round's
    seed ``n``) with game ``n`` of every table of the round, so its replay waits until all of
    them are over (docs/tournaments.md "Duplicate deals")."""
    table = game.table
    if table.mode != Mode.TOURNAMENT.value:
        return None
    round_id = RoundTable.objects.filter(table_id=table.pk).values_list("round_id", flat=True)
    found = round_id.first()
    if found is None:
        return None
    tables = RoundTable.objects.filter(round_id=found).values_list("table_id", flat=True)
    number = int(game.number)
    return deals.Deal(
        key=f"round:{found}:{number}",
        slots=tuple((int(t), number) for t in sorted(tables)),
    )


def round_game_finished(*, game: Game, table: Table) -> None:
    """``games.extensions`` game-finished hook (inside the locked transaction): a tournament
    table's session ends after the round's games; then the tournament is advanced on commit."""
    if table.mode != Mode.TOURNAMENT.value:
        return
    rt = RoundTable.objects.select_related("round__tournament").filter(table_id=table.pk).first()
    if rt is None:
        return
    t = rt.round.tournament
    session = dict(table.session or {})
    played = len(session.get("results") or [])
    work = Work()
    if played >= t.games_per_round and not session.get("finished"):
        session["finished"] = True
        table.session = session
        table.status = Table.Status.COMPLETED
        table.next_game_at = None
        table.save(update_fields=["session", "status", "next_game_at"])
        seats = list(
            Seat.objects.select_related("user", "bot_version__bot")
            .filter(table=table)
            .order_by("index")
        )
        ctx = TableCtx(table, seats, game)
        summary = realtime.session_json(session, engine_of(table.game), games=table.games_total)
        names = [realtime.seat_json(s, table.owner_id)["name"] for s in seats]
        work.send(
            realtime.table_group(table.pk), {"type": "session_ended", **summary, "names": names}
        )
        table_changed(ctx, work)
    if table.status == Table.Status.COMPLETED:
        work.timer(TASK_ADVANCE, [t.pk], 0)
    work.commit()


def register() -> None:
    """Plug tournaments into the table layer (``GamesConfig.ready``)."""
    seeds.set_table_seeds(round_seed)
    deals.set_deal_source(round_deal)
    extensions.on_game_finished(round_game_finished)


# --------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class YourTable:
    round: int
    code: str


def _ready_tables(user: Any) -> Any:
    """``user``'s round tables in play (a running round, the table not completed)."""
    return (
        RoundTable.objects.select_related("round__tournament", "table")
        .filter(
            round__status=Round.Status.RUNNING,
            table__seats__kind=Seat.Kind.HUMAN,
            table__seats__user_id=user.pk,
        )
        .exclude(table__status=Table.Status.COMPLETED)
        .order_by("round__tournament_id")
    )


def your_table(t: Tournament, user: Any) -> YourTable | None:
    """The table ``user`` plays at in ``t``'s round in play, if any (the notification)."""
    if user is None or not user.is_authenticated:
        return None
    rt = _ready_tables(user).filter(round__tournament=t).first()
    return YourTable(rt.round.number, rt.table.code) if rt is not None else None


def your_tables(user: Any) -> list[tuple[int, str, YourTable]]:
    """Every tournament table ``user`` plays at now: (tournament id, name, table)."""
    if user is None or not user.is_authenticated:
        return []
    return [
        (
            rt.round.tournament_id,
            rt.round.tournament.name,
            YourTable(rt.round.number, rt.table.code),
        )
        for rt in _ready_tables(user)
    ]


def house_levels_of(game: str) -> tuple[str, ...]:
    """The house AI levels an entrant of ``game`` may have (weakest first)."""
    return tuple(engine_of(game).house_levels)


def entry_name(entry: Entry) -> str:
    if entry.kind == Entry.Kind.HUMAN:
        return str(entry.user.public_name)
    if entry.kind == Entry.Kind.BOT and entry.bot_version is not None:
        return f"{entry.bot_version.bot.name} v{entry.bot_version.number}"
    # The n-th house entry of the tournament plays as the n-th house AI name, at every table
    # (games.realtime.house_name): the standings and the tables say the same name.
    n = Entry.objects.filter(
        tournament_id=entry.tournament_id, kind=Entry.Kind.HOUSE, pk__lt=entry.pk
    ).count()
    return realtime.house_name(n, entry.house_level)
