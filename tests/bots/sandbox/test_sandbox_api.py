"""Sandbox API: legit bots, persistence, isolation, lifecycle, syntax check, parent safety."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from bots.sandbox import (
    BotProcess,
    ErrorCode,
    MoveOutcome,
    SandboxLimits,
    SyntaxIssue,
    check_syntax,
    run_once,
)
from bots.sandbox.replies import _cap_console, _clean_text

from .conftest import FAST, child_pids

LEGIT_BOT = """
// Plays the lowest single that beats the table, otherwise passes.
function getNextMove(gameState) {
  var singles = gameState.validMoves.filter(function (m) { return m.type === "single"; });
  if (singles.length === 0) return {action: "pass"};
  singles.sort(function (a, b) { return a.cards[0].value - b.cards[0].value; });
  return {action: "play", cards: singles[0].cards};
}
"""


def test_defaults_follow_the_issue() -> None:
    limits = SandboxLimits()
    assert limits.move_timeout_s == 5.0
    assert limits.heap_limit_bytes == 50 * 1024 * 1024


def test_legit_bot_returns_the_expected_move(game_state: dict[str, Any]) -> None:
    outcome = run_once(LEGIT_BOT, game_state)
    assert outcome.ok, outcome
    assert outcome.error_code is None
    assert outcome.value == {"action": "play", "cards": [{"rank": "5", "suit": "S", "value": 4}]}
    assert outcome.console == []
    assert 0 < outcome.elapsed_ms < 1000
    assert outcome.wall_ms >= outcome.elapsed_ms


def test_state_can_be_passed_as_json_text(game_state: dict[str, Any]) -> None:
    outcome = run_once(LEGIT_BOT, json.dumps(game_state))
    assert outcome.value == {"action": "play", "cards": [{"rank": "5", "suit": "S", "value": 4}]}


def test_lexical_entry_point_and_unicode(game_state: dict[str, Any]) -> None:
    code = 'const getNextMove = (s) => ({action: "pass", note: "Tiến Lên ♠ " + s.myCards.length});'
    assert run_once(code, game_state).value == {"action": "pass", "note": "Tiến Lên ♠ 7"}


def test_record_is_json_serialisable(game_state: dict[str, Any]) -> None:
    ok = run_once(LEGIT_BOT, game_state).to_record()
    bad = run_once("function getNextMove() { return 1; }", {}).to_record()
    json.dumps([ok, bad])
    assert ok["error_code"] is None
    assert bad["error_code"] == "bad_return"
    assert set(ok) == {"ok", "value", "error_code", "error_message", "console",
                       "console_truncated", "elapsed_ms"}  # fmt: skip


def test_globals_persist_between_moves_and_state_is_fresh() -> None:
    code = """
    var seen = [];
    function getNextMove(s) { seen.push(s.turn); s.mutated = true; return {seen: seen}; }"""
    with BotProcess(code) as bot:
        for turn in range(1, 4):
            outcome = bot.move({"turn": turn})
            assert outcome.value == {"seen": list(range(1, turn + 1))}


def test_two_sessions_are_isolated() -> None:
    code = """
    var mine = null;
    function getNextMove(s) {
      if (s.set) { mine = s.set; globalThis.shared = s.set; Object.prototype.leak = s.set; }
      var shared = typeof globalThis.shared === "undefined" ? null : globalThis.shared;
      return {mine: mine, shared: shared, leak: ({}).leak || null};
    }"""
    with BotProcess(code) as a, BotProcess(code) as b:
        assert a.pid != b.pid
        assert a.move({"set": "A"}).value == {"mine": "A", "shared": "A", "leak": "A"}
        assert b.move({}).value == {"mine": None, "shared": None, "leak": None}
        assert b.move({"set": "B"}).value == {"mine": "B", "shared": "B", "leak": "B"}
        assert a.move({}).value == {"mine": "A", "shared": "A", "leak": "A"}


def test_seeded_math_random_is_reproducible() -> None:
    code = "function getNextMove() { return {r: [Math.random(), Math.random()]}; }"
    first = run_once(code, {}, seed=1234).value
    again = run_once(code, {}, seed=1234).value
    other = run_once(code, {}, seed=99).value
    assert first == again
    assert first != other


def test_close_is_idempotent_and_kills_the_child() -> None:
    bot = BotProcess(LEGIT_BOT)
    assert bot.start().ok
    pid = bot.pid
    assert pid is not None
    assert pid in child_pids()
    bot.close()
    bot.close()
    assert not bot.alive
    assert pid not in child_pids()
    assert bot.move({"validMoves": []}).error_code == ErrorCode.CRASHED


def test_start_twice_is_an_error() -> None:
    with BotProcess(LEGIT_BOT) as bot, pytest.raises(RuntimeError):
        bot.start()


def test_move_starts_lazily() -> None:
    bot = BotProcess(LEGIT_BOT)
    try:
        assert bot.move({"validMoves": []}).value == {"action": "pass"}
        assert bot.load_outcome.ok
    finally:
        bot.close()


def test_restart_after_timeout_kill_gives_a_working_bot() -> None:
    with BotProcess("function getNextMove() { while (true) {} }", limits=FAST) as bot:
        assert bot.move({}).error_code == ErrorCode.TIMEOUT
        assert bot.restart().ok
        assert bot.alive


def test_caller_errors_raise() -> None:
    with BotProcess(LEGIT_BOT) as bot:
        with pytest.raises(ValueError, match="Out of range float"):
            bot.move({"x": float("nan")})
        with pytest.raises(ValueError, match="timeout_s"):
            bot.move({}, timeout_s=0)
        small = BotProcess(LEGIT_BOT, limits=SandboxLimits(max_state_bytes=10))
        with pytest.raises(ValueError, match="larger than"):
            small.move({"validMoves": []})
        small.close()


def test_sequential_sessions_do_not_leak_processes() -> None:
    before = child_pids()
    codes = [
        LEGIT_BOT,
        "function getNextMove() { while (true) {} }",  # V8 timeout, child survives
        "function getNextMove() { var a = []; while (true) a.push(new Array(1e5).fill(1)); }",
        "function getNextMove() { Promise.resolve().then(() => { for (;;) {} }); return {}; }",
        "function getNextMove( {",
        "while (true) {}",
    ]
    for _ in range(2):
        for code in codes:
            with BotProcess(code, limits=FAST) as bot:
                bot.move({"validMoves": []})
    abandoned = BotProcess(LEGIT_BOT)
    abandoned.start()
    del abandoned  # garbage collection kills the child too
    assert child_pids() == before


# --------------------------------------------------------------------------- syntax check


def test_check_syntax_accepts_valid_code_without_running_it() -> None:
    # If any of this ran, the check would time out instead of returning [].
    code = "while (true) {}\nfunction getNextMove() { return {action: 'pass'}; }"
    started = time.monotonic()
    assert check_syntax(code, timeout_s=1.0) == []
    assert time.monotonic() - started < 10


def test_check_syntax_reports_line_and_column() -> None:
    issues = check_syntax("function getNextMove(s) {\n  return {action: 'pass';\n}\n")
    assert issues == [SyntaxIssue(line=2, column=25, message="SyntaxError: Unexpected token ';'")]


def test_check_syntax_incomplete_code() -> None:
    issues = check_syntax("var a = 1;\nfunction f( {\n}")
    assert issues == [SyntaxIssue(line=3, column=2, message="SyntaxError: Unexpected end of input")]


@pytest.mark.parametrize(
    ("code", "fragment"),
    [
        ('"use strict";\nvar x = 010;', "Octal literals"),
        ("let undefined = 1;", "already been declared"),
        ("let a = 1; let a = 2;", "already been declared"),
        ("import x from 'y';", "import"),
        ("})(); while (true) {} (function () {", "Unexpected token"),
    ],
)
def test_check_syntax_errors(code: str, fragment: str) -> None:
    issues = check_syntax(code)
    assert len(issues) == 1
    assert fragment in issues[0].message


def test_check_syntax_matches_load_behaviour() -> None:
    code = "function getNextMove( {"
    with BotProcess(code, limits=FAST) as bot:
        assert bot.load_outcome.error_code == ErrorCode.SYNTAX
    assert check_syntax(code) != []


# --------------------------------------------------------------------------- parent robustness


def fake_python(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-python"
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_parent_kills_an_unresponsive_child(tmp_path: Path) -> None:
    limits = SandboxLimits(startup_timeout_s=0.5, load_timeout_s=0.2, grace_s=0.2)
    before = child_pids()
    started = time.monotonic()
    bot = BotProcess(LEGIT_BOT, limits=limits, python=fake_python(tmp_path, "exec sleep 60"))
    outcome = bot.start()
    assert time.monotonic() - started < 5
    assert outcome.error_code == ErrorCode.TIMEOUT
    assert "killed" in (outcome.error_message or "")
    assert child_pids() == before
    bot.close()


def test_child_that_exits_is_crashed(tmp_path: Path) -> None:
    bot = BotProcess(LEGIT_BOT, python=fake_python(tmp_path, "exit 7"))
    outcome = bot.start()
    assert outcome.error_code == ErrorCode.CRASHED
    assert "status 7" in (outcome.error_message or "")


def test_child_speaking_garbage_is_crashed(tmp_path: Path) -> None:
    bot = BotProcess(
        LEGIT_BOT, python=fake_python(tmp_path, "printf 'garbage-garbage-garbage'; sleep 60")
    )
    outcome = bot.start()
    assert outcome.error_code == ErrorCode.CRASHED
    bot.close()


def test_child_dying_with_oom_message_is_memory(tmp_path: Path) -> None:
    body = "echo 'Fatal JavaScript out of memory: Reached heap limit' >&2; kill -TRAP $$"
    outcome = BotProcess(LEGIT_BOT, python=fake_python(tmp_path, body)).start()
    assert outcome.error_code == ErrorCode.MEMORY


def test_parent_deadline_when_v8_cannot_interrupt() -> None:
    # Array.prototype.fill on a huge array does not check for termination: V8's timeout
    # cannot stop it, so the parent's wall clock must (or V8 aborts on OOM first).
    code = "function getNextMove() { var a = new Array(2e8).fill(0.5); return {n: a.length}; }"
    started = time.monotonic()
    outcome = run_once(code, {}, limits=SandboxLimits(move_timeout_s=0.3, grace_s=0.5))
    assert time.monotonic() - started < 10
    assert outcome.error_code in {ErrorCode.TIMEOUT, ErrorCode.MEMORY}


# --------------------------------------------------------------------------- helpers


def test_clean_text() -> None:
    assert _clean_text("a\x00b") == "a\ufffdb"
    assert _clean_text("x\ud800y") == "x\ufffdy"
    assert _clean_text("Tiến") == "Tiến"


def test_parent_reapplies_console_caps() -> None:
    limits = SandboxLimits(max_console_lines=2, max_console_chars=5)
    assert _cap_console(["abc", "defg", "h"], False, limits) == (["abc", "de", "[truncated]"], True)
    assert _cap_console(["a", 5, None, "b", "c"], False, limits) == (
        ["a", "b", "[truncated]"],
        True,
    )
    assert _cap_console("nope", False, limits) == ([], False)
    assert _cap_console(["a", "[truncated]"], True, limits) == (["a", "[truncated]"], True)


def test_failure_constructor() -> None:
    outcome = MoveOutcome.failure(ErrorCode.CRASHED, "x", console=["a"])
    assert not outcome.ok
    assert outcome.value is None
    assert outcome.console == ["a"]
    assert str(ErrorCode.BAD_RETURN) == "bad_return"
