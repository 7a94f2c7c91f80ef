"""The diu golden scenarios through the conformance runner (``games.engine.conformance``).

Each file is ``{"name", "scenario", "expected"}``; the expected output was worked out by hand
from docs/rules/diu.md (who is prompted with which options, melds, the outcome, the scores; the
seeded deal's cards come from the RNG, its sizes, roles, stock and first prompt by hand).
Together they cover every acceptance case of the rules (§14, with the runner's optional
``riffle``, ``seed`` and ``report`` fields for the riffle, the seeded deal, the next hand's roles
and the prefetch batches), every error code and the malformed-scenario codes.
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
from games.engine.diu import GAME as DIU

HERE = Path(__file__).parent
FILES = sorted((HERE / "scenarios").glob("*.json"))
REPO = HERE.parents[3]
#: The codes of rejected diu actions, malformed input included.
CODES = {
    "game_over",
    "not_your_turn",
    "illegal_action",
    "bad_action",
    "bad_card",
    "bad_seat",
    "not_in_hand",
    "wild_discard",
    "claim_not_allowed",
    "claim_not_higher",
    "invalid_claim",
    "must_keep_card",
    "diu_not_allowed",
    "invalid_diu",
    "diu_incomplete",
}


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
    for i, (g, e) in enumerate(
        zip(got.get("results", []), expected.get("results", []), strict=True)
    ):
        assert g == e, f"action {i}: got {g}, expected {e}"
    assert got == expected


def _games() -> list[dict[str, Any]]:
    """The scenarios that play a hand (not the riffle-only or malformed ones)."""
    return [e for e in map(_load, FILES) if "results" in e["expected"]]


def test_every_error_code_is_covered() -> None:
    seen = {r["error"] for e in _games() for r in e["expected"]["results"] if not r["ok"]}
    assert seen == CODES
    malformed = {_load(p)["expected"].get("error") for p in FILES} - {None}
    assert malformed == {"bad_config", "bad_scenario", "duplicate_card"}


def test_every_acceptance_case_has_a_scenario() -> None:
    names = {p.stem for p in FILES}
    for case in (
        "riffle_alternating_flips",  # §14.1
        "seeded_deal_sizes_roles",  # 2
        "discard_nobody_claims_next_draws",  # 3
        "head_discard_c_cannot_chi",  # 4
        "strictly_higher_bar",  # 5
        "repoll_upgrade_to_diu",  # 6
        "diu_stops_poll_hard_bonus",  # 7
        "decline_next_claimant_takes",  # 8
        "timeouts_pass_and_auto_discard",  # 9
        "exhausted_stock_rotates_roles",  # 10
        "claim_validation_errors",  # 11
        "drawn_wild_kept_then_discard",  # 12
        "prefetch_batches_refill_at_three",  # 12
    ):
        assert case in names


def test_codes_are_registered() -> None:
    """Every code the diu engine uses is the game's own (``error_codes``) or a shared one."""
    assert sorted(CODES - set(ERROR_CODES) - set(DIU.error_codes)) == []
    assert not set(DIU.error_codes) & set(ERROR_CODES)


def test_scores_sum_to_zero_and_d_never_prompted() -> None:
    for example in _games():
        out = example["expected"]
        roles = example["scenario"].get("roles") or out["deal"]["roles"]
        d_seat = roles["D"]
        name = example["name"]
        assert sum(out["scores"]) == 0, name
        assert out["scores"][d_seat] == 0, name
        prompts = [r["prompt"] for r in out["results"] if r["ok"] and r["prompt"]]
        assert all(p["seat"] != d_seat for p in prompts), name


@pytest.mark.parametrize(
    ("scenario", "code"),
    [
        ({"game": "diu", "roles": {"A": 0, "B": 1, "C": 2, "D": 2}, "hands": {}}, "bad_config"),
        ({"game": "diu", "roles": {"A": 0, "B": 1, "C": 2, "D": 3}}, "bad_scenario"),
        (
            {
                "game": "diu",
                "roles": {"A": 0, "B": 1, "C": 2, "D": 3},
                "hands": {"A": ["66"] * 5, "B": [], "C": []},
            },
            "duplicate_card",
        ),
        (
            {
                "game": "diu",
                "roles": {"A": 0, "B": 1, "C": 2, "D": 3},
                "hands": {"A": ["66"], "B": [], "C": []},
                "options": {"diu_mode": "sometimes"},
            },
            "bad_config",
        ),
        (
            {
                "game": "diu",
                "roles": {"A": 0, "B": 1, "C": 2, "D": 3},
                "hands": {"A": ["66"], "B": [], "C": []},
                "options": {"roles": {}},
            },
            "bad_scenario",
        ),
    ],
)
def test_malformed_scenarios(scenario: dict[str, Any], code: str) -> None:
    assert run_scenario(scenario)["error"] == code


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
