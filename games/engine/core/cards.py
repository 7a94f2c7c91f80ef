"""French-suited playing cards as value objects, and the standard 52-card deck.

Ordering is a game's business (Tiến Lên ranks 3 low and 2 high, stud ranks A high), so a
:class:`Card` only knows its rank and suit labels. Games map cards to small ints for speed.

>>> card = Card.parse("10H")
>>> str(card), card.rank, card.suit
('10H', '10', 'H')
>>> card
Card.parse('10H')
>>> Card.parse("T♥") == card
True
>>> len(standard_deck())
52
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.core.errors import EngineError

__all__ = ["RANK_LABELS", "SUIT_LETTERS", "SUIT_SYMBOLS", "Card", "standard_deck"]

#: Rank labels, in Tiến Lên order (3 lowest, 2 highest). Other games reorder as they need.
RANK_LABELS: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
#: Suit letters, Tiến Lên order: spades < clubs < diamonds < hearts.
SUIT_LETTERS: tuple[str, ...] = ("S", "C", "D", "H")
#: The symbol of each suit letter.
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}

_SYMBOL_TO_LETTER = {v: k for k, v in SUIT_SYMBOLS.items()}
_RANK_ALIASES = {label: label for label in RANK_LABELS} | {"T": "10"}


@dataclass(frozen=True, slots=True)
class Card:
    """A card: ``rank`` is one of :data:`RANK_LABELS`, ``suit`` one of :data:`SUIT_LETTERS`.

    >>> Card("A", "S")
    Card.parse('AS')
    >>> Card("1", "S")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.EngineError: bad_card: no rank '1'
    """

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANK_LABELS:
            raise EngineError("bad_card", f"no rank {self.rank!r}")
        if self.suit not in SUIT_LETTERS:
            raise EngineError("bad_card", f"no suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"10H"``, ``"TH"``, ``"10♥"``, ``"jd"``; raise ``bad_card`` otherwise.

        >>> Card.parse("jd"), Card.parse("2♠")
        (Card.parse('JD'), Card.parse('2S'))
        >>> Card.parse("11H")
        Traceback (most recent call last):
        ...
        games.engine.core.errors.EngineError: bad_card: '11H' is not a card
        """
        if not isinstance(text, str) or len(text) < 2 or len(text) > 3:
            raise EngineError("bad_card", f"{text!r} is not a card")
        rank_text, suit_text = text[:-1].upper(), text[-1]
        suit = _SYMBOL_TO_LETTER.get(suit_text, suit_text.upper())
        rank = _RANK_ALIASES.get(rank_text)
        if rank is None or suit not in SUIT_LETTERS:
            raise EngineError("bad_card", f"{text!r} is not a card")
        return cls(rank, suit)

    @property
    def symbol(self) -> str:
        """The suit symbol.

        >>> Card.parse("3S").symbol
        '♠'
        """
        return SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def standard_deck() -> list[Card]:
    """The 52 cards, rank-major in :data:`RANK_LABELS` order, suits S C D H.

    >>> [str(c) for c in standard_deck()[:5]]
    ['3S', '3C', '3D', '3H', '4S']
    """
    return [Card(rank, suit) for rank in RANK_LABELS for suit in SUIT_LETTERS]
