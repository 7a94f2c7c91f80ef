"""``manage.py seed_demo``: a demo admin, two players, a bot and a few tables. Idempotent."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from bots.models import Bot
from bots.services import bot_create
from games.models import Game, Seat, Table
from games.services import table_create

DEMO_PLAYER_PASSWORD = "tienlen-demo"
DEMO_BOT_CODE = """\
// Plays the lowest legal combination, passes when it cannot beat the table.
function play(gameState) {
  const moves = gameState.legalMoves;
  if (!moves.length) return { action: "pass" };
  return { action: "play", cards: moves[0] };
}
"""


class Command(BaseCommand):
    help = "Create the demo admin (credentials printed), demo players, a bot and tables."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="Run even when DEBUG is off (not for production)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("seed_demo creates known passwords; it runs only with DEBUG on.")
        with transaction.atomic():
            self._seed()
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        self.stdout.write(
            f"  Admin:   {settings.DEMO_ADMIN_USERNAME} / {settings.DEMO_ADMIN_PASSWORD}  (/admin/)"
        )
        self.stdout.write(f"  Players: lan, minh / {DEMO_PLAYER_PASSWORD}")

    def _seed(self) -> None:
        User = get_user_model()
        admin, _ = User.objects.get_or_create(
            username=settings.DEMO_ADMIN_USERNAME,
            defaults={"email": "admin@example.com", "is_staff": True, "is_superuser": True},
        )
        # A local demo account: its password is reset to the printed one on every run.
        admin.is_staff = admin.is_superuser = admin.is_active = True
        admin.set_password(settings.DEMO_ADMIN_PASSWORD)
        admin.save()

        players = []
        for username, display in (("lan", "Lan"), ("minh", "Minh")):
            user, created = User.objects.get_or_create(
                username=username,
                defaults={"email": f"{username}@example.com", "display_name": display},
            )
            if created:
                user.set_password(DEMO_PLAYER_PASSWORD)
                user.save()
            players.append(user)
        lan, minh = players

        if not Bot.objects.filter(owner=lan, name="Greedy Gecko").exists():
            bot_create(
                owner=lan,
                name="Greedy Gecko",
                description="Plays its lowest cards first.",
                code=DEMO_BOT_CODE,
            )

        if not Table.objects.filter(owner=lan, name="Lan's open table").exists():
            table_create(owner=lan, name="Lan's open table", options={"seats": 4})

        if not Table.objects.filter(owner=minh, name="Minh's finished session").exists():
            table = table_create(owner=minh, name="Minh's finished session", options={"seats": 2})
            Seat.objects.filter(table=table, index=1).update(kind=Seat.Kind.HUMAN, user=lan)
            table.status = Table.Status.COMPLETED
            table.save(update_fields=["status", "updated_at"])
            ended = timezone.now()
            Game.objects.create(
                table=table,
                number=1,
                engine="tienlen",
                seed=20240101,
                status=Game.Status.FINISHED,
                players=[
                    {"seat": 0, "kind": "human", "name": minh.username},
                    {"seat": 1, "kind": "human", "name": lan.username},
                ],
                winner_seat=0,
                scores={"0": 7, "1": -7},
                total_rounds=9,
                started_at=ended - timedelta(minutes=12),
                ended_at=ended,
                result={"ranking": [0, 1]},
            )
