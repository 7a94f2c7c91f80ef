"""The High Card module object, ``GAME``: its rules bound to the engine core's shape.

Everything not written here — record, replay, per-round history, timeouts, checks, bot views,
sessions, the ``your_turn`` payload, the conformance scenario format — is
:class:`games.engine.core.game.GameBase`'s default.

>>> state = GAME.new_game(GAME.default_config(), seed=12)
>>> GAME.state_from_json(GAME.state_to_json(state)) == state
True
>>> GAME.replay(**{k: v for k, v in GAME.record(state).items() if k != "game"}) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.examples import BotExample
from games.engine.core.game import GameBase, seat_name
from tests.fourth_game import rules, state
from tests.fourth_game.state import NAME, RULES_VERSION, HighCardState

__all__ = ["GAME", "SYSTEM_MESSAGES", "HighCardGame"]

#: English templates of the game's system chat lines (:meth:`HighCardGame.system_line`).
SYSTEM_MESSAGES: dict[str, str] = {
    "highcard_trick": "{name} won trick {trick} with {card}.",
    "highcard_result": "{name} won the game, {won} tricks to {lost}.",
    "highcard_tie": "The game is a tie.",
}


class HighCardGame(GameBase[HighCardState], modules=(rules, state)):
    """High Card for two seats. Stateless: every method is a pure function.

    >>> HighCardGame()
    HighCardGame(name='highcard', rules_version='highcard-1')
    >>> GAME.table_options, GAME.house_levels
    ({'tricks': 3}, ('easy', 'sharp'))
    """

    name = NAME
    title = "High Card"
    rules_version = RULES_VERSION
    min_players = 2
    max_players = 2
    state_type = HighCardState

    house_levels = rules.LEVELS
    table_options: Mapping[str, Any] = {"tricks": rules.DEFAULT_CONFIG["tricks"]}
    system_codes = tuple(SYSTEM_MESSAGES)
    bot_files = "tests.fourth_game"  # its example bot is bots/highcard_first.js here
    bot_examples = (BotExample("highcard_first", "First card", "Plays its first legal card."),)
    bot_template = "highcard_first"
    system_messages = SYSTEM_MESSAGES

    def system_line(
        self, kind: str, data: Mapping[str, Any], names: Sequence[str | None]
    ) -> tuple[str, dict[str, Any]] | None:
        """A chat line for a won trick and for the result.

        >>> GAME.system_line("trick_won", {"winner": 1, "trick": 0, "cards": ["2S", "AH"]},
        ...                  ["Ann", "Bo"])
        ('highcard_trick', {'name': 'Bo', 'trick': 1, 'card': 'AH'})
        >>> GAME.system_message("result", {"winner": 0, "tricks": [2, 1]}, ["Ann", "Bo"])
        'Ann won the game, 2 tricks to 1.'
        >>> GAME.system_line("card_played", {"seat": 0, "card": "2S"}, ["Ann", "Bo"]) is None
        True
        """
        if kind == "trick_won":
            winner = int(data["winner"])
            return "highcard_trick", {
                "name": seat_name(names, winner),
                "trick": int(data["trick"]) + 1,
                "card": str(data["cards"][winner]),
            }
        if kind == "result":
            best = data.get("winner")
            if not isinstance(best, int):
                return "highcard_tie", {}
            tricks = list(data["tricks"])
            return "highcard_result", {
                "name": seat_name(names, best),
                "won": tricks[best],
                "lost": tricks[1 - best],
            }
        return None


#: The module object a test registers as ``"highcard"``.
GAME = HighCardGame()
