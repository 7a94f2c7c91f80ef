"""Each game words its own samples, situations, points unit and error codes; bots/ asks the game.

A game written for the tests (High Card, tests/fourth_game) gets Test Bot samples, a validation
table size, a points unit and its own error sentences without any change in bots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from bots.error_text import BOT_ERROR_SENTENCES, error_sentence, error_text
from bots.matches.views import points_unit
from bots.samples import Text, sample_cases
from bots.validation import _common, validation_players
from games.engine import registry
from games.engine.core.errors import ERROR_CODES
from games.engine.core.text import gettext_noop
from games.engine.duplicate import points_unit as engine_points_unit
from tests.fourth_game import HighCardGame

SITE_GAMES = ("tienlen", "stud", "diu")


class WordyHighCard(HighCardGame):
    """High Card with wording of its own."""

    name = "wordy"
    error_codes = {"card_too_low": "the card does not beat the card led"}
    bot_error_sentences = {"card_too_low": gettext_noop("Your bot played a card that is too low.")}
    points_unit = gettext_noop("tricks won")
    sample_players = 2


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


def test_an_unregistered_games_code_has_no_sentence() -> None:
    assert error_sentence("card_too_low") is None
    assert "card_too_low" not in registry.error_codes()
