"""``./bin/bot`` (``python -m bots.lab``): run bots on one's own machine with the project's
engine and sandbox, no server (no database, no Redis, no Django settings).

* ``match BOT --vs OTHER [--vs …] --game G --deals N --seed S [--jobs J] [--json]`` plays a
  duplicate match (:mod:`games.engine.duplicate`) and prints its report.
* ``test BOT [--game G] [--json]`` runs the sample states, as the site's Test Bot does.
* ``replay BOT --vs … --game G --seed S [--deals N] --out DIR`` plays the match and writes
  every game as an export file the site's import page opens (unsigned).

Every entrant is a ``.js`` bot file or a house AI ``house:LEVEL``. Errors print
``error: <code>: <message>`` and exit with status 2; ``test`` exits 1 when a sample fails.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from bots.lab.entrants import (
    DEFAULT_TIMEOUT_S,
    BotFileEntrant,
    EntrantSpecError,
    describe,
    parse_entrants,
)
from bots.lab.report import format_report
from bots.sandbox import check_syntax
from games.engine.core.errors import EngineError
from games.engine.core.protocol import Game
from games.engine.duplicate import (
    MIN_DEALS_TO_SEPARATE,
    Entrant,
    GameOutcome,
    Mapper,
    MatchResult,
    run_match,
)
from games.engine.registry import DEFAULT_GAME, GAMES, find_game
from games.exports import export_head, seeded_fields

__all__ = ["CliError", "main"]

MAX_DEALS = 100_000


class CliError(Exception):
    """A refused command line or input: ``code`` is stable, printed as ``error: code: …``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# --------------------------------------------------------------------------- arguments


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError("must be a positive number of seconds")
    return value


def _seed(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's exit code 2, our error line
        raise CliError("bad_arguments", f"{message} (see {self.prog} --help)")


def _match_arguments(p: argparse.ArgumentParser, *, deals: int) -> None:
    p.add_argument("bot", metavar="BOT", help="the first entrant: a .js file or house:LEVEL")
    p.add_argument(
        "--vs",
        action="append",
        default=[],
        metavar="ENTRANT",
        help="another entrant (repeat it): a .js file or house:easy|medium|hard",
    )
    games = ", ".join(GAMES)
    p.add_argument("--game", default=DEFAULT_GAME, help=f"{games} (default {DEFAULT_GAME})")
    p.add_argument("--deals", type=_positive, default=deals, help=f"deals (default {deals})")
    p.add_argument("--seed", type=_seed, default=1, help="the match seed (default 1)")
    p.add_argument(
        "--jobs", type=_positive, default=1, help="games played at once (processes, default 1)"
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT_S,
        help=f"seconds per bot move (default {DEFAULT_TIMEOUT_S:g}, as on the site)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option of the game (VALUE read as JSON, else text), e.g. ante=2",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bot",
        description="Run Tiến Lên Arena bots locally with the site's engine and sandbox.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    match = sub.add_parser("match", help="play a duplicate match and print its report")
    _match_arguments(match, deals=50)
    match.add_argument("--json", action="store_true", help="print the report as JSON")
    match.add_argument(
        "--stop-when-separated",
        action="store_true",
        help="stop once the first entrant's points interval overlaps no other's",
    )
    match.add_argument(
        "--min-deals",
        type=_positive,
        default=MIN_DEALS_TO_SEPARATE,
        help=f"deals before an early stop (default {MIN_DEALS_TO_SEPARATE})",
    )
    test = sub.add_parser("test", help="run a bot on the sample states (the site's Test Bot)")
    test.add_argument("bot", metavar="BOT.js")
    test.add_argument(
        "--game", default=DEFAULT_GAME, help=f"the bot's game (default {DEFAULT_GAME})"
    )
    test.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT_S)
    test.add_argument("--json", action="store_true", help="print the results as JSON")
    replay = sub.add_parser("replay", help="play a match and write its games as export files")
    _match_arguments(replay, deals=1)
    replay.add_argument("--out", required=True, type=Path, help="folder for the .json files")
    return parser


def _engine(name: str) -> Game:
    try:
        return find_game(name)
    except EngineError:
        games = ", ".join(sorted(GAMES))
        raise CliError("unknown_game", f"no game named {name!r} (games: {games})") from None


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise CliError("bad_option", f"{pair!r} is not NAME=VALUE")
        if name == "players":
            raise CliError("bad_option", "the number of players is the number of entrants")
        try:
            out[name] = json.loads(raw)
        except ValueError:
            out[name] = raw
    return out


def _field(args: argparse.Namespace, engine: Game) -> list[Entrant]:
    try:
        entrants = parse_entrants([args.bot, *args.vs], engine, timeout_s=args.timeout)
    except EntrantSpecError as exc:
        raise CliError(exc.code, exc.message) from None
    n = len(entrants)
    if not engine.min_players <= n <= engine.max_players:
        raise CliError(
            "bad_field",
            f"{engine.name} is played by {engine.min_players} to {engine.max_players} seats: "
            f"give that many entrants (BOT and --vs), not {n}",
        )
    for entrant in entrants:
        if isinstance(entrant, BotFileEntrant):
            _check_code(entrant.path, entrant.code)
    return entrants


def _check_code(path: str, code: str) -> None:
    issues = check_syntax(code)
    if issues:
        first = issues[0]
        raise CliError(
            "syntax", f"{path} line {first.line}, column {first.column}: {first.message}"
        )


# --------------------------------------------------------------------------- match


def _mapper(jobs: int) -> tuple[Mapper, ProcessPoolExecutor | None]:
    """``(mapper, pool)``: the built-in map for one job, else a process pool's (spawned
    workers: the sandbox's children are started from a clean interpreter)."""
    if jobs <= 1:
        return (lambda fn, tasks: map(fn, tasks)), None
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
    return (lambda fn, tasks: pool.map(fn, tasks)), pool


def _play(
    args: argparse.Namespace,
    engine: Game,
    entrants: Sequence[Entrant],
    *,
    stop_when_separated: bool = False,
    min_deals: int = MIN_DEALS_TO_SEPARATE,
    keep_outcomes: bool = False,
    progress: TextIO | None = None,
) -> MatchResult:
    options = _options(args.option)
    mapper, pool = _mapper(args.jobs)
    n = len(entrants)

    def on_progress(p: Any) -> None:
        if progress is not None:
            progress.write(f"\rdeal {p.deals_done}/{p.deals} ({p.games_done} games)")
            progress.flush()

    try:
        return run_match(
            engine,
            entrants,
            args.deals,
            args.seed,
            config=options,
            mapper=mapper,
            deals_per_batch=max(1, math.ceil(args.jobs / n)),
            on_progress=on_progress,
            stop_when_separated=stop_when_separated,
            min_deals=min_deals,
            keep_outcomes=keep_outcomes,
        )
    except EngineError as exc:  # a table option the game refuses
        raise CliError(exc.code, exc.detail or str(exc)) from None
    finally:
        if progress is not None:
            progress.write("\r\033[K")
            progress.flush()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def cmd_match(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    engine = _engine(args.game)
    entrants = _field(args, engine)
    result = _play(
        args,
        engine,
        entrants,
        stop_when_separated=args.stop_when_separated,
        min_deals=args.min_deals,
        progress=err if err.isatty() else None,
    )
    if args.json:
        json.dump(result.to_json(), out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(format_report(result.report, result.series) + "\n")
    return 0


# --------------------------------------------------------------------------- test


def cmd_test(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bots.validation import run_samples  # builds the samples: only for this command

    engine = _engine(args.game)
    path = Path(args.bot)
    try:
        code = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError("no_such_file", f"{args.bot}: {exc}") from None
    _check_code(args.bot, code)
    results = run_samples(code, game=engine.name, timeout_s=args.timeout)
    passed = sum(r.ok for r in results)
    if args.json:
        json.dump(
            {
                "game": engine.name,
                "passed": passed,
                "samples": len(results),
                "results": [r.to_json() for r in results],
            },
            out,
            ensure_ascii=False,
        )
        out.write("\n")
    else:
        out.write(f"Test Bot: {path.name} on {len(results)} sample states of {engine.name}\n\n")
        for r in results:
            mark = "✓" if r.ok else "✗"
            what = r.move_text if r.ok else f"{r.error_code}: {r.error_message}"
            out.write(f"{mark} {r.index + 1:>2}. {r.title} — {what} ({r.elapsed_ms:.1f} ms)\n")
            out.write(f"      hand: {' '.join(r.hand)} | {r.table}\n")
            for line in r.console:
                out.write(f"      console: {line}\n")
        out.write(f"\n{passed}/{len(results)} samples passed\n")
    return 0 if passed == len(results) else 1


# --------------------------------------------------------------------------- replay


def export_game(
    engine: Game,
    outcome: GameOutcome,
    entrants: Sequence[Entrant],
    *,
    number: int,
    games: int,
    seed: int | str,
) -> dict[str, Any]:
    """One game of a local match as the site's export file (unsigned: only the server can
    sign; the import page shows it as not verified). Always the seed and actions, whatever
    the game: the local player saw every card of their own match anyway."""
    players = []
    for seat, index in enumerate(outcome.order):
        info = describe(entrants[index])
        players.append(
            {
                "seat": seat,
                "name": info["name"],
                "kind": info["kind"],
                "bot_id": None,
                "bot_version": None,
                "house_level": info["house_level"],
            }
        )
    doc = export_head(
        game=engine.name,
        rules_version=engine.rules_version,
        table=f"Local match, seed {seed}, deal {outcome.deal_index + 1}",
        number=number,
        games=games,
        status="finished",
        started_at=None,
        ended_at=None,
        players=players,
        result=outcome.result,
    )
    doc.update(seeded_fields(outcome.record))
    return doc


def cmd_replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    engine = _engine(args.game)
    entrants = _field(args, engine)
    folder: Path = args.out
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError("bad_out", f"{folder}: {exc}") from None
    result = _play(args, engine, entrants, keep_outcomes=True)
    total = len(result.outcomes)
    for number, outcome in enumerate(result.outcomes, start=1):
        doc = export_game(engine, outcome, entrants, number=number, games=total, seed=args.seed)
        name = f"{engine.name}-deal{outcome.deal_index + 1:03d}-rot{outcome.rotation + 1}.json"
        path = folder / name
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        out.write(f"{path}\n")
    return 0


# --------------------------------------------------------------------------- main

_COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    "match": cmd_match,
    "test": cmd_test,
    "replay": cmd_replay,
}


def main(
    argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run one command; returns the exit status (0 ok, 1 a failed Test Bot sample, 2 an
    error, 130 interrupted). Never a traceback for bad input."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
        if args.command in ("match", "replay") and args.deals > MAX_DEALS:
            raise CliError("bad_arguments", f"at most {MAX_DEALS} deals")
        return _COMMANDS[args.command](args, out, err)
    except CliError as exc:
        err.write(f"error: {exc.code}: {exc.message}\n")
        return 2
    except KeyboardInterrupt:
        err.write("interrupted\n")
        return 130
