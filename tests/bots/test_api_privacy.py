"""Bot move records (console output, strikes) never leave through the REST API: the table API
serialises no game, ``Game.game_log`` (whose archive holds the records) is in no serializer, and
the bots API shows a user only their own bots' validation records."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import history, services
from games.models import Action, Game
from tests.bots.live import COUNTING_BOT, hybrid_table, new_user, play_humans

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_bots")]

#: What only a record carries (the bot logs "move <n>" on each move).
SECRETS = ("bot_record", "console", "move 1", "elapsed_ms", "game_log", "strike")


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_api_never_carries_bot_records_or_the_game_log() -> None:
    owner, rival = new_user("owner"), new_user("rival")
    table, version = hybrid_table(owner, COUNTING_BOT, seats=3)
    services.table_start(table_id=table.pk, user=owner)
    game = play_humans(table, {0: owner})
    assert game.status == Game.Status.FINISHED
    assert Action.objects.filter(game=game).exclude(bot_record=None).exists()
    history.game_archive(game_id=game.pk)  # (a no-op when the finish already archived it)
    game.refresh_from_db()
    assert "move 1" in str(game.game_log)  # the archive holds the records …

    # … and no API response does, for a stranger, a guest or the bot's owner
    urls = ["/api/tables/", f"/api/tables/{table.code}/", "/api/bots/leaderboard/"]
    for user in (rival, None, owner):
        for url in urls:
            response = _client(user).get(url)
            assert response.status_code == 200, (url, response.status_code)
            body = response.content.decode()
            if url != "/api/bots/leaderboard/":
                assert table.code in body
            for secret in SECRETS:
                assert secret not in body, (url, user, secret)
    # the schema: no endpoint serialises a game's actions or its log (the only "console" is
    # Test Bot's, on the caller's own unsaved code)
    schema = _client(None).get("/api/schema/?format=json").content.decode()
    for secret in ("bot_record", "game_log", "bot_records"):
        assert secret not in schema, secret

    # the bots API lists only the caller's own bots: a stranger cannot reach this one's
    # versions (whose validation holds its records)
    stranger = _client(rival)
    assert stranger.get(f"/api/bots/{version.bot_id}/").status_code == 404
    assert stranger.get(f"/api/bots/{version.bot_id}/versions/").status_code == 404
    assert stranger.get(f"/api/bots/{version.bot_id}/versions/1/").status_code == 404
    listed = stranger.get("/api/bots/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert rows == []
