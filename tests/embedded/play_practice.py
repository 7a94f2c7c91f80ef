"""Run by ``tests/embedded/test_embedded_default.py`` in a child process with the embedded
default of ``./bin/run`` (``config.settings.local`` with no ``DATABASE_URL`` or ``REDIS_URL``:
SQLite, the in-memory channel layer, eager Celery and in-process timers).

It migrates a fresh SQLite file, signs a player in, clicks Practice, plays that player's turns
through the same service the WebSocket consumer calls while the house AIs answer on their
timers, then opens the pages a player visits afterwards. It prints one JSON line.
"""

from __future__ import annotations

import io
import json
import sys
import time
from typing import Any

import django


def main() -> int:
    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from accounts.models import User
    from bots.models import BotVersion
    from games import services
    from games.engine.registry import find_game
    from games.models import Game, Table

    assert connection.vendor == "sqlite", connection.vendor
    call_command("migrate", verbosity=0, interactive=False)
    call_command("seed_demo", stdout=io.StringIO())  # what ./bin/run does next
    call_command("seed_demo", stdout=io.StringIO())  # idempotent
    demo = Game.objects.filter(table__name="Minh's finished session").latest("number")
    user = User.objects.create_user(username="embedded", password="embedded-pass-123")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    pages: dict[str, int] = {}

    response = client.post("/tables/practice/", {"level": "easy"})
    pages["practice"] = response.status_code
    table = Table.objects.get(owner=user)
    engine = find_game("tienlen")
    deadline = time.monotonic() + 60
    moves = 0
    game: Any = None
    while time.monotonic() < deadline:
        game = Game.objects.filter(table=table).order_by("-number").first()
        if game is not None and game.status != Game.Status.RUNNING:
            if moves or game.number >= 3:
                break
            # a tới trắng ended the game before this player's turn: deal the next one
            services.game_next(table_id=table.pk, user=user)
            continue
        if game is None:
            time.sleep(0.02)
            continue
        state = engine.state_from_json(game.state)
        pending = engine.round_status(state).pending
        if 0 not in pending:
            time.sleep(0.02)  # a house AI is thinking on its timer
            continue
        action = engine.legal_actions(state, 0)[0]
        try:
            services.game_play(table_id=table.pk, user=user, version=game.version, action=action)
            moves += 1
        except services.TableError as err:
            if err.code != "stale_version":  # a house move landed first: look again
                raise
    assert game is not None
    for name, url in {
        "table": f"/t/{table.code}/",
        "home": "/",
        "history": "/tables/history/",
        "my_history": "/tables/history/mine/",
        "game": f"/tables/{table.code}/games/{game.number}/",
        "replay": f"/tables/{table.code}/games/{game.number}/replay/",
        "export": f"/tables/{table.code}/games/{game.number}/export.json",
        "player": f"/tables/history/players/{user.pk}/",
        "profile": "/accounts/profile/",
        "demo_replay": f"/tables/{demo.table.code}/games/{demo.number}/replay/",
        "demo_export": f"/tables/{demo.table.code}/games/{demo.number}/export.json",
    }.items():
        pages[name] = client.get(url).status_code
    print(
        json.dumps(
            {
                "vendor": connection.vendor,
                "eager": bool(settings.CELERY_TASK_ALWAYS_EAGER),
                "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
                "status": game.status,
                "moves": moves,
                "actions": game.actions.count(),
                "pages": pages,
                "demo": {"status": demo.status, "actions": demo.actions.count()},
                "demo_bot": list(BotVersion.objects.values_list("status", flat=True)),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
