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

#: The codes every game may raise, with a one-line description (used by docs and tests). A
#: game's own rulings are its ``error_codes`` (``games/engine/<game>/errors.py``);
#: :func:`games.engine.registry.error_codes` lists them all.
ERROR_CODES: dict[str, str] = {
    # Rejected actions every game shares.
    "not_your_turn": "it is another seat's turn",
    "not_in_hand": "a card of the action is not in the player's hand",
    "duplicate_card": "the same card is named twice",
    "illegal_action": "the action is not one of the seat's legal actions now",
    "game_over": "the game has ended",
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
