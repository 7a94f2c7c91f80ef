"""The fair play report's rule (docs/quickplay.md "Fair play report"): pure Python, no Django.

Each finished game is a :class:`GameRecord`: its people (seat → user id) and every seat's
points (``Game.scores``: Tiến Lên points, stud chips won or lost, Diu points). A person's
**share** of a game is their points minus the mean points of all the game's seats, so it
measures what they took from the table whatever the game's unit.

For a pair of people A < B (user ids) in one game kind (``engine``), with games together T
and each one's games apart:

- a game together gives the **gap** ``share(A) - share(B)``;
- the **expected gap** is A's mean share apart minus B's mean share apart (0 for one who has
  no games apart): what their strengths alone would explain;
- a game **leans** to A when its gap is above the expected gap, to B when below;
- the **sign test**: with k the games leaning to the side most games lean to and m the games
  leaning either way, ``p = P(X >= k)`` for X ~ Binomial(m, 1/2), one-sided.

A pair is listed when ``len(T) >= min_games`` and ``p <= max_p`` (default 0.05); the list is
ranked by p (smallest first), then by the mean excess gap (largest first). Scores of one kind
only: a pair is looked at per engine.

>>> farm = [GameRecord(i, "tienlen", {0: 1, 1: 2}, [-5.0, 5.0]) for i in range(6)]
>>> [(p.gainer, p.loser, p.together, p.leaning) for p in suspicious_pairs(farm, min_games=5)]
[(2, 1, 6, 6)]
>>> suspicious_pairs(farm[:4], min_games=5)
[]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["DEFAULT_MAX_P", "GameRecord", "PairReport", "sign_test_p", "suspicious_pairs"]

#: A pair is listed when its one-sided sign test gives p at most this.
DEFAULT_MAX_P = 0.05


@dataclass(frozen=True)
class GameRecord:
    """One finished game: ``people`` maps a seat to the person's user id (people only, not
    bots or house AIs); ``scores[seat]`` is every seat's points (all seats, for the mean)."""

    game_id: int
    engine: str
    people: Mapping[int, int]
    scores: Sequence[float]


@dataclass(frozen=True)
class PairReport:
    """A listed pair: ``gainer`` took from ``loser`` in ``leaning`` of ``together`` games
    together (``p`` from the sign test); mean gap (gainer's share minus loser's) together and
    expected from their games apart; ``games``: the ids of their games together (evidence)."""

    engine: str
    gainer: int
    loser: int
    together: int
    leaning: int
    p: float
    mean_gap_together: float
    expected_gap: float
    shared_address: bool
    games: tuple[int, ...] = field(default=())

    @property
    def excess(self) -> float:
        """How much more the gainer takes from the loser together than their strengths say."""
        return self.mean_gap_together - self.expected_gap


def sign_test_p(k: int, m: int) -> float:
    """One-sided sign test: P(X >= k) for X ~ Binomial(m, 1/2); 1.0 when m is 0.

    >>> sign_test_p(5, 5)
    0.03125
    >>> sign_test_p(3, 6)
    0.65625
    >>> sign_test_p(0, 0)
    1.0
    """
    if m <= 0:
        return 1.0
    return sum(math.comb(m, i) for i in range(k, m + 1)) / 2**m


def _shares(record: GameRecord) -> dict[int, float] | None:
    scores = [float(s) for s in record.scores]
    if not scores or any(seat < 0 or seat >= len(scores) for seat in record.people):
        return None
    mean = sum(scores) / len(scores)
    shares: dict[int, float] = {}
    for seat, user in record.people.items():
        if user in shares:
            return None  # one account in two seats: not a game between people
        shares[user] = scores[seat] - mean
    return shares


def suspicious_pairs(
    records: Iterable[GameRecord],
    *,
    min_games: int,
    max_p: float = DEFAULT_MAX_P,
    addresses: Mapping[int, Iterable[str]] | None = None,
) -> list[PairReport]:
    """The pairs that look like collusion or farming, most suspicious first (module doc).

    ``addresses`` maps a user id to the client addresses they were seen at (quick play);
    ``shared_address`` says whether a pair's sets meet (blank addresses never count).

    Two honest friends who split evenly are not listed, however often they play:

    >>> even = [GameRecord(i, "tienlen", {0: 1, 1: 2}, [(-1) ** i, -((-1) ** i)])
    ...         for i in range(20)]
    >>> suspicious_pairs(even, min_games=5)
    []

    A strong player who beats everyone beats a weak friend as often: their games apart (1 wins
    against strangers, 2 loses against others) explain it.

    >>> apart = [GameRecord(100 + i, "tienlen", {0: 1, 1: 10 + i}, [4.0, -4.0]) for i in range(6)]
    >>> apart += [GameRecord(200 + i, "tienlen", {0: 2, 1: 20 + i}, [-4.0, 4.0]) for i in range(6)]
    >>> together = [GameRecord(i, "tienlen", {0: 1, 1: 2}, [4.0 + (-1) ** i, -4.0 - (-1) ** i])
    ...             for i in range(6)]
    >>> suspicious_pairs(apart + together, min_games=5)
    []

    >>> farm = [GameRecord(i, "stud", {0: 3, 1: 4}, [7.0, -7.0]) for i in range(8)]
    >>> [r] = suspicious_pairs(farm, min_games=5, addresses={3: ["10.0.0.1"], 4: ["10.0.0.1"]})
    >>> (r.gainer, r.loser, r.together, r.mean_gap_together, r.shared_address, r.games[:2])
    (3, 4, 8, 14.0, True, (0, 1))
    """
    shares_by_game: list[tuple[GameRecord, dict[int, float]]] = []
    # (engine, user) -> list of (game_id, share)
    history: dict[tuple[str, int], list[tuple[int, float]]] = defaultdict(list)
    for record in records:
        shares = _shares(record)
        if shares is None or len(shares) < 2:
            continue
        shares_by_game.append((record, shares))
        for user, share in shares.items():
            history[(record.engine, user)].append((record.game_id, share))

    # (engine, a, b) with a < b -> list of (game_id, share a, share b)
    together: dict[tuple[str, int, int], list[tuple[int, float, float]]] = defaultdict(list)
    for record, shares in shares_by_game:
        users = sorted(shares)
        for i, a in enumerate(users):
            for b in users[i + 1 :]:
                together[(record.engine, a, b)].append((record.game_id, shares[a], shares[b]))

    seen_at = {u: {x for x in xs if x} for u, xs in (addresses or {}).items()}
    out: list[PairReport] = []
    for (engine, a, b), games in together.items():
        if len(games) < min_games:
            continue
        ids = {g for g, _, _ in games}

        def mean_apart(user: int, ids: set[int] = ids, engine: str = engine) -> float:
            apart = [s for g, s in history[(engine, user)] if g not in ids]
            return sum(apart) / len(apart) if apart else 0.0

        expected = mean_apart(a) - mean_apart(b)
        gaps = [sa - sb for _, sa, sb in games]
        to_a = sum(1 for gap in gaps if gap > expected)
        to_b = sum(1 for gap in gaps if gap < expected)
        gainer, loser, k, sign = (a, b, to_a, 1.0) if to_a >= to_b else (b, a, to_b, -1.0)
        p = sign_test_p(k, to_a + to_b)
        if p > max_p:
            continue
        out.append(
            PairReport(
                engine=engine,
                gainer=gainer,
                loser=loser,
                together=len(games),
                leaning=k,
                p=p,
                mean_gap_together=sign * sum(gaps) / len(gaps),
                expected_gap=sign * expected,
                shared_address=bool(seen_at.get(a, set()) & seen_at.get(b, set())),
                games=tuple(sorted(ids)),
            )
        )
    out.sort(key=lambda r: (r.p, -r.excess, r.engine, r.gainer, r.loser))
    return out
