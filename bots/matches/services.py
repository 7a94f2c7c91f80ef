"""Duplicate-deal matches: create, run (on a ``lab`` worker), stop, heal; and Promote.

A match is played by :func:`games.engine.duplicate.run_match`, the core ``./bin/bot match``
drives too, with the same entrants (:class:`bots.lab.entrants.BotFileEntrant` for a bot
version, :class:`~games.engine.duplicate.HouseEntrant` for a house AI): the saved report is
the core's for the same field, deals and seed. An external bot's version is an
:class:`bots.lab.entrants.ExternalEntrant`: its program is sent each turn over the bot API
(:mod:`bots.external.matches`), and the match counts as one of its games while in flight.
After every deal the core's statistics are saved, so the healer resumes a match whose worker
died from its last saved deal (at most :func:`max_resumes` times). Views, the API and the
tasks call these functions; they own the transactions and enqueue on commit. Errors are
:class:`MatchError` with a stable ``code`` and change nothing. See docs/bot-lab.md.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import redis
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from bots.external import presence
from bots.external.matches import MatchTurns
from bots.lab.entrants import BotFileEntrant, ExternalEntrant, match_games_mapper
from bots.matches.leases import MatchLease, lease_seconds, leased
from bots.matches.slices import Beating, Heartbeat
from bots.models import Bot, BotVersion, Match, move_timeout
from bots.seating import SeatRefused, external_offline_filter, external_seats_check
from games import clock, programs, seeds
from games.engine.core.errors import EngineError
from games.engine.duplicate import (
    DuplicateStats,
    Entrant,
    HouseEntrant,
    MatchProgress,
    MatchResult,
    run_match,
)
from games.engine.registry import GAMES
from games.realtime import schedule

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "HEAL_TASK",
    "MATCH_QUEUE",
    "MAX_DEALS",
    "RUN_TASK",
    "MatchError",
    "bot_promote",
    "botversion_check_promotable",
    "match_create",
    "match_entrants",
    "match_execute",
    "match_get",
    "match_limit",
    "match_stop",
    "matches_heal",
    "next_slice",
]

logger = logging.getLogger(__name__)

#: Celery name of the task that plays a match (``bots.matches.tasks``, on :data:`MATCH_QUEUE`).
RUN_TASK = "bots.tasks.match_run"
#: Celery name of beat's healer of lost matches (``CELERY_BEAT_SCHEDULE``).
HEAL_TASK = "bots.tasks.matches_heal"
#: The queue of matches: a worker of its own (``./bin/run``'s ``worker-lab``), so a long match
#: never delays a live table's bot turn, a timer or a Test Bot run. The lab is shared between
#: users in slices (:func:`match_execute`): a message on it is a turn of the lab, not a match.
MATCH_QUEUE = "lab"
#: Deals one match may have (the form, the API): enough for any separation the report shows
#: (a few hundred deals), and a bound on what one match may ask of the shared lab.
MAX_DEALS = 500
MAX_SEED = 2**63 - 1
HOUSE = "house"
VERSION = "version"


class MatchError(Exception):
    """A refused request: ``code`` is stable (the API's ``code``), ``message`` translated."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def match_limit() -> int:
    """Matches one user may have queued or running at once (``BOTS_MATCHES_PER_USER``, 2)."""
    return max(1, int(settings.BOTS_MATCHES_PER_USER))


def stale_seconds() -> float:
    """A running match with no heartbeat for this long lost its worker
    (``BOTS_MATCH_STALE_SECONDS``, 30: a running slice beats at least every
    :func:`heartbeat_seconds` plus one move, at most the 5 s move timeout)."""
    return float(settings.BOTS_MATCH_STALE_SECONDS)


def heartbeat_seconds() -> float:
    """How often a running slice renews ``heartbeat_at`` between moves
    (``BOTS_MATCH_HEARTBEAT_SECONDS``, 5)."""
    return float(settings.BOTS_MATCH_HEARTBEAT_SECONDS)


def slice_seconds() -> float:
    """A slice of a match ends after the first deal that ends this long after the slice began
    (``BOTS_MATCH_SLICE_SECONDS``, 20), if another match is waiting for the lab; the match then
    goes back to the queue behind it (:func:`match_execute`)."""
    return max(0.0, float(settings.BOTS_MATCH_SLICE_SECONDS))


def requeue_seconds() -> float:
    """A queued match is sent to the queue again after this long (``BOTS_MATCH_REQUEUE_SECONDS``,
    300): a message lost with a broker restart does not leave it queued forever."""
    return float(settings.BOTS_MATCH_REQUEUE_SECONDS)


def max_resumes() -> int:
    """Times the healer resumes a match whose worker was lost before it gives it up as
    ``failed`` (``worker_lost``) (``BOTS_MATCH_MAX_RESUMES``, 3)."""
    return max(0, int(settings.BOTS_MATCH_MAX_RESUMES))


# --------------------------------------------------------------------------- the field


@dataclass(frozen=True)
class FieldChoice:
    """One entrant a user may put in a match's field: ``value`` (``house:<level>`` or
    ``version:<id>``) and its label."""

    value: str
    label: str
    group: str  # "house", "mine" or "open"


def house_label(level: str) -> str:
    """A house AI's label in a report (the CLI's name for it)."""
    return f"house:{level}"


def version_label(version: BotVersion, user: Any) -> str:
    label = f"{version.bot.name} v{version.number}"
    if version.bot.owner_id != getattr(user, "pk", None):
        label += f" · {version.bot.owner.public_name}"
    return label


def _seatable(user: Any, game: str, *, free: bool = True) -> Any:
    """The versions ``user`` may put in a match of ``game``: the one seating rule
    (:meth:`bots.models.BotVersionQuerySet.seatable`; with ``free``, the picker's, it leaves
    out an external bot already playing its limit of games, a match in flight counting as
    one; :func:`match_create` checks that limit under a lock, bots.seating)."""
    return BotVersion.objects.seatable(user=user, game=game, others=True, free=free).select_related(
        "bot__owner"
    )


def match_field_choices(*, user: Any, game: str) -> list[FieldChoice]:
    """Every entrant ``user`` may seat in a match of ``game``: the house AIs by level, their
    own ready versions, then other users' open bots (their promoted or latest version)."""
    engine = GAMES[game]
    out = [FieldChoice(f"house:{lv}", house_label(lv), HOUSE) for lv in engine.house_levels]
    # an external bot another user cannot seat now (offline) is not offered (bots.seating)
    versions = sorted(
        _seatable(user, game).filter(external_offline_filter(user)).defer("code", "validation"),
        key=lambda v: (v.bot.owner_id != user.pk, v.bot.name.lower(), v.bot_id, -v.number),
    )
    online = presence.connected(v.bot_id for v in versions if v.bot.is_external)
    for v in versions:
        group = "mine" if v.bot.owner_id == user.pk else "open"
        label = version_label(v, user) + presence.suffix(v.bot, online)
        out.append(FieldChoice(f"version:{v.pk}", label, group))
    return out


def _unique(names: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def _parse_entrant(raw: Any) -> tuple[str, Any]:
    """``("house", level)`` or ``("version", id)`` from a dict (the API) or a
    ``house:<level>`` / ``version:<id>`` string (the form); :class:`MatchError` otherwise.
    ``bot:<id>`` (the table and tournament forms' spelling of a version id) is accepted too:
    a version is named by its id everywhere."""
    if isinstance(raw, str):
        kind, _sep, rest = raw.partition(":")
        kind = VERSION if kind == "bot" else kind
        raw = {"kind": kind, "level": rest} if kind == HOUSE else {"kind": kind, "version_id": rest}
    if not isinstance(raw, Mapping):
        raise MatchError("bad_entrant", _("An entrant is a house AI level or a bot version."))
    kind = str(raw.get("kind") or "")
    if kind == HOUSE:
        return HOUSE, str(raw.get("level") or "")
    if kind == VERSION:
        try:
            return VERSION, int(str(raw.get("version_id")))
        except (TypeError, ValueError):
            raise MatchError("bad_entrant", _("A bot version is named by its id.")) from None
    raise MatchError("bad_entrant", _("An entrant is a house AI level or a bot version."))


def match_entrants(*, user: Any, game: str, entrants: Sequence[Any]) -> list[dict[str, Any]]:
    """The stored field of a match: checks every entrant against the seating rule (a version
    ``user`` may not seat, e.g. another user's closed bot, is refused like one that does not
    exist: ``entrant_not_seatable``) and the game's seat count (``bad_field``)."""
    engine = GAMES[game]
    if not engine.min_players <= len(entrants) <= engine.max_players:
        raise MatchError(
            "bad_field",
            _("A match of %(game)s has %(lo)s to %(hi)s entrants, one per seat.")
            % {"game": engine.title, "lo": engine.min_players, "hi": engine.max_players},
        )
    parsed = [_parse_entrant(e) for e in entrants]
    ids = [what for kind, what in parsed if kind == VERSION]
    versions = {v.pk: v for v in _seatable(user, game, free=False).filter(pk__in=ids).defer("code")}
    out: list[dict[str, Any]] = []
    for kind, what in parsed:
        if kind == HOUSE:
            if what not in engine.house_levels:
                raise MatchError(
                    "unknown_house_level",
                    _("%(game)s has no house AI level “%(level)s”.")
                    % {"game": engine.title, "level": what},
                )
            out.append({"kind": HOUSE, "level": what, "label": house_label(what)})
        else:
            version = versions.get(what)
            if version is None:
                raise MatchError(
                    "entrant_not_seatable",
                    _(
                        "That bot version cannot play in your matches (not ready, not yours or "
                        "not open, or of another game)."
                    ),
                )
            entry = {
                "kind": VERSION,
                "version_id": version.pk,
                "label": version_label(version, user),
            }
            if version.bot.kind == Bot.Kind.EXTERNAL:
                entry |= {"external": True, "bot_id": version.bot_id}
            out.append(entry)
    seated = [e["version_id"] for e in out if e["kind"] == VERSION]
    if programs.same_program_twice(seated, external_only=True):
        raise MatchError(
            programs.SAME_PROGRAM_TWICE,
            _(
                "One external program may hold only one seat of a game: the same external bot, "
                "or two external bots of one owner, cannot both play in a match."
            ),
        )
    for entry, label in zip(out, _unique([e["label"] for e in out]), strict=True):
        entry["label"] = label
    return out


# --------------------------------------------------------------------------- create, stop, get


def default_seed() -> int:
    """A new match's seed (shown in the form, so a match can be replayed): 9 digits."""
    return seeds.new_seed() % 1_000_000_000


def _int_in(value: Any, lo: int, hi: int, code: str, message: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise MatchError(code, message) from None
    if not lo <= number <= hi:
        raise MatchError(code, message)
    return number


def match_create(
    *,
    owner: User,
    game: str,
    entrants: Sequence[Any],
    deals: Any,
    seed: Any = None,
    stop_when_separated: bool = False,
) -> Match:
    """Queue a match of ``entrants`` (the first one is evaluated) over ``deals`` deals of
    ``game`` from ``seed`` (random when None); it runs on a ``lab`` worker once this commits,
    in slices shared with other users' matches (:func:`match_execute`).
    Errors (nothing is created): ``unknown_game``, ``bad_deals``, ``bad_seed``, ``bad_field``,
    ``bad_entrant``, ``unknown_house_level``, ``entrant_not_seatable``, ``same_program_twice``,
    ``matches_in_flight``, and for an external bot ``bot_offline``, ``bot_busy``,
    ``bot_share_full`` (bots.seating)."""
    if game not in GAMES:
        raise MatchError("unknown_game", _("There is no such game."))
    n_deals = _int_in(
        deals,
        1,
        MAX_DEALS,
        "bad_deals",
        _("Deals: a whole number from 1 to %(n)s.") % {"n": MAX_DEALS},
    )
    n_seed = (
        default_seed()
        if seed is None or str(seed).strip() == ""
        else _int_in(seed, 0, MAX_SEED, "bad_seed", _("Seed: a whole number from 0 to 2⁶³−1."))
    )
    field = match_entrants(user=owner, game=game, entrants=entrants)
    with transaction.atomic():
        # one user's creations queue here, so the limit holds under concurrent requests
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        limit = match_limit()
        if Match.objects.filter(owner=owner, status__in=Match.IN_FLIGHT).count() >= limit:
            raise MatchError(
                "matches_in_flight",
                _(
                    "You already have %(n)s matches queued or running; wait for one to end or "
                    "stop one."
                )
                % {"n": limit},
            )
        external = [e["version_id"] for e in field if e.get("external")]
        try:  # offline, at its limit of games, others' share used: under the bots' row locks
            external_seats_check(user=owner, version_ids=external)
        except SeatRefused as exc:
            raise MatchError(str(exc.code), " ".join(exc.messages)) from exc
        match = Match.objects.create(
            owner=owner,
            game=game,
            entrants=field,
            deals=n_deals,
            seed=n_seed,
            stop_when_separated=bool(stop_when_separated),
            heartbeat_at=clock.now_datetime(),
            queued_at=clock.now_datetime(),
        )
        _enqueue_on_commit(match.pk)
    match.refresh_from_db()
    return match


def _enqueue_on_commit(match_id: int) -> None:
    transaction.on_commit(lambda: schedule(RUN_TASK, [match_id], delay=0, queue=MATCH_QUEUE))


def match_list(*, owner: Any) -> Any:
    """The user's matches, newest first."""
    return Match.objects.filter(owner=owner).order_by("-created_at", "-pk")


def match_get(*, owner: Any, match_id: Any) -> Match:
    """The user's match ``match_id``; another user's (or none) is ``no_such_match``."""
    try:
        return Match.objects.get(owner=owner, pk=int(str(match_id)))
    except (Match.DoesNotExist, TypeError, ValueError):
        raise MatchError("no_such_match", _("There is no such match.")) from None


def match_stop(*, owner: Any, match_id: Any) -> Match:
    """Stop the user's match: a queued one at once, a running one after its current game (its
    worker reads ``stop_requested`` between games). ``match_not_running`` for one that ended."""
    with transaction.atomic():
        match = match_get(owner=owner, match_id=match_id)
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status == Match.Status.QUEUED:
            match.status = Match.Status.STOPPED
            match.stop_requested = True
            match.finished_at = clock.now_datetime()
            if match.report:  # resumed after a lost worker: its deals so far are its result
                match.report = {**match.report, "stopped": "stopped"}
            match.save(update_fields=["status", "stop_requested", "finished_at", "report"])
        elif match.status == Match.Status.RUNNING:
            match.stop_requested = True
            match.save(update_fields=["stop_requested"])
        else:
            raise MatchError("match_not_running", _("This match is not running any more."))
    return match


# --------------------------------------------------------------------------- running


def build_entrants(match: Match, *, resumes: int | None = None, beat: Any = None) -> list[Entrant]:
    """The core's entrants of ``match``'s field, named by their labels: a version is its code
    in the sandbox at the live tables' move timeout, as ``./bin/bot`` seats a ``.js`` file; an
    external bot's version is its program, sent every turn over the bot API with the same
    timeout. ``beat`` (a :class:`bots.matches.slices.Heartbeat`; by default one renewing the
    heartbeat of run ``resumes``) is called before every move of every entrant."""
    if beat is None:
        run = match.resumes if resumes is None else resumes
        beat = Heartbeat(lambda: _beat(match.pk, run), every=heartbeat_seconds())
    ids = [e["version_id"] for e in match.entrants if e.get("kind") == VERSION]
    rows = BotVersion.objects.filter(pk__in=ids).values_list("pk", "code", "bot_id", "bot__kind")
    versions = {pk: (code, bot_id, kind) for pk, code, bot_id, kind in rows}
    turns = MatchTurns(on_turn=beat)
    out: list[Entrant] = []
    for e in match.entrants:
        if e.get("kind") == HOUSE:
            out.append(Beating(HouseEntrant(str(e["level"]), name=str(e["label"])), beat))
            continue
        found = versions.get(int(e["version_id"]))
        if found is None:
            raise MatchError("entrant_gone", _("A bot version of the field was deleted."))
        code, bot_id, kind = found
        if kind == Bot.Kind.EXTERNAL:  # its turns beat through MatchTurns.on_turn
            out.append(ExternalEntrant(str(e["label"]), bot_id, turns, move_timeout()))
        else:
            out.append(
                Beating(BotFileEntrant(str(e["label"]), code, timeout_s=move_timeout()), beat)
            )
    return out


def _run(match_id: int, resumes: int) -> Any:
    """The rows of this run of match ``match_id``: still running, and not taken over by a
    later run (the healer counts ``resumes`` up when it requeues a lost match)."""
    return Match.objects.filter(pk=match_id, status=Match.Status.RUNNING, resumes=resumes)


def _beat(match_id: int, resumes: int) -> None:
    _run(match_id, resumes).update(heartbeat_at=clock.now_datetime())


def next_slice() -> int | None:
    """Claim the match the lab serves next (``queued`` → ``running``); None when none waits.

    Round-robin by user: the queued match of the user whose last slice (on any of their
    matches) began longest ago, a user never served first; among one user's matches the one
    queued longest. Locked with ``SKIP LOCKED``, so two lab processes never claim one match."""
    owners_last = (
        Match.objects.filter(owner=OuterRef("owner"), served_at__isnull=False)
        .order_by("-served_at")
        .values("served_at")[:1]
    )
    now = clock.now_datetime()
    with transaction.atomic():
        pk = (
            Match.objects.filter(status=Match.Status.QUEUED)
            .annotate(owner_served=Subquery(owners_last))
            .order_by(
                F("owner_served").asc(nulls_first=True),
                F("queued_at").asc(nulls_first=True),
                "pk",
            )
            .select_for_update(skip_locked=True)
            .values_list("pk", flat=True)
            .first()
        )
        if pk is None:
            return None
        Match.objects.filter(pk=pk).update(
            status=Match.Status.RUNNING,
            started_at=Coalesce(F("started_at"), Value(now)),
            served_at=now,
            heartbeat_at=now,
        )
    return int(pk)


def _others_waiting(match_id: int) -> bool:
    return Match.objects.filter(status=Match.Status.QUEUED).exclude(pk=match_id).exists()


def _finish(match_id: int, resumes: int, **fields: Any) -> None:
    _run(match_id, resumes).update(finished_at=clock.now_datetime(), **fields)


def _report(stats: DuplicateStats, deals: int, stopped: str | None) -> dict[str, Any]:
    report = stats.report()
    report["deals_planned"] = deals
    report["stopped"] = stopped
    return report


def _resume_point(match: Match) -> tuple[DuplicateStats | None, list[dict[str, Any]]]:
    """The statistics and series a run continues from: the last saved deal's (a match the
    healer requeued, or one back for its next slice), or nothing (from its first deal)."""
    if not match.stats or not int(match.stats.get("deals") or 0):
        return None, []
    stats = DuplicateStats.from_json(match.stats)
    return stats, list(match.series)[: stats.deals]


def match_execute(*, match_id: int) -> str:
    """One turn of the lab (the ``lab`` worker's task, sent for match ``match_id``): play a
    slice of the match :func:`next_slice` picks, round-robin by user, which need not be
    ``match_id``; every queued match has a message on the queue, so each gets its turn.
    Returns the played match's status after its slice (``match_id``'s when none waits: a
    duplicate delivery does nothing)."""
    chosen = next_slice()
    if chosen is None:
        return str(Match.objects.filter(pk=match_id).values_list("status", flat=True).first())
    return _play_slice(chosen)


def _play_slice(match_id: int) -> str:
    """Play the claimed match ``match_id`` until it ends, or until its slice is over and
    another match waits (then it goes back to the queue, ``queued`` behind it, and continues
    after its last deal on its next turn: the report is an uninterrupted run's).

    A slice is over after the first deal that ends :func:`slice_seconds` after the slice
    began. After every deal the report, the series, the core's statistics and ``deals_done``
    are saved (the page's progress; what the next slice or a resumed run continues from);
    ``heartbeat_at`` is renewed then and before moves (every :func:`heartbeat_seconds`: the
    healer's sign of life); ``stop_requested`` is read between games. A run the healer gave
    up (``failed``) or took over (a later run) writes nothing more and stops at its next
    deal."""
    match = Match.objects.get(pk=match_id)
    resumes = match.resumes
    try:
        resume, saved = _resume_point(match)
    except (KeyError, TypeError, ValueError):
        logger.exception("unreadable saved statistics", extra={"match": match_id})
        _finish(match_id, resumes, status=Match.Status.FAILED, error="match_error")
        return Match.Status.FAILED
    series: list[dict[str, Any]] = list(saved)
    began = clock.now()
    played = 0  # deals of this slice
    yielded = False

    def on_progress(p: MatchProgress) -> None:
        nonlocal played
        played += 1
        series.append(p.stats.estimate())
        _run(match_id, resumes).update(
            deals_done=p.deals_done,
            report=_report(p.stats, match.deals, None),
            series=series,
            stats=p.stats.to_json(),
            heartbeat_at=clock.now_datetime(),
        )

    def should_stop() -> bool:
        nonlocal yielded
        row = (
            Match.objects.filter(pk=match_id)
            .values_list("stop_requested", "status", "resumes", "deals_done")
            .first()
        )
        if row is None or bool(row[0]) or row[1] != Match.Status.RUNNING or row[2] != resumes:
            return True
        over = played and row[3] < match.deals and clock.now() - began >= slice_seconds()
        yielded = bool(over) and _others_waiting(match_id)
        return yielded

    try:
        entrants = build_entrants(match, resumes=resumes)
        external = any(isinstance(e, ExternalEntrant) for e in entrants)
        with MatchLease(match_id, resumes):  # the healer's sign of life, in Redis
            result: MatchResult = run_match(
                GAMES[match.game],
                entrants,
                match.deals,
                match.seed,
                mapper=match_games_mapper(match_id, match.deals) if external else None,
                on_progress=on_progress,
                should_stop=should_stop,
                stop_when_separated=match.stop_when_separated,
                resume=resume,
                series=saved,
            )
    except MatchError as exc:
        _finish(match_id, resumes, status=Match.Status.FAILED, error=exc.code)
        return Match.Status.FAILED
    except SoftTimeLimitExceeded:
        _finish(match_id, resumes, status=Match.Status.FAILED, error="time_limit")
        return Match.Status.FAILED
    except (EngineError, Exception):  # a bug must not leave it running; the page shows a code
        logger.exception("match failed", extra={"match": match_id})
        _finish(match_id, resumes, status=Match.Status.FAILED, error="match_error")
        return Match.Status.FAILED
    if yielded and result.report["stopped"] == "stopped":
        now = clock.now_datetime()
        with transaction.atomic():
            if _run(match_id, resumes).update(
                status=Match.Status.QUEUED, queued_at=now, heartbeat_at=now
            ):
                _enqueue_on_commit(match_id)  # behind the matches waiting now
        return Match.Status.QUEUED
    status = (
        Match.Status.STOPPED if result.report["stopped"] == "stopped" else Match.Status.FINISHED
    )
    _finish(
        match_id,
        resumes,
        status=status,
        report=result.report,
        series=result.series,
        stats=result.stats.to_json(),
        deals_done=int(result.report["deals"]),
    )
    return status


def _lease_lapsed(now: Any) -> list[int]:
    """Running matches whose run's lease lapsed (bots/matches/leases.py): their worker died.
    Only runs claimed more than a lease's life ago (the claim sets ``heartbeat_at``, and the
    run takes its lease just after). Redis away: none (the stale heartbeat still heals)."""
    runs = list(
        Match.objects.filter(
            status=Match.Status.RUNNING,
            heartbeat_at__lt=now - timedelta(seconds=lease_seconds()),
        ).values_list("pk", "resumes")
    )
    try:
        alive = leased(runs)
    except redis.RedisError:
        logger.warning("match leases unreadable: only stale heartbeats are healed")
        return []
    return [pk for pk, resumes in runs if (pk, resumes) not in alive]


def matches_heal(*, now: Any = None) -> dict[str, int]:
    """Beat's healer (``HEAL_TASK``, every ``BOTS_MATCH_HEAL_SECONDS``, 2 s): a running match
    whose run's lease lapsed (:func:`_lease_lapsed`, bots/matches/leases.py), or with no
    heartbeat for :func:`stale_seconds` (30), lost its worker: it is queued again
    (``resumes`` counted up) and its next run continues after its last saved deal (only the
    deal in progress is replayed); one already resumed :func:`max_resumes` times is marked
    ``failed`` (``worker_lost``; its report so far stays). A queued match waiting longer than
    :func:`requeue_seconds` is sent to the queue again (a duplicate delivery does nothing).
    Returns ``{"failed": n, "resumed": r, "requeued": m}``."""
    now = now or clock.now_datetime()
    stale = Match.objects.filter(
        Q(heartbeat_at__lt=now - timedelta(seconds=stale_seconds())) | Q(pk__in=_lease_lapsed(now)),
        status=Match.Status.RUNNING,
    )
    failed = stale.filter(resumes__gte=max_resumes()).update(
        status=Match.Status.FAILED, error="worker_lost", finished_at=now
    )
    with transaction.atomic():
        lost = list(
            stale.select_for_update(skip_locked=True)
            .filter(resumes__lt=max_resumes())
            .values_list("pk", flat=True)
        )
        if lost:
            Match.objects.filter(pk__in=lost).update(
                status=Match.Status.QUEUED,
                resumes=F("resumes") + 1,
                heartbeat_at=now,
                queued_at=now,
            )
            for pk in lost:
                logger.warning("match %s lost its worker: resumed from its last deal", pk)
                _enqueue_on_commit(pk)
    requeued = 0
    with transaction.atomic():
        waiting = list(
            Match.objects.select_for_update(skip_locked=True)
            .filter(
                status=Match.Status.QUEUED,
                heartbeat_at__lt=now - timedelta(seconds=requeue_seconds()),
            )
            .values_list("pk", flat=True)
        )
        if waiting:
            Match.objects.filter(pk__in=waiting).update(heartbeat_at=now)
            for pk in waiting:
                _enqueue_on_commit(pk)
            requeued = len(waiting)
    return {"failed": failed, "resumed": len(lost), "requeued": requeued}


# --------------------------------------------------------------------------- promote


def botversion_check_promotable(*, bot: Bot, version: BotVersion | None) -> None:
    """The rule of Promote (:func:`bot_promote`, and the admin's "Promoted version"): the
    version must be one of ``bot``'s own (``no_such_version``) and ready
    (``version_not_ready``); :class:`MatchError` otherwise."""
    if version is None or version.bot_id != bot.pk:
        raise MatchError("no_such_version", _("This bot has no such version."))
    if version.status != BotVersion.Status.READY:
        raise MatchError(
            "version_not_ready",
            _("Only a version that passed its validation game can be promoted."),
        )


def bot_promote(*, bot: Bot, number: int | None) -> Bot:
    """Make version ``number`` of ``bot`` the one it plays with wherever others seat it
    (``None``: back to its latest ready version). ``version_not_ready`` for a version that is
    not ready, ``no_such_version`` for a number it does not have."""
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        if number is None:
            locked.promoted_version = None
        else:
            version = BotVersion.objects.filter(bot=locked, number=number).defer("code").first()
            botversion_check_promotable(bot=locked, version=version)
            locked.promoted_version = version
        locked.save(update_fields=["promoted_version", "updated_at"])
    bot.promoted_version_id = locked.promoted_version_id
    return bot


def bot_playing_version(*, bot: Bot) -> BotVersion | None:
    """The version ``bot`` plays with wherever others seat it (promoted, else latest ready)."""
    ready = BotVersion.objects.filter(bot=bot, status=BotVersion.Status.READY).defer("code")
    if bot.promoted_version_id:
        promoted = ready.filter(pk=bot.promoted_version_id).first()
        if promoted is not None:
            return promoted
    return ready.order_by("-number").first()
