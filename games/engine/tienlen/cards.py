"""Tiến Lên card indices and 52-bit hand masks.

A card is an int ``index = rank * 4 + suit`` with ranks 3..2 as 0..12 and suits S C D H as
0..3, so a card's strength is its index. A set of cards is an int whose bit ``index`` is set.

>>> card_index("3S"), card_index("2H"), card_id(51)
(0, 51, '2H')
>>> mask_to_ids(ids_to_mask(["10H", "3S", "T♣"]))
['3S', '10C', '10H']
>>> card_value(card_index("AS")), heo_value(card_index("2D"))
(12, 2)
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.core.cards import RANK_LABELS, SUIT_LETTERS, SUIT_SYMBOLS, Card
from games.engine.core.errors import EngineError, IllegalActionError

__all__ = [
    "ALL_CARDS",
    "CARD_IDS",
    "TWOS",
    "card_dict",
    "card_id",
    "card_index",
    "card_value",
    "heo_value",
    "ids_to_mask",
    "mask_indices",
    "mask_to_ids",
    "parse_cards",
]

#: Canonical id of each index.
CARD_IDS: tuple[str, ...] = tuple(r + s for r in RANK_LABELS for s in SUIT_LETTERS)
#: The mask of the whole deck.
ALL_CARDS = (1 << 52) - 1
#: The mask of the four 2s (heo).
TWOS = 0xF << 48

_ID_TO_INDEX: dict[str, int] = {}
for _i, _cid in enumerate(CARD_IDS):
    _ID_TO_INDEX[_cid] = _i
    _rank, _suit = _cid[:-1], _cid[-1]
    for _r in {_rank, "T"} if _rank == "10" else {_rank}:
        for _s in (_suit, SUIT_SYMBOLS[_suit]):
            _ID_TO_INDEX[_r + _s] = _i
            _ID_TO_INDEX[(_r + _s).lower()] = _i

_VALUE = tuple(i // 4 + 1 for i in range(52))
_HEO = tuple((1 if i % 4 < 2 else 2) if i >= 48 else 0 for i in range(52))


def card_index(text: str) -> int:
    """The index of a card id (``T`` and suit symbols accepted); ``bad_card`` otherwise.

    >>> card_index("10D"), card_index("TD"), card_index("10♦")
    (30, 30, 30)
    >>> card_index("XX")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_card: 'XX' is not a card
    """
    index = _ID_TO_INDEX.get(text) if isinstance(text, str) else None
    if index is None:
        raise IllegalActionError("bad_card", f"{text!r} is not a card")
    return index


def card_id(index: int) -> str:
    """The canonical id of an index.

    >>> card_id(0), card_id(30)
    ('3S', '10D')
    """
    return CARD_IDS[index]


def card_value(index: int) -> int:
    """The bot API ``value``: 3 → 1 … K → 11, A → 12, 2 → 13.

    >>> card_value(card_index("KH")), card_value(card_index("2S"))
    (11, 13)
    """
    return _VALUE[index]


def heo_value(index: int) -> int:
    """The heo value of a 2 (♠♣ 1, ♦♥ 2); 0 for any other card.

    >>> [heo_value(card_index(c)) for c in ("2S", "2C", "2D", "2H", "AH")]
    [1, 1, 2, 2, 0]
    """
    return _HEO[index]


def card_dict(index: int) -> dict[str, object]:
    """The bot API card object: ``{"rank", "suit", "value", "id"}`` (suit as a symbol).

    >>> card_dict(card_index("AS"))
    {'rank': 'A', 'suit': '♠', 'value': 12, 'id': 'AS'}
    """
    cid = CARD_IDS[index]
    return {"rank": cid[:-1], "suit": SUIT_SYMBOLS[cid[-1]], "value": _VALUE[index], "id": cid}


def mask_indices(mask: int) -> list[int]:
    """The indices of a mask, ascending.

    >>> mask_indices(0b1011)
    [0, 1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_to_ids(mask: int) -> list[str]:
    """Card ids of a mask, weakest first.

    >>> mask_to_ids(0b10001)
    ['3S', '4S']
    """
    return [CARD_IDS[i] for i in mask_indices(mask)]


def parse_cards(items: Iterable[object]) -> int:
    """Parse card ids (or :class:`Card` objects, or bot card objects) into a mask.

    Raises ``bad_card`` for something that is not a card and ``duplicate_card`` for a card named
    twice.

    >>> parse_cards(["3S", Card.parse("4S"), {"rank": "5", "suit": "♠", "value": 3}])
    273
    >>> parse_cards(["3S", "3♠"])
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: duplicate_card: 3S is named twice
    """
    mask = 0
    for item in items:
        index = _index_of(item)
        bit = 1 << index
        if mask & bit:
            raise IllegalActionError("duplicate_card", f"{CARD_IDS[index]} is named twice")
        mask |= bit
    return mask


def _index_of(item: object) -> int:
    if isinstance(item, str):
        return card_index(item)
    if isinstance(item, Card):
        return card_index(str(item))
    if isinstance(item, dict):
        cid = item.get("id")
        if isinstance(cid, str):
            return card_index(cid)
        rank, suit = item.get("rank"), item.get("suit")
        if isinstance(rank, str) and isinstance(suit, str):
            return card_index(rank + suit)
    raise IllegalActionError("bad_card", f"{item!r} is not a card")


def ids_to_mask(ids: Iterable[object]) -> int:
    """Alias of :func:`parse_cards` for card ids.

    >>> ids_to_mask(["3C"])
    2
    """
    return parse_cards(ids)


def _check_all_ids() -> None:  # pragma: no cover - import-time sanity check
    if len(CARD_IDS) != 52 or len(set(CARD_IDS)) != 52:
        raise EngineError("bad_card", "card table is broken")


_check_all_ids()
