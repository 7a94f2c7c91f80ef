"""Suijiang Diu's table options (rules §13) and their checks: roles, claim shapes, deck sizes,
timers and a fixed deal.

>>> validate_config({"claim_shapes": "pong"})["claim_shapes"]["hard_pair"]
[2, 0]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from games.engine.core.errors import ConfigError, EngineError
from games.engine.core.options import is_int
from games.engine.diu.cards import build_deck, parse_cards, sort_cards

__all__ = [
    "ACTION_TYPES",
    "CLAIM_TYPES",
    "DEFAULT_CONFIG",
    "RANK",
    "ROLES",
    "SHAPE_PRESETS",
    "TABLE_CHOICES",
    "validate_config",
]

#: Role letters: A 头家, B and C 陪玩, D 闲家 (sits out).
ROLES = ("A", "B", "C", "D")
#: Claim types, weakest first (rules §6).
CLAIM_TYPES = ("chi", "kuai", "shui", "hard_pair", "hard_shui", "hard_triple")
#: Claim ranks; 丢 outranks everything (rules §6).
RANK: dict[str, int] = {
    "pass": 0,
    "chi": 1,
    "kuai": 2,
    "shui": 3,
    "hard_pair": 4,
    "hard_shui": 4,
    "hard_triple": 4,
    "diu": 5,
}
#: The shapes tables of option ``claim_shapes`` (rules §6): claim type → ``[naturals, 听用]``,
#: the hand cards a claim uses. 吃's natural makes 14 points with the card; every other claim's
#: naturals are of the card's kind. ``standard`` is the §6 table (对 = pair); ``pong`` is the
#: alternative reading 对 = 碰 (three of a kind, as in 长牌): 硬对 takes two of the card's kind,
#: and 块水 2张硬牌, which would then be the same shape, is not a separate claim.
SHAPE_PRESETS: dict[str, dict[str, list[int]]] = {
    "standard": {
        "chi": [1, 0],
        "kuai": [0, 1],
        "shui": [0, 2],
        "hard_pair": [1, 0],
        "hard_shui": [1, 1],
        "hard_triple": [2, 0],
    },
    "pong": {
        "chi": [1, 0],
        "kuai": [0, 1],
        "shui": [0, 2],
        "hard_pair": [2, 0],
        "hard_shui": [1, 1],
    },
}
#: Engine action types.
ACTION_TYPES = ("discard", "pass", "claim", "diu", "accept", "decline")

#: Table options (rules §13, snake_case) and their defaults.
DEFAULT_CONFIG: dict[str, Any] = {
    "players": 4,
    "roles": None,
    "copies_per_kind": 4,
    "wild_count": 4,
    "hand_size_lead": 18,
    "hand_size_other": 17,
    "shuffle_mode": "both",
    "riffle_count": 3,
    "same_kind": "pips",
    "claim_shapes": "standard",
    "chi_restriction": "relative",
    "chow_split_double7": True,
    "allow_diu_on_discard": True,
    "repoll_includes_passers": True,
    "repoll_only_if_diu_possible": False,
    "decline_policy": "next_claimant",
    "diu_mode": "complete_hand",
    "auto_pass_no_option": True,
    "t_call": 15,
    "t_offer": 15,
    "t_play": 20,
    "rotation": "fixed",
    "prefetch_batch": 10,
    "prefetch_refill_at": 3,
    "prefetch_refill_inclusive": True,
    "base": 1,
    "hard_bonus": False,
    "games": 16,
}
_OPTIONAL_KEYS = ("hands", "stock", "started_at")
_CHOICES: dict[str, tuple[str, ...]] = {
    "shuffle_mode": ("both", "fisher_yates", "riffle3"),
    "same_kind": ("pips", "points"),
    "chi_restriction": ("relative", "literal_head_only"),
    "decline_policy": ("next_claimant", "normal_flow"),
    "diu_mode": ("complete_hand", "empty_hand"),
    "rotation": ("fixed", "winner_becomes_a"),
}
#: The allowed words of the word options (``claim_shapes`` also takes a list or a table).
TABLE_CHOICES: dict[str, tuple[str, ...]] = {**_CHOICES, "claim_shapes": tuple(SHAPE_PRESETS)}
_BOOLS = (
    "chow_split_double7",
    "allow_diu_on_discard",
    "repoll_includes_passers",
    "repoll_only_if_diu_possible",
    "auto_pass_no_option",
    "prefetch_refill_inclusive",
    "hard_bonus",
)
_INTS: dict[str, tuple[int, int]] = {
    "copies_per_kind": (4, 5),
    "wild_count": (0, 10),
    "hand_size_lead": (1, 60),
    "hand_size_other": (1, 60),
    "riffle_count": (0, 20),
    "prefetch_batch": (1, 200),
    "prefetch_refill_at": (0, 200),
    "base": (1, 1000),
    "games": (1, 1000),
}
_SECONDS = ("t_call", "t_offer", "t_play")
KIND_SECONDS = {"discard": "t_play", "call": "t_call", "diu": "t_call", "offer": "t_offer"}


def _parse_roles(roles: object) -> dict[str, int]:
    if not isinstance(roles, Mapping) or sorted(roles) != sorted(ROLES):
        raise ConfigError(detail="roles must map A, B, C and D to seats")
    seats = [roles[r] for r in ROLES]
    if not all(is_int(s) for s in seats) or sorted(seats) != [0, 1, 2, 3]:
        raise ConfigError(detail="roles must give each of the seats 0..3 one role")
    return {r: int(roles[r]) for r in ROLES}


def _parse_shapes(value: object) -> dict[str, list[int]]:
    """The shapes table of ``claim_shapes``: a preset word, a list of claim types (standard
    shapes, the others switched off) or a table ``{type: [naturals, 听用] | null}``."""
    if isinstance(value, str):
        preset = SHAPE_PRESETS.get(value.lower())
        if preset is None:
            raise ConfigError(detail=f"claim_shapes must be one of {', '.join(SHAPE_PRESETS)}")
        return {t: list(v) for t, v in preset.items()}
    standard = SHAPE_PRESETS["standard"]
    if isinstance(value, (list, tuple)):
        if any(t not in CLAIM_TYPES for t in value):
            raise ConfigError(detail=f"claim_shapes must list claim types from {CLAIM_TYPES}")
        return {t: list(standard[t]) for t in CLAIM_TYPES if t in value}
    if not isinstance(value, Mapping) or any(t not in CLAIM_TYPES for t in value):
        raise ConfigError(detail="claim_shapes must map claim types to [naturals, wilds]")
    out: dict[str, list[int]] = {}
    for t in CLAIM_TYPES:
        shape = value.get(t)
        if shape is None:
            continue
        if (
            not isinstance(shape, (list, tuple))
            or len(shape) != 2
            or not all(is_int(n) and n >= 0 for n in shape)
            or not 1 <= shape[0] + shape[1] <= 2
        ):
            raise ConfigError(detail=f"claim_shapes: {t} needs [naturals, wilds] of 1 or 2 cards")
        if t == "chi" and list(shape) != [1, 0]:
            raise ConfigError(detail="claim_shapes: chi is one natural making 14 points")
        if t != "chi" and list(shape) in [v for k, v in out.items() if k != "chi"]:
            raise ConfigError(detail=f"claim_shapes: {t} has the shape of another claim")
        out[t] = [int(shape[0]), int(shape[1])]
    return out


def _deck_counts(cfg: Mapping[str, Any]) -> Counter[str]:
    return Counter(build_deck(int(cfg["copies_per_kind"]), int(cfg["wild_count"])))


def _check_switches(cfg: dict[str, Any]) -> None:
    """Check the word, true/false, whole-number and seconds switches of ``cfg`` in place (words
    are lower-cased)."""
    for key, allowed in _CHOICES.items():
        value = cfg[key]
        if isinstance(value, str):
            value = value.lower()
        if value not in allowed:
            raise ConfigError(detail=f"{key} must be one of {', '.join(allowed)}")
        cfg[key] = value
    for key in _BOOLS:
        if not isinstance(cfg[key], bool):
            raise ConfigError(detail=f"{key} must be true or false")
    for key, (lo, hi) in _INTS.items():
        if not is_int(cfg[key]) or not lo <= cfg[key] <= hi:
            raise ConfigError(detail=f"{key} must be an int from {lo} to {hi}")
    for key in _SECONDS:
        v = cfg[key]
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not v > 0:
            raise ConfigError(detail=f"{key} must be a positive number of seconds")


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Check table options and fill defaults; ``bad_config`` for anything not allowed.

    Options are the switches of rules §13 in snake_case (see :data:`DEFAULT_CONFIG`), plus
    ``roles`` (``{"A": seat, ...}``; null: drawn from the seed), and for a fixed deal ``hands``
    (``{"A": [...], "B": [...], "C": [...]}``) with ``stock`` (top card first), and
    ``started_at`` (unix time the first prompt began).

    >>> validate_config({})["t_play"]
    20
    >>> validate_config({"diu_mode": "EMPTY_HAND"})["diu_mode"]
    'empty_hand'
    >>> validate_config({"players": 3})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.ConfigError: bad_config: a diu table has exactly 4 seats
    """
    if not isinstance(config, Mapping):
        raise ConfigError(detail="config must be an object")
    unknown = set(config) - set(DEFAULT_CONFIG) - set(_OPTIONAL_KEYS)
    if unknown:
        raise ConfigError(detail=f"unknown options: {', '.join(sorted(map(str, unknown)))}")
    cfg = dict(DEFAULT_CONFIG)
    cfg.update(config)
    if cfg["players"] != 4 or isinstance(cfg["players"], bool):
        raise ConfigError(detail="a diu table has exactly 4 seats")
    _check_switches(cfg)
    cfg["claim_shapes"] = _parse_shapes(cfg["claim_shapes"])
    if cfg["roles"] is not None:
        cfg["roles"] = _parse_roles(cfg["roles"])
    started = cfg.get("started_at")
    if started is not None and (not isinstance(started, (int, float)) or isinstance(started, bool)):
        raise ConfigError(detail="started_at must be a unix time")
    deck = _deck_counts(cfg)
    if cfg.get("hands") is not None or cfg.get("stock") is not None:
        _fixed_deal(cfg, deck)
    elif cfg["hand_size_lead"] + 2 * cfg["hand_size_other"] > sum(deck.values()):
        raise ConfigError(detail="the hands need more cards than the deck holds")
    return cfg


def _fixed_deal(cfg: dict[str, Any], deck: Counter[str]) -> None:
    hands = cfg.get("hands")
    stock = cfg.get("stock") or []
    if not isinstance(hands, Mapping) or sorted(hands) != ["A", "B", "C"]:
        raise ConfigError(detail="hands must give the cards of A, B and C")
    if cfg["roles"] is None:
        raise ConfigError(detail="a fixed deal needs roles")
    used: Counter[str] = Counter()
    parsed: dict[str, list[str]] = {}
    try:
        for role in ("A", "B", "C"):
            parsed[role] = sort_cards(parse_cards(hands[role]))
            used.update(parsed[role])
        stock_ids = parse_cards(stock)
    except EngineError as exc:
        raise ConfigError(exc.code, exc.detail) from exc
    used.update(stock_ids)
    if not parsed["A"]:
        raise ConfigError(detail="A must hold a card to lead with")
    over = sort_cards(c for c in used if used[c] > deck[c])
    if over:
        raise ConfigError("duplicate_card", f"more copies than the deck holds: {' '.join(over)}")
    cfg["hands"] = parsed
    cfg["stock"] = stock_ids
