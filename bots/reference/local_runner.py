"""The local runner ``./bin/bot`` (bots/lab): its commands, duplicate matches, test and replay."""

from __future__ import annotations

from games.engine.core.reference import Section, code, p, table

__all__ = ["LOCAL_RUNNER_SECTIONS"]

#: ``./bin/bot`` (bots/lab): duplicate matches, Test Bot and replays on one's own machine.
LOCAL_RUNNER_SECTIONS: tuple[Section, ...] = (
    Section(
        "local-runner",
        "Local runner (./bin/bot)",
        2,
        (
            p("""`./bin/bot` runs bots on your own machine with the site's engine and sandbox
            and no server: it needs Python 3.11+ only (no PostgreSQL, Redis or settings; the
            first run makes `.venv` like `./bin/run` does). Every entrant is a bot file
            (`.js`, named after the file) or a house AI, `house:easy`, `house:medium` or
            `house:hard`; the number of entrants is the number of seats. Paths are relative
            to the folder you run it from."""),
            code(
                "sh",
                """
./bin/bot match BOT.js --vs house:hard --vs house:medium --vs other.js \\
    --game tienlen --deals 50 --seed 1 --jobs 2 [--json]
./bin/bot test BOT.js [--game stud] [--json]
./bin/bot replay BOT.js --vs house:hard --game tienlen --seed 1 [--deals 1] --out games/
""",
            ),
            table(
                ("option", "meaning"),
                ("`--game`", "a game's name, as in the title of its section (default `tienlen`)"),
                ("`--deals`", "deals to play (match: 50, replay: 1)"),
                ("`--seed`", "the match seed (default 1): the same seed gives the same report"),
                ("`--jobs`", "games played at once, in separate processes (default 1)"),
                ("`--timeout`", "seconds per bot move (default 5, as on the site)"),
                ("`--option NAME=VALUE`", "a table option of the game, e.g. `ante=2`"),
                ("`--json`", "print JSON instead of text"),
                ("`--stop-when-separated`", "stop early once the intervals separate (below)"),
                ("`--min-deals`", "deals before an early stop is considered (default 10)"),
            ),
        ),
        in_panel=False,
    ),
    Section(
        "local-duplicate",
        "Duplicate matches",
        3,
        (
            p("""Card games are luck-heavy, so `match` plays **duplicate**: every deal is
            played once per rotation of the field over the seats, so each entrant holds each
            seat's hand of each deal exactly once (4 entrants, 50 deals: 200 games each). Bots
            play as at a live table: one sandbox per bot per game, `gameState` from
            `bot_view`, 5 s per move; a timeout, exception, bad return or illegal move is a
            strike and the house policy moves instead; 3 strikes in a game and the bot sits
            out the rest of that game (each game of a match is its own table session)."""),
            p("""The report has one line per entrant: games, first places (rate and 95 % interval),
            mean points per game (with its 95 % interval), last places, strikes and the mean time
            per move (a bot's JavaScript time as the sandbox measures it, as in the site's move
            records; a house AI's own time), then a chart of each entrant's running mean after each
            deal. Points are each game's score, in the unit the report names (the game's
            points unit). A deal is the unit of the intervals (its rotations are not
            independent): each entrant's per-deal mean is one observation, and the interval is
            mean ± t(0.975, deals − 1) · sd / √deals; first places use the same formula on
            each deal's share of wins (clipped to 0–100 %). With `--stop-when-separated` the
            match ends once the first entrant's points interval overlaps no other entrant's
            (after `--min-deals`)."""),
            p("""`--json` prints an object with `game`, `deals`, `games` and `entrants`, a list
            of `{name, games, first_rate, first_ci, mean_points, points_ci}` plus `firsts`,
            `lasts`, `last_rate`, `strikes`, `strike_codes`, `disqualified`, `moves` and
            `mean_move_ms` (the only field that changes between runs of the same seed), and
            `points_unit`, `seed`, `seats`, `deals_planned`, `stopped` (`null`, `separated`)
            and `series` (the running estimate after each deal). An interval is `[low,
            high]`, or `null` before the second deal."""),
        ),
        in_panel=False,
    ),
    Section(
        "local-test-replay",
        "Test and replay",
        3,
        (
            p("""`test` runs the bot on its game's sample states, each in a fresh sandbox, and
            prints each move or error as the site's Test Bot does (exit status 1 when a sample
            fails). `replay` plays the same duplicate match and writes every game to
            `--out` as a JSON file in the site's export format; open it with the history
            page's **Import** (it shows as not verified: only the server signs exports).
            These files hold the seed and actions of every game."""),
            p("""Bad input prints `error: <code>: <message>` and exits with status 2 (codes:
            `bad_arguments`, `unknown_game`, `unknown_house_level`, `no_such_file`,
            `not_a_bot_file`, `syntax`, `bad_field`, `bad_option`, `bad_config`,
            `bad_out`)."""),
        ),
        in_panel=False,
    ),
)
