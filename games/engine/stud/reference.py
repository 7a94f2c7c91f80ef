"""Seven-card stud's part of the reference (its example ``gameState`` comes from the engine)."""

from __future__ import annotations

import json

from games.engine.core.reference import BotReference, Section, code, p, rows3, sandbox_errors, table
from games.engine.stud import rules, views

__all__ = [
    "REFERENCE",
    "STUD_ACTIONS",
    "STUD_EXAMPLE_STATE",
    "STUD_FIELDS",
    "STUD_MINIMAL_BOT",
    "STUD_RETURN",
    "STUD_SECTIONS",
    "VI_KEEP",
    "VI_PAIRS",
]

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

    >>> from games.engine.stud.reference import _stud_example_game_state
    >>> g = _stud_example_game_state()
    >>> g["street"], g["currentTurn"], g["pots"], g["stacks"]
    (5, 1, [{'amount': 33, 'eligible': [0, 1, 2]}], [179, 189, 189])
    >>> [(p["bet"], p["contributed"]) for p in g["players"]]
    [(10, 21), (0, 11), (0, 11)]
    """
    state = rules.new_game(STUD_EXAMPLE_CONFIG, seed=0)
    for seat, name in STUD_EXAMPLE_ACTIONS:
        state, _ = rules.apply(state, {"type": name, "seat": seat})
    return views.bot_view(state, 1)


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
        (table(("field", "type", "meaning"), *rows3(STUD_FIELDS)),),
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
            sandbox_errors(),
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

#: The Vietnamese text of these sections (English → Vietnamese), for the editor's panel.
VI_PAIRS: tuple[tuple[str, str], ...] = (
    # stud
    ("Seven-Card Stud (`stud`)", "Stud 7 lá (`stud`)"),
    (
        """Fixed-limit seven-card stud for 2–7 seats. Rules as implemented:
        [docs/rules/stud.md](rules/stud.md). One game is one hand; chips carry over within a
        table session.""",
        """Seven-card stud giới hạn cố định cho 2–7 ghế. Luật như được cài đặt:
        [docs/rules/stud.md](rules/stud.md). Mỗi ván là một tay bài; chip được giữ qua các
        ván trong một phiên bàn.""",
    ),
    # stud-cards
    ("Cards", "Lá bài"),
    (
        """Cards are objects `{rank, suit, value, id}` like Tiến Lên's, but `value` is the
        poker scale: 2 → 2 … 10 → 10, J → 11, Q → 12, K → 13, A → 14 (aces are also low in a
        5-high straight). Suits do not rank hands; they only break ties for the bring-in and
        an odd chip (♣ < ♦ < ♥ < ♠).""",
        """Lá bài là các đối tượng `{rank, suit, value, id}` như của Tiến Lên, nhưng `value`
        theo thang poker: 2 → 2 … 10 → 10, J → 11, Q → 12, K → 13, A → 14 (át cũng là lá
        thấp trong sảnh 5 cao). Chất không xếp hạng tay bài; chúng chỉ phân định bằng nhau
        khi chọn người bring-in và khi chia chip lẻ (♣ < ♦ < ♥ < ♠).""",
    ),
    # stud-example
    (
        """Seat 1 of 3 on fifth street, facing seat 0's bet of 10 (a real state from the
        engine; long lists shortened with `"…"`). `pots` hold the chips of earlier streets;
        this street's bets are in `players[].bet` until the street ends:""",
        """Ghế 1 trong 3 ghế ở street thứ 5, đứng trước mức cược 10 của ghế 0 (một trạng thái
        thật từ engine; danh sách dài được rút gọn bằng `"…"`). `pots` chứa chip của các
        street trước; tiền cược của street này nằm trong `players[].bet` cho đến khi street
        kết thúc:""",
    ),
    # stud-fields
    ("the bot's seat, `0..players-1`", "ghế của bot, `0..players-1`"),
    (
        "the bot's cards in deal order: down, down, four up cards (3rd–6th street), down",
        "các lá của bot theo thứ tự chia: úp, úp, bốn lá ngửa (street thứ 3–6), úp",
    ),
    ("its down (hole) cards only", "chỉ các lá úp (lá tẩy) của bot"),
    (
        """the turn: `amount_to_call`, `can_check`, `can_bet`, `bet_amount`, `can_raise`,
        `raise_amount`, `raise_count`, `can_complete`, `bring_in_amount`, `can_bet_big`,
        `big_bet_amount`, `legal_actions`, `time_limit`, `seat_index` (chips are totals put
        in by the action)""",
        """lượt đi: `amount_to_call`, `can_check`, `can_bet`, `bet_amount`, `can_raise`,
        `raise_amount`, `raise_count`, `can_complete`, `bring_in_amount`, `can_bet_big`,
        `big_bet_amount`, `legal_actions`, `time_limit`, `seat_index` (số chip là tổng số bỏ
        vào bởi hành động đó)""",
    ),
    (
        """every legal reply, e.g. `[{action: "fold"}, …]`""",
        """mọi cách trả lời hợp lệ, ví dụ `[{action: "fold"}, …]`""",
    ),
    (
        "3 to 7 (third street … seventh street, the river)",
        "3 đến 7 (street thứ 3 … street thứ 7, river)",
    ),
    ("the dealer button's seat", "ghế của nút dealer"),
    ("the seat that had to bring it in on third street", "ghế phải bring-in ở street thứ 3"),
    ("seat index", "số thứ tự ghế"),
    ("dealt in and not folded", "được chia bài và chưa bỏ bài"),
    ("folded this hand / no chips left behind", "đã bỏ bài trong tay này / không còn chip"),
    (
        "chips behind, bet this street, put in the pot this hand",
        "chip còn lại, tiền cược ở street này, tiền đã bỏ vào pot trong tay này",
    ),
    (
        """that seat's dealt cards in deal order as the bot sees them: others' down cards are
        `null` (shown only at a showdown)""",
        """các lá đã chia cho ghế đó theo thứ tự chia, như bot nhìn thấy: lá úp của người khác
        là `null` (chỉ lộ ra khi lật bài)""",
    ),
    ("its face-up cards", "các lá ngửa của ghế đó"),
    (
        """the best hand its up cards make (`high_card`, `pair`, `two_pair`, `three_of_a_kind`,
        …)""",
        """tay bài mạnh nhất mà các lá ngửa tạo thành (`high_card`, `pair`, `two_pair`,
        `three_of_a_kind`, …)""",
    ),
    (
        "main pot then side pots, with the seats that may win each (chips of earlier streets)",
        """pot chính rồi các pot phụ, với các ghế có thể thắng từng pot (chip của các street
        trước)""",
    ),
    ("chips behind per seat", "chip còn lại của từng ghế"),
    ("the bet to match on this street", "mức cược cần theo ở street này"),
    ("this street's actions so far, in order", "các hành động của street này đến giờ, theo thứ tự"),
    (
        "table-session chip totals, when the table provides them",
        "tổng chip của phiên bàn, khi bàn cung cấp",
    ),
    # stud-return
    (
        "The actions, when each is legal (always check `validMoves`):",
        "Các hành động, và khi nào mỗi hành động hợp lệ (luôn kiểm tra `validMoves`):",
    ),
    ("action", "hành động"),
    ("third street's low card posts the bring-in", "lá thấp ở street thứ 3 phải đặt bring-in"),
    (
        "bring it up to a full small bet (instead of the bring-in, or over it)",
        "nâng lên đủ một mức cược nhỏ (thay cho bring-in, hoặc sau bring-in)",
    ),
    ("give up the hand", "bỏ tay bài"),
    ("no bet to match", "không có mức cược nào cần theo"),
    ("match the current bet", "theo mức cược hiện tại"),
    (
        "open the betting (small bet on 3rd–4th street, big bet from 5th)",
        "mở cược (cược nhỏ ở street thứ 3–4, cược lớn từ street thứ 5)",
    ),
    (
        "the optional big bet on fourth street when an open pair shows",
        "cược lớn tùy chọn ở street thứ 4 khi có đôi ngửa",
    ),
    (
        "raise by one bet (a bet and three raises per street; a fourth is `cap_reached`)",
        """tố thêm một mức cược (mỗi street một lần cược và ba lần tố; lần tố thứ tư là
        `cap_reached`)""",
    ),
    (
        """Amounts are fixed by the limits (`yourTurn` shows them); a return never names an
        amount.""",
        """Số tiền do giới hạn cố định (`yourTurn` cho biết); giá trị trả về không bao giờ nêu
        số tiền.""",
    ),
    # stud-errors
    (
        "the return is not an object, or `action` is not one of the actions above",
        """giá trị trả về không phải đối tượng, hoặc `action` không phải một trong các hành
        động ở trên""",
    ),
    (
        "the action is not legal now (the message lists what is)",
        "hành động không hợp lệ lúc này (thông báo liệt kê những gì hợp lệ)",
    ),
    (
        "a raise after the last raise allowed on this street",
        "tố sau lần tố cuối cùng được phép ở street này",
    ),
    ("the hand has ended", "tay bài đã kết thúc"),
    (
        """On any error the house policy acts and a strike is counted: check when possible,
        else fold (the bring-in is posted when it is due).""",
        """Khi có lỗi, máy đánh thay và bị tính một lỗi: xem bài nếu được, nếu không thì bỏ bài
        (bring-in được đặt khi đến hạn).""",
    ),
)

#: Texts of these sections that read the same in Vietnamese.
VI_KEEP: frozenset[str] = frozenset()

#: This game's part of the bot API reference (``Game.bot_reference``).
REFERENCE = BotReference(sections=STUD_SECTIONS, vi=VI_PAIRS, keep=VI_KEEP)
