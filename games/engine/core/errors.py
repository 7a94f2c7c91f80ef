"""Stable error codes shared by every game engine.

Every rejected action or bad input raises a :class:`ValueError` subclass that carries a stable
``code``, so callers (services, consumers, the conformance runner) map errors without importing
anything game-specific.

>>> err = IllegalActionError("does_not_beat", "a pair of 5s does not beat a pair of 9s")
>>> err.code, isinstance(err, ValueError)
('does_not_beat', True)
>>> str(err)
'does_not_beat: a pair of 5s does not beat a pair of 9s'
"""

from __future__ import annotations

__all__ = [
    "ERROR_CODES",
    "ConfigError",
    "EngineError",
    "IllegalActionError",
    "UnknownGameError",
]

#: Every code an engine may raise, with a one-line description (used by docs and tests).
ERROR_CODES: dict[str, str] = {
    # Rejected actions (the rulings' codes).
    "not_your_turn": "it is another seat's turn",
    "not_in_hand": "a card of the play is not in the player's hand",
    "duplicate_card": "the same card is named twice",
    "invalid_combination": "the cards do not form a combination",
    "does_not_beat": "the play does not beat (or cut) the play on the table",
    "needs_vong": "a cut that needs vòng, by the player who led the round",
    "must_include_card": "the opening play must include the required card (3♠)",
    "leader_cannot_pass": "the leader of a round must play",
    "already_passed": "the player passed earlier in this round and is locked out",
    "game_over": "the game has ended",
    # Stud (shared rulings, rules/stud.md).
    "illegal_action": "the action is not one of the seat's legal actions now",
    "cap_reached": "a raise after the street's bet and three raises",
    "hand_over": "the hand has ended",
    # Suijiang Diu (shared rulings, rules/diu.md).
    "wild_discard": "a 听用 may be discarded only when the hand holds nothing else",
    "claim_not_allowed": "the claim type is not open to this seat on this card",
    "claim_not_higher": "a claim must rank strictly above the best claim so far in the poll",
    "invalid_claim": "the named hand cards do not make that claim with the card",
    "must_keep_card": "a claim other than 丢 must leave a card in hand to discard",
    "diu_not_allowed": "丢 is not open on this card (a discard, with allow_diu_on_discard off)",
    "invalid_diu": "the two cards do not make a three-card group with the card",
    "diu_incomplete": "after the 丢 group the rest of the hand does not split into groups",
    # Malformed input.
    "bad_card": "a card id that cannot be parsed",
    "bad_action": "an action that is not a well-formed action object",
    "bad_config": "a table option or game configuration that is not allowed",
    "bad_state": "a serialized state that cannot be read",
    "bad_bot_move": "a bot's return value that is not a well-formed move",
    "bad_seat": "a seat number outside the table",
    "unknown_game": "no game is registered under that name",
    "unknown_rules_version": "no engine for a stored game's rules version",
    "bad_scenario": "a conformance scenario that is not well formed",
    "bad_round": "a history request for a round that has not started",
    "internal_error": "an unexpected failure inside the conformance runner (a bug)",
}


class EngineError(ValueError):
    """Base class of every engine error; ``code`` is stable, ``detail`` is for humans.

    >>> EngineError("bad_card", "'1X' is not a card").code
    'bad_card'
    >>> EngineError("game_over")
    EngineError('game_over')
    """

    code: str
    detail: str

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        self.detail = detail
        super().__init__(f"{code}: {detail}" if detail else code)

    def __repr__(self) -> str:
        if self.detail:
            return f"{type(self).__name__}({self.code!r}, {self.detail!r})"
        return f"{type(self).__name__}({self.code!r})"

    def to_json(self) -> dict[str, str]:
        """The error as a JSON-able object.

        >>> IllegalActionError("not_your_turn", "seat 2 acts").to_json()
        {'error': 'not_your_turn', 'detail': 'seat 2 acts'}
        """
        return {"error": self.code, "detail": self.detail}


class IllegalActionError(EngineError):
    """An action the rules reject; the state is unchanged.

    >>> IllegalActionError("needs_vong").code
    'needs_vong'
    """


class ConfigError(EngineError):
    """A bad game configuration (table options); code ``bad_config`` unless told otherwise.

    >>> ConfigError(detail="players must be 2..4").code
    'bad_config'
    """

    def __init__(self, code: str = "bad_config", detail: str = "") -> None:
        super().__init__(code, detail)


class UnknownGameError(EngineError):
    """No game registered under a name; code ``unknown_game``.

    >>> UnknownGameError("chess").code
    'unknown_game'
    """

    def __init__(self, name: str) -> None:
        super().__init__("unknown_game", f"no game named {name!r}")
