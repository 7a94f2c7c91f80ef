"""The conformance runner against the mission's examples and the project's golden scenarios."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine.conformance import main, run_input, run_scenario

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO / ".." / "shared" / "conformance"
SCENARIO_DIRS = [
    REPO / "tests" / "games" / "engine" / "tienlen" / "scenarios",
    REPO / "tests" / "games" / "engine" / "tienlen" / "scenarios_engine",
]


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


SHARED_FILES = _files(SHARED / "tienlen")
PROJECT_FILES = [f for d in SCENARIO_DIRS for f in _files(d)]


def _merged(transfers: list[dict[str, Any]]) -> dict[tuple[int, int, str], int]:
    merged: dict[tuple[int, int, str], int] = {}
    for t in transfers:
        key = (t["from"], t["to"], t["reason"])
        merged[key] = merged.get(key, 0) + t["points"]
    return merged


def assert_matches(expected: dict[str, Any], got: dict[str, Any]) -> None:
    """Exact comparison; transfers as a multiset after merging same (from, to, reason)."""
    assert set(got) == set(expected), f"keys differ: {sorted(got)} vs {sorted(expected)}"
    for key, value in expected.items():
        if key == "transfers":
            assert _merged(got[key]) == _merged(value), "transfers differ"
        elif key == "results":
            assert len(got[key]) == len(value)
            for i, (g, e) in enumerate(zip(got[key], value, strict=True)):
                assert g == e, f"action {i}: got {g}, expected {e}"
        else:
            assert got[key] == value, f"{key}: got {got[key]!r}, expected {value!r}"


@pytest.mark.skipif(not SHARED_FILES, reason=f"no shared conformance examples at {SHARED}")
@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.stem)
def test_shared_examples(path: Path) -> None:
    example = json.loads(path.read_text())
    assert_matches(example["expected"], run_scenario(example["scenario"]))


@pytest.mark.skipif(not PROJECT_FILES, reason="no project scenarios yet")
@pytest.mark.parametrize("path", PROJECT_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_project_scenarios(path: Path) -> None:
    example = json.loads(path.read_text())
    assert_matches(example["expected"], run_scenario(example["scenario"]))


def test_engine_scenarios_cover_every_action_error_code() -> None:
    codes = {
        r.get("error")
        for f in _files(SCENARIO_DIRS[1])
        for r in json.loads(f.read_text())["expected"].get("results", [])
    }
    rulings = {
        "not_your_turn",
        "not_in_hand",
        "duplicate_card",
        "invalid_combination",
        "does_not_beat",
        "needs_vong",
        "must_include_card",
        "leader_cannot_pass",
        "already_passed",
        "game_over",
        "bad_card",
        "bad_action",
        "bad_seat",
    }
    assert rulings <= codes


def test_engine_scenarios_cover_every_instant_win_and_reason() -> None:
    wins, reasons = set(), set()
    for f in _files(SCENARIO_DIRS[1]):
        expected = json.loads(f.read_text())["expected"]
        wins.add(expected.get("instant_win"))
        reasons |= {t["reason"] for t in expected.get("transfers", [])}
    from games.engine.tienlen.instant import INSTANT_WINS

    assert set(INSTANT_WINS) <= wins
    assert {"cards", "cong", "toi_trang", "chat", "thui", "den_bai"} <= reasons


SEED = json.loads((SHARED / "tienlen" / "seed_example.json").read_text()) if SHARED_FILES else None


def _a_scenario() -> dict[str, Any]:
    if SEED is not None:
        return dict(SEED["scenario"])
    return json.loads(PROJECT_FILES[0].read_text())["scenario"]


def test_array_input_gives_array_output() -> None:
    sc = _a_scenario()
    out = json.loads(run_input(json.dumps([sc, {"game": "nope"}])))
    assert isinstance(out, list)
    assert out[0] == run_scenario(sc)
    assert out[1]["error"] == "unknown_game"


def test_json_lines_input_gives_json_lines_output() -> None:
    sc = _a_scenario()
    text = json.dumps(sc) + "\n" + "{not json\n" + json.dumps({"game": "tienlen"}) + "\n"
    lines = run_input(text).splitlines()
    assert len(lines) == 3
    assert json.loads(lines[0]) == run_scenario(sc)
    assert json.loads(lines[1])["error"] == "bad_scenario"
    assert json.loads(lines[2])["error"] == "bad_scenario"


@pytest.mark.parametrize(
    ("scenario", "code"),
    [
        ("not an object", "bad_scenario"),
        ({"game": "chess"}, "unknown_game"),
        ({"game": "tienlen", "players": 5, "hands": []}, "bad_config"),
        ({"game": "tienlen", "players": 2, "hands": [["3S"], ["4S"]]}, "bad_config"),
        ({"game": "tienlen", "players": 2, "hands": [["ZZ"] * 13, []]}, "bad_card"),
        ({"game": "tienlen", "players": 2, "hands": "x"}, "bad_config"),
        ({"game": "tienlen", "players": 2, "hands": [[], []], "actions": 3}, "bad_config"),
        ({"game": "tienlen", "players": 2, "hands": [[], []], "options": 3}, "bad_scenario"),
    ],
)
def test_malformed_scenarios_give_an_error_object(scenario: Any, code: str) -> None:
    out = run_scenario(scenario)
    assert out["error"] == code
    assert "detail" in out


def test_overlapping_hands_are_rejected() -> None:
    hand = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S"]
    out = run_scenario({"game": "tienlen", "players": 2, "hands": [hand, hand]})
    assert out["error"] == "duplicate_card"


def test_bad_actions_inside_a_scenario_do_not_stop_it() -> None:
    sc = _a_scenario()
    sc["actions"] = [42, {"seat": 0}, {"timeout": False}, *sc["actions"]]
    out = run_scenario(sc)
    assert [r["error"] for r in out["results"][:3]] == ["bad_action"] * 3
    assert out["finished"] == run_scenario(_a_scenario())["finished"]


def test_main_reads_stdin_and_writes_stdout() -> None:
    out = io.StringIO()
    main(io.StringIO(json.dumps(_a_scenario())), out)
    assert json.loads(out.getvalue()) == run_scenario(_a_scenario())


def test_module_runs_as_a_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine.conformance"],
        input="[" + json.dumps(_a_scenario()) + ", 1]",
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    out = json.loads(proc.stdout)
    assert out[0] == run_scenario(_a_scenario())
    assert out[1]["error"] == "bad_scenario"
    assert proc.stderr == ""


# --- the runner's hot path (issue 25: the speed regression) ---------------------------------------


def _finished_scenario(trailing: int) -> dict[str, Any]:
    """A 2-player game that ends at its first action (a dragon), then ``trailing`` passes."""
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    hands = [[r + "S" for r in ranks], [r + "C" for r in ranks]]
    return {
        "game": "tienlen",
        "players": 2,
        "hands": hands,
        "options": {"opening": False, "leader": 0},
        "actions": [{"seat": i % 2, "pass": True} for i in range(trailing)],
    }


def test_a_finished_game_s_result_is_computed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Actions after the end are rejected without computing the result again for each."""
    from games.engine.tienlen import rules
    from games.engine.tienlen.scoring import compute_result

    calls = []

    def counted(state: Any) -> dict[str, Any]:
        calls.append(1)
        return compute_result(state)

    monkeypatch.setattr(rules, "compute_result", counted)
    out = run_scenario(_finished_scenario(trailing=30))
    assert out["instant_win"] == "dragon"
    assert out["results"] == [{"ok": False, "error": "game_over"}] * 30
    assert len(calls) == 1


def test_tienlen_scenarios_build_no_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report reads the state alone, so the runner applies actions without events (they
    cost about a third of a random game's run); the results are the same."""
    from games.engine.core.protocol import Event
    from games.engine.tienlen import rules

    example = json.loads((SHARED_FILES or PROJECT_FILES)[0].read_text())["scenario"]
    expected = run_scenario(example)
    built = []

    def counted(*args: Any, **kwargs: Any) -> Event:
        built.append(args[0])
        return Event(*args, **kwargs)

    monkeypatch.setattr(rules, "Event", counted)
    assert run_scenario(example) == expected
    assert any(r.get("ok") for r in expected["results"])
    assert built == []
