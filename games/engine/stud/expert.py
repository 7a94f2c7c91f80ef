"""The expert stud house AI: Monte-Carlo equity against each opponent's shown cards.

It decides from one seat's view only (:func:`games.engine.stud.views.view`) plus the public
action log, so it never sees another seat's down cards. For each sample it deals the unseen
cards (everything not in its own hand and not face up anywhere, folded hands' up cards
included) to the live opponents and to itself up to seven cards each, ranks the seven-card
hands with phevaluator (a perfect-hash evaluator in C) and counts its share of the pot.
Each opponent's sampled hand is weighted by how well it fits that opponent's betting: a
bet, raise or completion makes strong holdings likelier, a call mildly so.

The action follows from the equity and the fixed-limit pot odds: fold when the equity is
below the price of a call, call when it pays, bet or raise when the equity beats the fair
share of the live players by a margin. Sampling stops after ``iterations`` deals or when
``budget_ms`` milliseconds of the injected ``clock`` have passed, whichever is first; with the
same seed and no time budget (``budget_ms=None``) the decision is reproducible.

>>> from games.engine.stud.rules import new_game
>>> from games.engine.stud.views import view
>>> s = new_game({"players": 3}, seed=2)
>>> d = decide(view(s, s.turn), [], seed=1, budget_ms=None, iterations=400)
>>> d.action["type"] in ("bring_in", "complete"), d.samples, 0.0 <= d.equity <= 1.0
(True, 400, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from phevaluator.evaluator import evaluate_cards  # type: ignore[import-untyped]

from games.engine.core.protocol import Action
from games.engine.stud.cards import ids_to_cards, showing_key

__all__ = [
    "CHECK_EVERY",
    "DEFAULT_BUDGET_MS",
    "MAX_SAMPLES",
    "Decision",
    "decide",
    "equity",
]

#: Thinking time of one move when the caller gives none (milliseconds of the injected clock).
DEFAULT_BUDGET_MS = 300.0
#: Sampled deals of one move when the caller gives no iteration cap (about 20 ms with three
#: opponents on one core of the benchmark machine, so the time budget rarely binds).
MAX_SAMPLES = 2000
#: The clock is read once every this many samples.
CHECK_EVERY = 32

_AGGRESSIVE = frozenset({"complete", "bet", "bet_big", "raise"})


@dataclass(frozen=True, slots=True)
class Decision:
    """The chosen action, the weighted equity (share of the pot at showdown, 0..1) and the
    number of sampled deals it rests on."""

    action: Action
    equity: float
    samples: int


def _strength(cards: Sequence[int]) -> float:
    """A quick strength of partial holdings (for weighting ranges): the showing class of the
    cards (pairs, trips …) plus the top group's rank, and a bonus for four to a flush."""
    cls, ranks = showing_key(cards)
    value = (0.0, 1.0, 2.0, 3.0, 7.0)[cls] + (ranks[0] / 13 if ranks else 0.0)
    suits = [0, 0, 0, 0]
    for c in cards:
        suits[c & 3] += 1
    if max(suits) >= 4:
        value += 0.8
    return value


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _fit(strength: float, raises: int, calls: int) -> float:
    """How likely holdings of this strength make the betting seen: each bet or raise favours
    a pair of tens or better, calls mildly favour any pair or draw."""
    bet = math.pow(_sigmoid(2.2 * (strength - 1.4)), min(raises, 4))
    call = math.pow(0.4 + _sigmoid(2.0 * (strength - 0.6)), 0.5 * min(calls, 3))
    return bet * call


def equity(
    mine: Sequence[int],
    opponents: Sequence[Sequence[int]],
    dead: Sequence[int],
    rng: random.Random,
    *,
    aggression: Sequence[tuple[int, int]] | None = None,
    dealt: Sequence[int] | None = None,
    iterations: int = MAX_SAMPLES,
    budget_ms: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, int]:
    """Weighted Monte-Carlo equity of ``mine`` (own cards so far) against live opponents whose
    known cards are ``opponents`` (their up cards), every seat ending with seven cards.
    ``dead``: other cards seen. ``aggression``: per opponent, its bets and raises and its calls
    this hand; ``dealt``: per opponent, the cards it holds now (the weighting judges those).
    Returns ``(equity, samples)``.

    >>> from games.engine.stud.cards import ids_to_cards
    >>> aces = ids_to_cards(["AS", "AH", "AD", "AC", "KS", "KH", "KD"])
    >>> e, n = equity(aces, [ids_to_cards(["2C", "7D", "9H", "JC"])], [], random.Random(1),
    ...               iterations=50)
    >>> e, n
    (1.0, 50)
    """
    known = set(mine) | set(dead)
    for opp in opponents:
        known.update(opp)
    unseen = [c for c in range(52) if c not in known]
    need_me = 7 - len(mine)
    needs = [7 - len(o) for o in opponents]
    total_need = need_me + sum(needs)
    if total_need > len(unseen):  # never with seven seats or fewer; guard anyway
        needs = [max(0, min(n, (len(unseen) - need_me) // max(len(opponents), 1))) for n in needs]
        total_need = need_me + sum(needs)
    aggr = list(aggression) if aggression is not None else [(0, 0)] * len(opponents)
    now = list(dealt) if dealt is not None else [len(o) for o in opponents]
    mine_l = list(mine)
    start = clock()
    budget = None if budget_ms is None else budget_ms / 1000.0
    won = 0.0
    weight_sum = 0.0
    samples = 0
    sample = rng.sample
    while samples < iterations:
        if (
            budget is not None
            and samples % CHECK_EVERY == 0
            and samples
            and clock() - start >= budget
        ):
            break
        drawn = sample(unseen, total_need)
        mine_full = mine_l + drawn[:need_me]
        pos = need_me
        my_rank = evaluate_cards(*mine_full)
        best = my_rank
        ties = 1
        weight = 1.0
        for k, opp in enumerate(opponents):
            hand = [*opp, *drawn[pos : pos + needs[k]]]
            pos += needs[k]
            raises, calls = aggr[k]
            if raises or calls:
                weight *= _fit(_strength(hand[: max(now[k], len(opp))]), raises, calls)
            if len(hand) < 5:
                continue
            r = evaluate_cards(*hand)
            if r < best:
                best = r
                ties = 1
            elif r == best:
                ties += 1
        samples += 1
        weight_sum += weight
        if best == my_rank:
            won += weight / ties
    if weight_sum <= 0:
        return 0.0, samples
    return won / weight_sum, samples


def _aggression(log: Sequence[tuple[int, str]], seat: int) -> tuple[int, int]:
    raises = sum(1 for s, a in log if s == seat and a in _AGGRESSIVE)
    calls = sum(1 for s, a in log if s == seat and a == "call")
    return raises, calls


def decide(
    view: Mapping[str, Any],
    log: Sequence[tuple[int, str]],
    *,
    seed: int | str,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Decision:
    """The expert's move from ``view`` (the acting seat's :func:`~games.engine.stud.views.view`)
    and ``log`` (the hand's public actions as ``(seat, action)``).

    >>> from games.engine.stud.rules import new_game
    >>> from games.engine.stud.views import view
    >>> s = new_game({"players": 2, "cards": [["AS", "AH", "2C"], ["KD", "QD", "9H"]]}, 3)
    >>> decide(view(s, s.turn), [], seed=0, budget_ms=None, iterations=200).action["type"]
    'complete'
    """
    me = view["seat"]
    turn = view["your_turn"]
    if me is None or turn is None:
        raise ValueError("the view is not of the seat to act")
    names: list[str] = list(turn["legal_actions"])
    mine = ids_to_cards(view["hand"])
    opponents: list[list[int]] = []
    dealt: list[int] = []
    aggression: list[tuple[int, int]] = []
    dead: list[int] = []
    for seat in view["seats"]:
        s = seat["seat"]
        if s == me:
            continue
        visible = ids_to_cards(c for c in seat["cards"] if c is not None)
        if seat["active"] and not seat["folded"]:
            opponents.append(visible)
            dealt.append(len(seat["cards"]))
            aggression.append(_aggression(log, s))
        else:
            dead.extend(visible)
    rng = random.Random(f"stud-expert:{seed}")
    eq, samples = equity(
        mine,
        opponents,
        dead,
        rng,
        aggression=aggression,
        dealt=dealt,
        iterations=MAX_SAMPLES if iterations is None else iterations,
        budget_ms=budget_ms,
        clock=clock,
    )
    pot = sum(seat["contributed"] for seat in view["seats"])
    name = _choose(names, eq, len(opponents), pot, turn, int(view["street"]))
    return Decision({"type": name, "seat": me}, eq, samples)


def _choose(
    names: Sequence[str],
    eq: float,
    opponents: int,
    pot: int,
    turn: Mapping[str, Any],
    street: int,
) -> str:
    """Fixed-limit play by equity: value bets and raises above the fair share by a margin,
    calls when the pot pays the price (a little more early, when later streets cost more)."""
    fair = 1.0 / (opponents + 1)
    strong = eq >= max(fair * 1.45, fair + 0.12)
    to_call = int(turn["amount_to_call"])
    if "bring_in" in names:
        return "complete" if strong and "complete" in names else "bring_in"
    if to_call <= 0:
        if strong or (street < 7 and eq >= fair * 1.25 and opponents == 1):
            for name in ("bet_big", "bet"):
                if name in names:
                    return name
        return "check"
    if strong and eq >= fair * 1.6:
        for name in ("raise", "complete"):
            if name in names:
                return name
    price = to_call / (pot + to_call)
    future = {3: 0.12, 4: 0.08, 5: 0.05, 6: 0.03}.get(street, 0.0)
    if eq >= price + future:
        return "call"
    return "fold" if "fold" in names else names[0]
