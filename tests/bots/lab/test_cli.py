"""The local runner ``./bin/bot`` (bots/lab, issue #16): duplicate matches of example bots and
house AIs in the real sandbox for each game, ``--json``, determinism, ``--jobs``, Test Bot,
``replay`` files that the site's import opens, errors, and ``bin/bot`` as a subprocess with no
database, Redis or Django settings."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bots.examples import example_path
from bots.lab.cli import main
from games import history

ROOT = Path(__file__).resolve().parents[3]

#: Small fields of example bots and house AIs, one per game (the field size is the seat count).
FIELDS = {
    "tienlen": ["greedy.js", "house:hard", "house:medium", "random.js"],
    "stud": ["stud_reader.js", "house:hard", "stud_caller.js"],
    "diu": ["diu_builder.js", "house:hard", "diu_random.js", "house:easy"],
}

THROWING = """
function getNextMove(gameState) {
  throw new Error("no idea");
}
"""


def _example(name: str) -> str:
    return name if name.startswith("house:") else str(example_path(name.removesuffix(".js")))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def match_args(game: str, *, deals: int = 2, seed: int = 1, jobs: int = 1) -> list[str]:
    first, *others = (_example(e) for e in FIELDS[game])
    args = ["match", first]
    for other in others:
        args += ["--vs", other]
    return [*args, "--game", game, "--deals", str(deals), "--seed", str(seed), "--jobs", str(jobs)]


def _untimed(report: dict[str, Any]) -> dict[str, Any]:
    return {
        **report,
        "entrants": [
            {k: v for k, v in e.items() if k != "mean_move_ms"} for e in report["entrants"]
        ],
    }


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(FIELDS))
def test_json_report_of_a_match_for_each_game(game: str) -> None:
    code, out, err = run(*match_args(game), "--json")
    assert code == 0, err
    report = json.loads(out)
    n = len(FIELDS[game])
    assert report["game"] == game
    assert report["deals"] == 2
    assert report["games"] == 2 * n
    names = [e["name"] for e in report["entrants"]]
    assert names == [Path(e).stem if e.endswith(".js") else e for e in FIELDS[game]]
    for entrant in report["entrants"]:
        assert {"name", "games", "first_rate", "first_ci", "mean_points", "points_ci"} <= set(
            entrant
        )
        assert entrant["games"] == 2 * n
        assert 0.0 <= entrant["first_rate"] <= 1.0
        assert len(entrant["first_ci"]) == 2
        assert entrant["points_ci"][0] <= entrant["mean_points"] <= entrant["points_ci"][1]
        assert entrant["strikes"] == 0  # the examples play legal moves
    bots = [e for e, spec in zip(report["entrants"], FIELDS[game], strict=True) if ".js" in spec]
    assert all(e["moves"] > 0 and e["mean_move_ms"] is not None for e in bots)
    assert sum(e["mean_points"] for e in report["entrants"]) == pytest.approx(0, abs=1e-3)
    # the same seed gives the same report, a process pool included (timing aside)
    code, again, _ = run(*match_args(game, jobs=2), "--json")
    assert code == 0
    assert _untimed(json.loads(again)) == _untimed(report)


def test_a_different_seed_gives_other_deals() -> None:
    field = ["match", "house:hard", "--vs", "house:easy", "--vs", "house:medium", "--deals", "3"]
    _, one, _ = run(*field, "--seed", "1", "--json")
    _, two, _ = run(*field, "--seed", "2", "--json")
    _, one_again, _ = run(*field, "--seed", "1", "--json")
    assert _untimed(json.loads(one)) == _untimed(json.loads(one_again))
    assert [e["points_ci"] for e in json.loads(one)["entrants"]] != [
        e["points_ci"] for e in json.loads(two)["entrants"]
    ]


@pytest.mark.slow
def test_text_report(tmp_path: Path) -> None:
    code, out, _ = run(*match_args("stud", deals=3))
    assert code == 0
    assert out.startswith("Duplicate match: stud, 3 seats, 3 deals x 3 rotations = 9 games")
    assert "chips won or lost" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("entrant"))
    assert [line.split()[0] for line in lines[header + 1 : header + 4]] == [
        "stud_reader",
        "house:hard",
        "stud_caller",
    ]
    assert "Running estimate" in out


def test_a_throwing_bot_collects_strikes(tmp_path: Path) -> None:
    bot = tmp_path / "thrower.js"
    bot.write_text(THROWING)
    code, out, _ = run(
        "match", str(bot), "--vs", "house:easy", "--game", "stud", "--deals", "2", "--json"
    )
    assert code == 0
    thrower, house = json.loads(out)["entrants"]
    assert thrower["strikes"] > 0
    assert thrower["strike_codes"] == {"exception": thrower["strikes"]}
    assert house["strikes"] == 0


def test_stop_when_separated(tmp_path: Path) -> None:
    bot = tmp_path / "thrower.js"
    bot.write_text(THROWING)
    args = ["match", "house:hard", "--vs", str(bot), "--game", "tienlen", "--deals", "300"]
    code, out, _ = run(*args, "--stop-when-separated", "--min-deals", "5", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["stopped"] == "separated"
    assert 5 <= report["deals"] < 300
    assert len(report["series"]) == report["deals"]


@pytest.mark.parametrize(
    ("argv", "code_"),
    [
        (["match", "house:hard", "--vs", "house:godlike"], "unknown_house_level"),
        (["match", "house:hard", "--vs", "/nonexistent/bot.js"], "no_such_file"),
        (["match", "house:hard"], "bad_field"),
        (["match", "house:hard", "--vs", "house:easy", "--game", "poker"], "unknown_game"),
        (["match", "house:hard", "--vs", "house:easy", "--deals", "0"], "bad_arguments"),
        (
            ["match", "house:hard", "--vs", "house:easy", "--option", "ante=-4", "--game", "stud"],
            "bad_config",
        ),
        (["match", "house:hard", "--vs", "house:easy", "--option", "players=3"], "bad_option"),
        (["frobnicate"], "bad_arguments"),
        (["test", "/nonexistent/bot.js"], "no_such_file"),
    ],
)
def test_bad_input_is_a_clear_error(argv: list[str], code_: str) -> None:
    code, out, err = run(*argv)
    assert code == 2
    assert out == ""
    assert err.startswith(f"error: {code_}: ")
    assert "Traceback" not in err


def test_a_bot_that_does_not_compile_is_refused(tmp_path: Path) -> None:
    bot = tmp_path / "broken.js"
    bot.write_text("function getNextMove(state) { return {;\n")
    code, _, err = run("match", str(bot), "--vs", "house:easy")
    assert code == 2
    assert err.startswith("error: syntax: ")
    assert "line 1" in err


# --------------------------------------------------------------------------- test


@pytest.mark.slow
@pytest.mark.parametrize(("game", "bot"), [("tienlen", "greedy.js"), ("diu", "diu_builder.js")])
def test_test_runs_the_sample_states(game: str, bot: str) -> None:
    code, out, err = run("test", _example(bot), "--game", game, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == game
    assert data["samples"] >= 10
    assert data["passed"] == data["samples"]
    assert all(r["ok"] and r["action"] for r in data["results"])
    code, text, _ = run("test", _example(bot), "--game", game)
    assert code == 0
    assert text.rstrip().endswith(f"{data['samples']}/{data['samples']} samples passed")


def test_test_reports_failures(tmp_path: Path) -> None:
    bot = tmp_path / "thrower.js"
    bot.write_text(THROWING)
    code, out, _ = run("test", str(bot), "--game", "stud")
    assert code == 1
    assert "✗" in out
    assert "exception: Your bot's code threw an error. (Error: no idea" in out


# --------------------------------------------------------------------------- replay


@pytest.mark.parametrize("game", sorted(FIELDS))
def test_replay_files_open_in_the_sites_import(game: str, tmp_path: Path) -> None:
    first, *others = (_example(e) for e in FIELDS[game])
    argv = ["replay", first, "--game", game, "--seed", "3", "--out", str(tmp_path / "out")]
    for other in others:
        argv += ["--vs", other]
    code, out, err = run(*argv)
    assert code == 0, err
    paths = [Path(p) for p in out.split()]
    n = len(FIELDS[game])
    assert len(paths) == n  # one deal, every rotation
    names_by_rotation = []
    for path in paths:
        raw = path.read_bytes()
        doc = json.loads(raw)
        assert doc["format"] == "tienlen-arena/game"
        assert "signature" not in doc
        imported = history.game_import(data=raw)
        assert imported["signed"] is False  # shown as not verified
        assert imported["game"]["engine"] == game
        assert imported["game"]["result"] == doc["result"]
        assert imported["names"] == [p["name"] for p in doc["players"]]
        assert len(imported["steps"]) == len(doc["actions"]) + 1
        names_by_rotation.append(imported["names"])
    # the field rotates over the seats: every entrant at every seat once
    for seat in range(n):
        assert len({names[seat] for names in names_by_rotation}) == n


# --------------------------------------------------------------------------- bin/bot


@pytest.mark.slow
def test_bin_bot_runs_without_any_server_or_settings(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO", "DATABASE", "REDIS", "BOTS_", "CELERY"))
    }
    env["PYTHON"] = sys.executable  # only used if the venv had to be made
    greedy = example_path("greedy")
    (tmp_path / "mine.js").write_text(greedy.read_text())
    argv = [str(ROOT / "bin" / "bot"), "match", "mine.js", "--vs", "house:hard"]
    argv += ["--vs", "house:medium", "--vs", "house:easy", "--deals", "2", "--seed", "1", "--json"]
    proc = subprocess.run(
        argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert {"game", "deals", "games", "entrants"} <= set(report)
    assert report["game"] == "tienlen"
    assert [e["name"] for e in report["entrants"]] == [
        "mine",
        "house:hard",
        "house:medium",
        "house:easy",
    ]
    # the same as in this process
    _, here, _ = run(
        "match",
        str(tmp_path / "mine.js"),
        "--vs",
        "house:hard",
        "--vs",
        "house:medium",
        "--vs",
        "house:easy",
        "--deals",
        "2",
        "--json",
    )
    assert _untimed(json.loads(here)) == _untimed(report)
    bad = subprocess.run(
        [str(ROOT / "bin" / "bot"), "match", "house:hard", "--vs", "house:nope"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: unknown_house_level: ")


@pytest.mark.django_db
def test_the_import_page_opens_a_replay_file_as_unsigned(
    user_client: Client, tmp_path: Path
) -> None:
    argv = ["replay", _example("stud_reader.js"), "--vs", "house:hard", "--game", "stud"]
    code, out, err = run(*argv, "--seed", "5", "--out", str(tmp_path))
    assert code == 0, err
    path = Path(out.split()[0])
    with path.open("rb") as upload:
        page = user_client.post(reverse("tables:history_import"), {"file": upload})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Imported game (unsigned): replayed by the engine" in html
    assert "stud_reader" in html
