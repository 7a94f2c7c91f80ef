"""The stud game module object, ``GAME``: everything tables, bots and replays call.

>>> from games.engine.stud import GAME
>>> GAME.name, GAME.rules_version, GAME.min_players, GAME.max_players
('stud', 'stud-1', 2, 7)
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
from games.engine.stud import ai, rules, session, views
from games.engine.stud.cards import card_id, cards_to_ids
from games.engine.stud.rules import UP_POSITIONS
from games.engine.stud.state import RULES_VERSION, StudState, state_from_json, state_to_json

__all__ = ["GAME", "StudGame"]


class StudGame:
    """Seven-card stud, fixed limit, for 2–7 players. Stateless: every method is pure.

    >>> StudGame()
    StudGame(name='stud', rules_version='stud-1')
    """

    name = "stud"
    rules_version = RULES_VERSION
    min_players = 2
    max_players = 7

    def __repr__(self) -> str:
        return f"StudGame(name={self.name!r}, rules_version={self.rules_version!r})"

    # configuration and setup
    def default_config(self) -> dict[str, Any]:
        """The default table options.

        >>> GAME.default_config()["small_bet"]
        5
        """
        return rules.validate_config({})

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Normalized options, or ``bad_config``.

        >>> GAME.validate_config({"players": 2})["big_bet"]
        10
        """
        return rules.validate_config(config)

    def new_game(self, config: Mapping[str, Any], seed: int | str) -> StudState:
        """Post antes and deal 3rd street from a seed.

        >>> GAME.new_game({"players": 2}, 1).street
        3
        """
        return rules.new_game(config, seed)

    def initial_events(self, state: StudState) -> list[Event]:
        """Events of a freshly dealt hand: the antes and up cards (public), each seat's down
        cards (private), then the first turn (or the run-out when nobody can bet).

        >>> [e.type for e in GAME.initial_events(GAME.new_game({"players": 2}, 1))]
        ['hand_started', 'down_cards', 'down_cards', 'turn']
        """
        n = state.players
        events = [
            Event(
                "hand_started",
                {
                    "players": n,
                    "button": state.config["button"],
                    "stacks": list(state.start_stacks),
                    "antes": list(state.contrib) if not state.log else [],
                    "up": [
                        cards_to_ids(
                            c for i, c in enumerate(state.cards[s][:3]) if i in UP_POSITIONS
                        )
                        for s in range(n)
                    ],
                    "bring_in_seat": state.bring_in_seat,
                },
            )
        ]
        events += [
            Event("down_cards", {"cards": [card_id(c) for c in state.cards[s][:2]]}, to=s)
            for s in range(n)
            if state.active[s]
        ]
        res = rules.result(state)
        if res is not None:
            events.append(Event("hand_ended", res))
        else:
            events.append(rules._turn_event(state, state.turn_started_at))
        return events

    # play
    def legal_actions(self, state: StudState, seat: int) -> list[Action]:
        """Every legal action of a seat (empty when it is not their turn).

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> [a["type"] for a in GAME.legal_actions(s, s.turn)]
        ['bring_in', 'complete']
        """
        return rules.legal_actions(state, seat)

    def apply(self, state: StudState, action: Mapping[str, Any]) -> tuple[StudState, list[Event]]:
        """Apply an action: ``(new_state, events)``; illegal ones raise with a code.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> try:
        ...     GAME.apply(s, {"type": "fold", "seat": s.turn})
        ... except ValueError as err:
        ...     print(err.code)
        illegal_action
        """
        return rules.apply(state, action)

    def check(self, state: StudState, action: Mapping[str, Any]) -> None:
        """Raise exactly what :meth:`apply` would raise, without applying.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.check(s, GAME.timeout_action(s, s.turn)) is None
        True
        """
        if state.finished:
            raise IllegalActionError("hand_over", "the hand is over")
        seat, name, _, _ = rules.parse_action(action)
        rules.check(state, seat, name)

    def timeout_action(self, state: StudState, seat: int) -> Action:
        """Check if possible, else fold; a bring-in posts the bring-in (marked ``auto``).

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.timeout_action(s, s.turn)["type"]
        'bring_in'
        """
        return rules.timeout_action(state, seat)

    def round_status(self, state: StudState, now: float | None = None) -> RoundStatus:
        """Street index (3rd street is 0), the seat to act, the deadline (seed 004).

        >>> GAME.round_status(GAME.new_game({"players": 2}, 1)).round_index
        0
        """
        return rules.round_status(state, now)

    def mark_turn_start(self, state: StudState, at: float) -> StudState:
        """A copy of the state whose current turn started at ``at`` (unix seconds).

        >>> s = GAME.mark_turn_start(GAME.new_game({"players": 2, "turn_seconds": 10}, 1), 5.0)
        >>> GAME.round_status(s).check_at
        15.0
        """
        st = state.copy()
        st.turn_started_at = at
        return st

    def result(self, state: StudState) -> dict[str, Any] | None:
        """None until the hand ends; then scores (chip net), stacks, pots with winners...

        >>> GAME.result(GAME.new_game({"players": 2}, 1)) is None
        True
        """
        return rules.result(state)

    def your_turn(self, state: StudState, seat: int | None = None) -> dict[str, Any] | None:
        """The seed's ``your_turn`` payload of the seat to act (None when nobody acts).

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.your_turn(s)["seat_index"] == s.turn == s.bring_in_seat
        True
        """
        return rules.your_turn(state, seat)

    def turn_payload(self, state: StudState, seat: int) -> dict[str, Any] | None:
        """The live table's ``your_turn`` frame body for ``seat`` (None when it is not their
        turn): the seed's payload plus ``legal``, one entry per legal action with the chips it
        puts in (None for fold and check) and its button label.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> [(a["type"], a["amount"], a["label"]) for a in GAME.turn_payload(s, s.turn)["legal"]]
        [('bring_in', 2, 'Bring in 2'), ('complete', 5, 'Complete 5')]
        >>> GAME.turn_payload(s, 1 - s.turn) is None
        True
        """
        payload = rules.your_turn(state, seat)
        if payload is None:
            return None
        amounts = {
            "bring_in": payload["bring_in_amount"],
            "complete": payload["raise_amount"],
            "call": payload["amount_to_call"],
            "bet": payload["bet_amount"],
            "bet_big": payload["big_bet_amount"],
            "raise": payload["raise_amount"],
        }
        payload["legal"] = [
            {
                "type": name,
                "amount": amounts.get(name),
                "label": ai.action_label(name, amounts.get(name)),
            }
            for name in payload["legal_actions"]
        ]
        return payload

    def house_action(self, state: StudState, seat: int, level: str = "medium") -> Action:
        """The house AI's move for ``seat`` at ``level`` (one of :attr:`house_levels`).

        >>> s = GAME.new_game({"players": 3}, 2)
        >>> GAME.house_action(s, s.turn, "hard")["type"] in ("bring_in", "complete")
        True
        """
        return ai.house_action(state, seat, level)

    #: House AI strengths, weakest first.
    house_levels: tuple[str, ...] = ai.LEVELS

    @property
    def table_options(self) -> dict[str, Any]:
        """This game's own table options with their defaults (the table layer adds seats,
        session length, turn time and mode, and passes these to :meth:`session_start`).
        ``big_bet`` None means twice ``small_bet``.

        >>> GAME.table_options
        {'buy_in': 200, 'ante': 1, 'bring_in': 2, 'small_bet': 5, 'big_bet': None}
        """
        cfg = rules.DEFAULT_CONFIG
        return {k: cfg[k] for k in ("buy_in", "ante", "bring_in", "small_bet", "big_bet")}

    # views and bots
    def view(self, state: StudState, seat: int | None) -> dict[str, Any]:
        """The JSON view for a seat, or a spectator (None).

        >>> GAME.view(GAME.new_game({"players": 2}, 1), None)["hand"] is None
        True
        """
        return views.view(state, seat)

    def revealed_hands(self, state: StudState) -> list[list[str | None]] | None:
        """What the end of a hand shows everyone (replays use it): each seat's dealt cards as a
        spectator sees them — the hands shown at a showdown in full, every other hand (folded,
        or an uncontested winner's) only by its up cards; None while the hand is on.

        >>> s = GAME.new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "4D"]]}, 1)
        >>> GAME.revealed_hands(s) is None
        True
        >>> s, _ = GAME.apply(s, {"type": "bring_in", "seat": s.turn})
        >>> GAME.revealed_hands(GAME.apply(s, {"type": "fold", "seat": s.turn})[0])
        [[None, None, '4C'], [None, None, '4D']]
        """
        if not state.finished:
            return None
        return [views.seat_cards(state, s, None) for s in range(state.players)]

    def bot_view(
        self, state: StudState, seat: int, session_scores: list[int] | None = None
    ) -> dict[str, Any]:
        """The bot API ``gameState`` (docs/bot-api.md).

        >>> GAME.bot_view(GAME.new_game({"players": 2}, 1), 0)["myPosition"]
        0
        """
        return views.bot_view(state, seat, session_scores)

    def parse_bot_move(self, state: StudState, seat: int, obj: object) -> Action:
        """A bot's return as a validated engine action.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.parse_bot_move(s, s.turn, {"action": "complete"})["type"]
        'complete'
        """
        return views.parse_bot_move(state, seat, obj)

    def suggest(self, state: StudState, seat: int) -> Action:
        """The house AI's suggestion for a seat.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.suggest(s, s.turn)["type"] in ("bring_in", "complete")
        True
        """
        return ai.suggest(state, seat)

    # persistence and replays
    def state_to_json(self, state: StudState) -> dict[str, Any]:
        """JSON-able state.

        >>> GAME.state_to_json(GAME.new_game({"players": 2}, 1))["game"]
        'stud'
        """
        return state_to_json(state)

    def state_from_json(self, obj: Mapping[str, Any]) -> StudState:
        """Rebuild a state.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.state_from_json(GAME.state_to_json(s)) == s
        True
        """
        return state_from_json(obj)

    def record(self, state: StudState) -> GameRecord:
        """``{"game", "config", "seed", "actions"}``: everything needed to replay the hand.

        >>> GAME.record(GAME.new_game({"players": 2}, 1))["actions"]
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
    ) -> StudState:
        """Rebuild a hand from its seed and actions.

        >>> GAME.replay({"players": 2}, 1, []) == GAME.new_game({"players": 2}, 1)
        True
        """
        return rules.replay(config, seed, actions)

    def history(
        self, state_or_record: StudState | Mapping[str, Any], round_index: int, seat: int | None
    ) -> dict[str, Any]:
        """One street's start view, public turns and end view (seed 004 "viewing history").

        >>> GAME.history(GAME.new_game({"players": 2}, 1), 0, 0)["start"]["street"]
        3
        """
        record = (
            self.record(state_or_record)
            if isinstance(state_or_record, StudState)
            else state_or_record
        )
        if not isinstance(record, Mapping):
            raise IllegalActionError("bad_state", "history needs a state or a game record")
        return round_history(self, record, round_index, seat)

    # sessions
    def session_start(
        self, players: int, games: int = 16, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A new chip session (see :mod:`games.engine.stud.session`).

        >>> GAME.session_start(3, 20, {"buy_in": 500})["stacks"]
        [500, 500, 500]
        """
        return session.session_start(players, games, options)

    def session_next_config(self, sess: Mapping[str, Any]) -> dict[str, Any]:
        """The next hand's config (button moved, stacks carried).

        >>> GAME.session_next_config(GAME.session_start(2))["button"]
        0
        """
        return session.session_next_config(sess)

    def session_record(self, sess: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
        """The session with a finished hand's result added.

        >>> GAME.session_record(GAME.session_start(2), {"scores": [3, -3]})["stacks"]
        [203, 197]
        """
        return session.session_record(sess, result)

    def session_summary(self, sess: Mapping[str, Any]) -> dict[str, Any]:
        """Totals, ranking, per-hand breakdown, stacks, finished flag.

        >>> GAME.session_summary(GAME.session_start(2))["finished"]
        False
        """
        return session.session_summary(sess)


#: The module object registered as ``"stud"``.
GAME = StudGame()
