"""Settings shared by every environment.

Environment-specific modules (``local``, ``test``, ``production``) import everything from here
and override what differs. Every value that changes between machines is read from the
environment through django-environ; see README.md for the full list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import django_stubs_ext
import environ
import structlog
from kombu import Queue

# Lets admin and DRF generics be subscripted at runtime (ModelAdmin[Bot]) for typing.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# A developer may keep local overrides in a `.env` file beside manage.py (never committed).
if (BASE_DIR / ".env").is_file():
    env.read_env(str(BASE_DIR / ".env"), overwrite=False)

# --------------------------------------------------------------------------- core
SECRET_KEY: str = env.str("DJANGO_SECRET_KEY", default="")
DEBUG: bool = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS: list[str] = env.list("DJANGO_ALLOWED_HOSTS", default=[])
CSRF_TRUSTED_ORIGINS: list[str] = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
AUTH_USER_MODEL = "accounts.User"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
SITE_NAME = "Tiến Lên Arena"

INSTALLED_APPS = [
    # daphne first: it replaces `runserver` with an ASGI server that also speaks WebSocket.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    # third party
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_structlog",
    # ours
    "accounts",
    "games",
    "bots",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "games.middleware.LanguageQueryMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_structlog.middlewares.RequestMiddleware",
]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

CSRF_FAILURE_VIEW = "config.views.csrf_failure"


# --------------------------------------------------------------------------- database
# One system everywhere: PostgreSQL and Redis, always. ``./bin/run`` and ``./bin/test`` start
# embedded ones (config/launcher/) when DATABASE_URL / REDIS_URL do not name external ones.
def _required_url(name: str) -> str:
    value: str = env.str(name, default="")
    if not value:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"{name} is not set. Start the site with ./bin/run (it starts embedded PostgreSQL "
            f"and Redis when no URL is given) or set {name}."
        )
    return value


DATABASES: dict[str, Any] = {"default": env.db_url_config(_required_url("DATABASE_URL"))}
if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("DATABASE_URL must name a PostgreSQL database (postgres://...).")
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Connections kept between requests and moves, with a health check at each one's first query
# (local as production: with 0, every database call of daphne, each move, opened a PostgreSQL
# connection and lost the move path's prepared statements). The tests' settings keep Django's 0.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Django's backend whose health check skips a connection proven within the grace below
# (config/postgresql/base.py): every move paid a SELECT 1 round trip for it.
DATABASES["default"]["ENGINE"] = "config.postgresql"
#: Seconds after a connection's last successful COMMIT (or check) during which Django's health
#: check trusts it without a round trip (config/postgresql/base.py); 0 checks as Django does.
DB_HEALTH_CHECK_GRACE_SECONDS: float = env.float("DB_HEALTH_CHECK_GRACE_SECONDS", default=1.0)


def prepare_threshold() -> int | None:
    """``DJANGO_DB_PREPARE_THRESHOLD``: psycopg prepares a statement bound on the server (the
    move path's hand-written SQL, games/services/sql.py; the ORM's queries are bound on the
    client and never prepared) once it ran that many times on a connection, so PostgreSQL
    stops parsing and planning it on every move (the table's seats and game: 0.5 -> 0.2 ms).
    ``none`` turns it off: a transaction-pooling PgBouncer older than 1.21 cannot keep
    prepared statements. Django's own default is off."""
    value = env.str("DJANGO_DB_PREPARE_THRESHOLD", default="5").strip().lower()
    return None if value in ("", "none", "off") else int(value)


DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = prepare_threshold()
#: The garbage collector's thresholds in daphne and the workers (config/gctune.py), three
#: comma-separated numbers (CPython's own are 700,10,10).
GC_THRESHOLDS: list[int] = env.list("GC_THRESHOLDS", cast=int, default=[50000, 20, 10])
#: Seconds a Celery worker keeps its database connection between tasks (config/celery.py).
WORKER_DB_CONN_MAX_AGE: int = env.int("WORKER_DB_CONN_MAX_AGE", default=60)

#: Which services ./bin/run or ./bin/test started embedded ("postgres", "redis"); /healthz
#: reports each service as embedded or external.
EMBEDDED_SERVICES: list[str] = env.list("TIENLEN_EMBEDDED", default=[])

# --------------------------------------------------------------------------- redis, channels, cache
REDIS_URL: str = _required_url("REDIS_URL")
REDIS_MAX_CONNECTIONS: int = env.int("REDIS_MAX_CONNECTIONS", default=1000)
# The channel layer's connection pool. ``socket_timeout`` must exceed channels-redis's blocking
# receive (BZPOPMIN, 5 s): redis-py's default read timeout is also 5 s, so an idle socket's
# receive raced it and, on a busy event loop, lost: "Timeout reading from redis" closed the
# WebSocket with 1011 (seen in benchmarks/ws_load.py at 100 tables).
CHANNEL_REDIS_HOST: dict[str, Any] = {
    "address": REDIS_URL,
    "max_connections": REDIS_MAX_CONNECTIONS,
    "socket_timeout": env.float("REDIS_SOCKET_TIMEOUT", default=30.0),
}
CHANNEL_LAYERS: dict[str, Any] = {
    "default": {
        "BACKEND": "games.realtime.layer.LocalFirstRedisChannelLayer",
        "CONFIG": {
            # Every socket's group_add/group_send borrows a pooled connection; redis-py's
            # default pool (100) runs dry with a few hundred live-table sockets.
            "hosts": [CHANNEL_REDIS_HOST],
            "prefix": "tienlen:channels:",
        },
    }
}
CACHES: dict[str, Any] = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "tienlen",
    }
}

# --------------------------------------------------------------------------- celery
# Tasks always go through the broker to real workers (./bin/run starts them).
CELERY_BROKER_URL: str = env.str("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND: str | None = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 50
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = "UTC"
# Several nodes (docs/cluster.md "Celery: what a dead worker loses"). A task whose prefork
# child dies (kill -9, out of memory) goes back to its queue: every server task is idempotent
# (timers carry the version they were armed for, healers and ticks recompute from the
# database; the lab's match_run plays the next slice of whatever match is due, under the match's
# lock); user code off the tables (trials) is not retried that way (a bot that crashes its
# process would crash the next one too), see CELERY_TASK_ANNOTATIONS below.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_ANNOTATIONS = {
    "bots.tasks.botversion_validate": {"reject_on_worker_lost": False},
    "bots.tasks.bot_test_run_task": {"reject_on_worker_lost": False},
}
#: Seconds a message taken by a worker that died without acknowledging it (its whole node
#: killed) waits in Redis before it is delivered again. It must exceed the longest countdown
#: the site uses (a tournament's break between rounds, at most 86400 s): Redis counts a
#: countdown's wait in it, so a shorter one would deliver a waiting timer twice. What a dead
#: node held is re-armed long before by beat's healers (timers within GAMES_TIMERS_GRACE_SECONDS
#: plus 5 s, matches within BOTS_MATCH_STALE_SECONDS, tournaments by their 5 s tick).
BROKER_VISIBILITY_TIMEOUT: int = env.int("CELERY_BROKER_VISIBILITY_TIMEOUT", default=86400 + 3600)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": BROKER_VISIBILITY_TIMEOUT}
# Beat runs on any number of nodes and sends each job once: celery-redbeat keeps the schedule
# and a lock in Redis; the beat holding the lock renews it every tick (at most every
# beat_max_loop_interval, 1 s, to BEAT_LOCK_TIMEOUT from then), the others retry every
# second. A node that dies holding it frees it after BEAT_LOCK_TIMEOUT seconds, then another
# node's beat takes over within a second: 5 s keeps "beat's jobs go on within 10 s" with a
# margin (docs/cluster.md), and is still five renewals long (a beat stalled 5 s loses it).
CELERY_BEAT_SCHEDULER = "redbeat.RedBeatScheduler"
CELERY_BEAT_MAX_LOOP_INTERVAL = 1
CELERY_REDBEAT_REDIS_URL: str = env.str("REDBEAT_REDIS_URL", default=REDIS_URL)
CELERY_REDBEAT_REDIS_OPTIONS: dict[str, Any] = {}
CELERY_REDBEAT_KEY_PREFIX: str = env.str("REDBEAT_KEY_PREFIX", default="tienlen:redbeat:")
CELERY_REDBEAT_LOCK_TIMEOUT: int = env.int("BEAT_LOCK_TIMEOUT", default=5)
# redbeat asks whether its URL and options are configured by their bare names (it does not see
# the CELERY_ namespace) and otherwise falls back, with a warning, to the broker's URL and
# transport options: name them so too (the same values).
REDBEAT_REDIS_URL = CELERY_REDBEAT_REDIS_URL
REDBEAT_REDIS_OPTIONS = CELERY_REDBEAT_REDIS_OPTIONS
# Queues and their workers (docs/architecture.md "Queues and workers"; README "Production"):
#   default          timers (turn deadlines, countdowns, next deals, holds), ratings, healers:
#                    server code only, never a user's bot code (worker-default, with "bots")
#   bots             ratings and other short server work of the bots app (worker-default)
#   bots.<n>         live tables' bot and house-AI turns, shard game id % BOTS_QUEUE_SHARDS;
#                    ONE worker process each (`-Q bots.<n> -P threads --concurrency N`): a bot's
#                    sandbox, and so its globals, stay in that process for the game
#   bots.tournament  the same for tournament tables: one process of its own at a lower CPU
#                    priority (nice 10), so people's tables' turns are served first
#   trials           untrusted code off the tables: validation games, Test Bot runs
#                    (worker-trials): a `while(true){}` there never delays a timer or a turn
#   lab              Bot Lab duplicate matches, in slices shared round-robin by user
#                    (worker-lab; docs/bot-lab.md)
#   ladder           the bot ladder's scheduler, set recording and refit (bots/ladder/), and
#   bots.ladder      its tables' server turns: ONE worker process of their own at nice 15
#                    (worker-ladder; docs/bot-ladder.md), so live tables never wait for it
BOTS_QUEUE_SHARDS: int = max(1, env.int("BOTS_QUEUE_SHARDS", default=1))
# A bot worker started with ``--bot-shards lease`` consumes the shards whose lease it holds
# (config/shards.py, docs/bot-affinity.md): a lease lasts this long unless renewed, so a dead
# worker's shards are taken over by a live one within about that plus one tick. The lease's
# lapse was most of a bot table's recovery after a node's kill -9 (4 s of 5-7 s, issue 27,
# docs/benchmarks.md): 2.5 s renewed every 0.25 s (ten renewals; a worker stalled for over
# 2.25 s loses its shards to another, which replays the bots: correct, only slower).
BOTS_SHARD_LEASE_SECONDS: float = env.float("BOTS_SHARD_LEASE_SECONDS", default=2.5)
BOTS_SHARD_TICK_SECONDS: float = env.float("BOTS_SHARD_TICK_SECONDS", default=0.25)
CELERY_TASK_QUEUES = (
    Queue("default"),
    Queue("bots"),
    *(Queue(f"bots.{n}") for n in range(BOTS_QUEUE_SHARDS)),
    Queue("bots.tournament"),  # tournament tables' server turns (games.realtime.bot_queue)
    Queue("trials"),  # validation games and Test Bot runs: worker-trials
    Queue("lab"),  # duplicate matches (bots/matches/): a worker of their own, worker-lab
    Queue("ladder"),  # the bot ladder's own tasks (bots/ladder/): worker-ladder
    Queue("bots.ladder"),  # ladder tables' server turns: worker-ladder too
)
CELERY_TASK_ROUTES = {
    "bots.tasks.match_run": {"queue": "lab"},  # long matches never hold a "bots" worker
    # the scheduler names the game's shard queue explicitly; this is only the fallback
    "games.seat_autoplay": {"queue": "bots.0"},
    # user code off the tables runs only on worker-trials, never beside the timers
    "bots.tasks.botversion_validate": {"queue": "trials"},
    "bots.tasks.bot_test_run_task": {"queue": "trials"},
    "bots.tasks.ladder_*": {"queue": "ladder"},  # the ladder's scheduler: worker-ladder
    "bots.tasks.*": {"queue": "bots"},  # ratings, healers: server code
}

# --------------------------------------------------------------------------- live tables
# See docs/protocol.md. Delays are seconds.
GAMES_BOT_DELAY_SECONDS: float = env.float("GAMES_BOT_DELAY_SECONDS", default=0.8)
#: How long one bot-turn task may go on playing server seats' turns that follow at once
#: (games.services.game_autoplay_turns); other games of its shard wait at most about that long.
GAMES_AUTOPLAY_SLICE_SECONDS: float = env.float("GAMES_AUTOPLAY_SLICE_SECONDS", default=1.0)
#: A run of such turns plays them in memory and stores them together at least this often (the
#: most a spectator's frames lag; 0: every move alone). games/services/runs.py.
GAMES_AUTOPLAY_STORE_SECONDS: float = env.float("GAMES_AUTOPLAY_STORE_SECONDS", default=0.02)
GAMES_COUNTDOWN_SECONDS: float = env.float("GAMES_COUNTDOWN_SECONDS", default=3.0)
GAMES_NEXT_GAME_SECONDS: float = env.float("GAMES_NEXT_GAME_SECONDS", default=20.0)
GAMES_DISCONNECT_HOLD_SECONDS: float = env.float("GAMES_DISCONNECT_HOLD_SECONDS", default=30.0)
#: How long a rematch offer after a session waits for every person's answer (docs/protocol.md,
#: "Rematch"); who has not answered by then is replaced by a house AI.
GAMES_REMATCH_SECONDS: float = env.float("GAMES_REMATCH_SECONDS", default=60.0)
GAMES_BOT_MAX_STRIKES = 3
# The thinking time of a searching house AI ("expert") per move, in milliseconds: its move
# never takes much longer (docs/ai.md).
HOUSE_AI_BUDGET_MS: float = env.float("HOUSE_AI_BUDGET_MS", default=300.0)
# Who plays a bot seat and what follows a finished game are registered by the bots app
# (bots/apps.py) at games.extensions; games never imports bots.
# Seconds between the games of a Bot Arena session (nobody deals them by hand).
GAMES_ARENA_NEXT_GAME_SECONDS: float = env.float("GAMES_ARENA_NEXT_GAME_SECONDS", default=5.0)
# How late a timer may be before beat's games.timers_heal re-arms it.
GAMES_TIMERS_GRACE_SECONDS: float = env.float("GAMES_TIMERS_GRACE_SECONDS", default=2.0)
# How long after a table's last move beat's games.timers_heal keeps sending its sockets the
# game's version (a `game_version` frame), so a move whose frames died with the process that
# committed it still reaches them: it must cover the heal's period (5 s) plus beat's takeover
# when beat died with that process (BEAT_LOCK_TIMEOUT + 1 s), docs/cluster.md.
GAMES_ANNOUNCE_SECONDS: float = env.float("GAMES_ANNOUNCE_SECONDS", default=15.0)
# A socket counted at a seat holds a lease in Redis for this long, renewed by the live socket
# every third of it (games/seat_leases.py); beat's games.presence_heal, every
# GAMES_PRESENCE_HEAL_SECONDS, uncounts the seats whose leases lapsed (a dead web node's):
# such a seat turns disconnected within about the sum of the two.
GAMES_PRESENCE_SECONDS: float = env.float("GAMES_PRESENCE_SECONDS", default=15.0)
GAMES_PRESENCE_HEAL_SECONDS: float = env.float("GAMES_PRESENCE_HEAL_SECONDS", default=5.0)
# A dotted path to the object that schedules turns and timers (tests swap in their own);
# None: Celery tasks.
GAMES_SCHEDULER: str | None = None
# A bot's thinking time per move at a live table; over it the move is an auto-pass and a strike.
BOTS_MOVE_TIMEOUT_SECONDS: float = env.float("BOTS_MOVE_TIMEOUT_SECONDS", default=5.0)
# How a worker runs its bots' sandboxes (bots/runtime.py): "pool" (warm pool children, several
# bots each) or "process" (one process per bot, the earlier design; benchmarks/bots.py compares).
BOTS_SANDBOX_MODE: str = env.str("BOTS_SANDBOX_MODE", default="pool")
# Games an external bot (bots/external, the token API) may play at once: unfinished tables it
# sits at plus Bot Lab matches in flight with it (bots/seating.py); over it: bot_busy.
BOTS_EXTERNAL_MAX_GAMES: int = env.int("BOTS_EXTERNAL_MAX_GAMES", default=4)
# Of those, games kept for the bot's owner: other users may seat it in at most
# MAX_GAMES - RESERVED (4 - 1 = 3) at once; over it: bot_share_full.
BOTS_EXTERNAL_OWNER_RESERVED: int = env.int("BOTS_EXTERNAL_OWNER_RESERVED", default=1)
# Seconds a bot's connection counts as open after it last showed life (bots/external/presence.py);
# other users may seat an external bot only while it is connected (else bot_offline).
BOTS_EXTERNAL_PRESENCE_SECONDS: float = env.float("BOTS_EXTERNAL_PRESENCE_SECONDS", default=60.0)
# Requests per bot token to the HTTP bot API (/api/bot/stream and moves): "<count>/<period>",
# period s, m or h, optionally with a number ("40/10s"). Over it: 429 rate_limited.
BOTS_EXTERNAL_HTTP_RATE: str = env.str("BOTS_EXTERNAL_HTTP_RATE", default="20/s")
# Per bot token, across daphne processes (docs/bot-api.md "Limits"): open /ws/bot/ sockets
# and /api/bot/stream streams at once (over it: too_many_connections, close 4429 / HTTP 429),
# and frames of all its sockets together (answers to the bot's own open turns are free).
BOTS_EXTERNAL_MAX_SOCKETS: int = env.int("BOTS_EXTERNAL_MAX_SOCKETS", default=10)
BOTS_EXTERNAL_MAX_STREAMS: int = env.int("BOTS_EXTERNAL_MAX_STREAMS", default=4)
BOTS_EXTERNAL_TOKEN_RATE: str = env.str("BOTS_EXTERNAL_TOKEN_RATE", default="40/2s")
# Frames per second one external bot socket may send, and its burst (a token bucket).
BOTS_EXTERNAL_WS_RATE: float = env.float("BOTS_EXTERNAL_WS_RATE", default=20.0)
BOTS_EXTERNAL_WS_BURST: float = env.float("BOTS_EXTERNAL_WS_BURST", default=40.0)
# Hot per-action rows of archived games older than this are pruned (docs/history.md).
GAMES_ACTION_RETENTION_DAYS: int = env.int("GAMES_ACTION_RETENTION_DAYS", default=30)
# Bot Lab matches (docs/bot-lab.md "How it runs"): matches one user may have queued or running;
# a slice of the shared lab (seconds, then the match yields to a waiting one); the heartbeat of a
# running slice, how stale it may get before beat's healer resumes the match, how long a queued
# one waits before its message is sent again, resumes before it is failed.
BOTS_MATCHES_PER_USER: int = env.int("BOTS_MATCHES_PER_USER", default=2)
BOTS_MATCH_SLICE_SECONDS: float = env.float("BOTS_MATCH_SLICE_SECONDS", default=20.0)
BOTS_MATCH_HEARTBEAT_SECONDS: float = env.float("BOTS_MATCH_HEARTBEAT_SECONDS", default=5.0)
BOTS_MATCH_STALE_SECONDS: float = env.float("BOTS_MATCH_STALE_SECONDS", default=30.0)
# A running match's lease in Redis (bots/matches/leases.py): lapses this long after its worker
# last renewed it (every BOTS_MATCH_LEASE_TICK_SECONDS); beat's bots-matches-heal, every
# BOTS_MATCH_HEAL_SECONDS, resumes a running match whose lease lapsed (its worker died).
BOTS_MATCH_LEASE_SECONDS: float = env.float("BOTS_MATCH_LEASE_SECONDS", default=5.0)
BOTS_MATCH_LEASE_TICK_SECONDS: float = env.float("BOTS_MATCH_LEASE_TICK_SECONDS", default=1.0)
BOTS_MATCH_HEAL_SECONDS: float = env.float("BOTS_MATCH_HEAL_SECONDS", default=2.0)
BOTS_MATCH_REQUEUE_SECONDS: float = env.float("BOTS_MATCH_REQUEUE_SECONDS", default=300.0)
BOTS_MATCH_MAX_RESUMES: int = env.int("BOTS_MATCH_MAX_RESUMES", default=3)
# A Bot Lab match's task is stopped (soft time limit) after this long; it resumes from its slices.
BOTS_MATCH_TIME_LIMIT_SECONDS: int = env.int("BOTS_MATCH_TIME_LIMIT_SECONDS", default=3 * 60 * 60)
# Test Bot runs one user may have in flight (more: 429 test_runs_in_flight).
BOTS_TEST_RUNS_PER_USER: int = env.int("BOTS_TEST_RUNS_PER_USER", default=2)
# Tournaments (docs/tournaments.md "Limits"): entrants per tournament; house-AI entrants one
# user may have in tournaments not over yet, and of them expert (searching) house AIs.
TOURNAMENTS_MAX_ENTRANTS: int = env.int("TOURNAMENTS_MAX_ENTRANTS", default=64)
TOURNAMENTS_HOUSE_PER_USER: int = env.int("TOURNAMENTS_HOUSE_PER_USER", default=16)
TOURNAMENTS_EXPERT_PER_USER: int = env.int("TOURNAMENTS_EXPERT_PER_USER", default=4)
# The bot ladder (docs/bot-ladder.md): the ladders that run, "<game>:<seats>" comma-separated
# (empty: none); duplicate sets in flight at once per ladder (each is `seats` tables playing one
# deal at once: the ladder's share of the machine, with worker-ladder's nice 15); seconds
# between beat's scheduler ticks and between refits over all ladder games; the turn time of a
# ladder table (a bot's move timeout still applies: BOTS_MOVE_TIMEOUT_SECONDS).
LADDER_GAMES: list[str] = env.list("LADDER_GAMES", default=["tienlen:4"])
LADDER_SETS_IN_FLIGHT: int = env.int("LADDER_SETS_IN_FLIGHT", default=1)
LADDER_TICK_SECONDS: float = env.float("LADDER_TICK_SECONDS", default=10.0)
LADDER_REFIT_SECONDS: float = env.float("LADDER_REFIT_SECONDS", default=600.0)
LADDER_TURN_SECONDS: int = env.int("LADDER_TURN_SECONDS", default=10)
# Game imports (/tables/history/import/) per user.
GAMES_IMPORT_RATE: str = env.str("GAMES_IMPORT_RATE", default="30/hour")
# Quick play (docs/quickplay.md): seconds a person waits before empty seats are filled with
# house AIs; the rating gap (mu) allowed at once and its widening per second waited; the
# "keep landing together" rule: two accounts that shared a table in at least
# QUICKPLAY_REPEAT_MAX of either one's last QUICKPLAY_REPEAT_WINDOW quick-play tables are not
# seated together; the pairing pass beat runs while the pool is not empty (seconds).
QUICKPLAY_COUNTDOWN_SECONDS: float = env.float("QUICKPLAY_COUNTDOWN_SECONDS", default=15.0)
QUICKPLAY_GAP_START: float = env.float("QUICKPLAY_GAP_START", default=3.0)
QUICKPLAY_GAP_PER_SECOND: float = env.float("QUICKPLAY_GAP_PER_SECOND", default=0.5)
QUICKPLAY_REPEAT_WINDOW: int = env.int("QUICKPLAY_REPEAT_WINDOW", default=5)
QUICKPLAY_REPEAT_MAX: int = env.int("QUICKPLAY_REPEAT_MAX", default=3)
QUICKPLAY_PAIR_EVERY_SECONDS: float = env.float("QUICKPLAY_PAIR_EVERY_SECONDS", default=1.0)
# The fair play report (docs/quickplay.md "Fair play report"): finished games of the last
# FAIRPLAY_DAYS days with at least two people; a pair is looked at from FAIRPLAY_MIN_GAMES games
# together.
FAIRPLAY_DAYS: int = env.int("FAIRPLAY_DAYS", default=30)
FAIRPLAY_MIN_GAMES: int = env.int("FAIRPLAY_MIN_GAMES", default=5)
# `celery -A config beat` runs the periodic jobs (./bin/run starts it, as production does).
CELERY_BEAT_SCHEDULE = {
    # Re-arms timers (turn deadlines, bot turns, deals) that a dead process lost: every game
    # resumes within seconds of its deadline after any crash, with no command and no client.
    # (expires: while no worker runs, the copies beat keeps sending do not pile up)
    "games-timers-heal": {
        "task": "games.timers_heal",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
    # Uncounts the sockets of a web node that died (their seat leases lapsed,
    # games/seat_leases.py): its people's seats turn disconnected and their hold starts.
    "games-presence-heal": {
        "task": "games.presence_heal",
        "schedule": GAMES_PRESENCE_HEAL_SECONDS,
        "options": {"expires": GAMES_PRESENCE_HEAL_SECONDS},
    },
    "games-actions-prune": {"task": "games.actions_prune", "schedule": 24 * 60 * 60.0},
    # Resumes matches whose worker died (its lease lapsed, BOTS_MATCH_LEASE_SECONDS, 5; or no
    # heartbeat for BOTS_MATCH_STALE_SECONDS, 30, when Redis is away), requeues lost ones
    # (bots/matches, docs/bot-lab.md): a match resumes within seconds.
    "bots-matches-heal": {
        "task": "bots.tasks.matches_heal",
        "schedule": BOTS_MATCH_HEAL_SECONDS,
        "options": {"expires": BOTS_MATCH_HEAL_SECONDS},
    },
    # The bot ladder's scheduler (enters promoted versions, records finished sets, starts the
    # next duplicate set) and its refit over all ladder games (docs/bot-ladder.md).
    "bots-ladder-tick": {
        "task": "bots.tasks.ladder_tick",
        "schedule": LADDER_TICK_SECONDS,
        "options": {"expires": LADDER_TICK_SECONDS},
    },
    "bots-ladder-refit": {
        "task": "bots.tasks.ladder_refit",
        "schedule": LADDER_REFIT_SECONDS,
        "options": {"expires": LADDER_REFIT_SECONDS},
    },
    # Starts tournaments and rounds on time and closes finished rounds (docs/tournaments.md).
    # Forms quick-play tables (docs/quickplay.md): a no-op while the pool is empty.
    "games-quickplay-pair": {
        "task": "games.quickplay_pair",
        "schedule": QUICKPLAY_PAIR_EVERY_SECONDS,
        "options": {"expires": QUICKPLAY_PAIR_EVERY_SECONDS},
    },
    "games-tournaments-tick": {
        "task": "games.tournaments_tick",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
}
GAMES_WS_MAX_FRAME = 4096
# Frames per second one socket may send, and its burst (over it: error rate_limited).
GAMES_WS_RATE: float = env.float("GAMES_WS_RATE", default=10.0)
GAMES_WS_BURST: float = env.float("GAMES_WS_BURST", default=20.0)
GAMES_CHAT_RATE = 1.0
GAMES_CHAT_BURST = 3.0
# Limits shared by all of one user's browser sockets (table, lobby, tournament), counted in
# Redis across daphne processes (games/limits.py, docs/protocol.md "Limits"): open sockets at
# once (over it: error too_many_sockets, close 4429), frames per user ("<count>/<period>", a
# burst of count refilled over the period: rate_limited) and chat lines per user.
GAMES_WS_MAX_SOCKETS_PER_USER: int = env.int("GAMES_WS_MAX_SOCKETS_PER_USER", default=20)
GAMES_WS_USER_RATE: str = env.str("GAMES_WS_USER_RATE", default="40/2s")
GAMES_CHAT_USER_RATE: str = env.str("GAMES_CHAT_USER_RATE", default="5/5s")
# What one user may create (web forms and the REST API alike; over it: 429 rate_limited).
GAMES_CREATE_RATES: dict[str, str] = {
    "tables": env.str("GAMES_CREATE_RATE_TABLES", default="30/h"),
    "tournaments": env.str("GAMES_CREATE_RATE_TOURNAMENTS", default="10/h"),
    "bots": env.str("GAMES_CREATE_RATE_BOTS", default="20/h"),
    "matches": env.str("GAMES_CREATE_RATE_MATCHES", default="30/h"),
    "arenas": env.str("GAMES_CREATE_RATE_ARENAS", default="20/h"),
}
GAMES_WS_IDLE_SECONDS: float = env.float("GAMES_WS_IDLE_SECONDS", default=45.0)
GAMES_ENABLE_ECHO_WS: bool = env.bool("GAMES_ENABLE_ECHO_WS", default=False)

# --------------------------------------------------------------------------- auth
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 9},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-up and log-in attempts per client address (django-ratelimit, counted in the cache).
ACCOUNTS_SIGNUP_RATE: str = env.str("DJANGO_SIGNUP_RATE", default="10/h")
ACCOUNTS_LOGIN_RATE: str = env.str("DJANGO_LOGIN_RATE", default="10/m")
# Failed log-ins per account (whatever the address), a short window so nobody is locked out
# for long; failed token lookups (bot and REST API tokens) per client address.
ACCOUNTS_LOGIN_ACCOUNT_RATE: str = env.str("DJANGO_LOGIN_ACCOUNT_RATE", default="10/15m")
ACCOUNTS_BAD_TOKEN_RATE: str = env.str("DJANGO_BAD_TOKEN_RATE", default="30/m")
# The reverse proxies whose X-Forwarded-For is believed (CIDRs; none by default: the peer is
# the client). config/proxy.py; never run daphne with --proxy-headers.
TRUSTED_PROXIES: list[str] = env.list("DJANGO_TRUSTED_PROXIES", default=[])
#: The bearer token /metrics asks for (config/metrics.py); empty: only loopback requests that
#: came through no proxy may read it (docs/cluster.md "Metrics").
METRICS_TOKEN: str = env.str("METRICS_TOKEN", default="")
# This node's name, the ``node`` label of every metric (games/metrics.py); the launcher sets it
# for each process of a cluster node. Empty: the host name.
TIENLEN_NODE: str = env.str("TIENLEN_NODE", default="")
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:profile"
LOGOUT_REDIRECT_URL = "home"

# --------------------------------------------------------------------------- i18n
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("vi", "Tiếng Việt")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --------------------------------------------------------------------------- static
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES: dict[str, Any] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
MEDIA_URL = "/media/"
MEDIA_ROOT = BASE_DIR / "media"

# --------------------------------------------------------------------------- REST API
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: its WWW-Authenticate header turns auth failures into 401, not 403.
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_THROTTLE_CLASSES": [
        "config.api.WriteRateThrottle",
        # per user and kind: tables, tournaments, bots, matches, arenas (games/throttles.py)
        "games.throttles.CreationThrottle",
        "rest_framework.throttling.AnonRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "write": env.str("DJANGO_API_WRITE_RATE", default="60/minute"),
        "anon": env.str("DJANGO_API_ANON_RATE", default="120/minute"),
    },
    # JSON bodies nested deeper than games.engine.core.jsonsafe allows get a 400, not a 500.
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "Tiến Lên Arena API",
    "DESCRIPTION": "Tables, bots and your account. Authenticate with a session or "
    "`Authorization: Token <key>` (get the key on your profile's API token page).",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --------------------------------------------------------------------------- logging
# Structured logs: JSON lines (production) or coloured key=value (local), chosen by
# DJANGO_LOG_FORMAT. Everything, including Django's own loggers, goes through structlog.
LOG_LEVEL: str = env.str("DJANGO_LOG_LEVEL", default="INFO").upper()
LOG_FORMAT: str = env.str("DJANGO_LOG_FORMAT", default="json")

_shared_processors: list[Any] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    structlog.processors.StackInfoRenderer(),
]


def build_logging(level: str, fmt: str) -> dict[str, Any]:
    """Return a LOGGING dict that renders every record through structlog."""
    renderer = "json" if fmt == "json" else "console"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": [
                    structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.processors.format_exc_info,
                    structlog.processors.JSONRenderer(),
                ],
                "foreign_pre_chain": _shared_processors,
            },
            "console": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": [
                    structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.dev.ConsoleRenderer(
                        colors=False, exception_formatter=structlog.dev.plain_traceback
                    ),
                ],
                "foreign_pre_chain": _shared_processors,
            },
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": renderer},
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django": {"handlers": ["console"], "level": level, "propagate": False},
            "django.server": {"handlers": ["console"], "level": "WARNING", "propagate": False},
            "django_structlog": {"handlers": ["console"], "level": level, "propagate": False},
            "celery": {"handlers": ["console"], "level": level, "propagate": False},
        },
    }


LOGGING = build_logging(LOG_LEVEL, LOG_FORMAT)

structlog.configure(
    processors=[
        *_shared_processors,
        structlog.stdlib.filter_by_level,
        structlog.processors.UnicodeDecoder(),
        structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
    ],
    logger_factory=structlog.stdlib.LoggerFactory(),
    cache_logger_on_first_use=True,
)

# --------------------------------------------------------------------------- security
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the game page's JavaScript reads it for API calls
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# --------------------------------------------------------------------------- demo data
DEMO_ADMIN_USERNAME: str = env.str("DEMO_ADMIN_USERNAME", default="admin")
DEMO_ADMIN_PASSWORD: str = env.str("DEMO_ADMIN_PASSWORD", default="tienlen-admin")
