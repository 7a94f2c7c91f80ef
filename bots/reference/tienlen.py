"""Tiến Lên Miền Nam's part of the reference: cards, combinations, the example ``gameState``,
its fields, the return value, error codes and a minimal bot."""

from __future__ import annotations

from bots.reference.js_api import SANDBOX_ERRORS
from bots.reference.model import Section, code, p, rows3, table

__all__ = [
    "COMBOS",
    "EXAMPLE_STATE",
    "EXTRA_FIELDS",
    "MINIMAL_BOT",
    "MOVE_ERRORS",
    "RETURN_EXAMPLES",
    "SEED_FIELDS",
    "TIENLEN_SECTIONS",
]

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


TIENLEN_SECTIONS: tuple[Section, ...] = (
    Section(
        "tienlen",
        "Tiến Lên Miền Nam (`tienlen`)",
        2,
        (p("Rules as implemented: [docs/rules/tienlen.md](rules/tienlen.md)."),),
        in_panel=False,
        game="tienlen",
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
        game="tienlen",
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
        game="tienlen",
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
        game="tienlen",
    ),
    Section(
        "fields",
        "Fields",
        3,
        (
            p("The seed's fields, exactly as specified:"),
            table(("field", "type", "meaning"), *rows3(SEED_FIELDS)),
            p("Extra fields for serious bots:"),
            table(("field", "type", "meaning"), *rows3(EXTRA_FIELDS)),
            p("""Note on `minRankToBeat`: the seed's example shows `7` for a 7♦, which matches
            neither `value` (5) nor anything else in the seed; the engine uses the `value`
            scale throughout (a ruling of this project)."""),
        ),
        game="tienlen",
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
        game="tienlen",
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
        game="tienlen",
    ),
    Section(
        "minimal",
        "A minimal bot",
        3,
        (code("javascript", MINIMAL_BOT),),
        game="tienlen",
    ),
)
