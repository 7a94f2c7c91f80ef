"""Running a duplicate match: :func:`run_match` plans, plays (through an optional ``mapper``
for parallel play), accumulates, stops early (``should_stop``, or once the intervals separate)
and resumes a stopped match; it reports through ``on_progress`` (:class:`MatchProgress`) and
returns a :class:`MatchResult`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.core.protocol import Game, JSONDict
from games.engine.duplicate.entrants import Entrant
from games.engine.duplicate.play import (
    GameOutcome,
    GameTask,
    PlannedGame,
    match_config,
    plan_match,
    play_task,
)
from games.engine.duplicate.stats import MIN_DEALS_TO_SEPARATE, DuplicateStats

__all__ = ["Mapper", "MatchProgress", "MatchResult", "run_match"]


@dataclass(frozen=True)
class MatchProgress:
    """Where a running match is, for ``on_progress``: deals done of planned, games done, and
    the statistics so far (``stats.report()``)."""

    deals_done: int
    deals: int
    games_done: int
    stats: DuplicateStats


@dataclass
class MatchResult:
    """What :func:`run_match` returns. ``report`` is :meth:`DuplicateStats.report` plus
    ``deals_planned`` and ``stopped`` (None when every deal was played, ``"separated"`` when
    the intervals separated, ``"stopped"`` when ``should_stop`` asked); ``series`` holds one
    :meth:`DuplicateStats.estimate` per deal played; ``outcomes`` every game (only with
    ``keep_outcomes``)."""

    report: JSONDict
    series: list[JSONDict]
    stats: DuplicateStats
    outcomes: list[GameOutcome] = field(default_factory=list)

    def to_json(self) -> JSONDict:
        """The report with its ``series``."""
        return {**self.report, "series": list(self.series)}


#: ``mapper(fn, tasks)``: plays ``fn(task)`` for every task, the outcomes in task order (the
#: built-in ``map``, or an executor's ``map`` for parallel play).
Mapper = Callable[[Callable[[GameTask], GameOutcome], Iterable[GameTask]], Iterable[GameOutcome]]


def _chunks(
    plan: list[PlannedGame], n_seats: int, deals_per_batch: int
) -> Iterator[list[PlannedGame]]:
    step = max(1, deals_per_batch) * n_seats
    for i in range(0, len(plan), step):
        yield plan[i : i + step]


def run_match(
    engine: Game,
    entrants: Sequence[Entrant],
    deals: int,
    seed: int | str,
    *,
    config: Mapping[str, Any] | None = None,
    mapper: Mapper | None = None,
    deals_per_batch: int = 1,
    on_progress: Callable[[MatchProgress], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    stop_when_separated: bool = False,
    min_deals: int = MIN_DEALS_TO_SEPARATE,
    keep_outcomes: bool = False,
    resume: DuplicateStats | None = None,
    series: Sequence[JSONDict] = (),
) -> MatchResult:
    """Play a duplicate match of ``entrants`` (the field: one per seat) over ``deals`` deals
    of ``engine`` from ``seed``.

    ``config`` holds table options (the players are the field's size; see
    :func:`match_config`). ``mapper(fn, tasks)`` plays games, returning outcomes in task order
    (the built-in ``map`` by default; a process pool's ``map`` for parallel play); it is given
    ``deals_per_batch`` deals at a time. After each deal (in deal order, so the result does not
    depend on the batching) ``on_progress`` is called, and the match stops early when
    ``should_stop()`` is true or, with ``stop_when_separated``,
    :meth:`DuplicateStats.separated` (after ``min_deals``). The same engine, field, deals,
    seed and config give the same report (timing aside).

    ``resume`` (statistics saved with :meth:`DuplicateStats.to_json` after some deals of the
    same match) continues after its last deal; ``series`` is the running estimate so far.
    """
    n = len(entrants)
    if not engine.min_players <= n <= engine.max_players:
        raise ValueError(
            f"{engine.name} is played by {engine.min_players}–{engine.max_players} seats, not {n}"
        )
    cfg = match_config(engine, n, config)
    names = [e.name for e in entrants]
    stats = DuplicateStats(names, game=engine.name, seed=seed)
    if resume is not None:
        if resume.names != names or resume.game != engine.name or resume.seed != seed:
            raise ValueError("resume holds another match's statistics")
        stats = resume
    plan = [g for g in plan_match(n, deals, seed) if g.deal_index >= stats.deals]
    running: list[JSONDict] = list(series)
    kept: list[GameOutcome] = []
    stopped: str | None = None
    run = mapper or (lambda fn, tasks: map(fn, tasks))
    field_ = tuple(entrants)
    for batch in _chunks(plan, n, deals_per_batch):
        if should_stop is not None and should_stop():
            stopped = "stopped"
            break
        tasks = [GameTask(engine, cfg, planned, field_) for planned in batch]
        outcomes = list(run(play_task, tasks))
        for i in range(0, len(outcomes), n):
            deal = outcomes[i : i + n]
            stats.add_deal(deal)
            running.append(stats.estimate())
            if keep_outcomes:
                kept.extend(deal)
            if on_progress is not None:
                on_progress(MatchProgress(stats.deals, deals, stats.games, stats))
            if stop_when_separated and stats.separated(min_deals=min_deals):
                stopped = "separated"
                break
            if should_stop is not None and should_stop():
                stopped = "stopped"
                break
        if stopped:
            break
    report = stats.report()
    report["deals_planned"] = deals
    report["stopped"] = stopped
    return MatchResult(report=report, series=running, stats=stats, outcomes=kept)
