"""``manage.py seed_demo``: a demo admin, two players, an example bot of every game that has
bots (each validated and promoted, so a fresh site's ladder holds more than the house anchors)
and a few tables. Idempotent."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.test import override_settings

from bots.examples import all_examples, example_code
from bots.matches.services import bot_promote
from bots.models import Bot, BotVersion
from bots.services import bot_create, botversion_validate
from games import services
from games.engine.registry import find_game
from games.models import Game, Table
from games.services import table_create

DEMO_PLAYER_PASSWORD = "tienlen-demo"

#: The demo bots: (owner, name, description, example). One per game that has example bots
#: (``bots.examples``); each is validated here and promoted, so it enters its game's ladder.
DEMO_BOTS = (
    ("lan", "Greedy Gecko", "Plays its lowest cards first.", "greedy"),
    ("minh", "Calling Crane", "Checks when it can, else calls; never folds.", "stud_caller"),
    ("lan", "Meld Magpie", "Claims only what leaves fewer loose cards.", "diu_builder"),
)


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
            lan, minh = self._seed()
        self._promote_bots()
        self._played_game(lan, minh)
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        self.stdout.write(
            f"  Admin:   {settings.DEMO_ADMIN_USERNAME} / {settings.DEMO_ADMIN_PASSWORD}  (/admin/)"
        )
        self.stdout.write(f"  Players: lan, minh / {DEMO_PLAYER_PASSWORD}")

    def _seed(self) -> tuple[Any, Any]:
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
        owners = {"lan": lan, "minh": minh}
        games = {e.key: e.game for e in all_examples()}
        for owner, name, description, example in DEMO_BOTS:
            if not Bot.objects.filter(owner=owners[owner], name=name).exists():
                bot_create(
                    owner=owners[owner],
                    name=name,
                    description=description,
                    code=example_code(example),
                    game=games[example],
                )

        if not Table.objects.filter(owner=lan, name="Lan's open table").exists():
            table_create(owner=lan, name="Lan's open table", options={"seats": 4})
        return lan, minh

    def _promote_bots(self) -> None:
        """Validate each demo bot's first version here (its queued validation task then finds
        it done) and promote it, unless its owner already promoted one: a promoted version is
        what the ladder enters (docs/bot-ladder.md "Who is on it")."""
        for owner, name, _description, _example in DEMO_BOTS:
            bot = Bot.objects.filter(owner__username=owner, name=name).first()
            if bot is None or bot.promoted_version_id is not None:
                continue
            version = bot.versions.order_by("number").first()
            if version is None:
                continue
            version = botversion_validate(version_id=version.pk)
            if version.status == BotVersion.Status.READY:
                bot_promote(bot=bot, number=version.number)
            else:
                self.stderr.write(f"Demo bot {name} did not pass its validation game.")

    def _played_game(self, lan: Any, minh: Any) -> None:
        """A real finished game for Recent matches and History (its page, replay and export
        work): Minh and Lan at a two-seat table, every move chosen by the medium house AI and
        played through the same service a browser's move goes through. The table is then
        marked completed so that nothing deals another game."""
        name = "Minh's finished session"
        if Table.objects.filter(owner=minh, name=name).exists():
            return
        engine: Any = find_game("tienlen")  # house_action is an optional hook of the protocol
        with override_settings(
            GAMES_COUNTDOWN_SECONDS=0, GAMES_BOT_DELAY_SECONDS=0, GAMES_NEXT_GAME_SECONDS=3600
        ):
            table = table_create(owner=minh, name=name, options={"seats": 2})
            services.seat_join(table_id=table.pk, user=lan)
            for user in (minh, lan):
                services.seat_ready(table_id=table.pk, user=user, ready=True)
            services.table_start(table_id=table.pk, user=minh)
            # The deal is a timer task that waits for a worker: deal now (the task then finds
            # it done).
            table.refresh_from_db()
            services.table_begin(table_id=table.pk, version=table.version)
            users = {s.index: s.user for s in table.seats.select_related("user")}
            for _ in range(1000):
                game = Game.objects.filter(table=table).order_by("-number").first()
                if game is None:
                    break
                if game.status != Game.Status.RUNNING:
                    if game.actions.exists() or game.number >= 5:
                        break
                    # a tới trắng ended it at the deal: deal another, to have moves to replay
                    services.game_next(table_id=table.pk, user=minh)
                    continue
                state = engine.state_from_json(game.state)
                seat = min(engine.round_status(state).pending)
                services.game_play(
                    table_id=table.pk,
                    user=users[seat],
                    version=game.version,
                    action=engine.house_action(state, seat, "medium"),
                )
        # the next-game timer then finds the session over and deals nothing
        Table.objects.filter(pk=table.pk).update(status=Table.Status.COMPLETED)
