"""The history's lines of a stud hand: one English template per kind of public event (each
bet type, each street, each hand class its own sentence, so no raw name reaches the reader)
and its params; the site translates the template at display time.

>>> event_line({"type": "action", "seat": 1, "action": "raise", "amount": 10, "total": 10,
...             "all_in": False, "auto": False}, ["Lan", "Minh"])
('{name} raises to {total}', {'name': 'Minh', 'amount': 10, 'total': 10})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.text import cards_text, gettext_noop, seat_label

__all__ = ["EVENT_MESSAGES", "HAND_CLASSES", "event_line"]

#: English templates of the history's lines (:func:`event_line`), by code: a bet's with
#: ``_all_in`` when it put the player all in, a timeout's with ``_auto``.
EVENT_MESSAGES: dict[str, str] = {
    "hand_started": gettext_noop(
        "New hand, {players} players: {button} has the button, {name} brings in"
    ),
    "down_cards": gettext_noop("Your down cards: {cards}"),
    "bring_in": gettext_noop("{name} brings in for {amount}"),
    "bring_in_all_in": gettext_noop("{name} brings in for {amount} and is all in"),
    "bring_in_auto": gettext_noop("{name} brings in for {amount} (auto)"),
    "complete": gettext_noop("{name} completes to {total}"),
    "complete_all_in": gettext_noop("{name} completes to {total} and is all in"),
    "bet": gettext_noop("{name} bets {amount}"),
    "bet_all_in": gettext_noop("{name} bets {amount} and is all in"),
    "bet_big": gettext_noop("{name} makes the big bet of {amount}"),
    "bet_big_all_in": gettext_noop("{name} makes the big bet of {amount} and is all in"),
    "raise": gettext_noop("{name} raises to {total}"),
    "raise_all_in": gettext_noop("{name} raises to {total} and is all in"),
    "call": gettext_noop("{name} calls {amount}"),
    "call_all_in": gettext_noop("{name} calls {amount} and is all in"),
    "check": gettext_noop("{name} checks"),
    "check_auto": gettext_noop("{name} checks (auto)"),
    "fold": gettext_noop("{name} folds"),
    "fold_auto": gettext_noop("{name} folds (auto)"),
    "returned": gettext_noop("{amount} uncalled returned to {name}"),
    "street_ended_3": gettext_noop("Third street is over: the pot is {pot}"),
    "street_ended_4": gettext_noop("Fourth street is over: the pot is {pot}"),
    "street_ended_5": gettext_noop("Fifth street is over: the pot is {pot}"),
    "street_ended_6": gettext_noop("Sixth street is over: the pot is {pot}"),
    "street_ended_7": gettext_noop("Seventh street is over: the pot is {pot}"),
    "showdown": gettext_noop("Showdown: {hands}"),
    "won_uncontested": gettext_noop("{name} wins the hand uncontested"),
    "won": gettext_noop("{name} wins the hand"),
}

#: The winner's line by the class of the best hand (:func:`games.engine.stud.cards.hand_name`).
HAND_CLASSES: dict[str, str] = {
    "straight_flush": gettext_noop("{name} wins the hand with a straight flush"),
    "four_of_a_kind": gettext_noop("{name} wins the hand with four of a kind"),
    "full_house": gettext_noop("{name} wins the hand with a full house"),
    "flush": gettext_noop("{name} wins the hand with a flush"),
    "straight": gettext_noop("{name} wins the hand with a straight"),
    "three_of_a_kind": gettext_noop("{name} wins the hand with three of a kind"),
    "two_pair": gettext_noop("{name} wins the hand with two pair"),
    "pair": gettext_noop("{name} wins the hand with a pair"),
    "high_card": gettext_noop("{name} wins the hand with high card"),
}

_AMOUNT_ACTIONS = frozenset({"bring_in", "complete", "bet", "bet_big", "raise", "call"})
_AUTO_ACTIONS = frozenset({"bring_in", "check", "fold"})


def _pot(pots: object) -> int:
    """The chips of every pot of a ``street_ended`` event."""
    if not isinstance(pots, list):
        return 0
    return sum(int(p.get("amount", 0)) for p in pots if isinstance(p, Mapping))


def _action_line(event: Mapping[str, Any], name: str) -> tuple[str, dict[str, Any]] | None:
    action = event.get("action")
    if action not in EVENT_MESSAGES or action not in _AMOUNT_ACTIONS | _AUTO_ACTIONS:
        return None
    code = str(action)
    if event.get("all_in") and action in _AMOUNT_ACTIONS:
        code += "_all_in"
    elif event.get("auto") and action in _AUTO_ACTIONS:
        code += "_auto"
    params = {"name": name, "amount": event.get("amount"), "total": event.get("total")}
    return EVENT_MESSAGES[code], params


def _won_line(event: Mapping[str, Any], names: Sequence[str]) -> tuple[str, dict[str, Any]]:
    winner = event.get("winner")
    params = {"name": seat_label(names, winner)}
    if not event.get("showdown"):
        return EVENT_MESSAGES["won_uncontested"], params
    shown = event.get("shown")
    hand = shown.get(str(winner)) if isinstance(shown, Mapping) else None
    kind = hand.get("hand") if isinstance(hand, Mapping) else None
    return HAND_CLASSES.get(str(kind), EVENT_MESSAGES["won"]), params


def event_line(event: Mapping[str, Any], names: Sequence[str]) -> tuple[str, dict[str, Any]] | None:
    """The history's line of a stud event (template of :data:`EVENT_MESSAGES` or
    :data:`HAND_CLASSES`, and params): the start of the hand, each bet, check and fold, an
    uncalled bet returned, a street's end, the showdown and the winner; a seat's own down
    cards in its replay. None for anything else (the site's generic line).

    >>> names = ["Lan", "Minh"]
    >>> event_line({"type": "action", "seat": 0, "action": "fold", "amount": 0, "total": 2,
    ...             "all_in": False, "auto": True}, names)[0]
    '{name} folds (auto)'
    >>> event_line({"type": "street_ended", "street": 4, "pots": [{"amount": 30}]}, names)
    ('Fourth street is over: the pot is {pot}', {'pot': 30})
    >>> event_line({"type": "hand_ended", "winner": 1, "showdown": True,
    ...             "shown": {"1": {"hand": "two_pair"}}}, names)
    ('{name} wins the hand with two pair', {'name': 'Minh'})
    >>> event_line({"type": "turn", "seat": 0}, names) is None
    True
    """
    kind = event.get("type")
    name = seat_label(names, event.get("seat"))
    if kind == "action":
        return _action_line(event, name)
    if kind == "hand_started":
        return EVENT_MESSAGES["hand_started"], {
            "players": event.get("players"),
            "button": seat_label(names, event.get("button")),
            "name": seat_label(names, event.get("bring_in_seat")),
        }
    if kind == "down_cards":
        return EVENT_MESSAGES["down_cards"], {"cards": cards_text(event.get("cards"))}
    if kind == "returned":
        return EVENT_MESSAGES["returned"], {"name": name, "amount": event.get("amount")}
    if kind == "street_ended":
        code = f"street_ended_{event.get('street')}"
        if code not in EVENT_MESSAGES:
            return None
        return EVENT_MESSAGES[code], {"pot": _pot(event.get("pots"))}
    if kind == "showdown":
        shown = event.get("shown")
        hands = [
            f"{seat_label(names, int(seat))} {cards_text(hand.get('cards'))}"
            for seat, hand in (shown.items() if isinstance(shown, Mapping) else ())
            if str(seat).isdigit() and isinstance(hand, Mapping)
        ]
        return EVENT_MESSAGES["showdown"], {"hands": "; ".join(hands)}
    if kind == "hand_ended":
        return _won_line(event, names)
    return None
