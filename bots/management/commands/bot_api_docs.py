"""Write docs/bot-api.md from the bots/reference/ package (``--check``: fail if it is stale)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from bots.reference import render_markdown


def docs_path() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "bot-api.md"


class Command(BaseCommand):
    help = "Regenerate docs/bot-api.md from the bot API reference (the bots/reference/ package)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="Exit with an error if the file is out of date."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = docs_path()
        text = render_markdown()
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if options["check"]:
            if current != text:
                raise CommandError(f"{path} is out of date: run `python manage.py bot_api_docs`.")
            self.stdout.write("docs/bot-api.md is up to date.")
            return
        path.write_text(text, encoding="utf-8")
        self.stdout.write(f"Wrote {path}.")
