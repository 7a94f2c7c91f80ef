"""The Tiến Lên game module object, ``GAME``: everything tables, bots and replays call.

>>> from games.engine.tienlen import GAME
>>> GAME.name, GAME.rules_version, GAME.min_players, GAME.max_players
('tienlen', 'tienlen-1', 2, 4)
>>> state = GAME.new_game(GAME.default_config(), seed=12)
>>> GAME.state_from_json(GAME.state_to_json(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.history import round_history
from games.engine.core.protocol import Action, Event, GameRecord, RoundStatus
from games.engine.tienlen import ai, rules, session, views
from games.engine.tienlen.cards import mask_to_ids
from games.engine.tienlen.state import (
    RULES_VERSION,
    TienLenState,
    state_from_json,
    state_to_json,
)

__all__ = ["GAME", "TienLenGame"]


class TienLenGame:
    """Tiến Lên Miền Nam for 2–4 players. Stateless: every method is a pure function.

    >>> TienLenGame()
    TienLenGame(name='tienlen', rules_version='tienlen-1')
    """

    name = "tienlen"
    rules_version = RULES_VERSION
    min_players = 2
    max_players = 4

    def __repr__(self) -> str:
        return f"TienLenGame(name={self.name!r}, rules_version={self.rules_version!r})"

    # configuration and setup
    def default_config(self) -> dict[str, Any]:
        """The default table options.

        >>> GAME.default_config()["players"]
        4
        """
        return dict(rules.DEFAULT_CONFIG)

    def validate_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """Normalized options, or ``bad_config``.

        >>> GAME.validate_config({"players": 2})["opening"]
        True
        """
        return rules.validate_config(config)

    def new_game(self, config: Mapping[str, Any], seed: int | str) -> TienLenState:
        """Deal a game from a seed.

        >>> GAME.new_game({"players": 2}, 1).players
        2
        """
        return rules.new_game(config, seed)

    def initial_events(self, state: TienLenState) -> list[Event]:
        """Events announcing a freshly dealt game: each seat's hand (private), then an instant
        win and game end, or the first turn.

        >>> [e.type for e in GAME.initial_events(GAME.new_game({"players": 2}, 1))]
        ['dealt', 'hand', 'hand', 'turn']
        """
        events = [
            Event(
                "dealt",
                {
                    "players": state.players,
                    "leader": state.game_leader,
                    "opening": state.config["opening"],
                },
            )
        ]
        events += [
            Event("hand", {"cards": mask_to_ids(h)}, to=s) for s, h in enumerate(state.hands)
        ]
        res = rules.result(state)
        if res is not None:
            events.append(Event("instant_win", {"seat": res["winner"], "kind": state.instant_win}))
            events.append(Event("game_ended", res))
        else:
            status = rules.round_status(state)
            events.append(
                Event(
                    "turn",
                    {
                        "seat": state.turn,
                        "round": 0,
                        "leading": True,
                        "at": state.turn_started_at,
                        "deadline": status.check_at,
                    },
                )
            )
        return events

    # play
    def legal_actions(self, state: TienLenState, seat: int) -> list[Action]:
        """Every legal action of a seat (empty when it is not their turn).

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.legal_actions(s, s.turn)[0]["type"]
        'play'
        """
        return rules.legal_actions(state, seat)

    def apply(
        self, state: TienLenState, action: Mapping[str, Any]
    ) -> tuple[TienLenState, list[Event]]:
        """Apply an action: ``(new_state, events)``; illegal ones raise with a code.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> try:
        ...     GAME.apply(s, {"type": "pass", "seat": s.turn})
        ... except ValueError as err:
        ...     print(err.code)
        leader_cannot_pass
        """
        return rules.apply(state, action)

    def check(self, state: TienLenState, action: Mapping[str, Any]) -> None:
        """Raise exactly what :meth:`apply` would raise, without applying.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.check(s, GAME.timeout_action(s, s.turn)) is None
        True
        """
        seat, mask, _, _ = rules.parse_action(action)
        rules.check(state, seat, mask)

    def timeout_action(self, state: TienLenState, seat: int) -> Action:
        """The house policy's action for a seat whose time ran out (marked ``auto``).

        >>> s = GAME.new_game({"players": 2, "opening": False, "leader": 0}, 1)
        >>> GAME.timeout_action(s, 0)["auto"]
        True
        """
        return rules.timeout_action(state, seat)

    def round_status(self, state: TienLenState, now: float | None = None) -> RoundStatus:
        """Round index, pending seats, deadline (seed 004).

        >>> GAME.round_status(GAME.new_game({"players": 2}, 1)).round_index
        0
        """
        return rules.round_status(state, now)

    def mark_turn_start(self, state: TienLenState, at: float) -> TienLenState:
        """A copy of the state whose current turn started at ``at`` (unix seconds).

        >>> s = GAME.mark_turn_start(GAME.new_game({"players": 2, "turn_seconds": 10}, 1), 5.0)
        >>> GAME.round_status(s).check_at
        15.0
        """
        st = state.copy()
        st.turn_started_at = at
        return st

    def result(self, state: TienLenState) -> dict[str, Any] | None:
        """None until the game ends; then winner, ranking, cóng, transfers, scores...

        >>> GAME.result(GAME.new_game({"players": 2}, 1)) is None
        True
        """
        return rules.result(state)

    # views and bots
    def view(self, state: TienLenState, seat: int | None) -> dict[str, Any]:
        """The JSON view for a seat, or a spectator (None).

        >>> GAME.view(GAME.new_game({"players": 2}, 1), None)["hand"] is None
        True
        """
        return views.view(state, seat)

    def bot_view(
        self, state: TienLenState, seat: int, session_scores: list[int] | None = None
    ) -> dict[str, Any]:
        """The bot API ``gameState`` (docs/bot-api.md).

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.bot_view(s, 0)["myPosition"]
        0
        """
        return views.bot_view(state, seat, session_scores)

    def parse_bot_move(self, state: TienLenState, seat: int, obj: object) -> Action:
        """A bot's return as a validated engine action.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.parse_bot_move(s, s.turn, None)
        Traceback (most recent call last):
        ...
        games.engine.core.errors.IllegalActionError: bad_bot_move: a move must be an object
        """
        return views.parse_bot_move(state, seat, obj)

    def suggest(self, state: TienLenState, seat: int) -> Action:
        """The house AI's suggestion for a seat.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.suggest(s, s.turn)["type"]
        'play'
        """
        return ai.suggest(state, seat)

    def house_action(self, state: TienLenState, seat: int, level: str = "medium") -> Action:
        """The house AI's move for ``seat`` at ``level`` (one of :attr:`house_levels`).

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.house_action(s, s.turn, "easy")["type"]
        'play'
        """
        return ai.house_action(state, seat, level)

    #: House AI strengths, weakest first.
    house_levels: tuple[str, ...] = ai.LEVELS
    #: This game's own table options and their defaults (passed to :meth:`session_start`).
    table_options: Mapping[str, Any] = {"hide_hand_counts": False, "play_on_after_winner": False}

    def arrange(self, cards: Iterable[object], mode: str = "rank") -> list[str]:
        """A hand re-ordered by rank or grouped into combinations.

        >>> GAME.arrange(["2S", "3H"], "rank")
        ['3H', '2S']
        """
        return ai.arrange(cards, mode)

    # persistence and replays
    def state_to_json(self, state: TienLenState) -> dict[str, Any]:
        """JSON-able state.

        >>> GAME.state_to_json(GAME.new_game({"players": 2}, 1))["game"]
        'tienlen'
        """
        return state_to_json(state)

    def state_from_json(self, obj: Mapping[str, Any]) -> TienLenState:
        """Rebuild a state.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.state_from_json(GAME.state_to_json(s)) == s
        True
        """
        return state_from_json(obj)

    def record(self, state: TienLenState) -> GameRecord:
        """``{"config", "seed", "actions"}``: everything needed to replay the game.

        >>> GAME.record(GAME.new_game({"players": 2}, 1))["actions"]
        []
        """
        return {
            "game": self.name,
            "config": dict(state.config),
            "seed": state.seed,
            "actions": rules.log_actions(state),
        }

    def replay(
        self, config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
    ) -> TienLenState:
        """Rebuild a game from its seed and actions.

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.replay({"players": 2}, 1, []) == s
        True
        """
        return rules.replay(config, seed, actions)

    def history(
        self, state_or_record: TienLenState | Mapping[str, Any], round_index: int, seat: int | None
    ) -> dict[str, Any]:
        """One round's start view, public turns and end view (seed 004 "viewing history").

        >>> s = GAME.new_game({"players": 2}, 1)
        >>> GAME.history(s, 0, 0)["start"]["round"]
        0
        """
        record = (
            self.record(state_or_record)
            if isinstance(state_or_record, TienLenState)
            else state_or_record
        )
        if not isinstance(record, Mapping):
            raise IllegalActionError("bad_state", "history needs a state or a game record")
        return round_history(self, record, round_index, seat)

    # sessions
    def session_start(
        self, players: int, games: int = 16, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A new table session (see :mod:`games.engine.tienlen.session`).

        >>> GAME.session_start(4, 32)["games"]
        32
        """
        return session.session_start(players, games, options)

    def session_next_config(self, sess: Mapping[str, Any]) -> dict[str, Any]:
        """The next game's config.

        >>> GAME.session_next_config(GAME.session_start(4))["opening"]
        True
        """
        return session.session_next_config(sess)

    def session_record(self, sess: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
        """The session with a finished game's result added.

        >>> s = GAME.session_record(GAME.session_start(2), {"winner": 0, "scores": [3, -3]})
        >>> s["totals"]
        [3, -3]
        """
        return session.session_record(sess, result)

    def session_summary(self, sess: Mapping[str, Any]) -> dict[str, Any]:
        """Totals, ranking, per-game breakdown, finished flag.

        >>> GAME.session_summary(GAME.session_start(2))["finished"]
        False
        """
        return session.session_summary(sess)


#: The module object registered as ``"tienlen"``.
GAME = TienLenGame()
