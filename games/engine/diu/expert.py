"""The expert Diu house AI: every answer judged by the hand it leaves, one claim ahead.

It decides from the seat's bot ``gameState`` only (:func:`games.engine.diu.views.bot_view`:
its own hand, the exposed melds, discards and dead cards, the card under decision, the prompt's
options and the deck's make-up), so it never sees another hand or the stock.

A hand is valued by what it waits on and how many of those cards are still unseen (not in the
hand, a meld, a pile or on the table; they sit in the stock or in other hands):

- *ready* (it could 丢 on some kind): a large base plus the unseen cards of every kind it could
  丢 on;
- *one claim away*: the unseen cards that, claimed with the right hand cards and followed by the
  best discard, would leave it ready (the look-ahead over claims);
- otherwise minus its loose cards (naturals no group can hold once every 听用 has covered one),
  plus the unseen partners of those loose cards.

A discard is chosen by the value of the hand it leaves (ties: the card most seen already, so
the least likely to hand an opponent a claim or a 丢); a claim is made when the claimed hand
after its best discard is worth more than the hand kept by passing, and an offer of that claim
is accepted. A legal 丢 is always taken. Candidates are judged best-guess first; judging stops
after ``iterations`` candidates or once ``budget_ms`` milliseconds of the injected ``clock``
have passed (a candidate cut short is not compared). Nothing is random: with no time budget
(``budget_ms=None``) the answer depends on the ``gameState`` alone.

>>> from games.engine.diu.rules import new_game
>>> from games.engine.diu.views import bot_view
>>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}}, seed=2)
>>> decide(bot_view(s, 0), budget_ms=None).reply["action"]
'discard'
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from games.engine.diu.cards import KINDS, WILD, points, sort_cards
from games.engine.diu.rules import is_complete

__all__ = ["DEFAULT_BUDGET_MS", "Decision", "decide", "loose_count"]

#: Thinking time of one answer when the caller gives none (milliseconds of the injected clock).
DEFAULT_BUDGET_MS = 300.0

_PTS: dict[str, int] = {k: points(k) for k in KINDS}
_READY = 1000.0
_NEAR = 400.0
_LOOSE = 40.0


@dataclass(frozen=True, slots=True)
class Decision:
    """The chosen reply (bot return shape), its value and how many candidates were judged."""

    reply: dict[str, Any]
    value: float
    judged: int


def _same(a: str, b: str, by_points: bool) -> bool:
    if a == WILD or b == WILD:
        return False
    return _PTS[a] == _PTS[b] if by_points else a == b


@lru_cache(maxsize=65536)
def _unmatched(naturals: tuple[str, ...], by_points: bool) -> int:
    """The fewest naturals left alone when ``naturals`` (sorted) split into identical pairs,
    14-pairs and three of a kind."""
    if not naturals:
        return 0
    a, rest = naturals[0], naturals[1:]
    best = 1 + _unmatched(rest, by_points)
    tried: set[str] = set()
    for i, b in enumerate(rest):
        if b in tried:
            continue
        tried.add(b)
        same = _same(a, b, by_points)
        if same or _PTS[a] + _PTS[b] == 14:
            left = rest[:i] + rest[i + 1 :]
            best = min(best, _unmatched(left, by_points))
            if same:
                for j, c in enumerate(left):
                    if _same(a, c, by_points):
                        best = min(best, _unmatched(left[:j] + left[j + 1 :], by_points))
                        break
        if best == 0:
            break
    return best


def loose_count(hand: Sequence[str], same_kind: str = "pips") -> int:
    """The naturals of ``hand`` no group can hold, after each 听用 covered one.

    >>> loose_count(["11", "66", "34", "34", "55", "12"]), loose_count(["55", "12", "W"])
    (2, 1)
    """
    naturals = tuple(sort_cards(c for c in hand if c != WILD))
    wilds = len(hand) - len(naturals)
    return max(0, _unmatched(naturals, same_kind == "points") - wilds)


@lru_cache(maxsize=65536)
def _waits(hand: tuple[str, ...], by_points: bool) -> frozenset[str]:
    """The natural kinds ``hand`` could 丢 on (``*`` for any: a pair of 听用 is spare)."""
    same_kind = "points" if by_points else "pips"
    out: set[str] = set()
    counts = Counter(hand)
    wilds = counts[WILD]
    if wilds >= 2 and is_complete(_minus(hand, (WILD, WILD)), same_kind):
        return frozenset({"*"})
    for k, n in counts.items():
        if k == WILD:
            continue
        pairs: list[tuple[str, str]] = []
        if n >= 2:
            pairs.append((k, k))
        if wilds:
            pairs.append((k, WILD))
        if by_points:
            pairs += [(k, o) for o in counts if o != k and o != WILD and _PTS[o] == _PTS[k]]
        for xy in pairs:
            if is_complete(_minus(hand, xy), same_kind):
                out.update(c for c in KINDS if _same(c, k, by_points))
                break
    return frozenset(out)


def _minus(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    left = list(hand)
    for c in cards:
        left.remove(c)
    return left


@dataclass(slots=True)
class _Judge:
    """Values hands against one set of unseen counts, with memos."""

    unseen: Counter[str]
    by_points: bool
    shapes: Mapping[str, Sequence[int]]
    deadline: float | None = None
    clock: Callable[[], float] = time.perf_counter
    memo: dict[tuple[str, ...], float] = field(default_factory=dict)
    ready_memo: dict[tuple[str, ...], float] = field(default_factory=dict)
    expired: bool = False

    def out_of_time(self) -> bool:
        """True (and remembered) once the deadline has passed."""
        if not self.expired and self.deadline is not None and self.clock() >= self.deadline:
            self.expired = True
        return self.expired

    def outs(self, kinds: frozenset[str]) -> int:
        if "*" in kinds:
            return sum(n for k, n in self.unseen.items() if k != WILD)
        return sum(self.unseen[k] for k in kinds)

    def ready(self, hand: tuple[str, ...]) -> float:
        """Unseen cards this hand could 丢 on (0: not ready)."""
        got = self.ready_memo.get(hand)
        if got is None:
            waits = _waits(hand, self.by_points)
            got = float(self.outs(waits)) if waits else 0.0
            if waits and got == 0:
                got = 0.01  # ready on dead kinds only: better than not ready
            self.ready_memo[hand] = got
        return got

    def claims_for(self, hand: tuple[str, ...], card: str) -> list[tuple[str, ...]]:
        """The hand cards that could claim ``card`` (any claim type of the table's shapes)."""
        out: set[tuple[str, ...]] = set()
        wilds = hand.count(WILD)
        same = [c for c in set(hand) if _same(card, c, self.by_points)]
        chi = [c for c in set(hand) if c != WILD and _PTS[c] + _PTS[card] == 14]
        for kind, (nat, wild) in self.shapes.items():
            if wild > wilds:
                continue
            pool = chi if kind == "chi" else same
            if nat == 0:
                out.add((WILD,) * wild)
            elif nat == 1:
                out.update((c, *(WILD,) * wild) for c in pool)
            elif nat == 2:
                out.update((c, c, *(WILD,) * wild) for c in pool if hand.count(c) >= 2)
        return [c for c in out if len(hand) - len(c) >= 1]

    def value(self, hand: tuple[str, ...]) -> float:
        """The value of holding ``hand`` (sorted) between turns; see the module doc."""
        got = self.memo.get(hand)
        if got is not None:
            return got
        ready = self.ready(hand)
        if ready:
            got = _READY + ready
        else:
            loose = loose_count(hand, "points" if self.by_points else "pips")
            near = self._near(hand) if loose <= 2 else 0.0
            if near:
                got = _NEAR + near - _LOOSE * loose
            else:
                got = -_LOOSE * loose + self._partners(hand) + 2.0 * hand.count(WILD)
        self.memo[hand] = got
        return got

    def _partners(self, hand: tuple[str, ...]) -> float:
        naturals = [c for c in hand if c != WILD]
        total = 0.0
        for c in set(naturals):
            mates = sum(
                n
                for k, n in self.unseen.items()
                if k != WILD and (_same(k, c, self.by_points) or _PTS[k] + _PTS[c] == 14)
            )
            total += min(mates, 6) / 6
        return total

    def _near(self, hand: tuple[str, ...]) -> float:
        """Unseen cards that one claim (then the best discard) would turn into a ready hand.
        Only discards that leave no loose card can leave a ready hand, so only those are
        tried; out of time, the count so far."""
        total = 0.0
        same_kind = "points" if self.by_points else "pips"
        for card in KINDS:
            n = self.unseen[card]
            if not n:
                continue
            if self.out_of_time():
                break
            for cards in self.claims_for(hand, card):
                left = _minus(hand, cards)
                if loose_count(left, same_kind) > 1:
                    continue
                if any(
                    self.ready(rest)
                    for d in set(left)
                    if loose_count(rest := tuple(sort_cards(_minus(left, (d,)))), same_kind) == 0
                ):
                    total += n
                    break
        return total

    def after_claim(self, hand: tuple[str, ...], cards: Sequence[str]) -> float:
        """The value of claiming with ``cards``, then making the best discard."""
        left = _minus(hand, cards)
        naturals = {c for c in left if c != WILD}
        options = naturals or set(left)
        return max(self.value(tuple(sort_cards(_minus(left, (d,))))) for d in options)


def _unseen(game: Mapping[str, Any], hand: Sequence[str]) -> Counter[str]:
    rules = game["rules"]
    deck: Counter[str] = Counter({k: int(rules["copies_per_kind"]) for k in KINDS})
    deck[WILD] = int(rules["wild_count"])
    seen: Counter[str] = Counter(hand)
    seen.update(game["dead"])
    for pile in game["discards"]:
        seen.update(pile)
    for melds in game["melds"]:
        for m in melds:
            seen.update(m["cards"])
    if game.get("card"):
        seen[game["card"]["card"]] += 1
    return Counter({k: max(0, n - seen[k]) for k, n in deck.items()})


def decide(
    game: Mapping[str, Any],
    *,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    iterations: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Decision:
    """The expert's reply to the prompt of ``game`` (a seat's bot ``gameState``).

    >>> from games.engine.diu.rules import apply, new_game
    >>> from games.engine.diu.views import bot_view
    >>> cfg = {"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": ["11"],
    ...        "hands": {"A": ["66", "13"], "B": ["11", "11", "25", "25"], "C": ["12", "56"]}}
    >>> s, _ = apply(new_game(cfg, 0), {"type": "discard", "seat": 0, "card": "13"})
    >>> decide(bot_view(s, 1), budget_ms=None).reply
    {'action': 'diu', 'cards': ['11', '11']}
    """
    current = game["prompt"]
    if current is None:
        raise ValueError("the seat is not prompted")
    options: list[dict[str, Any]] = list(current["options"])
    for opt in options:
        if opt["action"] == "diu":
            return Decision(dict(opt), _READY * 2, 0)
    hand = tuple(sort_cards(game["myCards"]))
    rules = game["rules"]
    shapes = rules["claim_shapes"]
    start = clock()
    judge = _Judge(
        _unseen(game, hand),
        rules["same_kind"] == "points",
        shapes,
        deadline=None if budget_ms is None else start + budget_ms / 1000.0,
        clock=clock,
    )
    kind = current["kind"]
    cap = -1 if iterations is None else max(1, iterations)
    if kind == "discard":
        candidates = [(o, tuple(sort_cards(_minus(hand, (o["card"],))))) for o in options]
        # best guess first: loose cards, the most seen first
        candidates.sort(key=lambda oc: (judge.unseen[oc[0]["card"]], oc[0]["card"] == WILD))
        best = (float("-inf"), 0)
        choice = options[-1]
        judged = 0
        for opt, left in candidates:
            if judged and (judge.out_of_time() or judged == cap):
                break
            score = (judge.value(left), -judge.unseen[opt["card"]])
            if judged and judge.expired:
                break  # judged in part only: not comparable
            judged += 1
            if score > best:
                best = score
                choice = opt
        return Decision(dict(choice), best[0], judged)
    if kind == "offer":  # its own claim, made because it was worth more than passing
        return Decision({"action": "accept"}, 0.0, 0)
    keep = judge.value(hand)
    best_value = keep
    choice = {"action": "pass"}
    judged = 0
    for opt in options:
        if opt["action"] != "claim":
            continue
        if judge.out_of_time() or judged == cap:
            break
        value = judge.after_claim(hand, opt["cards"])
        if judge.expired:
            break  # judged in part only: not comparable
        judged += 1
        if value > best_value:
            best_value = value
            choice = dict(opt)
    return Decision(choice, best_value, judged)
