"""Where a person's move spends its wall time in daphne: ``benchmarks/ws_load.py --timeline``.

daphne serves :data:`application` from this module instead of ``config.asgi``: the site's own
application, with the steps of a move's walk (docs/architecture.md "A person's move, step by
step") wrapped from outside to note a monotonic timestamp as each one ends. Nothing of the site
changes; the wrappers cost a few microseconds a step. Each process appends its marks to
``$WS_LOAD_TIMELINE/marks.<pid>``; :func:`summary` turns them into the median and 90th
percentile of every step, per move, and ``ws_load.py`` prints it after its report.

The steps, in order (one move of one table; a table's moves are seconds apart, so the marks of a
table are matched in order):

``receive``        the move frame reached the table socket (event loop)
``thread``         its service began in a thread of the database pool (the hop)
``locked``         the table row locked and read (the transaction's first round trip and, on a
                   connection not proven within a second, Django's health check before it)
``stored``         the engine applied, the frames built, the move saved (its second round trip)
``committed``      ``COMMIT`` returned (the third)
``service done``   the announcement collected on commit, the service returned
``loop``           back on the event loop
``announced``      the group message handed to the channel layer (this process's own sockets'
                   buffers filled, then the group's members read from Redis)
``socket 1..4``    each of the table's sockets sent its frames (counted from ``loop``: this
                   process's sockets may send before ``announced``)
"""

from __future__ import annotations

import functools
import os
import statistics
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

STEPS = [
    "receive",
    "thread",
    "locked",
    "stored",
    "committed",
    "service done",
    "loop",
    "announced",
    "socket 1",
    "socket 2",
    "socket 3",
    "socket 4",
]

_out: Any = None
_lock = threading.Lock()
_local = threading.local()


def mark(table_id: Any, step: str) -> None:
    global _out
    now = time.perf_counter_ns()
    with _lock:
        if _out is None:
            folder = Path(os.environ["WS_LOAD_TIMELINE"])
            _out = open(folder / f"marks.{os.getpid()}", "a", buffering=1)  # noqa: SIM115
        _out.write(f"{table_id}\t{step}\t{now}\n")


def _install() -> None:
    from config.postgresql import base
    from games import consumers, realtime, services
    from games.services import play

    game_play = services.game_play

    @functools.wraps(game_play)
    def timed_game_play(*args: Any, **kwargs: Any) -> Any:
        table = kwargs.get("table_id")
        _local.table = table
        mark(table, "thread")
        try:
            return game_play(*args, **kwargs)
        finally:
            _local.table = None
            mark(table, "service done")

    services.game_play = timed_game_play

    lock_table = play.lock_table

    def timed_lock(table_id: int, **kwargs: Any) -> Any:
        ctx = lock_table(table_id, **kwargs)
        if getattr(_local, "table", None) == table_id:
            mark(table_id, "locked")
        return ctx

    play.lock_table = timed_lock

    save_move = play.save_move

    def timed_save(game: Any, row: Any, **kwargs: Any) -> None:
        save_move(game, row, **kwargs)
        if getattr(_local, "table", None) == game.table_id:
            mark(game.table_id, "stored")

    play.save_move = timed_save

    commit = base.DatabaseWrapper._commit

    def timed_commit(self: Any) -> None:
        commit(self)
        table = getattr(_local, "table", None)
        if table is not None:
            mark(table, "committed")

    base.DatabaseWrapper._commit = timed_commit  # type: ignore[method-assign]

    send_async = realtime.send_async

    async def timed_send(sends: list[Any], *args: Any, **kwargs: Any) -> None:
        tables = {group.split("-")[1] for group, _message in sends if group.startswith("table-")}
        table = int(tables.pop()) if len(tables) == 1 else None
        if table is not None:
            mark(table, "loop")
        await send_async(sends, *args, **kwargs)
        if table is not None:
            mark(table, "announced")

    realtime.send_async = timed_send

    receive = consumers.TableConsumer.receive

    async def timed_receive(self: Any, text_data: str | None = None, **kwargs: Any) -> None:
        if text_data and '"version"' in text_data:
            mark(getattr(self, "table_id", None), "receive")
        await receive(self, text_data, **kwargs)

    consumers.TableConsumer.receive = timed_receive  # type: ignore[method-assign,assignment]

    table_frames = consumers.TableConsumer.table_frames

    async def timed_frames(self: Any, event: dict[str, Any]) -> None:
        await table_frames(self, event)
        mark(self.table_id, "socket")

    consumers.TableConsumer.table_frames = timed_frames  # type: ignore[method-assign]


#: Each step and the step its time is counted from: the sockets from ``loop``, since this
#: process's own sockets get the message before the group's members are read from Redis
#: (``announced`` may come after them).
SINCE = [
    ("thread", "receive"),
    ("locked", "thread"),
    ("stored", "locked"),
    ("committed", "stored"),
    ("service done", "committed"),
    ("loop", "service done"),
    ("announced", "loop"),
    ("socket 1", "loop"),
    ("socket 4", "loop"),
    ("socket 4", "receive"),
]


def summary(folder: Path) -> list[tuple[str, str, float, float, int]]:
    """``(step, since, p50 ms, p90 ms, moves)``: the time from ``since`` to ``step``
    (:data:`SINCE`), over the moves whose every step was seen."""
    marks: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for path in folder.glob("marks.*"):
        for line in path.read_text().splitlines():
            table, label, raw = line.split("\t")
            if table != "None":
                marks[table].append((int(raw), label))
    moves: list[dict[str, int]] = []
    for rows in marks.values():
        rows.sort()
        move: dict[str, int] | None = None
        for stamp, name in rows:
            if name == "receive":
                move = {"receive": stamp}
                moves.append(move)
            elif move is not None:
                if name == "socket":
                    name = f"socket {sum(1 for k in move if k.startswith('socket ')) + 1}"
                move.setdefault(name, stamp)
    whole = [m for m in moves if all(step in m for step in STEPS)]
    out = []
    for step, since in SINCE:
        gaps = sorted((m[step] - m[since]) / 1e6 for m in whole)
        if gaps:
            p90 = gaps[int(0.9 * (len(gaps) - 1))]
            out.append((step, since, statistics.median(gaps), p90, len(gaps)))
    return out


_application: Any = None


def __getattr__(name: str) -> Any:
    """``application``: the site's (config/asgi.py) with the wrappers installed, made when
    daphne asks for it (``ws_load.py`` imports :func:`summary` without the site)."""
    global _application
    if name != "application":
        raise AttributeError(name)
    if _application is None:
        from config.asgi import application as site

        _install()
        _application = site
    return _application
