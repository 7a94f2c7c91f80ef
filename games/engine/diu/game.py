"""The Diu game module object, ``GAME``: its rules bound to the engine core's shape
(:class:`games.engine.core.game.GameBase` owns records, replays, history …).

>>> from games.engine.diu import GAME
>>> GAME.name, GAME.rules_version
('diu', 'diu-1')
>>> state = GAME.new_game(GAME.default_config(), seed=12)
>>> GAME.state_from_json(GAME.state_to_json(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.examples import BotExample
from games.engine.core.game import GameBase, seat_name, without_seat
from games.engine.core.protocol import Event
from games.engine.core.text import gettext_noop
from games.engine.diu import (
    ai,
    conformance,
    errors,
    lines,
    reference,
    rules,
    samples,
    session,
    views,
)
from games.engine.diu import state as state_json
from games.engine.diu.cards import NAMES
from games.engine.diu.state import RULES_VERSION, DiuState

__all__ = [
    "ADVANCED_TABLE_OPTIONS",
    "CLAIM_LABELS",
    "GAME",
    "TABLE_OPTIONS",
    "TABLE_OPTION_LABELS",
    "TABLE_OPTION_VALUE_LABELS",
    "TABLE_TIMERS",
    "DiuGame",
]

#: Claim types as the table shows them: the Chinese term and an English gloss (rules §6).
CLAIM_LABELS: dict[str, str] = {
    "chi": "吃 (chi: 14 points)",
    "kuai": "筷 (kuai: with a 听用)",
    "shui": "水 (shui: two 听用)",
    "hard_pair": "硬对 (hard pair)",
    "hard_shui": "硬水 (hard shui)",
    "hard_triple": "块水 (hard triple)",
    "diu": "丢 (diu)",
}

#: English templates of the system chat lines (:meth:`DiuGame.system_line`); ``{claim}`` is
#: shown with its label of :data:`CLAIM_LABELS`.
SYSTEM_MESSAGES: dict[str, str] = {
    "diu_meld": "{name} claimed {from}'s {card} {card_name} with {claim}: {cards}.",
    "diu_meld_stock": "{name} claimed the stock's {card} {card_name} with {claim}: {cards}.",
    "diu_diu": "{name}: 丢 (diu) with {cards}!",
    "diu_result_exhausted": "The stock ran out: no winner, nobody pays.",
    "diu_result_win": "{name} won the hand with 丢.",
    "diu_result_win_hard": "{name} won the hand with 丢 (hard: no 听用).",
}

#: The rule switches a host sets at a live table: every switch of rules §13, in the order the
#: forms show them (``claim_shapes`` as a preset word, see ``rules.SHAPE_PRESETS``).
TABLE_OPTIONS = (
    "t_call",
    "t_offer",
    "t_play",
    "rotation",
    "chi_restriction",
    "decline_policy",
    "diu_mode",
    "same_kind",
    "allow_diu_on_discard",
    "chow_split_double7",
    "repoll_includes_passers",
    "repoll_only_if_diu_possible",
    "auto_pass_no_option",
    "hard_bonus",
    "base",
    "claim_shapes",
    "copies_per_kind",
    "wild_count",
    "hand_size_lead",
    "hand_size_other",
    "shuffle_mode",
    "riffle_count",
    "prefetch_batch",
    "prefetch_refill_at",
    "prefetch_refill_inclusive",
)


#: The forms' English labels of those switches (rules §13); the site translates them.
TABLE_OPTION_LABELS: dict[str, str] = {
    "t_call": gettext_noop("Seconds to answer a claim poll"),
    "t_offer": gettext_noop("Seconds to accept an offer"),
    "t_play": gettext_noop("Seconds to discard"),
    "rotation": gettext_noop("Roles rotate"),
    "chi_restriction": gettext_noop("吃 (chi) restriction"),
    "decline_policy": gettext_noop("After a declined offer"),
    "diu_mode": gettext_noop("丢 (diu) needs"),
    "same_kind": gettext_noop("Same kind means"),
    "allow_diu_on_discard": gettext_noop("丢 (diu) on a discard"),
    "chow_split_double7": gettext_noop("Split two 7s to 吃 (chi)"),
    "repoll_includes_passers": gettext_noop("Re-poll asks passers for 丢"),
    "repoll_only_if_diu_possible": gettext_noop("Re-poll only seats that can 丢"),
    "auto_pass_no_option": gettext_noop("Pass automatically with no option"),
    "hard_bonus": gettext_noop("Double pay for a hard 丢 (no 听用)"),
    "base": gettext_noop("Base payment"),
    "copies_per_kind": gettext_noop("Copies of each card"),
    "wild_count": gettext_noop("听用 (wild) cards"),
    "claim_shapes": gettext_noop("Claim shapes (standard, or 对 = 碰)"),
    "hand_size_lead": gettext_noop("Cards dealt to A (头家)"),
    "hand_size_other": gettext_noop("Cards dealt to B and C"),
    "shuffle_mode": gettext_noop("Shuffle"),
    "riffle_count": gettext_noop("Riffles after the shuffle"),
    "prefetch_batch": gettext_noop("Stock cards sent per batch"),
    "prefetch_refill_at": gettext_noop("Send the next batch when this many are left"),
    "prefetch_refill_inclusive": gettext_noop("…including that count"),
}

#: The words of the word options as the forms show them (English; the site translates them).
TABLE_OPTION_VALUE_LABELS: dict[str, dict[str, str]] = {
    "rotation": {
        "fixed": gettext_noop("In turn: each player moves one role on"),
        "winner_becomes_a": gettext_noop("The winner becomes A (头家)"),
    },
    "chi_restriction": {
        "relative": gettext_noop("Nobody may 吃 (chi) the discard of the player before them"),
        "literal_head_only": gettext_noop("Only C may not 吃 (chi) A's discards"),
    },
    "decline_policy": {
        "next_claimant": gettext_noop("The next claim is offered the card"),
        "normal_flow": gettext_noop("The card is dead; play goes on"),
    },
    "diu_mode": {
        "complete_hand": gettext_noop("The rest of the hand splits into groups"),
        "empty_hand": gettext_noop("The two cards are the last in hand"),
    },
    "same_kind": {
        "pips": gettext_noop("The same two faces"),
        "points": gettext_noop("The same points"),
    },
    "claim_shapes": {
        "standard": gettext_noop("Standard: 对 is a pair"),
        "pong": gettext_noop("对 is 碰 (three of a kind)"),
    },
    "shuffle_mode": {
        "both": gettext_noop("Shuffle, then riffle"),
        "fisher_yates": gettext_noop("Shuffle only"),
        "riffle3": gettext_noop("Riffle only"),
    },
}

#: The rule switches a host rarely changes (the deck, the deal, the shuffle, the stock's
#: batches and the poll's fine points): the Create Table form folds them under "Advanced".
ADVANCED_TABLE_OPTIONS = (
    "decline_policy",
    "same_kind",
    "repoll_includes_passers",
    "repoll_only_if_diu_possible",
    "auto_pass_no_option",
    "claim_shapes",
    "copies_per_kind",
    "wild_count",
    "hand_size_lead",
    "hand_size_other",
    "shuffle_mode",
    "riffle_count",
    "prefetch_batch",
    "prefetch_refill_at",
    "prefetch_refill_inclusive",
)

#: The timers a new table starts with: longer than the rules' 15/15/20 s (rules §9, still the
#: engine's defaults, :data:`rules.DEFAULT_CONFIG`) so that a first-timer sorting 18 tiles is
#: not timed out; a host may set any other number.
TABLE_TIMERS: dict[str, int] = {"t_call": 25, "t_offer": 25, "t_play": 45}


class DiuGame(GameBase[DiuState], modules=(rules, views, state_json, ai, lines, session, samples)):
    """Suijiang Diu for a 4-seat table (A, B, C play; D sits out). Stateless.

    >>> DiuGame()
    DiuGame(name='diu', rules_version='diu-1')
    >>> GAME.table_options["t_call"], GAME.table_options["decline_policy"]
    (25, 'next_claimant')
    >>> GAME.table_option_choices["rotation"], GAME.table_option_choices["claim_shapes"]
    (('fixed', 'winner_becomes_a'), ('standard', 'pong'))
    """

    name = "diu"
    title = "Suijiang Diu (绥江丢)"
    rules_version = RULES_VERSION
    min_players = 4
    max_players = 4
    state_type = DiuState

    house_levels = ai.LEVELS
    #: Every switch of rules §13 (timers, rule switches, deck, deal, shuffle and prefetch); the
    #: table layer passes them to :meth:`session_start`, which validates them.
    #: A new table's timers are :data:`TABLE_TIMERS` (friendlier than the rules' defaults).
    table_options: Mapping[str, Any] = {
        k: TABLE_TIMERS.get(k, rules.DEFAULT_CONFIG[k]) for k in TABLE_OPTIONS
    }
    #: The history's lines (:mod:`games.engine.diu.lines`) are shown at display time only:
    #: exports keep the generic English lines they were signed with.
    export_event_lines = False
    table_option_choices: Mapping[str, tuple[str, ...]] = {
        k: v for k, v in rules.TABLE_CHOICES.items() if k in TABLE_OPTIONS
    }
    table_option_labels: Mapping[str, str] = TABLE_OPTION_LABELS
    table_option_value_labels: Mapping[str, Mapping[str, str]] = TABLE_OPTION_VALUE_LABELS
    advanced_table_options: tuple[str, ...] = ADVANCED_TABLE_OPTIONS
    #: The codes of this game's system chat lines; the table page has a ``sys_<code>``
    #: template for each, with the same ``{placeholders}`` as the params.
    system_codes = tuple(SYSTEM_MESSAGES)
    system_messages = SYSTEM_MESSAGES
    scenario_format = conformance.FORMAT
    error_codes = errors.ERROR_CODES
    bot_error_sentences = errors.BOT_ERROR_SENTENCES
    points_unit = gettext_noop("Diu score (base stakes)")
    sample_players = 4
    bot_reference = reference.REFERENCE
    bot_files = "games.engine.diu"
    bot_examples = (
        BotExample(
            "diu_random",
            gettext_noop("Random"),
            gettext_noop("Takes a diu when it can; otherwise any legal reply at random."),
        ),
        BotExample(
            "diu_builder",
            gettext_noop("Meld builder"),
            gettext_noop(
                "Claims only what leaves fewer loose cards, keeps its 听用, "
                "discards the loosest card."
            ),
        ),
    )
    bot_template = "diu_template"
    action_labels = {
        "discard": gettext_noop("Discard"),
        "claim": gettext_noop("Claim"),
        "diu": gettext_noop("Diu"),
        "accept": gettext_noop("Accept"),
        "decline": gettext_noop("Decline"),
    }

    #: The current prompt (who must answer what), for callers that show it.
    prompt = staticmethod(rules.prompt)

    def initial_events(self, state: DiuState) -> list[Event]:
        """Events announcing a dealt hand: roles and counts, each active seat's hand (private),
        the first stock batch (a count), then A's discard prompt.

        >>> s = GAME.new_game({}, 1)
        >>> [e.type for e in GAME.initial_events(s)]
        ['dealt', 'hand', 'hand', 'hand', 'stock_batch', 'turn', 'prompt']
        >>> all(e.to != s.roles["D"] for e in GAME.initial_events(s))
        True
        """
        d_seat = state.roles["D"]
        events = [
            Event(
                "dealt",
                {
                    "roles": dict(state.roles),
                    "hand_counts": [None if s == d_seat else len(state.hands[s]) for s in range(4)],
                    "stock": len(state.stock),
                },
            )
        ]
        events += [
            Event("hand", {"cards": list(state.hands[state.roles[r]])}, to=state.roles[r])
            for r in ("A", "B", "C")
        ]
        if state.delivered:
            events.append(Event("stock_batch", rules.batch_event(state, 0)))
        p = rules.prompt(state)
        if p is not None:
            deadline = rules.round_status(state).check_at
            events.append(
                Event(
                    "turn",
                    {"seat": p["seat"], "kind": p["kind"], "round": 0, "deadline": deadline},
                )
            )
            events.append(Event("prompt", {**p, "deadline": deadline}, to=p["seat"]))
        return events

    def check(self, state: DiuState, action: Mapping[str, Any]) -> None:
        """Raise exactly what :meth:`apply` would raise, without applying.

        >>> s = GAME.new_game({}, 1)
        >>> GAME.check(s, GAME.timeout_action(s, s.turn)) is None
        True
        """
        rules.check(state, action)

    def turn_payload(self, state: DiuState, seat: int) -> dict[str, Any] | None:
        """The live table's ``your_turn`` frame body for the prompted ``seat`` (None for any
        other seat, D included): the prompt's ``kind``, its ``options``, ``legal`` (every legal
        action spelled out without its seat: which card to discard, which hand cards make each
        claim or the 丢), the card under decision, and ``time_limit`` (this prompt's seconds).
        Only the prompted seat receives it: ``legal`` names that seat's own cards.

        >>> s = GAME.new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}}, 1)
        >>> p = GAME.turn_payload(s, 0)
        >>> p["kind"], p["time_limit"], p["legal"][0]["type"], p["card"]
        ('discard', 20, 'discard', None)
        >>> GAME.turn_payload(s, 3) is None, GAME.turn_payload(s, 1) is None
        (True, True)
        """
        current = rules.prompt(state)
        if current is None or current["seat"] != seat:
            return None
        kind = current["kind"]
        seconds = {"discard": "t_play", "call": "t_call", "diu": "t_call", "offer": "t_offer"}
        offer = None
        if kind == "offer":
            claim = state.claims[state.offers[state.offer_index]]
            offer = {"type": claim["type"], "cards": list(claim["cards"])}
        return {
            "kind": kind,
            "options": list(current["options"]),
            "legal": [without_seat(a) for a in rules.legal_actions(state, seat)],
            "offer": offer,
            "card": (
                None
                if state.card is None
                else {"card": state.card, "source": state.source, "seat": state.source_seat}
            ),
            "role": state.seat_role(seat),
            "time_limit": state.config[seconds[kind]],
        }

    def system_line(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> tuple[str, dict[str, Any]] | None:
        """The table chat's system line for a public event (``kind`` an event type) or, with
        ``kind`` ``"result"``, for the finished hand's result, as a code of
        :attr:`system_codes` and its params (players' names as given, cards as written,
        ``claim`` a claim type, ``card_name`` the Chinese name); None: nothing worth a line.
        Claims are logged when they become melds (a claim's cards stay hidden until then).

        >>> names = ["Ann", "Bo", "Cy", "Di"]
        >>> GAME.system_line("diu", {"seat": 2, "cards": ["W", "66"]}, names)
        ('diu_diu', {'name': 'Cy', 'cards': 'W 66'})
        """
        if kind == "meld":
            card = str(data["cards"][0])
            params: dict[str, Any] = {
                "name": seat_name(names, data["seat"]),
                "card": card,
                "card_name": NAMES.get(card, ""),
                "claim": str(data["type"]),
                "cards": " ".join(data["cards"]),
            }
            if data.get("source") == "stock":
                return "diu_meld_stock", params
            return "diu_meld", {**params, "from": seat_name(names, data["from"])}
        if kind == "diu":
            return "diu_diu", {
                "name": seat_name(names, data["seat"]),
                "cards": " ".join(data["cards"]),
            }
        if kind == "result":
            if data.get("result") == "exhausted" or data.get("winner") is None:
                return "diu_result_exhausted", {}
            diu = data.get("diu") or {}
            code = "diu_result_win_hard" if diu.get("hard") else "diu_result_win"
            return code, {"name": seat_name(names, data["winner"])}
        return None

    def system_message(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> str | None:
        """The English text of :meth:`system_line` (what the chat row stores as ``text``), a
        claim shown with its label of :data:`CLAIM_LABELS`.

        >>> names = ["Ann", "Bo", "Cy", "Di"]
        >>> GAME.system_message("meld", {"seat": 1, "type": "hard_pair", "cards": ["66", "66"],
        ...                     "from": 0, "source": "discard"}, names)
        "Bo claimed Ann's 66 天牌 with 硬对 (hard pair): 66 66."
        >>> GAME.system_message("result", {"result": "exhausted", "winner": None}, names)
        'The stock ran out: no winner, nobody pays.'
        """
        line = self.system_line(kind, data, names)
        if line is None:
            return None
        code, params = line
        claim = CLAIM_LABELS.get(str(params.get("claim")), params.get("claim"))
        return SYSTEM_MESSAGES[code].format_map({**params, "claim": claim})


#: The module object registered as ``"diu"``.
GAME = DiuGame()
