"""The Diu game module object, ``GAME``: everything tables, bots and replays call.

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

from games.engine.core.errors import IllegalActionError
from games.engine.core.history import round_history
from games.engine.core.protocol import Action, Event, GameRecord, RoundStatus
from games.engine.diu import ai, rules, session, views
from games.engine.diu.cards import NAMES
from games.engine.diu.state import RULES_VERSION, DiuState, state_from_json, state_to_json

__all__ = ["CLAIM_LABELS", "GAME", "TABLE_OPTIONS", "DiuGame"]

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


class DiuGame:
    """Suijiang Diu for a 4-seat table (A, B, C play; D sits out). Stateless.

    >>> DiuGame()
    DiuGame(name='diu', rules_version='diu-1')
    """

    name = "diu"
    rules_version = RULES_VERSION
    min_players = 4
    max_players = 4

    def __repr__(self) -> str:
        return f"DiuGame(name={self.name!r}, rules_version={self.rules_version!r})"

    # configuration and setup
    def default_config(self) -> dict[str, Any]:
        """The default table options (rules §13).

        >>> GAME.default_config()["t_call"]
        15
        """
        return rules.validate_config({})

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Normalized options, or ``bad_config``.

        >>> GAME.validate_config({"decline_policy": "normal_flow"})["decline_policy"]
        'normal_flow'
        """
        return rules.validate_config(config)

    def new_game(self, config: Mapping[str, Any], seed: int | str) -> DiuState:
        """Assign roles, shuffle and deal from a seed.

        >>> len(GAME.new_game({}, 1).stock)
        36
        """
        return rules.new_game(config, seed)

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

    # play
    def legal_actions(self, state: DiuState, seat: int) -> list[Action]:
        """Every legal action of a seat (empty unless it is prompted).

        >>> s = GAME.new_game({}, 1)
        >>> GAME.legal_actions(s, s.turn)[0]["type"], GAME.legal_actions(s, s.roles["D"])
        ('discard', [])
        """
        return rules.legal_actions(state, seat)

    def apply(self, state: DiuState, action: Mapping[str, Any]) -> tuple[DiuState, list[Event]]:
        """Apply an action: ``(new_state, events)``; illegal ones raise with a code.

        >>> s = GAME.new_game({}, 1)
        >>> try:
        ...     GAME.apply(s, {"type": "pass", "seat": s.turn})
        ... except ValueError as err:
        ...     print(err.code)
        illegal_action
        """
        return rules.apply(state, action)

    def check(self, state: DiuState, action: Mapping[str, Any]) -> None:
        """Raise exactly what :meth:`apply` would raise, without applying.

        >>> s = GAME.new_game({}, 1)
        >>> GAME.check(s, GAME.timeout_action(s, s.turn)) is None
        True
        """
        rules.check(state, action)

    def prompt(self, state: DiuState) -> dict[str, Any] | None:
        """The current prompt ``{"seat", "kind", "options"}``; None once the hand is over.

        >>> GAME.prompt(GAME.new_game({}, 1))["kind"]
        'discard'
        """
        return rules.prompt(state)

    def timeout_action(self, state: DiuState, seat: int) -> Action:
        """The rules' timeout/disconnect policy for the prompted seat (marked ``auto``).

        >>> s = GAME.new_game({}, 1)
        >>> GAME.timeout_action(s, s.turn)["auto"]
        True
        """
        return rules.timeout_action(state, seat)

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
        legal = []
        for action in rules.legal_actions(state, seat):
            legal.append({k: v for k, v in action.items() if k != "seat"})
        offer = None
        if kind == "offer":
            claim = state.claims[state.offers[state.offer_index]]
            offer = {"type": claim["type"], "cards": list(claim["cards"])}
        return {
            "kind": kind,
            "options": list(current["options"]),
            "legal": legal,
            "offer": offer,
            "card": (
                None
                if state.card is None
                else {"card": state.card, "source": state.source, "seat": state.source_seat}
            ),
            "role": state.seat_role(seat),
            "time_limit": state.config[seconds[kind]],
        }

    def house_action(self, state: DiuState, seat: int, level: str = "medium") -> Action:
        """The house AI's move for the prompted ``seat`` at ``level`` (one of
        :attr:`house_levels`).

        >>> s = GAME.new_game({}, 2)
        >>> GAME.house_action(s, s.turn, "hard")["type"]
        'discard'
        """
        return ai.house_action(state, seat, level)

    #: House AI strengths, weakest first.
    house_levels: tuple[str, ...] = ai.LEVELS

    #: The codes of this game's system chat lines (:meth:`system_line`); the table page has a
    #: ``sys_<code>`` template for each, with the same ``{placeholders}`` as the params.
    system_codes: tuple[str, ...] = (
        "diu_meld",
        "diu_meld_stock",
        "diu_diu",
        "diu_result_exhausted",
        "diu_result_win",
        "diu_result_win_hard",
    )

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

        def name(seat: object) -> str:
            if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
                return str(names[seat])
            return f"Seat {seat + 1}" if isinstance(seat, int) else "?"

        if kind == "meld":
            card = str(data["cards"][0])
            params: dict[str, Any] = {
                "name": name(data["seat"]),
                "card": card,
                "card_name": NAMES.get(card, ""),
                "claim": str(data["type"]),
                "cards": " ".join(data["cards"]),
            }
            if data.get("source") == "stock":
                return "diu_meld_stock", params
            return "diu_meld", {**params, "from": name(data["from"])}
        if kind == "diu":
            return "diu_diu", {"name": name(data["seat"]), "cards": " ".join(data["cards"])}
        if kind == "result":
            if data.get("result") == "exhausted" or data.get("winner") is None:
                return "diu_result_exhausted", {}
            diu = data.get("diu") or {}
            code = "diu_result_win_hard" if diu.get("hard") else "diu_result_win"
            return code, {"name": name(data["winner"])}
        return None

    def system_message(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> str | None:
        """The English text of :meth:`system_line` (what the chat row stores as ``text``).

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

    @property
    def table_options(self) -> dict[str, Any]:
        """This game's own table options with their defaults: every switch of rules §13 (the
        three timers, the rule switches, the deck, deal, shuffle and prefetch settings). The
        table layer passes them to :meth:`session_start` (which validates them).

        >>> GAME.table_options["t_call"], GAME.table_options["decline_policy"]
        (15, 'next_claimant')
        >>> GAME.table_options["claim_shapes"], GAME.table_options["hand_size_lead"]
        ('standard', 18)
        """
        return {k: rules.DEFAULT_CONFIG[k] for k in TABLE_OPTIONS}

    @property
    def table_option_choices(self) -> dict[str, tuple[str, ...]]:
        """The allowed values of the table options that are words (the Create Table form
        offers them as choices).

        >>> GAME.table_option_choices["rotation"], GAME.table_option_choices["claim_shapes"]
        (('fixed', 'winner_becomes_a'), ('standard', 'pong'))
        """
        return {k: v for k, v in rules.TABLE_CHOICES.items() if k in TABLE_OPTIONS}

    def round_status(self, state: DiuState, now: float | None = None) -> RoundStatus:
        """Round index, the prompted seat, its deadline (seed 004).

        >>> GAME.round_status(GAME.new_game({"started_at": 5.0}, 1)).check_at
        25.0
        """
        return rules.round_status(state, now)

    def mark_turn_start(self, state: DiuState, at: float) -> DiuState:
        """A copy of the state whose current prompt started at ``at`` (unix seconds).

        >>> s = GAME.mark_turn_start(GAME.new_game({}, 1), 5.0)
        >>> GAME.round_status(s).check_at
        25.0
        """
        st = state.copy()
        st.turn_started_at = at
        return st

    def result(self, state: DiuState) -> dict[str, Any] | None:
        """None until the hand ends; then outcome, winner, roles, scores, melds, hands.

        >>> GAME.result(GAME.new_game({}, 1)) is None
        True
        """
        return rules.result(state)

    # views and bots
    def view(self, state: DiuState, seat: int | None) -> dict[str, Any]:
        """The JSON view for a seat, or a spectator (None).

        >>> GAME.view(GAME.new_game({}, 1), None)["hand"] is None
        True
        """
        return views.view(state, seat)

    def bot_view(
        self, state: DiuState, seat: int, session_scores: list[int] | None = None
    ) -> dict[str, Any]:
        """The bot API ``gameState`` (docs/bot-api.md).

        >>> s = GAME.new_game({}, 1)
        >>> GAME.bot_view(s, s.turn)["prompt"]["kind"]
        'discard'
        """
        return views.bot_view(state, seat, session_scores)

    def parse_bot_move(self, state: DiuState, seat: int, obj: object) -> Action:
        """A bot's return as a validated engine action.

        >>> s = GAME.new_game({}, 1)
        >>> GAME.parse_bot_move(s, s.turn, None)
        Traceback (most recent call last):
        ...
        games.engine.core.errors.IllegalActionError: bad_bot_move: a move must be an object
        """
        return views.parse_bot_move(state, seat, obj)

    def suggest(self, state: DiuState, seat: int) -> Action:
        """The house AI's suggestion for the prompted seat.

        >>> s = GAME.new_game({}, 1)
        >>> GAME.suggest(s, s.turn)["type"]
        'discard'
        """
        return ai.suggest(state, seat)

    # persistence and replays
    def state_to_json(self, state: DiuState) -> dict[str, Any]:
        """JSON-able state.

        >>> GAME.state_to_json(GAME.new_game({}, 1))["game"]
        'diu'
        """
        return state_to_json(state)

    def state_from_json(self, obj: Mapping[str, Any]) -> DiuState:
        """Rebuild a state.

        >>> s = GAME.new_game({}, 1)
        >>> GAME.state_from_json(GAME.state_to_json(s)) == s
        True
        """
        return state_from_json(obj)

    def record(self, state: DiuState) -> GameRecord:
        """``{"game", "config", "seed", "actions"}``: everything needed to replay the hand.

        >>> GAME.record(GAME.new_game({}, 1))["actions"]
        []
        """
        return {
            "game": self.name,
            "config": dict(state.config),
            "seed": state.seed,
            "actions": rules.log_actions(state),
        }

    def replay(
        self, config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
    ) -> DiuState:
        """Rebuild a hand from its seed and actions.

        >>> GAME.replay({}, 1, []) == GAME.new_game({}, 1)
        True
        """
        return rules.replay(config, seed, actions)

    def history(
        self, state_or_record: DiuState | Mapping[str, Any], round_index: int, seat: int | None
    ) -> dict[str, Any]:
        """One round's (one card's) start view, public turns and end view.

        >>> GAME.history(GAME.new_game({}, 1), 0, None)["start"]["round"]
        0
        """
        record = (
            self.record(state_or_record)
            if isinstance(state_or_record, DiuState)
            else state_or_record
        )
        if not isinstance(record, Mapping):
            raise IllegalActionError("bad_state", "history needs a state or a game record")
        return round_history(self, record, round_index, seat)

    # sessions
    def session_start(
        self, players: int, games: int = 16, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A new table session (see :mod:`games.engine.diu.session`).

        >>> GAME.session_start(4, 8)["games"]
        8
        """
        return session.session_start(players, games, options)

    def session_next_config(self, sess: Mapping[str, Any]) -> dict[str, Any]:
        """The next hand's config (roles rotated).

        >>> GAME.session_next_config(GAME.session_start(4))["roles"] is None
        True
        """
        return session.session_next_config(sess)

    def session_record(self, sess: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
        """The session with a finished hand's result added.

        >>> r = {"winner": None, "scores": [0, 0, 0, 0], "roles": {"A": 0, "B": 1, "C": 2, "D": 3}}
        >>> GAME.session_record(GAME.session_start(4), r)["roles"]["D"]
        0
        """
        return session.session_record(sess, result)

    def session_summary(self, sess: Mapping[str, Any]) -> dict[str, Any]:
        """Totals, ranking, per-hand breakdown, finished flag.

        >>> GAME.session_summary(GAME.session_start(4))["finished"]
        False
        """
        return session.session_summary(sess)


#: The module object registered as ``"diu"``.
GAME = DiuGame()
