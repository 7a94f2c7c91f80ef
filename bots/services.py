"""Write-side operations of the bots app, and running bots (Test Bot, validation, the replay
lab). The live tables' bot turns are in :mod:`bots.turns` and the ratings in
:mod:`bots.ratings`; their names are re-exported here, where the app's callers find them."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from bots.models import DEFAULT_GAME, Bot, BotVersion
from bots.ratings import (  # live turns and ratings have modules of their own: re-exported
    RATED_MODES,
    RATINGS_TASK,
    ratings_record_game,
    ratings_record_game_later,
)
from bots.runtime import BotTurnResult, game_seed
from bots.samples import localize_result
from bots.sandbox import SandboxLimits, SyntaxIssue, check_syntax, run_once
from bots.turns import (
    RELEASE_TASK,
    BotMoveError,
    bot_game_finished,
    bot_play_turn,
    bot_release_game,
    bot_seat_player,
    game_key,
    move_timeout,
)
from bots.validation import (
    SampleResult,
    describe_move_text,
    play_validation_game,
    run_samples,
)
from games.history.bot_lab import BotMove, bot_move_get
from games.history.records import HistoryError
from games.realtime import schedule

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "RATED_MODES",
    "RATINGS_TASK",
    "RELEASE_TASK",
    "TEST_RUN_TASK",
    "TRIALS_QUEUE",
    "VALIDATE_TASK",
    "BotLabError",
    "BotMoveError",
    "BotSyntaxError",
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
    "bot_require_compiles",
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

#: Celery name of the validation task (``bots.tasks``), routed to :data:`TRIALS_QUEUE`.
VALIDATE_TASK = "bots.tasks.botversion_validate"
#: The queue of untrusted bot code that is no live table's turn: validation games and Test Bot
#: runs. Its worker (``./bin/run``'s ``worker-trials``) consumes nothing else, so a Test Bot
#: run of ``while(true){}`` never delays a live table's timer (queue ``default``) or turn
#: (``bots.<n>``, ``bots.tournament``); docs/architecture.md "Queues and workers".
TRIALS_QUEUE = "trials"


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
    """Rename or describe a bot; new ``code`` is saved as a new version, never an edit. An
    external bot has no code: ``code`` for one is refused (``ValidationError`` code
    ``external_bot``) before anything changes."""
    if code is not None and bot.kind == Bot.Kind.EXTERNAL:
        raise ValidationError(
            "An external bot has no code: a program plays it over the bot API.",
            code="external_bot",
        )
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


class BotSyntaxError(ValueError):
    """Code that does not compile: nothing is saved (code ``syntax_error``; ``issues``, the
    first of them in the message, each 1-based line and column)."""

    code = "syntax_error"

    def __init__(self, issues: list[SyntaxIssue]) -> None:
        self.issues = issues
        first = issues[0]
        super().__init__(
            _("Syntax error at line %(line)s, column %(column)s: %(message)s")
            % {"line": first.line, "column": first.column, "message": first.message}
        )


def bot_require_compiles(*, code: str) -> None:
    """Refuse code with a syntax error before it is saved as a version (:class:`BotSyntaxError`,
    ``syntax_error``). Compiled in a sandbox child (:func:`bot_check_syntax`), nothing run."""
    issues = check_syntax(code)
    if issues:
        raise BotSyntaxError(issues)


@transaction.atomic
def botversion_create(*, bot: Bot, code: str) -> BotVersion:
    """Append the next numbered version; the bot row is locked so numbers never collide.

    On commit the version's validation game is scheduled (``VALIDATE_TASK`` on the
    ``trials`` queue). An external bot has no code: ``ValidationError`` (code ``external_bot``).
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
    transaction.on_commit(
        lambda: schedule(VALIDATE_TASK, [version_id], delay=0, queue=TRIALS_QUEUE)
    )


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
# the API stores a run record in the cache (Redis), enqueues TEST_RUN_TASK on the ``trials``
# queue and answers at once; the worker writes the results into the record, which the editor
# polls. A user holds at most ``BOTS_TEST_RUNS_PER_USER`` runs in flight: each run takes one of
# that many per-user slot keys (an atomic ``cache.add``) and frees it when it ends; a slot whose
# run was lost (a dead worker) expires after TEST_RUN_SLOT_SECONDS.

#: Celery name of the Test Bot task (``bots.tasks``), routed to :data:`TRIALS_QUEUE`.
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
    return max(1, int(settings.BOTS_TEST_RUNS_PER_USER))


def _run_key(run_id: str) -> str:
    return f"bots:test-run:{run_id}"


def _slot_key(user_id: int, slot: int) -> str:
    return f"bots:test-run-slot:{user_id}:{slot}"


def bot_test_run_start(*, user: User, code: str, game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Start a Test Bot run of ``code`` on ``game``'s samples on a ``trials`` worker; returns its
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
        schedule(TEST_RUN_TASK, [run_id], delay=0, queue=TRIALS_QUEUE)
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
    ``not_finished``, ``deal_in_play``, ``not_your_seat``, ``no_such_move``, ``wrong_game``,
    ``wrong_bot``)."""

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
        "deal_in_play": _(
            "These cards are still being played in another game; the lab opens once every "
            "game of this deal is over."
        ),
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
            move_text = describe_move_text(action, engine.name)
            new |= {
                "legal": True,
                "action": shown,
                "move_text": str(move_text),  # English; translated where it is shown
                "i18n": {"move_text": move_text.to_json()},
            }
    original = bot_lab_original(move)
    before = original.get("move") if original.get("strike") is None else None
    before_text = describe_move_text(before, engine.name)
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
        # every field of the action as the engine has it, but who made it
        return {k: sorted(v) if k == "cards" else v for k, v in m.items() if k != "seat"}

    return pick(a) == pick(b)
