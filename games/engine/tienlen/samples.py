"""Tiến Lên's Test Bot samples: scripted deals and plays, each a situation a bot author meets
(the opening lead with 3♠, following singles, pairs and straights, cutting a 2, a forced pass,
a new round's leader…), rather than the core's played samples (see
:mod:`games.engine.core.samples`). Deterministic: each deal is shuffled by a
``random.Random`` seeded with the sample's key and attempt, never the process's randomness.

>>> cases = bot_samples()
>>> len(cases) >= 10, cases[0].key
(True, 'opening_lead')
>>> views.bot_view(cases[0].state, cases[0].seat)["metadata"]["isFirstTurn"]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.core.samples import BotSample, Line, line
from games.engine.core.text import card_text, gettext_noop
from games.engine.tienlen import rules, views
from games.engine.tienlen.cards import CARD_IDS

__all__ = ["bot_samples", "sample_situation"]

Script = Sequence[tuple[int, Sequence[str] | None]]  # (seat, cards) or (seat, None) = pass
Check = Callable[[dict[str, Any]], bool]


def _build(
    key: str,
    title: str,
    description: str,
    *,
    players: int = 4,
    fixed: Sequence[Sequence[str]] = (),
    script: Script = (),
    config: dict[str, Any] | None = None,
    check: Check | None = None,
) -> BotSample:
    """Deal ``fixed`` cards to the first seats, fill every hand to 13 from a seeded shuffle of
    the rest (the first seed whose deal has no instant win and passes ``check``), then play
    ``script``. The seat to act afterwards is the sample's bot."""
    taken = {c for hand in fixed for c in hand}
    rest = [c for c in CARD_IDS if c not in taken]
    for attempt in range(500):
        rng = random.Random(f"{key}/{attempt}")
        pool = rest[:]
        rng.shuffle(pool)
        hands: list[list[str]] = []
        for seat in range(players):
            hand = list(fixed[seat]) if seat < len(fixed) else []
            need = 13 - len(hand)
            hand += pool[:need]
            del pool[:need]
            hands.append(hand)
        cfg: dict[str, Any] = {"players": players, "hands": hands, **(config or {})}
        state = rules.new_game(cfg, seed=attempt)
        if state.finished:  # an instant win: deal again
            continue
        try:
            for seat, cards in script:
                action: dict[str, Any] = (
                    {"type": "pass", "seat": seat}
                    if cards is None
                    else {"type": "play", "seat": seat, "cards": list(cards)}
                )
                state, _ = rules.apply(state, action)
        except ValueError:
            continue  # the shuffle gave someone a card that changes the script's legality
        seat = state.turn
        if state.finished or (check is not None and not check(views.bot_view(state, seat))):
            continue
        return BotSample(key, line(title), line(description), state, seat)
    raise RuntimeError(f"sample {key!r}: no deal satisfies its checks")  # pragma: no cover


def _has_type(kind: str) -> Check:
    return lambda v: any(m["type"] == kind for m in v["validMoves"])


def _no_cut(v: dict[str, Any]) -> bool:
    return not v["validMoves"]


STRAIGHT_3_TO_K = ["3S", "4C", "5D", "6H", "7S", "8C", "9D", "10H", "JS", "QC", "KD"]


def bot_samples() -> list[BotSample]:
    opening = {"opening": True}
    return [
        _build(
            "opening_lead",
            gettext_noop("Opening lead with 3♠"),
            gettext_noop(
                "The first play of the game: you hold 3♠ and must lead a combination containing it."
            ),
            fixed=[["3S", "3C", "4D", "5H", "6S"]],
            config=opening,
            check=lambda v: v["mustInclude"] is not None and not v["canPass"],
        ),
        _build(
            "follow_single",
            gettext_noop("Follow a single"),
            gettext_noop("Seat 0 opened with 3♠; beat it with a higher single or pass."),
            fixed=[["3S"], ["4S", "9H", "KC"]],
            script=[(0, ["3S"])],
            config=opening,
            check=_has_type("single"),
        ),
        _build(
            "follow_pair",
            gettext_noop("Follow a pair"),
            gettext_noop("Seat 2 led a pair of 7s; you need a higher pair (or pass)."),
            fixed=[[], [], ["7S", "7C"], ["8D", "8H", "QS", "QC"]],
            script=[(2, ["7S", "7C"])],
            config={"opening": False, "leader": 2},
            check=_has_type("pair"),
        ),
        _build(
            "follow_straight",
            gettext_noop("Follow a straight"),
            gettext_noop(
                "Seat 0 opened with the straight 3-4-5; beat it with a higher 3-card straight."
            ),
            fixed=[["3S", "4C", "5D"], ["4S", "5S", "6C", "7D"]],
            script=[(0, ["3S", "4C", "5D"])],
            config=opening,
            check=_has_type("straight"),
        ),
        _build(
            "cut_a_two",
            gettext_noop("Facing a 2, with a cut"),
            gettext_noop(
                "Seat 0 led the single 2♠. You hold 3 đôi thông and tứ quý: "
                "either one cuts (chặt) it."
            ),
            fixed=[["2S"], ["5S", "5C", "6S", "6C", "7S", "7C", "9S", "9C", "9D", "9H"]],
            script=[(0, ["2S"])],
            config={"opening": False, "leader": 0},
            check=lambda v: _has_type("pairs_run")(v) and _has_type("four")(v),
        ),
        _build(
            "must_pass",
            gettext_noop("Nothing beats: pass"),
            gettext_noop(
                "Seat 0 led 2♥, the strongest card, and you have no cut: your only move is to pass."
            ),
            fixed=[["2H"]],
            script=[(0, ["2H"])],
            config={"opening": False, "leader": 0},
            check=_no_cut,
        ),
        _build(
            "new_round_leader",
            gettext_noop("Leader of a new round"),
            gettext_noop("Everyone passed on your 3♠: you lead the next round and may not pass."),
            fixed=[["3S"]],
            script=[(0, ["3S"]), (1, None), (2, None), (3, None)],
            config=opening,
            check=lambda v: not v["canPass"] and v["metadata"]["round"] == 1,
        ),
        _build(
            "opponent_one_card",
            gettext_noop("Endgame: an opponent has one card left"),
            gettext_noop(
                "Seat 0 played a long straight, then led 6♣ with one card left. "
                "Stop them if you can."
            ),
            fixed=[[*STRAIGHT_3_TO_K, "6C", "9S"]],
            script=[(0, STRAIGHT_3_TO_K), (1, None), (2, None), (3, None), (0, ["6C"])],
            config=opening,
            check=lambda v: v["playerCardCounts"][0] == 1 and bool(v["validMoves"]),
        ),
        _build(
            "last_two_cards",
            gettext_noop("Endgame: your last two cards"),
            gettext_noop(
                "You played a long straight and everyone passed; two cards left, and you lead."
            ),
            fixed=[[*STRAIGHT_3_TO_K, "5H", "2D"]],
            script=[(0, STRAIGHT_3_TO_K), (1, None), (2, None), (3, None)],
            config=opening,
            check=lambda v: len(v["myCards"]) == 2 and not v["canPass"],
        ),
        _build(
            "hidden_counts",
            gettext_noop("Hand counts hidden"),
            gettext_noop(
                "The table hides hand counts: opponents' entries in playerCardCounts are null."
            ),
            fixed=[["3S"]],
            script=[(0, ["3S"])],
            config={**opening, "hide_hand_counts": True},
            check=lambda v: v["playerCardCounts"].count(None) == 3,
        ),
        _build(
            "two_players",
            gettext_noop("Two-player table"),
            gettext_noop(
                "Only two seats; the opening play must contain the lowest dealt card (mustInclude)."
            ),
            players=2,
            fixed=[["4S", "4H", "5C"], ["JS", "QS"]],
            config=opening,
            check=lambda v: v["metadata"]["players"] == 2 and v["mustInclude"] is not None,
        ),
        _build(
            "three_players",
            gettext_noop("Three-player table, follow a pair"),
            gettext_noop("Three seats: seat 1 led a pair of 9s, seat 2 passed; beat it or pass."),
            players=3,
            fixed=[["JD", "JH", "KS"], ["9S", "9D"], []],
            script=[(1, ["9S", "9D"]), (2, None)],
            config={"opening": False, "leader": 1},
            check=lambda v: v["metadata"]["players"] == 3 and v["myPosition"] == 0,
        ),
    ]


def sample_situation(view: Mapping[str, Any]) -> tuple[list[str], Line]:
    """The bot's cards and the play to beat (or that it leads, and the card it must include)."""
    hand = [card_text(c["id"]) for c in view["myCards"]]
    last = view["lastPlay"]
    if last is None:
        must = view["mustInclude"]
        table = (
            line(gettext_noop("You lead"))
            if must is None
            else line(gettext_noop("You lead; include {card}"), card=card_text(must["id"]))
        )
    else:
        table = line(
            gettext_noop("Seat {seat} played {type} {cards}"),
            seat=str(last["player"]),
            type=str(last["type"]),
            cards=" ".join(card_text(c["id"]) for c in last["cards"]),
        )
    return hand, table
