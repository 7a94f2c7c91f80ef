"""``manage.py games_resume_timers``: re-arm every timer of live tables after a restart."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = "Re-arm turn timers, countdowns and next-game timers of every live table."

    def handle(self, *args: Any, **options: Any) -> None:
        count = services.timers_resume_all()
        self.stdout.write(f"Re-armed the timers of {count} table(s).")
