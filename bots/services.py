"""Write-side operations of the bots app, and running bots (Test Bot, validation, live turns)."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _
from openskill.models import PlackettLuce

from bots.anchors import anchor_skill, rating_status
from bots.models import DEFAULT_GAME, RATING_Z, Bot, BotRating, BotRatingEvent, BotVersion
from bots.runtime import BotTurnResult, game_seed, registry
from bots.samples import localize_result
from bots.sandbox import SandboxLimits, SyntaxIssue, check_syntax, run_once
from bots.validation import (
    SampleResult,
    describe_move_text,
    play_validation_game,
    run_samples,
)
from games.history.bot_lab import BotMove, bot_move_get
from games.history.records import HistoryError
from games.realtime import schedule
from games.selectors import FinishedGame, game_finished_get
from games.services import bot_queue

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "RATED_MODES",
    "RATINGS_TASK",
    "RELEASE_TASK",
    "TEST_RUN_TASK",
    "VALIDATE_TASK",
    "BotLabError",
    "BotMoveError",
    "BotTestRunLimitError",
    "BotTurnResult",
    "SampleResult",
    "bot_check_syntax",
    "bot_create",
    "bot_delete",
    "bot_game_finished",
    "bot_lab_move",
    "bot_lab_original",
    "bot_play_turn",
    "bot_release_game",
    "bot_seat_player",
    "bot_set_arena_open",
    "bot_test_run",
    "bot_test_run_execute",
    "bot_test_run_get",
    "bot_test_run_move_start",
    "bot_test_run_start",
    "bot_update",
    "botversion_create",
    "botversion_rollback",
    "botversion_validate",
    "botversion_validate_later",
    "lab_error_text",
    "ratings_record_game",
    "ratings_record_game_later",
]

logger = logging.getLogger(__name__)

#: Celery name of the validation task (``bots.tasks``), routed to the ``bots`` queue.
VALIDATE_TASK = "bots.tasks.botversion_validate"
#: Celery name of the rating task (``bots.tasks``), routed to the ``bots`` queue.
RATINGS_TASK = "bots.tasks.ratings_record_game_task"
#: Celery name of the task that closes a finished game's sandboxes on a ``bots`` worker.
RELEASE_TASK = "bots.tasks.bot_release_game_task"


# --------------------------------------------------------------------------- bots and versions


@transaction.atomic
def bot_create(
    *,
    owner: User,
    name: str,
    description: str = "",
    code: str | None = None,
    game: str = DEFAULT_GAME,
) -> Bot:
    """Create a bot slot for ``game`` (an engine name; fixed for the bot's life); with
    ``code``, also its first version. An unknown game is a ``ValidationError``."""
    bot = Bot(owner=owner, name=name, description=description, game=game)
    bot.full_clean()
    bot.save()
    if code is not None:
        botversion_create(bot=bot, code=code)
    return bot


@transaction.atomic
def bot_update(
    *,
    bot: Bot,
    name: str | None = None,
    description: str | None = None,
    code: str | None = None,
) -> Bot:
    """Rename or describe a bot; new ``code`` is saved as a new version, never an edit."""
    if name is not None:
        bot.name = name
    if description is not None:
        bot.description = description
    bot.full_clean()
    bot.save()
    if code is not None:
        botversion_create(bot=bot, code=code)
    return bot


def bot_set_arena_open(*, bot: Bot, open_: bool) -> Bot:
    """Open a bot to the arena (other users may seat its ready versions at their Bot Arena
    tables; they never see its code or move records) or close it again. Tables already
    seated keep their versions."""
    bot.arena_open = open_
    bot.save(update_fields=["arena_open", "updated_at"])
    return bot


@transaction.atomic
def bot_delete(*, bot: Bot) -> None:
    """Delete a bot and its versions; refused (``ValidationError``) once a version was seated
    at a table, because tables and replays pin the version they played."""
    try:
        Bot.objects.select_for_update().get(pk=bot.pk).delete()
    except ProtectedError as exc:
        raise ValidationError(
            "This bot has played at a table, so its versions are kept for the replays. "
            "Rename it instead.",
            code="protected",
        ) from exc


@transaction.atomic
def botversion_create(*, bot: Bot, code: str) -> BotVersion:
    """Append the next numbered version; the bot row is locked so numbers never collide.

    On commit the version's validation game is scheduled (``VALIDATE_TASK`` on the ``bots``
    queue). An external bot has no code: ``ValidationError`` (code ``external_bot``).
    """
    locked = Bot.objects.select_for_update().get(pk=bot.pk)
    if locked.kind == Bot.Kind.EXTERNAL:
        raise ValidationError(
            "An external bot has no code: a program plays it over the bot API.",
            code="external_bot",
        )
    latest = locked.versions.aggregate(n=Max("number"))["n"] or 0
    version = BotVersion.objects.create(bot=locked, number=latest + 1, code=code)
    Bot.objects.filter(pk=bot.pk).update(updated_at=timezone.now())
    botversion_validate_later(version_id=version.pk)
    return version


def botversion_validate_later(*, version_id: int) -> None:
    """Schedule the version's validation game once the current transaction commits."""
    transaction.on_commit(lambda: schedule(VALIDATE_TASK, [version_id], delay=0, queue="bots"))


@transaction.atomic
def botversion_rollback(*, bot: Bot, number: int) -> BotVersion:
    """Make an older version current again by saving its code as a new version.

    History is never rewritten: rolling back v2 of a bot at v5 creates v6 with v2's code.
    Raises ``BotVersion.DoesNotExist`` for an unknown number.
    """
    source = BotVersion.objects.get(bot=bot, number=number)
    return botversion_create(bot=bot, code=source.code)


def botversion_validate(*, version_id: int, budget_s: float = 120.0) -> BotVersion:
    """Play the version's validation game and mark it ``ready`` or ``not_ready``.

    Idempotent: a version that is no longer pending is returned unchanged (a duplicate task
    delivery does nothing). The game runs outside any transaction; only the result is written,
    under a row lock.
    """
    version = BotVersion.objects.get(pk=version_id)
    if version.status != BotVersion.Status.PENDING:
        return version
    game = Bot.objects.values_list("game", flat=True).get(pk=version.bot_id)
    report = play_validation_game(version.code, seed=version.pk, budget_s=budget_s, game=game)
    summary = report.summary() | {"validated_at": timezone.now().isoformat()}
    with transaction.atomic():
        locked = BotVersion.objects.select_for_update().get(pk=version_id)
        if locked.status == BotVersion.Status.PENDING:
            locked.status = BotVersion.Status.READY if report.ready else BotVersion.Status.NOT_READY
            locked.validation = summary
            locked.save(update_fields=["status", "validation"])
    return locked


# --------------------------------------------------------------------------- running code


def bot_check_syntax(*, code: str) -> list[SyntaxIssue]:
    """Compile ``code`` in a sandbox without running it; ``[]`` when it compiles."""
    return check_syntax(code)


def bot_test_run(
    *, code: str, game: str = DEFAULT_GAME, timeout_s: float = 5.0, budget_s: float = 30.0
) -> list[SampleResult]:
    """Test Bot: run ``code`` against the fixed sample states of ``game`` (``bots.samples``).

    Each sample runs in a fresh sandbox with the live per-move limit; its result is ✓ with the
    move the engine accepted, or ✗ with the sandbox's or the engine's error code, the message
    and the bot's console output. Runs here: call it only on a ``bots`` worker (the API goes
    through :func:`bot_test_run_start`).
    """
    return run_samples(code, game=game, timeout_s=timeout_s, budget_s=budget_s)


# --------------------------------------------------------------------------- Test Bot runs
#
# A Test Bot run starts sandboxes (up to four at once, ~65 MB each), so it never runs in daphne:
# the API stores a run record in the cache (Redis), enqueues TEST_RUN_TASK on the ``bots``
# queue and answers at once; the worker writes the results into the record, which the editor
# polls. A user holds at most ``BOTS_TEST_RUNS_PER_USER`` runs in flight: each run takes one of
# that many per-user slot keys (an atomic ``cache.add``) and frees it when it ends; a slot whose
# run was lost (a dead worker) expires after TEST_RUN_SLOT_SECONDS.

#: Celery name of the Test Bot task (``bots.tasks``), routed to the ``bots`` queue.
TEST_RUN_TASK = "bots.tasks.bot_test_run_task"
#: A slot of a run that never finished (its worker died, no worker) is free again after this.
TEST_RUN_SLOT_SECONDS = 180
#: How long a run's record (and its results) can be read.
TEST_RUN_KEEP_SECONDS = 15 * 60
TEST_RUN_STATUSES = ("queued", "running", "done", "failed")


class BotTestRunLimitError(Exception):
    """The user already has ``limit`` Test Bot runs in flight (HTTP 429)."""

    code = "test_runs_in_flight"

    def __init__(self, limit: int) -> None:
        super().__init__(f"{limit} test runs are already in flight")
        self.limit = limit


def bot_test_run_limit() -> int:
    """Test Bot runs one user may have in flight (``BOTS_TEST_RUNS_PER_USER``, 2)."""
    return max(1, int(getattr(settings, "BOTS_TEST_RUNS_PER_USER", 2)))


def _run_key(run_id: str) -> str:
    return f"bots:test-run:{run_id}"


def _slot_key(user_id: int, slot: int) -> str:
    return f"bots:test-run-slot:{user_id}:{slot}"


def bot_test_run_start(*, user: User, code: str, game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Start a Test Bot run of ``code`` on ``game``'s samples on a ``bots`` worker; returns its
    record (:func:`bot_test_run_get`), ``queued`` (or already finished when the scheduler ran
    the task at once: the tests' scheduler). Raises :class:`BotTestRunLimitError` when ``user``
    has :func:`bot_test_run_limit` runs in flight."""
    return _start_run(user=user, code=code, game=game)


def _start_run(
    *, user: User, code: str, game: str, extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    limit = bot_test_run_limit()
    run_id = uuid.uuid4().hex
    slot = next(
        (
            n
            for n in range(limit)
            if cache.add(_slot_key(user.pk, n), run_id, TEST_RUN_SLOT_SECONDS)
        ),
        None,
    )
    if slot is None:
        raise BotTestRunLimitError(limit)
    record = {"id": run_id, "status": "queued", "user": user.pk, "slot": slot, "game": game}
    record |= dict(extra or {})
    cache.set(_run_key(run_id), record | {"code": code}, TEST_RUN_KEEP_SECONDS)
    try:
        schedule(TEST_RUN_TASK, [run_id], delay=0, queue="bots")
    except Exception:
        _release_slot(user.pk, slot, run_id)
        cache.delete(_run_key(run_id))
        raise
    found = bot_test_run_get(user=user, run_id=run_id)
    return found if found is not None else _public(record)


def bot_test_run_get(*, user: User, run_id: str) -> dict[str, Any] | None:
    """``user``'s run ``run_id``: ``{"id", "status", "game"}``, plus ``passed``, ``total`` and
    ``results`` (``SampleResult.to_json()``) once ``done``, or ``error`` once ``failed``.
    ``None`` for an unknown or expired run, or another user's."""
    record = cache.get(_run_key(run_id))
    if not isinstance(record, dict) or record.get("user") != user.pk:
        return None
    return _public(record)


def _public(record: Mapping[str, Any]) -> dict[str, Any]:
    """The run as its owner sees it, each result's text in the active language."""
    keys = ("id", "status", "game", "move", "passed", "total", "results", "lab", "error")
    public = {k: record[k] for k in keys if k in record}
    if isinstance(public.get("results"), list):
        public["results"] = [localize_result(r, _) for r in public["results"]]
    lab = public.get("lab")
    if isinstance(lab, Mapping):
        public["lab"] = dict(lab) | {
            side: localize_result(lab[side], _)
            for side in ("new", "original")
            if isinstance(lab.get(side), Mapping)
        }
    return public


def _release_slot(user_id: int, slot: int, run_id: str) -> None:
    key = _slot_key(user_id, slot)
    if cache.get(key) == run_id:  # not a later run's, after this one's slot expired
        cache.delete(key)


def bot_test_run_execute(*, run_id: str) -> str:
    """The Test Bot task's body, on a ``bots`` worker: run the samples, store the results in
    the run's record and free the user's slot; returns the final status. Idempotent: a run
    that already ended, or whose record expired (nobody waits for it), is not run again."""
    key = _run_key(run_id)
    record = cache.get(key)
    if not isinstance(record, dict) or record.get("status") not in ("queued", "running"):
        return "gone" if not isinstance(record, dict) else str(record.get("status"))
    code = str(record.pop("code", ""))
    cache.set(key, record | {"status": "running"}, TEST_RUN_KEEP_SECONDS)
    try:
        if isinstance(record.get("move"), dict):  # a Replay lab run: one real state
            record |= {"status": "done", "lab": _test_run_on_move(code=code, record=record)}
        else:
            results = [r.to_json() for r in bot_test_run(code=code, game=str(record["game"]))]
            record |= {
                "status": "done",
                "passed": sum(bool(r["ok"]) for r in results),
                "total": len(results),
                "results": results,
            }
    except Exception as exc:
        logger.exception("test run failed", extra={"run_id": run_id})
        record |= {"status": "failed", "error": f"the test run failed ({type(exc).__name__})"}
    finally:
        cache.set(key, record, TEST_RUN_KEEP_SECONDS)
        _release_slot(int(record["user"]), int(record["slot"]), run_id)
    return str(record["status"])


# --------------------------------------------------------------------------- the Replay lab
#
# "Open in editor on this move" (docs/history.md "Replay lab"): the editor's code runs on the
# exact gameState a bot of the user received in a finished game, referenced by (game id, action
# seq, seat) and recomputed on the server (games.history.bot_lab), never sent by the client.


class BotLabError(ValueError):
    """A refused Replay lab reference, with a stable ``code`` (``bad_reference``, ``not_found``,
    ``not_finished``, ``not_your_seat``, ``no_such_move``, ``wrong_game``, ``wrong_bot``)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def lab_error_text(code: str) -> str:
    """The user's words for a refused Replay lab reference (:class:`BotLabError` codes)."""
    texts = {
        "bad_reference": _("The move reference must be whole numbers."),
        "not_found": _("No such game, or none of your bots played in it."),
        "not_finished": _("A bot's moves open in the lab once the game is over."),
        "not_your_seat": _("That seat was not played by one of your bots."),
        "no_such_move": _("That is not a recorded move of your bot at that seat."),
        "wrong_game": _("That move is from another game than this bot's."),
        "wrong_bot": _("That move was made by another of your bots."),
    }
    return str(texts.get(code, _("This move cannot be opened.")))


def bot_lab_move(
    *, user: User, game_id: Any, seq: Any, seat: Any, bot: Bot | None = None
) -> BotMove:
    """One move of ``user``'s bot in a finished game, recomputed (:func:`bot_move_get`); with
    ``bot``, the seat must have been held by that bot (``wrong_bot``). Raises
    :class:`BotLabError`."""
    try:
        move = bot_move_get(game_id=game_id, seq=seq, seat=seat, user=user)
    except HistoryError as exc:
        raise BotLabError(exc.code, exc.detail) from exc
    if bot is not None and move.player.get("bot_id") != bot.pk:
        raise BotLabError("wrong_bot", "that move was made by another of your bots")
    return move


def bot_lab_original(move: BotMove) -> dict[str, Any]:
    """What the editor shows of a recorded move: where it is, the ``gameState``, what the bot
    returned then and how it went (the record's fields, :meth:`BotMove.to_json`)."""
    return move.to_json() | {"game_id": move.game.pk, "engine": move.game.engine}


def bot_test_run_move_start(
    *, user: User, code: str, game_id: Any, seq: Any, seat: Any, game: str | None = None
) -> dict[str, Any]:
    """Test Bot on a real state: start a run of ``code`` on the ``gameState`` of move ``seq``
    of ``user``'s bot at ``seat`` of finished game ``game_id``, on a ``bots`` worker like
    :func:`bot_test_run_start` (same slots and record; poll :func:`bot_test_run_get`). The
    reference is checked here (:func:`bot_lab_move`: :class:`BotLabError`), and ``game``, when
    given, must be that game's engine (``wrong_game``). Once done the record's ``lab`` holds
    the new answer beside the original (:func:`_test_run_on_move`)."""
    move = bot_lab_move(user=user, game_id=game_id, seq=seq, seat=seat)
    engine_name = move.game.engine
    if game is not None and game != engine_name:
        raise BotLabError("wrong_game", f"that move is from a {engine_name} game")
    ref = {"game_id": move.game.pk, "seq": move.seq, "seat": move.seat}
    return _start_run(user=user, code=code, game=engine_name, extra={"move": ref})


def _test_run_on_move(*, code: str, record: Mapping[str, Any]) -> dict[str, Any]:
    """Run ``code`` once, in a fresh sandbox with the live per-move limit, on the recomputed
    state of the run's move; judge the return with the engine (``parse_bot_move`` on that
    state) and set it beside what the bot returned in the game."""
    ref = record["move"]
    user = get_user_model().objects.get(pk=record["user"])
    move = bot_lab_move(user=user, game_id=ref["game_id"], seq=ref["seq"], seat=ref["seat"])
    limits = SandboxLimits(move_timeout_s=move_timeout(), load_timeout_s=move_timeout())
    seed = game_seed(game_key(move.game.pk), move.seat)
    outcome = run_once(code, move.game_state, limits=limits, seed=seed)
    new: dict[str, Any] = {
        "ok": outcome.ok,
        "value": outcome.value if outcome.ok else None,
        "error_code": None if outcome.ok else str(outcome.error_code),
        "error_kind": None if outcome.ok else "sandbox",
        "error_message": outcome.error_message,
        "console": list(outcome.console),
        "console_truncated": outcome.console_truncated,
        "elapsed_ms": round(outcome.elapsed_ms, 3),
        "legal": False,
        "action": None,
        "move_text": "",
    }
    engine: Any = move.engine  # the bot API is not in the Game protocol
    if outcome.ok:
        try:
            action = dict(engine.parse_bot_move(move.state, move.seat, outcome.value))
        except ValueError as exc:
            new |= {
                "error_code": str(getattr(exc, "code", "illegal_move")),
                "error_kind": "rules",
                "error_message": str(exc),
            }
        else:
            shown = {k: v for k, v in action.items() if k != "seat"}
            move_text = describe_move_text(action)
            new |= {
                "legal": True,
                "action": shown,
                "move_text": str(move_text),  # English; translated where it is shown
                "i18n": {"move_text": move_text.to_json()},
            }
    original = bot_lab_original(move)
    before = original.get("move") if original.get("strike") is None else None
    before_text = describe_move_text(before)
    return {
        "game_id": move.game.pk,
        "seq": move.seq,
        "seat": move.seat,
        "original": {
            k: original.get(k)
            for k in ("returned", "move", "strike", "error_code", "error_message", "console")
        }
        | {
            "elapsed_ms": original.get("elapsed_ms"),
            "legal": original.get("strike") is None,
            "move_text": str(before_text),
            "i18n": {"move_text": before_text.to_json()},
        },
        "new": new,
        "changed": _canonical(new["value"]) != _canonical(original.get("returned"))
        or new["ok"] is not bool(original.get("ok")),
        "same_action": new["action"] is not None
        and before is not None
        and _same_action(new["action"], before),
    }


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _same_action(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two engine actions are the same move (cards in any order)."""

    def pick(m: Mapping[str, Any]) -> dict[str, Any]:
        keys = ("type", "cards", "card", "claim")
        return {k: sorted(m[k]) if k == "cards" else m[k] for k in keys if k in m}

    return pick(a) == pick(b)


def bot_play_turn(
    *,
    bot_version_id: int,
    game_key: str,
    seat: int,
    game_state: Mapping[str, Any],
    timeout_s: float = 5.0,
) -> BotTurnResult:
    """Ask a seated bot version for its move (for the live tables' bot-turn task).

    ``game_state`` is the engine's ``bot_view`` for the seat. The bot's sandbox lives in this
    worker process for the whole game (keyed by ``(game_key, seat, bot_version_id)``), so its
    globals persist across turns; a sandbox that died is restarted on the next call. The result
    holds the raw return (validate it with ``GAME.parse_bot_move``) or a failure code, plus the
    console and the time used. Call :func:`bot_release_game` when the game ends.
    Raises ``BotVersion.DoesNotExist`` for an unknown version.
    """

    def load_code() -> str:
        return BotVersion.objects.values_list("code", flat=True).get(pk=bot_version_id)

    return registry.play(
        (game_key, seat, bot_version_id),
        load_code=load_code,
        game_state=game_state,
        timeout_s=timeout_s,
    )


def bot_release_game(*, game_key: str) -> int:
    """Close every bot sandbox of ``game_key`` in this worker process; returns how many."""
    return registry.release_game(game_key)


def game_key(game_id: int) -> str:
    """The sandbox registry key of a live game's bots: ``game:<id>``."""
    return f"game:{game_id}"


def move_timeout() -> float:
    """Seconds a bot may think per move at a live table (``BOTS_MOVE_TIMEOUT_SECONDS``, 5)."""
    return float(getattr(settings, "BOTS_MOVE_TIMEOUT_SECONDS", 5.0))


def bot_game_finished(*, game: Any, table: Any) -> None:
    """Hook of the live tables (``games.extensions.on_game_finished``, registered in
    ``BotsConfig.ready``), called inside the transaction that finishes ``game``. Once it
    commits: the game's bot sandboxes are closed (globals live for one game), and an arena game
    is rated (``RATINGS_TASK``)."""
    players = game.players if isinstance(game.players, list) else []
    if any(isinstance(p, dict) and p.get("kind") == "bot" for p in players):
        key, queue = game_key(game.pk), bot_queue(game.pk)
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


class BotMoveError(RuntimeError):
    """A bot turn that gives no legal move: ``code`` is a sandbox code (``timeout``…) or
    ``illegal:<engine code>``; ``record`` is the per-move record (owner-only)."""

    def __init__(self, code: str, message: str, record: dict[str, Any]) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.record = record


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
    index = int(seat.index)
    result = bot_play_turn(
        bot_version_id=int(seat.bot_version_id),
        game_key=game_key(game.pk),
        seat=index,
        game_state=engine.bot_view(state, index),
        timeout_s=move_timeout(),
    )
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


# --------------------------------------------------------------------------- ratings

#: Table modes whose games are rated. Hybrid tables (people and bots) and casual/practice
#: tables are not: a bot's rating measures bots against bots. Tournament tables are, as arena
#: tables (docs/tournaments.md).
RATED_MODES = frozenset({"arena", "tournament"})

#: Multi-player TrueSkill-style model (openskill, Weng–Lin Plackett–Luce); defaults mu 25,
#: sigma 25/3.
RATING_MODEL = PlackettLuce()


@dataclass(frozen=True)
class _Entrant:
    bot_id: int | None
    """None for a house AI anchor (:mod:`bots.anchors`)."""
    version_id: int | None
    seat: int
    rank: int
    level: str | None = None


def _rated_entrants(game: FinishedGame) -> list[_Entrant]:
    """The rated participants of ``game`` in finishing order (1 = best): its user bots and its
    house AIs with an anchor skill (:mod:`bots.anchors`).

    People are not rated and are left out of the order (the others keep their relative order).
    A bot holding several seats counts once, at its best-placed seat.
    """
    version_of = {
        s.index: s.bot_version_id
        for s in game.seats
        if s.kind == "bot" and s.bot_version_id is not None
    }
    anchor_of = {
        s.index: s.house_level
        for s in game.seats
        if s.kind == "house" and anchor_skill(s.house_level) is not None
    }
    bot_of_version = dict(
        BotVersion.objects.filter(pk__in=set(version_of.values())).values_list("pk", "bot_id")
    )
    entrants: list[_Entrant] = []
    seen: set[int] = set()
    for seat in game.ranking:
        if seat in anchor_of:
            entrants.append(
                _Entrant(None, None, seat, rank=len(entrants) + 1, level=anchor_of[seat])
            )
            continue
        version_id = version_of.get(seat)
        bot_id = bot_of_version.get(version_id) if version_id is not None else None
        if version_id is None or bot_id is None or bot_id in seen:
            continue
        seen.add(bot_id)
        entrants.append(_Entrant(bot_id, version_id, seat, rank=len(entrants) + 1))
    return entrants


def _entrant_rating(entrant: _Entrant, ratings: dict[int, BotRating]) -> Any:
    if entrant.bot_id is None:
        mu, sigma = anchor_skill(entrant.level) or (25.0, 25.0 / 3)
        return RATING_MODEL.rating(mu=mu, sigma=sigma)
    row = ratings[entrant.bot_id]
    return RATING_MODEL.rating(mu=row.mu, sigma=row.sigma)


def ratings_record_game(*, game_id: int) -> bool:
    """Update the ratings of the user bots that played finished game ``game_id``.

    Rated: finished games of a rated table (:data:`RATED_MODES`) whose participants pass
    :func:`bots.anchors.rating_status`: at least one user bot and two rated participants,
    where each distinct user bot counts once and each house AI counts as a fixed **anchor**
    (its skill from :data:`bots.anchors.ANCHOR_SKILLS`, never updated). The participants are
    ranked by the engine's result ranking (see :func:`_rated_entrants`) and rated together with
    openskill's Plackett–Luce model; each user bot gets a :class:`BotRatingEvent` (the rating
    history) and its :class:`BotRating` is updated. Returns whether the game was rated.

    Idempotent: the bots' rating rows are locked (``select_for_update``, in bot id order) and a
    game that already has rating events is left alone, so a duplicate call or task delivery
    changes nothing. Ratings are applied in the order the calls arrive, which is the order games
    end as long as the caller enqueues on commit.
    """
    game = game_finished_get(game_id=game_id)
    if game is None or game.mode not in RATED_MODES:
        return False
    entrants = _rated_entrants(game)
    bots = [e for e in entrants if e.bot_id is not None]
    status = rating_status(
        bots=[b.bot_id for b in bots if b.bot_id is not None],
        anchors=[e.level for e in entrants if e.bot_id is None],
    )
    if not status.rated:
        return False
    bot_ids = sorted(b.bot_id for b in bots if b.bot_id is not None)
    fresh = RATING_MODEL.rating()
    with transaction.atomic():
        BotRating.objects.bulk_create(
            [
                BotRating(bot_id=b, mu=fresh.mu, sigma=fresh.sigma, ordinal=fresh.ordinal())
                for b in bot_ids
            ],
            ignore_conflicts=True,
        )
        ratings = {
            r.bot_id: r
            for r in BotRating.objects.select_for_update()
            .filter(bot_id__in=bot_ids)
            .order_by("bot_id")
        }
        if BotRatingEvent.objects.filter(bot_id=bot_ids[0], game_id=game.id).exists():
            return False
        before = [_entrant_rating(e, ratings) for e in entrants]
        after = RATING_MODEL.rate([[r] for r in before], ranks=[float(e.rank) for e in entrants])
        events = []
        rated = len(entrants)
        for entrant, old, (new,) in zip(entrants, before, after, strict=True):
            if entrant.bot_id is None or entrant.version_id is None:
                continue  # an anchor: its skill is fixed
            won = game.winner_seat == entrant.seat
            events.append(
                BotRatingEvent(
                    bot_id=entrant.bot_id,
                    game_id=game.id,
                    version_id=entrant.version_id,
                    seat=entrant.seat,
                    rank=entrant.rank,
                    rated_bots=rated,
                    won=won,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    played_at=game.ended_at,
                )
            )
            rating = ratings[entrant.bot_id]
            rating.mu = new.mu
            rating.sigma = new.sigma
            rating.ordinal = new.ordinal(z=RATING_Z)
            rating.games += 1
            rating.wins += int(won)
            rating.last_version_id = entrant.version_id
            if rating.last_played_at is None or game.ended_at > rating.last_played_at:
                rating.last_played_at = game.ended_at
            rating.save()
        BotRatingEvent.objects.bulk_create(events)
    logger.info("bot ratings updated", extra={"game_id": game_id, "bots": bot_ids})
    return True


def ratings_record_game_later(*, game_id: int) -> None:
    """Rate game ``game_id`` once the current transaction commits (``RATINGS_TASK`` on the
    ``bots`` queue). Call it where a game is marked finished; unrated games (not arena, fewer
    than two bots) are a cheap no-op in the task."""
    transaction.on_commit(lambda: schedule(RATINGS_TASK, [game_id], delay=0, queue="bots"))
