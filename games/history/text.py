"""Readable text of a game: cards with suit symbols, one line per public event, the copyable
result and the named transfers."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext, pgettext_lazy

from games.engine.core.protocol import Game as EngineGame
from games.engine.core.text import card_text, seat_label
from games.engine.registry import GAMES
from games.history.records import JSON

__all__ = [
    "card_text",
    "event_text",
    "result_text",
    "step_text",
    "transfers_named",
    "translate_steps",
]

_QUIET_EVENTS = frozenset({"turn", "hand", "dealt", "down_card"})


# --------------------------------------------------------------------------- text
#: The generic history line's English templates (:func:`event_text`); the site translates
#: them at display time.
GENERIC_MESSAGES: dict[str, str] = {
    "game_over_winner": gettext_noop("Game over: {name} wins"),
    "game_over": gettext_noop("Game over"),
    "dealt": gettext_noop("The cards are dealt"),
}

#: Readable names of the events and actions a generic line names (context ``history
#: event``); an event without one shows its type.
EVENT_LABELS: dict[str, Any] = {
    # stud
    "hand_started": pgettext_lazy("history event", "hand_started"),
    "bring_in": pgettext_lazy("history event", "bring_in"),
    "complete": pgettext_lazy("history event", "complete"),
    "bet": pgettext_lazy("history event", "bet"),
    "raise": pgettext_lazy("history event", "raise"),
    "call": pgettext_lazy("history event", "call"),
    "check": pgettext_lazy("history event", "check"),
    "fold": pgettext_lazy("history event", "fold"),
    "allin": pgettext_lazy("history event", "allin"),
    "returned": pgettext_lazy("history event", "returned"),
    "street_ended": pgettext_lazy("history event", "street_ended"),
    "showdown": pgettext_lazy("history event", "showdown"),
    # diu
    "stock_batch": pgettext_lazy("history event", "stock_batch"),
    "discarded": pgettext_lazy("history event", "discarded"),
    "passed": pgettext_lazy("history event", "passed"),
    "declined": pgettext_lazy("history event", "declined"),
    "accepted": pgettext_lazy("history event", "accepted"),
    "no_claim": pgettext_lazy("history event", "no_claim"),
    "card_open": pgettext_lazy("history event", "card_open"),
    "chi": pgettext_lazy("history event", "chi"),
    "kuai": pgettext_lazy("history event", "kuai"),
    "shui": pgettext_lazy("history event", "shui"),
    "diu": pgettext_lazy("history event", "diu"),
    "hard_pair": pgettext_lazy("history event", "hard_pair"),
    "hard_triple": pgettext_lazy("history event", "hard_triple"),
    "hard_shui": pgettext_lazy("history event", "hard_shui"),
}

#: Readable names of the fields a generic line shows (context ``history field``).
FIELD_LABELS: dict[str, Any] = {
    "amount": pgettext_lazy("history field", "amount"),
    "total": pgettext_lazy("history field", "total"),
    "street": pgettext_lazy("history field", "street"),
    "players": pgettext_lazy("history field", "players"),
    "button": pgettext_lazy("history field", "button"),
    "bring_in_seat": pgettext_lazy("history field", "bring_in_seat"),
    "stage": pgettext_lazy("history field", "stage"),
    "card": pgettext_lazy("history field", "card"),
    "source": pgettext_lazy("history field", "source"),
    "index": pgettext_lazy("history field", "index"),
    "count": pgettext_lazy("history field", "count"),
    "delivered": pgettext_lazy("history field", "delivered"),
    "first": pgettext_lazy("history field", "first"),
}


def _format(template: str | tuple[str, str], params: Mapping[str, Any], *, translate: bool) -> str:
    """``template`` (a (singular, plural) pair by ``params["n"]``) with ``params``: English,
    or in the active language with ``translate``."""
    n = params.get("n")
    if isinstance(template, tuple):
        if translate and isinstance(n, int) and not isinstance(n, bool):
            text = ngettext(template[0], template[1], n)
        else:
            text = template[0] if n == 1 else template[1]
            text = gettext(text) if translate else text
    else:
        text = gettext(template) if translate else template
    return text.format_map({k: "" if v is None and translate else v for k, v in params.items()})


def event_text(
    event: Mapping[str, Any],
    names: Sequence[str],
    engine: EngineGame | None = None,
    *,
    translate: bool = False,
) -> str | None:
    """One line for a public event, in English or (``translate``) the active language (None
    for bookkeeping events such as ``turn``): the game's own (``engine.event_line``, formatted
    here), else ``"<name>: <type> (<fields>)"``. The English form is what exports keep: the
    generic line for a game whose lines are for display only (``export_event_lines`` False).

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
    if engine is not None and (translate or engine.export_event_lines):
        line = engine.event_line(event, names)
        if line is not None:
            return _format(line[0], line[1], translate=translate)
        own = engine.event_text(event, names)  # a game with only an English line
        if own is not None:
            return own
    if kind in ("game_ended", "hand_ended"):
        if "winner" in event:
            params = {"name": seat_label(names, event.get("winner"))}
            return _format(GENERIC_MESSAGES["game_over_winner"], params, translate=translate)
        return _format(GENERIC_MESSAGES["game_over"], {}, translate=translate)
    if kind == "action" and isinstance(event.get("action"), str):  # e.g. stud's bets
        kind = str(event["action"])
    scalars = [
        (k, v)
        for k, v in event.items()
        if k not in ("type", "seat", "action")
        and isinstance(v, (int, float, str))
        and not isinstance(v, bool)
    ]

    def label(labels: Mapping[str, Any], context: str, key: str) -> str:
        return pgettext(context, key) if translate and key in labels else key

    fields = [f"{label(FIELD_LABELS, 'history field', k)} {v}" for k, v in scalars[:3]]
    action = label(EVENT_LABELS, "history event", kind)
    who = f"{seat_label(names, event.get('seat'))}: " if "seat" in event else ""
    return f"{who}{action}" + (f" ({', '.join(fields)})" if fields else "")


def step_text(
    events: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    engine: EngineGame | None = None,
    *,
    translate: bool = False,
) -> str:
    """The lines of a step's events (:func:`event_text`) joined with ``"; "``."""
    lines = [t for t in (event_text(e, names, engine, translate=translate) for e in events) if t]
    return "; ".join(lines)


def translate_steps(
    steps: Sequence[MutableMapping[str, Any]],
    names: Sequence[str],
    engine: EngineGame | None,
) -> None:
    """Rewrite each replay step's ``text`` in the active language, from its ``events`` (the
    replay page and its JSON; exports keep the English text of :func:`step_text`)."""
    for step in steps:
        events = step.get("events")
        if not isinstance(events, list):
            continue
        text = step_text(events, names, engine, translate=True)
        if not text and step.get("index") == 0:
            text = gettext(GENERIC_MESSAGES["dealt"])
        step["text"] = text


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

    lines = [
        f"{meta['table']['name']} — game {meta.get('position', meta['number'])} of {meta['games']}"
    ]
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
