"""Settings of a REAL Celery worker started by the bots tests and benchmarks/bots.py.

The test settings plus: a real broker on a dedicated Redis database (``BOTS_WORKER_BROKER``),
no eager tasks, timers through Celery, and bot seats playing their code in the sandbox. The
database is the caller's (``DATABASE_URL``: the test run's database).
"""

from __future__ import annotations

from config.settings.test import *  # noqa: F403
from config.settings.test import build_logging, env

CELERY_BROKER_URL = env.str("BOTS_WORKER_BROKER", default="redis://127.0.0.1:6379/13")
CELERY_TASK_ALWAYS_EAGER = False
GAMES_SCHEDULER = "celery"
GAMES_SCHEDULER_RAISE = False
GAMES_BOT_PLAYER = "bots.services.bot_seat_player"
GAMES_BOT_DELAY_SECONDS = env.float("GAMES_BOT_DELAY_SECONDS", default=0.0)
GAMES_ARENA_NEXT_GAME_SECONDS = env.float("GAMES_ARENA_NEXT_GAME_SECONDS", default=0.5)
GAMES_COUNTDOWN_SECONDS = 0.0
# One line per task in the worker's log (shown when a test times out).
LOGGING = build_logging("INFO", "console")
