"""The error codes a bot's move can get (Test Bot, the validation game, the Replay lab) as
sentences for its author, in English, translated by the catalog (issue 25: the editor said
"leader_cannot_pass: leader_cannot_pass").

Every code an engine raises for a bot's move (``games.engine.registry.error_codes()``, less
the table, scenario and history ones) and every sandbox code (:class:`ErrorCode`) has one:
the shared codes' sentences are here, each game's own rulings' are the game's
``bot_error_sentences`` (``games/engine/<game>/errors.py``); tests/test_pages_words.py keeps it
so.

>>> error_sentence("leader_cannot_pass")
'Your bot leads this round: it must play, not pass.'
>>> error_sentence("illegal:does_not_beat")
'Your bot played cards that do not beat the cards on the table.'
>>> error_sentence("no-such-code") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bots.samples import Text, text
from games.engine.core.text import gettext_noop
from games.engine.registry import bot_error_sentences

__all__ = [
    "BOT_ERROR_SENTENCES",
    "NOT_BOT_CODES",
    "bot_error",
    "error_sentence",
    "error_text",
    "validation_message",
]

#: Engine codes a bot's move never gets (a table's options, a stored game, a scenario).
NOT_BOT_CODES = frozenset(
    {
        "bad_config",
        "bad_state",
        "unknown_game",
        "unknown_rules_version",
        "bad_scenario",
        "bad_round",
        "internal_error",
    }
)

#: Code → the sentence an author reads (English msgid), for the codes every game shares and the
#: sandbox's; :func:`error_sentence` also asks the registered games for their own.
BOT_ERROR_SENTENCES: dict[str, str] = {
    # the rejected moves every engine shares (each game's own: its bot_error_sentences)
    "not_your_turn": gettext_noop("Your bot moved when it was another seat's turn."),
    "not_in_hand": gettext_noop("Your bot played a card it does not hold."),
    "duplicate_card": gettext_noop("Your bot named the same card twice."),
    "game_over": gettext_noop("The game is already over."),
    "illegal_action": gettext_noop("That action is not one of your bot's legal actions now."),
    # malformed moves
    "bad_card": gettext_noop("Your bot named a card that does not exist."),
    "bad_action": gettext_noop("Your bot's move is not a well-formed action."),
    "bad_bot_move": gettext_noop(
        "Your bot returned a move in the wrong shape: see the API tab for what getNextMove returns."
    ),
    "bad_seat": gettext_noop("Your bot named a seat that is not at the table."),
    "illegal_move": gettext_noop("The rules refuse your bot's move."),
    # the sandbox (bots.sandbox.outcome.ErrorCode)
    "timeout": gettext_noop("Your bot took longer than its time limit."),
    "memory": gettext_noop("Your bot used more memory than it may."),
    "exception": gettext_noop("Your bot's code threw an error."),
    "bad_return": gettext_noop(
        "getNextMove returned something that is not a plain object (or a Promise, or too much)."
    ),
    "syntax": gettext_noop("Your bot's code does not compile."),
    "no_entry_point": gettext_noop("Your bot's code does not define a getNextMove function."),
    "crashed": gettext_noop("Your bot's sandbox stopped unexpectedly."),
    "not_run": gettext_noop("Not run: the test's time budget ran out."),
}


def error_sentence(code: str | None) -> str | None:
    """The English sentence of error ``code`` (``illegal:<code>`` and ``load:<code>``, the
    validation game's forms, too); None for a code without one."""
    if not code:
        return None
    bare = code.split(":", 1)[1] if code.startswith(("illegal:", "load:")) else code
    return BOT_ERROR_SENTENCES.get(bare) or bot_error_sentences().get(bare)


#: Codes whose detail (the engine's, or the sandbox's: a JavaScript error) says what to fix.
_WITH_DETAIL = frozenset({"bad_bot_move", "bad_action", "bad_card", "exception", "syntax"})


def error_text(code: str | None, detail: str | None = None) -> Any:
    """Error ``code`` as a :class:`bots.samples.Text` to translate: its sentence, with the
    ``detail`` after it where that says what to fix (a malformed move, a JavaScript error);
    the detail alone, or the code, for a code without a sentence.

    >>> str(error_text("leader_cannot_pass", "leader_cannot_pass"))
    'Your bot leads this round: it must play, not pass.'
    >>> str(error_text("exception", "TypeError: x is undefined"))
    "Your bot's code threw an error. (TypeError: x is undefined)"
    """
    sentence = error_sentence(code)
    bare = (code or "").split(":", 1)[-1]
    if sentence is None:
        return text("{detail}", detail=detail or bare)
    if detail and bare in _WITH_DETAIL:
        prefix = f"{bare}: "
        detail = detail[len(prefix) :] if detail.startswith(prefix) else detail
        if detail and detail != bare:
            return text(
                gettext_noop("{sentence} ({detail})"), sentence=text(sentence), detail=detail
            )
    return text(sentence)


def _gettext(msgid: str) -> str:
    from django.utils.translation import gettext

    return gettext(msgid)


def validation_message(validation: Any) -> str:
    """A stored validation's message in the active language (its ``message_i18n``; one stored
    before it had that shows its English ``message``)."""
    if not isinstance(validation, Mapping):
        return ""
    message = validation.get("message_i18n")
    if isinstance(message, Mapping) and "msgid" in message:
        return Text.from_json(message).render(_gettext)
    return str(validation.get("message") or "")


def bot_error(record: Any) -> str:
    """A move record's error (``error_code`` and ``error_message``) as a sentence in the
    active language; empty for a record without one."""
    if not isinstance(record, Mapping) or not record.get("error_code"):
        return ""
    code = str(record["error_code"])
    return str(error_text(code, record.get("error_message")).render(_gettext))
