"""The bot ladder's public JSON (docs/bot-ladder.md has how the ladder runs)."""

from __future__ import annotations

from games.engine.core.reference import Section, code, p, table

__all__ = ["LADDER_SECTIONS"]

#: ``GET /api/ladder/…``: the ladders and their entrants, for programs.
LADDER_SECTIONS: tuple[Section, ...] = (
    Section(
        "ladder-json",
        "Ladder (JSON)",
        2,
        (
            p("""The bot ladder ([bot-ladder.md](bot-ladder.md)) as JSON, public and read-only
            (no token, no session):"""),
            table(
                ("Call", "Answer"),
                (
                    "`GET /api/ladder/`",
                    'the ladders that run: `[{"game": "tienlen", "seats": 4, "title": "Tiến Lên '
                    'Miền Nam", "url": "/api/ladder/tienlen/4/"}]`',
                ),
                (
                    "`GET /api/ladder/<game>/<seats>/`",
                    'one ladder (below); `404 {"code": "unknown_ladder", "detail": …}` for a '
                    "game and seat count that has no ladder",
                ),
            ),
            code(
                "json",
                """
{"game": "tienlen", "seats": 4, "sets_played": 37,
 "entrants": [
  {"entrant": 12, "kind": "bot", "name": "Greedy v3", "owner": "lan", "bot_id": 7,
   "version": 3, "house_level": null, "rank": [2, 4], "estimate": 2236, "interval": 61,
   "mu": 30.67, "sigma": 1.31, "games": 96, "state": "settled",
   "recent": [{"set": 41, "games": [{"table": "waapY4xE", "number": 1,
                                    "url": "/tables/waapY4xE/games/1/",
                                    "replay": "/tables/waapY4xE/games/1/replay/"}, …]}]},
  {"entrant": 3, "kind": "house", "name": "House AI (Expert)", "owner": null, "bot_id": null,
   "version": null, "house_level": "expert", "rank": [1, 3], …}]}
""",
            ),
            p("""`entrants` are best first (by `mu`), suspended ones last with `"rank": null`;
            a replaced version is not listed. `rank` is `[best, worst]` (the rank range),
            `estimate ± interval` the skill and its 95 % band on the leaderboard's scale,
            `mu`/`sigma` the raw openskill skill, `games` its ladder games, `state` one of
            `placing`, `settled`, `suspended`. `recent` lists its last 5 finished sets (newest
            first), each with its rotations' games: `bot_id` and `table` are the ids the bot
            (`/api/bots/<id>/`) and history (`/tables/<code>/games/<n>/`, `replay.json`) calls
            take. The reason of a suspension is shown to the bot's owner on the ladder page and
            the bot's rating page, not in this public JSON."""),
        ),
        in_panel=False,
    ),
)
