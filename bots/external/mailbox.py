"""The turn mailboxes of external bots, in Redis (the run's ``REDIS_URL``).

- ``turn:<bot>:<game>``: the open turn of the bot in that game (its ``turn`` frame, the seat,
  the ``seq`` and the wall-clock deadline), written by the worker that waits for the move and
  read by the bot's sockets (to check a ``move`` frame, and to re-send the turn after a
  reconnect). It expires with the turn.
- A match game (:mod:`bots.external.matches`) uses the same keys under its string id
  (``match-<id>-<n>``).
- ``move:<game>:<seq>``: a list the waiting worker pops (``BLPOP``); a socket pushes a move
  that it checked against the open turn and the engine.

Keys carry the cache's prefix (a test run's keys never meet another run's).
"""

from __future__ import annotations

import json
import os
import time
from functools import cache
from typing import Any

import redis
from django.conf import settings


def _prefix() -> str:
    base = str(settings.CACHES.get("default", {}).get("KEY_PREFIX", "") or "")
    return f"{base}:botext:"


def turn_key(bot_id: int, game_id: int | str) -> str:
    return f"{_prefix()}turn:{bot_id}:{game_id}"


def move_key(game_id: int | str, seq: int) -> str:
    return f"{_prefix()}move:{game_id}:{seq}"


def _url() -> str:
    return str(getattr(settings, "REDIS_URL", "redis://127.0.0.1:6379/0"))


@cache
def _sync_client(url: str, pid: int) -> redis.Redis:
    return redis.Redis.from_url(url)


def client() -> redis.Redis:
    """This process's synchronous client (one per process: never shared across a fork)."""
    return _sync_client(_url(), os.getpid())


# --------------------------------------------------------------------------- worker side
def open_turn(*, bot_id: int, game_id: int | str, record: dict[str, Any], ttl: float) -> None:
    client().set(turn_key(bot_id, game_id), json.dumps(record), px=max(1, int(ttl * 1000)))


def close_turn(*, bot_id: int, game_id: int | str, seq: int) -> None:
    """Forget the open turn ``seq`` (a later turn's record is left alone)."""
    key = turn_key(bot_id, game_id)
    current = get_turn(bot_id=bot_id, game_id=game_id)
    if current is not None and current.get("seq") == seq:
        client().delete(key)
    client().delete(move_key(game_id, seq))


def get_turn(*, bot_id: int, game_id: int | str) -> dict[str, Any] | None:
    raw = client().get(turn_key(bot_id, game_id))
    return _load(raw)


def wait_move(*, game_id: int | str, seq: int, timeout: float) -> Any:
    """The first move pushed for turn ``seq`` of game ``game_id`` within ``timeout`` seconds,
    or None. Blocks (``BLPOP``) on the worker that plays the turn, as a sandbox run would."""
    deadline = time.monotonic() + timeout
    key = move_key(game_id, seq)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        got = client().blpop([key], timeout=min(left, 1.0))
        if got is not None:
            payload = _load(got[1])
            if payload is not None:
                return payload.get("move")


# --------------------------------------------------------------------------- socket side
def push_move(*, game_id: int | str, seq: int, move: Any) -> None:
    key = move_key(game_id, seq)
    client().rpush(key, json.dumps({"move": move}))
    client().expire(key, 60)


def _load(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None
