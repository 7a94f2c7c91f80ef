"""Each game words its own samples, situations, points unit, error codes, action labels and part
of the bot API reference; bots/ asks the game.

A game written for the tests (High Card, tests/fourth_game) gets Test Bot samples, a validation
table size, a points unit, its own error sentences, its moves described with its own labels and
its sections in the reference (docs and the editor's panel, English and Vietnamese) without any
change in bots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from bots.error_text import BOT_ERROR_SENTENCES, error_sentence, error_text
from bots.examples import all_examples, example_code, examples_for, template_code
from bots.matches.views import points_unit
from bots.reference import render_html, render_markdown
from bots.samples import Text, sample_cases
from bots.validation import _common, describe_move, validation_players
from bots.views import gamestate_types
from games.engine import registry
from games.engine.core.errors import ERROR_CODES
from games.engine.core.reference import BotReference, Section, p, sandbox_errors, table
from games.engine.core.text import gettext_noop
from games.engine.duplicate import points_unit as engine_points_unit
from tests.fourth_game import HighCardGame

SITE_GAMES = ("tienlen", "stud", "diu")


#: Wordy High Card's part of the bot API reference, with its Vietnamese text.
WORDY_REFERENCE = BotReference(
    sections=(
        Section("wordy", "Wordy High Card (`wordy`)", 2, (p("Play your highest card."),)),
        Section(
            "wordy-errors",
            "Error codes",
            3,
            (
                table(("code", "when"), ("`card_too_low`", "the card does not beat the card led")),
                sandbox_errors(),
            ),
        ),
    ),
    vi=(
        ("Play your highest card.", "Đánh lá cao nhất của bạn."),
        ("the card does not beat the card led", "lá bài không chặn được lá đã dẫn"),
    ),
    keep=frozenset({"Wordy High Card (`wordy`)"}),
)


class WordyHighCard(HighCardGame):
    """High Card with wording of its own."""

    name = "wordy"
    error_codes = {"card_too_low": "the card does not beat the card led"}
    bot_error_sentences = {"card_too_low": gettext_noop("Your bot played a card that is too low.")}
    points_unit = gettext_noop("tricks won")
    sample_players = 2
    action_labels = {"play": gettext_noop("Lay down")}
    bot_reference = WORDY_REFERENCE


@pytest.fixture
def wordy() -> Iterator[Any]:
    game = registry.register(WordyHighCard())
    try:
        yield game
    finally:
        registry.unregister(game.name)


def test_each_games_codes_are_its_own() -> None:
    seen: dict[str, str] = {}
    for name in SITE_GAMES:
        game = registry.find_game(name)
        assert game.error_codes, name
        assert set(game.bot_error_sentences) == set(game.error_codes), name
        for code in game.error_codes:
            assert code not in ERROR_CODES, code
            assert code not in BOT_ERROR_SENTENCES, code  # bots/ words only the shared codes
            assert seen.setdefault(code, name) == name, code
    assert set(seen) | set(ERROR_CODES) == set(registry.error_codes())


@pytest.mark.parametrize("name", SITE_GAMES)
def test_each_games_wording_is_translated(name: str) -> None:
    game = registry.find_game(name)
    with translation.override("vi"):
        assert points_unit(name) != game.points_unit
        for code, sentence in game.bot_error_sentences.items():
            assert error_sentence(code) == sentence
            assert translation.gettext(sentence) != sentence, code
        for case in sample_cases(name)[:3]:
            assert case.title_text.render(translation.gettext) != case.title, case.key
            assert case.description_text.render(translation.gettext) != case.description
            table = _common(case, 0)["i18n"]["table"]
            assert Text.from_json(table).render(translation.gettext) != _common(case, 0)["table"]
    with translation.override("en"):
        assert points_unit(name) == game.points_unit


def test_a_new_game_is_worded_by_itself(wordy: Any) -> None:
    cases = sample_cases("wordy")
    assert cases
    assert cases[0].key == "wordy_01"
    assert cases[0].title == "wordy sample"
    assert cases[0].view()["myPosition"] == cases[0].seat
    common = _common(cases[0], 0)
    assert common["hand"] == []
    assert common["table"] == cases[0].description
    assert validation_players("wordy") == 2
    assert engine_points_unit("wordy") == "tricks won"
    with translation.override("en"):
        assert points_unit("wordy") == "tricks won"
    assert error_sentence("card_too_low") == "Your bot played a card that is too low."
    assert str(error_text("illegal:card_too_low")) == "Your bot played a card that is too low."
    assert "card_too_low" in registry.error_codes()


def test_a_new_games_moves_are_described_with_its_labels(wordy: Any) -> None:
    # the label is the game's; the action's own fields follow as the engine gave them
    assert describe_move({"type": "play", "seat": 1, "card": "AH"}, "wordy") == "Lay down AH"
    assert describe_move({"type": "bring_in", "seat": 1}, "wordy") == "Bring in"  # no label
    assert describe_move({"type": "bring_in", "seat": 1}, "stud") == "Bring in"
    assert describe_move({"type": "play", "seat": 1, "card": "AH"}, "stud") == "Play AH"


def test_a_new_games_part_of_the_reference(wordy: Any) -> None:
    panel = render_html(game="wordy")
    assert "<summary>Wordy High Card (<code>wordy</code>)</summary>" in panel
    assert "<code>card_too_low</code>" in panel
    assert "<code>timeout</code>" in panel  # the sandbox's codes, filled in by bots/
    assert "myDownCards" not in panel  # no other game's sections
    assert "wordy" not in render_html(game="tienlen")
    vi = render_html(game="wordy", lang="vi")
    assert "<p>Đánh lá cao nhất của bạn.</p>" in vi
    assert "<td>lá bài không chặn được lá đã dẫn</td>" in vi
    assert "<summary>Mã lỗi</summary>" in vi
    assert "Bot của bạn chạy thế nào" in vi  # the shared sections too
    markdown = render_markdown()
    assert "## Wordy High Card (`wordy`)" in markdown
    assert markdown.index("## Suijiang Diu") < markdown.index("## Wordy High Card")


def test_a_new_games_example_bots_are_its_own(wordy: Any) -> None:
    # the example's file is in the game's package (tests/fourth_game/bots/), not in bots/
    assert [(e.key, e.title, e.game) for e in examples_for("wordy")] == [
        ("highcard_first", "First card", "wordy")
    ]
    assert "highcard_first" in [e.key for e in all_examples()]
    assert "legalActions[0]" in example_code("highcard_first")
    assert template_code("wordy") == example_code("highcard_first")
    assert template_code("stud") != template_code("wordy")


def test_the_typed_gamestate_is_found_by_the_games_name(wordy: Any) -> None:
    assert gamestate_types("wordy") is None
    assert str(gamestate_types("tienlen")).endswith("js/bots/types/tienlen.d.ts")


def test_an_unregistered_games_code_has_no_sentence() -> None:
    assert error_sentence("card_too_low") is None
    assert "card_too_low" not in registry.error_codes()
    assert "Wordy High Card" not in render_markdown()
    assert examples_for("wordy") == []
    assert "highcard_first" not in [e.key for e in all_examples()]
