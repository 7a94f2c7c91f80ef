"""The stud game module object, ``GAME``: its rules bound to the engine core's shape
(:class:`games.engine.core.game.GameBase` owns records, replays, history …).

>>> from games.engine.stud import GAME
>>> GAME.name, GAME.rules_version, GAME.min_players, GAME.max_players
('stud', 'stud-1', 2, 7)
>>> state = GAME.new_game(GAME.default_config(), seed=12)
>>> GAME.state_from_json(GAME.state_to_json(state)) == state
True
>>> GAME.history(GAME.new_game({"players": 2}, 1), 0, 0)["start"]["street"]
3
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.examples import BotExample
from games.engine.core.game import GameBase
from games.engine.core.protocol import Event
from games.engine.core.text import gettext_noop
from games.engine.stud import (
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
from games.engine.stud import state as state_json
from games.engine.stud.cards import card_id, cards_to_ids
from games.engine.stud.flow import turn_event
from games.engine.stud.rules import UP_POSITIONS
from games.engine.stud.state import RULES_VERSION, StudState

__all__ = ["GAME", "StudGame"]

#: The table options a host sets (``big_bet`` None means twice ``small_bet``).
_TABLE_OPTIONS = ("buy_in", "ante", "bring_in", "small_bet", "big_bet")


class StudGame(
    GameBase[StudState], modules=(rules, views, state_json, ai, lines, session, samples)
):
    """Seven-card stud, fixed limit, for 2–7 players. Stateless: every method is pure.

    >>> StudGame()
    StudGame(name='stud', rules_version='stud-1')
    >>> GAME.table_options
    {'buy_in': 200, 'ante': 1, 'bring_in': 2, 'small_bet': 5, 'big_bet': None}
    """

    name = "stud"
    title = "Seven-Card Stud"
    rules_version = RULES_VERSION
    min_players = 2
    max_players = 7
    state_type = StudState

    house_levels = ai.LEVELS
    table_options: Mapping[str, Any] = {k: rules.DEFAULT_CONFIG[k] for k in _TABLE_OPTIONS}
    table_option_labels: Mapping[str, str] = {
        "buy_in": gettext_noop("Buy-in (chips)"),
        "ante": gettext_noop("Ante"),
        "bring_in": gettext_noop("Bring-in"),
        "small_bet": gettext_noop("Small bet"),
        "big_bet": gettext_noop("Big bet (blank: twice the small bet)"),
    }
    #: A folded hand, and an uncontested winner's, are never shown (:meth:`final_hands`).
    hides_cards = True
    #: The history's lines (:mod:`games.engine.stud.lines`) are shown at display time only:
    #: hand histories keep the generic English lines they were signed with.
    export_event_lines = False
    scenario_format = conformance.FORMAT
    error_codes = errors.ERROR_CODES
    bot_error_sentences = errors.BOT_ERROR_SENTENCES
    points_unit = gettext_noop("chips won or lost")
    sample_players = 3
    bot_reference = reference.REFERENCE
    bot_files = "games.engine.stud"
    bot_examples = (
        BotExample(
            "stud_caller",
            gettext_noop("Calling station"),
            gettext_noop("Never folds, never raises: checks when it can, else calls."),
        ),
        BotExample(
            "stud_reader",
            gettext_noop("Hand reader"),
            gettext_noop(
                "Rates its pairs and draws against the up cards; raises strong hands, "
                "folds weak ones."
            ),
        ),
    )
    bot_template = "stud_template"
    action_labels = {
        "bring_in": gettext_noop("Bring in"),
        "complete": gettext_noop("Complete"),
        "fold": gettext_noop("Fold"),
        "check": gettext_noop("Check"),
        "call": gettext_noop("Call"),
        "bet": gettext_noop("Bet"),
        "bet_big": gettext_noop("Bet big"),
        "raise": gettext_noop("Raise"),
    }

    #: The seat to act and what it may do (tests and tools read it).
    your_turn = staticmethod(rules.your_turn)

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
            events.append(turn_event(state, state.turn_started_at))
        return events

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

    def final_hands(self, state: StudState) -> list[list[str | None]] | None:
        """What the end of a hand shows everyone: each seat's dealt cards as a spectator sees
        them — the hands shown at a showdown in full, every other hand (folded, or an
        uncontested winner's) only by its up cards; None while the hand is on.

        >>> s = GAME.new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "4D"]]}, 1)
        >>> GAME.final_hands(s) is None
        True
        >>> s, _ = GAME.apply(s, {"type": "bring_in", "seat": s.turn})
        >>> GAME.final_hands(GAME.apply(s, {"type": "fold", "seat": s.turn})[0])
        [[None, None, '4C'], [None, None, '4D']]
        """
        if not state.finished:
            return None
        return [views.seat_cards(state, s, None) for s in range(state.players)]


#: The module object registered as ``"stud"``.
GAME = StudGame()
