"""Game history: replays, per-step views, export/import, statistics and archiving.

The service/selector layer behind the history pages (``games.history_views``), the archiving
task (``games.tasks.game_archive``) and the ``games_archive`` command. Everything goes through
the engine protocol (``games.engine.core.protocol.Game``), so any registered game works.

**Replays are recomputed, never stored.** A game is rebuilt from its seed and action list by the
engine of the game's own ``rules_version`` (:func:`games.engine.registry.find_game_version`);
step *k* is the state after the first *k* actions, shown through ``engine.view(state, seat)``.
Hidden information follows the live table's rules:

* a **running** (or aborted) game replays only from the spectator's view, or from the caller's
  own seat if they sit in it as a person; nobody ever gets the seed;
* a **finished** game replays as a spectator, or from a seat whose cards the end of the game
  reveals (every seat in Tiến Lên and Diu; in stud only the hands shown at the showdown), or
  from a seat the caller held (as a person, or with their bot). Every step before the last shows
  exactly what that perspective saw live (its own hand only); the last step adds what the
  engine reveals once the game is over (:func:`revealed_hands`: every hand in Tiến Lên and
  Diu, in stud only the hands shown at the showdown — a folded hand or an uncontested winner's
  down cards stay hidden).

A bot's per-move record (``Action.bot_record``: time used, strike, console output) reaches only
the bot's owner.

**Exports** (:func:`game_export`) are signed. A finished game whose end shows every hand (Tiến
Lên, Diu) exports its seed and actions, and :func:`game_import` replays them. A finished game
that keeps cards hidden (:func:`hides_cards`: stud) exports a *hand history* instead — public
turns, revealed hands, result, and the requester's own seat's cards — because the seed would give
away every down card nobody was shown; such an export (and a running game's) imports as a
public replay that no engine can recompute.

**Archiving** (:func:`game_archive`) writes the compact log (config, seed, actions, actors,
owner-only bot records), the result and a summary into ``Game.game_log`` and sets
``archived_at``; it is idempotent. :func:`actions_prune` then deletes the hot ``Action`` rows
of archived games older than ``GAMES_ACTION_RETENTION_DAYS``; replays read the archive and are
identical.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import signing
from django.core.paginator import Page, Paginator
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.engine.core import jsonsafe
from games.engine.core.protocol import Event
from games.engine.core.protocol import Game as EngineGame
from games.engine.registry import GAMES, find_game_version
from games.models import Action, Game, Seat, Table

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

JSON = dict[str, Any]

#: Celery task name of :func:`game_archive` (``games.services._finish`` schedules it by name).
TASK_ARCHIVE = "games.game_archive"
TASK_PRUNE = "games.actions_prune"
#: ``Game.game_log["format"]`` of a complete archive written by :func:`game_archive`.
ARCHIVE_FORMAT = 1
#: The ``format`` of an export file.
EXPORT_FORMAT = "tienlen-arena/game"
EXPORT_VERSION = 2
#: Largest export accepted by :func:`game_import` (bytes) and its most actions: every action
#: becomes a step with its full view in the page, so this bounds the import's response too
#: (a real game has at most a few hundred actions).
MAX_IMPORT_BYTES = 1_000_000
MAX_IMPORT_ACTIONS = 1_000
#: Rows per page of the history lists.
PAGE_SIZE = 20
#: Most points of a statistics chart (longer records are sampled evenly; totals stay exact).
CHART_POINTS = 200
_SIGNING_SALT = "games.history.export"
_SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


class HistoryError(ValueError):
    """A refused history request or import, with a stable ``code`` (docs/history.md)."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}" if detail else code)


def retention_days() -> int:
    """Days the hot ``Action`` rows of an archived game are kept (setting
    ``GAMES_ACTION_RETENTION_DAYS``, default 30)."""
    return int(getattr(settings, "GAMES_ACTION_RETENTION_DAYS", 30))


def engine_of(name: str, rules_version: str) -> EngineGame:
    """The engine of a stored game's rules version; ``unknown_game`` or ``unknown_rules_version``
    as a :class:`HistoryError`."""
    try:
        return find_game_version(name, rules_version)
    except ValueError as exc:
        raise HistoryError(str(getattr(exc, "code", "unknown_game")), str(exc)) from exc


# --------------------------------------------------------------------------- players
def players_of(game: Game) -> list[JSON]:
    """``Game.players`` as one dict per seat (``seat``, ``name``, ``kind``, ``user_id``,
    ``bot_id``, ``bot_version_id``, ``bot_version``, ``bot_owner_id``, ``house_level``).

    Older rows hold plain names; their occupants are read from the table's seats (tables pin
    them for a session)."""
    raw = game.players if isinstance(game.players, list) else []
    if raw and all(isinstance(p, dict) for p in raw):
        return [_player(p, i) for i, p in enumerate(raw)]
    seats = {s.index: s for s in Seat.objects.filter(table_id=game.table_id)}
    out = []
    count = max(len(raw), _seat_count(game.config, []))
    for i in range(count):
        name = raw[i] if i < len(raw) and isinstance(raw[i], str) else None
        seat = seats.get(i)
        out.append(
            _player(
                {
                    "seat": i,
                    "name": name,
                    "kind": seat.kind if seat else None,
                    "user_id": seat.user_id if seat and seat.kind == Seat.Kind.HUMAN else None,
                    "bot_version_id": seat.bot_version_id if seat else None,
                    "house_level": seat.house_level if seat else None,
                },
                i,
            )
        )
    return out


def _player(p: Mapping[str, Any], index: int) -> JSON:
    seat = p.get("seat", index)
    seat = seat if isinstance(seat, int) else index
    return {
        "seat": seat,
        "name": p.get("name") or f"Seat {seat + 1}",
        "kind": p.get("kind"),
        "user_id": p.get("user_id"),
        "bot_id": p.get("bot_id"),
        "bot_version_id": p.get("bot_version_id"),
        "bot_version": p.get("bot_version"),
        "bot_owner_id": p.get("bot_owner_id"),
        "house_level": p.get("house_level"),
        # the house played this person's seat when the game ended: "abandoned" (the one game
        # they walked out of at that table, counted) or "absent" (a later one, not counted)
        "absent": p.get("absent"),
    }


def _seat_count(config: Any, players: Sequence[Any]) -> int:
    n = config.get("players") if isinstance(config, Mapping) else None
    if isinstance(n, int) and not isinstance(n, bool) and n > 0:
        return n
    return len(players)


def public_players(players: Sequence[Mapping[str, Any]]) -> list[JSON]:
    """Seat, name, kind, bot id/version and house level: what anyone may see of the players."""
    keys = ("seat", "name", "kind", "bot_id", "bot_version", "house_level")
    return [{k: p.get(k) for k in keys} for p in players]


# --------------------------------------------------------------------------- text
def card_text(card: Any) -> str:
    """``"10H"`` → ``"10♥"``; anything else as it is.

    >>> card_text("10H"), card_text("AS"), card_text(None)
    ('10♥', 'A♠', '?')
    """
    if not isinstance(card, str) or len(card) < 2:
        return "?" if card is None else str(card)
    return card[:-1] + _SUITS.get(card[-1], card[-1])


def _cards(cards: Any) -> str:
    return " ".join(card_text(c) for c in cards) if isinstance(cards, list) else ""


_QUIET_EVENTS = frozenset({"turn", "hand", "dealt", "down_card"})


def event_text(event: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One line for a public event, in English (None for bookkeeping events such as ``turn``).
    Events of other games fall back to ``"<name>: <type>"``.

    >>> event_text({"type": "cards_played", "seat": 1, "cards": ["3S", "4S", "5S"],
    ...             "combo": "straight", "cut": False}, ["Lan", "Minh"])
    'Minh played 3♠ 4♠ 5♠ (straight)'
    >>> event_text({"type": "raise", "seat": 0, "amount": 4}, ["Lan"])
    'Lan: raise (amount 4)'
    """
    kind = str(event.get("type", ""))
    if kind in _QUIET_EVENTS:
        return None

    def name(key: str = "seat") -> str:
        seat = event.get(key)
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return "?"

    if kind == "cards_played":
        cut = " — a cut!" if event.get("cut") else ""
        return f"{name()} played {_cards(event.get('cards'))} ({event.get('combo')}){cut}"
    if kind == "passed":
        return f"{name()} passed" + (" (auto)" if event.get("auto") else "")
    if kind == "cut":
        return f"{name()} cut {name('victim')} for {event.get('points')} points"
    if kind == "chain_void":
        return f"{name()} went out: the cut chain of {event.get('points')} points is void"
    if kind == "player_out":
        return f"{name()} is out (place {event.get('place')})"
    if kind == "round_ended":
        extra = " (hưởng sái)" if event.get("huong_sai") else ""
        rnd = event.get("round")
        number = rnd + 1 if isinstance(rnd, int) else "?"
        return f"{name('winner')} won round {number}{extra}"
    if kind == "instant_win":
        return f"{name()} wins instantly ({event.get('kind')})"
    if kind in ("game_ended", "hand_ended"):
        return f"Game over: {name('winner')} wins" if "winner" in event else "Game over"
    if kind == "action" and isinstance(event.get("action"), str):  # e.g. stud's bets
        kind = str(event["action"])
    scalars = [
        f"{k} {v}"
        for k, v in event.items()
        if k not in ("type", "seat", "action")
        and isinstance(v, (int, float, str))
        and not isinstance(v, bool)
    ]
    who = f"{name()}: " if "seat" in event else ""
    return f"{who}{kind}" + (f" ({', '.join(scalars[:3])})" if scalars else "")


def step_text(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """The lines of a step's events joined with ``"; "``."""
    lines = [t for t in (event_text(e, names) for e in events) if t]
    return "; ".join(lines)


# --------------------------------------------------------------------------- replay (pure)
def _visible(events: Iterable[Event], seat: int | None) -> list[JSON]:
    return [e.to_json() for e in events if e.to is None or (seat is not None and e.to == seat)]


def _round(engine: EngineGame, state: Any) -> int:
    return int(engine.round_status(state).round_index)


@dataclass
class Replay:
    """A recomputed game: its steps (0 = the deal), its rounds and its final state."""

    steps: list[JSON]
    rounds: list[JSON]
    state: Any
    result: JSON | None


def revealed_hands(
    engine: EngineGame, state: Any, seat: int | None = None
) -> list[list[Any] | None] | None:
    """What the end of a game reveals: each seat's cards as everyone may see them once the game
    is over (None for a card that stays hidden, or for a seat with nothing to show), plus
    ``seat``'s own hand in full; None while the game is on.

    It comes from the engine: its ``revealed_hands(state)`` hook when it has one (stud: only
    the hands shown at the showdown), otherwise the ``hands`` of its spectator view of the
    ended game (Tiến Lên and Diu reveal every hand).

    >>> from games.engine.tienlen import GAME
    >>> revealed_hands(GAME, GAME.new_game({"players": 2}, 5)) is None
    True
    """
    if engine.result(state) is None:
        return None
    hook = getattr(engine, "revealed_hands", None)
    hands = hook(state) if callable(hook) else engine.view(state, None).get("hands")
    if not isinstance(hands, list):
        return None
    out: list[list[Any] | None] = [list(h) if isinstance(h, list) else None for h in hands]
    if seat is not None and 0 <= seat < len(out):
        own = engine.view(state, seat).get("hand")
        if isinstance(own, list):
            out[seat] = list(own)
    return out


def replay_steps(
    engine: EngineGame,
    *,
    config: Mapping[str, Any],
    seed: int | str,
    actions: Sequence[Mapping[str, Any]],
    seat: int | None,
    reveal: bool = True,
    names: Sequence[str] | None = None,
    seats: int | None = None,
) -> Replay:
    """Replay ``actions`` from ``seed`` and return every step as ``seat`` sees it.

    A step is ``{"index", "seat", "auto", "round", "round_after", "events", "text", "view"}``:
    ``view`` is exactly ``engine.view(state, seat)`` after ``index`` actions, ``events`` the
    events of that action this audience saw live (public ones plus the seat's own), ``round``
    the round the action was played in. When the actions end the game and ``reveal`` is true,
    the last step also carries ``"hands"``: :func:`revealed_hands` (what the end of the game
    shows everyone, plus the seat's own hand); no earlier step ever does. ``rounds`` lists seed
    004's rounds: the step of each round's starting view, its turns and the step of its ending
    view (None while it is played). An illegal action raises the engine's error.

    >>> from games.engine.tienlen import GAME
    >>> state = GAME.new_game({"players": 2}, 5)
    >>> r = replay_steps(GAME, config={"players": 2}, seed=5, actions=[], seat=None, reveal=False)
    >>> len(r.steps), r.steps[0]["view"]["hand"], r.rounds[0]["start"]
    (1, None, 0)
    """
    n = seats if seats is not None else _seat_count(config, [])
    labels = list(names) if names is not None else [f"Seat {i + 1}" for i in range(n)]
    state = engine.new_game(config, seed)

    first = _visible(engine.initial_events(state), seat)
    index = _round(engine, state)
    steps: list[JSON] = [
        {
            "index": 0,
            "seat": None,
            "auto": False,
            "round": index,
            "round_after": index,
            "events": first,
            "text": step_text(first, labels) or "The cards are dealt",
            "view": engine.view(state, seat),
        }
    ]
    for i, action in enumerate(actions, start=1):
        before = index
        state, events = engine.apply(state, action)
        index = _round(engine, state)
        shown = _visible(events, seat)
        actor = action.get("seat")
        steps.append(
            {
                "index": i,
                "seat": actor if isinstance(actor, int) else None,
                "auto": bool(action.get("auto", False)),
                "round": before,
                "round_after": index,
                "events": shown,
                "text": step_text(shown, labels),
                "view": engine.view(state, seat),
            }
        )
    result = engine.result(state)
    if reveal and result is not None:
        steps[-1]["hands"] = revealed_hands(engine, state, seat)
    rounds = rounds_of(steps, finished=result is not None)
    return Replay(steps=steps, rounds=rounds, state=state, result=result)


def rounds_of(steps: Sequence[Mapping[str, Any]], *, finished: bool) -> list[JSON]:
    """Seed 004's rounds from a step list: ``{"round", "start", "turns", "end"}`` where
    ``start``/``end`` are the steps of the round's starting and ending views and ``turns`` the
    steps of its actions (``end`` is None while the round is being played).

    >>> steps = [{"index": 0, "round": 0, "round_after": 0},
    ...          {"index": 1, "round": 0, "round_after": 0},
    ...          {"index": 2, "round": 0, "round_after": 1},
    ...          {"index": 3, "round": 1, "round_after": 1}]
    >>> rounds_of(steps, finished=False)
    [{'round': 0, 'start': 0, 'turns': [1, 2], 'end': 2},
     {'round': 1, 'start': 2, 'turns': [3], 'end': None}]
    """
    out: list[JSON] = []
    by_round: dict[int, JSON] = {}

    def opened(number: int, start: int) -> JSON:
        if number not in by_round:
            by_round[number] = {"round": number, "start": start, "turns": [], "end": None}
            out.append(by_round[number])
        return by_round[number]

    if not steps:
        return out
    opened(int(steps[0]["round_after"]), int(steps[0]["index"]))
    for step in steps[1:]:
        index, before, after = int(step["index"]), int(step["round"]), int(step["round_after"])
        current = opened(before, index - 1)
        current["turns"].append(index)
        if after != before:
            current["end"] = index
            opened(after, index)
    last = out[-1]
    if finished and last["end"] is None:
        if last["turns"] or len(out) == 1:
            last["end"] = int(steps[-1]["index"])
        else:
            out.pop()  # the game ended with the previous round: this one never started
    return out


# --------------------------------------------------------------------------- records (DB)
@dataclass
class Record:
    """A game's replay input, from the hot action rows or from the archive."""

    config: JSON
    seed: int | str
    actions: list[JSON]
    actors: list[str | None] = field(default_factory=list)
    bot_records: dict[int, JSON] = field(default_factory=dict)
    source: str = "actions"


def _is_archive(log: Any) -> bool:
    return isinstance(log, dict) and log.get("format") == ARCHIVE_FORMAT and "actions" in log


def game_record(game: Game) -> Record:
    """The seed, config and actions of ``game`` with each action's actor and the bot records:
    from the ``Action`` rows while they exist, otherwise from the archive in ``game_log``."""
    rows = list(
        Action.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "payload", "actor", "bot_record")
    )
    log = game.game_log
    if rows or not _is_archive(log):
        return Record(
            config=dict(game.config or {}),
            seed=game.seed,
            actions=[dict(p) for _, p, _, _ in rows],
            actors=[a for _, _, a, _ in rows],
            bot_records={seq: dict(r) for seq, _, _, r in rows if isinstance(r, dict)},
            source="actions",
        )
    assert isinstance(log, dict)
    raw_records = log.get("bot_records") or {}
    return Record(
        config=dict(log.get("config") or game.config or {}),
        seed=log.get("seed", game.seed),
        actions=[dict(a) for a in log.get("actions") or []],
        actors=list(log.get("actors") or []),
        bot_records={int(k): dict(v) for k, v in raw_records.items() if isinstance(v, dict)},
        source="archive",
    )


def _is_finished(game: Game) -> bool:
    return game.status == Game.Status.FINISHED


def viewer_seats(game: Game, user: User | None) -> list[int]:
    """Seats ``user`` held as a person in ``game`` (from the deal's snapshot)."""
    if user is None or not user.is_authenticated:
        return []
    return [
        int(p["seat"])
        for p in players_of(game)
        if p.get("kind") == Seat.Kind.HUMAN and p.get("user_id") == user.pk
    ]


def perspectives(
    game: Game, user: User | None, *, revealed: Sequence[Any] | None = None
) -> list[int | None]:
    """The perspectives ``user`` may replay ``game`` from: None (a spectator) always; while it
    runs only the seats they hold as a person; once it is finished also the seats whose bot
    they own and every seat whose whole hand the end of the game reveals (``revealed``:
    :func:`revealed_hands` of the final state; computed when not given). A stud hand that
    folded, or won uncontested, keeps its down cards: only its player (or its bot's owner)
    may replay from it."""
    own = set(viewer_seats(game, user))
    if not _is_finished(game):
        return [None, *sorted(own)]
    players = players_of(game)
    own |= _owned_bot_seats(game, players, user)
    if revealed is None:
        engine = engine_of(game.engine, game.rules_version)
        record = game_record(game)
        state = engine.replay(record.config, record.seed, record.actions)
        revealed = revealed_hands(engine, state) or []
    shown = {
        s
        for s, cards in enumerate(revealed)
        if isinstance(cards, list) and all(c is not None for c in cards)
    }
    return [None, *(s for s in range(len(players)) if s in own or s in shown)]


def _owned_bot_seats(
    game: Game, players: Sequence[Mapping[str, Any]], user: User | None
) -> set[int]:
    """Seats of ``game`` held by a bot that ``user`` owns."""
    if user is None or not user.is_authenticated:
        return set()
    owned = {int(p["seat"]) for p in players if p.get("bot_owner_id") == user.pk}
    unknown = {
        int(p["seat"]): p["bot_version_id"]
        for p in players
        if p.get("kind") == Seat.Kind.BOT
        and p.get("bot_owner_id") is None
        and p.get("bot_version_id")
    }
    if unknown:
        version_model: Any = Seat._meta.get_field("bot_version").related_model
        mine = set(
            version_model.objects.filter(
                pk__in=unknown.values(), bot__owner_id=user.pk
            ).values_list("pk", flat=True)
        )
        owned |= {seat for seat, version in unknown.items() if version in mine}
    return owned


def disqualified_steps(game: Game, record: Record, seats: int) -> list[int | None]:
    """For each seat, the step from which its bot was disqualified (3 strikes; 0: already
    disqualified when the game was dealt), or None.

    Read from the game's own log (the strike record that disqualified it, ``Action.bot_record``
    ``"disqualified": true``, kept in the archive), from a deal snapshot that says so, and from
    the earlier games of the session: a disqualified bot stays disqualified at its seat for the
    rest of the session."""
    out: list[int | None] = [None] * seats
    players = players_of(game)
    for p in players:
        if p.get("disqualified") is True and 0 <= int(p["seat"]) < seats:
            out[int(p["seat"])] = 0
    bot_seats = {
        int(p["seat"]): p.get("bot_version_id")
        for p in players
        if p.get("kind") == Seat.Kind.BOT and p.get("bot_version_id")
    }
    if bot_seats and game.number > 1:
        for seat in _disqualified_earlier(game, bot_seats):
            if 0 <= seat < seats:
                out[seat] = 0
    for seq, rec in sorted(record.bot_records.items()):
        if rec.get("disqualified") is not True or not 0 < seq <= len(record.actions):
            continue
        actor = record.actions[seq - 1].get("seat")
        if isinstance(actor, int) and 0 <= actor < seats and out[actor] is None:
            out[actor] = seq
    return out


def _disqualified_earlier(game: Game, bot_seats: Mapping[int, Any]) -> set[int]:
    """Seats of ``bot_seats`` (seat → bot version id) whose same bot version was disqualified
    in an earlier game of ``game``'s session."""
    found: set[int] = set()
    rows = Action.objects.filter(
        game__table_id=game.table_id,
        game__number__lt=game.number,
        bot_record__disqualified=True,
    ).values_list("seat", "bot_record")
    for index, rec in rows:
        version = rec.get("bot_version_id") if isinstance(rec, dict) else None
        if index is not None and index in bot_seats and version in (None, bot_seats[index]):
            found.add(int(index))
    archived = Game.objects.filter(
        table_id=game.table_id, number__lt=game.number, archived_at__isnull=False
    ).values_list("players", "game_log")
    for snapshot, log in archived:
        summary = log.get("summary") if isinstance(log, dict) else None
        steps = summary.get("disqualified") if isinstance(summary, dict) else None
        if not isinstance(steps, list) or not isinstance(snapshot, list):
            continue
        for seat, step in enumerate(steps):
            if step is None or seat not in bot_seats or seat >= len(snapshot):
                continue
            then = snapshot[seat]
            if isinstance(then, dict) and then.get("bot_version_id") == bot_seats[seat]:
                found.add(seat)
    return found


def game_players(game: Game) -> list[JSON]:
    """:func:`players_of` with ``"disqualified"``: the step from which a seat's bot was
    disqualified (0: from the deal), or None (the game page marks it)."""
    players = players_of(game)
    if not any(p.get("kind") == Seat.Kind.BOT for p in players):
        return [{**p, "disqualified": None} for p in players]
    steps = disqualified_steps(game, game_record(game), len(players))
    return [{**p, "disqualified": steps[i]} for i, p in enumerate(players)]


def game_meta(game: Game) -> JSON:
    """What the history page shows of a game besides its replay (never the seed while live)."""
    table = game.table
    players = players_of(game)
    total = (table.session or {}).get("games") if isinstance(table.session, dict) else None
    result = game.result if _is_finished(game) and isinstance(game.result, dict) else None
    return {
        "id": game.pk,
        "table": {"code": table.code, "name": table.name, "mode": table.mode},
        "number": game.number,
        "games": int(total or table.options.get("session_length", 16)),
        "engine": game.engine,
        "rules_version": game.rules_version,
        "status": game.status,
        "options": _public_options(game.config),
        "players": public_players(players),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        "result": result,
        "archived": game.archived_at is not None,
    }


_PRIVATE_CONFIG_KEYS = ("hands", "cards", "deck", "seed")


def _public_options(config: Any) -> JSON:
    """A game's config without anything that fixes the deal (a fixed deal is a secret too)."""
    if not isinstance(config, Mapping):
        return {}
    return {k: v for k, v in config.items() if k not in _PRIVATE_CONFIG_KEYS}


def game_replay(*, game: Game, user: User | None, seat: int | None) -> JSON:
    """The replay of ``game`` from ``seat``'s perspective (None: a spectator) for ``user``.

    Raises ``forbidden_perspective`` when ``user`` may not see that seat (another seat of a
    running game; a finished seat whose cards stay hidden), ``bad_seat`` for a seat outside the
    table. Bot seats owned by ``user`` carry their per-move record under ``steps[i]["bot"]``;
    nobody else's do."""
    players = players_of(game)
    if seat is not None and not 0 <= seat < len(players):
        raise HistoryError("bad_seat", f"no seat {seat}")
    engine = engine_of(game.engine, game.rules_version)
    record = game_record(game)
    names = [str(p["name"]) for p in players]
    replay = replay_steps(
        engine,
        config=record.config,
        seed=record.seed,
        actions=record.actions,
        seat=seat,
        reveal=_is_finished(game),
        names=names,
        seats=len(players),
    )
    revealed: list[Any] | None = None
    if _is_finished(game):
        revealed = revealed_hands(engine, replay.state) or []
    allowed = perspectives(game, user, revealed=revealed)
    if seat not in allowed:
        raise HistoryError(
            "forbidden_perspective",
            "only your own seat while the game is on, and only revealed hands once it is over",
        )
    owned = _owned_bot_seats(game, players, user)
    for step in replay.steps[1:]:
        actor = record.actors[step["index"] - 1] if step["index"] - 1 < len(record.actors) else None
        step["actor"] = actor
        bot = record.bot_records.get(step["index"])
        if bot is not None and step["seat"] in owned:
            step["bot"] = {k: v for k, v in bot.items() if k != "bot_version_id"}
    return {
        "game": game_meta(game),
        "perspective": seat,
        "perspectives": allowed,
        "reveal": _is_finished(game),
        "names": names,
        "disqualified": disqualified_steps(game, record, len(players)),
        "steps": replay.steps,
        "rounds": replay.rounds,
    }


# --------------------------------------------------------------------------- export / import
#: The fields the signature of a version-1 export covered (the log and its result only).
_SIGNED_V1 = ("game", "rules_version", "config", "seed", "actions", "result")


def _canonical(data: Mapping[str, Any], *, version: int = EXPORT_VERSION) -> str:
    """The signed text of an export: every field but ``signature`` (names, table, game number
    and dates included, so anything the import page shows as signed is covered); a version-1
    export signed only :data:`_SIGNED_V1`."""
    if version == 1:
        body = {k: data.get(k) for k in _SIGNED_V1}
    else:
        body = {k: v for k, v in data.items() if k != "signature"}
    return json.dumps(_jsonish(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _signer() -> signing.Signer:
    return signing.Signer(salt=_SIGNING_SALT)


def hides_cards(engine: EngineGame) -> bool:
    """True for a game whose end leaves some cards hidden for good: its engine has the
    ``revealed_hands`` hook (stud: a folded hand, and an uncontested winner's, are never shown).
    Such a game's finished export is a hand history (:func:`game_export`), never its seed.

    >>> from games.engine.registry import find_game
    >>> hides_cards(find_game("stud")), hides_cards(find_game("tienlen"))
    (True, False)
    """
    return callable(getattr(engine, "revealed_hands", None))


def _hides_cards(name: str, rules_version: str) -> bool:
    """:func:`hides_cards` for a stored game; an unknown rules version is judged by the game's
    current engine, an unknown game counts as hiding (its seed is never given out blindly)."""
    try:
        engine = engine_of(name, rules_version)
    except HistoryError:
        current = GAMES.get(name)
        return current is None or hides_cards(current)
    return hides_cards(engine)


def _public_turns(steps: Sequence[Mapping[str, Any]]) -> list[JSON]:
    """A spectator replay's steps as an export's ``turns``: what everyone saw, step by step."""
    return [
        {
            "step": s["index"],
            "seat": s["seat"],
            "round": s["round"],
            "round_after": s["round_after"],
            "events": s["events"],
            "text": s["text"],
        }
        for s in steps
    ]


def _export_seat(game: Game, players: Sequence[Mapping[str, Any]], user: User | None) -> int | None:
    """The seat whose own cards ``user`` may take home in a hand history: the seat they held as
    a person, else the first seat of a bot they own; None for anyone else."""
    mine = viewer_seats(game, user) or sorted(_owned_bot_seats(game, players, user))
    return mine[0] if mine else None


def game_export(*, game: Game, user: User | None = None) -> JSON:
    """The game as a JSON-able export for ``user`` (None: anonymous), signed over every field.

    * A **finished** game whose cards all show at the end (Tiến Lên, Diu): its config, seed and
      actions, which :func:`game_import` replays with the engine.
    * A **finished** game that keeps cards hidden (:func:`hides_cards`: stud) is a *hand
      history*: no seed, config or actions (the seed fixes every card, including the down cards
      nobody was shown), only its public ``turns`` (a spectator's steps), the public
      ``options``, ``revealed_hands`` (what the end shows everyone) and the result; plus
      ``your_hand`` (``{"seat", "cards"}``) when ``user`` held a seat, as a person or with their
      bot — that seat's own cards and nobody else's.
    * A **running** (or aborted) game: only its public ``turns``, never the seed or a hand.
    """
    meta = game_meta(game)
    out: JSON = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": game.engine,
        "rules_version": game.rules_version,
        "table": meta["table"]["name"],
        "number": game.number,
        "games": meta["games"],
        "status": game.status,
        "started_at": meta["started_at"],
        "ended_at": meta["ended_at"],
        "players": meta["players"],
        "result": meta["result"],
    }
    if _is_finished(game) and not _hides_cards(game.engine, game.rules_version):
        record = game_record(game)
        out["config"] = record.config
        out["seed"] = record.seed
        out["actions"] = [_clean_action(a) for a in record.actions]
    elif _is_finished(game):
        out.update(_hand_history(game, user))
    else:
        replay = game_replay(game=game, user=None, seat=None)
        out["turns"] = _public_turns(replay["steps"])
    out["signature"] = _signer().signature(_canonical(out))
    return out


def _hand_history(game: Game, user: User | None) -> JSON:
    """The public part of a finished hidden-card game (see :func:`game_export`)."""
    engine = engine_of(game.engine, game.rules_version)
    record = game_record(game)
    players = players_of(game)
    replay = replay_steps(
        engine,
        config=record.config,
        seed=record.seed,
        actions=record.actions,
        seat=None,
        reveal=True,
        names=[str(p["name"]) for p in players],
        seats=len(players),
    )
    out: JSON = {
        "options": _public_options(record.config),
        "turns": _public_turns(replay.steps),
        "revealed_hands": revealed_hands(engine, replay.state),
    }
    seat = _export_seat(game, players, user)
    cards = engine.view(replay.state, seat).get("hand") if seat is not None else None
    if seat is not None and isinstance(cards, list):
        out["your_hand"] = {"seat": seat, "cards": list(cards)}
    return out


def _clean_action(action: Mapping[str, Any]) -> JSON:
    return {k: v for k, v in action.items() if not k.startswith("_")}


def result_text(meta: Mapping[str, Any], *, url: str = "") -> str:
    """The copyable plain-text result of a finished game (the seed's "share result").

    >>> print(result_text({"table": {"name": "Bàn 1"}, "number": 2, "games": 16,
    ...     "players": [{"name": "Lan"}, {"name": "Minh"}],
    ...     "result": {"winner": 0, "ranking": [0, 1], "scores": [8, -8],
    ...                "transfers": [{"from": 1, "to": 0, "points": 8, "reason": "cards"}]}}))
    Bàn 1 — game 2 of 16
    Winner: Lan
    1. Lan +8
    2. Minh -8
      Minh → Lan: 8 (cards)
    """
    names = [str(p.get("name")) for p in meta.get("players") or []]

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    lines = [f"{meta['table']['name']} — game {meta['number']} of {meta['games']}"]
    result = meta.get("result")
    if not isinstance(result, Mapping):
        lines.append("In progress")
    else:
        scores = result.get("scores") or []
        lines.append(f"Winner: {name(result.get('winner'))}")
        ranking = result.get("ranking") or list(range(len(scores)))
        for place, seat in enumerate(ranking, start=1):
            score = scores[seat] if isinstance(seat, int) and seat < len(scores) else 0
            lines.append(f"{place}. {name(seat)} {score:+d}")
        for t in result.get("transfers") or []:
            lines.append(
                f"  {name(t.get('from'))} → {name(t.get('to'))}: {t.get('points')} "
                f"({t.get('reason')})"
            )
    if url:
        lines.append(url)
    return "\n".join(lines)


def game_import(*, data: bytes | str) -> JSON:
    """Validate an export and return what the replay viewer shows (a spectator's perspective;
    the last step shows what the end of the game reveals). ``signed`` says a signature of this
    server matched; ``names_signed`` that it covered the table, game number and player names too
    (every export since version 2); ``public`` that it is a list of public turns, not a replay.

    An export with a seed is replayed by the engine of its rules version. One without a seed but
    with ``turns`` — a hand history (a finished stud game) or a running game's export — cannot
    be recomputed: :func:`_public_import` shows its turns, revealed hands and result as
    recorded, trusted only as far as its signature goes.

    Errors (:class:`HistoryError`): ``too_large``, ``too_long`` (more than
    :data:`MAX_IMPORT_ACTIONS` actions, or turns after the deal), ``bad_export`` (not JSON or a
    field missing or malformed), ``not_finished`` (neither a seed nor turns),
    ``unknown_game``, ``unknown_rules_version``, ``tampered`` (a signature that does not match),
    ``illegal_action`` (an action the rules refuse, with its number), ``incomplete`` (the actions
    do not end the game), ``result_mismatch`` (the stated result is not the replayed one)."""
    if len(data) > MAX_IMPORT_BYTES:
        raise HistoryError("too_large", f"an export may have at most {MAX_IMPORT_BYTES} bytes")
    try:
        obj = jsonsafe.loads(data)
    except jsonsafe.JSONTooDeepError as exc:
        raise HistoryError(
            "bad_export", f"the file nests deeper than {jsonsafe.MAX_DEPTH} levels"
        ) from exc
    except (ValueError, UnicodeDecodeError) as exc:
        raise HistoryError("bad_export", "the file is not JSON") from exc
    if not isinstance(obj, dict) or obj.get("format") != EXPORT_FORMAT:
        raise HistoryError("bad_export", f"not a {EXPORT_FORMAT} export")
    if obj.get("seed") is None:
        if "turns" in obj:
            return _public_import(obj)
        raise HistoryError(
            "not_finished", "neither a seed to replay nor public turns to show: not a game export"
        )
    name, version = obj.get("game"), obj.get("rules_version")
    config, seed, actions = obj.get("config"), obj.get("seed"), obj.get("actions")
    if not isinstance(name, str) or not isinstance(version, str):
        raise HistoryError("bad_export", "game and rules_version must be strings")
    if not isinstance(config, dict) or not isinstance(actions, list):
        raise HistoryError("bad_export", "config must be an object and actions a list")
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise HistoryError("bad_export", "seed must be an integer or a string")
    if not all(isinstance(a, dict) for a in actions):
        raise HistoryError("bad_export", "actions must be objects")
    if len(actions) > MAX_IMPORT_ACTIONS:
        raise HistoryError("too_long", f"an export may have at most {MAX_IMPORT_ACTIONS} actions")
    engine = engine_of(name, version)
    signed, names_signed = _signature_of(obj, allow_v1=True)
    players = _import_players(obj, _seat_count(config, []))
    seats = len(players)
    names = [str(p["name"]) for p in players]
    try:
        engine.validate_config(config)
        engine.new_game(config, seed)
    except ValueError as exc:
        raise HistoryError("bad_export", f"config: {exc}") from exc
    replay = _checked_replay(engine, config, seed, actions, names, seats)
    if replay.result is None:
        raise HistoryError("incomplete", "the actions stop before the game ends")
    stated = obj.get("result")
    if stated is not None and _jsonish(stated) != _jsonish(replay.result):
        raise HistoryError("result_mismatch", "the stated result is not the replayed one")
    return {
        "game": {
            "engine": name,
            "rules_version": version,
            "table": {"name": str(obj.get("table") or "Imported game")},
            "number": obj.get("number") or 1,
            "games": obj.get("games") or 1,
            "status": Game.Status.FINISHED,
            "players": public_players(players),
            "options": _public_options(config),
            "result": replay.result,
        },
        "signed": signed,
        "names_signed": names_signed,
        "public": False,
        "your_hand": None,
        "perspective": None,
        "perspectives": [None],
        "reveal": True,
        "names": names,
        "steps": replay.steps,
        "rounds": replay.rounds,
    }


def _signature_of(obj: Mapping[str, Any], *, allow_v1: bool) -> tuple[bool, bool]:
    """``(signed, names_signed)`` of an export; ``tampered`` when a signature is present and is
    not this server's for the file's content. A version-1 signature (``allow_v1``: only a seeded
    export ever had one) covered the log and the result, not the names."""
    signature = obj.get("signature")
    if signature is None:
        return False, False
    old = allow_v1 and obj.get("version") == 1
    text = _canonical(obj, version=1 if old else EXPORT_VERSION)
    if not isinstance(signature, str) or not _signer_ok(text, signature):
        raise HistoryError("tampered", "the export was changed after it was made")
    return True, not old


def _import_players(obj: Mapping[str, Any], seats: int) -> list[JSON]:
    """An export's players, one per seat (at least ``seats``), unnamed seats filled in."""
    raw = obj.get("players")
    players = [
        _player(p, i)
        for i, p in enumerate(raw if isinstance(raw, list) else [])
        if isinstance(p, dict)
    ]
    while len(players) < seats:
        players.append(_player({}, len(players)))
    return players


_IMPORT_STATUSES = (Game.Status.FINISHED, Game.Status.RUNNING, Game.Status.ABORTED)


def _public_import(obj: Mapping[str, Any]) -> JSON:
    """Show an export without a seed: a finished stud game's hand history, or a running (or
    aborted) game's export. Its ``turns`` (``step``, ``seat``, ``events``, ``text``, and
    ``round``/``round_after`` when present) become the viewer's steps, without a view: no engine
    can recompute them. A finished one's last step carries ``revealed_hands`` with
    ``your_hand`` put in its seat. Checked: the shape of every field, the caps, the game being
    known (``unknown_game`` / ``unknown_rules_version``) and the signature (``tampered``); not
    checked: that the turns are a legal game — an unsigned file is shown as *not verified*."""
    name, version = obj.get("game"), obj.get("rules_version")
    if not isinstance(name, str) or not isinstance(version, str):
        raise HistoryError("bad_export", "game and rules_version must be strings")
    turns, status = obj.get("turns"), obj.get("status")
    if not isinstance(turns, list) or not turns:
        raise HistoryError("bad_export", "turns must be a non-empty list")
    if len(turns) > MAX_IMPORT_ACTIONS + 1:
        raise HistoryError("too_long", f"an export may have at most {MAX_IMPORT_ACTIONS} turns")
    if status not in _IMPORT_STATUSES:
        raise HistoryError("bad_export", "status must be finished, running or aborted")
    engine_of(name, version)
    signed, names_signed = _signature_of(obj, allow_v1=False)
    options = obj.get("options")
    players = _import_players(obj, _seat_count(options, []))
    seats = len(players)
    names = [str(p["name"]) for p in players]
    steps = [_public_step(turn, i, names) for i, turn in enumerate(turns)]
    finished = status == Game.Status.FINISHED
    result = obj.get("result")
    if finished and not isinstance(result, dict):
        raise HistoryError("bad_export", "a finished game's result must be an object")
    your_hand = _your_hand(obj.get("your_hand"), seats)
    hands = _hands(obj.get("revealed_hands"), seats) if finished else None
    if your_hand is not None and finished:
        hands = hands or [None] * seats
        hands[your_hand["seat"]] = list(your_hand["cards"])
    if hands is not None:
        steps[-1]["hands"] = hands
    return {
        "game": {
            "engine": name,
            "rules_version": version,
            "table": {"name": str(obj.get("table") or "Imported game")},
            "number": obj.get("number") or 1,
            "games": obj.get("games") or 1,
            "status": status,
            "players": public_players(players),
            "options": _public_options(options),
            "result": result if finished else None,
        },
        "signed": signed,
        "names_signed": names_signed,
        "public": True,
        "your_hand": your_hand,
        "perspective": None,
        "perspectives": [None],
        "reveal": hands is not None,
        "names": names,
        "steps": steps,
        "rounds": rounds_of(steps, finished=finished),
    }


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _public_step(turn: Any, index: int, names: Sequence[str]) -> JSON:
    """One export turn as a viewer step (``bad_export`` when malformed or out of order)."""
    if not isinstance(turn, dict) or not _is_int(turn.get("step")) or turn["step"] != index:
        raise HistoryError("bad_export", f"turn {index} is not the step {index} object")
    seat, events = turn.get("seat"), turn.get("events")
    if seat is not None and not (_is_int(seat) and 0 <= seat < len(names)):
        raise HistoryError("bad_export", f"turn {index}: no seat {seat!r}")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise HistoryError("bad_export", f"turn {index}: events must be a list of objects")
    before = turn.get("round", 0)
    after = turn.get("round_after", before)
    if not _is_int(before) or not _is_int(after):
        raise HistoryError("bad_export", f"turn {index}: round must be an integer")
    text = turn.get("text")
    if text is None:
        text = step_text(events, names)
    if not isinstance(text, str):
        raise HistoryError("bad_export", f"turn {index}: text must be a string")
    return {
        "index": index,
        "seat": seat,
        "auto": False,
        "round": before,
        "round_after": after,
        "events": events,
        "text": text or ("The cards are dealt" if index == 0 else ""),
    }


def _card_list(value: Any, *, hidden: bool) -> bool:
    return isinstance(value, list) and all(
        isinstance(c, str) or (hidden and c is None) for c in value
    )


def _hands(value: Any, seats: int) -> list[list[Any] | None] | None:
    """An export's ``revealed_hands``: one list of card ids (None: a card still hidden) or None
    per seat; ``bad_export`` otherwise."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != seats:
        raise HistoryError("bad_export", "revealed_hands must have one entry per seat")
    if not all(h is None or _card_list(h, hidden=True) for h in value):
        raise HistoryError("bad_export", "revealed_hands must hold card ids or null")
    return [list(h) if isinstance(h, list) else None for h in value]


def _your_hand(value: Any, seats: int) -> JSON | None:
    """An export's ``your_hand`` (``{"seat", "cards"}``), checked; ``bad_export`` otherwise."""
    if value is None:
        return None
    seat: Any = value.get("seat") if isinstance(value, dict) else None
    cards: Any = value.get("cards") if isinstance(value, dict) else None
    if not (_is_int(seat) and 0 <= seat < seats) or not _card_list(cards, hidden=False):
        raise HistoryError("bad_export", "your_hand must be {seat, cards: [card ids]}")
    return {"seat": seat, "cards": list(cards)}


def _signer_ok(value: str, signature: str) -> bool:
    signer = _signer()
    try:
        signer.unsign(f"{value}{signer.sep}{signature}")
    except signing.BadSignature:
        return False
    return True


def _jsonish(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def _checked_replay(
    engine: EngineGame,
    config: Mapping[str, Any],
    seed: int | str,
    actions: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    seats: int,
) -> Replay:
    try:
        return replay_steps(
            engine,
            config=config,
            seed=seed,
            actions=actions,
            seat=None,
            reveal=True,
            names=names,
            seats=seats,
        )
    except ValueError as exc:
        # find which action the engine refused, for the error message
        state = engine.new_game(config, seed)
        for i, action in enumerate(actions, start=1):
            try:
                state, _ = engine.apply(state, action)
            except ValueError as inner:
                code = getattr(inner, "code", "illegal")
                raise HistoryError("illegal_action", f"action {i} is refused ({code})") from inner
        raise HistoryError("bad_export", str(exc)) from exc


# --------------------------------------------------------------------------- lists
@dataclass
class HistoryFilters:
    """Filters of the history lists (all optional)."""

    game: str = ""
    player: str = ""
    bot: int | None = None
    date_from: date | None = None
    date_to: date | None = None

    def query(self) -> dict[str, str]:
        out = {"game": self.game, "player": self.player}
        out["bot"] = str(self.bot) if self.bot is not None else ""
        out["from"] = self.date_from.isoformat() if self.date_from else ""
        out["to"] = self.date_to.isoformat() if self.date_to else ""
        return {k: v for k, v in out.items() if v}


def _contains(key: str, value: int) -> Q:
    """``Game.players`` holds a seat whose ``key`` equals ``value`` (jsonb containment)."""
    return Q(players__contains=[{key: value}])


def _filtered(qs: QuerySet[Game], filters: HistoryFilters) -> QuerySet[Game]:
    if filters.game:
        qs = qs.filter(engine=filters.game)
    if filters.player:
        text = filters.player.replace('"', "").replace("\\", "").strip()
        if text:
            qs = qs.filter(players__icontains=f'"name": "{text}')
    if filters.bot is not None:
        qs = qs.filter(_contains("bot_id", filters.bot))
    if filters.date_from:
        qs = qs.filter(started_at__date__gte=filters.date_from)
    if filters.date_to:
        qs = qs.filter(started_at__date__lte=filters.date_to)
    return qs


_LISTED = (Game.Status.FINISHED, Game.Status.RUNNING)


def _newest(qs: QuerySet[Game], filters: HistoryFilters | None) -> QuerySet[Game]:
    """``qs`` filtered by ``filters``, with its table, newest first."""
    return (
        _filtered(qs, filters or HistoryFilters())
        .select_related("table")
        .order_by("-started_at", "-pk")
    )


def game_list_public(*, filters: HistoryFilters | None = None) -> QuerySet[Game]:
    """Finished and running games of public tables, newest first."""
    qs = Game.objects.filter(table__visibility=Table.Visibility.PUBLIC, status__in=_LISTED)
    return _newest(qs, filters)


def game_list_mine(*, user: User, filters: HistoryFilters | None = None) -> QuerySet[Game]:
    """Games ``user`` played in as a person, or with one of their bots, or hosted."""
    qs = Game.objects.filter(
        _contains("user_id", user.pk) | _contains("bot_owner_id", user.pk) | Q(table__owner=user),
        status__in=(*_LISTED, Game.Status.ABORTED),
    )
    return _newest(qs, filters)


def game_list_bot(
    *, bot_id: int, user: User | None, filters: HistoryFilters | None = None
) -> QuerySet[Game]:
    """Games a bot played: those of public tables, and every one for the bot's owner."""
    qs = Game.objects.filter(_contains("bot_id", bot_id), status__in=_LISTED)
    owner = user is not None and user.is_authenticated and _bot_owner_id(bot_id) == user.pk
    if not owner:
        qs = qs.filter(table__visibility=Table.Visibility.PUBLIC)
    return _newest(qs, filters)


def game_list_player(
    *, user: User, public_only: bool, filters: HistoryFilters | None = None
) -> QuerySet[Game]:
    """Games ``user`` played as a person (only public tables' unless ``public_only`` is False)."""
    qs = Game.objects.filter(_contains("user_id", user.pk), status__in=_LISTED)
    if public_only:
        qs = qs.filter(table__visibility=Table.Visibility.PUBLIC)
    return _newest(qs, filters)


def game_list_table(*, table: Table) -> QuerySet[Game]:
    """A table session's games in order."""
    return Game.objects.filter(table=table).select_related("table").order_by("number")


def _bot_owner_id(bot_id: int) -> int | None:
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    bot_model: Any = version_model._meta.get_field("bot").related_model
    owner: int | None = (
        bot_model.objects.filter(pk=bot_id).values_list("owner_id", flat=True).first()
    )
    return owner


def bot_get(*, bot_id: int) -> Any:
    """The bot row (name, owner) or None."""
    version_model: Any = Seat._meta.get_field("bot_version").related_model
    bot_model: Any = version_model._meta.get_field("bot").related_model
    return bot_model.objects.select_related("owner").filter(pk=bot_id).first()


def paginate(qs: QuerySet[Game], page: Any) -> Page[Game]:
    """One page of a history list (bad or out-of-range page numbers give the nearest page)."""
    return Paginator(qs, PAGE_SIZE).get_page(page)


def game_rows(games: Iterable[Game]) -> list[JSON]:
    """List rows: the game, its players' names, winner name and status."""
    rows = []
    for game in games:
        players = players_of(game)
        winner = game.winner_seat
        rows.append(
            {
                "game": game,
                "players": [p["name"] for p in players],
                "abandoned": [p["name"] for p in players if p.get("absent")],
                "winner": players[winner]["name"]
                if isinstance(winner, int) and winner < len(players)
                else None,
            }
        )
    return rows


def game_get(*, code: str, number: int) -> Game | None:
    """Game ``number`` of the table with link code ``code`` (the code is the share secret of a
    private table, as for the live table page)."""
    return Game.objects.select_related("table").filter(table__code=code, number=number).first()


#: Readable names of the transfer reasons (Tiến Lên's; other games show their own codes).
REASON_LABELS = {
    "cards": "cards left",
    "cong": "cóng (never played)",
    "toi_trang": "tới trắng (instant win)",
    "chat": "chặt (cut)",
    "thui": "thúi (unplayed 2s / bombs)",
    "den_bai": "đền bài (pays for all)",
}


def transfers_named(meta: Mapping[str, Any]) -> list[JSON]:
    """The result's transfers with the players' names and a readable reason."""
    names = [str(p.get("name")) for p in meta.get("players") or []]
    result = meta.get("result") if isinstance(meta.get("result"), Mapping) else {}
    assert isinstance(result, Mapping)

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    return [
        {
            "from": name(t.get("from")),
            "to": name(t.get("to")),
            "points": t.get("points"),
            "reason": t.get("reason"),
            "label": REASON_LABELS.get(str(t.get("reason")), str(t.get("reason"))),
        }
        for t in result.get("transfers") or []
        if isinstance(t, Mapping)
    ]


def game_summary(game: Game) -> JSON:
    """Rounds and moves of a game (from the archive's summary when there is one)."""
    log = game.game_log
    if _is_archive(log):
        assert isinstance(log, dict)
        summary = log.get("summary") or {}
        return {"rounds": summary.get("rounds"), "actions": summary.get("actions")}
    return {"rounds": game.total_rounds, "actions": game.version}


def session_context(*, table: Table) -> JSON:
    """A table session's length, games played, totals by seat name and whether it is over."""
    session = table.session if isinstance(table.session, dict) else {}
    last = Game.objects.filter(table=table).order_by("-number").first()
    names = [str(p["name"]) for p in players_of(last)] if last is not None else []
    totals = list(session.get("totals") or [])
    return {
        "games": int(session.get("games") or table.options.get("session_length", 16)),
        "played": Game.objects.filter(table=table, status=Game.Status.FINISHED).count(),
        "totals": [
            {"name": names[i] if i < len(names) else f"Seat {i + 1}", "points": t}
            for i, t in enumerate(totals)
        ],
        "finished": bool(session.get("finished")),
    }


# --------------------------------------------------------------------------- statistics
@dataclass
class Stats:
    """A player's or a bot's record over finished games."""

    games: int = 0
    wins: int = 0
    points: int = 0
    cong: int = 0
    cuts_made: int = 0
    cuts_suffered: int = 0
    timeline: list[tuple[Game, int, int]] = field(default_factory=list)  # game, score, total

    @property
    def average(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0


def seat_summary(result: Mapping[str, Any], seat: int) -> JSON:
    """One seat's numbers in a finished game's result: points, win, cóng, cuts made/suffered.

    >>> seat_summary({"winner": 1, "scores": [-5, 5], "cong": [0], "transfers": [
    ...     {"from": 0, "to": 1, "points": 3, "reason": "chat"}]}, 1)
    {'points': 5, 'won': True, 'cong': False, 'cuts_made': 1, 'cuts_suffered': 0}
    """
    scores = result.get("scores") or []
    transfers = [t for t in result.get("transfers") or [] if isinstance(t, Mapping)]
    return {
        "points": int(scores[seat]) if seat < len(scores) else 0,
        "won": result.get("winner") == seat,
        "cong": seat in (result.get("cong") or []),
        "cuts_made": sum(1 for t in transfers if t.get("reason") == "chat" and t.get("to") == seat),
        "cuts_suffered": sum(
            1 for t in transfers if t.get("reason") == "chat" and t.get("from") == seat
        ),
    }


#: Seat predicates of the statistics: which seats of ``Game.players`` are the subject's.
_SEAT_MATCH = {
    # a person's games in absence (the house played them after an abandonment) do not count
    "user": "p.elem->>'kind' = 'human' AND p.elem->'user_id' = %s::jsonb"
    " AND coalesce(p.elem->>'absent', '') <> 'absent'",
    "bot": "p.elem->'bot_id' = %s::jsonb",
}

# Every (game, seat) of the subject in the finished games of a queryset, with the seat's numbers
# (:func:`seat_summary` in SQL), then the running total in game order and the whole-set totals;
# only every k-th row (and the last) is returned for the chart, k = ceil(rows / CHART_POINTS).
_STATS_SQL = """
WITH seats AS (
  SELECT g.id AS game_id, g.ended_at, g.result,
         CASE WHEN jsonb_typeof(p.elem->'seat') = 'number'
              THEN (p.elem->>'seat')::int ELSE (p.ord - 1)::int END AS seat
  FROM games_game g
  CROSS JOIN LATERAL jsonb_array_elements(
    CASE WHEN jsonb_typeof(g.players) = 'array' THEN g.players ELSE '[]'::jsonb END
  ) WITH ORDINALITY AS p(elem, ord)
  WHERE g.id IN ({games}) AND jsonb_typeof(g.result) = 'object'
    AND jsonb_typeof(p.elem) = 'object' AND {match}
),
per AS (
  SELECT game_id, ended_at, seat,
    CASE WHEN jsonb_typeof(result->'scores'->seat) = 'number'
         THEN (result->'scores'->>seat)::numeric ELSE 0 END AS points,
    CASE WHEN result->'winner' = to_jsonb(seat) THEN 1 ELSE 0 END AS won,
    CASE WHEN jsonb_typeof(result->'cong') = 'array' AND result->'cong' @> to_jsonb(seat)
         THEN 1 ELSE 0 END AS cong,
    (SELECT count(*) FROM jsonb_array_elements(
       CASE WHEN jsonb_typeof(result->'transfers') = 'array'
            THEN result->'transfers' ELSE '[]'::jsonb END) t
     WHERE jsonb_typeof(t) = 'object' AND t->>'reason' = 'chat'
       AND t->'to' = to_jsonb(seat)) AS cuts_made,
    (SELECT count(*) FROM jsonb_array_elements(
       CASE WHEN jsonb_typeof(result->'transfers') = 'array'
            THEN result->'transfers' ELSE '[]'::jsonb END) t
     WHERE jsonb_typeof(t) = 'object' AND t->>'reason' = 'chat'
       AND t->'from' = to_jsonb(seat)) AS cuts_suffered
  FROM seats
),
ordered AS (
  SELECT game_id, points,
    sum(points) OVER w AS total,
    row_number() OVER w AS rn,
    count(*) OVER () AS n,
    sum(won) OVER () AS wins,
    sum(points) OVER () AS all_points,
    sum(cong) OVER () AS all_cong,
    sum(cuts_made) OVER () AS all_made,
    sum(cuts_suffered) OVER () AS all_suffered
  FROM per
  WINDOW w AS (ORDER BY ended_at ASC NULLS FIRST, game_id, seat
               ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
SELECT game_id, points, total, n, wins, all_points, all_cong, all_made, all_suffered
FROM ordered
WHERE rn = n OR mod(rn, greatest(1, ceil(n / %s::numeric))::bigint) = 0
ORDER BY rn
"""


def _stats_sql(qs: QuerySet[Game], kind: str, subject: int) -> Stats:
    """Exact totals over every finished game of ``qs`` by database aggregates (PostgreSQL),
    and at most :data:`CHART_POINTS` points of the running total for the chart."""
    games_sql, games_params = qs.values("pk").query.sql_with_params()
    sql = _STATS_SQL.format(games=games_sql, match=_SEAT_MATCH[kind])
    with connection.cursor() as cursor:
        cursor.execute(sql, [*games_params, json.dumps(subject), CHART_POINTS])
        rows = cursor.fetchall()
    stats = Stats()
    if not rows:
        return stats
    _, _, _, n, wins, points, cong, made, suffered = rows[-1]
    stats.games, stats.wins, stats.points = int(n), int(wins), int(points)
    stats.cong, stats.cuts_made, stats.cuts_suffered = int(cong), int(made), int(suffered)
    games = Game.objects.select_related("table").in_bulk([r[0] for r in rows])
    stats.timeline = [(games[r[0]], int(r[1]), int(r[2])) for r in rows if r[0] in games]
    return stats


def _finished(q: Q, *, public_only: bool) -> QuerySet[Game]:
    qs = Game.objects.filter(q, status=Game.Status.FINISHED)
    if public_only:
        qs = qs.filter(table__visibility=Table.Visibility.PUBLIC)
    return qs


def player_stats(*, user: User, game: str = "", public_only: bool = True) -> Stats:
    """``user``'s finished games as a person (public tables only unless ``public_only`` is
    False: their own page). Totals cover every game; the chart at most :data:`CHART_POINTS`."""
    q = _contains("user_id", user.pk) & (Q(engine=game) if game else Q())
    return _stats_sql(_finished(q, public_only=public_only), "user", user.pk)


def bot_stats(*, bot_id: int, user: User | None, game: str = "") -> Stats:
    """A bot's games (public tables; every table for its owner), each seat it held counted.
    Totals cover every game; the chart at most :data:`CHART_POINTS`."""
    owner = user is not None and user.is_authenticated and _bot_owner_id(bot_id) == user.pk
    q = _contains("bot_id", bot_id) & (Q(engine=game) if game else Q())
    return _stats_sql(_finished(q, public_only=not owner), "bot", bot_id)


def points_chart(stats: Stats) -> Any:
    """The cumulative points after each game as a server-side SVG line chart geometry."""
    from bots.charts import line_chart  # the shared pure chart helper

    values = [0] + [total for _, _, total in stats.timeline]
    labels = ["start"] + [
        f"{g.table.name} #{g.number}: {score:+d} → {total}" for g, score, total in stats.timeline
    ]
    return line_chart(values, labels)


# --------------------------------------------------------------------------- archiving
def _summary(
    game: Game, engine: EngineGame, record: Record, state: Any, result: Mapping[str, Any]
) -> JSON:
    players = players_of(game)
    n = len(players) or _seat_count(record.config, [])
    seats = [seat_summary(result, s) for s in range(n)]
    reasons: dict[str, int] = {}
    for t in result.get("transfers") or []:
        reason = str(t.get("reason"))
        reasons[reason] = reasons.get(reason, 0) + int(t.get("points", 0))
    return {
        "players": public_players(players),
        "winner": result.get("winner"),
        "ranking": list(result.get("ranking") or []),
        "scores": list(result.get("scores") or []),
        "rounds": _round(engine, state) + 1,
        "actions": len(record.actions),
        "cong": [s for s in range(n) if seats[s]["cong"]],
        "cuts_made": [s["cuts_made"] for s in seats],
        "cuts_suffered": [s["cuts_suffered"] for s in seats],
        "points_by_reason": reasons,
        "disqualified": disqualified_steps(game, record, n),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
    }


def archive_log(game: Game) -> JSON:
    """The archive of a finished game: the engine record, each action's actor, the owner-only
    bot records (by seq), the result and a summary. Raises when the replay does not reproduce
    the stored result (the archive must replay identically)."""
    engine = engine_of(game.engine, game.rules_version)
    record = game_record(game)
    state = engine.replay(record.config, record.seed, record.actions)
    result = engine.result(state)
    if result is None:
        raise HistoryError("incomplete", f"game {game.pk}: the actions do not end the game")
    if isinstance(game.result, dict) and _jsonish(game.result) != _jsonish(result):
        raise HistoryError("result_mismatch", f"game {game.pk}: the replay differs")
    return {
        "format": ARCHIVE_FORMAT,
        "game": game.engine,
        "rules_version": game.rules_version,
        "config": record.config,
        "seed": record.seed,
        "actions": [_clean_action(a) for a in record.actions],
        "actors": record.actors,
        "bot_records": {str(k): v for k, v in sorted(record.bot_records.items())},
        "result": _jsonish(result),
        "summary": _summary(game, engine, record, state, result),
    }


@transaction.atomic
def game_archive(*, game_id: int) -> bool:
    """Write the archive of finished game ``game_id`` into ``game_log`` and set
    ``archived_at``. Idempotent: returns False, changing nothing, when the game is not finished,
    its archive is already up to date, or it does not replay to its stored result (logged)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return False
    try:
        log = archive_log(game)
    except ValueError as exc:  # a game that does not replay: keep it as it is, say so
        logger.error("game not archived", extra={"game": game_id, "error": str(exc)})
        return False
    if game.archived_at is not None and _jsonish(game.game_log) == _jsonish(log):
        return False
    game.game_log = log
    game.archived_at = timezone.now()
    game.save(update_fields=["game_log", "archived_at"])
    return True


def games_to_archive() -> QuerySet[Game]:
    """Ids of every finished game, oldest first (what ``games_archive`` walks)."""
    return Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")


@transaction.atomic
def actions_prune(*, days: int | None = None, now: datetime | None = None) -> int:
    """Delete the ``Action`` rows of archived games that ended more than ``days`` (default the
    retention setting) ago; return how many rows went. Only games whose archive holds all
    their actions are pruned."""
    cutoff = (now or timezone.now()) - timedelta(days=retention_days() if days is None else days)
    candidates = Game.objects.filter(
        status=Game.Status.FINISHED, archived_at__isnull=False, ended_at__lt=cutoff
    ).values_list("pk", "version", "game_log")
    ids = [
        pk
        for pk, version, log in candidates
        if isinstance(log, dict) and _is_archive(log) and len(log.get("actions") or []) == version
    ]
    if not ids:
        return 0
    deleted, _ = Action.objects.filter(game_id__in=ids).delete()
    return int(deleted)
