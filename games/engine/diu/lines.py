"""The history's lines of a Diu hand: one English template per kind of public event (each
poll stage, each source of a card its own sentence, so no raw name reaches the reader) and its
params; the site translates the template at display time. Each claim has its own sentences,
so a language names it in its own words.

An event's ``type`` is a claim type for a claim made, an offer and a meld: their data's
``type`` (the claim) overrides the event type in the event's JSON form; a meld is the one with
cards, a claim made and an offer read alike.

>>> event_line({"type": "passed", "seat": 1, "stage": "diu", "auto": False}, ["Lan", "Minh"])
('{name} passes on 丢 (diu)', {'name': 'Minh'})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.text import gettext_noop, seat_label
from games.engine.diu.cards import NAMES, WILD
from games.engine.diu.config import CLAIM_TYPES

__all__ = ["EVENT_MESSAGES", "event_line"]

#: English templates of the history's lines (:func:`event_line`), by code.
EVENT_MESSAGES: dict[str, str | tuple[str, str]] = {
    "stock_batch": (
        gettext_noop("{n} more stock card is sealed"),
        gettext_noop("{n} more stock cards are sealed"),
    ),
    "discarded": gettext_noop("{name} discards {card}"),
    "discarded_auto": gettext_noop("{name} discards {card} (auto)"),
    "passed": gettext_noop("{name} passes"),
    "passed_auto": gettext_noop("{name} passes (auto)"),
    "passed_diu": gettext_noop("{name} passes on 丢 (diu)"),
    "passed_diu_auto": gettext_noop("{name} passes on 丢 (diu) (auto)"),
    "claim_chi": gettext_noop("{name} claims the card: 吃 (chi)"),
    "meld_chi": gettext_noop("{name} takes {victim}'s {card} with 吃 (chi): {cards}"),
    "meld_stock_chi": gettext_noop("{name} takes {card} from the stock with 吃 (chi): {cards}"),
    "claim_kuai": gettext_noop("{name} claims the card: 筷 (kuai)"),
    "meld_kuai": gettext_noop("{name} takes {victim}'s {card} with 筷 (kuai): {cards}"),
    "meld_stock_kuai": gettext_noop("{name} takes {card} from the stock with 筷 (kuai): {cards}"),
    "claim_shui": gettext_noop("{name} claims the card: 水 (shui)"),
    "meld_shui": gettext_noop("{name} takes {victim}'s {card} with 水 (shui): {cards}"),
    "meld_stock_shui": gettext_noop("{name} takes {card} from the stock with 水 (shui): {cards}"),
    "claim_hard_pair": gettext_noop("{name} claims the card: 硬对 (hard pair)"),
    "meld_hard_pair": gettext_noop("{name} takes {victim}'s {card} with 硬对 (hard pair): {cards}"),
    "meld_stock_hard_pair": gettext_noop(
        "{name} takes {card} from the stock with 硬对 (hard pair): {cards}"
    ),
    "claim_hard_shui": gettext_noop("{name} claims the card: 硬水 (hard shui)"),
    "meld_hard_shui": gettext_noop("{name} takes {victim}'s {card} with 硬水 (hard shui): {cards}"),
    "meld_stock_hard_shui": gettext_noop(
        "{name} takes {card} from the stock with 硬水 (hard shui): {cards}"
    ),
    "claim_hard_triple": gettext_noop("{name} claims the card: 块水 (hard triple)"),
    "meld_hard_triple": gettext_noop(
        "{name} takes {victim}'s {card} with 块水 (hard triple): {cards}"
    ),
    "meld_stock_hard_triple": gettext_noop(
        "{name} takes {card} from the stock with 块水 (hard triple): {cards}"
    ),
    "declined": gettext_noop("{name} declines the card"),
    "declined_auto": gettext_noop("{name} declines the card (auto)"),
    "no_claim": gettext_noop("Nobody takes {name}'s {card}"),
    "no_claim_stock": gettext_noop("Nobody takes {card} from the stock"),
    "card_open": gettext_noop("{name} turns up {card} from the stock"),
    "diu": gettext_noop("{name} declares 丢 (diu) with {cards}"),
    "won": gettext_noop("{name} wins the hand with 丢 (diu)"),
    "won_hard": gettext_noop("{name} wins the hand with a hard 丢 (diu), no 听用"),
    "exhausted": gettext_noop("The stock ran out: no winner, nobody pays"),
    "prompt_discard": gettext_noop("{name} is to discard"),
    "prompt_call": gettext_noop("{name} is asked: pass or claim the card"),
    "prompt_diu": gettext_noop("{name} is asked: pass or 丢 (diu)"),
    "prompt_offer": gettext_noop("{name} is offered the card: accept or decline"),
}


def _card(card: object) -> str:
    """A card as the lines show it: its id and Sichuan name (``66 天牌``); 听用 for the wild."""
    if card == WILD:
        return "听用"
    name = NAMES.get(str(card))
    return f"{card} {name}" if name else str(card)


def _cards(cards: object) -> str:
    """Cards as ids joined with spaces (听用 for the wild)."""
    if not isinstance(cards, list):
        return ""
    return " ".join("听用" if c == WILD else str(c) for c in cards)


def _with_auto(code: str, event: Mapping[str, Any]) -> str:
    return f"{code}_auto" if event.get("auto") else code


def _claim_line(event: Mapping[str, Any], names: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """A claim made or offered (no cards), or a meld (the card and the hand cards used)."""
    claim = str(event.get("type"))
    params: dict[str, Any] = {"name": seat_label(names, event.get("seat"))}
    cards = event.get("cards")
    if not isinstance(cards, list) or not cards:
        return str(EVENT_MESSAGES[f"claim_{claim}"]), params
    params |= {"card": _card(cards[0]), "cards": _cards(cards)}
    if event.get("source") == "stock":
        return str(EVENT_MESSAGES[f"meld_stock_{claim}"]), params
    victim = seat_label(names, event.get("from"))
    return str(EVENT_MESSAGES[f"meld_{claim}"]), {**params, "victim": victim}


def _result_line(event: Mapping[str, Any], names: Sequence[str]) -> tuple[str, dict[str, Any]]:
    winner = event.get("winner")
    if event.get("result") != "win" or winner is None:
        return str(EVENT_MESSAGES["exhausted"]), {}
    diu = event.get("diu")
    hard = isinstance(diu, Mapping) and bool(diu.get("hard"))
    return str(EVENT_MESSAGES["won_hard" if hard else "won"]), {"name": seat_label(names, winner)}


def event_line(
    event: Mapping[str, Any], names: Sequence[str]
) -> tuple[str | tuple[str, str], dict[str, Any]] | None:
    """The history's line of a Diu event (template of :data:`EVENT_MESSAGES` and params):
    stock batches, discards, passes (in the poll or the 丢 re-poll), claims, offers declined,
    melds, a card nobody takes, a card turned up, 丢 and the outcome; a seat's own prompts in
    its replay. None for anything else (the site's generic line).

    >>> names = ["Lan", "Minh", "Hoa", "Tuan"]
    >>> event_line({"type": "hard_pair", "seat": 2, "cards": ["66", "66", "66"], "from": 0,
    ...             "source": "discard"}, names)
    ("{name} takes {victim}'s {card} with 硬对 (hard pair): {cards}", {'name': 'Hoa', \
'card': '66 天牌', 'cards': '66 66 66', 'victim': 'Lan'})
    >>> event_line({"type": "no_claim", "card": "W", "seat": 3, "source": "stock"}, names)
    ('Nobody takes {card} from the stock', {'card': '听用'})
    >>> event_line({"type": "game_ended", "result": "exhausted", "winner": None}, names)
    ('The stock ran out: no winner, nobody pays', {})
    >>> event_line({"type": "turn", "seat": 0}, names) is None
    True
    """
    kind = str(event.get("type"))
    name = seat_label(names, event.get("seat"))
    if kind in CLAIM_TYPES:
        return _claim_line(event, names)
    if kind == "stock_batch":
        return EVENT_MESSAGES["stock_batch"], {"n": event.get("count")}
    if kind == "discarded":
        code = _with_auto("discarded", event)
        return EVENT_MESSAGES[code], {"name": name, "card": _card(event.get("card"))}
    if kind == "passed":
        code = "passed_diu" if event.get("stage") == "diu" else "passed"
        return EVENT_MESSAGES[_with_auto(code, event)], {"name": name}
    if kind == "declined":
        return EVENT_MESSAGES[_with_auto("declined", event)], {"name": name}
    if kind == "no_claim":
        card = _card(event.get("card"))
        if event.get("source") == "stock":
            return EVENT_MESSAGES["no_claim_stock"], {"card": card}
        return EVENT_MESSAGES["no_claim"], {"name": name, "card": card}
    if kind == "card_open":
        return EVENT_MESSAGES["card_open"], {"name": name, "card": _card(event.get("card"))}
    if kind == "diu":
        return EVENT_MESSAGES["diu"], {"name": name, "cards": _cards(event.get("cards"))}
    if kind == "game_ended":
        return _result_line(event, names)
    if kind == "prompt" and f"prompt_{event.get('kind')}" in EVENT_MESSAGES:
        return EVENT_MESSAGES[f"prompt_{event.get('kind')}"], {"name": name}
    return None
