"""Hostile-bot suite: every case is contained, the session answers, the right code is set.

Each case runs twice (``sandbox_mode``): one process per bot, and as a context of a warm pool
child shared with a neighbour bot, which must come out unharmed (conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bots.sandbox import BotProcess, ErrorCode, PooledBot, SandboxLimits, run_once

from .conftest import FAST

pytestmark = pytest.mark.usefixtures("sandbox_mode")

# Memory bombs get a long time budget so that the memory limit, not the clock, trips first
# even on a slow or busy machine.
MEM = SandboxLimits(move_timeout_s=5.0, load_timeout_s=5.0, grace_s=2.0)


def one_move(code: str, state: dict[str, Any] | None = None, limits: SandboxLimits = FAST) -> Any:
    return run_once(code, state if state is not None else {}, limits=limits)


# --------------------------------------------------------------------------- time


def test_endless_loop_times_out_and_session_survives() -> None:
    code = """
    var calls = 0;
    function getNextMove(s) {
      calls++;
      if (calls === 1) { while (true) {} }
      return {action: "pass", calls: calls};
    }"""
    with BotProcess(code, limits=FAST) as bot:
        first = bot.move({})
        assert first.error_code == ErrorCode.TIMEOUT
        assert not first.ok
        assert first.elapsed_ms >= 450
        # V8 terminated the script; the context (and its globals) is still usable.
        second = bot.move({})
        assert second.ok, second
        assert second.value == {"action": "pass", "calls": 2}


def test_endless_loop_cannot_catch_termination() -> None:
    code = """function getNextMove() {
      for (;;) { try { while (true) {} } catch (e) {} finally { continue; } }
    }"""
    assert one_move(code).error_code == ErrorCode.TIMEOUT


def test_slow_first_move_at_load_time_is_reported_as_timeout() -> None:
    code = "while (true) {}\nfunction getNextMove() { return {action: 'pass'}; }"
    with BotProcess(code, limits=FAST) as bot:
        assert bot.load_outcome.error_code == ErrorCode.TIMEOUT
        assert not bot.alive
        outcome = bot.move({})
        assert outcome.error_code == ErrorCode.TIMEOUT
        assert "could not be loaded" in (outcome.error_message or "")


def test_runaway_promise_callback_is_a_timeout_and_ends_the_process() -> None:
    # mini-racer runs microtasks after the call returns; the fence must catch them.
    code = """function getNextMove() {
      Promise.resolve().then(() => { while (true) {} });
      return {action: "pass"};
    }"""
    with BotProcess(code, limits=FAST) as bot:
        assert bot.move({}).error_code == ErrorCode.TIMEOUT
        assert not bot.alive
        assert bot.move({}).error_code == ErrorCode.CRASHED


def test_runaway_async_function_is_a_timeout() -> None:
    code = """async function spin() { await null; while (true) {} }
    function getNextMove() { spin(); return {action: "pass"}; }"""
    assert one_move(code).error_code == ErrorCode.TIMEOUT


def test_catastrophic_regex_times_out() -> None:
    code = """function getNextMove() {
      /^(a+)+$/.test("a".repeat(40) + "b"); return {action: "pass"};
    }"""
    assert one_move(code).error_code == ErrorCode.TIMEOUT


# --------------------------------------------------------------------------- memory


def test_memory_bomb_is_contained_and_session_can_restart() -> None:
    code = """
    var calls = 0;
    function getNextMove(s) {
      calls++;
      if (s.bomb) { var hog = []; while (true) hog.push(new Array(100000).fill(1.5)); }
      return {action: "pass", calls: calls};
    }"""
    with BotProcess(code, limits=MEM) as bot:
        pid = bot.pid
        assert bot.move({}).value == {"action": "pass", "calls": 1}
        outcome = bot.move({"bomb": True})
        assert outcome.error_code == ErrorCode.MEMORY
        assert not bot.alive
        after = bot.move({})
        assert after.error_code == ErrorCode.CRASHED
        assert "restart()" in (after.error_message or "")
        assert bot.restart().ok
        if not isinstance(bot, PooledBot):  # a warm pool child may host the fresh context
            assert bot.pid != pid
        fresh = bot.move({})
        assert fresh.ok, fresh
        assert fresh.value == {"action": "pass", "calls": 1}  # globals were reset


def test_memory_bomb_with_huge_strings() -> None:
    code = """function getNextMove() {
      var keep = []; for (var i = 0; ; i++) keep.push("x".repeat(1000) + i);
    }"""
    assert one_move(code, limits=MEM).error_code == ErrorCode.MEMORY


def test_single_huge_allocation_kills_v8_and_is_counted_as_memory() -> None:
    # 30M doubles = 240 MB in one allocation: V8 aborts the process (fatal OOM).
    code = "function getNextMove() { var a = new Array(3e7).fill(0.5); return {n: a.length}; }"
    assert one_move(code, limits=MEM).error_code == ErrorCode.MEMORY


def test_off_heap_array_buffer_bomb_is_memory() -> None:
    code = (
        "function getNextMove() { var b = new Uint8Array(1e9); b.fill(1); return {n: b.length}; }"
    )
    assert one_move(code).error_code == ErrorCode.MEMORY


def test_small_typed_arrays_still_work() -> None:
    code = "function getNextMove() { var b = new Float64Array(1e5); b.fill(2); return {n: b[9]}; }"
    outcome = one_move(code)
    assert outcome.ok
    assert outcome.value == {"n": 2}


def test_parent_survives_memory_bomb_at_load() -> None:
    code = "var hog = []; while (true) hog.push(new Array(100000).fill(1.5));"
    with BotProcess(code, limits=MEM) as bot:
        assert bot.load_outcome.error_code == ErrorCode.MEMORY
        assert bot.move({}).error_code == ErrorCode.MEMORY


# --------------------------------------------------------------------------- recursion, throwing


def test_deep_recursion_is_a_range_error_exception() -> None:
    outcome = one_move(
        "function f(n) { return f(n + 1) + 1; }\nfunction getNextMove() { return f(0); }"
    )
    assert outcome.error_code == ErrorCode.EXCEPTION
    assert "RangeError" in (outcome.error_message or "")
    assert "call stack" in (outcome.error_message or "")


def test_throwing_reports_the_message_and_line() -> None:
    code = 'function getNextMove(s) {\n  var x = 1;\n  throw new TypeError("no good move");\n}'
    outcome = one_move(code)
    assert outcome.error_code == ErrorCode.EXCEPTION
    assert outcome.error_message == "TypeError: no good move (line 3, column 9)"


@pytest.mark.parametrize(
    ("thrown", "expected"),
    [
        ('"plain string"', "plain string"),
        ("42", "42"),
        ("null", "null"),
        ("{code: 7}", '{"code":7}'),
    ],
)
def test_throwing_non_errors(thrown: str, expected: str) -> None:
    outcome = one_move(f"function getNextMove() {{ throw {thrown}; }}")
    assert outcome.error_code == ErrorCode.EXCEPTION
    assert expected in (outcome.error_message or "")


def test_thrown_value_with_hostile_getters_is_contained() -> None:
    code = """function getNextMove() {
      throw { get message() { while (true) {} }, get name() { return "X"; } };
    }"""
    assert one_move(code).error_code == ErrorCode.TIMEOUT


def test_huge_error_message_is_capped() -> None:
    outcome = one_move('function getNextMove() { throw new Error("x".repeat(1e6)); }')
    assert outcome.error_code == ErrorCode.EXCEPTION
    assert len(outcome.error_message or "") <= FAST.max_message_chars + 1


def test_throw_at_load_time_is_an_exception() -> None:
    with BotProcess('throw new Error("bad init");\nfunction getNextMove() {}', limits=FAST) as bot:
        assert bot.load_outcome.error_code == ErrorCode.EXCEPTION
        assert "Error: bad init" in (bot.load_outcome.error_message or "")
        assert bot.move({}).error_code == ErrorCode.EXCEPTION


# --------------------------------------------------------------------------- code generation


@pytest.mark.parametrize(
    "expression",
    [
        'eval("ran = true")',
        '(0, eval)("ran = true")',
        'globalThis["ev" + "al"]("ran = true")',
        'new Function("ran = true")()',
        'Function("ran = true")()',
        '(function () {}).constructor("ran = true")()',
        '[].constructor.constructor("ran = true")()',
        'Object.getPrototypeOf(async function () {}).constructor("ran = true")()',
        'Object.getPrototypeOf(function* () {}).constructor("ran = true")().next()',
        'Object.getPrototypeOf(async function* () {}).constructor("ran = true")().next()',
        'Reflect.construct(Function, ["ran = true"])()',
        'Object.getOwnPropertyDescriptor(Function.prototype, "constructor").value("ran = true")()',
    ],
)
def test_code_generation_from_strings_is_blocked(expression: str) -> None:
    code = f"""
    var ran = false;
    function getNextMove(s) {{
      if (s.report) return {{ran: ran}};
      {expression};
      return {{action: "pass"}};
    }}"""
    with BotProcess(code, limits=FAST) as bot:
        blocked = bot.move({})
        assert blocked.error_code == ErrorCode.EXCEPTION, blocked
        assert "EvalError" in (blocked.error_message or "")
        report = bot.move({"report": True})
        assert report.value == {"ran": False}


def test_eval_blocked_at_load_time_too() -> None:
    with BotProcess('eval("1");\nfunction getNextMove() {}', limits=FAST) as bot:
        assert bot.load_outcome.error_code == ErrorCode.EXCEPTION
        assert "EvalError" in (bot.load_outcome.error_message or "")


def test_instanceof_function_still_works() -> None:
    code = "function getNextMove() { return {ok: getNextMove instanceof Function}; }"
    assert one_move(code).value == {"ok": True}


# --------------------------------------------------------------------------- capabilities


REMOVED_GLOBALS = [
    "WebAssembly",
    "SharedArrayBuffer",
    "Atomics",
    "FinalizationRegistry",
    "setTimeout",
    "setInterval",
    "clearTimeout",
    "queueMicrotask",
    "require",
    "process",
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "importScripts",
    "Worker",
    "print",
    "load",
    "read",
]


def test_host_and_dangerous_globals_are_absent() -> None:
    names = ", ".join(f'"{n}"' for n in REMOVED_GLOBALS)
    code = f"""function getNextMove() {{
      var out = {{}};
      [{names}].forEach(function (n) {{ out[n] = typeof globalThis[n]; }});
      out.bareWasm = typeof WebAssembly;
      return out;
    }}"""
    outcome = one_move(code)
    assert outcome.ok, outcome
    assert outcome.value == dict.fromkeys([*REMOVED_GLOBALS, "bareWasm"], "undefined")


def test_webassembly_cannot_be_reached() -> None:
    code = "function getNextMove() { return {m: new WebAssembly.Module(new Uint8Array(8))}; }"
    outcome = one_move(code)
    assert outcome.error_code == ErrorCode.EXCEPTION
    assert "ReferenceError: WebAssembly is not defined" in (outcome.error_message or "")


# Standard ECMAScript / V8 globals; anything else would be a host object leaking in.
ALLOWED_GLOBALS = {
    "Object", "Function", "Array", "Number", "parseFloat", "parseInt", "Infinity", "NaN",
    "undefined", "Boolean", "String", "Symbol", "Date", "Promise", "RegExp", "Error",
    "AggregateError", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError",
    "URIError", "globalThis", "JSON", "Math", "Intl", "ArrayBuffer", "Uint8Array", "Int8Array",
    "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "BigUint64Array", "BigInt64Array",
    "Uint8ClampedArray", "Float32Array", "Float64Array", "Float16Array", "DataView", "Map",
    "BigInt", "Set", "Iterator", "WeakMap", "WeakSet", "Proxy", "Reflect", "WeakRef",
    "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape",
    "eval", "isFinite", "isNaN", "console", "Temporal", "SuppressedError", "DisposableStack",
    "AsyncDisposableStack", "__sandbox__", "getNextMove",
    # mini-racer's setTimeout shim leaves `var` slots that the harness sets to undefined
    "setTimeout", "clearTimeout", "__timer_manager",
}  # fmt: skip


def test_no_unexpected_globals() -> None:
    code = "function getNextMove() { return {names: Object.getOwnPropertyNames(globalThis)}; }"
    outcome = one_move(code)
    assert outcome.ok
    assert outcome.value is not None
    assert set(outcome.value["names"]) <= ALLOWED_GLOBALS


def test_harness_entry_point_cannot_be_replaced() -> None:
    code = """
    var attempts = [];
    try { __sandbox__ = null; } catch (e) { attempts.push("assign"); }
    try { Object.defineProperty(globalThis, "__sandbox__", {value: 1}); }
    catch (e) { attempts.push("define"); }
    try { __sandbox__.move = null; } catch (e) { attempts.push("member"); }
    try { delete globalThis.__sandbox__; } catch (e) { attempts.push("delete"); }
    function getNextMove() { return {attempts: attempts, type: typeof __sandbox__.move}; }"""
    outcome = one_move(code)
    assert outcome.ok, outcome
    assert outcome.value == {"attempts": ["define"], "type": "function"}


# --------------------------------------------------------------------------- prototype tampering


@pytest.mark.parametrize(
    "tamper",
    [
        'Object.prototype.toJSON = function () { return "hacked"; };',
        'Array.prototype.toJSON = function () { return "hacked"; };',
        'JSON.stringify = function () { return "{}"; };',
        "JSON.parse = function () { return {}; };",
        "Array.prototype.map = null; Array.prototype.forEach = null; Array.prototype.join = null;",
        'Array.prototype.push = function () { throw new Error("no"); };',
        "Array.isArray = function () { return false; }; Object.keys = function () { return []; };",
        "Reflect.apply = null; Function.prototype.call = null; Function.prototype.apply = null;",
        "Object.getPrototypeOf = function () { return null; };",
        "String.prototype.slice = null; String.prototype.indexOf = null;",
        "Array.prototype[Symbol.iterator] = function () { throw new Error('iter'); };",
        'Object.defineProperty(Array.prototype, "0", {set: function () { throw 1; },'
        ' get: function () { return "x"; }});',
        'Object.defineProperty(Object.prototype, "s", {get: function () { return "ok"; }});',
        "Object.freeze(Object.prototype); Object.freeze(Array.prototype);",
        "Number.isFinite = function () { return false; };",
        "console = {log: function () { throw new Error('console'); }};",
    ],
)
def test_prototype_tampering_cannot_break_the_harness(
    tamper: str, game_state: dict[str, Any]
) -> None:
    code = f"""{tamper}
    function getNextMove(state) {{
      var first = state.validMoves[0];
      return {{action: "play", cards: [first.cards[0]], n: 1.5, ok: true, none: null}};
    }}"""
    with BotProcess(code, limits=FAST) as bot:
        assert bot.load_outcome.ok, bot.load_outcome
        for _ in range(2):
            outcome = bot.move(game_state)
            assert outcome.ok, outcome
            assert outcome.value == {
                "action": "play",
                "cards": [game_state["validMoves"][0]["cards"][0]],
                "n": 1.5,
                "ok": True,
                "none": None,
            }


def test_tampering_inside_the_move_also_contained(game_state: dict[str, Any]) -> None:
    code = """function getNextMove(state) {
      JSON.stringify = null; Object.prototype.toJSON = function () { return 1; };
      Object.defineProperty(Object.prototype, "c", {get: function () { throw 1; }});
      console.log("still logging", {a: 1});
      return {action: "pass"};
    }"""
    outcome = one_move(code, game_state)
    assert outcome.ok, outcome
    assert outcome.value == {"action": "pass"}
    assert outcome.console == ["still logging 1"]  # user's toJSON applies to console output


# --------------------------------------------------------------------------- console


def test_many_console_lines_are_capped_and_marked() -> None:
    code = """function getNextMove() {
      for (var i = 0; i < 100000; i++) console.log("line " + i);
      return {action: "pass"};
    }"""
    outcome = one_move(code)
    assert outcome.ok
    assert outcome.console_truncated
    assert len(outcome.console) == FAST.max_console_lines + 1
    assert outcome.console[0] == "line 0"
    assert outcome.console[-1] == "[truncated]"


def test_huge_console_line_is_capped_by_total_size() -> None:
    code = """function getNextMove() {
      console.log("a".repeat(1e7)); console.log("never shown"); return {action: "pass"};
    }"""
    outcome = one_move(code)
    assert outcome.ok
    assert outcome.console_truncated
    assert outcome.console[-1] == "[truncated]"
    assert sum(len(line) for line in outcome.console[:-1]) == FAST.max_console_chars
    assert "never shown" not in outcome.console


def test_console_formats_values_and_levels() -> None:
    code = r"""function getNextMove() {
      var cyc = {}; cyc.self = cyc;
      console.log("n", 1, true, null, undefined, {a: [1, 2]}, [3], cyc);
      console.warn("careful"); console.error("bad"); console.info("fyi");
      console.log("nul\u0000 and lone \ud800 surrogate");
      return {action: "pass"};
    }"""
    outcome = one_move(code)
    assert outcome.ok, outcome
    assert outcome.console == [
        'n 1 true null undefined {"a":[1,2]} [3] [object Object]',
        "[warn] careful",
        "[error] bad",
        "fyi",
        "nul\ufffd and lone \ufffd surrogate",
    ]
    assert not outcome.console_truncated


def test_console_output_of_a_failed_move_is_kept() -> None:
    outcome = one_move('function getNextMove() { console.log("thinking"); while (true) {} }')
    assert outcome.error_code == ErrorCode.TIMEOUT
    assert outcome.console == ["thinking"]


def test_console_output_during_load_is_in_the_load_outcome() -> None:
    with BotProcess(
        'console.log("hello from load");\nfunction getNextMove() { return {}; }'
    ) as bot:
        assert bot.load_outcome.ok
        assert bot.load_outcome.console == ["hello from load"]
        assert bot.move({}).console == []


# --------------------------------------------------------------------------- return shapes


@pytest.mark.parametrize(
    ("expression", "fragment"),
    [
        ("undefined", "returned undefined"),
        ("42", "got number 42"),
        ('"pass"', 'got string "pass"'),
        ("[1, 2]", "got an array"),
        ("null", "got null"),
        ("true", "got boolean true"),
        ("function () {}", "got function"),
        ("Symbol('x')", "got symbol"),
        ("(function () { var o = {a: {}}; o.a.back = o; return o; })()", "cycle"),
        ('{action: "x".repeat(10 * 1024 * 1024)}', "larger than"),
        ("{cards: new Array(1e6).fill(1)}", "larger than"),
        ("{n: 10n}", "BigInt"),
        ("(async function () { return {action: 'pass'}; })()", "Promise"),
        ("new (class Move { constructor() { this.action = 'pass'; } })()", "plain object"),
        ("new Map()", "plain object"),
        (
            "(function () { var o = {}, c = o;"
            " for (var i = 0; i < 100; i++) { c.x = {}; c = c.x; } return o; })()",
            "nested more than",
        ),
        ("{get action() { throw new Error('getter'); }}", "could not be serialized"),
    ],
)
def test_wrong_return_shapes_are_bad_return(expression: str, fragment: str) -> None:
    outcome = one_move(f"function getNextMove() {{ return {expression}; }}")
    assert outcome.error_code == ErrorCode.BAD_RETURN, outcome
    assert fragment in (outcome.error_message or "")


def test_json_semantics_for_odd_members() -> None:
    code = """function getNextMove() {
      var o = Object.create(null); o.action = "pass";
      o.skip = undefined; o.fn = function () {}; o.nan = NaN; o.inf = -Infinity;
      o.arr = [undefined, function () {}, NaN, 1];
      return o;
    }"""
    outcome = one_move(code)
    assert outcome.ok, outcome
    assert outcome.value == {
        "action": "pass",
        "nan": None,
        "inf": None,
        "arr": [None, None, None, 1],
    }


def test_missing_entry_point() -> None:
    with BotProcess("function getNextMoves() {}", limits=FAST) as bot:
        assert bot.load_outcome.error_code == ErrorCode.NO_ENTRY_POINT
        assert bot.move({}).error_code == ErrorCode.NO_ENTRY_POINT


def test_entry_point_deleted_later_is_no_entry_point() -> None:
    code = "var getNextMove = function () { getNextMove = 5; return {action: 'pass'}; };"
    with BotProcess(code, limits=FAST) as bot:
        assert bot.move({}).ok
        assert bot.move({}).error_code == ErrorCode.NO_ENTRY_POINT


def test_syntax_error_at_load() -> None:
    with BotProcess("function getNextMove( {\n  return 1;\n}", limits=FAST) as bot:
        assert bot.load_outcome.error_code == ErrorCode.SYNTAX
        assert "SyntaxError" in (bot.load_outcome.error_message or "")
        assert bot.move({}).error_code == ErrorCode.SYNTAX


def test_oversized_code_is_refused_without_starting_a_process() -> None:
    limits = SandboxLimits(max_code_chars=100)
    with BotProcess("//" + "x" * 200 + "\nfunction getNextMove() {}", limits=limits) as bot:
        assert bot.load_outcome.error_code == ErrorCode.SYNTAX
        assert bot.pid is None
