"""The unit of work of a table operation: the locked table (:class:`TableCtx`), what to send and
schedule once the transaction commits (:class:`Work`), the rejection every service raises
(:class:`TableError`), task names, delays and the lobby's guards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction

from games import clock, extensions, realtime
from games.engine.core.protocol import Game as EngineGame
from games.engine.registry import find_game
from games.models import Action, ChatMessage, Game, Seat, Table

if TYPE_CHECKING:
    from accounts.models import User

Frame = dict[str, Any]
MAX_CHAT_LENGTH = 500

# Task names (the scheduler sends them by name: services never import the tasks module).
TASK_TURN_TIMEOUT = "games.turn_timeout"
TASK_SEAT_AUTOPLAY = "games.seat_autoplay"
TASK_SEAT_HOLD = "games.seat_hold_expired"
TASK_TABLE_BEGIN = "games.table_begin"
TASK_NEXT_GAME = "games.next_game"
TASK_REMATCH_DEADLINE = "games.rematch_deadline"
TASK_GAME_ARCHIVE = "games.game_archive"  # games.history.TASK_ARCHIVE


class TableError(ValueError):
    """A rejected table operation with a stable ``code`` (see docs/protocol.md)."""

    def __init__(self, code: str, detail: str = "", **extra: Any) -> None:
        self.code = code
        self.detail = detail
        self.extra = extra
        super().__init__(f"{code}: {detail}" if detail else code)


def number_setting(name: str) -> float:
    """A number setting, read on each call (tests change them); declared in config/settings."""
    return float(getattr(settings, name))


def bot_delay() -> float:
    return number_setting("GAMES_BOT_DELAY_SECONDS")


def autoplay_slice_seconds() -> float:
    """How long one task may go on playing server seats' turns back to back
    (``GAMES_AUTOPLAY_SLICE_SECONDS``, 1 s): other games on the same queue wait at most
    about that long (:func:`games.services.autoplay.game_autoplay_turns`)."""
    return number_setting("GAMES_AUTOPLAY_SLICE_SECONDS")


def countdown_seconds() -> float:
    return number_setting("GAMES_COUNTDOWN_SECONDS")


def next_game_seconds() -> float:
    return number_setting("GAMES_NEXT_GAME_SECONDS")


def hold_seconds() -> float:
    return number_setting("GAMES_DISCONNECT_HOLD_SECONDS")


# --------------------------------------------------------------------------- unit of work
@dataclass
class HeldMoves:
    """What moves played in memory wrote instead of the database (a run of server turns,
    :mod:`games.services.runs`): their action rows, and the system lines they posted with
    their frames (whose ``id`` and ``at`` the run's store fills in, before they are sent)."""

    rows: list[Action] = field(default_factory=list)
    messages: list[tuple[ChatMessage, dict[str, Any]]] = field(default_factory=list)


class NeedsStore(Exception):
    """A held move (:attr:`Work.held`) reached something that needs the database (the end of
    the game, a strike, a seat or table saved, a deal's secrecy not known yet): the run of
    server turns stores its moves and plays this one under the table lock
    (:meth:`games.services.runs.Run.play`). Raised by :meth:`Work.needs_database` before
    anything is written."""


@dataclass
class Work:
    """A table operation's unit of work, passed along the move path: the move is **computed**
    (the engine, pure), **stored** (in the caller's transaction, under the table lock, or held
    for a run's store: ``held``), then **announced** (:meth:`commit`: its frames and timers go
    out once the transaction commits). Every choice is a field the caller sets, nothing is a
    mode switched on a thread:

    ``held``: the move is played in memory, not stored: its action row and system lines go
    there instead of the database (the caller, a run of server turns, stores them later), and
    anything else that needs the database raises :class:`NeedsStore`; None, the default:
    they are written at once, in the caller's transaction.

    ``sink``: where the frames go once committed (``games.realtime.Sink``): None, the
    default, sends them at once and waits (:func:`games.realtime.send_now`); a consumer's
    call passes an ``Outbox`` to send from its event loop; a run of server turns passes
    ``send_soon`` so a move's frames leave while the next move is chosen.

    ``handover``: the timers that are the caller's own to run next (``games.realtime.
    Handover``: a run of server turns plays the next turn itself instead of queueing it).

    A timer's delay counts from when it was asked for (:meth:`timer`, ``timed_at``), or from
    when the move that asked for it was made (``games.services.play.apply_action``), not from
    when it is sent after the commit: a paced bot turn comes ``GAMES_BOT_DELAY_SECONDS`` after
    the move before it was made, the move's frames, storing and commit included."""

    frames: list[tuple[str, Frame]] = field(default_factory=list)
    rebinds: list[str] = field(default_factory=list)
    timers: list[tuple[str, list[Any], float, str]] = field(default_factory=list)
    held: HeldMoves | None = None
    sink: realtime.Sink | None = None
    handover: realtime.Handover | None = None
    timed_at: float | None = None
    """When the timers' delays began (:func:`games.clock.now`): the first timer asked for, or
    the move that asked for them was made."""

    def fresh(self, *, held: HeldMoves | None = None) -> Work:
        """An empty unit of work with this one's choices (sink, handover) and ``held``."""
        return Work(held=held, sink=self.sink, handover=self.handover)

    def send(self, group: str, frame: Frame) -> None:
        self.frames.append((group, frame))

    def timer(self, name: str, args: list[Any], delay: float, queue: str = "default") -> None:
        if self.timed_at is None:
            self.timed_at = clock.now()
        self.timers.append((name, args, delay, queue))

    def needs_database(self, what: str) -> None:
        """Call before doing ``what`` with the database: a held move cannot
        (:class:`NeedsStore`); any other goes on."""
        if self.held is not None:
            raise NeedsStore(what)

    def commit(self) -> None:
        """Send and schedule what was collected once the caller's transaction commits."""
        done = Work(list(self.frames), list(self.rebinds), list(self.timers), None, self.sink)
        done.handover, done.timed_at = self.handover, self.timed_at
        transaction.on_commit(done.run)

    def run(self) -> None:
        """Send and schedule what was collected, now (its transaction has committed)."""
        realtime.broadcast(self.frames, self.sink)
        if self.rebinds:
            realtime.rebind(self.rebinds, self.sink)
        for name, args, delay, queue in self.timers:
            realtime.schedule(
                name, args, delay=delay, queue=queue, handover=self.handover, since=self.timed_at
            )


@dataclass
class TableCtx:
    """A locked table with its seats and latest game."""

    table: Table
    seats: list[Seat]
    game: Game | None

    @property
    def current_number(self) -> int | None:
        return self.game.number if self.game is not None else None

    def seat_of(self, user: User | None) -> Seat | None:
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats if s.kind == "human" and s.user_id == user.pk), None)


def engine_of(name: str) -> EngineGame:
    return find_game(name)


def user_name(user: User | None) -> str | None:
    return user.public_name if user is not None else None


def refresh_lobby_status(ctx: TableCtx) -> None:
    """Waiting ↔ Ready: ready once every seat is filled and every human is ready."""
    if ctx.table.status not in (Table.Status.WAITING, Table.Status.READY):
        return
    full = all(s.kind != Seat.Kind.EMPTY for s in ctx.seats)
    ready = all(s.ready for s in ctx.seats if s.kind == Seat.Kind.HUMAN)
    ctx.table.status = Table.Status.READY if full and ready else Table.Status.WAITING
    if ctx.table.status != Table.Status.READY:
        ctx.table.starts_at = None
        ctx.table.save(update_fields=["starts_at"])


def check_bot_seats(user: Any, version_ids: Sequence[int], *, table_id: int | None = None) -> None:
    """The bots app's guard (``games.extensions.bot_seat_guard``): may ``user`` seat these
    versions in one more game now? An external bot plays at most 4 games at once, other users
    hold at most 3 of them and seat it only while its program is connected (bots.seating);
    ``ValidationError`` (``bot_offline`` | ``bot_busy`` | ``bot_share_full``) otherwise. It
    locks the bots' rows: call it in the transaction that writes the seats."""
    if version_ids:
        extensions.bot_seat_guard(user=user, version_ids=version_ids, table_id=table_id)


def require_lobby(ctx: TableCtx) -> None:
    if ctx.table.status not in (Table.Status.WAITING, Table.Status.READY):
        raise TableError("bad_state", f"the table is {ctx.table.status}")
    if ctx.table.options.get("quickplay"):  # seated and started by the pairing pass
        raise TableError("bad_state", "a quick-play table has no lobby")


def require_host(ctx: TableCtx, user: User | None) -> None:
    if user is None or not user.is_authenticated:
        raise TableError("login_required", "log in first")
    if user.pk != ctx.table.owner_id:
        raise TableError("not_host", "only the host may do that")
