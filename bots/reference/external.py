"""External bots: bots in any language that play over the token API (bots/external/)."""

from __future__ import annotations

from pathlib import Path

from bots.reference.model import Section, code, p, table

__all__ = ["EXTERNAL_CLIENT", "EXTERNAL_SECTIONS"]

#: The example client of the external bot API, shown whole in the reference.
EXTERNAL_CLIENT = (
    Path(__file__).resolve().parents[1] / "examples" / "external_client.py"
).read_text(encoding="utf-8")

#: Bots in any language over the token API (bots/external/).
EXTERNAL_SECTIONS: tuple[Section, ...] = (
    Section(
        "external-bots",
        "Bots in any language (external bots)",
        2,
        (
            p("""An **external** bot has no code on the site: a program you run, in any
            language, plays it over the bot API, in the manner of the lichess Bot API. Create
            one in My Bots with **Create external bot** (or `POST /api/bot/account/` with
            `{"name", "game"}`, logged in or with your API token): its page shows its **bot
            token** once. **Make a new token** replaces it (the old one stops working and its
            connections close); **Revoke the token** leaves the bot without one (REST: `POST`
            and `DELETE /api/bot/account/<id>/token`). The token is stored hashed and only
            plays that bot; it is not your account's API token."""),
            p("""An external bot is a bot like any other: it has one version (v1, ready, no
            code), which you seat at tables where the host allows bots, in Bot Arena (where it
            is rated), at any table that takes a bot version, and in duplicate-deal matches
            (**Evaluate**; see below). Its seats carry the BOT label. The editor, Test Bot,
            validation and new versions do not apply (the API answers `external_bot`)."""),
        ),
        in_panel=False,
    ),
    Section(
        "external-connect",
        "Connecting",
        3,
        (
            p("""Send the token in a header, never in a URL: `Authorization: Bearer <token>`.
            Either open a WebSocket to `/ws/bot/` (frames are JSON text), or read
            `GET /api/bot/stream` (`application/x-ndjson`: one JSON frame per line, an empty
            line every 7 s to keep the connection alive) and post each move to
            `POST /api/bot/game/<game_id>/move` with `{"seq": n, "move": {...}}` (200
            `{"ok": true, "game_id", "seq"}`, or 400 `{"error": {"code", "message"}}`). A
            missing token gets `auth_required`, a wrong or revoked one `invalid_token` (HTTP
            401; the socket sends the `error` frame and closes with code 4401)."""),
            p("""Every request to `GET /api/bot/stream` and `POST /api/bot/game/<game_id>/move`
            counts against the token's rate limit (`BOTS_EXTERNAL_HTTP_RATE`, 20 per second by
            default): over it the answer is HTTP 429 `{"error": {"code": "rate_limited",
            "message", "retry_after"}}` with a `Retry-After` header (seconds) and nothing is
            done; wait that long and send again (the turn stays open until its deadline)."""),
            p("""Limits per token, shared by every server process: at most 10 sockets
            (`BOTS_EXTERNAL_MAX_SOCKETS`) and 4 streams (`BOTS_EXTERNAL_MAX_STREAMS`) open at
            once; one more socket gets `error` `too_many_connections` (with `limit`) and close
            code 4429, one more stream HTTP 429 `too_many_connections`. One socket is enough:
            every socket of the bot receives every frame. Frames are limited per socket (20 a
            second, a burst of 40) and for all the token's sockets together (40 per 2 s,
            `BOTS_EXTERNAL_TOKEN_RATE`), but a `move` that answers a `turn` the socket was sent
            is never refused nor counted: a bot playing its own turns is never slowed down. An
            address that sent 30 unknown tokens in a minute (`ACCOUNTS_BAD_TOKEN_RATE`) is
            refused before its token is read: HTTP 429 `rate_limited` with `Retry-After`, or on
            the socket `error` `rate_limited` (with `retry_after`) and close code 4429."""),
            p("""Every socket and stream of the bot receives every frame. On (re)connecting the
            server sends `hello`, then `game_start` of every game in progress where the bot
            sits and the open `turn` of each with the time left: a program that crashed or lost
            its connection resumes where it was."""),
            table(
                ("server → bot", "fields"),
                (
                    "`hello`",
                    "`bot` (`id`, `name`, `game`), `limits` (`move_seconds`, `games`: games "
                    "at once)",
                ),
                (
                    "`game_start`",
                    "`game_id`, `game` (`tienlen`, `stud`, `diu`), `seat`, `players`, `config` "
                    "(the table's options); sent before the bot's first turn in a game and on "
                    "every reconnect",
                ),
                (
                    "`turn`",
                    "`game_id`, `seq`, `seat`, `gameState` (exactly the JavaScript bots' "
                    "`gameState`), `deadline_ms` (time left for this move)",
                ),
                ("`game_end`", "`game_id`, `seat`, `result` (what the whole table is shown)"),
                (
                    "`error`",
                    "`code`, `message` (and `reason`: the engine's code of an illegal move)",
                ),
                ("`pong`", "the answer to `ping`"),
            ),
            table(
                ("bot → server", "fields"),
                (
                    "`move`",
                    "`game_id`, `seq` (the turn's), `move`: what `getNextMove` would return, "
                    'e.g. `{"action": "pass"}`',
                ),
                ("`ping`", "none"),
            ),
        ),
        in_panel=False,
    ),
    Section(
        "external-rules",
        "Time, strikes and refused moves",
        3,
        (
            p("""The rules of sandboxed bots apply: the same time per move (5 s), counted from
            the moment the server sends the `turn`. A refused frame or move changes nothing:
            the `error` frame (or the 400 answer) names it and the turn stays open until its
            deadline, so the program may send a better move. No legal move in time is a
            `timeout` strike: the table plays its timeout move for the seat and sends `error`
            `timeout`; the third strike disqualifies the seat for the rest of the game, as for
            any bot. A bot plays at most 4 games at once (`limits.games`: the tables it sits at,
            and each match it is in while the match is queued or running counts as one);
            seating it at one more is refused like any version that may not be seated."""),
            table(
                ("code", "meaning"),
                ("`bad_json`", "not a JSON text frame (or nested too deep)"),
                ("`frame_too_big`", "over 16 kB"),
                (
                    "`bad_frame`",
                    "not an object, or `game_id` neither an integer nor a match game's id, "
                    "`seq` not an integer, `move` not an object",
                ),
                ("`unknown_type`", "a `type` other than `move` and `ping`"),
                ("`unknown_game`", "no game in progress of this bot has that id"),
                ("`not_your_turn`", "the bot has no open turn in that game"),
                ("`stale_seq`", "not the open turn's `seq` (a late answer)"),
                ("`illegal_move`", "the engine refuses the move (`reason`: its code)"),
                (
                    "`rate_limited`",
                    "more than 20 frames a second on the socket or 40 per 2 s for the token "
                    "(answers to the bot's own open turns are free), or, on connecting, too "
                    "many unknown tokens from the address (then close 4429)",
                ),
                (
                    "`too_many_connections`",
                    "on connecting: the token already holds 10 sockets (or 4 streams); close 4429",
                ),
                ("`timeout`", "the turn's deadline passed: a strike"),
                ("`token_revoked`", "the token was replaced or revoked; the socket closes"),
            ),
            p("""A `turn`'s `gameState` is built for the bot's own seat only: it never holds
            another seat's hidden cards."""),
        ),
        in_panel=False,
    ),
    Section(
        "external-matches",
        "Duplicate-deal matches",
        3,
        (
            p("""A duplicate-deal match (Evaluate, or `POST /api/matches/`) may seat an external
            bot. A site worker plays the match, one game after another, and your program plays
            each of its games through the same frames as at a table: `game_start`, a `turn`
            per move (with the same time per move, answered by the usual `move` frame or
            `POST /api/bot/game/<game_id>/move`), then `game_end`; a reconnecting program gets
            the match games in progress and their open turn too. As at a table, a refused move
            gets `error` and the turn stays open, and no legal move in time is a `timeout`
            strike; the third in a game disqualifies the seat for the rest of that game
            (strikes start again at 0 in the match's next game). The report counts the
            strikes."""),
            p("""A match game is named by a **string** `game_id`, `match-<match id>-<n>` (game
            `n` of the match, from 1; a table's game keeps its integer id): send it back as
            it came. Its `game_start`, `turn` and `game_end` frames also carry `match`, and a
            `turn`'s `seq` counts the moves played in that game before it. A match game has
            no table or page; if the site's worker restarts, the deal in progress is played
            again under the same ids."""),
            table(
                ("`match` field", "meaning"),
                ("`id`", "the match's id (its page: `/bots/matches/<id>/`)"),
                ("`game`", "this game's number `n` in the match (1 … `games`)"),
                ("`games`", "the games the match plans: deals × seats"),
                (
                    "`deal`",
                    "the deal (from 0): every seat's hand of a deal is played once per rotation",
                ),
                ("`rotation`", "the field's rotation over the seats in this game (from 0)"),
            ),
            code(
                "json",
                """
{"type": "turn", "game_id": "match-12-3", "seq": 7, "seat": 1, "deadline_ms": 5000,
 "gameState": {...}, "match": {"id": 12, "game": 3, "games": 40, "deal": 1, "rotation": 0}}
{"type": "move", "game_id": "match-12-3", "seq": 7, "move": {"action": "pass"}}
""",
            ),
        ),
        in_panel=False,
    ),
    Section(
        "external-example",
        "Example client (Python)",
        3,
        (
            p("""`bots/examples/external_client.py` plays all three games with the standard
            library and the `websockets` package: the first legal play in Tiến Lên, check or
            call in stud, and Diu's first `diu`, `pass` or `accept` option. Replace
            `choose_move` with your strategy."""),
            code(
                "sh",
                """
pip install websockets
TLA_BOT_TOKEN=tlb_... python external_client.py --url wss://YOUR-SITE/ws/bot/ --games 10
""",
            ),
            code("python", EXTERNAL_CLIENT),
        ),
        in_panel=False,
    ),
)
