"""The bot-turn task plays the server seats' turns that follow at once in one task
(``games.services.game_autoplay_turns``): each turn is still its own stored, broadcast move,
only the trip through the broker is saved; a delay or the end of the slice sends the next turn
back to the queue."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from games import realtime, services
from games.models import Action, ChatMessage, Game
from games.realtime import fanout
from tests.factories import UserFactory
from tests.games.live import house_game
from tests.scheduler import RecordingScheduler

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> RecordingScheduler:
    """The recorder, installed by :func:`tests.games.live.house_game` once the game is dealt."""
    return RecordingScheduler(monkeypatch)


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every ``game_state_update`` frame sent (decoded), in order: recorded where every sink
    of synchronous code ends, the sender loop's ``send_async`` (``send_now`` waits for it,
    ``send_soon`` does not, ``flush`` does)."""
    sent: list[dict[str, Any]] = []

    async def record(sends: list[Any], *_: Any) -> None:
        for _group, message in sends:
            for _audience, text in message.get("frames", []):
                frame = json.loads(text)
                if frame.get("type") == "game_state_update":
                    sent.append(frame)

    monkeypatch.setattr(fanout, "send_async", record)
    return sent


def test_turns_that_follow_at_once_are_played_in_the_same_task(
    settings: Any, recorder: RecordingScheduler, frames: list[dict[str, Any]]
) -> None:
    settings.GAMES_BOT_DELAY_SECONDS = 0.0
    settings.GAMES_AUTOPLAY_SLICE_SECONDS = 60.0
    game, args = house_game(recorder)
    start = game.version

    assert services.game_autoplay_turns(game_id=args[0], version=args[1]) is True

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # the one task played the game to its end
    played = game.version - start
    assert played > 1
    # no turn went back through the broker
    assert recorder.turns() == []
    # every turn is its own stored move, applied in order, and broadcast once to each audience
    seqs = list(Action.objects.filter(game=game, seq__gt=start).values_list("seq", flat=True))
    assert seqs == list(range(start + 1, game.version + 1))
    versions = sorted({f["version"] for f in frames})
    assert versions == list(range(start + 1, game.version + 1))


def test_the_end_of_the_slice_sends_the_next_turn_back_to_the_queue(
    settings: Any, recorder: RecordingScheduler
) -> None:
    settings.GAMES_BOT_DELAY_SECONDS = 0.0
    settings.GAMES_AUTOPLAY_SLICE_SECONDS = 0.0
    game, args = house_game(recorder)

    assert services.game_autoplay_turns(game_id=args[0], version=args[1]) is True

    game.refresh_from_db()
    assert game.version == args[1] + 1  # one turn, then the slice was over
    assert recorder.turns() == [([game.pk, game.version], 0.0, realtime.bot_queue(game.pk))]


def test_with_a_bot_delay_every_turn_is_its_own_task(
    settings: Any, recorder: RecordingScheduler
) -> None:
    settings.GAMES_BOT_DELAY_SECONDS = 0.8
    settings.GAMES_AUTOPLAY_SLICE_SECONDS = 60.0
    game, args = house_game(recorder)

    assert services.game_autoplay_turns(game_id=args[0], version=args[1]) is True

    game.refresh_from_db()
    assert game.version == args[1] + 1
    assert recorder.turns() == [([game.pk, game.version], 0.8, realtime.bot_queue(game.pk))]


def test_a_stale_turn_plays_nothing_and_sends_nothing(
    settings: Any, recorder: RecordingScheduler
) -> None:
    settings.GAMES_BOT_DELAY_SECONDS = 0.0
    game, args = house_game(recorder)

    assert services.game_autoplay_turns(game_id=args[0], version=args[1] - 1) is False

    game.refresh_from_db()
    assert game.version == args[1]
    assert recorder.turns() == []


def test_a_failing_turn_sends_the_turns_not_yet_played_back(
    settings: Any, recorder: RecordingScheduler, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn that raises ends the task (as a failed task did); the next turn that an earlier
    turn of the run had already handed over is not lost with it."""
    from games.services import autoplay

    settings.GAMES_BOT_DELAY_SECONDS = 0.0
    settings.GAMES_AUTOPLAY_SLICE_SECONDS = 60.0
    game, args = house_game(recorder)
    real = autoplay._autoplay_turn
    calls: list[int] = []

    def turn(**kwargs: Any) -> Any:
        calls.append(kwargs["version"])
        if len(calls) == 2:
            # the second turn collects its follower, then fails after its commit
            real(**kwargs)
            raise RuntimeError("worker trouble")
        return real(**kwargs)

    monkeypatch.setattr(autoplay, "_autoplay_turn", turn)
    with pytest.raises(RuntimeError):
        services.game_autoplay_turns(game_id=args[0], version=args[1])

    game.refresh_from_db()
    assert game.version == args[1] + 2
    if game.status == Game.Status.RUNNING:
        assert recorder.turns() == [([game.pk, game.version], 0.0, realtime.bot_queue(game.pk))]


# --------------------------------------------------------------------------- runs stored together
def _each_version_once(frames: list[dict[str, Any]], first: int, last: int) -> None:
    """Every version from ``first`` to ``last`` was broadcast, in order, the same number of
    times (once per audience): none was sent twice, none out of order."""
    import collections

    versions = [f["version"] for f in frames]
    assert versions == sorted(versions)
    counts = collections.Counter(versions)
    assert sorted(counts) == list(range(first, last + 1))
    assert len(set(counts.values())) == 1, counts


def _run_settings(settings: Any, store_seconds: float) -> None:
    """Server turns follow at once, one task plays them all, runs store every ``store_seconds``."""
    settings.GAMES_BOT_DELAY_SECONDS = 0.0
    settings.GAMES_AUTOPLAY_SLICE_SECONDS = 60.0
    settings.GAMES_AUTOPLAY_STORE_SECONDS = store_seconds


def _stored_and_sent_once(game: Game, start: int, frames: list[dict[str, Any]]) -> None:
    """The game played to its end; every move after ``start`` stored once, in order, and
    broadcast once (:func:`_each_version_once`)."""
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    seqs = list(Action.objects.filter(game=game, seq__gt=start).values_list("seq", flat=True))
    assert seqs == list(range(start + 1, game.version + 1))
    _each_version_once(frames, start + 1, game.version)


def test_a_run_stores_its_moves_together_and_sends_none_before_it_is_stored(
    settings: Any,
    recorder: RecordingScheduler,
    frames: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from games.services import sql

    _run_settings(settings, 0.0005)  # several stores, in the store thread
    game, args = house_game(recorder)
    start = game.version
    stores: list[int] = []
    real = sql._run_store
    threads: set[str] = set()

    def store(cursor: Any, job: Any) -> None:  # in the run's store thread, or the run's
        assert all(f["version"] <= job.since for f in frames)  # nothing held went out yet
        stores.append(job.moves)
        threads.add(threading.current_thread().name)
        real(cursor, job)

    lines: list[dict[str, Any]] = []  # the system lines' frames, as sent
    recording = fanout.send_async

    async def send_async(sends: list[Any], *rest: Any) -> None:
        for _group, message in sends:
            for _audience, text in message.get("frames", []):
                frame = json.loads(text)
                if frame.get("type") == "message_received":
                    lines.append(frame)
        await recording(sends, *rest)

    monkeypatch.setattr(fanout, "send_async", send_async)
    monkeypatch.setattr(sql, "_run_store", store)
    assert services.game_autoplay_turns(game_id=args[0], version=args[1]) is True

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    played = game.version - start
    # the moves after the first turn are stored several at a time (the game's end is applied
    # in the transaction of the moves before it), most while the run played on
    assert len(stores) < played / 2
    assert any(name.startswith("run-store") for name in threads), threads
    assert sum(stores) + len(stores) >= played - 1
    seqs = list(Action.objects.filter(game=game, seq__gt=start).values_list("seq", flat=True))
    assert seqs == list(range(start + 1, game.version + 1))
    _each_version_once(frames, start + 1, game.version)
    # the rounds' system lines of held moves were stored with them, and sent as stored
    stored = {m.pk: m for m in ChatMessage.objects.filter(table_id=game.table_id, code="round_won")}
    assert stored
    sent = {f["id"]: f for f in lines if f["code"] == "round_won"}
    assert set(sent) == set(stored)
    for pk, frame in sent.items():
        assert frame["params"] == stored[pk].params
        assert frame["at"] == realtime.frames.ts(stored[pk].created_at)


def test_a_held_move_makes_no_query_and_the_games_end_is_not_held(
    settings: Any,
    recorder: RecordingScheduler,
    frames: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What may be held is decided by the move path itself (``Work.needs_database`` raises
    ``NeedsStore`` before anything is written), not by refusing SQL: a held move reads and
    writes nothing, and the move that ends the game is applied under the lock."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.services import runs

    _run_settings(settings, 60.0)
    game, args = house_game(recorder)
    start = game.version
    real = runs.Run.play
    held: list[int] = []
    refused: list[int] = []

    def play(self: Any, ctx: Any, apply: Any) -> bool:
        version = ctx.game.version
        with CaptureQueriesContext(connection) as queries:
            ok = bool(real(self, ctx, apply))
        (held if ok else refused).append(len(queries.captured_queries))
        if not ok:
            assert ctx.game.version == version  # the refused move left the table as it was
        return ok

    monkeypatch.setattr(runs.Run, "play", play)
    services.game_autoplay_turns(game_id=args[0], version=args[1])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert held
    assert set(held) == {0}
    assert refused
    assert set(refused) == {0}
    _each_version_once(frames, start + 1, game.version)


def test_with_no_store_window_every_move_is_stored_alone(
    settings: Any, recorder: RecordingScheduler, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.services import runs

    _run_settings(settings, 0.0)
    game, args = house_game(recorder)
    stores: list[int] = []
    real = runs.store_moves

    def store(**kw: Any) -> None:
        stores.append(len(kw["held"].rows))
        real(**kw)

    monkeypatch.setattr(runs, "store_moves", store)

    services.game_autoplay_turns(game_id=args[0], version=args[1])

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert stores
    assert set(stores) <= {0, 1}


def test_a_change_to_the_table_drops_the_held_moves_and_the_run_starts_again_from_it(
    settings: Any,
    recorder: RecordingScheduler,
    frames: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Someone changed the table (a seat, the arena's state) while the run played: the held
    moves are not stored and their frames never go out; the run plays on from what is stored,
    and every move is stored and sent exactly once."""
    from django.db.models import F

    from games.models import Table
    from games.services import runs

    _run_settings(settings, 60.0)
    game, args = house_game(recorder)
    start = game.version
    real = runs.Run.store
    dropped: list[int] = []

    def store(self: Any, *a: Any, **kw: Any) -> bool:
        if not dropped and self.held >= 3:  # another process's change, committed meanwhile
            Table.objects.filter(pk=game.table_id).update(version=F("version") + 1)
            dropped.append(self.held)
            held_version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
            assert real(self, *a, **kw) is False
            assert self.dropped == held_version  # start again from what is stored
            assert Game.objects.values_list("version", flat=True).get(pk=game.pk) == held_version
            return False
        return bool(real(self, *a, **kw))

    monkeypatch.setattr(runs.Run, "store", store)
    services.game_autoplay_turns(game_id=args[0], version=args[1])

    assert dropped
    _stored_and_sent_once(game, start, frames)


def test_a_change_found_by_a_store_in_flight_drops_every_move_played_after_it(
    settings: Any,
    recorder: RecordingScheduler,
    frames: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The run's store thread finds the table changed (another process's change, committed
    just before its lock): the moves it was storing and those the run played meanwhile are
    dropped, none of their frames go out, and the run plays on from what is stored."""
    from games.services import sql

    _run_settings(settings, 0.0005)
    game, args = house_game(recorder)
    start = game.version
    real = sql._run_store
    changed: list[int] = []

    def store(cursor: Any, job: Any) -> None:
        if not changed and threading.current_thread().name.startswith("run-store"):
            changed.append(job.since)  # the change lands first (here: in the same transaction)
            cursor.execute(
                "UPDATE games_table SET version = version + 1 WHERE id = %s", [job.table_id]
            )
        real(cursor, job)

    monkeypatch.setattr(sql, "_run_store", store)
    services.game_autoplay_turns(game_id=args[0], version=args[1])

    assert changed
    _stored_and_sent_once(game, start, frames)


@pytest.mark.parametrize("needs", [True, False])
def test_a_player_that_needs_the_stored_game_is_called_once_the_moves_before_are_stored(
    settings: Any,
    recorder: RecordingScheduler,
    bot_player: Any,
    needs: bool,
) -> None:
    """External bots check their move against the stored game: their player says so
    (``needs_stored_game``) and the run stores its held moves before asking it. (Without it,
    the run asks while it still holds moves: what the player would then find stored is
    older.)"""
    from games import extensions
    from tests.factories import BotVersionFactory

    _run_settings(settings, 60.0)
    settings.GAMES_COUNTDOWN_SECONDS = 0.0
    owner = UserFactory.create(username="arena-owner")
    versions = [BotVersionFactory.create(bot__owner=owner, status="ready") for _ in range(4)]
    recorder.install()
    table = services.table_create_arena(
        owner=owner, bot_version_ids=[v.pk for v in versions], session_length=16
    )
    begin = [c for c in recorder.calls if c[0] == services.TASK_TABLE_BEGIN]
    services.table_begin(table_id=begin[0][1][0], version=begin[0][1][1])
    game = Game.objects.get(table=table, number=1)
    first = [t for t in recorder.turns() if t[0][0] == game.pk]
    assert first
    seen: list[tuple[int, int]] = []

    def player(*, seat: Any, game: Game, engine: Any, state: Any) -> dict[str, Any]:
        stored = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        seen.append((game.version, stored))
        return dict(engine.house_action(state, seat.index, "easy"))

    player.needs_stored_game = lambda seat: needs  # type: ignore[attr-defined]
    bot_player(player)
    services.game_autoplay_turns(game_id=first[0][0][0], version=first[0][0][1])
    extensions.set_bot_player(extensions.house_bot_player)

    assert len(seen) > 3
    if needs:
        assert all(mine == stored for mine, stored in seen)
    else:
        assert any(mine != stored for mine, stored in seen)
