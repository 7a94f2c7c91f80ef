"""Real-time plumbing of live tables: group names, frame builders, broadcasts and the scheduler.

Services call :func:`broadcast` and :func:`schedule` from ``transaction.on_commit`` callbacks;
consumers use the group names. Nothing here touches the rules (that is the engine) or owns a
transaction (that is the services). See docs/protocol.md for the frames.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext, gettext_noop, ngettext

from games.engine.core.protocol import Game as EngineGame
from games.engine.registry import GAMES
from games.engine.tienlen import ai as tienlen_ai

if TYPE_CHECKING:
    from games.models import ChatMessage, Seat, Table
    from games.models import Game as GameRow

logger = logging.getLogger(__name__)

Frame = dict[str, Any]
LOBBY_GROUP = "lobby"


# --------------------------------------------------------------------------- group names
def table_group(table_id: int) -> str:
    """Everyone at a table: players and spectators (lobby state, public chat, results)."""
    return f"table-{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    """The sockets of the player sitting at ``seat``: the only place that seat's cards go."""
    return f"table-{table_id}-seat-{seat}"


def spectators_group(table_id: int) -> str:
    """Spectators: the spectator view and the spectators' chat room."""
    return f"table-{table_id}-spectators"


def user_group(table_id: int, user_id: int) -> str:
    """Every socket of one user at one table (to re-bind them after a seat change)."""
    return f"table-{table_id}-user-{user_id}"


# --------------------------------------------------------------------------- frame builders
def ts(value: Any) -> float | None:
    """A datetime as unix seconds (None stays None)."""
    return None if value is None else float(value.timestamp())


#: The house AIs' names, one per seat, so that three of them at a practice table can be told
#: apart in the log and the results.
HOUSE_NAMES = ("Mai", "Tùng", "Hòa", "Vy", "Khoa", "Ngọc", "Phúc")


def house_name(index: int, level: str | None) -> str:
    """The name a house AI plays under at seat ``index``.

    >>> house_name(1, "hard")
    'AI Tùng (hard)'
    """
    return f"AI {HOUSE_NAMES[index % len(HOUSE_NAMES)]} ({level})"


def seat_json(seat: Seat, host_id: int) -> Frame:
    """One seat as the protocol's ``seat`` object (the user and bot version are preloaded)."""
    bot = None
    if seat.bot_version_id is not None and seat.bot_version is not None:
        bot = {"name": seat.bot_version.bot.name, "version": seat.bot_version.number}
    name: str | None = None
    if seat.user is not None and seat.kind == "human":
        name = seat.user.public_name
    elif bot is not None:
        name = f"{bot['name']} v{bot['version']}"
    elif seat.kind == "house":
        name = house_name(seat.index, seat.house_level)
    return {
        "index": seat.index,
        "kind": seat.kind,
        "name": name,
        "user_id": seat.user_id if seat.kind == "human" else None,
        "bot": bot,
        "house_level": seat.house_level,
        "ready": seat.ready,
        "connected": seat.kind != "human" or seat.connections > 0,
        "auto": seat.auto or seat.disqualified,
        "strikes": seat.strikes,
        "disqualified": seat.disqualified,
        "is_host": seat.kind == "human" and seat.user_id == host_id,
    }


def player_snapshot(seat: Seat) -> Frame:
    """Who sat at ``seat`` when a game was dealt, as stored in ``Game.players`` (history uses it
    after the seat has changed hands)."""
    version = seat.bot_version if seat.bot_version_id is not None else None
    return {
        "seat": seat.index,
        "name": seat_json(seat, 0)["name"],
        "kind": seat.kind,
        "user_id": seat.user_id if seat.kind == "human" else None,
        "bot_id": version.bot_id if version is not None else None,
        "bot_version_id": seat.bot_version_id,
        "bot_version": version.number if version is not None else None,
        "bot_owner_id": version.bot.owner_id if version is not None else None,
        "house_level": seat.house_level,
        "disqualified": seat.disqualified,
    }


def table_json(table: Table, seats: Sequence[Seat], current_game: int | None) -> Frame:
    """The protocol's ``table`` object."""
    host_seat = next(
        (s.index for s in seats if s.kind == "human" and s.user_id == table.owner_id), None
    )
    return {
        "code": table.code,
        "name": table.name,
        "game": table.game,
        "status": table.status,
        "visibility": table.visibility,
        "mode": table.mode,
        "host_seat": host_seat,
        "version": table.version,
        "options": dict(table.options),
        "starts_at": ts(table.starts_at),
        "current_game": current_game,
        "next_game_at": ts(table.next_game_at),
    }


def table_updated_frame(table: Table, seats: Sequence[Seat], current_game: int | None) -> Frame:
    return {
        "type": "table_updated",
        "table": table_json(table, seats, current_game),
        "seats": [seat_json(s, table.owner_id) for s in seats],
    }


# --------------------------------------------------------------------------- system chat lines
#: The table layer's own system chat lines: stable code → English template with ``{name}``
#: placeholders (params). A template pair is (singular, plural), chosen by ``params["n"]``.
#: Browsers render ``sys_<code>`` of their i18n dictionary (templates/games/_table_i18n.html,
#: templates/_lobby_i18n.html) with the same placeholders; ``text`` keeps this English form.
SYSTEM_MESSAGES: dict[str, str | tuple[str, str]] = {
    # table room
    "seat_joined": gettext_noop("{name} joined seat {seat}."),
    "seat_left": gettext_noop("{name} left."),
    "seat_left_auto": gettext_noop("{name} left; the house plays seat {seat}."),
    "seat_away": gettext_noop("{name} is away; the house plays seat {seat}."),
    "seat_filled": gettext_noop("{name} sits at seat {seat}."),
    "seat_removed": gettext_noop("{name} was removed from seat {seat}."),
    "seat_opened": gettext_noop("{name} left the table; seat {seat} is open."),
    "host_changed": gettext_noop("{name} is the host now."),
    "session_ended_host": gettext_noop("The host ended the session."),
    "session_ended_abandoned": gettext_noop("Every player left: the session is over."),
    "bot_disqualified": gettext_noop(
        "The bot at seat {seat} is disqualified after {strikes} strikes (last: {reason}); "
        "the house plays it."
    ),
    "game_dealt": gettext_noop("Game {game} of {games} is dealt."),
    "game_won": gettext_noop("{name} won game {game}."),
    "game_won_instant": gettext_noop("{name} won game {game} by an instant win ({instant})."),
    "game_won_hand": gettext_noop("{name} won game {game} with {hand}."),
    "session_over": gettext_noop("Session over: {name} wins with {points}."),
    "cut": (
        gettext_noop("{name} cut {victim} ({n} point)."),
        gettext_noop("{name} cut {victim} ({n} points)."),
    ),
    "round_won": gettext_noop("{name} won round {round}."),
    # lobby room
    "lobby_table_opened": gettext_noop("{name} opened a public table {table} ({game})."),
    "lobby_session_won": gettext_noop("{name} won the session at {table}."),
}

#: Every system code the server can emit: the table layer's own and each game's
#: (``GAME.system_codes``, lines made by ``GAME.system_line``). Every one needs a ``sys_<code>``
#: entry in the browsers' i18n dictionaries.
SYSTEM_CODES: frozenset[str] = frozenset(SYSTEM_MESSAGES) | frozenset(
    code for game in GAMES.values() for code in getattr(game, "system_codes", ())
)


def system_text(code: str, params: Mapping[str, Any], *, translate: bool = False) -> str:
    """The line for a table-layer system ``code``: English (stored as ``text``), or in the
    active language with ``translate``.

    >>> system_text("seat_joined", {"name": "Lan", "seat": 2})
    'Lan joined seat 2.'
    >>> system_text("cut", {"name": "Lan", "victim": "Bo", "n": 1})
    'Lan cut Bo (1 point).'
    """
    template = SYSTEM_MESSAGES[code]
    if isinstance(template, tuple):
        n = int(params.get("n", 0))
        if translate:
            text = ngettext(template[0], template[1], n)
        else:
            text = template[0] if n == 1 else template[1]
    else:
        text = gettext(template) if translate else template
    return text.format_map({k: "" if v is None else v for k, v in params.items()})


def message_json(message: ChatMessage, author_name: str | None) -> Frame:
    return {
        "id": message.pk,
        "room": message.room,
        "author": author_name,
        "system": message.is_system,
        "text": message.text,
        "code": message.code,  # system lines: render sys_<code> with params (else: text)
        "params": message.params,
        "at": ts(message.created_at),
    }


def message_frame(message: ChatMessage, author_name: str | None) -> Frame:
    return {"type": "message_received", **message_json(message, author_name)}


def error_frame(code: str, detail: str = "", **extra: Any) -> Frame:
    return {"type": "error", "code": code, "detail": detail, **extra}


def bot_record_frame(
    *, game: int, seq: int, seat: int | None, bot_version_id: int | None, record: Mapping[str, Any]
) -> Frame:
    """The owner-only ``bot_record`` frame of one bot move (docs/protocol.md "Bot move
    records"): sent live to the owner's per-user group, and again on connect."""
    return {
        "type": "bot_record",
        "game": game,
        "seq": seq,
        "seat": seat,
        "bot_version_id": bot_version_id,
        "record": dict(record),
    }


# --------------------------------------------------------------------------- game frames
#: Combination labels of each engine's plays (the generic protocol has none).
COMBO_NAME: dict[str, Callable[[Sequence[str]], str]] = {"tienlen": tienlen_ai.combo_name}


def your_turn_frame(engine: EngineGame, game: GameRow, state: Any, seat: int) -> Frame:
    """The ``your_turn`` frame of ``seat`` (its legal plays come from the engine).

    A game whose module object has ``turn_payload(state, seat)`` (stud) sends that payload
    as the frame's body: ``{"type", "game", "version", "seat", "deadline", "turn_seconds",
    **payload}``. Tiến Lên keeps the frame below."""
    hook = getattr(engine, "turn_payload", None)
    if hook is not None:
        status = engine.round_status(state)
        payload = hook(state, seat) or {}
        frame: Frame = {
            "type": "your_turn",
            "game": game.number,
            "version": game.version,
            "seat": seat,
            "deadline": status.check_at,
            "turn_seconds": payload.get("time_limit"),
        }
        frame.update((k, v) for k, v in payload.items() if k not in frame)
        return frame
    view = engine.view(state, seat)
    label = COMBO_NAME.get(engine.name)
    legal = []
    for action in engine.legal_actions(state, seat):
        if action.get("type") == "play":
            cards = list(action["cards"])
            legal.append({"cards": cards, "combo": label(cards) if label else None})
    return {
        "type": "your_turn",
        "game": game.number,
        "version": game.version,
        "seat": seat,
        "deadline": view.get("deadline"),
        "turn_seconds": view.get("options", {}).get("turn_seconds"),
        "can_pass": bool(view.get("can_pass")),
        "leading": view.get("top") is None,
        "round": view.get("round"),
        "top": view.get("top"),
        "required_card": view.get("required_card"),
        "legal": legal,
    }


def session_json(session: Mapping[str, Any], engine: EngineGame) -> Frame:
    """The protocol's ``session`` object: the engine summary plus cumulative totals per game."""
    ops: Any = engine
    summary = dict(ops.session_summary(session))
    running = [0] * len(summary["totals"])
    cumulative = []
    for scores in summary["breakdown"]:
        running = [a + b for a, b in zip(running, scores, strict=True)]
        cumulative.append(list(running))
    summary["cumulative"] = cumulative
    return summary


# --------------------------------------------------------------------------- broadcasting
#: The ``audience`` of an entry in a ``table.frames`` message: everyone at the table, the
#: spectators, or one seat (an ``int``).
EVERYONE = "table"
SPECTATORS = "spectators"
Audience = str | int

_TABLE_GROUP = re.compile(r"^table-(\d+)(?:-seat-(\d+)|-(spectators))?$")


def table_audience(group: str) -> tuple[int, Audience] | None:
    """``(table id, audience)`` of a table, seat or spectators group; None for other groups.

    >>> table_audience(seat_group(7, 2)), table_audience(spectators_group(7))
    ((7, 2), (7, 'spectators'))
    >>> table_audience(table_group(7)), table_audience(user_group(7, 3))
    ((7, 'table'), None)
    """
    match = _TABLE_GROUP.match(group)
    if match is None:
        return None
    table_id, seat, spectators = match.groups()
    if seat is not None:
        return int(table_id), int(seat)
    return int(table_id), SPECTATORS if spectators else EVERYONE


def frame_text(frame: Frame) -> str:
    """A frame as the compact JSON text that goes on the socket (serialised once per move)."""
    return json.dumps(frame, separators=(",", ":"))


def audience_frames(frames: Iterable[Sequence[Any]], *, seat: int | None) -> list[str]:
    """The texts of a ``table.frames`` message that a socket at ``seat`` (None: a spectator)
    may receive, in order: everyone's frames plus its own seat's (or the spectators').

    A seat never receives another seat's entries: this is the only place the per-seat
    filtering of the single-message fan-out happens (docs/protocol.md).

    >>> msg = [("table", "t"), (0, "s0"), (1, "s1"), ("spectators", "sp")]
    >>> audience_frames(msg, seat=1), audience_frames(msg, seat=None)
    (['t', 's1'], ['t', 'sp'])
    """
    out = []
    for audience, text in frames:
        if audience == EVERYONE:
            out.append(text)
        elif seat is None:
            if audience == SPECTATORS:
                out.append(text)
        elif type(audience) is int and audience == seat:
            out.append(text)
    return out


def broadcast(messages: Iterable[tuple[str, Frame]]) -> None:
    """Send each ``(group, frame)``, in order, in as few channel-layer messages as possible.

    Every frame for a table (its table, seat and spectators groups) travels in **one**
    ``table.frames`` message to the table group: an ordered list of ``[audience, json text]``
    from which each socket keeps only what :func:`audience_frames` allows it. Each frame is
    serialised once. Frames for other groups (the lobby) go as ``table.frame`` messages.

    Call it from ``transaction.on_commit``: a frame never announces what was rolled back.
    Inside :func:`outbox` (a consumer's database call) the messages are collected for the
    caller to send from its event loop; elsewhere (tasks, views) they are sent at once.
    """
    sends: list[Send] = []
    tables: dict[int, list[list[Any]]] = {}  # the "frames" list of each table's message
    for group, frame in messages:
        target = table_audience(group)
        if target is None:
            sends.append((group, {"type": "table.frame", "frame": frame}))
            continue
        table_id, audience = target
        if table_id not in tables:
            tables[table_id] = []
            sends.append(
                (table_group(table_id), {"type": "table.frames", "frames": tables[table_id]})
            )
        tables[table_id].append([audience, frame_text(frame)])
    _send(sends, "broadcast failed")


def rebind(groups: Iterable[str]) -> None:
    """Ask every socket in ``groups`` to reload its seat (after a join, leave or kick)."""
    _send([(group, {"type": "table.rebind"}) for group in groups], "rebind failed")


#: One channel-layer ``group_send``: (group, message).
Send = tuple[str, dict[str, Any]]
_local = threading.local()


@contextlib.contextmanager
def outbox() -> Iterator[list[Send]]:
    """Collect the channel-layer sends of :func:`broadcast` and :func:`rebind` made in this
    thread (a consumer's ``database_sync_to_async`` call) instead of sending them; the
    consumer sends them with :func:`send_async` on its event loop once the call returns.

    This spares each move a hop back from the worker thread to the event loop
    (``async_to_sync``) while the thread, and its database connection, wait; the sends still
    happen after the commit and before the consumer handles its socket's next frame."""
    previous = getattr(_local, "outbox", None)
    box: list[Send] = []
    _local.outbox = box
    try:
        yield box
    finally:
        _local.outbox = previous


def _send(sends: list[Send], failure: str) -> None:
    if not sends:
        return
    box: list[Send] | None = getattr(_local, "outbox", None)
    if box is not None:
        box.extend(sends)
        return
    send_now(sends, failure)


def send_now(sends: list[Send], failure: str = "broadcast failed") -> None:
    """Send from synchronous code (a task, a view, a worker thread)."""
    try:
        async_to_sync(send_async)(sends, failure)
    except Exception:  # a broadcast failure must never undo a committed move
        logger.exception(failure)


async def send_async(sends: list[Send], failure: str = "broadcast failed") -> None:
    """Send collected messages from the event loop (see :func:`outbox`)."""
    layer = get_channel_layer()
    if layer is None or not sends:  # pragma: no cover - channels is always configured here
        return
    try:
        for group, message in sends:
            await layer.group_send(group, message)
    except Exception:  # a broadcast failure must never undo a committed move
        logger.exception(failure)


# --------------------------------------------------------------------------- scheduling
class Scheduler(Protocol):
    """Runs a Celery task (by name) after ``delay`` seconds on ``queue``."""

    def schedule(self, name: str, args: list[Any], *, delay: float, queue: str) -> None: ...


def celery_task(name: str) -> Any:
    """The registered Celery task called ``name`` (its module is imported if need be)."""
    from celery import current_app

    if name not in current_app.tasks:  # autodiscovery is lazy; load the task module itself
        import_module(name.rsplit(".", 1)[0] + ".tasks")
    return current_app.tasks[name]


class CeleryScheduler:
    """The scheduler of every run mode: ``apply_async(countdown=...)`` on the task's queue, for
    a worker to run. Every timer task names its game (or table) and the version it was
    scheduled for, so a late, early or duplicate delivery changes nothing (games/tasks.py);
    beat's ``games.timers_heal`` re-arms what a dead process lost (docs/architecture.md)."""

    def schedule(self, name: str, args: list[Any], *, delay: float, queue: str) -> None:
        try:
            celery_task(name).apply_async(args=args, countdown=max(0.0, delay), queue=queue)
        except Exception:  # called after a commit: a broker failure must not undo the move
            logger.exception("scheduling failed", extra={"task": name})


_CELERY = CeleryScheduler()


def get_scheduler() -> Scheduler:
    """:class:`CeleryScheduler`, unless the ``GAMES_SCHEDULER`` setting names another
    scheduler (a dotted path to a scheduler object, or to a class to instantiate).

    That setting is the tests' seam and nothing else: config/settings/test.py points it at
    ``tests.scheduler.SCHEDULER``, which runs the real tasks in the test's thread when an
    injected clock (:mod:`games.clock`) says they are due. No run mode sets it."""
    path = getattr(settings, "GAMES_SCHEDULER", None)
    if not path:
        return _CELERY
    target = import_string(path)
    scheduler: Scheduler = target() if isinstance(target, type) else target
    return scheduler


def bot_queue(game_id: int) -> str:
    """The Celery queue of every bot and house-AI turn of game ``game_id`` (and of closing its
    sandboxes): shard ``bots.<game_id mod BOTS_QUEUE_SHARDS>``. Each shard is consumed by one
    worker process, so a game's bots keep their sandboxes (and globals) for the whole game.

    >>> bot_queue(7)  # BOTS_QUEUE_SHARDS = 1
    'bots.0'
    """
    shards = max(1, int(getattr(settings, "BOTS_QUEUE_SHARDS", 1)))
    return f"bots.{game_id % shards}"


def schedule(name: str, args: list[Any], *, delay: float, queue: str = "default") -> None:
    """Run task ``name`` with ``args`` in ``delay`` seconds (at once when ``delay <= 0``)."""
    get_scheduler().schedule(name, args, delay=delay, queue=queue)
