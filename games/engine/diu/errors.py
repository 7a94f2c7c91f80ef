"""Suijiang Diu's own error codes (docs/rules/diu.md), and what a bot's author reads for each
(English, translated by the site). The codes every game shares are
:data:`games.engine.core.errors.ERROR_CODES`.

>>> sorted(BOT_ERROR_SENTENCES) == sorted(ERROR_CODES)
True
"""

from __future__ import annotations

from games.engine.core.text import gettext_noop

__all__ = ["BOT_ERROR_SENTENCES", "ERROR_CODES"]

#: Code → one-line description.
ERROR_CODES: dict[str, str] = {
    "wild_discard": "a 听用 may be discarded only when the hand holds nothing else",
    "claim_not_allowed": "the claim type is not open to this seat on this card",
    "claim_not_higher": "a claim must rank strictly above the best claim so far in the poll",
    "invalid_claim": "the named hand cards do not make that claim with the card",
    "must_keep_card": "a claim other than 丢 must leave a card in hand to discard",
    "diu_not_allowed": "丢 is not open on this card (a discard, with allow_diu_on_discard off)",
    "invalid_diu": "the two cards do not make a three-card group with the card",
    "diu_incomplete": "after the 丢 group the rest of the hand does not split into groups",
}

#: Code → the sentence a bot's author reads.
BOT_ERROR_SENTENCES: dict[str, str] = {
    "wild_discard": gettext_noop(
        "Your bot discarded a 听用 (wild card) while holding other cards."
    ),
    "claim_not_allowed": gettext_noop("That claim is not open to your bot on this card."),
    "claim_not_higher": gettext_noop("A claim must rank above the best claim so far on this card."),
    "invalid_claim": gettext_noop("Your bot's cards do not make that claim with this card."),
    "must_keep_card": gettext_noop("After that claim your bot would have no card left to discard."),
    "diu_not_allowed": gettext_noop("丢 (diu) is not open on this card."),
    "invalid_diu": gettext_noop("Your bot's two cards do not make three of a kind with this card."),
    "diu_incomplete": gettext_noop(
        "After that 丢 (diu) the rest of your bot's hand does not split into groups."
    ),
}
