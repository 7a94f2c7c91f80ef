"""``manage.py games_archive [--prune] [--days N]``: (re-)archive every finished game.

Each finished game's compact log and summary are (re)written into ``Game.game_log``
(``games.history.game_archive``, idempotent: an up-to-date archive is left alone). With
``--prune`` the hot ``Action`` rows of archived games older than the retention
(``GAMES_ACTION_RETENTION_DAYS``, or ``--days``) are deleted afterwards. A progress bar goes to
stderr (rich's when it is installed, otherwise a plain one).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandParser

from games import history


@contextmanager
def progress_bar(total: int, label: str, stream: TextIO) -> Iterator[Callable[[], None]]:
    """A progress bar on ``stream`` (stderr); yields ``advance()``."""
    if stream.isatty() and importlib.util.find_spec("rich") is not None:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(file=stream), transient=False) as progress:
            task = progress.add_task(label, total=total)
            yield lambda: progress.advance(task)
        return
    done = 0
    width = 30

    def advance() -> None:
        nonlocal done
        done += 1
        filled = width * done // max(total, 1)
        stream.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            stream.write("\n")
        stream.flush()

    yield advance


class Command(BaseCommand):
    help = "Archive every finished game into Game.game_log; --prune deletes old action rows."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--prune",
            action="store_true",
            help="Then delete the action rows of archived games older than the retention.",
        )
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help="Retention in days for --prune (default: GAMES_ACTION_RETENTION_DAYS).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids: Sequence[int] = list(history.games_to_archive().values_list("pk", flat=True))
        written = 0
        stream: TextIO = getattr(self.stderr, "_out", sys.stderr)
        with progress_bar(len(ids), "Archiving games", stream) as advance:
            for game_id in ids:
                written += int(history.game_archive(game_id=game_id))
                advance()
        self.stdout.write(
            f"Archived {written} game(s); {len(ids) - written} already up to date or skipped."
        )
        if options["prune"]:
            days = options["days"] if options["days"] is not None else history.retention_days()
            deleted = history.actions_prune(days=days)
            self.stdout.write(f"Pruned {deleted} action row(s) of games older than {days} days.")
