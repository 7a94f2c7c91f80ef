"""Suijiang Diu's part of the reference (its example ``gameState`` comes from the engine)."""

from __future__ import annotations

import json

from games.engine.core.reference import BotReference, Section, code, p, rows3, sandbox_errors, table
from games.engine.diu import rules, views

__all__ = [
    "DIU_EXAMPLE_STATE",
    "DIU_FIELDS",
    "DIU_MINIMAL_BOT",
    "DIU_REPLIES",
    "DIU_SECTIONS",
    "REFERENCE",
    "VI_KEEP",
    "VI_PAIRS",
]

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

    >>> from games.engine.diu.reference import _diu_example_game_state
    >>> g = _diu_example_game_state()
    >>> g["card"], [(o["action"], o.get("type"), o.get("cards")) for o in g["prompt"]["options"]]
    ... # doctest: +NORMALIZE_WHITESPACE
    ({'card': '45', 'source': 'discard', 'seat': 2},
     [('pass', None, None), ('claim', 'chi', ['14']), ('claim', 'kuai', ['W']),
      ('claim', 'hard_pair', ['45']), ('claim', 'hard_shui', ['45', 'W']),
      ('claim', 'hard_triple', ['45', '45'])])
    """
    state = rules.new_game(DIU_EXAMPLE_CONFIG, seed=0)
    for seat, action in DIU_EXAMPLE_ACTIONS:
        state, _ = rules.apply(state, {**action, "seat": seat})
    return views.bot_view(state, 1)


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
        (table(("field", "type", "meaning"), *rows3(DIU_FIELDS)),),
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
            sandbox_errors(),
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

#: The Vietnamese text of these sections (English → Vietnamese), for the editor's panel.
VI_PAIRS: tuple[tuple[str, str], ...] = (
    # diu
    (
        """绥江丢 for four seats: A, B and C play, D sits the hand out. Rules as implemented:
        [docs/rules/diu.md](rules/diu.md).""",
        """绥江丢 cho bốn ghế: A, B và C chơi, D ngồi ngoài tay bài đó. Luật như được cài đặt:
        [docs/rules/diu.md](rules/diu.md).""",
    ),
    (
        """A bot is asked whenever its seat is **prompted**, not only in seat order: to
        discard, to claim or pass a card that is up (a claim poll), to 丢 in a re-poll, or to
        accept an offer of its own claim. `gameState.prompt` says which; a bot in seat D is
        never asked.""",
        """Bot được hỏi mỗi khi ghế của nó **được nhắc**, không chỉ theo thứ tự ghế: để đánh
        bài, để ăn hoặc bỏ qua một lá đang mở (một lượt hỏi ăn), để 丢 trong lượt hỏi lại,
        hoặc để nhận lời mời lấy lá mà nó đã báo ăn. `gameState.prompt` cho biết là việc
        nào; bot ở ghế D không bao giờ được hỏi.""",
    ),
    # diu-example
    (
        """B is polled on the 45 that A discarded (long lists shortened with `"…"`):""",
        """B được hỏi về lá 45 mà A vừa đánh (danh sách dài được rút gọn bằng `"…"`):""",
    ),
    # diu-fields
    ("the bot's seat, `0..3`", "ghế của bot, `0..3`"),
    (
        "`A` (头家, leads), `B`, `C` (陪玩) or `D` (闲家: sits out, never asked)",
        """`A` (头家, đánh trước), `B`, `C` (陪玩) hoặc `D` (闲家: ngồi ngoài, không bao giờ được
        hỏi)""",
    ),
    (
        "the seat of each role, e.g. `{A: 2, B: 1, C: 0, D: 3}`",
        "ghế của từng vai, ví dụ `{A: 2, B: 1, C: 0, D: 3}`",
    ),
    (
        "the bot's hand as card ids: two pip digits low-high (`11` … `66`) or `W` (听用, wild)",
        """bài trên tay bot dưới dạng mã lá: hai chữ số nút từ thấp đến cao (`11` … `66`) hoặc
        `W` (听用, lá đại)""",
    ),
    ("cards held per seat (`null` for D)", "số lá đang cầm của từng ghế (`null` với D)"),
    (
        """what the bot must answer: `kind` (`discard`, `call`, `diu`, `offer`), `options`
        (every legal reply, already in the reply shape) and `deadline` (unix time or `null`)""",
        """điều bot phải trả lời: `kind` (`discard`, `call`, `diu`, `offer`), `options` (mọi
        cách trả lời hợp lệ, đã ở đúng dạng trả lời) và `deadline` (thời điểm unix hoặc
        `null`)""",
    ),
    ("the prompted seat", "ghế đang được nhắc"),
    (
        """the card up for decision: `{card, source: "discard" | "stock", seat}`""",
        """lá đang mở chờ quyết định: `{card, source: "discard" | "stock", seat}`""",
    ),
    (
        """the claim poll on that card: `order` (seats asked), `bar` (rank a claim must beat),
        `answers` (`{seat, answer, stage, auto}` so far) and `claims` (`{seat, type}`)""",
        """lượt hỏi ăn lá đó: `order` (các ghế được hỏi), `bar` (hạng mà một lần ăn phải vượt),
        `answers` (`{seat, answer, stage, auto}` đến giờ) và `claims` (`{seat, type}`)""",
    ),
    (
        "exposed melds per seat: `{type, cards, from, source}`",
        "các bộ đã hạ của từng ghế: `{type, cards, from, source}`",
    ),
    (
        "each seat's discard pile (unclaimed discards)",
        "chồng bài đã đánh của từng ghế (các lá không ai ăn)",
    ),
    ("drawn cards nobody claimed", "các lá rút ra mà không ai ăn"),
    ("cards left in the stock", "số lá còn trong nọc"),
    ("the Chinese name of each card id", "tên tiếng Trung của từng mã lá"),
    (
        "`round` (one per card put up), `gameOver`, `players` (4), `rulesVersion`",
        "`round` (mỗi lá được mở là một vòng), `gameOver`, `players` (4), `rulesVersion`",
    ),
    (
        "table-session totals, when the table provides them",
        "tổng điểm của phiên bàn, khi bàn cung cấp",
    ),
    (
        "the table's options (timers, claim shapes, 丢 mode, deck…)",
        "các tùy chọn của bàn (hẹn giờ, kiểu bộ khi ăn, chế độ 丢, bộ bài…)",
    ),
    # diu-return
    (
        "Return one of `prompt.options` as it is, or build the same shape:",
        "Trả về nguyên một phần tử của `prompt.options`, hoặc tự dựng cùng dạng đó:",
    ),
    ("prompt", "lời nhắc"),
    ("reply", "trả lời"),
    (
        "discard a card (a `W` only when nothing else is held)",
        "đánh một lá (chỉ được đánh `W` khi không còn lá nào khác)",
    ),
    ("let the card go", "để lá đó đi qua"),
    (
        """claim it with hand cards: `chi` 吃 (14 points), `kuai` 筷 (W), `shui` 水 (W W),
        `hard_pair`, `hard_shui`, `hard_triple`""",
        """ăn lá đó bằng các lá trên tay: `chi` 吃 (14 điểm), `kuai` 筷 (W), `shui` 水 (W W),
        `hard_pair`, `hard_shui`, `hard_triple`""",
    ),
    (
        "丢: win with the card and two hand cards (ends the hand)",
        "丢: thắng bằng lá đó và hai lá trên tay (kết thúc tay bài)",
    ),
    ("take the claimed card, then discard", "lấy lá đã báo ăn, rồi đánh một lá"),
    (
        """A claim must outrank the poll's `bar` (`options` only lists claims that do), and a
        claim other than 丢 must leave a card to discard.""",
        """Một lần ăn phải cao hơn `bar` của lượt hỏi (`options` chỉ liệt kê những lần ăn như
        vậy), và một lần ăn không phải 丢 phải chừa lại một lá để đánh.""",
    ),
    # diu-errors
    (
        """`bad_bot_move` (not an object, an unknown `action` or claim `type`, `cards` not a
        list), `bad_card`, `not_in_hand`, `wild_discard`, `claim_not_allowed`,
        `claim_not_higher`, `invalid_claim`, `must_keep_card`, `diu_not_allowed`,
        `invalid_diu`, `diu_incomplete`, `illegal_action` (a reply that does not answer the
        prompt), `not_your_turn`, `game_over`.""",
        """`bad_bot_move` (không phải đối tượng, `action` hoặc `type` ăn không xác định,
        `cards` không phải danh sách), `bad_card`, `not_in_hand`, `wild_discard`,
        `claim_not_allowed`, `claim_not_higher`, `invalid_claim`, `must_keep_card`,
        `diu_not_allowed`, `invalid_diu`, `diu_incomplete`, `illegal_action` (câu trả lời
        không đáp đúng lời nhắc), `not_your_turn`, `game_over`.""",
    ),
    (
        """On any error the house policy acts and a strike is counted: pass a call or a
        re-poll, decline an offer, or discard the highest natural card.""",
        """Khi có lỗi, máy đánh thay và bị tính một lỗi: bỏ qua khi được hỏi ăn hoặc hỏi lại,
        từ chối lời mời, hoặc đánh lá tự nhiên cao nhất.""",
    ),
)

#: Texts of these sections that read the same in Vietnamese.
VI_KEEP: frozenset[str] = frozenset(
    {
        "Suijiang Diu (`diu`)",
    }
)

#: This game's part of the bot API reference (``Game.bot_reference``).
REFERENCE = BotReference(sections=DIU_SECTIONS, vi=VI_PAIRS, keep=VI_KEEP)
