"""A run of server turns stored together (:class:`Run`).

When server seats (bots, house AIs, away seats) play back to back with no delay (an arena,
a duplicate match, a table whose people left), each move used to be its own transaction:
lock the table, read its seats and game, insert the move, save the game, commit: several
milliseconds of database round trips for a move whose bot answered in one. A run now plays its
moves in memory on the table as its last transaction left it, and stores them together, every
``GAMES_AUTOPLAY_STORE_SECONDS`` (20 ms) at most: one transaction that locks the table, checks
that nothing changed meanwhile, inserts the moves and saves the game. Their frames and timers go
out once that transaction commits, in order, as each move's did before.

The run does not wait for those transactions: they go to a thread of the run's own (on the
run's connection, which the run leaves alone meanwhile) while the next moves are chosen; the
run waits for the one in flight before it hands over the next, before a move that needs the
database, and at its end. A store that finds the table changed drops its moves and every move
played after them (none of their frames went out).

What stays as it was: every move is its own stored action (its own ``seq``; its ``at`` is when
it was made), no frame is sent before its move is stored (nobody ever sees a move that is later
lost), and the lock is never held while a bot thinks. A system line (a round's end) is held and
stored with the moves. A move that needs more than that (a strike, the end of the game) is
applied in the transaction that stores the moves before it, on the table as the run knows it.
If the table or its game changed while the run played (a seat changed hands, the owner stopped
the arena), the held moves are dropped (their frames were never sent) and the run starts again
from what is stored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.db import connection, transaction

from games.services.sql import (
    MAX_STORED_MOVES,
    HeldMoves,
    Stale,
    StoreJob,
    store_job,
    store_moves,
    store_moves_elsewhere,
)
from games.services.unit import TASK_SEAT_AUTOPLAY, NeedsStore, TableCtx, Work, number_setting


def store_seconds() -> float:
    """How long a run may hold moves before it stores them (``GAMES_AUTOPLAY_STORE_SECONDS``,
    0.02): the most a spectator's frames lag behind the moves; 0 stores every move alone."""
    return number_setting("GAMES_AUTOPLAY_STORE_SECONDS")


logger = logging.getLogger(__name__)


class Run:
    """The moves a run of server turns played in memory and has not stored yet.

    ``work``: the choices every unit of work of the run inherits (:meth:`Work.fresh`): where
    its frames go (``sink``) and which next turns the run plays itself (``handover``)."""

    def __init__(self, work: Work | None = None) -> None:
        self.work = work if work is not None else Work()
        """The run's choices, copied into each move's unit of work."""
        self.ctx: TableCtx | None = None
        """The table as the run's last stored move left it, plus the held moves."""
        self.since = 0
        """The game's version when the first held move was played (what is stored)."""
        self.dropped: int | None = None
        """After a store found the table changed: the stored version to start again from."""
        self._table_version = 0
        self._held = HeldMoves()
        self._works: list[Work] = []
        self._opened = 0.0
        self._pending: Future[bool] | None = None
        self._pending_since = 0
        self._thread: ThreadPoolExecutor | None = None

    @property
    def held(self) -> int:
        return len(self._held.rows)

    def due(self) -> bool:
        """Whether the held moves should be stored now (the window is over, or it is full)."""
        if not self._held.rows:
            return False
        full = len(self._held.rows) >= MAX_STORED_MOVES
        return full or time.monotonic() - self._opened >= store_seconds()

    def play(self, ctx: TableCtx, apply: Callable[[TableCtx, Work], Any]) -> bool:
        """Play a chosen move in memory: ``apply(ctx, work)`` applies it to ``ctx`` (the table
        as the run left it) and collects its frames and timers. True: held, to be stored with
        the run's other moves; the next turn, if it follows at once, is handed over now.
        False: the move needs the database (``ctx`` is as it was): store the run, then play it
        the usual way."""
        game = ctx.game
        assert game is not None
        if self._held.rows and ctx is not self.ctx:
            raise RuntimeError("a run holds the moves of one table")
        saved = (game.state, game.version, game.notified, game.status, ctx.table.version)
        move = HeldMoves()
        work = self.work.fresh(held=move)  # its action row and system lines go to ``move``
        try:
            apply(ctx, work)
        except NeedsStore:  # raised before anything was written: played the usual way
            game.state, game.version, game.notified, game.status, ctx.table.version = saved
            return False
        except BaseException:
            game.state, game.version, game.notified, game.status, ctx.table.version = saved
            raise
        if len(move.rows) != 1:  # a move stores one action: anything else is stored alone
            game.state, game.version, game.notified, game.status, ctx.table.version = saved
            return False
        if not self._held.rows:
            self.ctx, self.since, self._table_version = ctx, saved[1], int(saved[4])
            self._opened = time.monotonic()
        self._held.rows.extend(move.rows)
        self._held.messages.extend(move.messages)
        self._works.append(work)
        # the next turn, if it follows at once, is this run's to play: hand it over now (to
        # the run's ``handover``), not when the move is stored
        handover = self.work.handover
        following = [t for t in work.timers if t[0] == TASK_SEAT_AUTOPLAY and t[2] <= 0]
        if handover is not None:
            following = [t for t in following if t[0] == handover.name and t[3] == handover.queue]
            work.timers = [t for t in work.timers if t not in following]
            for _name, args, _delay, _queue in following:
                handover.runs.append(list(args))
        return True

    def store_later(self) -> None:
        """Hand the held moves to the run's store thread and play on (their frames go out once
        it has stored them). While the previous hand-off is still being stored, the moves stay
        held (until they fill a statement). With no store window, or in a transaction of the
        caller's (a test's): at once, as :meth:`store`."""
        if not self._held.rows:
            return
        if connection.in_atomic_block or store_seconds() <= 0:
            self.store()
            return
        busy = self._pending is not None and not self._pending.done()
        if busy and len(self._held.rows) < MAX_STORED_MOVES:
            return
        if not self._settle():
            return
        ctx = self.ctx
        assert ctx is not None
        assert ctx.game is not None
        job = store_job(
            table_id=ctx.table.pk,
            table_version=self._table_version,
            game=ctx.game,
            since=self.since,
            held=self._held,
        )
        works = self._works
        self._held, self._works = HeldMoves(), []
        connection.ensure_connection()
        raw = connection.connection
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="run-store")
        self._pending_since = self.since
        self._pending = self._thread.submit(_store_elsewhere, raw, job, works)

    def _settle(self) -> bool:
        """Wait for the hand-off in flight; False (everything played since is dropped) if it
        found the table changed or failed."""
        pending, self._pending = self._pending, None
        if pending is None:
            return True
        try:
            stored = pending.result()
        except Exception:
            logger.exception("storing a run's moves failed")
            stored = False
        if not stored:
            self._held, self._works = HeldMoves(), []
            self.dropped, self.ctx = self._pending_since, None
        return stored

    def close(self) -> None:
        """The run is over: its store thread goes (call after the last :meth:`store`)."""
        self._settle()
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None

    def store(
        self, then: Callable[[TableCtx, Work], Any] | None = None, *, ctx: TableCtx | None = None
    ) -> bool:
        """Store the held moves now, after the hand-off in flight; their frames and timers go
        out, in order, once stored.

        ``then`` (a move that needs the database: a strike, the end of the game) is applied in
        the same transaction, on the table as the run left it (``ctx``, when the run holds
        nothing), after the held moves: the table is not read again, the lock and the check
        are the run's. False when the table or game changed meanwhile: nothing is stored or
        applied, the held moves are dropped, :attr:`dropped` says where to start again and
        the table must be read afresh."""
        if not self._settle():
            return False
        if not self._held.rows and then is None:
            return True
        if self._held.rows:
            ctx = self.ctx
        elif ctx is not None:
            self.ctx = ctx
        assert ctx is not None
        assert ctx.game is not None
        held, works = self._held, self._works
        self._held, self._works = HeldMoves(), []
        if not held.rows:
            self.since, self._table_version = ctx.game.version, int(ctx.table.version)
        try:
            self._store(ctx, held, works, then)
        except Stale:
            self.dropped, self.ctx = self.since, None
            return False
        except BaseException:
            if then is not None and held.rows:  # the held moves did not fail: store them
                self._held, self._works = held, works
                self.store()
            raise
        return True

    def _store(
        self,
        ctx: TableCtx,
        held: HeldMoves,
        works: list[Work],
        then: Callable[[TableCtx, Work], Any] | None,
    ) -> None:
        assert ctx.game is not None
        with transaction.atomic():
            store_moves(
                table_id=ctx.table.pk,
                table_version=self._table_version,
                game=ctx.game,
                since=self.since,
                held=held,
            )
            for work in works:  # sent once the transaction commits, in order
                work.commit()
            if then is not None:
                work = self.work.fresh()
                then(ctx, work)
                work.commit()


def _store_elsewhere(raw: Any, job: StoreJob, works: list[Work]) -> bool:
    """The run's store thread: store ``job`` on the run's connection ``raw``; once stored,
    send the moves' frames and schedule their timers, in order."""
    if not store_moves_elsewhere(raw, job):
        return False
    for work in works:
        try:
            work.run()
        except Exception:  # the moves are stored: a frame that could not go out is logged
            logger.exception("sending a stored run's frames failed")
    return True
