"""The JavaScript bot API shared by every game: the page's introduction, how a bot runs, and
the sandbox's failure codes."""

from __future__ import annotations

from games.engine.core.reference import Section, p, ul

__all__ = ["JS_API_SECTIONS", "SANDBOX_ERRORS"]

#: Sandbox failure codes (code, when); the values of ``bots.sandbox.ErrorCode``.
SANDBOX_ERRORS: tuple[tuple[str, str], ...] = (
    ("timeout", "the move (or the top-level code, when loading) ran past its 5 s budget"),
    ("memory", "the bot used more than its memory budget (about 50 MB of JavaScript heap)"),
    ("exception", "the code threw, while loading or in `getNextMove`; the message names the line"),
    (
        "bad_return",
        "`getNextMove` returned no plain object (`undefined`, a Promise, an array, a cycle, "
        "more than 64 Ki characters of JSON…)",
    ),
    ("syntax", "the code does not compile"),
    ("no_entry_point", "the code defines no function `getNextMove`"),
    ("crashed", "the bot's process died; it is restarted for the next move (globals reset)"),
)

#: The page's introduction (not in the editor panel) and how a bot runs (every game).
JS_API_SECTIONS: tuple[Section, ...] = (
    Section(
        "bot-api",
        "Bot API",
        1,
        (
            p("""A bot is a JavaScript function `getNextMove(gameState)` that returns a move.
            The server builds `gameState` with the engine (`GAME.bot_view(state, seat)`, never
            the raw state), runs the bot under a 5-second limit, and turns its return into an
            engine action with `GAME.parse_bot_move(state, seat, move)`. A timeout, an
            exception or an illegal return is treated like a human timeout (the house policy
            acts, see below) and counts a strike; 3 strikes disqualify the bot for the rest of
            the table session."""),
            p("""This page has one section per game. Every game shares the envelope:
            `getNextMove(gameState)` is called only when it is the bot's turn; `gameState` is
            plain JSON; the return is an object with an `action`."""),
            p("""This file is generated from `bots/reference/` and each game's part of it,
            `games/engine/<game>/reference.py` (run `python manage.py bot_api_docs`); the
            editor's API reference panel shows the same text, in Vietnamese when the page is
            (`bots/reference/vi.py` and the games' parts)."""),
        ),
        in_panel=False,
    ),
    Section(
        "runtime",
        "How your bot runs",
        2,
        (
            ul(
                """One sandboxed process per bot per game: top-level code runs once when the
                game starts, and globals you set persist from move to move within that game
                (not across games).""",
                """5 seconds per move (and 5 s for the top-level code). Synchronous code only:
                a returned Promise is a `bad_return`.""",
                """No I/O: no `require`, `fetch`, timers, `eval` or `Function`. Standard
                JavaScript (V8) is all there is.""",
                """`console.log` (and `warn`, `error`…) is captured: up to 200 lines per move.
                You see it in Test Bot, and as the owner in the live game and the replay;
                opponents never do.""",
                """`Math.random` is seeded per game, so a replay behaves the same.""",
                """If the server process playing your game stops, another one takes the game
                over within seconds: it first plays your bot's earlier moves of the game again
                (the same `gameState`s, the same `Math.random` draws, their console output
                discarded), so your globals are as they were. That needs a deterministic bot:
                one that reads `Date.now()` may end up with other globals (the move's record
                then says `replay_diverged`). The move after such a replay shows `replayed`
                (how many moves were played again) in your records and the Replay lab.""",
                """Saving a version plays validation games of the bot's game against copies of
                itself, one at every seat count the game allows (its sample table's size first,
                then the others), within one time budget: a version that
                crashes, times out, collects 3 strikes, or ends a game without one legal move
                at any of them is marked **not ready** (the message names the seat count) and
                cannot be seated.""",
                """A bot is written for one game, chosen when it is created (one of the games
                whose sections follow); it is offered only at tables of that game, and Test Bot
                runs it on that game's sample states.""",
            ),
        ),
    ),
)
