"""The Replay lab: every move of a user's own bot in a finished game, with the exact
``gameState`` the bot received, recomputed from the seed and the actions.

The live tables ask a bot for its move with ``engine.bot_view(state, seat)`` of the state before
that move (``bots.turns.bot_seat_player``; no session scores are passed today, so the
``sessionScores`` / ``scores.session`` fields are empty, and so they are here). A game is
deterministic from its seed and its action list (the actions carry their own time, ``at``), so
the state before action *k* is the replay of the first *k − 1* actions and the view is the
same JSON the bot got (tested against what a live bot logged). Nothing of the view is stored.

Who sees what (docs/history.md "Replay lab"): only the owner of the bot that held a seat (the
deal's player snapshot, as for the replay's bot records) gets that seat's moves, and only once
the game is finished (the view holds the bot's hand). The view is the bot's own seat view: no
other seat's hidden card is in it. Anyone else gets :class:`~games.history.records.HistoryError`
``not_found`` — the same answer as for a game that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.urls import NoReverseMatch, reverse

from games.deals import deal_is_open
from games.engine.core.protocol import Game as EngineGame
from games.history.records import (
    JSON,
    HistoryError,
    engine_of,
    game_record,
    is_finished,
    owned_bot_seats,
    players_of,
    require_deal_closed,
)
from games.models import Game

if TYPE_CHECKING:
    from accounts.models import User

__all__ = ["BotMove", "bot_move_get", "bot_moves", "lab_available"]

#: The fields of ``Action.bot_record`` the lab shows (never the version id: the seat says it).
RECORD_FIELDS = (
    "ok",
    "value",
    "error_code",
    "error_message",
    "console",
    "console_truncated",
    "elapsed_ms",
    "restarted",
    "replayed",
    "replay_diverged",
    "move",
    "strike",
    "strikes",
    "disqualified",
)


@dataclass
class BotMove:
    """One move of a bot seat, recomputed: the engine, the state before the move, the seat's
    ``gameState`` and what the bot did then (its stored record)."""

    game: Game
    engine: EngineGame
    seq: int
    seat: int
    state: Any
    game_state: JSON
    record: JSON
    player: JSON

    def to_json(self) -> JSON:
        rec = {k: self.record.get(k) for k in RECORD_FIELDS}
        return {
            "game_id": self.game.pk,
            "seq": self.seq,
            "step": self.seq,
            "seat": self.seat,
            "bot_id": self.player.get("bot_id"),
            "bot_version": self.player.get("bot_version"),
            "game_state": self.game_state,
            "returned": rec.pop("value"),
            **rec,
            "editor_url": _editor_url(self.player.get("bot_id"), self.game.pk, self.seq, self.seat),
        }


def _editor_url(bot_id: Any, game_id: int, seq: int, seat: int) -> str | None:
    """The bot editor opened on this move (the bots app's page, reached by URL name: games
    never imports bots); None when no bots app serves it."""
    if not isinstance(bot_id, int):
        return None
    try:
        base = reverse("bots:editor", args=[bot_id])
    except NoReverseMatch:
        return None
    return f"{base}?{urlencode({'game': game_id, 'seq': seq, 'seat': seat})}"


def lab_available(*, game: Game, user: User | None) -> bool:
    """Whether ``user`` has a Replay lab in ``game``: it is finished and one of their bots held
    a seat."""
    return (
        is_finished(game)
        and bool(owned_bot_seats(game, players_of(game), user))
        and not deal_is_open(game)
    )


def _lab_seats(game: Game | None, user: User | None) -> tuple[list[JSON], set[int]]:
    """The players of ``game`` and the seats whose bot ``user`` owns; ``not_found`` when there
    is none (or no game), ``not_finished`` while the game is on."""
    if game is None:
        raise HistoryError("not_found", "no such game, or none of your bots played in it")
    players = players_of(game)
    owned = owned_bot_seats(game, players, user)
    if not owned:
        raise HistoryError("not_found", "no such game, or none of your bots played in it")
    if not is_finished(game):
        raise HistoryError("not_finished", "a bot's moves open in the lab once the game is over")
    require_deal_closed(game)  # deal_in_play: the same cards are still played elsewhere
    return players, owned


def _walk(
    game: Game, owned: set[int], players: list[JSON], only: int | None = None
) -> list[BotMove]:
    engine = engine_of(game.engine, game.rules_version)
    record = game_record(game)
    wanted = {
        seq: rec
        for seq, rec in record.bot_records.items()
        if 0 < seq <= len(record.actions)
        and record.actions[seq - 1].get("seat") in owned
        and (only is None or seq == only)
    }
    out: list[BotMove] = []
    if not wanted:
        return out
    last = max(wanted)
    state = engine.new_game(record.config, record.seed)
    for seq, action in enumerate(record.actions[:last], start=1):
        rec = wanted.get(seq)
        if rec is not None:
            seat = int(action["seat"])
            out.append(
                BotMove(
                    game=game,
                    engine=engine,
                    seq=seq,
                    seat=seat,
                    state=state,
                    game_state=engine.bot_view(state, seat),
                    record=dict(rec),
                    player=players[seat] if seat < len(players) else {},
                )
            )
        state, _ = engine.apply(state, action)
    return out


def bot_moves(*, game: Game | None, user: User | None) -> JSON:
    """Every move of ``user``'s bots in finished ``game``, oldest first:
    ``{"game": id, "engine", "seats": [{"seat", "name", "bot_id", "bot_version"}],
    "moves": [{"game_id", "seq", "step", "seat", "bot_id", "bot_version", "game_state", "returned",
    "ok", "error_code", "error_message", "console", "console_truncated", "elapsed_ms",
    "restarted", "move", "strike", "strikes", "disqualified", "editor_url"}]}``.

    ``game_state`` is the exact ``gameState`` the bot received (its own seat's view),
    ``returned`` its raw return, ``move`` the action applied (an auto-pass after a strike).
    Raises ``not_found`` (no such game, or no bot of ``user`` in it) or ``not_finished``."""
    players, owned = _lab_seats(game, user)
    assert game is not None
    moves = _walk(game, owned, players)
    return {
        "game": game.pk,
        "engine": game.engine,
        "seats": [
            {
                "seat": s,
                "name": players[s].get("name"),
                "bot_id": players[s].get("bot_id"),
                "bot_version": players[s].get("bot_version"),
            }
            for s in sorted(owned)
            if s < len(players)
        ],
        "moves": [m.to_json() for m in moves],
    }


def bot_move_get(*, game_id: Any, seq: Any, seat: Any, user: User | None) -> BotMove:
    """One move of ``user``'s bot, referenced by (game id, action seq, seat), recomputed.

    Every part of the reference is checked, so a client cannot forge a state: ``bad_reference``
    (not whole numbers), ``not_found`` (no such game, or no bot of ``user`` in it),
    ``not_finished``, ``not_your_seat`` (the seat's bot is not ``user``'s), ``no_such_move``
    (``seq`` is not a recorded move of that seat's bot)."""
    ref = _numbers(game_id, seq, seat)
    if ref is None:
        raise HistoryError("bad_reference", "game, seq and seat must be whole numbers")
    gid, number, index = ref
    game = Game.objects.select_related("table").filter(pk=gid).first()
    players, owned = _lab_seats(game, user)
    assert game is not None
    if index not in owned:
        raise HistoryError("not_your_seat", f"seat {index} is not played by one of your bots")
    found = _walk(game, {index}, players, only=number)
    if not found:
        raise HistoryError("no_such_move", f"move {number} is not a move of the bot at {index}")
    return found[0]


def _numbers(*values: Any) -> tuple[int, int, int] | None:
    out: list[int] = []
    for value in values:
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            out.append(value)
        elif isinstance(value, str) and value.isdigit() and len(value) < 12:
            out.append(int(value))
        else:
            return None
    if any(v < 0 or v > 2**31 for v in out):
        return None
    return out[0], out[1], out[2]
