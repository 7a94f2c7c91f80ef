"""The embedded default of ``./bin/run`` (SQLite, in-memory channel layer, eager Celery) plays a
whole practice game and serves the pages around it.

The rest of the suite runs on PostgreSQL, so this is the one place that proves the code paths
with a PostgreSQL-only fast path (the move path's hand-written statements, history aggregates)
also work on the database a newcomer gets from ``./bin/run``. It runs in a child process because
the settings module differs from the suite's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.slow


def test_demo_data_and_a_practice_game_on_the_embedded_default(tmp_path: Path) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",  # the default's engine, elsewhere
        GAMES_BOT_DELAY_SECONDS="0",
        GAMES_COUNTDOWN_SECONDS="0",
        GAMES_NEXT_GAME_SECONDS="600",
        DJANGO_LOG_LEVEL="WARNING",
    )
    done = subprocess.run(
        [sys.executable, "-m", "tests.embedded.play_practice"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["vendor"] == "sqlite"
    assert report["eager"] is True
    assert report["layer"] == "channels.layers.InMemoryChannelLayer"
    assert report["status"] == "finished"
    assert report["moves"] > 0
    assert report["actions"] > report["moves"]  # the house AIs played too
    assert report["pages"] == {
        "practice": 302,
        "table": 200,
        "home": 200,
        "history": 200,
        "my_history": 200,
        "game": 200,
        "replay": 200,
        "export": 200,
        "player": 200,
        "profile": 200,
        "demo_replay": 200,
        "demo_export": 200,
    }
    assert report["demo"]["status"] == "finished"  # seed_demo's game was really played
    assert report["demo"]["actions"] > 0
    assert report["demo_bot"] == ["ready"]  # the demo bot passed its validation game
