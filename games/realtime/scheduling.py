"""Scheduling: timers and bot turns as Celery tasks on their queues, behind a swappable
scheduler (the tests' injected clock)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from games import clock

logger = logging.getLogger(__name__)


# --------------------------------------------------------------------------- scheduling
class Scheduler(Protocol):
    """Runs a Celery task (by name) after ``delay`` seconds on ``queue``: counted from
    ``since`` (a :func:`games.clock.now` time: when the service asked for the timer) when
    given, else from now."""

    def schedule(
        self, name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None: ...


def countdown(delay: float, since: float | None) -> float:
    """The seconds left of a ``delay`` that began at ``since`` (:func:`games.clock.now` time;
    None: it begins now), never below 0.

    A service asks for its timers while it works (``games.services.unit.Work.timer``: a bot
    turn's ``GAMES_BOT_DELAY_SECONDS`` as the move is made) and they are sent once its
    transaction has committed: the milliseconds of storing and committing the move are part of
    the delay, not added to it (docs/benchmarks.md "Issue 26: the paced bot move").

    >>> from games import clock
    >>> with clock.use(lambda: 100.25):
    ...     countdown(0.8, 100.0), countdown(0.8, None), countdown(0.1, 99.0)
    (0.55, 0.8, 0.0)
    """
    if since is None or delay <= 0:
        return max(0.0, delay)
    return max(0.0, delay - max(0.0, clock.now() - since))


def celery_task(name: str) -> Any:
    """The registered Celery task called ``name`` (its app's ``tasks`` module is imported if
    need be: ``games.turn_timeout`` and ``bots.tasks.botversion_validate`` live in
    ``games.tasks`` and ``bots.tasks``)."""
    from celery import current_app

    if name not in current_app.tasks:  # autodiscovery is lazy; load the task module itself
        import_module(name.split(".", 1)[0] + ".tasks")
    return current_app.tasks[name]


class CeleryScheduler:
    """The scheduler of every run mode: ``apply_async(countdown=...)`` on the task's queue, for
    a worker to run. Every timer task names its game (or table) and the version it was
    scheduled for, so a late, early or duplicate delivery changes nothing (games/tasks.py);
    beat's ``games.timers_heal`` re-arms what a dead process lost (docs/architecture.md)."""

    def schedule(
        self, name: str, args: list[Any], *, delay: float, queue: str, since: float | None = None
    ) -> None:
        try:
            celery_task(name).apply_async(args=args, countdown=countdown(delay, since), queue=queue)
        except Exception:  # called after a commit: a broker failure must not undo the move
            logger.exception("scheduling failed", extra={"task": name})


_CELERY = CeleryScheduler()


def get_scheduler() -> Scheduler:
    """:class:`CeleryScheduler`, unless the ``GAMES_SCHEDULER`` setting names another
    scheduler (a dotted path to a scheduler object, or to a class to instantiate).

    That setting is the tests' seam and nothing else: config/settings/test.py points it at
    ``tests.scheduler.SCHEDULER``, which runs the real tasks in the test's thread when an
    injected clock (:mod:`games.clock`) says they are due. No run mode sets it."""
    path = settings.GAMES_SCHEDULER
    if not path:
        return _CELERY
    target = import_string(path)
    scheduler: Scheduler = target() if isinstance(target, type) else target
    return scheduler


#: The queue of every server turn (bots, house AIs) of tournament tables: one worker process
#: of its own (``./bin/run``'s ``worker-tournament``, at nice 10), so a tournament's bulk of
#: house-AI and bot moves never delays people's tables on ``bots.<n>``.
TOURNAMENT_QUEUE = "bots.tournament"

#: The queue of every server turn of ladder tables (the bot ladder, bots/ladder/): consumed
#: only by ``worker-ladder`` (one process, at nice 15, ``config.launcher.supervisor.LADDER_NICE``)
#: with the ladder's own tasks, so the ladder never delays people's or tournament tables.
LADDER_QUEUE = "bots.ladder"


def bot_queue(game_id: int, *, tournament: bool = False, ladder: bool = False) -> str:
    """The Celery queue of every bot and house-AI turn of game ``game_id`` (and of closing its
    sandboxes): shard ``bots.<game_id mod BOTS_QUEUE_SHARDS>``, or :data:`TOURNAMENT_QUEUE`
    for a game of a tournament table, :data:`LADDER_QUEUE` for a ladder table's. Each is
    consumed by one worker process, so a game's bots keep their sandboxes (and globals) for the
    whole game.

    >>> bot_queue(7)  # BOTS_QUEUE_SHARDS = 1
    'bots.0'
    >>> bot_queue(7, tournament=True)
    'bots.tournament'
    >>> bot_queue(7, ladder=True)
    'bots.ladder'
    """
    if ladder:
        return LADDER_QUEUE
    if tournament:
        return TOURNAMENT_QUEUE
    shards = max(1, int(settings.BOTS_QUEUE_SHARDS))
    return f"bots.{game_id % shards}"


def is_bot_queue(name: object) -> bool:
    """Whether ``name`` is a queue of server turns (``bots.<n>``, ``bots.tournament`` or
    ``bots.ladder``).

    >>> is_bot_queue("bots.3"), is_bot_queue("bots.tournament"), is_bot_queue("default")
    (True, True, False)
    """
    if not isinstance(name, str) or not name.startswith("bots."):
        return False
    rest = name.removeprefix("bots.")
    return rest.isdigit() or name in (TOURNAMENT_QUEUE, LADDER_QUEUE)


@dataclass
class Handover:
    """The caller's choice to run itself, next, what it schedules of task ``name`` on
    ``queue`` to run at once (``delay <= 0``): :func:`schedule` puts those runs' arguments in
    :attr:`runs` instead of sending them through the broker. The caller is a task of that very
    name on that very queue (:func:`games.services.autoplay.game_autoplay_turns`); it must
    schedule whatever it collected and does not run. A process that dies first loses them as
    it would lose a consumed task, and beat's ``games.timers_heal`` re-arms them.

    >>> mine = Handover("games.seat_autoplay", "bots.0")
    >>> mine.take("games.seat_autoplay", [7, 3], delay=0.0, queue="bots.0")
    True
    >>> mine.take("games.seat_autoplay", [7, 4], delay=0.8, queue="bots.0"), mine.runs
    (False, [[7, 3]])
    """

    name: str
    queue: str
    runs: list[list[Any]] = field(default_factory=list)

    def drain(self) -> list[list[Any]]:
        """The runs kept so far, which the caller now owns; :attr:`runs` is empty again."""
        runs, self.runs = self.runs, []
        return runs

    def take(self, name: str, args: list[Any], *, delay: float, queue: str) -> bool:
        """Keep this run if it is one of the caller's; False: it is scheduled as usual."""
        if delay <= 0 and name == self.name and queue == self.queue:
            self.runs.append(list(args))
            return True
        return False


def schedule(
    name: str,
    args: list[Any],
    *,
    delay: float,
    queue: str = "default",
    handover: Handover | None = None,
    since: float | None = None,
) -> None:
    """Run task ``name`` with ``args`` in ``delay`` seconds (at once when ``delay <= 0``), or
    hand it to ``handover`` when it is the caller's to run. ``since``: when the delay began
    (:func:`countdown`; None: now). Whether it is handed over depends on ``delay`` alone: a
    delayed turn is never played at once in its caller's task, however late it is sent."""
    if handover is not None and handover.take(name, args, delay=delay, queue=queue):
        return
    get_scheduler().schedule(name, args, delay=delay, queue=queue, since=since)
