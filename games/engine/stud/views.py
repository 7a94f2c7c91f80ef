"""Per-seat views, the bot API ``gameState``, and parsing a bot's return.

Up cards are shown to everyone; down cards only to their owner. At a showdown the hands of the
players still in are shown to all; a folded hand, and the hand of a player who won because
everyone else folded, stay hidden.

>>> from games.engine.stud.rules import new_game
>>> s = new_game({"players": 3, "cards": [["2C", "3C", "4C"], ["2D", "3D", "4D"],
...                                       ["2H", "3H", "4H"]]}, seed=8)
>>> view(s, 0)["seats"][1]["cards"], view(s, 0)["hand"]
([None, None, '4D'], ['2C', '3C', '4C'])
>>> view(s, None)["hand"] is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import IllegalActionError
from games.engine.core.protocol import Action
from games.engine.stud.cards import (
    card_dict,
    card_id,
    cards_to_ids,
    showing_name,
    showing_ranks,
)
from games.engine.stud.rules import (
    ACTIONS,
    UP_POSITIONS,
    check,
    open_pair,
    result,
    round_status,
    up_cards,
    your_turn,
)
from games.engine.stud.showdown import side_pots
from games.engine.stud.state import RULES_VERSION, StudState

__all__ = ["bot_view", "parse_bot_move", "seat_cards", "street_actions", "view"]


def _shown(st: StudState, owner: int, seat: int | None) -> bool:
    return owner == seat or (st.showdown and st.active[owner] and not st.folded[owner])


def seat_cards(st: StudState, owner: int, seat: int | None) -> list[str | None]:
    """``owner``'s dealt cards in deal order as ``seat`` sees them (hidden ones are None).

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 2, "cards": [["2C", "3C", "4C"], ["2D", "3D", "4D"]]}, 1)
    >>> seat_cards(s, 1, 0), seat_cards(s, 1, 1)
    ([None, None, '4D'], ['2D', '3D', '4D'])
    """
    shown = _shown(st, owner, seat)
    return [
        card_id(c) if shown or i in UP_POSITIONS else None
        for i, c in enumerate(st.cards[owner][: st.dealt[owner]])
    ]


def street_actions(st: StudState) -> list[dict[str, Any]]:
    """The actions of the current street, public.

    >>> from games.engine.stud.rules import new_game
    >>> street_actions(new_game({"players": 2}, 1))
    []
    """
    start = st.street_start[-1] if st.street_start else 0
    return [{"seat": s, "action": a, "auto": auto} for s, a, auto, _ in st.log[start:]]


def view(st: StudState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) may see, as a JSON-able dict.

    >>> from games.engine.stud.rules import new_game
    >>> v = view(new_game({"players": 2, "stacks": [50, 60]}, seed=3), 1)
    >>> v["stacks"], v["pots"], v["round"], v["street"]
    ([49, 59], [{'amount': 2, 'eligible': [0, 1]}], 0, 3)
    """
    n = st.players
    own = seat is not None and 0 <= seat < n
    me = seat if own else None
    cfg = st.config
    status = round_status(st)
    return {
        "game": "stud",
        "rules_version": RULES_VERSION,
        "players": n,
        "seat": me,
        "options": {
            "ante": cfg["ante"],
            "bring_in": cfg["bring_in"],
            "small_bet": cfg["small_bet"],
            "big_bet": cfg["big_bet"],
            "turn_seconds": cfg["turn_seconds"],
        },
        "button": cfg["button"],
        "street": st.street,
        "round": st.street - 3,
        "bring_in_seat": st.bring_in_seat,
        "hand": seat_cards(st, me, me) if me is not None and st.active[me] else None,
        "seats": [
            {
                "seat": s,
                "active": st.active[s],
                "folded": st.folded[s],
                "all_in": st.active[s] and not st.folded[s] and st.stacks[s] == 0,
                "stack": st.stacks[s],
                "bet": st.round_bets[s],
                "contributed": st.contrib[s],
                "cards": seat_cards(st, s, me),
                "up": cards_to_ids(up_cards(st, s)),
                "showing": showing_name(up_cards(st, s)) if st.active[s] else None,
                "showing_ranks": showing_ranks(up_cards(st, s)) if st.active[s] else None,
            }
            for s in range(n)
        ],
        "stacks": list(st.stacks),
        "pots": side_pots(st, collected=False),
        "round_bets": list(st.round_bets),
        "current_bet": st.current_bet,
        "bet_size": st.bet_size,
        "raise_count": max(st.bets_made - 1, 0),
        "open_pair": open_pair(st),
        "street_actions": street_actions(st),
        "turn": None if st.finished or st.turn < 0 else st.turn,
        "your_turn": your_turn(st, me) if me is not None else None,
        "turn_started_at": st.turn_started_at,
        "deadline": status.check_at,
        "finished": st.finished,
        "result": result(st),
    }


def _cards(st: StudState, owner: int, seat: int) -> list[dict[str, Any] | None]:
    shown = _shown(st, owner, seat)
    return [
        card_dict(c) if shown or i in UP_POSITIONS else None
        for i, c in enumerate(st.cards[owner][: st.dealt[owner]])
    ]


def bot_view(st: StudState, seat: int, session_scores: list[int] | None = None) -> dict[str, Any]:
    """The stud ``gameState`` for a bot in ``seat`` (docs/bot-api.md): the ``your_turn``
    fields, every seat's visible cards, the bot's own down cards, pots and stacks.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 3}, seed=2)
    >>> g = bot_view(s, s.turn)
    >>> g["yourTurn"]["legal_actions"], len(g["myCards"]), g["players"][s.turn - 1]["cards"][0]
    (['bring_in', 'complete'], 3, None)
    """
    n = st.players
    cfg = st.config
    mine = st.cards[seat][: st.dealt[seat]] if 0 <= seat < n else []
    return {
        "game": "stud",
        "myPosition": seat,
        "myCards": [card_dict(c) for c in mine],
        "myDownCards": [card_dict(c) for i, c in enumerate(mine) if i not in UP_POSITIONS],
        "yourTurn": your_turn(st, seat),
        "validMoves": [{"action": a} for a in (your_turn(st, seat) or {}).get("legal_actions", [])],
        "currentTurn": None if st.finished or st.turn < 0 else st.turn,
        "street": st.street,
        "button": cfg["button"],
        "bringInSeat": st.bring_in_seat,
        "players": [
            {
                "seat": s,
                "inHand": st.active[s] and not st.folded[s],
                "folded": st.folded[s],
                "allIn": st.active[s] and not st.folded[s] and st.stacks[s] == 0,
                "stack": st.stacks[s],
                "bet": st.round_bets[s],
                "contributed": st.contrib[s],
                "cards": _cards(st, s, seat),
                "upCards": [card_dict(c) for c in up_cards(st, s)],
                "showing": showing_name(up_cards(st, s)) if st.active[s] else None,
            }
            for s in range(n)
        ],
        "pots": side_pots(st, collected=False),
        "stacks": list(st.stacks),
        "currentBet": st.current_bet,
        "streetActions": street_actions(st),
        "metadata": {
            "gameOver": st.finished,
            "players": n,
            "rulesVersion": RULES_VERSION,
        },
        "scores": {"session": session_scores},
        "rules": {
            "ante": cfg["ante"],
            "bringIn": cfg["bring_in"],
            "smallBet": cfg["small_bet"],
            "bigBet": cfg["big_bet"],
            "turnSeconds": cfg["turn_seconds"],
            "botSeconds": 5,
        },
    }


def parse_bot_move(st: StudState, seat: int, obj: object) -> Action:
    """Turn a bot's return (``{"action": "call"}``) into an engine action, validated against
    the state: ``bad_bot_move`` when malformed, else the code :func:`check` raises.

    >>> from games.engine.stud.rules import new_game
    >>> s = new_game({"players": 3}, seed=2)
    >>> parse_bot_move(s, s.turn, {"action": "bring_in"}) == {"type": "bring_in", "seat": s.turn}
    True
    >>> parse_bot_move(s, s.turn, {"action": "check"})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: illegal_action: legal now: bring_in, complete
    >>> parse_bot_move(s, s.turn, "call")
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_bot_move: a move must be an object
    """
    if not isinstance(obj, Mapping):
        raise IllegalActionError("bad_bot_move", "a move must be an object")
    name = obj.get("action")
    if name not in ACTIONS:
        raise IllegalActionError("bad_bot_move", f"action must be one of {', '.join(ACTIONS)}")
    check(st, seat, str(name))
    return {"type": str(name), "seat": seat}
