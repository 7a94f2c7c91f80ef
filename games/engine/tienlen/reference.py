"""Tiến Lên Miền Nam's part of the reference: cards, combinations, the example ``gameState``,
its fields, the return value, error codes and a minimal bot."""

from __future__ import annotations

from games.engine.core.reference import BotReference, Section, code, p, rows3, sandbox_errors, table

__all__ = [
    "COMBOS",
    "EXAMPLE_STATE",
    "EXTRA_FIELDS",
    "MINIMAL_BOT",
    "MOVE_ERRORS",
    "REFERENCE",
    "RETURN_EXAMPLES",
    "SEED_FIELDS",
    "TIENLEN_SECTIONS",
    "VI_KEEP",
    "VI_PAIRS",
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
            sandbox_errors(),
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

#: The Vietnamese text of these sections (English → Vietnamese), for the editor's panel.
VI_PAIRS: tuple[tuple[str, str], ...] = (
    # tienlen
    (
        "Rules as implemented: [docs/rules/tienlen.md](rules/tienlen.md).",
        "Luật như được cài đặt: [docs/rules/tienlen.md](rules/tienlen.md).",
    ),
    # cards
    ("Card objects", "Đối tượng lá bài"),
    ("Every card in `gameState` is an object:", "Mỗi lá bài trong `gameState` là một đối tượng:"),
    ("field", "trường"),
    ("example", "ví dụ"),
    ("meaning", "ý nghĩa"),
    ("`♠ ♣ ♦ ♥` (lowest to highest)", "`♠ ♣ ♦ ♥` (từ thấp đến cao)"),
    (
        "rank + suit letter (`S C D H`), the engine's card id",
        "rank + chữ cái của chất (`S C D H`), mã lá bài của engine",
    ),
    (
        """Card strength is `value`, then suit (♠ < ♣ < ♦ < ♥). Lists of cards are sorted
        weakest first.""",
        """Độ mạnh của lá bài là `value`, rồi đến chất (♠ < ♣ < ♦ < ♥). Các danh sách lá bài
        được sắp từ yếu đến mạnh.""",
    ),
    # combinations
    ("Combinations (`type`)", "Các bộ bài (`type`)"),
    ("type", "loại"),
    ("what", "là gì"),
    ("one card", "một lá"),
    ("two cards of one rank", "hai lá cùng hạng"),
    ("three cards of one rank", "ba lá cùng hạng"),
    ("3+ consecutive ranks, no 2", "3+ hạng liên tiếp, không có 2"),
    ("3+ consecutive pairs (đôi thông), no 2", "3+ đôi liên tiếp (đôi thông), không có 2"),
    ("four of a kind (tứ quý)", "bốn lá cùng hạng (tứ quý)"),
    (
        """A single, pair or triple beats one with a weaker strongest card; a straight beats a
        shorter straight, or one of the same length with a weaker top card; a pairs run
        beats one of the same length with a weaker top card. Cuts (chặt): 3 đôi thông or tứ
        quý cut a single 2, and 4+ đôi thông also a pair of 2s; hàng cuts weaker hàng (see
        the rules page). 3 đôi thông and tứ quý need vòng (`hasVong`): the round's leader
        may not use them to cut. `validMoves` already applies every rule.""",
        """Lá lẻ, đôi hoặc bộ ba chặn được bộ cùng loại có lá mạnh nhất yếu hơn; sảnh chặn được
        sảnh ngắn hơn, hoặc sảnh cùng độ dài có lá cao nhất yếu hơn; đôi thông chặn được đôi
        thông cùng độ dài có lá cao nhất yếu hơn. Chặt: 3 đôi thông hoặc tứ quý chặt được
        một lá 2, và 4+ đôi thông chặt được cả đôi 2; hàng mạnh chặt hàng yếu hơn (xem trang
        luật). 3 đôi thông và tứ quý cần vòng (`hasVong`): người dẫn vòng không được dùng
        chúng để chặt. `validMoves` đã áp dụng mọi luật.""",
    ),
    # example
    ("Example", "Ví dụ"),
    (
        """Seat 3 of a 4-player game, after seat 0 led 3♠3♣, seat 1 passed and seat 2 played
        5♠5♣ (long lists shortened with `"…"`):""",
        """Ghế 3 của một ván 4 người, sau khi ghế 0 đánh 3♠3♣, ghế 1 bỏ lượt và ghế 2 đánh 5♠5♣
        (danh sách dài được rút gọn bằng `"…"`):""",
    ),
    # fields
    ("Fields", "Các trường"),
    (
        "The seed's fields, exactly as specified:",
        "Các trường của đặc tả gốc (seed), đúng như được quy định:",
    ),
    (
        "the bot's seat, `0..players-1`; turn order is seat+1 mod players",
        "ghế của bot, `0..players-1`; thứ tự lượt là ghế+1 mod số người chơi",
    ),
    ("the bot's hand", "bài trên tay của bot"),
    (
        """cards left per seat; opponents are `null` while the table option "hide hand counts"
        is on""",
        """số lá còn lại của từng ghế; của đối thủ là `null` khi tùy chọn bàn "ẩn số lá trên
        tay" đang bật""",
    ),
    (
        "every card played in the current round (vòng), in play order",
        "mọi lá đã đánh trong vòng hiện tại, theo thứ tự đánh",
    ),
    (
        "the play to beat; `null` when the bot leads the round",
        "bộ bài cần chặn; `null` khi bot dẫn vòng",
    ),
    ("seat that made it", "ghế đã đánh bộ đó"),
    ("its cards", "các lá của bộ đó"),
    (
        """`value` of its strongest card: a play of the same type needs a strongest card of at
        least this value (an equal value needs a higher suit)""",
        """`value` của lá mạnh nhất trong bộ: một bộ cùng loại cần lá mạnh nhất có giá trị ít
        nhất bằng số này (giá trị bằng nhau thì cần chất cao hơn)""",
    ),
    (
        "whose turn it is (the bot's own seat when it is asked)",
        "đến lượt ai (chính ghế của bot khi bot được hỏi)",
    ),
    (
        "seats locked out of the current round because they passed",
        "các ghế bị khóa khỏi vòng hiện tại vì đã bỏ lượt",
    ),
    ("round index in this game, from 0", "số thứ tự vòng trong ván này, từ 0"),
    ("the seat that led the game's first round", "ghế đã dẫn vòng đầu tiên của ván"),
    (
        "true for the game's first play (it must include `mustInclude`)",
        "true với nước đầu tiên của ván (nước đó phải có `mustInclude`)",
    ),
    ("always true when a bot is asked", "luôn là true khi bot được hỏi"),
    (
        """every legal play (not the pass), sorted by type (single, pair, triple, straight,
        pairs_run, four), then length, then strength. Every suit variant is listed.""",
        """mọi bộ hợp lệ (không tính bỏ lượt), sắp theo loại (single, pair, triple, straight,
        pairs_run, four), rồi độ dài, rồi độ mạnh. Mọi biến thể về chất đều được liệt kê.""",
    ),
    ("Extra fields for serious bots:", "Các trường bổ sung cho bot nghiêm túc:"),
    (
        "the game has ended (never true when a bot is asked)",
        "ván đã kết thúc (không bao giờ là true khi bot được hỏi)",
    ),
    ("seats at the table (2–4)", "số ghế ở bàn (2–4)"),
    (
        "the engine's rules version, e.g. `tienlen-1`",
        "phiên bản luật của engine, ví dụ `tienlen-1`",
    ),
    (
        "ranks in a straight / pairs run (1 otherwise)",
        "số hạng trong sảnh / đôi thông (các loại khác là 1)",
    ),
    ("its strongest card", "lá mạnh nhất của bộ"),
    (
        "false when the bot leads (a leader must play)",
        "false khi bot dẫn vòng (người dẫn vòng phải đánh)",
    ),
    (
        """the card the opening play must contain (3♠, or the lowest dealt card with 2–3
        players)""",
        "lá mà nước mở ván phải chứa (3♠, hoặc lá thấp nhất được chia khi có 2–3 người chơi)",
    ),
    (
        """whether the bot may cut with 3 đôi thông / tứ quý this round (the round's leader may
        not)""",
        """bot có được chặt bằng 3 đôi thông / tứ quý trong vòng này không (người dẫn vòng thì
        không)""",
    ),
    ("who led the current round", "ai đã dẫn vòng hiện tại"),
    (
        """this round in order: `{player, action: "play", type, cards}` or `{player, action:
        "pass"}`""",
        """vòng này theo thứ tự: `{player, action: "play", type, cards}` hoặc `{player, action:
        "pass"}`""",
    ),
    ("every card played so far in this game", "mọi lá đã đánh từ đầu ván đến giờ"),
    (
        """seats that emptied their hand, in order (only grows past one with the play-on
        option)""",
        "các ghế đã hết bài, theo thứ tự (chỉ có hơn một ghế khi bật tùy chọn chơi tiếp)",
    ),
    (
        "the open chặt chain: `{debtor, payee, points}`",
        "chuỗi chặt đang mở: `{debtor, payee, points}`",
    ),
    (
        "this game's points so far (chặt settled at round ends)",
        "điểm của ván này đến giờ (tiền chặt được tính khi kết thúc vòng)",
    ),
    (
        "those settled transfers `{from, to, points, reason}`",
        "các khoản chuyển đã tính đó `{from, to, points, reason}`",
    ),
    (
        "table-session totals before this game, when the table provides them",
        "tổng điểm của phiên bàn trước ván này, khi bàn cung cấp",
    ),
    (
        """Note on `minRankToBeat`: the seed's example shows `7` for a 7♦, which matches
        neither `value` (5) nor anything else in the seed; the engine uses the `value` scale
        throughout (a ruling of this project).""",
        """Ghi chú về `minRankToBeat`: ví dụ trong đặc tả gốc ghi `7` cho lá 7♦, không khớp với
        `value` (5) hay bất cứ thứ gì khác trong đặc tả; engine dùng thang `value` ở mọi nơi
        (một quyết định của dự án này).""",
    ),
    # return
    ("Return value", "Giá trị trả về"),
    (
        """A card object is read from `id` if present, else from `rank` + `suit` (letters,
        symbols and `T` for 10 are accepted). Order does not matter.""",
        """Một đối tượng lá bài được đọc từ `id` nếu có, nếu không thì từ `rank` + `suit` (chấp
        nhận chữ cái, ký hiệu và `T` cho 10). Thứ tự không quan trọng.""",
    ),
    # errors
    ("Error codes", "Mã lỗi"),
    (
        "`parse_bot_move` raises a `ValueError` whose `code` is one of:",
        "`parse_bot_move` ném ra một `ValueError` có `code` là một trong:",
    ),
    ("code", "mã"),
    ("when", "khi nào"),
    (
        "the return is not an object, `action` is not `play`/`pass`, or `cards` is not a list",
        """giá trị trả về không phải đối tượng, `action` không phải `play`/`pass`, hoặc `cards`
        không phải danh sách""",
    ),
    ("an entry of `cards` is not a card", "một phần tử của `cards` không phải lá bài"),
    ("a card is named twice", "một lá bị nêu hai lần"),
    (
        "(server-side mistake) the bot was asked out of turn",
        "(lỗi phía máy chủ) bot được hỏi khi chưa đến lượt",
    ),
    ("the bot passed earlier in this round", "bot đã bỏ lượt trước đó trong vòng này"),
    ("the bot leads the round and passed", "bot dẫn vòng nhưng lại bỏ lượt"),
    (
        "the cards are no combination, or the list is empty",
        "các lá không tạo thành bộ nào, hoặc danh sách rỗng",
    ),
    ("a card is not in the bot's hand", "một lá không có trên tay bot"),
    ("the opening play lacks `mustInclude`", "nước mở ván thiếu `mustInclude`"),
    (
        "the play neither beats nor cuts `lastPlay`",
        "bộ đánh ra không chặn được cũng không chặt được `lastPlay`",
    ),
    (
        "a cut with 3 đôi thông / tứ quý by the round's leader",
        "người dẫn vòng chặt bằng 3 đôi thông / tứ quý",
    ),
    ("the game has ended", "ván đã kết thúc"),
    (
        "When the bot itself fails, the sandbox reports one of:",
        "Khi chính bot bị lỗi, sandbox báo một trong:",
    ),
    (
        "the move (or the top-level code, when loading) ran past its 5 s budget",
        "nước đi (hoặc code ở cấp ngoài cùng, khi nạp) chạy quá ngân sách 5 s",
    ),
    (
        "the bot used more than its memory budget (about 50 MB of JavaScript heap)",
        "bot dùng quá ngân sách bộ nhớ (khoảng 50 MB heap JavaScript)",
    ),
    (
        "the code threw, while loading or in `getNextMove`; the message names the line",
        "code ném lỗi, khi nạp hoặc trong `getNextMove`; thông báo nêu số dòng",
    ),
    (
        """`getNextMove` returned no plain object (`undefined`, a Promise, an array, a cycle,
        more than 64 Ki characters of JSON…)""",
        """`getNextMove` không trả về một đối tượng thuần (`undefined`, một Promise, một mảng,
        một vòng tham chiếu, hơn 64 Ki ký tự JSON…)""",
    ),
    ("the code does not compile", "code không biên dịch được"),
    ("the code defines no function `getNextMove`", "code không định nghĩa hàm `getNextMove`"),
    (
        "the bot's process died; it is restarted for the next move (globals reset)",
        """tiến trình của bot đã chết; nó được khởi động lại cho nước sau (biến toàn cục bị đặt
        lại)""",
    ),
    (
        """Any error counts a strike and the house policy moves instead: pass, or when leading
        play the lowest single (`mustInclude` in the opening play).""",
        """Mọi lỗi đều bị tính một lỗi và máy đánh thay: bỏ lượt, hoặc khi dẫn vòng thì đánh lá
        lẻ thấp nhất (có `mustInclude` trong nước mở ván).""",
    ),
    # minimal
    ("A minimal bot", "Một bot tối giản"),
)

#: Texts of these sections that read the same in Vietnamese.
VI_KEEP: frozenset[str] = frozenset(
    {
        "Tiến Lên Miền Nam (`tienlen`)",
        "3 → 1 … K → 11, A → 12, 2 → 13",
    }
)

#: This game's part of the bot API reference (``Game.bot_reference``).
REFERENCE = BotReference(sections=TIENLEN_SECTIONS, vi=VI_PAIRS, keep=VI_KEEP)
