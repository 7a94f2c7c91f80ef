"""Readable text of a game: cards with suit symbols, one line per public event, the copyable
result and the named transfers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core.protocol import Game as EngineGame
from games.engine.core.text import card_text, seat_label
from games.engine.registry import GAMES
from games.history.records import JSON

__all__ = ["card_text", "event_text", "result_text", "step_text", "transfers_named"]

_QUIET_EVENTS = frozenset({"turn", "hand", "dealt", "down_card"})


# --------------------------------------------------------------------------- text
def event_text(
    event: Mapping[str, Any], names: Sequence[str], engine: EngineGame | None = None
) -> str | None:
    """One line for a public event, in English (None for bookkeeping events such as ``turn``):
    the game's own (``engine.event_text``), else ``"<name>: <type> (<fields>)"``.

    >>> from games.engine.tienlen import GAME
    >>> event_text({"type": "cards_played", "seat": 1, "cards": ["3S", "4S", "5S"],
    ...             "combo": "straight", "cut": False}, ["Lan", "Minh"], GAME)
    'Minh played 3♠ 4♠ 5♠ (straight)'
    >>> event_text({"type": "raise", "seat": 0, "amount": 4}, ["Lan"])
    'Lan: raise (amount 4)'
    """
    kind = str(event.get("type", ""))
    if kind in _QUIET_EVENTS:
        return None
    own = engine.event_text(event, names) if engine is not None else None
    if own is not None:
        return own
    if kind in ("game_ended", "hand_ended"):
        winner = seat_label(names, event.get("winner"))
        return f"Game over: {winner} wins" if "winner" in event else "Game over"
    if kind == "action" and isinstance(event.get("action"), str):  # e.g. stud's bets
        kind = str(event["action"])
    scalars = [
        f"{k} {v}"
        for k, v in event.items()
        if k not in ("type", "seat", "action")
        and isinstance(v, (int, float, str))
        and not isinstance(v, bool)
    ]
    who = f"{seat_label(names, event.get('seat'))}: " if "seat" in event else ""
    return f"{who}{kind}" + (f" ({', '.join(scalars[:3])})" if scalars else "")


def step_text(
    events: Sequence[Mapping[str, Any]], names: Sequence[str], engine: EngineGame | None = None
) -> str:
    """The lines of a step's events (:func:`event_text`) joined with ``"; "``."""
    lines = [t for t in (event_text(e, names, engine) for e in events) if t]
    return "; ".join(lines)


def result_text(meta: Mapping[str, Any], *, url: str = "") -> str:
    """The copyable plain-text result of a finished game (the seed's "share result").

    >>> print(result_text({"table": {"name": "Bàn 1"}, "number": 2, "games": 16,
    ...     "players": [{"name": "Lan"}, {"name": "Minh"}],
    ...     "result": {"winner": 0, "ranking": [0, 1], "scores": [8, -8],
    ...                "transfers": [{"from": 1, "to": 0, "points": 8, "reason": "cards"}]}}))
    Bàn 1 — game 2 of 16
    Winner: Lan
    1. Lan +8
    2. Minh -8
      Minh → Lan: 8 (cards)
    """
    names = [str(p.get("name")) for p in meta.get("players") or []]

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    lines = [f"{meta['table']['name']} — game {meta['number']} of {meta['games']}"]
    result = meta.get("result")
    if not isinstance(result, Mapping):
        lines.append("In progress")
    else:
        scores = result.get("scores") or []
        lines.append(f"Winner: {name(result.get('winner'))}")
        ranking = result.get("ranking") or list(range(len(scores)))
        for place, seat in enumerate(ranking, start=1):
            score = scores[seat] if isinstance(seat, int) and seat < len(scores) else 0
            lines.append(f"{place}. {name(seat)} {score:+d}")
        for t in result.get("transfers") or []:
            lines.append(
                f"  {name(t.get('from'))} → {name(t.get('to'))}: {t.get('points')} "
                f"({t.get('reason')})"
            )
    if url:
        lines.append(url)
    return "\n".join(lines)


def transfers_named(meta: Mapping[str, Any]) -> list[JSON]:
    """The result's transfers with the players' names and a readable reason (the game's
    ``reason_labels``; a reason without one shows its code).

    >>> transfers_named({"engine": "tienlen", "players": [{"name": "Lan"}, {"name": "Bo"}],
    ...     "result": {"transfers": [{"from": 1, "to": 0, "points": 2, "reason": "chat"}]}})
    [{'from': 'Bo', 'to': 'Lan', 'points': 2, 'reason': 'chat', 'label': 'chặt (cut)'}]
    """
    names = [str(p.get("name")) for p in meta.get("players") or []]
    engine = GAMES.get(str(meta.get("engine")))
    labels = engine.reason_labels if engine is not None else {}
    result = meta.get("result") if isinstance(meta.get("result"), Mapping) else {}
    assert isinstance(result, Mapping)

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    return [
        {
            "from": name(t.get("from")),
            "to": name(t.get("to")),
            "points": t.get("points"),
            "reason": t.get("reason"),
            "label": labels.get(str(t.get("reason")), str(t.get("reason"))),
        }
        for t in result.get("transfers") or []
        if isinstance(t, Mapping)
    ]
