"""Bots at the live tables: a bot seat's turn in its sandbox (or, for an external bot, by its
program: bots/external), the game's sandboxes closed when it ends, and an arena game rated
then. ``bot_seat_player`` is the live tables' bot player (``games.extensions``, registered in
``BotsConfig.ready``); the sandboxes start at the deal (bots/warmup.py)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.db import transaction

from bots.errors import BotMoveError
from bots.models import Bot, BotVersion, move_timeout
from bots.ratings import RATED_MODES, ratings_record_game_later
from bots.runtime import (
    BotTurnResult,
    ReplayHistory,
    ReplayTurn,
    TurnSupersededError,
    registry,
)
from games.extensions import TurnSuperseded
from games.models import Action, Game
from games.realtime import schedule
from games.services import table_bot_queue

__all__ = [
    "RELEASE_TASK",
    "BotMoveError",
    "bot_game_finished",
    "bot_play_turn",
    "bot_release_game",
    "bot_seat_player",
    "earlier_turns",
    "earlier_turns_of_seats",
    "game_key",
    "move_timeout",
    "stored_turns_of_seats",
]

logger = logging.getLogger(__name__)

#: Celery name of the task that closes a finished game's sandboxes on a ``bots`` worker.
RELEASE_TASK = "bots.tasks.bot_release_game_task"


def bot_play_turn(
    *,
    bot_version_id: int,
    game_key: str,
    seat: int,
    game_state: Mapping[str, Any],
    timeout_s: float = 5.0,
    history: Callable[[], Sequence[ReplayTurn]] | None = None,
    version: int | None = None,
    superseded: Callable[[], bool] | None = None,
    stored_since: Callable[[int], bool] | None = None,
) -> BotTurnResult:
    """Ask a seated bot version for its move (for the live tables' bot-turn task).

    ``game_state`` is the engine's ``bot_view`` for the seat. The bot's sandbox lives in this
    worker process for the whole game (keyed by ``(game_key, seat, bot_version_id)``), so its
    globals persist across turns; a sandbox that died is restarted on the next call. The result
    holds the raw return (validate it with ``GAME.parse_bot_move``) or a failure code, plus the
    console and the time used. Call :func:`bot_release_game` when the game ends.
    ``history`` (:func:`earlier_turns`): the bot's earlier turns of the game, played again
    first when its sandbox is new in this process (docs/bot-affinity.md). ``version`` and
    ``superseded``: the game's version at this turn and whether the game has moved past it
    (:meth:`bots.runtime.BotRegistry.play`: a second copy of a turn is never played into the
    globals). ``stored_since(n)``: whether the seat has a stored turn after game version ``n``
    and before this one (a sandbox rebuilt ahead from the moves read at version ``n`` checks
    it has seen all of them).
    Raises ``BotVersion.DoesNotExist`` for an unknown version.
    """

    def load_code() -> str:
        return BotVersion.objects.values_list("code", flat=True).get(pk=bot_version_id)

    return registry.play(
        (game_key, seat, bot_version_id),
        load_code=load_code,
        game_state=game_state,
        timeout_s=timeout_s,
        history=history,
        version=version,
        superseded=superseded,
        stored_since=stored_since,
    )


#: Failures that end a bot's sandbox: its globals are gone after such a turn, so it and the
#: turns before it are not played again (the next turn of the game started a fresh sandbox,
#: ``restarted``).
ENDING_CODES = frozenset({"memory", "crashed"})
#: Failures not played again: a turn that ran out of time would take its whole time again, and
#: where V8 stopped it depends on the machine (docs/bot-affinity.md "What a bot's author sees").
SKIPPED_CODES = frozenset({"timeout"})


def earlier_turns(*, game: Any, seat: int, bot_version_id: int) -> list[ReplayTurn]:
    """The turns that seat ``seat``'s bot (version ``bot_version_id``) played in running game
    ``game`` since its sandbox last started: each one's ``gameState`` (the engine's
    ``bot_view`` of the state before it, recomputed from the seed and the stored actions as
    the Replay lab does, games/history/bot_lab.py) and what the bot returned then.

    A turn marked ``restarted`` began with fresh globals, and a turn that ended the sandbox
    (:data:`ENDING_CODES`) left none: the list starts after the last of them. A turn that ran
    out of time (:data:`SKIPPED_CODES`) is left out. Only stored
    moves count: a run of server turns holds others' moves for milliseconds, never a turn of
    a bot that has no sandbox in this process (games/services/runs.py)."""
    return earlier_turns_of_seats(game=game, seats={seat: bot_version_id}).get(seat, [])


def earlier_turns_of_seats(*, game: Any, seats: Mapping[int, int]) -> dict[int, ReplayHistory]:
    """:func:`earlier_turns` of several seats at once (``seats``: seat -> bot version id), the
    game's stored moves read and played through the engine once; only the seats that have
    such turns are in it. Each list says the game's version the moves were read at
    (:attr:`ReplayHistory.upto`).

    A seat's first turn of a game in a new sandbox (every game's first turns: the sandboxes
    are new for each game) finds none of its moves stored: one small query says so first,
    before the game's moves are read and parsed (docs/benchmarks.md "Bots", session 18)."""
    if not Action.objects.filter(game_id=game.pk, seat__in=list(seats)).exists():
        return {}
    turns, _ = stored_turns_of_seats(game=game, seats=seats)
    return {seat: of_seat for seat, of_seat in turns.items() if of_seat}


def stored_turns_of_seats(
    *, game: Any, seats: Mapping[int, int]
) -> tuple[dict[int, ReplayHistory], int]:
    """The earlier turns of every seat of ``seats`` (an empty list for a seat that has none)
    from one read of the game's stored moves, and the game's version that read saw (the last
    stored move's ``seq``, 0 for none; the same in each list's :attr:`ReplayHistory.upto`).
    What a shard just taken over rebuilds its bots from (bots/warmup.py): a turn of one of them
    stored after this read is one its rebuilt sandbox has not seen (``BotRegistry.play``)."""
    rows = list(
        Action.objects.filter(game_id=game.pk)
        .order_by("seq")
        .values_list("seq", "seat", "payload", "bot_record")
    )
    upto = int(rows[-1][0]) if rows else 0
    turns = {int(seat): ReplayHistory(upto=upto) for seat in seats}
    mine = {
        i: index
        for i, (_, index, _, rec) in enumerate(rows)
        if index is not None
        and index in seats
        and isinstance(rec, dict)
        and rec.get("bot_version_id") == seats[index]
    }
    if not mine:
        return turns, upto
    from games.history.records import engine_of

    engine = engine_of(game.engine, game.rules_version)
    state = engine.new_game(dict(game.config or {}), game.seed)
    for i, (_, _, payload, rec) in enumerate(rows[: max(mine) + 1]):
        seat = mine.get(i)
        if seat is not None and isinstance(rec, dict):
            if rec.get("restarted"):
                turns[seat].clear()
            if rec.get("error_code") in ENDING_CODES:
                turns[seat].clear()
            elif rec.get("error_code") not in SKIPPED_CODES:
                turns[seat].append((engine.bot_view(state, seat), rec.get("value")))
        state, _ = engine.apply(state, dict(payload))
    return turns, upto


def bot_release_game(*, game_key: str) -> int:
    """Close every bot sandbox of ``game_key`` in this worker process; returns how many."""
    return registry.release_game(game_key)


def game_key(game_id: int) -> str:
    """The sandbox registry key of a live game's bots: ``game:<id>``."""
    return f"game:{game_id}"


def bot_game_finished(*, game: Any, table: Any) -> None:
    """Hook of the live tables (``games.extensions.on_game_finished``, registered in
    ``BotsConfig.ready``), called inside the transaction that finishes ``game``. Once it
    commits: the game's bot sandboxes are closed (globals live for one game), and an arena game
    is rated (``RATINGS_TASK``)."""
    players = game.players if isinstance(game.players, list) else []
    if any(isinstance(p, dict) and p.get("kind") == "bot" for p in players):
        key, queue = game_key(game.pk), table_bot_queue(table, game.pk)
        transaction.on_commit(lambda: _release_everywhere(key, queue))
    if getattr(table, "mode", None) in RATED_MODES:
        ratings_record_game_later(game_id=game.pk)
    if any(isinstance(p, dict) and p.get("kind") == "bot" for p in players):
        from bots.external.services import external_game_finished

        external_game_finished(game=game, table=table)


def _release_everywhere(key: str, queue: str) -> None:
    """Close ``key``'s sandboxes here; when none were here (the game ended on a human's move
    in daphne) ask the game's shard worker (``queue``, :func:`games.services.bot_queue`): the
    one process that played its bot turns. Should that fail, the registry's idle eviction
    closes them."""
    try:
        if registry.release_game(key):
            return
        schedule(RELEASE_TASK, [key], delay=0, queue=queue)
    except Exception:  # an on-commit hook never fails the move that committed
        logger.exception("releasing the bots of %s failed", key)


def bot_game_aborted(*, game: Any, table: Any, reason: str) -> None:
    """Hook of the live tables (``games.extensions.on_game_aborted``): a running game was
    aborted (its session ended, ``reason`` ``host`` or ``abandoned``). The external bots that
    sat in it get ``game_end`` with ``reason`` ``session_ended`` once it commits."""
    players = game.players if isinstance(game.players, list) else []
    if any(isinstance(p, dict) and p.get("kind") == "bot" for p in players):
        from bots.external.services import external_game_finished

        external_game_finished(game=game, table=table, reason="session_ended")


def bot_seat_player(*, seat: Any, game: Any, engine: Any, state: Any) -> dict[str, Any]:
    """Adapter for the live tables' bot-player extension point (``games.extensions``,
    registered in ``BotsConfig.ready``; ``games.extensions.house_bot_player`` has the contract).

    An external bot's version (``Bot.kind`` ``external``) is played by its program over the
    bot API instead (:func:`bots.external.services.external_seat_player`). Otherwise: runs the
    seat's pinned version on ``engine.bot_view(state, seat.index)`` through
    :func:`bot_play_turn` (one sandbox per game and seat: key ``game:<game.pk>``) and returns the
    engine action, with the per-move record under ``"bot_record"``. A failure or an illegal
    return raises :class:`BotMoveError` (a strike) carrying the same record.
    """
    version = getattr(seat, "bot_version", None)
    if version is not None and version.bot.kind == Bot.Kind.EXTERNAL:
        from bots.external.services import external_seat_player

        return external_seat_player(seat=seat, game=game, engine=engine, state=state)
    index, version_id = int(seat.index), int(seat.bot_version_id)
    known = getattr(game, "version", None)  # the game row's; None: no duplicate check
    at_version = None if known is None else int(known)

    def superseded() -> bool:
        return not Game.objects.filter(pk=game.pk, version=at_version or 0).exists()

    def stored_since(upto: int) -> bool:
        # a move of this seat stored after version ``upto`` and before this turn (seq is the
        # game's version once the move is stored: this turn's own move would be at_version + 1)
        return Action.objects.filter(
            game_id=game.pk, seat=index, seq__gt=upto, seq__lte=at_version or 0
        ).exists()

    # the bot's earlier turns, for a sandbox new in this process; none to read when the task's
    # read of the game found no stored move of this seat (its first turn of the game)
    moved = getattr(game, "moved_seats", None)
    history: Callable[[], list[ReplayTurn]] | None = None
    if moved is None or index in moved:
        history = functools.partial(earlier_turns, game=game, seat=index, bot_version_id=version_id)

    try:
        result = bot_play_turn(
            bot_version_id=version_id,
            game_key=game_key(game.pk),
            seat=index,
            game_state=engine.bot_view(state, index),
            timeout_s=move_timeout(),
            history=history,
            version=at_version,
            superseded=superseded,
            stored_since=None if at_version is None else stored_since,
        )
    except TurnSupersededError as exc:
        raise TurnSuperseded(str(exc)) from exc
    record = result.to_record()
    if not result.ok:
        raise BotMoveError(str(result.error_code), str(result.error_message), record)
    try:
        action = dict(engine.parse_bot_move(state, index, result.value))
    except ValueError as exc:
        code = f"illegal:{getattr(exc, 'code', 'illegal_move')}"
        record = record | {"error_code": code, "error_message": str(exc)}
        raise BotMoveError(code, str(exc), record) from exc
    return action | {"bot_record": record}


def _needs_stored_game(seat: Any) -> bool:
    """An external bot checks its move against the stored game (its program is elsewhere)."""
    version = getattr(seat, "bot_version", None)
    return version is not None and version.bot.kind == Bot.Kind.EXTERNAL


bot_seat_player.needs_stored_game = _needs_stored_game  # type: ignore[attr-defined]
