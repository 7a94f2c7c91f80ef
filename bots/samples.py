"""Fixed sample game states for "Test Bot" (issue #5, seed 002 §7.2), one list per game.

Each sample is a real engine state, so what a bot sees here is exactly what it would see at a
table (``engine.bot_view``), and its answer is judged by the engine
(``engine.parse_bot_move``). Tiến Lên's samples come from scripted deals and plays; the other
games' (stud, diu) from seeded games played by the house AI, keeping the first decision of
each distinct kind (street and legal actions; prompt kind and reply shapes). Everything is
deterministic: the same list, in the same order, on every call. Pure Python: no Django.

Titles and descriptions are :class:`Text`: English with ``{placeholders}``, marked with
``gettext_noop`` for the site's catalog and translated where they are shown
(:func:`localize_result`, with the reader's language).

>>> cases = sample_cases()
>>> len(cases) >= 10, cases[0].key
(True, 'opening_lead')
>>> cases[0].view()["metadata"]["isFirstTurn"]
True
>>> [len(sample_cases(g)) >= 10 for g in ("stud", "diu")]
[True, True]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.engine.core.text import gettext_noop
from games.engine.registry import find_game
from games.engine.tienlen import GAME
from games.engine.tienlen.cards import CARD_IDS

__all__ = ["SAMPLE_PLAYERS", "SampleCase", "Text", "localize_result", "sample_cases"]

Script = Sequence[tuple[int, Sequence[str] | None]]  # (seat, cards) or (seat, None) = pass
Check = Callable[[dict[str, Any]], bool]


@dataclass(frozen=True)
class Text:
    """A message for the reader: an English ``msgid`` with ``{placeholders}`` filled from
    ``params`` (a value that is itself a :class:`Text` is translated too). ``str()`` is the
    English text; :meth:`render` translates with the catalog lookup it is given.

    >>> t = Text("Seat {seat}: {what}", (("seat", "2"), ("what", Text("Discard"))))
    >>> str(t), t.render({"Seat {seat}: {what}": "Ghế {seat}: {what}", "Discard": "Bỏ bài"}.get)
    ('Seat 2: Discard', 'Ghế 2: Bỏ bài')
    >>> Text.from_json(t.to_json()) == t
    True
    """

    msgid: str
    params: tuple[tuple[str, str | Text], ...] = ()

    def render(self, translate: Callable[[str], str | None] | None = None) -> str:
        """The text, each message looked up with ``translate`` (English when it answers None
        or empty, or when a translation's placeholders do not match)."""
        args = {k: v.render(translate) if isinstance(v, Text) else v for k, v in self.params}
        own = (translate(self.msgid) if translate and self.msgid else None) or self.msgid
        if not args:
            return own
        try:
            return own.format(**args)
        except (KeyError, IndexError, ValueError):
            return self.msgid.format(**args)

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        params = {k: v.to_json() if isinstance(v, Text) else v for k, v in self.params}
        return {"msgid": self.msgid, "params": params}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Text:
        params = tuple(
            (str(k), cls.from_json(v) if isinstance(v, Mapping) else str(v))
            for k, v in dict(obj.get("params") or {}).items()
        )
        return cls(str(obj["msgid"]), params)


def text(msgid: str, **params: str | Text) -> Text:
    """A :class:`Text` (``msgid`` must be marked with ``gettext_noop`` where it is written)."""
    return Text(msgid, tuple(params.items()))


def localize_result(
    result: Mapping[str, Any], translate: Callable[[str], str | None]
) -> dict[str, Any]:
    """A Test Bot result (``SampleResult.to_json()``) with the texts it has messages for
    (``i18n``, dropped from the copy: ``title``, ``description``, ``table``…) translated; a
    result without them is returned as it is.

    >>> r = {"title": "Discard", "i18n": {"title": {"msgid": "Discard", "params": {}}}}
    >>> localize_result(r, {"Discard": "Bỏ bài"}.get)
    {'title': 'Bỏ bài'}
    """
    out = dict(result)
    messages = out.pop("i18n", None)
    if isinstance(messages, Mapping):
        for name, message in messages.items():
            if isinstance(message, Mapping) and "msgid" in message:
                out[name] = Text.from_json(message).render(translate)
    return out


@dataclass(frozen=True)
class SampleCase:
    """One fixed situation: the state, whose turn it is, and what it exercises (``title``
    and ``description`` in English; ``title_text`` and ``description_text`` to translate)."""

    key: str
    title_text: Text
    description_text: Text
    state: Any
    seat: int
    game: str = "tienlen"

    @property
    def title(self) -> str:
        return str(self.title_text)

    @property
    def description(self) -> str:
        return str(self.description_text)

    def view(self) -> dict[str, Any]:
        """The bot's ``gameState`` for this sample (a fresh dict on every call)."""
        engine: Any = find_game(self.game)  # bot_view is not in the Game protocol
        return dict(engine.bot_view(self.state, self.seat))


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
) -> SampleCase:
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
        state = GAME.new_game(cfg, seed=attempt)
        if state.finished:  # an instant win: deal again
            continue
        try:
            for seat, cards in script:
                action: dict[str, Any] = (
                    {"type": "pass", "seat": seat}
                    if cards is None
                    else {"type": "play", "seat": seat, "cards": list(cards)}
                )
                state, _ = GAME.apply(state, action)
        except ValueError:
            continue  # the shuffle gave someone a card that changes the script's legality
        seat = state.turn
        if state.finished or (check is not None and not check(GAME.bot_view(state, seat))):
            continue
        return SampleCase(key, text(title), text(description), state, seat)
    raise RuntimeError(f"sample {key!r}: no deal satisfies its checks")  # pragma: no cover


def _has_type(kind: str) -> Check:
    return lambda v: any(m["type"] == kind for m in v["validMoves"])


def _no_cut(v: dict[str, Any]) -> bool:
    return not v["validMoves"]


STRAIGHT_3_TO_K = ["3S", "4C", "5D", "6H", "7S", "8C", "9D", "10H", "JS", "QC", "KD"]


def _cases() -> list[SampleCase]:
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


# --------------------------------------------------------------------------- played samples

#: Seats of the sample games of the games without scripted samples (one table size each).
SAMPLE_PLAYERS = {"stud": 3, "diu": 4}
#: How many samples a played game list keeps, and how many seeded games it may look through.
PLAYED_SAMPLES = 12
PLAYED_SEEDS = 60
MAX_MOVES = 600
#: The title of a stud sample, per street (``{legal}``: the legal actions).
STREET_TITLES = {
    3: gettext_noop("Third street: {legal}"),
    4: gettext_noop("Fourth street: {legal}"),
    5: gettext_noop("Fifth street: {legal}"),
    6: gettext_noop("Sixth street: {legal}"),
    7: gettext_noop("Seventh street: {legal}"),
}
DIU_KINDS = {
    "discard": gettext_noop("Discard"),
    "call": gettext_noop("A card is up: claim it or pass"),
    "diu": gettext_noop("Diu chance"),
    "offer": gettext_noop("An offer"),
}


def _stud_kind(view: dict[str, Any]) -> tuple[Any, ...]:
    return (view["street"], tuple(m["action"] for m in view["validMoves"]))


def _stud_text(view: dict[str, Any]) -> tuple[Text, Text]:
    legal = ", ".join(m["action"] for m in view["validMoves"])
    street = view["street"]
    pot = sum(p["amount"] for p in view["pots"])
    to_call = (view["yourTurn"] or {}).get("amount_to_call", 0)
    title = (
        text(STREET_TITLES[street], legal=legal)
        if street in STREET_TITLES
        else text("{street} street: {legal}", street=str(street), legal=legal)
    )
    description = text(
        gettext_noop("Seat {seat} of {players}; pot {pot}, {to_call} to call. Legal now: {legal}."),
        seat=str(view["myPosition"]),
        players=str(view["metadata"]["players"]),
        pot=str(pot),
        to_call=str(to_call),
        legal=legal,
    )
    return title, description


def _diu_kind(view: dict[str, Any]) -> tuple[Any, ...]:
    prompt = view["prompt"] or {}
    actions = {str(o["action"]) for o in prompt.get("options", [])}
    source = (view["card"] or {}).get("source")
    return (
        prompt.get("kind"),
        "diu" in actions,
        "claim" in actions,
        source,
        view["stockCount"] // 12,
    )


def _diu_text(view: dict[str, Any]) -> tuple[Text, Text]:
    prompt = view["prompt"] or {}
    kind = str(prompt.get("kind"))
    shapes = sorted({str(o["action"]) for o in prompt.get("options", [])})
    claims = sorted({str(o["type"]) for o in prompt.get("options", []) if "type" in o})
    title = text(DIU_KINDS.get(kind, kind))
    if "diu" in shapes:
        title = text(gettext_noop("A card is up: you can diu (win)"))
    if claims:
        title = text(gettext_noop("{title} ({claims})"), title=title, claims=", ".join(claims))
    up = view["card"]
    where = (
        text(
            gettext_noop("card {card} from seat {seat} ({source})"),
            card=str(up["card"]),
            seat=str(up["seat"]),
            source=str(up["source"]),
        )
        if up
        else text(gettext_noop("no card up"))
    )
    description = text(
        gettext_noop(
            "You are {role} (seat {seat}), {cards} cards, {stock} in the stock; {where}. "
            "Replies: {replies}."
        ),
        role=str(view["myRole"]),
        seat=str(view["myPosition"]),
        cards=str(len(view["myCards"])),
        stock=str(view["stockCount"]),
        where=where,
        replies=", ".join(shapes),
    )
    return title, description


_KIND: dict[str, Callable[[dict[str, Any]], tuple[Any, ...]]] = {
    "stud": _stud_kind,
    "diu": _diu_kind,
}
_TEXT: dict[str, Callable[[dict[str, Any]], tuple[Text, Text]]] = {
    "stud": _stud_text,
    "diu": _diu_text,
}


def _played_cases(name: str) -> list[SampleCase]:
    """Samples of ``name`` from seeded games of its house AI (medium; ``suggest`` when the
    engine has no house AI): every seat's decision is a candidate, the first of each kind
    (``_KIND``) is kept, in the order met, up to :data:`PLAYED_SAMPLES`."""
    engine: Any = find_game(name)
    house = getattr(engine, "house_action", None)
    players = SAMPLE_PLAYERS.get(name, engine.min_players)
    kind_of = _KIND.get(name, lambda v: (len(v),))
    text_of = _TEXT.get(
        name,
        lambda v: (
            text(gettext_noop("{game} sample"), game=name),
            text(gettext_noop("A {game} decision."), game=name),
        ),
    )
    seen: set[tuple[Any, ...]] = set()
    cases: list[SampleCase] = []
    for seed in range(PLAYED_SEEDS):
        state = engine.new_game({"players": players}, seed=seed)
        for _ in range(MAX_MOVES):
            pending = engine.round_status(state).pending
            if getattr(state, "finished", False) or not pending:
                break
            seat = pending[0]
            view = engine.bot_view(state, seat)
            kind = kind_of(view)
            if kind not in seen:
                seen.add(kind)
                title, description = text_of(view)
                key = f"{name}_{len(cases) + 1:02d}"
                cases.append(SampleCase(key, title, description, state, seat, game=name))
                if len(cases) >= PLAYED_SAMPLES:
                    return cases
            action = house(state, seat, "medium") if house else engine.suggest(state, seat)
            state, _events = engine.apply(state, action)
    return cases


@cache
def _cached(game: str) -> tuple[SampleCase, ...]:
    if game == "tienlen":
        return tuple(_cases())
    return tuple(_played_cases(game))


def sample_cases(game: str = "tienlen") -> list[SampleCase]:
    """The fixed samples of ``game``, in display order (built once per process).
    ``unknown_game`` for a name the registry does not know."""
    find_game(game)
    return list(_cached(game))
