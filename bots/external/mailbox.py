"""The turn mailboxes of external bots, in Redis (the run's ``REDIS_URL``).

- ``turn:<bot>:<game>``: the open turn of the bot in that game (its ``turn`` frame, the seat,
  the ``seq`` and the wall-clock deadline), written by the worker that waits for the move and
  read by the bot's sockets (to check a ``move`` frame, and to re-send the turn after a
  reconnect). It expires with the turn.
- A match game (:mod:`bots.external.matches`) uses the same keys under its string id
  (``match-<id>-<n>``).
- ``outcome:<game>``: a hash, ``seq`` → the turn's outcome, written once (``HSETNX``): the
  first move a socket checked and accepted, or ``timeout`` written by a waiting worker when
  the deadline passed first. Whoever writes first decides; every worker waiting on that turn
  (a timer re-armed while the bot thinks starts a second one) reads the same outcome, so a
  move answered in time is never also a timeout, and only the worker that wrote ``timeout``
  tells the bot so.
- ``move:<game>:<seq>``: a list the waiting worker pops (``BLPOP``) to wake up at once when a
  move was accepted.

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


def key_prefix() -> str:
    base = str(settings.CACHES.get("default", {}).get("KEY_PREFIX", "") or "")
    return f"{base}:botext:"


def turn_key(bot_id: int, game_id: int | str) -> str:
    return f"{key_prefix()}turn:{bot_id}:{game_id}"


def move_key(game_id: int | str, seq: int) -> str:
    return f"{key_prefix()}move:{game_id}:{seq}"


def outcome_key(game_id: int | str) -> str:
    return f"{key_prefix()}outcome:{game_id}"


#: Seconds a game's turn outcomes are kept after the last one was written.
OUTCOME_TTL_SECONDS = 3600
#: The outcome of a turn whose deadline passed with no move.
TIMED_OUT = "timeout"


def _url() -> str:
    return str(settings.REDIS_URL)


@cache
def _sync_client(url: str, pid: int) -> redis.Redis:
    return redis.Redis.from_url(url)


def client() -> redis.Redis:
    """This process's synchronous client (one per process: never shared across a fork)."""
    return _sync_client(_url(), os.getpid())


# --------------------------------------------------------------------------- worker side
def open_turn(
    *, bot_id: int, game_id: int | str, record: dict[str, Any], ttl: float
) -> tuple[dict[str, Any], bool]:
    """Open turn ``record`` (``seq``, ``seat``, wall-clock ``deadline``, ``frame``…) unless
    that same turn (same ``seq`` and ``seat``) is open already: then the open one, with its
    deadline, stands (a second worker asked to play the turn joins the first one's wait).
    Returns the record in force and whether this call opened it."""
    key = turn_key(bot_id, game_id)
    px = max(1, int(ttl * 1000))
    for _ in range(3):
        if client().set(key, json.dumps(record), px=px, nx=True):
            return record, True
        current = get_turn(bot_id=bot_id, game_id=game_id)
        if current is None:
            continue  # closed meanwhile: try again
        if current.get("seq") == record.get("seq") and current.get("seat") == record.get("seat"):
            return current, False
        break  # an earlier turn's record not yet closed: this turn replaces it
    client().set(key, json.dumps(record), px=px)
    return record, True


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


def outcome(*, game_id: int | str, seq: int) -> dict[str, Any] | None:
    """Turn ``seq``'s outcome: ``{"move": …}`` (a move was accepted), ``{"timeout": True}``,
    or None while it is open."""
    return _load(client().hget(outcome_key(game_id), str(seq)))


def _decide(game_id: int | str, seq: int, value: dict[str, Any]) -> bool:
    """Write turn ``seq``'s outcome unless it has one; whether this call wrote it."""
    key = outcome_key(game_id)
    if not client().hsetnx(key, str(seq), json.dumps(value)):
        return False
    client().expire(key, OUTCOME_TTL_SECONDS)
    return True


def forget_outcomes(*, game_id: int | str) -> None:
    """Drop every outcome of game ``game_id`` (a match game played again under the same id)."""
    client().delete(outcome_key(game_id))


def wait_move(*, game_id: int | str, seq: int, deadline: float) -> tuple[Any, bool]:
    """Wait until turn ``seq`` of game ``game_id`` has an outcome, up to ``deadline`` (wall
    clock, the turn record's): ``(move, False)`` for the accepted move, ``(None, True)`` when
    this call found the deadline passed and wrote the timeout (a real timeout: tell the bot),
    ``(None, False)`` when another waiter of the same turn wrote it. Blocks (``BLPOP``) on the
    worker that plays the turn, as a sandbox run would."""
    key = move_key(game_id, seq)
    while True:
        found = outcome(game_id=game_id, seq=seq)
        if found is not None:
            return (found.get("move"), False) if "move" in found else (None, False)
        left = deadline - time.time()
        if left <= 0:
            if _decide(game_id, seq, {TIMED_OUT: True}):
                return None, True
            continue  # a move was accepted at the last moment: read it
        client().blpop([key], timeout=max(0.01, min(left, 0.5)))


# --------------------------------------------------------------------------- socket side
def push_move(*, game_id: int | str, seq: int, move: Any) -> str:
    """Answer turn ``seq`` with ``move`` (checked by the caller): ``"accepted"`` when it is the
    turn's outcome (the waiting worker is woken), ``"same"`` when this very move was accepted
    before (a repeated answer: nothing to do), ``"answered"`` when another move was, and
    ``"timeout"`` when the deadline passed first."""
    if _decide(game_id, seq, {"move": move}):
        key = move_key(game_id, seq)
        client().rpush(key, "1")
        client().expire(key, 60)
        return "accepted"
    found = outcome(game_id=game_id, seq=seq) or {}
    if "move" not in found:
        return TIMED_OUT
    return "same" if found["move"] == move else "answered"


def _load(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None
