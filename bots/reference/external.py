"""External bots: bots in any language that play over the token API (bots/external/)."""

from __future__ import annotations

from pathlib import Path

from games.engine.core.reference import Section, code, p, table, ul

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
            validation and new versions do not apply (the API answers `external_bot`, 400,
            to `POST /api/bots/<id>/versions/` and to `PATCH`/`PUT /api/bots/<id>/` with
            `code`)."""),
        ),
        in_panel=False,
    ),
    Section(
        "external-play",
        "Playing your bot",
        3,
        (
            p("""The REST calls below take your account's API token (from `/accounts/token/`,
            sent as `Authorization: Token <key>`) or a logged-in session, never the bot token.
            Every id they need comes from another call: the bot's **id** is in the answer of
            `POST /api/bot/account/` (also `GET /api/bots/`, and the `hello` frame's `bot.id`);
            a **version id** is the `id` of each entry of `GET /api/bots/<id>/versions/` (an
            external bot has one, v1). A bot version is named by its version id everywhere: the
            match API's `{"kind": "version", "version_id": <id>}` or `"version:<id>"`, and the
            site's forms' `"bot:<id>"` (accepted by the match API too)."""),
            table(
                ("to get games", "how"),
                (
                    "practice against house AIs",
                    '`POST /api/bots/<id>/practice/` with optional `{"seats": n, '
                    '"house_level": "easy", "version": number}` → 201 `{"table", "url", '
                    '"game", "seats", "seat", "bot_version_id", "version"}`: a private, '
                    "unrated table of the bot's game, the bot at seat 0 and house AIs (default "
                    "medium) at the others, 4 seats by default (within the game's range of "
                    "seats); game 1 is dealt after a 3 s countdown and the "
                    "session's next games follow by themselves (16 in all); watch them at "
                    "`url`. Refused with "
                    '400 `{"code", "detail"}`: `no_such_version`, `bad_seats`, `bad_level`, '
                    "`not_ready`, `bot_busy`",
                ),
                (
                    "rated games",
                    "Bot Arena (`/bots/arena/`): your bot against house AIs or other bots; "
                    "every finished arena game with at least one user bot and two rated "
                    "participants is rated (a house AI takes part as a fixed anchor, so one "
                    "bot against house AIs is rated)",
                ),
                (
                    "a duplicate-deal match",
                    '`POST /api/matches/` with `{"game", "entrants": [{"kind": "version", '
                    '"version_id": <id>}, {"kind": "house", "level": "hard"}, ...], "deals"}` '
                    "(see below)",
                ),
                (
                    "a table with people",
                    "a host seats the version at a table (Create Table, or the table's Add "
                    "bot) of the bot's game",
                ),
            ),
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
            `GET /api/bot/stream` (`application/x-ndjson`: one JSON frame per line; whenever
            7 s pass with no line sent, an empty line keeps the connection alive: so the gap
            between two lines is never over about 7 s, and a busy stream has no empty lines)
            and post each move to
            `POST /api/bot/game/<game_id>/move` with `{"seq": n, "move": {...}}` (200
            `{"ok": true, "game_id", "seq"}`, or 400 `{"error": {"code", "message"}}`). A
            missing token gets `auth_required`, a wrong or revoked one `invalid_token` (HTTP
            401; the socket sends the `error` frame and closes with code 4401)."""),
            p("""**Rate limits.** Every request to `GET /api/bot/stream` and
            `POST /api/bot/game/<game_id>/move` counts against the token's limit: 20 per second
            (`BOTS_EXTERNAL_HTTP_RATE`, fixed one-second windows). Each WebSocket has its own:
            20 frames a second with bursts of up to 40 (a token bucket; `BOTS_EXTERNAL_WS_RATE`,
            `BOTS_EXTERNAL_WS_BURST`). **An answer to the bot's own open turn is never refused
            for the rate** (a `move` whose `game_id` and `seq` are an open turn of the bot, up to
            3 answers per turn): the server sets the pace of turns, and a match against house
            AIs sends dozens a second. Anything else over the limit is refused and nothing is
            done: HTTP 429 `{"error": {"code": "rate_limited", "message", "retry_after",
            "game_id", "seq"}}` with a `Retry-After` header (`retry_after`: whole seconds until
            the window ends), or on the socket the `error` frame `rate_limited` with `game_id`
            and `seq` (the refused frame's; null when it had none) and `retry_after` (seconds
            until one more frame is allowed, fractional). Wait that long and send again (a turn
            stays open until its deadline)."""),
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
            its connection resumes where it was. The same `turn` (same `game_id` and `seq`) may
            also come again while it is open (when the server re-checks the table, e.g. as
            someone opens it): its `deadline_ms` is always the time really left on the turn's
            one deadline. Answer a turn once: the same move sent again while the turn is open
            is accepted and changes nothing (another move is refused `already_answered`)."""),
            p("""**A lost turn is caught up without a reconnect.** When a server process dies
            just after a move is stored (before it told anyone), the bot's next `turn` could be
            lost with it. For 15 s after a table game moves, the server sends the bot a
            `game_version` frame about every 5 s: `game_id`, `version` and `seq`, the `seq` of
            the game's next move (a `turn` of yours with a lower `seq` is over; one with this
            `seq` is the open one). You may ignore it: when the game waits for your bot, the
            same check also sends the open `turn` again (with the time left, once it has been
            open for a second) or, if no turn was opened, starts it now, so the `turn` comes
            within about 6 s of the lost move (about 12 s when the check's own server died too)
            instead of 8 to 13 s. Duplicate-deal matches do not send it."""),
            p("""**`seq`** numbers the moves of a game, all seats together, from 1: a turn's
            `seq` is the number its move will have in the game's history, the same number as
            the `seq` of `/api/games/<id>/bot-moves/`, of the Replay lab and of the game's
            history pages (a table game's version before the move, plus 1). Send it back as it
            came: a move is checked against the open turn's `seq`."""),
            p("""Every game the bot gets a `game_end` for was announced by a `game_start` (even a
            game won at the deal, before the bot had a turn), and every game announced ends with
            a `game_end`: `reason` `finished` (the game was played out; `result` is what the
            table is shown) or `session_ended` (the host ended the session, or everyone left,
            during the game: the game is void, `result` null); in a match, `finished` or
            `failed` (the match stopped or failed, `result` null)."""),
            table(
                ("server → bot", "fields"),
                (
                    "`hello`",
                    "`bot` (`id`, `name`, `game`), `limits` (`move_seconds`, `games`: games "
                    "at once)",
                ),
                (
                    "`game_start`",
                    "`game_id`, `game` (the game's name, as in its section's title), `seat`, "
                    "`players`, `config` (the table's options); sent before the bot's first "
                    "turn in a game and on every reconnect",
                ),
                (
                    "`turn`",
                    "`game_id`, `seq`, `seat`, `gameState` (exactly the JavaScript bots' "
                    "`gameState`), `deadline_ms` (time left for this move)",
                ),
                (
                    "`game_version`",
                    "`game_id`, `version`, `seq` (the game's next move's): a table game where "
                    "the bot sits moved in the last 15 s; sent about every 5 s, ignore it or "
                    "compare `seq` (above)",
                ),
                (
                    "`game_end`",
                    "`game_id`, `seat`, `reason` (`finished`, `session_ended`; `failed` in a "
                    "match), `result` (what the whole table is shown; null unless finished; "
                    "while the game's deal is still played elsewhere, a Bot Arena rotation to "
                    "come or another table of a tournament round, only its scores, winner and "
                    "ranking: no card)",
                ),
                (
                    "`error`",
                    "`code`, `message`; `reason` (the engine's code of an illegal move); "
                    "`game_id` and `seq` (`timeout`, `rate_limited`), `retry_after` "
                    "(`rate_limited`)",
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
            `timeout` (with `game_id` and `seq`) — once, and only then: a turn answered in time
            never gets one, so a program may count its strikes from these frames. The third
            strike disqualifies the seat for the rest of the game, as for any bot. How many
            games a bot plays at once, and who may seat it: below."""),
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
                    "`already_answered`",
                    "another move was already accepted for this turn (it stands)",
                ),
                (
                    "`rate_limited`",
                    "over the rate limits above (20 frames a second, bursts of 40, and 40 per 2 s "
                    "for the token; HTTP: 20 requests a second); answers to an open turn are "
                    "exempt; or, on connecting, too many unknown tokens from the address (then "
                    "close 4429)",
                ),
                (
                    "`too_many_connections`",
                    "on connecting: the token already holds 10 sockets (or 4 streams); close 4429",
                ),
                (
                    "`timeout`",
                    "the turn's deadline passed with no move: a strike (sent once); as the "
                    "answer to a move, the move came after the deadline",
                ),
                ("`token_revoked`", "the token was replaced or revoked; the socket closes"),
                ("`auth_required`, `invalid_token`", "no token, or a wrong or revoked one"),
                ("`server_error`", "the server failed on this frame; send it again"),
            ),
            p("""A `turn`'s `gameState` is built for the bot's own seat only: it never holds
            another seat's hidden cards."""),
        ),
        in_panel=False,
    ),
    Section(
        "external-seating",
        "Who may seat your bot, and how often",
        3,
        (
            p("""A bot plays at most 4 games at once (`limits.games`, setting
            `BOTS_EXTERNAL_MAX_GAMES`: the tables it sits at that are not completed, and each
            Bot Lab match it is in while the match is queued or running counts as one). If you
            open it to others (**Open to others**), they seat it only within these limits, so
            your own program is never locked out of your own bot or made to lose games while
            it is not running:"""),
            ul(
                """**Offline, only you.** Other users may seat it only while your program is
                connected (an open `/ws/bot/` socket or `/api/bot/stream`; a connection counts
                for 60 s after it last showed life, `BOTS_EXTERNAL_PRESENCE_SECONDS`, and ends at
                once when it closes). The pickers do not offer an offline bot of another user.""",
                """**One game stays yours.** Other users hold at most 3 of its 4 games at once (4
                less `BOTS_EXTERNAL_OWNER_RESERVED` = 1 kept for you); a game is theirs when they
                host the table or started the match. You may always use all 4.""",
                """**Never more than 4.** The count is made under a lock on the bot's row in the
                same transaction that writes the seat, so simultaneous requests never seat it
                past the limit.""",
            ),
            p("""Every path that seats a bot applies this: Create Table with bot seats, a
            table's **Add bot**, Bot Arena, Practice (`POST /api/bots/<id>/practice/` too), Bot
            Lab matches (page and `POST /api/matches/`). A tournament takes only its entrants'
            own bots, and a round seats the entered bots whatever they play elsewhere. The
            refusals:"""),
            table(
                ("code", "meaning"),
                (
                    "`bot_offline`",
                    "another user's bot whose program is not connected (\"… is offline: its "
                    'program is not connected, so only its owner may seat it.")',
                ),
                (
                    "`bot_busy`",
                    'the bot already plays 4 games ("… already plays 4 games, the most at once.")',
                ),
                (
                    "`bot_share_full`",
                    'other users already hold 3 of its games ("… 1 of its 4 are kept for its '
                    'owner.")',
                ),
            ),
            p("""The Create Table and Bot Arena pages show the message; the table's `add_bot`
            frame answers `error` with the code; `POST /api/matches/` answers 409
            `{"code", "detail"}`."""),
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
            `turn`'s `seq` is its move's number in that game, as at a table: the moves played
            before it, plus 1. A match game has
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
