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
from typing import Any

from django.db import transaction

from bots.models import Bot, BotVersion
from bots.runtime import registry
from bots.services import bot_seat_player, game_key
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
