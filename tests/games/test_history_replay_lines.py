"""Stud's and Diu's own replay lines (``event_line``): every move of a replay reads as a
sentence in English and in Vietnamese, with no raw field name or value (a phase, a bet type, a
claim type, snake_case) in it, while the English texts that exports keep stay the generic
lines, byte for byte. No database: the replays are recomputed by the engine."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import translation

from games import history
from games.engine.registry import find_game
from tests.games.test_history_replay import random_playout

#: Games (per engine) replayed from every seat and a spectator's chair.
GAMES_PER_ENGINE = {"stud": 40, "diu": 6}

#: Raw names that must never reach a reader: snake_case identifiers, and the words the site's
#: generic line shows for a field or an event (in either language).
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
RAW = {
    "en": re.compile(
        r"\((stage|amount|total|street|players|button|card|source|index|count)\b"
        r"|\bstage\b|\bcall\b|\bbring_in\b|\bcard_open\b|\bno_claim\b|\bstock_batch\b"
    ),
    "vi": re.compile(
        r"\bcall\b|\bdiscard\b|\boffer\b|\bstage\b|giai đoạn|\(số lá|\(lá |\(nguồn"
        r"|\(số tiền|\(người chơi|\bbet\b|\braise\b|\bfold\b|\bcheck\b|\bcomplete\b"
    ),
}
#: The generic line's shape, ``"<name>: <event> (<fields>)"`` (no line of the games' own
#: starts with a name and a colon).
GENERIC = re.compile(r"(^|; )Player[A-G]: ")


def _replays(name: str) -> list[tuple[list[str], Any, list[dict[str, Any]]]]:
    """``(names, engine, steps)`` of random finished games of ``name``, from every seat's
    point of view and a spectator's."""
    engine = find_game(name)
    rng = random.Random(f"lines-{name}")
    out = []
    for _ in range(GAMES_PER_ENGINE[name]):
        seed = rng.getrandbits(63)
        config, final = random_playout(engine, seed, rng)
        record = engine.record(final)
        names = [f"Player{chr(65 + s)}" for s in range(config["players"])]
        for seat in [None, *range(config["players"])]:
            replay = history.replay_steps(
                engine,
                config=config,
                seed=seed,
                actions=record["actions"],
                seat=seat,
                reveal=True,
                names=names,
            )
            out.append((names, engine, [dict(s) for s in replay.steps]))
    return out


def _texts(steps: list[dict[str, Any]], names: list[str], engine: Any, lang: str) -> list[str]:
    shown = [dict(s) for s in steps]
    with translation.override(lang):
        history.translate_steps(shown, names, engine)
    return [str(s["text"]) for s in shown]


@pytest.mark.parametrize("name", sorted(GAMES_PER_ENGINE))
def test_every_replay_line_is_a_sentence_in_both_languages(name: str) -> None:
    kinds: set[str] = set()
    for names, engine, steps in _replays(name):
        english = _texts(steps, names, engine, "en")
        vietnamese = _texts(steps, names, engine, "vi")
        for step, en, vi in zip(steps, english, vietnamese, strict=True):
            kinds |= {str(e.get("type")) for e in step["events"]}
            for lang, text in (("en", en), ("vi", vi)):
                assert not SNAKE.search(text), (lang, text)
                assert not RAW[lang].search(text), (lang, text)
                assert not GENERIC.search(text), (lang, text)
            if en and step["index"] > 0:
                assert vi != en, en  # every line has its Vietnamese sentence
    # the games played reached the events worth a line (not only the first street)
    expected = {
        "stud": {"hand_started", "action", "street_ended", "hand_ended"},
        "diu": {"discarded", "passed", "no_claim", "card_open", "stock_batch", "game_ended"},
    }[name]
    assert expected <= kinds, expected - kinds


def test_bet_types_phases_and_claims_are_named_in_words() -> None:
    stud, diu = find_game("stud"), find_game("diu")
    names = ["Lan", "Minh", "Hoa", "Tuan"]
    call = {"type": "action", "seat": 1, "action": "call", "amount": 5, "total": 10}
    passed = {"type": "passed", "seat": 2, "stage": "call", "auto": False}
    repoll = {"type": "passed", "seat": 2, "stage": "diu", "auto": True}
    meld = {"type": "hard_pair", "seat": 3, "cards": ["66", "66", "66"], "from": 0}
    street = {"type": "street_ended", "street": 5, "pots": [{"amount": 40}, {"amount": 8}]}
    cases = [
        (stud, call, "Minh calls 5", "Minh theo 5"),
        (stud, {**call, "all_in": True}, "Minh calls 5 and is all in", "Minh theo 5 và tất tay"),
        (stud, street, "Fifth street is over: the pot is 48", "Hết street thứ 5: pot là 48"),
        (diu, passed, "Hoa passes", "Hoa bỏ lượt"),
        (diu, repoll, "Hoa passes on 丢 (diu) (auto)", "Hoa không 丢 (diu) (tự động)"),
        (
            diu,
            {**meld, "source": "discard"},
            "Tuan takes Lan's 66 天牌 with 硬对 (hard pair): 66 66 66",
            "Tuan lấy lá 66 天牌 của Lan bằng đôi cứng (硬对): 66 66 66",
        ),
        (
            diu,
            {"type": "kuai", "seat": 0},
            "Lan claims the card: 筷 (kuai)",
            "Lan xin lá bài: khoái (筷 kuai)",
        ),
    ]
    for engine, event, en, vi in cases:
        with translation.override("en"):
            assert history.event_text(event, names, engine, translate=True) == en
        with translation.override("vi"):
            assert history.event_text(event, names, engine, translate=True) == vi


@pytest.mark.parametrize("name", sorted(GAMES_PER_ENGINE))
def test_the_english_texts_exports_keep_are_the_generic_lines(name: str) -> None:
    """Exports (a stud hand history, a running game's turns) keep the step texts the replay
    computes in English: still the site's generic lines, whatever the game's own lines say."""
    for names, engine, steps in _replays(name)[:8]:
        for step in steps:
            generic = history.step_text(step["events"], names, None)
            assert history.step_text(step["events"], names, engine) == generic
            assert step["text"] == (generic or ("The cards are dealt" if not step["index"] else ""))
