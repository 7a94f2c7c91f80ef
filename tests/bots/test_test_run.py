"""Test Bot: every sample ✓ for the example bots; hostile code ✗ with the right codes."""

from __future__ import annotations

from bots.samples import sample_cases
from bots.services import bot_test_run
from bots.validation import SampleResult, run_samples

FAST_TIMEOUT = 0.5


def by_key(results: list[SampleResult]) -> dict[str, SampleResult]:
    return {r.key: r for r in results}


def test_example_bots_pass_every_sample(example: tuple[str, str]) -> None:
    name, code = example
    results = bot_test_run(code=code)
    assert len(results) == len(sample_cases()) >= 10
    failed = [(r.key, r.error_code, r.error_message) for r in results if not r.ok]
    assert failed == [], name
    for result in results:
        assert result.action is not None
        assert result.move_text.startswith(("Played", "Passed"))
        assert result.error_code is None


def test_results_describe_the_move_and_keep_the_console(good_code: str) -> None:
    code = good_code.replace("{\n  if", '{\n  console.log("hand", gameState.myCards.length);\n  if')
    results = by_key(bot_test_run(code=code))
    opening = results["opening_lead"]
    assert opening.ok
    assert opening.move_text == "Played 3♠"
    assert opening.action == {"type": "play", "seat": 0, "cards": ["3S"]}
    assert opening.console == ["hand 13"]
    assert results["must_pass"].move_text == "Passed"
    assert [r.index for r in bot_test_run(code=code)] == list(range(len(sample_cases())))


def test_syntax_error_fails_every_sample_with_syntax() -> None:
    results = bot_test_run(
        code="function getNextMove(s) { return {action: 'pass' ", timeout_s=FAST_TIMEOUT
    )
    assert {r.error_code for r in results} == {"syntax"}
    assert {r.error_kind for r in results} == {"sandbox"}
    assert not any(r.ok for r in results)


def test_missing_entry_point() -> None:
    results = bot_test_run(
        code="function play(s) { return {action: 'pass'}; }", timeout_s=FAST_TIMEOUT
    )
    assert {r.error_code for r in results} == {"no_entry_point"}


def test_exception_reports_message_and_console() -> None:
    code = """
    function getNextMove(gameState) {
      console.log("thinking");
      return { action: "play", cards: [gameState.validMoves[50].cards[0]] };
    }
    """
    results = bot_test_run(code=code, timeout_s=FAST_TIMEOUT)
    assert {r.error_code for r in results} == {"exception"}
    first = results[0]
    assert first.console == ["thinking"]
    assert first.error_message is not None
    assert "TypeError" in first.error_message


def test_endless_loop_times_out() -> None:
    code = "function getNextMove(s) { while (true) {} }"
    results = run_samples(code, timeout_s=0.3, budget_s=60)
    assert {r.error_code for r in results} == {"timeout"}


def test_time_budget_marks_the_rest_not_run() -> None:
    code = "function getNextMove(s) { while (true) {} }"
    results = run_samples(code, timeout_s=0.3, budget_s=0.0, workers=1)
    assert results[0].error_code == "timeout" or results[0].error_code == "not_run"
    assert results[-1].error_code == "not_run"
    assert results[-1].error_kind == "not_run"


def test_bad_returns_and_illegal_moves_are_judged_by_sandbox_and_engine() -> None:
    always_pass = by_key(bot_test_run(code="function getNextMove(s) { return {action: 'pass'}; }"))
    assert always_pass["follow_single"].ok
    assert always_pass["must_pass"].ok
    assert not always_pass["opening_lead"].ok
    assert always_pass["opening_lead"].error_code == "leader_cannot_pass"
    assert always_pass["opening_lead"].error_kind == "rules"
    assert always_pass["opening_lead"].move == {"action": "pass"}

    nothing = bot_test_run(code="function getNextMove(s) { return undefined; }")
    assert {r.error_code for r in nothing} == {"bad_return"}

    bogus = bot_test_run(code="function getNextMove(s) { return {action: 'play', cards: ['ZZ']}; }")
    assert {r.error_code for r in bogus} == {"bad_card"}

    highest = """
    function getNextMove(s) {
      return { action: "play", cards: [s.myCards[0]] };  // the weakest card, never legal here
    }
    """
    weak = by_key(bot_test_run(code=highest))
    assert weak["must_pass"].error_code == "does_not_beat"


def test_results_are_json_ready(good_code: str) -> None:
    import json

    payload = [r.to_json() for r in bot_test_run(code=good_code)]
    assert json.loads(json.dumps(payload))[0]["ok"] is True
