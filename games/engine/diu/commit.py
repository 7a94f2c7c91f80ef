"""Stock commitments (rules §5.3): the prefetched stock batches travel as hash commitments, and
each card's key (its nonce) is released only in the event that flips it.

Stock card number ``i`` (0 = the first card under the deal) has the nonce
``HMAC-SHA256(key, "i")`` (32 hex digits), the key being derived from the hand's seed, which
never leaves the server while the hand is on; its commitment is ``sha256("<card>|<nonce>")`` in
hex. A client keeps the commitments of the batches it was sent and checks each ``card_open``
against them, so the server cannot change a card after pushing its batch, and nothing in a batch
tells a card before it is drawn.

>>> n = nonce(7, 0)
>>> len(n), n == nonce(7, 0), n == nonce(7, 1), n == nonce("7", 0)
(32, True, False, False)
>>> verify("66", n, commitment("66", n)), verify("55", n, commitment("66", n))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac

from games.engine.diu.state import DiuState

__all__ = ["commitment", "nonce", "stock_commitments", "verify"]


def _key(seed: int | str) -> bytes:
    kind = "int" if isinstance(seed, int) else "str"
    return hashlib.sha256(f"diu-stock-nonce\x00{kind}\x00{seed}".encode()).digest()


def nonce(seed: int | str, index: int) -> str:
    """The nonce of stock card number ``index`` of a hand dealt from ``seed``.

    >>> nonce(1, 3) != nonce(2, 3)
    True
    """
    return hmac.new(_key(seed), str(index).encode(), hashlib.sha256).hexdigest()[:32]


def commitment(card: str, nonce_hex: str) -> str:
    """``sha256("<card>|<nonce>")`` as 64 hex digits.

    >>> commitment("W", "00")[:12]
    '301618f9f63d'
    """
    return hashlib.sha256(f"{card}|{nonce_hex}".encode()).hexdigest()


def verify(card: str, nonce_hex: str, digest: str) -> bool:
    """True when ``card`` and ``nonce_hex`` open the commitment ``digest``.

    >>> verify("W", "00", commitment("W", "00"))
    True
    """
    return hmac.compare_digest(commitment(card, nonce_hex), digest)


def stock_commitments(state: DiuState, start: int, stop: int) -> list[str]:
    """The commitments of stock cards ``start`` … ``stop - 1`` (absolute numbers); only cards
    still in the stock (``start >= state.drawn``).

    >>> from games.engine.diu.rules import new_game
    >>> s = new_game({}, seed=3)
    >>> c = stock_commitments(s, 0, 2)
    >>> c[0] == commitment(s.stock[0], nonce(3, 0)), len(c)
    (True, 2)
    """
    if start < state.drawn:
        raise ValueError("a drawn card has no pending commitment")
    return [
        commitment(state.stock[i - state.drawn], nonce(state.seed, i))
        for i in range(start, min(stop, state.drawn + len(state.stock)))
    ]
