"""Plain English text helpers for the games' presentation facts (no translation here).

The engine never translates: its labels and templates are English, and the site looks them up
in its catalog. :func:`gettext_noop` only marks such a string for the site's message extraction
(``makemessages`` reads calls by that name), so the catalog keeps its translation.

>>> gettext_noop("Ante")
'Ante'
>>> card_text("10H"), cards_text(["3S", "4S"])
('10♥', '3♠ 4♠')
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.core.cards import SUIT_SYMBOLS

__all__ = ["card_text", "cards_text", "gettext_noop", "seat_label"]


def gettext_noop(message: str) -> str:
    """``message`` itself: marks an English string for the site's translation catalog.

    >>> gettext_noop("Roles rotate")
    'Roles rotate'
    """
    return message


def card_text(card: object) -> str:
    """``"10H"`` → ``"10♥"``; None → ``"?"``; anything else as it is.

    >>> card_text("10H"), card_text("AS"), card_text(None), card_text(7)
    ('10♥', 'A♠', '?', '7')
    """
    if not isinstance(card, str) or len(card) < 2:
        return "?" if card is None else str(card)
    return card[:-1] + SUIT_SYMBOLS.get(card[-1], card[-1])


def cards_text(cards: object) -> str:
    """A list of cards as :func:`card_text` joined with spaces; ``""`` for anything else.

    >>> cards_text(["KD", "2C"]), cards_text(None)
    ('K♦ 2♣', '')
    """
    return " ".join(card_text(c) for c in cards) if isinstance(cards, list) else ""


def seat_label(names: Sequence[str], seat: object) -> str:
    """The name of ``seat`` in a history line: its entry of ``names``, else ``"?"``.

    >>> seat_label(["Lan", "Minh"], 1), seat_label(["Lan"], 3), seat_label(["Lan"], None)
    ('Minh', '?', '?')
    """
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"
