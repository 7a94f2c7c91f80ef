"""No single point per shard (issue 27): a bot shard follows a lease in Redis
(config/shards.py), so when the worker process playing a game's bot turns is killed (``kill
-9``) a live one takes the shard over within seconds, and each bot's sandbox is rebuilt there by
playing its earlier turns of the game again (bots/runtime.py): its globals, and its seeded
``Math.random``, go on as if nothing had happened. Through REAL Celery workers."""

from __future__ import annotations

import os
import re
import signal
import time
from contextlib import ExitStack
from typing import Any

import pytest
import redis

from bots.runtime import BotRegistry
from bots.turns import game_key
from games import services
from games.history.bot_lab import _walk
from games.history.records import engine_of, players_of
from games.models import Action, Game, Table
from tests.bots.live import new_user, ready_version
from tests.bots.worker import (
    BROKER_URL,
    BrokerScheduler,
    _own_database,
    celery_worker,
    node_name,
    wait_for,
    worker_stats,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: Not the shared test worker database: other real-worker tests may run meanwhile
#: (``TAKEOVER_TEST_BROKER`` names another Redis database for it).
BROKER = os.environ.get("TAKEOVER_TEST_BROKER") or _own_database(BROKER_URL, 12)
LEASE = "tienlen:bots:lease:bots.0"
#: Slow enough that a game lasts long enough to be interrupted (about 50 bot moves).
ENV = {"GAMES_BOT_DELAY_SECONDS": "0.25"}
LEASED = ("--bot-shards", "lease")

#: A global move counter and a hash chain of every gameState it got and of every
#: ``Math.random()`` it drew: a bot whose globals or random stream were reset or skipped a
#: turn prints other lines from then on.
CHAIN_BOT = """
var moves = 0;
var chain = "811c9dc5";
function canon(v) {
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  if (v !== null && typeof v === "object") {
    return "{" + Object.keys(v).sort().map(function (k) {
      return JSON.stringify(k) + ":" + canon(v[k]);
    }).join(",") + "}";
  }
  return JSON.stringify(v);
}
function fnv(s) {
  var h = 0x811c9dc5;
  for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16);
}
function getNextMove(gameState) {
  moves += 1;
  chain = fnv(chain + canon(gameState) + Math.random());
  console.log("move " + moves + " " + chain);
  if (gameState.validMoves.length > 0) {
    return { action: "play", cards: gameState.validMoves[0].cards };
  }
  return { action: "pass" };
}
"""


class Scheduler(BrokerScheduler):
    broker_url = BROKER


def _owner() -> str | None:
    value: Any = redis.Redis.from_url(BROKER).get(LEASE)
    return value.decode() if value else None


def _record(action: Action) -> dict[str, Any]:
    return dict(action.bot_record or {})


def _actions(game_id: int) -> list[Action]:
    return list(Action.objects.filter(game_id=game_id).order_by("seq"))


def _lease_worker(label: str, *args: str) -> Any:
    """A real bot worker with ``--bot-shards lease`` (and ``args``), a thread pool."""
    return celery_worker(
        broker_url=BROKER,
        queues=("bots.idle",),
        pool="threads",
        concurrency=4,
        label=label,
        clean=False,
        env=ENV,
        args=(*LEASED, *args),
    )


def _held_by(label: str) -> bool:
    return (_owner() or "").startswith(node_name(label))


def assert_as_if_uninterrupted(game: Game, version_id: int) -> None:
    """Every move of ``game`` is there once, the engine replays them to its stored state, and
    the bots printed what one sandbox per bot playing the whole game without a break prints:
    a fresh sandbox per bot (same seed) given the game's states, from the Replay lab (its
    walk: the lab itself opens once the duplicate set's deal is closed)."""
    actions = _actions(game.pk)
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    engine = engine_of(game.engine, game.rules_version)
    state = engine.new_game(dict(game.config), game.seed)
    for action in actions:
        state, _ = engine.apply(state, dict(action.payload))
    assert engine.state_to_json(state) == game.state
    assert all(_record(a) and _record(a)["strike"] is None for a in actions)
    assert not any(_record(a).get("replay_diverged") for a in actions)
    lab = [m.to_json() for m in _walk(game, {0, 1, 2, 3}, players_of(game))]
    uninterrupted = BotRegistry(mode="pool")  # as the workers run them
    try:
        expected = {
            move["seq"]: uninterrupted.play(
                (game_key(game.pk), move["seat"], version_id),
                load_code=lambda: CHAIN_BOT,
                game_state=move["game_state"],
                timeout_s=5.0,
            ).console
            for move in lab
        }
    finally:
        uninterrupted.close_all()
    assert {a.seq: _record(a)["console"] for a in actions} == expected
    for seat in range(4):
        consoles = [_record(a)["console"][0] for a in actions if a.seat == seat]
        assert [c.split()[1] for c in consoles] == [str(n) for n in range(1, len(consoles) + 1)]


def _finished(game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()


def test_a_killed_shard_worker_s_games_go_on_elsewhere_with_their_bots_globals(
    settings: Any,
) -> None:
    settings.GAMES_SCHEDULER = f"{__name__}.Scheduler"
    owner = new_user("owner")
    versions = [ready_version(owner, CHAIN_BOT, f"Chain {n}") for n in range(4)]
    home = ("--bot-shard-home", "bots.0")
    with ExitStack() as stack:
        stack.enter_context(
            celery_worker(
                broker_url=BROKER, queues=("default", "bots"), label="lease-default", env=ENV
            )
        )
        log_a = stack.enter_context(_lease_worker("lease-a", *home))
        wait_for(lambda: _held_by("lease-a"), timeout=30, log=log_a)
        # B: a standby, it has no shard of its own; it starts once A holds shard 0
        log_b = stack.enter_context(_lease_worker("lease-b"))
        pid_a = worker_stats("lease-a", broker_url=BROKER)["pid"]
        table = services.table_create_arena(
            owner=owner, bot_version_ids=[v.pk for v in versions], session_length=16
        )

        def game_under_way() -> Game | None:
            # the running game once 12 moves are in (a short deal may end before: the next)
            game = Game.objects.filter(table=table, status=Game.Status.RUNNING).first()
            if game is None:
                return None
            return game if len(_actions(game.pk)) >= 12 else None

        game = wait_for(game_under_way, timeout=60, log=log_a)
        assert _held_by("lease-a")
        os.kill(pid_a, signal.SIGKILL)
        killed_at = time.monotonic()
        before = len(_actions(game.pk))
        # the game goes on within 10 s, on B
        wait_for(lambda: len(_actions(game.pk)) > before + 1, timeout=10, log=log_b)
        resumed_s = time.monotonic() - killed_at
        assert _held_by("lease-b")
        game = wait_for(lambda: _finished(game.pk), timeout=60, log=log_b)
        log_text = log_b.read_text(errors="replace")
        # A comes back (a new process, homed on bots.0 again): B hands the shard back, and the
        # game running then goes on there
        log_a2 = stack.enter_context(_lease_worker("lease-a2", *home))
        wait_for(lambda: _held_by("lease-a2"), timeout=30, log=log_a2)
        latest = Game.objects.filter(table=table).order_by("-number").first()
        assert latest is not None
        later = wait_for(lambda: _finished(latest.pk), timeout=60, log=log_a2)
    print(f"kill -9 to the next moves on the other worker: {resumed_s:.2f} s")
    # each bot's first turn on B played its earlier turns again, and they came out the same
    actions = _actions(game.pk)
    after = [a for a in actions if a.seq > before]
    replays = {a.seat: _record(a).get("replayed") for a in reversed(after)}
    earlier = {s: len([a for a in actions if a.seq <= before and a.seat == s]) for s in range(4)}
    assert replays == {s: earlier[s] for s in range(4) if earlier[s]}
    # B rebuilt the four sandboxes as it took the shard, before their turns came
    # (docs/bot-affinity.md "Rebuilt ahead"): those turns replayed nothing themselves
    rebuilt = re.findall(rf"bot sandbox rebuilt ahead: game=game:{game.pk} seat=(\d)", log_text)
    assert sorted(int(seat) for seat in rebuilt) == [0, 1, 2, 3]
    turns_on_b = re.findall(
        rf"bot turn after a replay: game=game:{game.pk} seat=\d replayed=\d+ \S+ ahead=(\w+)",
        log_text,
    )
    assert turns_on_b
    assert set(turns_on_b) == {"True"}
    # no move lost or applied twice, and the bots' output is an uninterrupted sandbox's
    assert_as_if_uninterrupted(game, versions[0].pk)
    assert_as_if_uninterrupted(later, versions[0].pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.IN_PROGRESS
