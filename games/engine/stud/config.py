"""Seven-card stud's table options and their checks (stakes, stacks, timers, a fixed deal).

>>> validate_config({"players": 3})["stacks"]
[200, 200, 200]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import ConfigError, EngineError
from games.engine.core.options import is_int
from games.engine.stud.cards import card_id, cards_to_ids, ids_to_cards

__all__ = ["DEFAULT_CONFIG", "validate_config"]

#: Table options and their defaults (``big_bet`` None: twice ``small_bet``; ``stacks`` None:
#: ``buy_in`` each).
DEFAULT_CONFIG: dict[str, Any] = {
    "players": 4,
    "button": 0,
    "stacks": None,
    "buy_in": 200,
    "ante": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": None,
    "turn_seconds": 30,
    "games": 16,
}
_OPTIONAL_KEYS = ("cards", "started_at")


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Check table options and fill defaults; ``bad_config`` for anything not allowed.

    Keys: ``players`` (2–7), ``button`` (a seat), ``stacks`` (chips per seat; at least two
    seats with chips) or ``buy_in``, ``ante`` (≥ 0), ``bring_in`` (≥ 1, below ``small_bet``),
    ``small_bet``, ``big_bet`` (≥ ``small_bet``; default twice it), ``turn_seconds`` (> 0),
    ``games`` (session length), optional ``cards`` (a fixed deal: up to seven distinct cards
    per seat, in deal order; missing ones come from the seeded deck) and ``started_at``.

    >>> cfg = validate_config({"players": 2, "small_bet": 4})
    >>> cfg["big_bet"], cfg["stacks"]
    (8, [200, 200])
    >>> validate_config({"players": 2, "bring_in": 5})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: bring_in must be 1..small_bet-1
    """
    if not isinstance(config, Mapping):
        raise ConfigError(detail="config must be an object")
    unknown = set(config) - set(DEFAULT_CONFIG) - set(_OPTIONAL_KEYS)
    if unknown:
        raise ConfigError(detail=f"unknown options: {', '.join(sorted(map(str, unknown)))}")
    cfg = dict(DEFAULT_CONFIG)
    cfg.update(config)
    n = cfg["players"]
    if not is_int(n) or not 2 <= n <= 7:
        raise ConfigError(detail="players must be an int from 2 to 7")
    if cfg["big_bet"] is None and is_int(cfg["small_bet"]):
        cfg["big_bet"] = 2 * cfg["small_bet"]
    for key in ("ante", "bring_in", "small_bet", "big_bet", "buy_in", "games"):
        if not is_int(cfg[key]) or cfg[key] < 0:
            raise ConfigError(detail=f"{key} must be a non-negative int")
    if not 1 <= cfg["bring_in"] < cfg["small_bet"]:
        raise ConfigError(detail="bring_in must be 1..small_bet-1")
    if cfg["big_bet"] < cfg["small_bet"]:
        raise ConfigError(detail="big_bet must be at least small_bet")
    if not is_int(cfg["button"]) or not 0 <= cfg["button"] < n:
        raise ConfigError(detail="button must be a seat number")
    ts = cfg["turn_seconds"]
    if not isinstance(ts, (int, float)) or isinstance(ts, bool) or not ts > 0:
        raise ConfigError(detail="turn_seconds must be a positive number")
    cfg["stacks"] = _stacks(cfg, n)
    started = cfg.get("started_at")
    if started is not None and (not isinstance(started, (int, float)) or isinstance(started, bool)):
        raise ConfigError(detail="started_at must be a unix time")
    if cfg.get("cards") is not None:
        cfg["cards"] = [cards_to_ids(c) for c in parse_cards(cfg["cards"], n)]
    return cfg


def _stacks(cfg: Mapping[str, Any], n: int) -> list[int]:
    """Each seat's chips: ``stacks`` as given, or ``buy_in`` for every seat."""
    stacks = cfg["stacks"]
    if stacks is None:
        stacks = [cfg["buy_in"]] * n
    if (
        not isinstance(stacks, list)
        or len(stacks) != n
        or not all(is_int(x) and x >= 0 for x in stacks)
    ):
        raise ConfigError(detail=f"stacks must list {n} non-negative ints")
    if sum(1 for x in stacks if x > 0) < 2:
        raise ConfigError(detail="at least two seats need chips")
    return list(stacks)


def parse_cards(cards: Any, n: int) -> list[list[int]]:
    if not isinstance(cards, list) or len(cards) != n:
        raise ConfigError(detail=f"cards must list {n} seats")
    seen: set[int] = set()
    out = []
    for seat, ids in enumerate(cards):
        if not isinstance(ids, list) or len(ids) > 7:
            raise ConfigError(detail=f"cards of seat {seat} must be a list of up to 7 cards")
        try:
            parsed = ids_to_cards(ids)
        except EngineError as exc:
            raise ConfigError(exc.code, f"seat {seat}: {exc.detail}") from exc
        for c in parsed:
            if c in seen:
                raise ConfigError("duplicate_card", f"{card_id(c)} is dealt twice")
            seen.add(c)
        out.append(parsed)
    return out


def order_after(seat: int, n: int) -> list[int]:
    return [(seat + 1 + k) % n for k in range(n)]
