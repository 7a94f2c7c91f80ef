"""Suijiang Diu's part of the reference (its example ``gameState`` comes from the engine)."""

from __future__ import annotations

import json

from bots.reference.js_api import SANDBOX_ERRORS
from bots.reference.model import Section, code, p, rows3, table

__all__ = ["DIU_EXAMPLE_STATE", "DIU_FIELDS", "DIU_MINIMAL_BOT", "DIU_REPLIES", "DIU_SECTIONS"]

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

    >>> from bots.reference.diu import _diu_example_game_state
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
