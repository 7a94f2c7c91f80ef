"""The stud golden scenarios through the conformance runner (``games.engine.conformance``).

Each file is ``{"name", "scenario", "expected"}`` (plus, in some, a ``note`` saying how the
expected output follows); the expected output was worked out by hand from docs/rules/stud.md
(stacks, pots, who acts, the ``your_turn`` payloads).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine.conformance import run_scenario
from games.engine.core.errors import ERROR_CODES
from games.engine.stud import GAME as STUD

HERE = Path(__file__).parent
FILES = sorted((HERE / "scenarios").glob("*.json"))
REPO = HERE.parents[3]
#: The rulings' codes for rejected actions, plus the malformed-input ones.
CODES = {"not_your_turn", "illegal_action", "cap_reached", "hand_over", "bad_action", "bad_seat"}


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario(path: Path) -> None:
    example = _load(path)
    assert example["name"] == path.stem
    got = run_scenario(example["scenario"])
    expected = example["expected"]
    assert set(got) == set(expected)
    for i, (g, e) in enumerate(zip(got["results"], expected["results"], strict=True)):
        assert g == e, f"action {i}: got {g}, expected {e}"
    assert got == expected


def test_every_error_code_is_covered() -> None:
    seen = {r["error"] for path in FILES for r in _load(path)["expected"]["results"] if not r["ok"]}
    assert seen == CODES


def test_chips_conserved_in_every_scenario() -> None:
    for path in FILES:
        example = _load(path)
        total = sum(example["scenario"]["stacks"])
        out = example["expected"]
        if out["finished"]:
            assert sum(out["stacks"]) == total, path.stem
        for street in out["streets"]:
            in_pots = sum(p["amount"] for p in street["pots"])
            assert sum(street["stacks"]) + in_pots == total, (path.stem, street["street"])


def test_codes_are_registered() -> None:
    """Every code the stud engine uses is the game's own (``error_codes``) or a shared one (so
    docs and callers know it)."""
    assert sorted(CODES - set(ERROR_CODES) - set(STUD.error_codes)) == []
    assert not set(STUD.error_codes) & set(ERROR_CODES)


def test_command_line_runs_all_scenarios() -> None:
    scenarios = [_load(p)["scenario"] for p in FILES]
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine.conformance"],
        input=json.dumps(scenarios),
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
        timeout=120,
    )
    assert json.loads(proc.stdout) == [_load(p)["expected"] for p in FILES]


def test_rules_page_cites_every_scenario() -> None:
    """docs/rules/stud.md names the scenarios behind each rule in brackets; none is left out."""
    rules = (REPO / "docs" / "rules" / "stud.md").read_text(encoding="utf-8")
    assert [p.stem for p in FILES if p.stem not in rules] == []
