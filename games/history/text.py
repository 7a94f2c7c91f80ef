"""Readable text of a game: cards with suit symbols, one line per public event, the copyable
result and the named transfers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.history.records import JSON

_SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


# --------------------------------------------------------------------------- text
def card_text(card: Any) -> str:
    """``"10H"`` → ``"10♥"``; anything else as it is.

    >>> card_text("10H"), card_text("AS"), card_text(None)
    ('10♥', 'A♠', '?')
    """
    if not isinstance(card, str) or len(card) < 2:
        return "?" if card is None else str(card)
    return card[:-1] + _SUITS.get(card[-1], card[-1])


def _cards(cards: Any) -> str:
    return " ".join(card_text(c) for c in cards) if isinstance(cards, list) else ""


_QUIET_EVENTS = frozenset({"turn", "hand", "dealt", "down_card"})


def event_text(event: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One line for a public event, in English (None for bookkeeping events such as ``turn``).
    Events of other games fall back to ``"<name>: <type>"``.

    >>> event_text({"type": "cards_played", "seat": 1, "cards": ["3S", "4S", "5S"],
    ...             "combo": "straight", "cut": False}, ["Lan", "Minh"])
    'Minh played 3♠ 4♠ 5♠ (straight)'
    >>> event_text({"type": "raise", "seat": 0, "amount": 4}, ["Lan"])
    'Lan: raise (amount 4)'
    """
    kind = str(event.get("type", ""))
    if kind in _QUIET_EVENTS:
        return None

    def name(key: str = "seat") -> str:
        seat = event.get(key)
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return "?"

    if kind == "cards_played":
        cut = " — a cut!" if event.get("cut") else ""
        return f"{name()} played {_cards(event.get('cards'))} ({event.get('combo')}){cut}"
    if kind == "passed":
        return f"{name()} passed" + (" (auto)" if event.get("auto") else "")
    if kind == "cut":
        return f"{name()} cut {name('victim')} for {event.get('points')} points"
    if kind == "chain_void":
        return f"{name()} went out: the cut chain of {event.get('points')} points is void"
    if kind == "player_out":
        return f"{name()} is out (place {event.get('place')})"
    if kind == "round_ended":
        extra = " (hưởng sái)" if event.get("huong_sai") else ""
        rnd = event.get("round")
        number = rnd + 1 if isinstance(rnd, int) else "?"
        return f"{name('winner')} won round {number}{extra}"
    if kind == "instant_win":
        return f"{name()} wins instantly ({event.get('kind')})"
    if kind in ("game_ended", "hand_ended"):
        return f"Game over: {name('winner')} wins" if "winner" in event else "Game over"
    if kind == "action" and isinstance(event.get("action"), str):  # e.g. stud's bets
        kind = str(event["action"])
    scalars = [
        f"{k} {v}"
        for k, v in event.items()
        if k not in ("type", "seat", "action")
        and isinstance(v, (int, float, str))
        and not isinstance(v, bool)
    ]
    who = f"{name()}: " if "seat" in event else ""
    return f"{who}{kind}" + (f" ({', '.join(scalars[:3])})" if scalars else "")


def step_text(events: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """The lines of a step's events joined with ``"; "``."""
    lines = [t for t in (event_text(e, names) for e in events) if t]
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


#: Readable names of the transfer reasons (Tiến Lên's; other games show their own codes).
REASON_LABELS = {
    "cards": "cards left",
    "cong": "cóng (never played)",
    "toi_trang": "tới trắng (instant win)",
    "chat": "chặt (cut)",
    "thui": "thúi (unplayed 2s / bombs)",
    "den_bai": "đền bài (pays for all)",
}


def transfers_named(meta: Mapping[str, Any]) -> list[JSON]:
    """The result's transfers with the players' names and a readable reason."""
    names = [str(p.get("name")) for p in meta.get("players") or []]
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
            "label": REASON_LABELS.get(str(t.get("reason")), str(t.get("reason"))),
        }
        for t in result.get("transfers") or []
        if isinstance(t, Mapping)
    ]
