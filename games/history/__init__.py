"""Game history: replays, per-step views, export/import, statistics and archiving.

The service/selector layer behind the history pages (``games.history_views``), the archiving
task (``games.tasks.game_archive``) and the ``games_archive`` command. Everything goes through
the engine protocol (``games.engine.core.protocol.Game``), so any registered game works. By
concern: :mod:`~games.history.records` (a game's record and players),
:mod:`~games.history.text` (readable cards, events and results), :mod:`~games.history.replay`,
:mod:`~games.history.export` (signed export and import), :mod:`~games.history.filters` (the
lists), :mod:`~games.history.stats`, :mod:`~games.history.archive` and
:mod:`~games.history.bot_lab` (the Replay lab: a bot owner's moves with the recomputed
``gameState`` of each).

**Replays are recomputed, never stored.** A game is rebuilt from its seed and action list by the
engine of the game's own ``rules_version`` (:func:`games.engine.registry.find_game_version`);
step *k* is the state after the first *k* actions, shown through ``engine.view(state, seat)``.
Hidden information follows the live table's rules:

* a **running** (or aborted) game replays only from the spectator's view, or from the caller's
  own seat if they sit in it as a person; nobody ever gets the seed;
* a **finished** game replays as a spectator, or from a seat whose cards the end of the game
  reveals (the engine's ``final_hands``: every seat in Tiến Lên and Diu; in stud only the hands
  shown at the showdown), or from a seat the caller held (as a person, or with their bot).
  Every step before the last shows exactly what that perspective saw live (its own hand only);
  the last step adds what the engine reveals once the game is over (:func:`revealed_hands`) —
  a folded stud hand or an uncontested winner's down cards stay hidden.

A bot's per-move record (``Action.bot_record``: time used, strike, console output) reaches only
the bot's owner.

**Exports** (:func:`game_export`) are signed. A finished game whose end shows every hand exports
its seed and actions, and :func:`game_import` replays them. A finished game that keeps cards
hidden (the engine's ``hides_cards``: stud) exports a *hand history* instead — public turns,
revealed hands, result, and the requester's own seat's cards — because the seed would give
away every down card nobody was shown; such an export (and a running game's) imports as a
public replay that no engine can recompute.

**Archiving** (:func:`game_archive`) writes the compact log (config, seed, actions, actors,
owner-only bot records), the result and a summary into ``Game.game_log`` and sets
``archived_at``; it is idempotent. :func:`actions_prune` then deletes the hot ``Action`` rows
of archived games older than ``GAMES_ACTION_RETENTION_DAYS``; replays read the archive and are
identical.
"""

from __future__ import annotations

from games.history.archive import (
    TASK_ARCHIVE,
    TASK_PRUNE,
    actions_prune,
    archive_log,
    game_archive,
    games_to_archive,
    retention_days,
)
from games.history.export import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    MAX_IMPORT_ACTIONS,
    MAX_IMPORT_BYTES,
    game_export,
    game_import,
)
from games.history.filters import (
    PAGE_SIZE,
    HistoryFilters,
    bot_get,
    game_get,
    game_list_bot,
    game_list_mine,
    game_list_player,
    game_list_public,
    game_list_table,
    game_rows,
    game_summary,
    paginate,
    session_context,
)
from games.history.records import (
    ARCHIVE_FORMAT,
    JSON,
    HistoryError,
    Record,
    engine_of,
    game_record,
    players_of,
    public_players,
    require_deal_closed,
    viewer_seats,
)
from games.history.replay import (
    Replay,
    disqualified_steps,
    game_meta,
    game_players,
    game_replay,
    perspectives,
    replay_steps,
    revealed_hands,
    rounds_of,
)
from games.history.stats import (
    CHART_POINTS,
    Stats,
    bot_stats,
    player_stats,
    points_chart,
    seat_summary,
)
from games.history.text import (
    card_text,
    event_text,
    result_text,
    step_text,
    transfers_named,
    translate_steps,
)

__all__ = [
    "ARCHIVE_FORMAT",
    "CHART_POINTS",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "JSON",
    "MAX_IMPORT_ACTIONS",
    "MAX_IMPORT_BYTES",
    "PAGE_SIZE",
    "TASK_ARCHIVE",
    "TASK_PRUNE",
    "HistoryError",
    "HistoryFilters",
    "Record",
    "Replay",
    "Stats",
    "actions_prune",
    "archive_log",
    "bot_get",
    "bot_stats",
    "card_text",
    "disqualified_steps",
    "engine_of",
    "event_text",
    "game_archive",
    "game_export",
    "game_get",
    "game_import",
    "game_list_bot",
    "game_list_mine",
    "game_list_player",
    "game_list_public",
    "game_list_table",
    "game_meta",
    "game_players",
    "game_record",
    "game_replay",
    "game_rows",
    "game_summary",
    "games_to_archive",
    "paginate",
    "perspectives",
    "player_stats",
    "players_of",
    "points_chart",
    "public_players",
    "replay_steps",
    "require_deal_closed",
    "result_text",
    "retention_days",
    "revealed_hands",
    "rounds_of",
    "seat_summary",
    "session_context",
    "step_text",
    "transfers_named",
    "translate_steps",
    "viewer_seats",
]
