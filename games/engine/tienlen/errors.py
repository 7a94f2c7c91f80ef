"""Tiến Lên's own error codes (the rulings of docs/rules/tienlen.md), and what a bot's author
reads for each (English, translated by the site). The codes every game shares are
:data:`games.engine.core.errors.ERROR_CODES`.

>>> sorted(BOT_ERROR_SENTENCES) == sorted(ERROR_CODES)
True
"""

from __future__ import annotations

from games.engine.core.text import gettext_noop

__all__ = ["BOT_ERROR_SENTENCES", "ERROR_CODES"]

#: Code → one-line description, in the order of the rulings.
ERROR_CODES: dict[str, str] = {
    "invalid_combination": "the cards do not form a combination",
    "does_not_beat": "the play does not beat (or cut) the play on the table",
    "needs_vong": "a cut that needs vòng, by the player who led the round",
    "must_include_card": "the opening play must include the required card (3♠)",
    "leader_cannot_pass": "the leader of a round must play",
    "already_passed": "the player passed earlier in this round and is locked out",
}

#: Code → the sentence a bot's author reads.
BOT_ERROR_SENTENCES: dict[str, str] = {
    "invalid_combination": gettext_noop("Your bot's cards do not form a combination."),
    "does_not_beat": gettext_noop("Your bot played cards that do not beat the cards on the table."),
    "needs_vong": gettext_noop(
        "Your bot tried to chặt (cut) without vòng: the player who led the round cannot cut."
    ),
    "must_include_card": gettext_noop(
        "The first play of the game must include the lowest card dealt (3♠ whenever it was dealt)."
    ),
    "leader_cannot_pass": gettext_noop("Your bot leads this round: it must play, not pass."),
    "already_passed": gettext_noop(
        "Your bot passed earlier in this round, so it cannot play again until the round ends."
    ),
}
