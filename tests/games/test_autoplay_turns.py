"""The bot-turn task plays the server seats' turns that follow at once in one task
(``games.services.game_autoplay_turns``): each turn is still its own stored, broadcast move,
only the trip through the broker is saved; a delay or the end of the slice sends the next turn
back to the queue."""

from __future__ import annotations

from typing import Any

import pytest

from games import realtime, services
from games.models import Action, Game
from games.realtime import fanout
from tests.factories import UserFactory
from tests.scheduler import RecordingScheduler

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> RecordingScheduler:
    """The recorder, installed by :func:`_house_game` once the game is dealt."""
    return RecordingScheduler(monkeypatch)


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every ``game_state_update`` frame broadcast (decoded), in order."""
    import json

    sent: list[dict[str, Any]] = []

    def record(sends: list[Any], *_: Any) -> None:
        for _group, message in sends:
            for _audience, text in message.get("frames", []):
                frame = json.loads(text)
                if frame.get("type") == "game_state_update":
                    sent.append(frame)

    monkeypatch.setattr(fanout, "send_now", record)
    return sent


def _house_game(recorder: RecordingScheduler) -> tuple[Game, list[Any]]:
    """A 2-seat game whose host left at once: both seats are the server's. Returns the game
    and the first bot turn the leave scheduled (nothing has run: the recorder holds it)."""
    owner = UserFactory.create(username="host")
    table = services.table_create(owner=owner, name="House", options={"seats": 2})
    services.seat_add_bot(table_id=table.pk, user=owner, seat=1, level="easy")
    services.seat_ready(table_id=table.pk, user=owner)
    services.table_start(table_id=table.pk, user=owner)
    game = Game.objects.get(table=table, number=1)
    recorder.install()
    services.seat_leave(table_id=table.pk, user=owner)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    first = [t for t in recorder.turns() if t[0] == [game.pk, game.version]]
    assert first, recorder.calls
    recorder.calls.clear()
    return game, first[0][0]


def test_turns_that_follow_at_once_are_played_in_the_same_task(
    settings: Any, recorder: RecordingScheduler, frames: list[dict[str, Any]]
) -> None:
    settings.GAMES_BOT_DELAY_SECONDS = 0.0
    settings.GAMES_AUTOPLAY_SLICE_SECONDS = 60.0
    game, args = _house_game(recorder)
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
    game, args = _house_game(recorder)

    assert services.game_autoplay_turns(game_id=args[0], version=args[1]) is True

    game.refresh_from_db()
    assert game.version == args[1] + 1  # one turn, then the slice was over
    assert recorder.turns() == [([game.pk, game.version], 0.0, realtime.bot_queue(game.pk))]


def test_with_a_bot_delay_every_turn_is_its_own_task(
    settings: Any, recorder: RecordingScheduler
) -> None:
    settings.GAMES_BOT_DELAY_SECONDS = 0.8
    settings.GAMES_AUTOPLAY_SLICE_SECONDS = 60.0
    game, args = _house_game(recorder)

    assert services.game_autoplay_turns(game_id=args[0], version=args[1]) is True

    game.refresh_from_db()
    assert game.version == args[1] + 1
    assert recorder.turns() == [([game.pk, game.version], 0.8, realtime.bot_queue(game.pk))]


def test_a_stale_turn_plays_nothing_and_sends_nothing(
    settings: Any, recorder: RecordingScheduler
) -> None:
    settings.GAMES_BOT_DELAY_SECONDS = 0.0
    game, args = _house_game(recorder)

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
    game, args = _house_game(recorder)
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
