"""Judging bots with the engine: Test Bot's sample runs and the validation game.

Pure Python (engine + sandbox, no Django); ``bots.services`` stores what these return.

* :func:`run_samples` runs code against the fixed :mod:`bots.samples`, each in a fresh sandbox,
  and judges every returned move with ``GAME.parse_bot_move``.
* :func:`play_validation_game` plays one whole game of the code against copies of itself, one
  sandbox per seat kept for the whole game (globals persist), with the live-table rules for
  failures: a failed or illegal move is an auto-pass (the house policy moves) and a strike —
  one game at every seat count the game allows (a bot that misbehaves only at 2-seat tables
  fails), unless ``players`` names one.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from typing import Any

from bots.error_text import error_text
from bots.samples import SampleCase, Text, line_as_text, sample_cases, text
from bots.sandbox import BotProcess, ErrorCode, MoveOutcome, SandboxLimits, run_once
from games.engine.core.text import gettext_noop
from games.engine.registry import DEFAULT_GAME, find_game

__all__ = [
    "FATAL_CODES",
    "STRIKES_TO_DISQUALIFY",
    "SampleResult",
    "ValidationReport",
    "describe_move",
    "play_one_validation_game",
    "play_validation_game",
    "run_samples",
    "validation_players",
    "validation_seat_counts",
]

STRIKES_TO_DISQUALIFY = 3
#: Failures that fail validation at once ("a version that crashes or times out").
FATAL_CODES = frozenset({ErrorCode.TIMEOUT, ErrorCode.CRASHED, ErrorCode.MEMORY})
#: ``Math.random`` seed of Test Bot runs, so a random bot's results repeat.
TEST_SEED = 20240501
RECORD_CONSOLE_LINES = 10
MAX_RECORDS = 400
SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def card_label(card_id: str) -> str:
    """``"10H"`` → ``"10♥"``.

    >>> card_label("10H"), card_label("3S")
    ('10♥', '3♠')
    """
    return card_id[:-1] + SUIT_SYMBOLS.get(card_id[-1], card_id[-1])


def describe_move_text(action: dict[str, Any] | None, game: str) -> Text:
    """:func:`describe_move` as a :class:`~bots.samples.Text` (translated where it is shown).

    >>> describe_move_text({"type": "pass", "seat": 0}, "tienlen").msgid
    'Passed'
    """
    if not action:
        return text("")
    kind = str(action.get("type", ""))
    if kind == "pass":
        return text(gettext_noop("Passed"))
    if kind == "play" and action.get("cards"):
        cards = " ".join(card_label(c) for c in action.get("cards", []))
        return text(gettext_noop("Played {cards}"), cards=cards)
    label = find_game(game).action_labels.get(kind)  # each game labels its own actions
    move = text(label) if label else text("{kind}", kind=kind.replace("_", " ").capitalize())
    # the action's other plain fields, as the engine gave them (a claim's name, a card…)
    details = [
        str(v)
        for k, v in action.items()
        if k not in ("type", "seat", "cards") and isinstance(v, (str, int)) and v is not True
    ]
    if details:
        move = text("{move} {details}", move=move, details=" ".join(details))
    if action.get("cards"):
        cards = " ".join(str(c) for c in action["cards"])
        move = text(gettext_noop("{move} with {cards}"), move=move, cards=cards)
    return move


def describe_move(action: dict[str, Any] | None, game: str) -> str:
    """A short human text for an engine action of ``game`` (English): its label from the
    game's ``action_labels``, else the type capitalised.

    >>> describe_move({"type": "play", "seat": 0, "cards": ["3S", "4S"]}, "tienlen")
    'Played 3♠ 4♠'
    >>> describe_move({"type": "pass", "seat": 0}, "diu")
    'Passed'
    >>> describe_move({"type": "bring_in", "seat": 1}, "stud")
    'Bring in'
    >>> describe_move({"type": "claim", "seat": 1, "claim": "hard_pair", "cards": ["66"]}, "diu")
    'Claim hard_pair with 66'
    >>> describe_move({"type": "discard", "seat": 2, "card": "56"}, "diu")
    'Discard 56'
    >>> describe_move({"type": "big_blind", "seat": 2}, "stud")
    'Big blind'
    """
    return str(describe_move_text(action, game))


# --------------------------------------------------------------------------- Test Bot


@dataclass(frozen=True)
class SampleResult:
    """One sample of a Test Bot run: ✓ with the move, or ✗ with the reason."""

    index: int
    key: str
    title: str
    description: str
    ok: bool
    hand: list[str]
    table: str
    move: dict[str, Any] | None = None
    """The bot's raw return (when the sandbox produced one)."""
    action: dict[str, Any] | None = None
    """The engine action it stands for (only when the engine accepted it)."""
    move_text: str = ""
    error_code: str | None = None
    """A sandbox code (``timeout``, ``exception``…), an engine code (``does_not_beat``…), or
    ``not_run`` when the run's time budget ran out before this sample."""
    error_kind: str | None = None
    """``sandbox``, ``rules`` or ``not_run``."""
    error_message: str | None = None
    console: list[str] = field(default_factory=list)
    console_truncated: bool = False
    elapsed_ms: float = 0.0
    i18n: dict[str, Any] = field(default_factory=dict)
    """The messages of ``title``, ``description``, ``table``, ``move_text`` and a ``not_run``
    ``error_message`` (``Text.to_json()``), translated where the result is shown
    (:func:`bots.samples.localize_result`)."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["elapsed_ms"] = round(self.elapsed_ms, 2)
        return data


def _situation(case: SampleCase) -> tuple[list[str], Text]:
    """The sample's hand (labels) and a line about the table, for the Test Bot list: the
    game's ``sample_situation``, else no hand and the sample's description."""
    situation = find_game(case.game).sample_situation(case.view())
    if situation is None:
        return [], case.description_text
    hand, table = situation
    return list(hand), line_as_text(table)


def _common(case: SampleCase, index: int) -> dict[str, Any]:
    """The fields of ``case``'s result that do not depend on the bot: English text plus its
    messages (``i18n``) for the reader's language."""
    hand, table = _situation(case)
    return {
        "index": index,
        "key": case.key,
        "title": case.title,
        "description": case.description,
        "hand": hand,
        "table": str(table),
        "i18n": {
            "title": case.title_text.to_json(),
            "description": case.description_text.to_json(),
            "table": table.to_json(),
        },
    }


def judge_sample(case: SampleCase, index: int, outcome: MoveOutcome) -> SampleResult:
    """Turn a sandbox outcome for ``case`` into a result judged by the engine."""
    common: dict[str, Any] = _common(case, index) | {
        "console": list(outcome.console),
        "console_truncated": outcome.console_truncated,
        "elapsed_ms": outcome.elapsed_ms,
    }
    if not outcome.ok:
        message = error_text(str(outcome.error_code), outcome.error_message)
        common["i18n"]["error_message"] = message.to_json()
        return SampleResult(
            ok=False,
            error_code=str(outcome.error_code),
            error_kind="sandbox",
            error_message=str(message),
            **common,
        )
    try:
        engine: Any = find_game(case.game)  # the bot API is not in the Game protocol
        action = engine.parse_bot_move(case.state, case.seat, outcome.value)
    except ValueError as exc:
        code = str(getattr(exc, "code", "illegal_move"))
        message = error_text(code, getattr(exc, "detail", None) or str(exc))
        common["i18n"]["error_message"] = message.to_json()
        return SampleResult(
            ok=False,
            move=outcome.value,
            error_code=code,
            error_kind="rules",
            error_message=str(message),
            **common,
        )
    move_text = describe_move_text(action, case.game)
    common["i18n"] = common["i18n"] | {"move_text": move_text.to_json()}
    return SampleResult(
        ok=True, move=outcome.value, action=action, move_text=str(move_text), **common
    )


def run_samples(
    code: str,
    *,
    game: str = DEFAULT_GAME,
    timeout_s: float = 5.0,
    budget_s: float = 30.0,
    workers: int | None = None,
) -> list[SampleResult]:
    """Run ``code`` on every sample of ``game``, each in a fresh sandbox (no state carries
    over).

    Samples run a few at a time; a sample not started within ``budget_s`` is reported as
    ``not_run`` so an always-looping bot cannot hold the caller for a minute.
    """
    cases = sample_cases(game)
    limits = SandboxLimits(move_timeout_s=timeout_s, load_timeout_s=timeout_s)
    deadline = time.monotonic() + budget_s

    def run(index: int) -> SampleResult:
        case = cases[index]
        if time.monotonic() > deadline:
            common = _common(case, index)
            message = text(
                gettext_noop("not run: the test's time budget ({seconds} s) ran out"),
                seconds=f"{budget_s:g}",
            )
            common["i18n"]["error_message"] = message.to_json()
            return SampleResult(
                ok=False,
                **common,
                error_code="not_run",
                error_kind="not_run",
                error_message=str(message),
            )
        outcome = run_once(code, case.view(), limits=limits, seed=TEST_SEED)
        return judge_sample(case, index, outcome)

    count = workers or max(1, min(4, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=count, thread_name_prefix="bot-test") as pool:
        return list(pool.map(run, range(len(cases))))


# --------------------------------------------------------------------------- validation game


@dataclass
class ValidationReport:
    """The outcome of a validation game; ``summary()`` is what is stored on the version."""

    ready: bool
    reason: str | None = None
    message: str = ""
    game: str = DEFAULT_GAME
    rules_version: str = ""
    seed: int = 0
    players: int = 4
    moves: int = 0
    bot_moves_ok: int = 0
    strikes: list[int] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)
    elapsed_ms: list[float] = field(default_factory=list)
    wall_ms: float = 0.0
    finished: bool = False
    winner: int | None = None
    scores: list[int] | None = None
    first_failure: dict[str, Any] | None = None
    load_console: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    #: One line per seat count played: ``{"players", "ready", "reason", "moves"}``.
    seat_counts: list[dict[str, Any]] = field(default_factory=list)
    #: ``message`` as a :class:`Text` to translate (stored as ``message_i18n``).
    message_text: Text | None = None

    def say(self, msgid: str, **params: str | Text) -> None:
        """Set the message: ``msgid`` (marked with ``gettext_noop``) with its params."""
        self.message_text = text(msgid, **params)
        self.message = str(self.message_text)

    def text(self) -> Text:
        """The message as a :class:`Text` (a plain one for a message set without :meth:`say`)."""
        return self.message_text or text("{message}", message=self.message)

    def summary(self) -> dict[str, Any]:
        times = self.elapsed_ms
        return {
            "ready": self.ready,
            "reason": self.reason,
            "message": self.message,
            "message_i18n": self.message_text.to_json() if self.message_text else None,
            "game": self.game,
            "seed": self.seed,
            "players": self.players,
            "rules_version": self.rules_version,
            "moves": self.moves,
            "bot_moves_ok": self.bot_moves_ok,
            "strikes": list(self.strikes),
            "failures": dict(self.failures),
            "avg_ms": round(sum(times) / len(times), 2) if times else None,
            "max_ms": round(max(times), 2) if times else None,
            "wall_ms": round(self.wall_ms, 1),
            "finished": self.finished,
            "winner": self.winner,
            "scores": self.scores,
            "first_failure": self.first_failure,
            "load_console": self.load_console[:RECORD_CONSOLE_LINES],
            "records": self.records,
            "seat_counts": [dict(line) for line in self.seat_counts],
        }

    def seat_count_line(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "ready": self.ready,
            "reason": self.reason,
            "moves": self.moves,
        }


def validation_players(game: str) -> int:
    """Seats of ``game``'s validation game: the game's ``sample_players`` (Tiến Lên and Diu
    4, Diu's fourth seat D sitting the hand out; stud 3); otherwise the engine's smallest
    table of at least 3.

    >>> [validation_players(g) for g in ("tienlen", "stud", "diu")]
    [4, 3, 4]
    """
    engine = find_game(game)
    wanted = engine.sample_players or 3
    return max(engine.min_players, min(engine.max_players, wanted))


def validation_seat_counts(game: str) -> list[int]:
    """Every seat count ``game`` allows, :func:`validation_players`' first.

    >>> [validation_seat_counts(g) for g in ("tienlen", "stud", "diu")]
    [[4, 2, 3], [3, 2, 4, 5, 6, 7], [4]]
    """
    engine = find_game(game)
    first = validation_players(game)
    rest = range(engine.min_players, engine.max_players + 1)
    return [first, *(n for n in rest if n != first)]


def play_validation_game(
    code: str,
    *,
    seed: int,
    game: str = DEFAULT_GAME,
    players: int | None = None,
    move_timeout_s: float = 5.0,
    budget_s: float = 120.0,
    limits: SandboxLimits | None = None,
    max_moves: int = 2000,
) -> ValidationReport:
    """Validate ``code`` at every seat count ``game`` allows (:func:`validation_seat_counts`),
    or only at ``players``: one :func:`play_one_validation_game` per count, all within one
    ``budget_s``. The first count that is not ready decides (its report, the message saying
    the count); when all are ready, the report of the first count (:func:`validation_players`).
    ``seat_counts`` lists each count played."""
    counts = [players] if players else validation_seat_counts(game)
    started = time.monotonic()
    lines: list[dict[str, Any]] = []
    first: ValidationReport | None = None
    for count in counts:
        left = max(0.0, budget_s - (time.monotonic() - started))
        report = play_one_validation_game(
            code,
            seed=seed,
            game=game,
            players=count,
            move_timeout_s=move_timeout_s,
            budget_s=left,
            limits=limits,
            max_moves=max_moves,
        )
        lines.append(report.seat_count_line())
        if not report.ready:
            if len(counts) > 1:
                report.say(
                    gettext_noop("at a {count}-seat table: {message}"),
                    count=str(count),
                    message=report.text(),
                )
            report.seat_counts = lines
            return report
        first = first or report
    assert first is not None
    first.seat_counts = lines
    first.wall_ms = (time.monotonic() - started) * 1000
    if len(lines) > 1:
        others = ", ".join(str(line["players"]) for line in lines[1:])
        first.say(
            gettext_noop("{message}; full games at {others} seats too"),
            message=first.text(),
            others=others,
        )
    return first


def play_one_validation_game(
    code: str,
    *,
    seed: int,
    game: str = DEFAULT_GAME,
    players: int | None = None,
    move_timeout_s: float = 5.0,
    budget_s: float = 120.0,
    limits: SandboxLimits | None = None,
    max_moves: int = 2000,
) -> ValidationReport:
    """Play one game of ``game`` of ``code`` against copies of itself, one per seat
    (``players``, default :func:`validation_players`). The seat to act is the engine's
    pending seat (``round_status``), so a game whose prompts are not in seat order (Diu's
    claim polls) is played as at a live table; a seat never asked (Diu's D) just idles.

    Not ready when: the code does not load; any move times out, runs out of memory or crashes
    the sandbox; one seat collects 3 strikes (exceptions, bad returns, illegal moves); the
    game ends without a single legal move of the bot (``no_legal_move``: a stud hand may fold
    out before anyone collects 3 strikes); or the whole game takes longer than ``budget_s``.
    The sandboxes are started from the calling thread (their parent-death signal is tied to
    it).
    """
    engine: Any = find_game(game)  # the bot API (bot_view…) is not in the Game protocol
    players = players or validation_players(game)
    limits = limits or SandboxLimits(move_timeout_s=move_timeout_s, load_timeout_s=move_timeout_s)
    report = ValidationReport(
        ready=False,
        game=game,
        rules_version=engine.rules_version,
        seed=seed,
        players=players,
        strikes=[0] * players,
    )
    started = time.monotonic()
    failures: Counter[str] = Counter()
    state = engine.new_game({"players": players}, seed=seed)
    while state.finished:  # an instant win (tới trắng) deal: nothing to play, deal again
        seed += 1_000_003
        state = engine.new_game({"players": players}, seed=seed)
    report.seed = seed
    with ExitStack() as stack:
        bots: list[BotProcess] = []
        for seat in range(players):
            bot = stack.enter_context(BotProcess(code, limits=limits, seed=seed * 8 + seat))
            bots.append(bot)
            if not _loaded(report, bot, seat):
                report.wall_ms = (time.monotonic() - started) * 1000
                return report
        while not state.finished and report.moves < max_moves:
            if time.monotonic() - started > budget_s:
                report.reason = "too_slow"
                report.say(
                    gettext_noop("the validation game took longer than {seconds} s"),
                    seconds=f"{budget_s:g}",
                )
                break
            pending = engine.round_status(state).pending
            if not pending:
                break
            seat = pending[0]
            outcome = bots[seat].move(engine.bot_view(state, seat), timeout_s=move_timeout_s)
            report.elapsed_ms.append(outcome.elapsed_ms)
            error_code: str | None = None
            error_message: str | None = None
            action: dict[str, Any] | None = None
            if outcome.ok:
                try:
                    action = dict(engine.parse_bot_move(state, seat, outcome.value))
                except ValueError as exc:
                    error_code = f"illegal:{getattr(exc, 'code', 'illegal_move')}"
                    error_message = str(exc)
            else:
                error_code = str(outcome.error_code)
                error_message = outcome.error_message
            auto = action is None
            if action is None:
                action = dict(engine.timeout_action(state, seat))
                report.strikes[seat] += 1
                failures[str(error_code)] += 1
            else:
                report.bot_moves_ok += 1
            report.moves += 1
            _record(report, seat, action, auto, outcome, error_code, error_message)
            if not outcome.ok and outcome.error_code in FATAL_CODES:
                report.reason = str(outcome.error_code)
                report.say(
                    gettext_noop("move {n} (seat {seat}): {error}"),
                    n=str(report.moves),
                    seat=str(seat),
                    error=error_text(error_code, error_message),
                )
                break
            if report.strikes[seat] >= STRIKES_TO_DISQUALIFY:
                report.reason = "strikes"
                report.say(
                    gettext_noop("seat {seat} collected {n} strikes (last: {error})"),
                    seat=str(seat),
                    n=str(STRIKES_TO_DISQUALIFY),
                    error=error_text(error_code, error_message),
                )
                break
            state, _events = engine.apply(state, action)
    report.failures = dict(failures)
    report.wall_ms = (time.monotonic() - started) * 1000
    _conclude(report, engine, state, max_moves)
    return report


def _loaded(report: ValidationReport, bot: BotProcess, seat: int) -> bool:
    """Whether ``bot`` (of ``seat``) loaded its code; if not, the report says why."""
    load = bot.load_outcome
    if seat == 0:
        report.load_console = list(load.console)
    if load.ok:
        return True
    report.reason = f"load:{load.error_code}"
    report.say(
        gettext_noop("the code could not be loaded: {error}"),
        error=error_text(str(load.error_code), load.error_message),
    )
    report.first_failure = {
        "move": 0,
        "seat": seat,
        "error_code": str(load.error_code),
        "error_message": load.error_message,
        "console": list(load.console[:RECORD_CONSOLE_LINES]),
    }
    return False


def _record(
    report: ValidationReport,
    seat: int,
    action: dict[str, Any],
    auto: bool,
    outcome: Any,
    error_code: str | None,
    error_message: str | None,
) -> None:
    """Keep the move just played (the first ``MAX_RECORDS``) and the game's first failure."""
    console = list(outcome.console[:RECORD_CONSOLE_LINES])
    if len(report.records) < MAX_RECORDS:
        report.records.append(
            {
                "n": report.moves,
                "seat": seat,
                "move": describe_move(action, report.game),
                "auto": auto,
                "ms": round(outcome.elapsed_ms, 2),
                "error_code": error_code,
                "error_message": error_message,
                "console": console,
            }
        )
    if error_code is not None and report.first_failure is None:
        report.first_failure = {
            "move": report.moves,
            "seat": seat,
            "error_code": error_code,
            "error_message": error_message,
            "console": console,
        }


def _conclude(report: ValidationReport, engine: Any, state: Any, max_moves: int) -> None:
    """The verdict once play stopped: ready when the game finished with a legal move of the bot
    and nothing stopped it before."""
    report.finished = state.finished
    if state.finished:
        result = engine.result(state) or {}
        report.winner = result.get("winner")
        scores = result.get("scores")
        report.scores = list(scores) if isinstance(scores, list) else None
        if report.reason is None and report.bot_moves_ok == 0:
            # a short game (a stud hand that folds out) can end before 3 strikes
            report.reason = "no_legal_move"
            report.say(
                gettext_noop("the game ended after {n} moves without one legal move"),
                n=str(report.moves),
            )
        if report.reason is None:
            report.ready = True
            strikes = sum(report.strikes)
            if strikes:
                report.say(
                    gettext_noop("played a full game: {n} moves, {strikes} strike(s)"),
                    n=str(report.moves),
                    strikes=str(strikes),
                )
            else:
                report.say(
                    gettext_noop("played a full game: {n} moves, no strikes"), n=str(report.moves)
                )
    elif report.reason is None:
        report.reason = "unfinished"
        report.say(gettext_noop("the game did not finish within {n} moves"), n=str(max_moves))
