"""``manage.py games_resume_timers``: re-arm the timers of live tables.

Beat's ``games.timers_heal`` does the same every few seconds for the tables whose timers are
overdue, so a restart needs no command; this one re-arms every live table at once (``--overdue``
only those overdue by more than ``GAMES_TIMERS_GRACE_SECONDS``, as beat does).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games import services


class Command(BaseCommand):
    help = "Re-arm turn timers, countdowns, bot turns and next-game timers of live tables."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--overdue",
            action="store_true",
            help="Only tables whose timers are overdue (what beat's games.timers_heal does).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        overdue_by = services.timers_grace_seconds() if options["overdue"] else None
        count = services.timers_resume(overdue_by=overdue_by)
        self.stdout.write(f"Re-armed the timers of {count} table(s).")
