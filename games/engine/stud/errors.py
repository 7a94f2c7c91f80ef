"""Seven-card stud's own error codes (docs/rules/stud.md), and what a bot's author reads for
each (English, translated by the site). The codes every game shares are
:data:`games.engine.core.errors.ERROR_CODES`.

>>> sorted(BOT_ERROR_SENTENCES) == sorted(ERROR_CODES)
True
"""

from __future__ import annotations

from games.engine.core.text import gettext_noop

__all__ = ["BOT_ERROR_SENTENCES", "ERROR_CODES"]

#: Code → one-line description.
ERROR_CODES: dict[str, str] = {
    "cap_reached": "a raise after the street's bet and three raises",
    "hand_over": "the hand has ended",
}

#: Code → the sentence a bot's author reads.
BOT_ERROR_SENTENCES: dict[str, str] = {
    "cap_reached": gettext_noop(
        "No more raises on this street: a bet and three raises have been made."
    ),
    "hand_over": gettext_noop("The hand is already over."),
}
