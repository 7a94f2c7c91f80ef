"""Settings of a REAL Celery worker started by the bots tests and benchmarks/bots.py.

The test settings plus: a real broker on a dedicated Redis database (``BOTS_WORKER_BROKER``),
every task through Celery (no test scheduler). Bot seats play their code in the
sandbox: the bots app registers that player when the worker starts (bots/apps.py). The
database is the caller's (``DATABASE_URL``: the test run's database), and so are the
channel-layer and cache prefixes (``TEST_RUN_ID``, read by config/settings/test.py).
``TEST_WORKER_SEEDS`` (comma-separated) makes the worker deal from those seeds, in turn
(:func:`games.seeds.install`);
``TEST_WORKER_HEAL_SECONDS`` is the period of ``games.timers_heal`` when the worker runs beat
(``-B``; nothing else is scheduled).
"""

from __future__ import annotations

from config.settings.test import *  # noqa: F403
from config.settings.test import build_logging, env
from tests.bots.worker import BROKER_URL

CELERY_BROKER_URL = BROKER_URL
GAMES_SCHEDULER = ""  # unset: games.realtime.CeleryScheduler, as in production
GAMES_BOT_DELAY_SECONDS = env.float("GAMES_BOT_DELAY_SECONDS", default=0.0)
GAMES_ARENA_NEXT_GAME_SECONDS = env.float("GAMES_ARENA_NEXT_GAME_SECONDS", default=0.5)
GAMES_COUNTDOWN_SECONDS = env.float("GAMES_COUNTDOWN_SECONDS", default=0.0)
CELERY_BEAT_SCHEDULE = {
    "games-timers-heal": {
        "task": "games.timers_heal",
        "schedule": env.float("TEST_WORKER_HEAL_SECONDS", default=5.0),
    }
}
# One line per task in the worker's log (shown when a test times out).
LOGGING = build_logging("INFO", "console")

_SEEDS = [int(s) for s in env.str("TEST_WORKER_SEEDS", default="").split(",") if s]
if _SEEDS:  # the caller's deals, through the services' seed source
    from games import seeds

    seeds.install(seeds.in_turn(_SEEDS))
