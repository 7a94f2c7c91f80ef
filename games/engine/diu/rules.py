"""Suijiang Diu (绥江丢): table options, the deal, claims, the polling state machine, 丢, scoring.

Rules: docs/rules/diu.md (the shared rulings ``rules/diu.md`` as implemented). Every function
is pure: ``apply`` returns a new state and never changes the one it is given.

Actions are dicts with a ``seat`` and a ``type``: ``discard`` (``card``), ``pass``, ``claim``
(``claim``: one of :data:`CLAIM_TYPES`, ``cards``: the hand cards used), ``diu`` (``cards``: two
hand cards), ``accept``, ``decline``; optional ``auto`` and ``at`` (unix time).

>>> cfg = {"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
...        "hands": {"A": ["66", "13"], "B": ["11", "22"], "C": ["55", "W"]}, "stock": ["44"]}
>>> s = new_game(cfg, seed=0)
>>> prompt(s)
{'seat': 0, 'kind': 'discard', 'options': ['13', '66']}
>>> s, _ = apply(s, {"type": "discard", "seat": 0, "card": "66"})
>>> prompt(s)
{'seat': 1, 'kind': 'call', 'options': ['pass', 'chi']}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from games.engine.core.errors import ConfigError, EngineError, IllegalActionError
from games.engine.core.options import is_int
from games.engine.core.protocol import Action, Event, RoundStatus
from games.engine.core.rng import config_seed_state, shuffle
from games.engine.diu.cards import (
    WILD,
    build_deck,
    parse_card,
    parse_cards,
    points,
    shuffle_deck,
    sort_cards,
    sort_key,
)
from games.engine.diu.commit import nonce, stock_commitments
from games.engine.diu.state import DiuState

__all__ = [
    "ACTION_TYPES",
    "CLAIM_TYPES",
    "DEFAULT_CONFIG",
    "RANK",
    "ROLES",
    "SHAPE_PRESETS",
    "TABLE_CHOICES",
    "apply",
    "batch_event",
    "can_diu",
    "check",
    "claim_choices",
    "diu_choices",
    "is_complete",
    "legal_actions",
    "log_actions",
    "new_game",
    "next_active",
    "prompt",
    "replay",
    "result",
    "round_status",
    "timeout_action",
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
_KIND_SECONDS = {"discard": "t_play", "call": "t_call", "diu": "t_call", "offer": "t_offer"}


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


def new_game(config: Mapping[str, Any], seed: int | str) -> DiuState:
    """Assign roles, shuffle (Fisher–Yates then the seed's riffles), deal A 18, B 17, C 17;
    A is prompted to lead a discard.

    >>> s = new_game({}, seed=2)
    >>> [len(s.hands[s.roles[r]]) for r in "ABCD"], len(s.stock), s.phase, s.turn == s.roles["A"]
    ([18, 17, 17, 0], 36, 'discard', True)
    """
    cfg = validate_config(config)
    rng = config_seed_state(seed)
    roles = cfg["roles"]
    if roles is None:
        rng, perm = shuffle(rng, [0, 1, 2, 3])
        roles = dict(zip(ROLES, perm, strict=True))
    hands: list[list[str]] = [[], [], [], []]
    if cfg.get("hands") is not None:
        for role in ("A", "B", "C"):
            hands[roles[role]] = list(cfg["hands"][role])
        stock = list(cfg["stock"])
    else:
        deck = build_deck(int(cfg["copies_per_kind"]), int(cfg["wild_count"]))
        rng, deck = shuffle_deck(rng, deck, cfg["shuffle_mode"], int(cfg["riffle_count"]))
        lead, other = int(cfg["hand_size_lead"]), int(cfg["hand_size_other"])
        hands[roles["A"]] = sort_cards(deck[:lead])
        hands[roles["B"]] = sort_cards(deck[lead : lead + other])
        hands[roles["C"]] = sort_cards(deck[lead + other : lead + 2 * other])
        stock = deck[lead + 2 * other :]
    st = DiuState(
        config=cfg,
        seed=seed,
        rng=rng,
        roles=dict(roles),
        dealt=[list(h) for h in hands],
        hands=hands,
        stock=stock,
        phase="discard",
        turn=roles["A"],
        turn_started_at=cfg.get("started_at"),
    )
    _refill(st, None)
    return st


# --- card logic -----------------------------------------------------------------------------


def _same(a: str, b: str, by_points: bool) -> bool:
    if a == WILD or b == WILD:
        return False
    return points(a) == points(b) if by_points else a == b


@lru_cache(maxsize=65536)
def _complete(cards: tuple[str, ...], by_points: bool) -> bool:
    if not cards:
        return True
    naturals = [c for c in cards if c != WILD]
    wilds = len(cards) - len(naturals)
    if not naturals:
        return wilds != 1
    a = naturals[0]
    rest = list(cards)
    rest.remove(a)

    def without(*taken: str) -> tuple[str, ...] | None:
        left = list(rest)
        for t in taken:
            if t not in left:
                return None
            left.remove(t)
        return tuple(left)

    distinct = sorted({c for c in rest if c != WILD}, key=sort_key)
    options: list[tuple[str, ...] | None] = []
    for b in distinct:
        if _same(a, b, by_points) or points(a) + points(b) == 14:
            options.append(without(b))
        if _same(a, b, by_points):
            options.append(without(b, WILD))
            for c in distinct:
                if _same(a, c, by_points) and sort_key(c) >= sort_key(b):
                    options.append(without(b, c))
    options.append(without(WILD))
    options.append(without(WILD, WILD))
    return any(o is not None and _complete(o, by_points) for o in options)


def is_complete(cards: Sequence[str], same_kind: str = "pips") -> bool:
    """True when the cards split completely into groups (rules §8): a 14-pair, an identical
    natural pair, natural+听用, 听用+听用, or three of a kind (听用 filling in).

    >>> is_complete(["11", "66", "34", "34"]), is_complete(["11", "W"]), is_complete(["11"])
    (True, True, False)
    >>> is_complete([]), is_complete(["W", "W", "W"]), is_complete(["16", "25"])
    (True, True, True)
    """
    return _complete(tuple(sort_cards(cards)), same_kind == "points")


def _claim_fits(
    kind: str, card: str, cards: Sequence[str], by_points: bool, shape: Sequence[int]
) -> bool:
    """True when ``cards`` make claim ``kind`` of the given shape (``[naturals, 听用]``)."""
    naturals = [c for c in cards if c != WILD]
    wilds = len(cards) - len(naturals)
    if [len(naturals), wilds] != list(shape):
        return False
    if kind == "chi":
        return all(points(card) + points(c) == 14 for c in naturals)
    return all(_same(card, c, by_points) for c in naturals)


def _triple_fits(card: str, cards: Sequence[str], by_points: bool) -> bool:
    if len(cards) != 2:
        return False
    return all(c == WILD or _same(card, c, by_points) for c in cards)


def _has(hand: Sequence[str], cards: Sequence[str]) -> bool:
    need = Counter(cards)
    have = Counter(hand)
    return all(have[c] >= n for c, n in need.items())


def _minus(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    left = list(hand)
    for c in cards:
        left.remove(c)
    return left


def _subsets(hand: Sequence[str], size: int) -> list[list[str]]:
    distinct = sort_cards(set(hand))
    counts = Counter(hand)
    if size == 1:
        return [[c] for c in distinct]
    out = []
    for i, a in enumerate(distinct):
        for b in distinct[i:]:
            if a != b or counts[a] >= 2:
                out.append([a, b])
    return out


def next_active(state: DiuState, seat: int) -> int:
    """The 下家 of an active seat: A → B → C → A.

    >>> s = new_game({"roles": {"A": 3, "B": 1, "C": 0, "D": 2}}, seed=1)
    >>> next_active(s, 3), next_active(s, 0)
    (1, 3)
    """
    ring = [state.roles["A"], state.roles["B"], state.roles["C"]]
    return ring[(ring.index(seat) + 1) % 3]


def _chi_barred(state: DiuState, seat: int) -> bool:
    if state.source != "discard":
        return False
    if state.config["chi_restriction"] == "relative":
        return next_active(state, seat) == state.source_seat  # the discarder's 上家
    return state.source_seat == state.roles["A"] and seat == state.roles["C"]


def claim_choices(state: DiuState, seat: int, kind: str) -> list[list[str]]:
    """The hand-card choices with which ``seat`` may make claim ``kind`` on the current card,
    ignoring the strictly-higher bar (restrictions, shapes, the card that must stay).

    >>> cfg = {"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": [],
    ...        "hands": {"A": ["66"], "B": ["11", "66", "W"], "C": ["11", "66"]}}
    >>> s, _ = apply(new_game(cfg, 0), {"type": "discard", "seat": 0, "card": "66"})
    >>> claim_choices(s, 1, "chi"), claim_choices(s, 2, "chi"), claim_choices(s, 2, "hard_pair")
    ([['11']], [], [['66']])
    """
    card = state.card
    shape = state.config["claim_shapes"].get(kind)
    if card is None or shape is None:
        return []
    if kind == "chi" and _chi_barred(state, seat):
        return []
    hand = state.hands[seat]
    by_points = state.config["same_kind"] == "points"
    size = sum(shape)
    if kind != "chi":  # every other claim uses only 听用 and cards of the card's kind
        hand = [c for c in hand if c == WILD or _same(card, c, by_points)]
    out = []
    for cards in _subsets(hand, size):
        if len(state.hands[seat]) - len(cards) < 1 or not _claim_fits(
            kind, card, cards, by_points, shape
        ):
            continue
        if (
            kind == "chi"
            and not state.config["chow_split_double7"]
            and points(card) == 7
            and hand.count(cards[0]) >= 2
        ):
            continue
        out.append(cards)
    return out


def _diu_open(state: DiuState) -> bool:
    return state.card is not None and (
        state.source == "stock" or bool(state.config["allow_diu_on_discard"])
    )


def _diu_ok(state: DiuState, seat: int, cards: Sequence[str]) -> str | None:
    """None when ``cards`` make a legal 丢 for ``seat``; else the error code."""
    card = state.card
    assert card is not None
    by_points = state.config["same_kind"] == "points"
    if not _triple_fits(card, cards, by_points):
        return "invalid_diu"
    rest = _minus(state.hands[seat], cards)
    if state.config["diu_mode"] == "empty_hand":
        return None if not rest else "diu_incomplete"
    return None if _complete(tuple(sort_cards(rest)), by_points) else "diu_incomplete"


def diu_choices(state: DiuState, seat: int) -> list[list[str]]:
    """The pairs of hand cards with which ``seat`` may 丢 on the current card.

    >>> cfg = {"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": [],
    ...        "hands": {"A": ["26"], "B": ["W", "W", "11", "66"], "C": ["13"]}}
    >>> s, _ = apply(new_game(cfg, 0), {"type": "discard", "seat": 0, "card": "26"})
    >>> diu_choices(s, 1)
    [['W', 'W']]
    """
    card = state.card
    if card is None or not _diu_open(state):
        return []
    by_points = state.config["same_kind"] == "points"
    pool = [c for c in state.hands[seat] if c == WILD or _same(card, c, by_points)]
    return [c for c in _subsets(pool, 2) if _diu_ok(state, seat, c) is None]


def can_diu(state: DiuState, seat: int) -> bool:
    """True when ``seat`` holds a legal 丢 on the current card.

    >>> can_diu(new_game({}, seed=1), 0)
    False
    """
    return bool(diu_choices(state, seat))


def _discard_options(hand: Sequence[str]) -> list[str]:
    naturals = sort_cards({c for c in hand if c != WILD})
    return naturals or sort_cards(set(hand))


def _call_options(state: DiuState, seat: int) -> list[str]:
    opts = ["pass"]
    for kind in CLAIM_TYPES:
        if RANK[kind] > state.bar and claim_choices(state, seat, kind):
            opts.append(kind)
    if can_diu(state, seat):
        opts.append("diu")
    return opts


def prompt(state: DiuState) -> dict[str, Any] | None:
    """The current prompt ``{"seat", "kind", "options"}`` (None once the game is over).

    Kinds: ``discard`` (options: the cards that may be discarded), ``call`` (``pass``, the claim
    types above the bar, ``diu``), ``diu`` (the re-poll: ``pass``, ``diu``), ``offer``
    (``accept``, ``decline``).

    >>> prompt(new_game({"roles": {"A": 1, "B": 2, "C": 3, "D": 0},
    ...                  "hands": {"A": ["W", "55"], "B": ["11"], "C": ["12"]}}, 0))
    {'seat': 1, 'kind': 'discard', 'options': ['55']}
    """
    if state.finished:
        return None
    seat = state.turn
    if state.phase == "discard":
        options = _discard_options(state.hands[seat])
    elif state.phase == "call":
        options = _call_options(state, seat)
    elif state.phase == "diu":
        options = ["pass", "diu"] if can_diu(state, seat) else ["pass"]
    else:
        options = ["accept", "decline"]
    return {"seat": seat, "kind": state.phase, "options": options}


# --- queries --------------------------------------------------------------------------------


def legal_actions(state: DiuState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` (empty unless it is prompted), cards spelled out.

    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
    ...               "hands": {"A": ["55", "55"], "B": ["11"], "C": ["12"]}}, 0)
    >>> legal_actions(s, 0), legal_actions(s, 3)
    ([{'type': 'discard', 'seat': 0, 'card': '55'}], [])
    """
    p = prompt(state)
    if p is None or p["seat"] != seat:
        return []
    kind = p["kind"]
    if kind == "discard":
        return [{"type": "discard", "seat": seat, "card": c} for c in p["options"]]
    if kind == "offer":
        return [{"type": "accept", "seat": seat}, {"type": "decline", "seat": seat}]
    out: list[Action] = [{"type": "pass", "seat": seat}]
    if kind == "call":
        for claim in p["options"]:
            if claim in CLAIM_TYPES:
                out += [
                    {"type": "claim", "seat": seat, "claim": claim, "cards": cards}
                    for cards in claim_choices(state, seat, claim)
                ]
    if "diu" in p["options"]:
        out += [{"type": "diu", "seat": seat, "cards": c} for c in diu_choices(state, seat)]
    return out


def round_status(state: DiuState, now: float | None = None) -> RoundStatus:
    """Round index (one per card put up), the prompted seat, and its deadline (15 s for a
    call, re-poll or offer, 20 s for a discard, from the prompt's start).

    >>> s = new_game({"started_at": 100.0}, seed=1)
    >>> st = round_status(s)
    >>> st.round_index, st.pending == (s.roles["A"],), st.check_at
    (0, True, 120.0)
    """
    if state.finished:
        return RoundStatus(state.round_index, (), None)
    check_at = None
    if state.turn_started_at is not None:
        seconds = state.config[_KIND_SECONDS[state.phase]]
        check_at = float(state.turn_started_at) + float(seconds)
    return RoundStatus(state.round_index, (state.turn,), check_at)


def auto_discard(state: DiuState, seat: int) -> str:
    """The timeout discard (rules §9): the highest natural card in canonical order (a 听用
    only when nothing else is held).

    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3},
    ...               "hands": {"A": ["W", "13", "56", "22"], "B": ["11"], "C": ["12"]}}, 0)
    >>> auto_discard(s, 0)
    '56'
    """
    return _discard_options(state.hands[seat])[-1]


def timeout_action(state: DiuState, seat: int) -> Action:
    """The policy for a timeout or a disconnect (托管, rules §9): pass a call or a re-poll,
    decline an offer, auto-discard. Marked ``auto``.

    >>> s = new_game({}, seed=3)
    >>> timeout_action(s, s.turn)["type"]
    'discard'
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    if seat != state.turn:
        raise IllegalActionError("not_your_turn", f"seat {state.turn} is prompted")
    if state.phase == "discard":
        return {"type": "discard", "seat": seat, "card": auto_discard(state, seat), "auto": True}
    if state.phase == "offer":
        return {"type": "decline", "seat": seat, "auto": True}
    return {"type": "pass", "seat": seat, "auto": True}


def result(state: DiuState) -> dict[str, Any] | None:
    """None while the hand is on; then the outcome (``win`` or ``exhausted``), winner, roles,
    scores (summing to 0; D always 0), ranking, melds, the 丢 group and every hand.

    >>> result(new_game({}, seed=1)) is None
    True
    """
    if not state.finished:
        return None
    scores = [0, 0, 0, 0]
    hard = False
    if state.outcome == "win" and state.winner is not None:
        hard = WILD not in state.diu_cards
        pay = int(state.config["base"]) * (2 if hard and state.config["hard_bonus"] else 1)
        for role in ("A", "B", "C"):
            seat = state.roles[role]
            if seat != state.winner:
                scores[seat] -= pay
                scores[state.winner] += pay
    return {
        "result": state.outcome,
        "winner": state.winner,
        "roles": dict(state.roles),
        "scores": scores,
        "ranking": sorted(range(4), key=lambda s: (-scores[s], s)),
        "diu": (
            {"seat": state.winner, "cards": list(state.diu_cards), "hard": hard}
            if state.outcome == "win"
            else None
        ),
        "melds": [[dict(m) for m in seat_melds] for seat_melds in state.melds],
        "hands": [list(h) for h in state.hands],
    }


# --- validation -----------------------------------------------------------------------------


def parse_action(action: Mapping[str, Any]) -> Action:
    """A normalized action dict; ``bad_action`` / ``bad_card`` if it is not one.

    >>> parse_action({"type": "claim", "seat": 1, "claim": "kuai", "cards": ["w"]})
    {'type': 'claim', 'seat': 1, 'claim': 'kuai', 'cards': ['W']}
    >>> parse_action({"type": "fold", "seat": 0})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: bad_action: type must be one of discard, pass, \
claim, diu, accept, decline
    """
    if not isinstance(action, Mapping):
        raise IllegalActionError("bad_action", "an action must be an object")
    seat = action.get("seat")
    if not is_int(seat):
        raise IllegalActionError("bad_action", "seat must be an int")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalActionError("bad_action", f"type must be one of {', '.join(ACTION_TYPES)}")
    out: Action = {"type": kind, "seat": seat}
    if kind == "discard":
        out["card"] = parse_card(action.get("card"))
    elif kind == "claim":
        claim = action.get("claim")
        if claim not in CLAIM_TYPES:
            raise IllegalActionError("bad_action", f"claim must be one of {', '.join(CLAIM_TYPES)}")
        out["claim"] = claim
        out["cards"] = parse_cards(action.get("cards"))
    elif kind == "diu":
        out["cards"] = parse_cards(action.get("cards"))
    if action.get("auto"):
        out["auto"] = True
    at = action.get("at")
    if at is not None:
        if not isinstance(at, (int, float)) or isinstance(at, bool):
            raise IllegalActionError("bad_action", "at must be a unix time")
        out["at"] = at
    return out


def check(state: DiuState, action: Mapping[str, Any]) -> Action:
    """Validate an action without applying it; return it normalized.

    Codes, in order: ``game_over``; ``bad_action`` / ``bad_card``; ``bad_seat``;
    ``not_your_turn``; ``illegal_action`` (it does not answer the prompt); then
    ``not_in_hand``, ``wild_discard``, ``claim_not_allowed``, ``claim_not_higher``,
    ``invalid_claim``, ``must_keep_card``, ``diu_not_allowed``, ``invalid_diu``,
    ``diu_incomplete``.

    >>> s = new_game({}, seed=3)
    >>> check(s, {"type": "pass", "seat": s.turn})
    Traceback (most recent call last):
    ...
    games.engine.core.errors.IllegalActionError: illegal_action: the prompt is discard
    """
    if state.finished:
        raise IllegalActionError("game_over", "the game has ended")
    act = parse_action(action)
    seat, kind = act["seat"], act["type"]
    if not 0 <= seat < 4:
        raise IllegalActionError("bad_seat", f"no seat {seat}")
    if seat != state.turn:
        raise IllegalActionError("not_your_turn", f"seat {state.turn} is prompted")
    allowed = {
        "discard": ("discard",),
        "call": ("pass", "claim", "diu"),
        "diu": ("pass", "diu"),
        "offer": ("accept", "decline"),
    }[state.phase]
    if kind not in allowed:
        raise IllegalActionError("illegal_action", f"the prompt is {state.phase}")
    hand = state.hands[seat]
    if kind == "discard":
        card = act["card"]
        if card not in hand:
            raise IllegalActionError("not_in_hand", f"{card} is not in the hand")
        if card not in _discard_options(hand):
            raise IllegalActionError("wild_discard", "a 听用 goes only when nothing else is left")
    elif kind == "claim":
        _check_claim(state, seat, act["claim"], act["cards"])
    elif kind == "diu":
        cards = act["cards"]
        if not _has(hand, cards):
            raise IllegalActionError("not_in_hand", f"not in hand: {' '.join(cards)}")
        if not _diu_open(state):
            raise IllegalActionError("diu_not_allowed", "丢 is not open on a discard here")
        code = _diu_ok(state, seat, cards)
        if code == "invalid_diu":
            raise IllegalActionError(code, "the cards make no three-card group with the card")
        if code is not None:
            raise IllegalActionError(code, "the rest of the hand does not split into groups")
    return act


def _check_claim(state: DiuState, seat: int, claim: str, cards: list[str]) -> None:
    hand = state.hands[seat]
    card = state.card
    assert card is not None
    if not _has(hand, cards):
        raise IllegalActionError("not_in_hand", f"not in hand: {' '.join(cards)}")
    if claim not in state.config["claim_shapes"]:
        raise IllegalActionError("claim_not_allowed", f"{claim} is switched off at this table")
    if claim == "chi" and _chi_barred(state, seat):
        raise IllegalActionError("claim_not_allowed", "the discarder's 上家 may not 吃 it")
    if RANK[claim] <= state.bar:
        raise IllegalActionError("claim_not_higher", "a claim must outrank the best one so far")
    by_points = state.config["same_kind"] == "points"
    if not _claim_fits(claim, card, cards, by_points, state.config["claim_shapes"][claim]):
        raise IllegalActionError("invalid_claim", f"{' '.join(cards)} do not make {claim}")
    if (
        claim == "chi"
        and not state.config["chow_split_double7"]
        and points(card) == 7
        and hand.count(cards[0]) >= 2
    ):
        raise IllegalActionError("claim_not_allowed", "a pair of 7s may not be split to 吃")
    if len(hand) - len(cards) < 1:
        raise IllegalActionError("must_keep_card", "a claim must leave a card to discard")


# --- applying -------------------------------------------------------------------------------


def apply(state: DiuState, action: Mapping[str, Any]) -> tuple[DiuState, list[Event]]:
    """Apply an action; return the new state and its events (public ones have ``to=None``).

    >>> s = new_game({"roles": {"A": 0, "B": 1, "C": 2, "D": 3}, "stock": ["55"],
    ...               "hands": {"A": ["66", "13"], "B": ["11"], "C": ["12", "55"]}}, 0)
    >>> s2, events = apply(s, {"type": "discard", "seat": 0, "card": "13"})
    >>> [e.type for e in events][:6]
    ['discarded', 'passed', 'passed', 'no_claim', 'card_open', 'passed']
    >>> s2.turn, s2.phase, s2.discards[0], events[-1].to
    (2, 'call', ['13'], 2)
    """
    act = check(state, action)
    events: list[Event] = []
    return _apply(state, act, events), events


def _apply(state: DiuState, act: Action, events: list[Event] | None) -> DiuState:
    st = state.copy()
    st.log.append(dict(act))
    st.turn_started_at = act.get("at")
    seat, kind, auto = act["seat"], act["type"], bool(act.get("auto"))
    stage = st.phase
    if kind == "discard":
        _discard(st, seat, act["card"], auto, events)
    elif kind == "pass":
        st.answers.append({"seat": seat, "answer": "pass", "stage": stage, "auto": auto})
        _emit(events, "passed", {"seat": seat, "stage": stage, "auto": auto})
        if stage == "call":
            st.index += 1
        else:
            st.repoll_index += 1
    elif kind == "claim":
        claim = act["claim"]
        st.claims.append({"seat": seat, "type": claim, "cards": act["cards"], "index": st.index})
        st.answers.append({"seat": seat, "answer": claim, "stage": stage, "auto": auto})
        st.bar = RANK[claim]
        st.index += 1
        _emit(events, "claim_made", {"seat": seat, "type": claim})
    elif kind == "diu":
        _win(st, seat, act["cards"], events)
    elif kind == "accept":
        _accept(st, seat, events)
    else:  # decline
        st.answers.append({"seat": seat, "answer": "decline", "stage": stage, "auto": auto})
        _emit(events, "declined", {"seat": seat, "auto": auto})
        if st.config["decline_policy"] == "normal_flow":
            st.phase = "no_claim"
        else:
            st.offer_index += 1
    _run(st, events)
    if events is not None and not st.finished:
        status = round_status(st)
        p = prompt(st)
        assert p is not None
        _emit(
            events,
            "turn",
            {
                "seat": st.turn,
                "kind": st.phase,
                "round": st.round_index,
                "deadline": status.check_at,
            },
        )
        events.append(Event("prompt", {**p, "deadline": status.check_at}, to=st.turn))
    return st


def _emit(events: list[Event] | None, kind: str, data: dict[str, Any]) -> None:
    if events is not None:
        events.append(Event(kind, data))


def _discard(st: DiuState, seat: int, card: str, auto: bool, events: list[Event] | None) -> None:
    st.hands[seat].remove(card)
    _emit(events, "discarded", {"seat": seat, "card": card, "auto": auto})
    st.round_index += 1
    if card == WILD:
        # [added ruling] the card under decision is always natural (§6): a 听用, discarded only
        # from a hand holding nothing else, is not put up for claims; the 下家 draws
        _open_poll(st, card, "discard", seat, [])
        st.phase = "no_claim"
        return
    tnb = next_active(st, seat)
    _open_poll(st, card, "discard", seat, [tnb, next_active(st, tnb)])


def _open_poll(st: DiuState, card: str, source: str, seat: int, order: list[int]) -> None:
    st.card = card
    st.source = source
    st.source_seat = seat
    st.order = order
    st.index = 0
    st.bar = 0
    st.claims = []
    st.answers = []
    st.repoll = []
    st.repoll_index = 0
    st.offers = []
    st.offer_index = 0
    st.phase = "call"


def _accept(st: DiuState, seat: int, events: list[Event] | None) -> None:
    claim = st.claims[st.offers[st.offer_index]]
    card = st.card
    assert card is not None
    for c in claim["cards"]:
        st.hands[seat].remove(c)
    meld = {
        "type": claim["type"],
        "cards": [card, *claim["cards"]],
        "from": st.source_seat,
        "source": st.source,
    }
    st.melds[seat].append(meld)
    st.answers.append({"seat": seat, "answer": "accept", "stage": "offer", "auto": False})
    _emit(events, "meld", {"seat": seat, **meld})
    st.card = None
    st.phase = "discard"
    st.turn = seat


def _win(st: DiuState, seat: int, cards: list[str], events: list[Event] | None) -> None:
    card = st.card
    assert card is not None
    for c in cards:
        st.hands[seat].remove(c)
    st.diu_cards = [card, *cards]
    st.card = None
    st.answers.append({"seat": seat, "answer": "diu", "stage": st.phase, "auto": False})
    _emit(events, "diu", {"seat": seat, "cards": list(st.diu_cards)})
    _finish(st, "win", seat, events)


def _finish(st: DiuState, outcome: str, winner: int | None, events: list[Event] | None) -> None:
    st.outcome = outcome
    st.winner = winner
    st.finished = True
    st.phase = "over"
    st.turn = -1
    if events is not None:
        res = result(st)
        assert res is not None
        events.append(Event("game_ended", res))


def batch_event(state: DiuState, first: int) -> dict[str, Any]:
    """The public ``stock_batch`` event of the batch starting at stock card ``first`` and ending
    at ``state.delivered``: counts and the batch's commitments, never a card or a nonce.

    >>> s = new_game({}, seed=3)
    >>> e = batch_event(s, 0)
    >>> e["count"], e["delivered"], e["first"], len(e["commitments"]), len(e["commitments"][0])
    (10, 10, 0, 10, 64)
    """
    return {
        "count": state.delivered - first,
        "delivered": state.delivered,
        "first": first,
        "commitments": stock_commitments(state, first, state.delivered),
    }


def _refill(st: DiuState, events: list[Event] | None) -> None:
    """Prefetch: push the next batch (as commitments) when a client's buffer runs low (§5.3)."""
    total = st.drawn + len(st.stock)
    batch = int(st.config["prefetch_batch"])
    at = int(st.config["prefetch_refill_at"])
    inclusive = st.config["prefetch_refill_inclusive"]
    while st.delivered < total:
        buffer = st.delivered - st.drawn
        # below the threshold, and always before the buffer runs dry: a card's commitment is
        # pushed before it can be drawn
        if buffer > 0 and not (buffer <= at if inclusive else buffer < at):
            break
        count = min(batch, total - st.delivered)
        first = st.delivered
        st.delivered += count
        if events is not None:
            events.append(Event("stock_batch", batch_event(st, first)))


def _run(st: DiuState, events: list[Event] | None) -> None:
    """Advance through the automatic states until someone is prompted or the game is over."""
    auto_pass = st.config["auto_pass_no_option"]
    while True:
        if st.phase in ("discard", "over"):
            return
        if st.phase == "call":
            if st.index < len(st.order):
                seat = st.order[st.index]
                if auto_pass and _call_options(st, seat) == ["pass"]:
                    st.answers.append(
                        {"seat": seat, "answer": "pass", "stage": "call", "auto": True}
                    )
                    _emit(events, "passed", {"seat": seat, "stage": "call", "auto": True})
                    st.index += 1
                    continue
                st.turn = seat
                return
            _end_poll(st)
            continue
        if st.phase == "diu":
            if st.repoll_index < len(st.repoll):
                # every re-polled seat is asked, even one holding no 丢: auto-pass is the main
                # poll's alone (§7.3), and skipping would tell the table that it cannot 丢
                st.turn = st.repoll[st.repoll_index]
                return
            st.offers = sorted(
                range(len(st.claims)), key=lambda i: (-RANK[st.claims[i]["type"]], i)
            )
            st.offer_index = 0
            st.phase = "offer"
            continue
        if st.phase == "offer":
            if st.offer_index < len(st.offers):
                claim = st.claims[st.offers[st.offer_index]]
                st.turn = claim["seat"]
                _emit(events, "offered", {"seat": claim["seat"], "type": claim["type"]})
                return
            st.phase = "no_claim"
            continue
        if st.phase == "no_claim":
            card = st.card
            assert card is not None
            if st.source == "discard":
                st.discards[st.source_seat].append(card)
            else:
                st.dead.append(card)
            _emit(events, "no_claim", {"card": card, "seat": st.source_seat, "source": st.source})
            st.card = None
            st.turn = next_active(st, st.source_seat)
            st.phase = "draw"
            continue
        # draw
        seat = st.turn
        if not st.stock:
            _finish(st, "exhausted", None, events)
            return
        card = st.stock.pop(0)
        index = st.drawn
        st.drawn += 1
        st.round_index += 1
        # a drawn card is flipped face up for everyone: its id and key are public from here on
        _emit(
            events,
            "card_open",
            {
                "seat": seat,
                "card": card,
                "source": "stock",
                "index": index,
                "nonce": nonce(st.seed, index),
            },
        )
        _refill(st, events)
        if card == WILD:
            st.hands[seat] = sort_cards([*st.hands[seat], card])
            st.phase = "discard"
            return
        tnb = next_active(st, seat)
        _open_poll(st, card, "stock", seat, [seat, tnb, next_active(st, tnb)])


def _end_poll(st: DiuState) -> None:
    if not st.claims:
        st.phase = "no_claim"
        return
    top = st.claims[-1]
    repoll: list[int] = []
    if _diu_open(st):
        made = {c["seat"]: c["type"] for c in st.claims}
        for seat in st.order[: top["index"]]:
            orig = made.get(seat, "pass")
            if orig in ("chi", "kuai"):
                continue
            if orig == "pass" and not st.config["repoll_includes_passers"]:
                continue
            if st.config["repoll_only_if_diu_possible"] and not can_diu(st, seat):
                continue
            repoll.append(seat)
    st.repoll = repoll
    st.repoll_index = 0
    st.phase = "diu"


# --- replays --------------------------------------------------------------------------------


def replay(
    config: Mapping[str, Any], seed: int | str, actions: Sequence[Mapping[str, Any]]
) -> DiuState:
    """Rebuild a hand from its seed and accepted actions (an illegal action raises).

    >>> s = new_game({}, seed=4)
    >>> s2, _ = apply(s, timeout_action(s, s.turn))
    >>> replay({}, 4, log_actions(s2)) == s2
    True
    """
    state = new_game(config, seed)
    for action in actions:
        state = _apply(state, check(state, action), None)
    return state


def log_actions(state: DiuState) -> list[Action]:
    """The accepted actions of a hand (what :func:`replay` takes).

    >>> log_actions(new_game({}, seed=4))
    []
    """
    return [dict(a) for a in state.log]
