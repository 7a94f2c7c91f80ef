"""The bot API reference: one source for ``docs/bot-api.md`` and the editor's reference panel.

The content is data (sections of paragraphs, tables, lists and code); :func:`render_markdown`
writes the Markdown file (``python manage.py bot_api_docs``; a test fails when the file is out
of date) and :func:`render_html` the panel. Inline markup is limited to `code`, **bold** and
[links](url). Pure Python: no Django.

>>> "getNextMove" in render_markdown()
True
>>> "<script>" in render_html()
False
"""

from __future__ import annotations

import html
import json
import re
import textwrap
from dataclasses import dataclass, field, replace
from pathlib import Path

__all__ = ["SECTIONS", "Block", "Section", "render_html", "render_markdown"]


@dataclass(frozen=True)
class Block:
    """``kind`` is ``p`` (text), ``table`` (header + rows), ``list`` (items) or ``code``."""

    kind: str
    text: str = ""
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    items: tuple[str, ...] = ()
    lang: str = ""


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    level: int
    blocks: tuple[Block, ...] = field(default_factory=tuple)
    in_panel: bool = True
    game: str | None = None
    """The game the section documents (None: every game); the editor panel shows the shared
    sections and those of the bot's game."""


def p(text: str) -> Block:
    return Block("p", text=" ".join(text.split()))


def table(header: tuple[str, ...], *rows: tuple[str, ...]) -> Block:
    return Block("table", header=header, rows=rows)


def ul(*items: str) -> Block:
    return Block("list", items=tuple(" ".join(i.split()) for i in items))


def code(lang: str, text: str) -> Block:
    return Block("code", text=text.strip("\n"), lang=lang)


_CARD = '{{"rank": "{r}", "suit": "{s}", "value": {v}, "id": "{i}"}}'


def _card(r: str, s: str, v: int, i: str) -> str:
    return _CARD.format(r=r, s=s, v=v, i=i)


EXAMPLE_STATE = f"""
{{
  "myPosition": 3,
  "myCards": [
    {_card("3", "♥", 1, "3H")},
    {_card("4", "♠", 2, "4S")},
    {_card("5", "♦", 3, "5D")},
    "…"
  ],
  "playerCardCounts": [11, 13, 11, 13],
  "playedCards": [
    {_card("3", "♠", 1, "3S")},
    {_card("3", "♣", 1, "3C")},
    "…"
  ],
  "lastPlay": {{
    "player": 2,
    "cards": [{_card("5", "♠", 3, "5S")}, {_card("5", "♣", 3, "5C")}],
    "type": "pair",
    "length": 1,
    "minRankToBeat": 3,
    "topCard": {_card("5", "♣", 3, "5C")}
  }},
  "currentTurn": 3,
  "passedPlayers": [false, true, false, false],
  "metadata": {{
    "round": 0,
    "dealer": 0,
    "isFirstTurn": false,
    "gameStarted": true,
    "gameOver": false,
    "players": 4,
    "rulesVersion": "tienlen-1"
  }},
  "validMoves": [
    {{
      "type": "pair",
      "cards": [{_card("6", "♠", 4, "6S")}, {_card("6", "♣", 4, "6C")}]
    }},
    {{
      "type": "pair",
      "cards": [{_card("6", "♠", 4, "6S")}, {_card("6", "♦", 4, "6D")}]
    }},
    {{
      "type": "pair",
      "cards": [{_card("6", "♣", 4, "6C")}, {_card("6", "♦", 4, "6D")}]
    }}
  ],
  "canPass": true,
  "mustInclude": null,
  "hasVong": true,
  "roundLeader": 0,
  "roundPlays": [
    {{
      "player": 0,
      "action": "play",
      "type": "pair",
      "cards": [{_card("3", "♠", 1, "3S")}, {_card("3", "♣", 1, "3C")}]
    }},
    {{
      "player": 1,
      "action": "pass"
    }},
    {{
      "player": 2,
      "action": "play",
      "type": "pair",
      "cards": [{_card("5", "♠", 3, "5S")}, {_card("5", "♣", 3, "5C")}]
    }}
  ],
  "cardsSeen": [
    {_card("3", "♠", 1, "3S")},
    {_card("3", "♣", 1, "3C")},
    "…"
  ],
  "finishedPlayers": [],
  "chain": null,
  "scores": {{
    "game": [0, 0, 0, 0],
    "transfers": [],
    "session": null
  }},
  "rules": {{
    "players": 4,
    "opening": false,
    "playOnAfterWinner": false,
    "hideHandCounts": false,
    "turnSeconds": 30,
    "botSeconds": 5
  }}
}}
"""

#: gameState fields from the seed (name, type, meaning). The .d.ts test checks every name.
SEED_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("myPosition", "int", "the bot's seat, `0..players-1`; turn order is seat+1 mod players"),
    ("myCards", "card[]", "the bot's hand"),
    (
        "playerCardCounts",
        "(int \\| null)[]",
        'cards left per seat; opponents are `null` while the table option "hide hand counts" is on',
    ),
    ("playedCards", "card[]", "every card played in the current round (vòng), in play order"),
    ("lastPlay", "object \\| null", "the play to beat; `null` when the bot leads the round"),
    ("lastPlay.player", "int", "seat that made it"),
    ("lastPlay.cards", "card[]", "its cards"),
    ("lastPlay.type", "string", "`single pair triple straight pairs_run four`"),
    (
        "lastPlay.minRankToBeat",
        "int",
        "`value` of its strongest card: a play of the same type needs a strongest card of at "
        "least this value (an equal value needs a higher suit)",
    ),
    ("currentTurn", "int \\| null", "whose turn it is (the bot's own seat when it is asked)"),
    ("passedPlayers", "bool[]", "seats locked out of the current round because they passed"),
    ("metadata.round", "int", "round index in this game, from 0"),
    ("metadata.dealer", "int", "the seat that led the game's first round"),
    (
        "metadata.isFirstTurn",
        "bool",
        "true for the game's first play (it must include `mustInclude`)",
    ),
    ("metadata.gameStarted", "bool", "always true when a bot is asked"),
    (
        "validMoves",
        "{type, cards}[]",
        "every legal play (not the pass), sorted by type (single, pair, triple, straight, "
        "pairs_run, four), then length, then strength. Every suit variant is listed.",
    ),
)

#: Extra gameState fields (name, type, meaning).
EXTRA_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("metadata.gameOver", "bool", "the game has ended (never true when a bot is asked)"),
    ("metadata.players", "int", "seats at the table (2–4)"),
    ("metadata.rulesVersion", "string", "the engine's rules version, e.g. `tienlen-1`"),
    ("lastPlay.length", "int", "ranks in a straight / pairs run (1 otherwise)"),
    ("lastPlay.topCard", "card", "its strongest card"),
    ("canPass", "bool", "false when the bot leads (a leader must play)"),
    (
        "mustInclude",
        "card \\| null",
        "the card the opening play must contain (3♠, or the lowest dealt card with 2–3 players)",
    ),
    (
        "hasVong",
        "bool",
        "whether the bot may cut with 3 đôi thông / tứ quý this round (the round's leader may not)",
    ),
    ("roundLeader", "int", "who led the current round"),
    (
        "roundPlays",
        "object[]",
        'this round in order: `{player, action: "play", type, cards}` or '
        '`{player, action: "pass"}`',
    ),
    ("cardsSeen", "card[]", "every card played so far in this game"),
    (
        "finishedPlayers",
        "int[]",
        "seats that emptied their hand, in order (only grows past one with the play-on option)",
    ),
    ("chain", "object \\| null", "the open chặt chain: `{debtor, payee, points}`"),
    ("scores.game", "int[]", "this game's points so far (chặt settled at round ends)"),
    ("scores.transfers", "object[]", "those settled transfers `{from, to, points, reason}`"),
    (
        "scores.session",
        "int[] \\| null",
        "table-session totals before this game, when the table provides them",
    ),
    (
        "rules",
        "object",
        "`players`, `opening`, `playOnAfterWinner`, `hideHandCounts`, `turnSeconds`, `botSeconds`",
    ),
)

#: ``parse_bot_move`` error codes (code, when).
MOVE_ERRORS: tuple[tuple[str, str], ...] = (
    (
        "bad_bot_move",
        "the return is not an object, `action` is not `play`/`pass`, or `cards` is not a list",
    ),
    ("bad_card", "an entry of `cards` is not a card"),
    ("duplicate_card", "a card is named twice"),
    ("not_your_turn", "(server-side mistake) the bot was asked out of turn"),
    ("already_passed", "the bot passed earlier in this round"),
    ("leader_cannot_pass", "the bot leads the round and passed"),
    ("invalid_combination", "the cards are no combination, or the list is empty"),
    ("not_in_hand", "a card is not in the bot's hand"),
    ("must_include_card", "the opening play lacks `mustInclude`"),
    ("does_not_beat", "the play neither beats nor cuts `lastPlay`"),
    ("needs_vong", "a cut with 3 đôi thông / tứ quý by the round's leader"),
    ("game_over", "the game has ended"),
)

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

MINIMAL_BOT = """
function getNextMove(gameState) {
  const singles = gameState.validMoves.filter(m => m.type === "single");
  if (gameState.canPass && singles.length === 0) return { action: "pass" };
  const move = singles[0] || gameState.validMoves[0];
  return { action: "play", cards: move.cards };
}
"""

RETURN_EXAMPLES = """
// play: the cards as card objects (from myCards or validMoves) or as ids
return {
  action: "play",
  cards: [{ rank: "6", suit: "♠", value: 4 }, { rank: "6", suit: "♣", value: 4 }],
};
return { action: "play", cards: ["6S", "6C"] };
// pass (not allowed when leading)
return { action: "pass" };
"""

COMBOS: tuple[tuple[str, str, str], ...] = (
    ("single", "one card", "`7♦`"),
    ("pair", "two cards of one rank", "`9♠ 9♥`"),
    ("triple", "three cards of one rank", "`Q♠ Q♣ Q♥`"),
    ("straight", "3+ consecutive ranks, no 2", "`5♦ 6♠ 7♣`"),
    ("pairs_run", "3+ consecutive pairs (đôi thông), no 2", "`4♠ 4♦ 5♣ 5♥ 6♠ 6♣`"),
    ("four", "four of a kind (tứ quý)", "`8♠ 8♣ 8♦ 8♥`"),
)


def _rows3(fields: tuple[tuple[str, str, str], ...]) -> tuple[tuple[str, ...], ...]:
    return tuple((f"`{name}`", kind, meaning) for name, kind, meaning in fields)


_TIENLEN_SECTIONS = frozenset(
    {"tienlen", "cards", "combinations", "example", "fields", "return", "errors", "minimal"}
)

_BASE_SECTIONS: tuple[Section, ...] = (
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
            p("""This file is generated from `bots/reference.py` (run
            `python manage.py bot_api_docs`); the editor's API reference panel shows the same
            text."""),
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
                """Saving a version plays validation games of the bot's game against copies of
                itself, one at every seat count the game allows (Tiến Lên 4, 2 and 3 seats;
                stud 3, then 2 and 4–7; Diu 4), within one time budget: a version that
                crashes, times out, collects 3 strikes, or ends a game without one legal move
                at any of them is marked **not ready** (the message names the seat count) and
                cannot be seated.""",
                """A bot is written for one game, chosen when it is created (`tienlen`, `stud`
                or `diu`); it is offered only at tables of that game, and Test Bot runs it on
                that game's sample states.""",
            ),
        ),
    ),
    Section(
        "tienlen",
        "Tiến Lên Miền Nam (`tienlen`)",
        2,
        (p("Rules as implemented: [docs/rules/tienlen.md](rules/tienlen.md)."),),
        in_panel=False,
    ),
    Section(
        "cards",
        "Card objects",
        3,
        (
            p("Every card in `gameState` is an object:"),
            table(
                ("field", "example", "meaning"),
                ("`rank`", '`"10"`', "`3 4 5 6 7 8 9 10 J Q K A 2`"),
                ("`suit`", '`"♥"`', "`♠ ♣ ♦ ♥` (lowest to highest)"),
                ("`value`", "`8`", "3 → 1 … K → 11, A → 12, 2 → 13"),
                ("`id`", '`"10H"`', "rank + suit letter (`S C D H`), the engine's card id"),
            ),
            p("""Card strength is `value`, then suit (♠ < ♣ < ♦ < ♥). Lists of cards are
            sorted weakest first."""),
        ),
    ),
    Section(
        "combinations",
        "Combinations (`type`)",
        3,
        (
            table(("type", "what", "example"), *((f"`{t}`", w, e) for t, w, e in COMBOS)),
            p("""A single, pair or triple beats one with a weaker strongest card; a straight
            beats a shorter straight, or one of the same length with a weaker top card; a pairs
            run beats one of the same length with a weaker top card. Cuts (chặt): 3 đôi thông
            or tứ quý cut a single 2, and 4+ đôi thông also a pair of 2s; hàng cuts weaker hàng
            (see the rules page). 3 đôi thông and tứ quý need vòng (`hasVong`): the round's
            leader may not use them to cut. `validMoves` already applies every rule."""),
        ),
    ),
    Section(
        "example",
        "Example",
        3,
        (
            p("""Seat 3 of a 4-player game, after seat 0 led 3♠3♣, seat 1 passed and seat 2
            played 5♠5♣ (long lists shortened with `"…"`):"""),
            code("json", EXAMPLE_STATE),
        ),
    ),
    Section(
        "fields",
        "Fields",
        3,
        (
            p("The seed's fields, exactly as specified:"),
            table(("field", "type", "meaning"), *_rows3(SEED_FIELDS)),
            p("Extra fields for serious bots:"),
            table(("field", "type", "meaning"), *_rows3(EXTRA_FIELDS)),
            p("""Note on `minRankToBeat`: the seed's example shows `7` for a 7♦, which matches
            neither `value` (5) nor anything else in the seed; the engine uses the `value`
            scale throughout (a ruling of this project)."""),
        ),
    ),
    Section(
        "return",
        "Return value",
        3,
        (
            code("javascript", RETURN_EXAMPLES),
            p("""A card object is read from `id` if present, else from `rank` + `suit` (letters,
            symbols and `T` for 10 are accepted). Order does not matter."""),
        ),
    ),
    Section(
        "errors",
        "Error codes",
        3,
        (
            p("`parse_bot_move` raises a `ValueError` whose `code` is one of:"),
            table(("code", "when"), *((f"`{c}`", w) for c, w in MOVE_ERRORS)),
            p("When the bot itself fails, the sandbox reports one of:"),
            table(("code", "when"), *((f"`{c}`", w) for c, w in SANDBOX_ERRORS)),
            p("""Any error counts a strike and the house policy moves instead: pass, or when
            leading play the lowest single (`mustInclude` in the opening play)."""),
        ),
    ),
    Section(
        "minimal",
        "A minimal bot",
        3,
        (code("javascript", MINIMAL_BOT),),
    ),
)


# --------------------------------------------------------------------------- seven-card stud


#: The example hand: seat 0 brings in with 2♣ and pairs its door card on 4th street; seat 1
#: completes on 3rd and bets on 4th; everyone calls; on 5th seat 0 (still showing the best
#: hand, a pair) bets 10 and seat 1 is to act.
STUD_EXAMPLE_CONFIG: dict[str, object] = {
    "players": 3,
    "button": 2,
    "buy_in": 200,
    "ante": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": 10,
    "cards": [
        ["5S", "KC", "2C", "2H", "7S", "10H", "QS"],
        ["JD", "9H", "JH", "3D", "4S", "8C", "AC"],
        ["6S", "AD", "6C", "KD", "8H", "9C", "5D"],
    ],
}
STUD_EXAMPLE_ACTIONS: tuple[tuple[int, str], ...] = (
    (0, "bring_in"),
    (1, "complete"),
    (2, "call"),
    (0, "call"),
    (0, "check"),
    (1, "bet"),
    (2, "call"),
    (0, "call"),
    (0, "bet"),
)


def _stud_example_game_state() -> dict[str, object]:
    """Seat 1's real ``gameState`` after :data:`STUD_EXAMPLE_ACTIONS` (from the engine, so
    its chips always add up).

    >>> g = _stud_example_game_state()
    >>> g["street"], g["currentTurn"], g["pots"], g["stacks"]
    (5, 1, [{'amount': 33, 'eligible': [0, 1, 2]}], [179, 189, 189])
    >>> [(p["bet"], p["contributed"]) for p in g["players"]]
    [(10, 21), (0, 11), (0, 11)]
    """
    from games.engine.stud import GAME as STUD  # pure engine; kept inside the stud section

    state = STUD.new_game(STUD_EXAMPLE_CONFIG, seed=0)
    for seat, name in STUD_EXAMPLE_ACTIONS:
        state, _ = STUD.apply(state, {"type": name, "seat": seat})
    return STUD.bot_view(state, 1)


def _stud_example_json() -> str:
    """The example as the page shows it: compact lines, long lists cut with ``"…"``."""
    g = _stud_example_game_state()

    def j(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    def cut(items: object, keep: int) -> str:
        assert isinstance(items, list)
        return j(items[:keep] + (["…"] if len(items) > keep else []))

    def fields(obj: dict[str, object], *lines: tuple[str, ...], indent: str) -> str:
        return ",\n".join(
            indent + ", ".join(f"{j(k)}: {j(obj[k])}" for k in keys) for keys in lines
        )

    turn = g["yourTurn"]
    me = g["players"][0]  # type: ignore[index]
    assert isinstance(turn, dict)
    assert isinstance(me, dict)
    assert isinstance(g["myCards"], list)
    cards = ",\n".join(f"    {j(c)}" for c in g["myCards"])
    turn_text = fields(
        turn,
        ("seat_index", "time_limit", "amount_to_call"),
        ("can_check", "can_bet", "bet_amount"),
        ("can_raise", "raise_amount", "raise_count"),
        ("can_complete", "bring_in_amount"),
        ("can_bet_big", "big_bet_amount"),
        ("legal_actions",),
        indent="    ",
    )
    seat_text = fields(
        me,
        ("seat", "inHand", "folded", "allIn"),
        ("stack", "bet", "contributed"),
        indent="      ",
    )
    rules = fields(
        g["rules"],  # type: ignore[arg-type]
        ("ante", "bringIn", "smallBet", "bigBet", "turnSeconds", "botSeconds"),
        indent="    ",
    )
    top = ("currentTurn", "street", "button", "bringInSeat")
    tail = ("pots", "stacks", "currentBet", "streetActions", "metadata", "scores")
    return "\n".join(
        [
            "{",
            f'  "game": {j(g["game"])},',
            f'  "myPosition": {j(g["myPosition"])},',
            f'  "myCards": [\n{cards}\n  ],',
            f'  "myDownCards": {j(g["myDownCards"])},',
            f'  "yourTurn": {{\n{turn_text}\n  }},',
            f'  "validMoves": {j(g["validMoves"])},',
            *(f"  {j(k)}: {j(g[k])}," for k in top),
            '  "players": [',
            "    {",
            f"{seat_text},",
            f'      "cards": {cut(me["cards"], 3)},',
            f'      "upCards": {cut(me["upCards"], 2)},',
            f'      "showing": {j(me["showing"])}',
            "    },",
            '    "…"',
            "  ],",
            *(f"  {j(k)}: {j(g[k])}," for k in tail),
            f'  "rules": {{\n{rules}\n  }}',
            "}",
        ]
    )


STUD_EXAMPLE_STATE = _stud_example_json()

STUD_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("game", "string", '`"stud"`'),
    ("myPosition", "int", "the bot's seat, `0..players-1`"),
    (
        "myCards",
        "card[]",
        "the bot's cards in deal order: down, down, four up cards (3rd–6th street), down",
    ),
    ("myDownCards", "card[]", "its down (hole) cards only"),
    (
        "yourTurn",
        "object",
        "the turn: `amount_to_call`, `can_check`, `can_bet`, `bet_amount`, `can_raise`, "
        "`raise_amount`, `raise_count`, `can_complete`, `bring_in_amount`, `can_bet_big`, "
        "`big_bet_amount`, `legal_actions`, `time_limit`, `seat_index` (chips are totals "
        "put in by the action)",
    ),
    ("validMoves", "{action}[]", 'every legal reply, e.g. `[{action: "fold"}, …]`'),
    ("currentTurn", "int \\| null", "whose turn it is (the bot's own seat when it is asked)"),
    ("street", "int", "3 to 7 (third street … seventh street, the river)"),
    ("button", "int", "the dealer button's seat"),
    ("bringInSeat", "int", "the seat that had to bring it in on third street"),
    ("players[].seat", "int", "seat index"),
    ("players[].inHand", "bool", "dealt in and not folded"),
    ("players[].folded / allIn", "bool", "folded this hand / no chips left behind"),
    (
        "players[].stack / bet / contributed",
        "int",
        "chips behind, bet this street, put in the pot this hand",
    ),
    (
        "players[].cards",
        "(card \\| null)[]",
        "that seat's dealt cards in deal order as the bot sees them: others' down cards are "
        "`null` (shown only at a showdown)",
    ),
    ("players[].upCards", "card[]", "its face-up cards"),
    (
        "players[].showing",
        "string \\| null",
        "the best hand its up cards make (`high_card`, `pair`, `two_pair`, `three_of_a_kind`, …)",
    ),
    (
        "pots",
        "{amount, eligible}[]",
        "main pot then side pots, with the seats that may win each (chips of earlier streets)",
    ),
    ("stacks", "int[]", "chips behind per seat"),
    ("currentBet", "int", "the bet to match on this street"),
    ("streetActions", "{seat, action, auto}[]", "this street's actions so far, in order"),
    ("metadata", "object", "`gameOver`, `players`, `rulesVersion` (`stud-1`)"),
    ("scores.session", "int[] \\| null", "table-session chip totals, when the table provides them"),
    ("rules", "object", "`ante`, `bringIn`, `smallBet`, `bigBet`, `turnSeconds`, `botSeconds`"),
)

STUD_ACTIONS: tuple[tuple[str, str], ...] = (
    ("bring_in", "third street's low card posts the bring-in"),
    ("complete", "bring it up to a full small bet (instead of the bring-in, or over it)"),
    ("fold", "give up the hand"),
    ("check", "no bet to match"),
    ("call", "match the current bet"),
    ("bet", "open the betting (small bet on 3rd–4th street, big bet from 5th)"),
    ("bet_big", "the optional big bet on fourth street when an open pair shows"),
    ("raise", "raise by one bet (a bet and three raises per street; a fourth is `cap_reached`)"),
)

STUD_RETURN = """
return { action: "call" };      // one of gameState.validMoves[i].action
return gameState.validMoves[0]; // the objects in validMoves are valid replies as they are
"""

STUD_MINIMAL_BOT = """
function getNextMove(gameState) {
  const legal = gameState.validMoves.map((m) => m.action);
  if (legal.includes("check")) return { action: "check" };
  if (legal.includes("call")) return { action: "call" };
  return gameState.validMoves[0]; // the bring-in
}
"""

STUD_SECTIONS: tuple[Section, ...] = (
    Section(
        "stud",
        "Seven-Card Stud (`stud`)",
        2,
        (
            p("""Fixed-limit seven-card stud for 2–7 seats. Rules as implemented:
            [docs/rules/stud.md](rules/stud.md). One game is one hand; chips carry over
            within a table session."""),
        ),
        game="stud",
    ),
    Section(
        "stud-cards",
        "Cards",
        3,
        (
            p("""Cards are objects `{rank, suit, value, id}` like Tiến Lên's, but `value` is the
            poker scale: 2 → 2 … 10 → 10, J → 11, Q → 12, K → 13, A → 14 (aces are also
            low in a 5-high straight). Suits do not rank hands; they only break ties for the
            bring-in and an odd chip (♣ < ♦ < ♥ < ♠)."""),
        ),
        game="stud",
    ),
    Section(
        "stud-example",
        "Example",
        3,
        (
            p("""Seat 1 of 3 on fifth street, facing seat 0's bet of 10 (a real state from the
            engine; long lists shortened with `"…"`). `pots` hold the chips of earlier streets;
            this street's bets are in `players[].bet` until the street ends:"""),
            code("json", STUD_EXAMPLE_STATE),
        ),
        game="stud",
    ),
    Section(
        "stud-fields",
        "Fields",
        3,
        (table(("field", "type", "meaning"), *_rows3(STUD_FIELDS)),),
        game="stud",
    ),
    Section(
        "stud-return",
        "Return value",
        3,
        (
            code("javascript", STUD_RETURN),
            p("The actions, when each is legal (always check `validMoves`):"),
            table(("action", "meaning"), *((f"`{a}`", m) for a, m in STUD_ACTIONS)),
            p("""Amounts are fixed by the limits (`yourTurn` shows them); a return never names
            an amount."""),
        ),
        game="stud",
    ),
    Section(
        "stud-errors",
        "Error codes",
        3,
        (
            table(
                ("code", "when"),
                (
                    "`bad_bot_move`",
                    "the return is not an object, or `action` is not one of the actions above",
                ),
                ("`illegal_action`", "the action is not legal now (the message lists what is)"),
                ("`cap_reached`", "a raise after the last raise allowed on this street"),
                ("`not_your_turn`", "(server-side mistake) the bot was asked out of turn"),
                ("`hand_over`", "the hand has ended"),
            ),
            p("When the bot itself fails, the sandbox reports one of:"),
            table(("code", "when"), *((f"`{c}`", w) for c, w in SANDBOX_ERRORS)),
            p("""On any error the house policy acts and a strike is counted: check when
            possible, else fold (the bring-in is posted when it is due)."""),
        ),
        game="stud",
    ),
    Section(
        "stud-minimal",
        "A minimal bot",
        3,
        (code("javascript", STUD_MINIMAL_BOT),),
        game="stud",
    ),
)


# --------------------------------------------------------------------------- suijiang diu

#: A real hand (rules: docs/rules/diu.md): A (seat 2) leads 56; B draws 66 and takes it as a hard
#: pair, then discards 11; C draws 26 (dead); A draws a 听用 and discards 45, on which B is asked.
DIU_EXAMPLE_CONFIG: dict[str, object] = {
    "roles": {"A": 2, "B": 1, "C": 0, "D": 3},
    "hands": {
        "A": ["56", "45", "12", "13", "22", "35", "36", "16"],
        "B": ["66", "11", "14", "24", "33", "26", "45", "45", "W"],
        "C": ["15", "23", "34", "44", "46", "55", "25"],
    },
    "stock": [
        *("66", "26", "W", "56", "12", "13", "22", "34", "35", "46", "15"),
        *("23", "33", "24", "11", "16", "25", "36", "44", "55", "14"),
    ],
}
DIU_EXAMPLE_ACTIONS: tuple[tuple[int, dict[str, object]], ...] = (
    (2, {"type": "discard", "card": "56"}),
    (1, {"type": "pass"}),
    (1, {"type": "claim", "claim": "hard_pair", "cards": ["66"]}),
    (1, {"type": "accept"}),
    (1, {"type": "discard", "card": "11"}),
    (0, {"type": "pass"}),
    (1, {"type": "pass"}),
    (2, {"type": "discard", "card": "45"}),
)


def _diu_example_game_state() -> dict[str, object]:
    """Seat 1's (B's) real ``gameState`` after :data:`DIU_EXAMPLE_ACTIONS`: asked about A's 45.

    >>> g = _diu_example_game_state()
    >>> g["card"], [(o["action"], o.get("type"), o.get("cards")) for o in g["prompt"]["options"]]
    ... # doctest: +NORMALIZE_WHITESPACE
    ({'card': '45', 'source': 'discard', 'seat': 2},
     [('pass', None, None), ('claim', 'chi', ['14']), ('claim', 'kuai', ['W']),
      ('claim', 'hard_pair', ['45']), ('claim', 'hard_shui', ['45', 'W']),
      ('claim', 'hard_triple', ['45', '45'])])
    """
    from games.engine.diu import GAME as DIU  # pure engine; kept inside the diu section

    state = DIU.new_game(DIU_EXAMPLE_CONFIG, seed=0)
    for seat, action in DIU_EXAMPLE_ACTIONS:
        state, _ = DIU.apply(state, {**action, "seat": seat})
    return DIU.bot_view(state, 1)


def _diu_example_json() -> str:
    """The example as the page shows it: compact lines, the card names cut with ``"…"``."""
    g = _diu_example_game_state()

    def j(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    prompt = g["prompt"]
    names = g["cardNames"]
    rules = g["rules"]
    assert isinstance(prompt, dict)
    assert isinstance(names, dict)
    assert isinstance(rules, dict)
    options = ",\n".join(f"      {j(o)}" for o in prompt["options"])
    melds = ",\n".join(f"    {j(m)}" for m in g["melds"])  # type: ignore[attr-defined]
    rule_lines = ",\n".join(f"    {j(k)}: {j(v)}" for k, v in rules.items())
    top = ("myPosition", "myRole", "roles", "myCards", "handCounts")
    middle = ("currentTurn", "card", "poll")
    tail = ("discards", "dead", "stockCount")
    shown_names = {k: names[k] for k in ("11", "12")} | {"…": "…", "W": names["W"]}
    return "\n".join(
        [
            "{",
            f'  "game": {j(g["game"])},',
            *(f"  {j(k)}: {j(g[k])}," for k in top),
            '  "prompt": {',
            f'    "kind": {j(prompt["kind"])},',
            f'    "options": [\n{options}\n    ],',
            f'    "deadline": {j(prompt["deadline"])}',
            "  },",
            *(f"  {j(k)}: {j(g[k])}," for k in middle),
            f'  "melds": [\n{melds}\n  ],',
            *(f"  {j(k)}: {j(g[k])}," for k in tail),
            f'  "cardNames": {j(shown_names)},',
            f'  "metadata": {j(g["metadata"])},',
            f'  "scores": {j(g["scores"])},',
            f'  "rules": {{\n{rule_lines}\n  }}',
            "}",
        ]
    )


DIU_EXAMPLE_STATE = _diu_example_json()

DIU_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("game", "string", '`"diu"`'),
    ("myPosition", "int", "the bot's seat, `0..3`"),
    ("myRole", "string", "`A` (头家, leads), `B`, `C` (陪玩) or `D` (闲家: sits out, never asked)"),
    ("roles", "object", "the seat of each role, e.g. `{A: 2, B: 1, C: 0, D: 3}`"),
    (
        "myCards",
        "string[]",
        "the bot's hand as card ids: two pip digits low-high (`11` … `66`) or `W` (听用, wild)",
    ),
    ("handCounts", "(int \\| null)[]", "cards held per seat (`null` for D)"),
    (
        "prompt",
        "object",
        "what the bot must answer: `kind` (`discard`, `call`, `diu`, `offer`), `options` "
        "(every legal reply, already in the reply shape) and `deadline` (unix time or `null`)",
    ),
    ("currentTurn", "int \\| null", "the prompted seat"),
    (
        "card",
        "object \\| null",
        'the card up for decision: `{card, source: "discard" | "stock", seat}`',
    ),
    (
        "poll",
        "object \\| null",
        "the claim poll on that card: `order` (seats asked), `bar` (rank a claim must beat), "
        "`answers` (`{seat, answer, stage, auto}` so far) and `claims` (`{seat, type}`)",
    ),
    ("melds", "object[][]", "exposed melds per seat: `{type, cards, from, source}`"),
    ("discards", "string[][]", "each seat's discard pile (unclaimed discards)"),
    ("dead", "string[]", "drawn cards nobody claimed"),
    ("stockCount", "int", "cards left in the stock"),
    ("cardNames", "object", "the Chinese name of each card id"),
    (
        "metadata",
        "object",
        "`round` (one per card put up), `gameOver`, `players` (4), `rulesVersion`",
    ),
    ("scores.session", "int[] \\| null", "table-session totals, when the table provides them"),
    ("rules", "object", "the table's options (timers, claim shapes, 丢 mode, deck…)"),
)

DIU_REPLIES: tuple[tuple[str, str, str], ...] = (
    (
        "`discard`",
        '`{action: "discard", card: "66"}`',
        "discard a card (a `W` only when nothing else is held)",
    ),
    ("`call`", '`{action: "pass"}`', "let the card go"),
    (
        "`call`",
        '`{action: "claim", type: "hard_pair", cards: ["66"]}`',
        "claim it with hand cards: `chi` 吃 (14 points), `kuai` 筷 (W), `shui` 水 (W W), "
        "`hard_pair`, `hard_shui`, `hard_triple`",
    ),
    (
        "`call`, `diu`",
        '`{action: "diu", cards: ["W", "W"]}`',
        "丢: win with the card and two hand cards (ends the hand)",
    ),
    (
        "`offer`",
        '`{action: "accept"}` / `{action: "decline"}`',
        "take the claimed card, then discard",
    ),
)

DIU_MINIMAL_BOT = """
function getNextMove(gameState) {
  const options = gameState.prompt.options;
  return (
    options.find((o) => o.action === "diu") ||    // win when you can
    options.find((o) => o.action === "pass") ||   // never claim
    options.find((o) => o.action === "accept") ||
    options[0]                                    // discard the first card offered
  );
}
"""

DIU_SECTIONS: tuple[Section, ...] = (
    Section(
        "diu",
        "Suijiang Diu (`diu`)",
        2,
        (
            p("""绥江丢 for four seats: A, B and C play, D sits the hand out. Rules as
            implemented: [docs/rules/diu.md](rules/diu.md)."""),
            p("""A bot is asked whenever its seat is **prompted**, not only in seat order:
            to discard, to claim or pass a card that is up (a claim poll), to 丢 in a
            re-poll, or to accept an offer of its own claim. `gameState.prompt` says which;
            a bot in seat D is never asked."""),
        ),
        game="diu",
    ),
    Section(
        "diu-example",
        "Example",
        3,
        (
            p("""B is polled on the 45 that A discarded (long lists shortened with `"…"`):"""),
            code("json", DIU_EXAMPLE_STATE),
        ),
        game="diu",
    ),
    Section(
        "diu-fields",
        "Fields",
        3,
        (table(("field", "type", "meaning"), *_rows3(DIU_FIELDS)),),
        game="diu",
    ),
    Section(
        "diu-return",
        "Return value",
        3,
        (
            p("""Return one of `prompt.options` as it is, or build the same shape:"""),
            table(("prompt", "reply", "meaning"), *DIU_REPLIES),
            p("""A claim must outrank the poll's `bar` (`options` only lists claims that
            do), and a claim other than 丢 must leave a card to discard."""),
        ),
        game="diu",
    ),
    Section(
        "diu-errors",
        "Error codes",
        3,
        (
            p("""`bad_bot_move` (not an object, an unknown `action` or claim `type`, `cards`
            not a list), `bad_card`, `not_in_hand`, `wild_discard`, `claim_not_allowed`,
            `claim_not_higher`, `invalid_claim`, `must_keep_card`, `diu_not_allowed`,
            `invalid_diu`, `diu_incomplete`, `illegal_action` (a reply that does not answer
            the prompt), `not_your_turn`, `game_over`."""),
            p("When the bot itself fails, the sandbox reports one of:"),
            table(("code", "when"), *((f"`{c}`", w) for c, w in SANDBOX_ERRORS)),
            p("""On any error the house policy acts and a strike is counted: pass a call or a
            re-poll, decline an offer, or discard the highest natural card."""),
        ),
        game="diu",
    ),
    Section(
        "diu-minimal",
        "A minimal bot",
        3,
        (code("javascript", DIU_MINIMAL_BOT),),
        game="diu",
    ),
)

# --------------------------------------------------------------------------- local runner

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
                ("`--game`", "`tienlen` (default), `stud` or `diu`"),
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
            deal. Points are each game's score: Tiến Lên points, stud chips won or lost, Diu score
            in base stakes. A deal is the unit of the intervals (its rotations are not independent):
            each entrant's per-deal mean is one observation, and the interval is mean ± t(0.975,
            deals − 1) · sd / √deals; first places use the same formula on each deal's share of wins
            (clipped to 0–100 %). With `--stop-when-separated` the match ends once the first
            entrant's points interval overlaps no other entrant's (after `--min-deals`)."""),
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
            These files hold the seed and actions of every game, stud included."""),
            p("""Bad input prints `error: <code>: <message>` and exits with status 2 (codes:
            `bad_arguments`, `unknown_game`, `unknown_house_level`, `no_such_file`,
            `not_a_bot_file`, `syntax`, `bad_field`, `bad_option`, `bad_config`,
            `bad_out`)."""),
        ),
        in_panel=False,
    ),
)

# --------------------------------------------------------------------------- external bots

#: The example client of the external bot API, shown whole in the reference.
EXTERNAL_CLIENT = (Path(__file__).resolve().parent / "examples" / "external_client.py").read_text(
    encoding="utf-8"
)

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
                ("`rate_limited`", "more than 20 frames a second"),
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

#: Every section in page order: the shared ones, Tiến Lên's, stud's, Diu's.
SECTIONS: tuple[Section, ...] = (
    *(replace(s, game="tienlen") if s.id in _TIENLEN_SECTIONS else s for s in _BASE_SECTIONS),
    *STUD_SECTIONS,
    *DIU_SECTIONS,
    *LOCAL_RUNNER_SECTIONS,
    *EXTERNAL_SECTIONS,
)


# --------------------------------------------------------------------------- rendering

_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)")


def _inline_html(text: str, *, link_base: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos : m.start()].replace("\\|", "|")))
        if m.group(1) is not None:
            out.append(f"<code>{html.escape(m.group(1).replace(chr(92) + '|', '|'))}</code>")
        elif m.group(2) is not None:
            out.append(f"<strong>{html.escape(m.group(2))}</strong>")
        else:
            url = m.group(4)
            if ":" in url.split("/")[0] and not url.startswith(("http://", "https://")):
                out.append(html.escape(m.group(3)))  # no javascript:, data: … links
                pos = m.end()
                continue
            if not url.startswith(("http://", "https://", "/", "#")):
                url = link_base + url
            out.append(f'<a href="{html.escape(url)}">{html.escape(m.group(3))}</a>')
        pos = m.end()
    out.append(html.escape(text[pos:].replace("\\|", "|")))
    return "".join(out)


def _wrap(text: str, first: str = "", rest: str = "") -> str:
    return textwrap.fill(
        text,
        width=100,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )


def render_markdown() -> str:
    """The whole reference as Markdown (the content of ``docs/bot-api.md``)."""
    parts: list[str] = []
    for section in SECTIONS:
        parts.append("#" * section.level + " " + section.title)
        for block in section.blocks:
            if block.kind == "p":
                parts.append(_wrap(block.text))
            elif block.kind == "list":
                parts.append("\n".join(_wrap(item, "* ", "  ") for item in block.items))
            elif block.kind == "code":
                parts.append(f"```{block.lang}\n{block.text}\n```")
            elif block.kind == "table":
                lines = ["| " + " | ".join(block.header) + " |"]
                lines.append("|" + "|".join("---" for _ in block.header) + "|")
                lines += ["| " + " | ".join(row) + " |" for row in block.rows]
                parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def render_html(*, link_base: str = "", game: str = "tienlen") -> str:
    """The panel's HTML for a bot of ``game``: the shared sections marked ``in_panel`` and
    ``game``'s own (its title section included), each a ``<details>`` element.

    All text is escaped; only the markup produced here reaches the page.

    >>> "myDownCards" in render_html(game="stud"), "myDownCards" in render_html()
    (True, False)
    """
    parts: list[str] = []
    first = True
    for section in SECTIONS:
        if section.game is not None and section.game != game:
            continue
        if not section.in_panel and section.game is None:
            continue
        title = _inline_html(section.title, link_base=link_base)
        opened = " open" if first else ""
        first = False
        parts.append(f'<details class="ref-section" id="ref-{section.id}"{opened}>')
        parts.append(f"<summary>{title}</summary>")
        for block in section.blocks:
            if block.kind == "p":
                parts.append(f"<p>{_inline_html(block.text, link_base=link_base)}</p>")
            elif block.kind == "list":
                items = "".join(
                    f"<li>{_inline_html(i, link_base=link_base)}</li>" for i in block.items
                )
                parts.append(f"<ul>{items}</ul>")
            elif block.kind == "code":
                parts.append(
                    f'<pre class="ref-code" data-lang="{html.escape(block.lang)}">'
                    f"<code>{html.escape(block.text)}</code></pre>"
                )
            elif block.kind == "table":
                head = "".join(f"<th>{html.escape(h)}</th>" for h in block.header)
                body = "".join(
                    "<tr>"
                    + "".join(f"<td>{_inline_html(c, link_base=link_base)}</td>" for c in row)
                    + "</tr>"
                    for row in block.rows
                )
                parts.append(
                    f'<table class="ref-table"><thead><tr>{head}</tr></thead>'
                    f"<tbody>{body}</tbody></table>"
                )
        parts.append("</details>")
    return "\n".join(parts)
