"""Hostile bots at a live table (issue #5): each sits with three house AIs in a practice game
played through the real sandbox. Every case is contained: the game goes on to its end, each
move's ``Action.bot_record`` carries the right strike code, the third strike disqualifies the
bot (the house plays its seat from then on), and console output is capped.

The sandbox's own hostile suite (tests/bots/sandbox/test_sandbox_hostile.py) covers many more
variants per case; this one checks the whole path a live table takes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bots.runtime import registry
from bots.sandbox import SandboxLimits
from games import services
from games.models import Action, ChatMessage, Game, Seat
from tests.bots.live import new_user, ready_version

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("live_bots", "fast_sandbox"),
]

#: A legal move: the first valid play, else pass.
PLAY = """
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
"""

MAX_LINES = SandboxLimits().max_console_lines
MAX_CHARS = SandboxLimits().max_console_chars


@dataclass(frozen=True)
class Case:
    code: str
    #: The strike of every move (a str), of none (None), or of the first move only ("first").
    strike: str | None
    pattern: str = "always"
    message: str = ""  # in each strike's error message


def _move(body: str, prelude: str = "") -> str:
    return f"{prelude}\nfunction getNextMove(gameState) {{\n{body}\n}}"


CASES: dict[str, Case] = {
    "endless_loop": Case(_move("while (true) {}"), "timeout"),
    "memory_bomb": Case(
        _move("var hog = []; while (true) hog.push(new Array(100000).fill(1.5));"), "memory"
    ),
    "deep_recursion": Case(
        _move("return f(0);", "function f(n) { return f(n + 1) + 1; }"),
        "exception",
        message="call stack",
    ),
    "eval": Case(_move("return eval(\"({ action: 'pass' })\");"), "exception", message="EvalError"),
    "function_constructor": Case(
        _move("var f = new Function(\"return { action: 'pass' }\"); return f();"),
        "exception",
        message="EvalError",
    ),
    "throwing": Case(_move('throw new Error("boom");'), "exception", message="boom"),
    "returns_undefined": Case(_move("return;"), "bad_return"),
    "returns_array": Case(_move('return ["pass"];'), "bad_return"),
    "returns_string": Case(_move('return "pass";'), "bad_return"),
    "returns_promise": Case(_move('return Promise.resolve({ action: "pass" });'), "bad_return"),
    "returns_cycle": Case(_move('var m = { action: "pass" }; m.self = m; return m;'), "bad_return"),
    "returns_unknown_action": Case(_move('return { action: "dance" };'), "illegal:bad_bot_move"),
    "returns_cards_it_lacks": Case(
        _move('var c = { rank: "3", suit: "S" }; return { action: "play", cards: [c, c] };'),
        "illegal:",  # the engine's code follows (duplicate_card or the card is not held)
    ),
    "prototype_tampering": Case(
        _move(
            PLAY,
            """
Object.prototype.toJSON = function () { return "hacked"; };
Array.prototype.toJSON = function () { return "hacked"; };
JSON.stringify = function () { return "{}"; };
JSON.parse = function () { return {}; };
Array.isArray = function () { return false; };
Object.keys = function () { return []; };
Reflect.apply = null;
Object.defineProperty(Array.prototype, "0", { set: function () { throw 1; } });
""",
        ),
        None,
    ),
    "console_flood": Case(
        _move('for (var i = 0; i < 100000; i++) console.log("line " + i);' + PLAY), None
    ),
    "huge_console_line": Case(
        _move('console.log("a".repeat(1e7)); console.log("never shown");' + PLAY), None
    ),
    "slow_first_move": Case(
        _move(
            "calls += 1; if (calls === 1) { var t = Date.now(); while (Date.now() - t < 3000) {} }"
            + PLAY,
            "var calls = 0;",
        ),
        "timeout",
        pattern="first",
    ),
    "slow_top_level_code": Case(
        "var t = Date.now(); while (Date.now() - t < 3000) {}\n" + _move(PLAY), "timeout"
    ),
}


@pytest.fixture
def fast_sandbox(settings: Any) -> Iterator[None]:
    """Short budgets: 0.4 s per move, 0.5 s for the top-level code (default 5 s each)."""
    settings.BOTS_MOVE_TIMEOUT_SECONDS = 0.4
    old = registry.limits
    registry.limits = SandboxLimits(load_timeout_s=0.5, grace_s=0.5)
    yield
    registry.limits = old


def _records(game: Game, seat: int) -> list[tuple[Action, dict[str, Any]]]:
    rows = Action.objects.filter(game=game, seat=seat).exclude(bot_record=None).order_by("seq")
    return [(a, a.bot_record) for a in rows if a.bot_record is not None]


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_bot_is_contained_and_struck_and_the_game_goes_on(name: str) -> None:
    case = CASES[name]
    owner = new_user("owner")
    version = ready_version(owner, case.code, name)
    # the bot at seat 0 and three house AIs; the owner watches. Bot delay 0: the whole game
    # plays inline here.
    table = services.table_create_practice(owner=owner, bot_version_id=version.pk, watch=True)
    game = Game.objects.get(table=table, number=1)
    assert game.status == Game.Status.FINISHED  # contained: the game went on to its end
    seat = Seat.objects.get(table=table, index=0)
    assert seat.kind == Seat.Kind.BOT
    records = _records(game, 0)
    assert len(records) >= 3
    for action, record in records:
        assert record["bot_version_id"] == version.pk
        assert record["move"]["type"] == action.payload["type"]
        assert isinstance(record["elapsed_ms"], float)
        # the console is capped whatever the bot printed
        assert len(record["console"]) <= MAX_LINES + 1
        assert sum(len(line) for line in record["console"]) <= MAX_CHARS + len("[truncated]")

    if case.strike is None:
        assert [r["strike"] for _, r in records] == [None] * len(records)
        assert all(a.actor == Action.Actor.BOT for a, _ in records)
        assert seat.strikes == 0
        assert not seat.disqualified
    elif case.pattern == "first":
        assert [r["strike"] for _, r in records] == [case.strike] + [None] * (len(records) - 1)
        assert records[0][1]["strikes"] == 1
        assert records[0][1]["disqualified"] is False
        assert seat.strikes == 1
        assert not seat.disqualified
    else:
        # three strikes, each an auto-pass (or forced lead), then disqualified
        assert len(records) == 3
        for n, (action, record) in enumerate(records, start=1):
            assert record["strike"].startswith(case.strike), record
            assert action.actor == Action.Actor.TIMEOUT
            assert record["strikes"] == n
            assert record["disqualified"] is (n == 3)
            assert record["error_message"]
            assert case.message in record["error_message"], record["error_message"]
        assert seat.strikes == 3
        assert seat.disqualified
        assert seat.auto
        notice = ChatMessage.objects.get(table=table, is_system=True, text__contains="disqual")
        assert case.strike.rstrip(":") in notice.text
        # the house policy played the seat after that: no more records
        last = records[-1][0].seq
        later = Action.objects.filter(game=game, seat=0, seq__gt=last)
        if later.exists():
            assert not later.exclude(bot_record=None).exists()
            assert set(later.values_list("actor", flat=True)) == {Action.Actor.TIMEOUT}

    if name == "console_flood":
        console = records[0][1]["console"]
        assert records[0][1]["console_truncated"] is True
        assert len(console) == MAX_LINES + 1
        assert console[0] == "line 0"
        assert console[-1] == "[truncated]"
    if name == "huge_console_line":
        console = records[0][1]["console"]
        assert records[0][1]["console_truncated"] is True
        assert console[-1] == "[truncated]"
        assert "never shown" not in console
    if name == "memory_bomb":
        # the bomb killed the bot's process each time; the next move restarted it
        assert [r["restarted"] for _, r in records] == [False, True, True]
    if name == "slow_first_move":
        # V8 stopped the first move but kept the process: its globals went on
        assert not any(r["restarted"] for _, r in records)
