"""Sandboxes started when a game is dealt, not at its bots' first turns.

A user bot's sandbox (a fresh V8 context in a warm pool child, docs/sandbox.md) is started the
first time the bot plays in a game; that took 10–25 ms, paid by the bot's first move, one move
in ten of a four-bot game. Now the deal sends :data:`PREPARE_TASK` to the game's shard queue
(:func:`games.services.bot_queue`), ahead of the first turn: the shard process (the one that
plays the game's turns, so the sandboxes are the ones the turns use) starts every user bot's
sandbox before the turns come, and with a bot delay (0.8 s at tables with people) long before.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import connection, transaction

from bots.models import Bot, BotVersion, move_timeout
from bots.runtime import ReplayHistory, registry
from bots.services import bot_seat_player, game_key
from bots.turns import stored_turns_of_seats
from games.models import Game, Seat
from games.realtime import schedule
from games.services import table_bot_queue

logger = logging.getLogger(__name__)

PREPARE_TASK = "bots.tasks.bot_prepare_game_task"


def bot_game_dealt(*, game: Any, table: Any, seats: Any) -> None:
    """Hook of the live tables (``games.extensions.on_game_dealt``, registered in
    ``BotsConfig.ready``), called inside the transaction that deals ``game``: once it
    commits, :data:`PREPARE_TASK` goes to the game's shard queue, before the first turn (the
    deal schedules that turn after this hook's own on-commit callback)."""
    if not any(s.kind == Seat.Kind.BOT and s.bot_version_id is not None for s in seats):
        return
    pk, queue = int(game.pk), table_bot_queue(table, game.pk)

    def send() -> None:
        try:
            schedule(PREPARE_TASK, [pk], delay=0, queue=queue)
        except Exception:  # an on-commit hook never fails the deal that committed
            logger.exception("preparing the bots of game %s failed", pk)

    transaction.on_commit(send)


def bot_prepare_game(*, game_id: int) -> int:
    """Start the sandboxes of ``game_id``'s user bots in this process, the game's shard worker
    (:meth:`bots.runtime.BotRegistry.prepare`: keyed as the turns key them); returns how many.
    Nothing for a game that is over, for external bots (a program plays them) or disqualified
    seats, nor when bot seats are not played in the sandbox (the tests' house player)."""
    from games import extensions

    if extensions.bot_player() is not bot_seat_player:
        return 0
    game = Game.objects.filter(pk=game_id, status=Game.Status.RUNNING).only("pk", "table").first()
    if game is None:
        return 0
    seats = list(
        Seat.objects.filter(
            table_id=game.table_id,
            kind=Seat.Kind.BOT,
            bot_version__isnull=False,
            disqualified=False,
        )
        .exclude(bot_version__bot__kind=Bot.Kind.EXTERNAL)
        .values_list("index", "bot_version_id")
    )
    key = game_key(game.pk)
    for index, version_id in seats:

        def load_code(version_id: int = version_id) -> str:
            return str(BotVersion.objects.values_list("code", flat=True).get(pk=version_id))

        registry.prepare((key, int(index), int(version_id)), load_code=load_code)
    return len(seats)


def bot_rebuild_queue(queue: str) -> int:
    """Rebuild, in this process, the sandboxes of the user bots of every running game whose
    turns go to ``queue`` (a shard this worker has just taken over, config/shards.py): each
    seat's sandbox starts and plays the bot's earlier turns of the game again in the
    background, the seats of all those games at once (:meth:`bots.runtime.BotRegistry.rebuild`),
    instead of one after another as their turns come (docs/bot-affinity.md "Rebuilt
    ahead"). Returns how many sandboxes were set off: no more than the registry has room for
    (``max_processes``: more would evict those rebuilt first). The turns still check the
    replay (``replay_diverged``); a seat whose turn comes first replays as before."""
    from games import extensions
    from games.models import Table

    if extensions.bot_player() is not bot_seat_player:
        return 0
    rows = list(
        Seat.objects.filter(
            kind=Seat.Kind.BOT,
            bot_version__isnull=False,
            disqualified=False,
            table__status=Table.Status.IN_PROGRESS,
        )
        .exclude(bot_version__bot__kind=Bot.Kind.EXTERNAL)
        .values_list("table_id", "index", "bot_version_id")
    )
    if not rows:
        return 0
    games = {
        g.table_id: g
        for g in Game.objects.filter(
            status=Game.Status.RUNNING, table_id__in={table for table, _, _ in rows}
        ).select_related("table")
    }
    codes = dict(
        BotVersion.objects.filter(pk__in={v for _, _, v in rows}).values_list("pk", "code")
    )
    seats: dict[int, dict[int, int]] = {}
    for table_id, index, version_id in rows:
        game = games.get(table_id)
        if game is not None and table_bot_queue(game.table, game.pk) == queue:
            seats.setdefault(table_id, {})[int(index)] = int(version_id)
    started = 0
    room = registry.max_processes - len(registry)  # more would evict the ones rebuilt
    for table_id, of_game in sorted(seats.items()):
        game = games[table_id]
        history = _GameHistory(game, of_game)
        for index, version_id in sorted(of_game.items()):
            if started >= room:
                return started
            code = str(codes.get(version_id, ""))
            started += registry.rebuild(
                (game_key(game.pk), index, version_id),
                load_code=lambda code=code: code,  # type: ignore[misc]
                history=lambda index=index, history=history: history.of(index),  # type: ignore[misc]
                timeout_s=move_timeout(),
            )
    return started


class _GameHistory:
    """The earlier turns of a game's bot seats, computed once (by the first seat's rebuild,
    in its background thread) for all of them. Each seat's list says the game's version they
    were read at (``ReplayHistory.upto``): the sandbox's first turn checks that no turn of its
    bot was stored after it (docs/bot-affinity.md "Rebuilt ahead")."""

    def __init__(self, game: Any, seats: dict[int, int]) -> None:
        self.game, self.seats = game, seats
        self._turns: dict[int, ReplayHistory] | None = None
        self._lock = threading.Lock()

    def of(self, seat: int) -> ReplayHistory:
        with self._lock:
            if self._turns is None:
                try:
                    self._turns, _ = stored_turns_of_seats(game=self.game, seats=self.seats)
                finally:
                    connection.close()  # a background thread's own connection
            return self._turns[seat]
