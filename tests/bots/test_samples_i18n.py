"""Test Bot's sample texts (title, description, table line, move) are English messages
translated where they are shown: every one has a Vietnamese entry, and a Vietnamese reader
gets them in Vietnamese."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import User
from bots.samples import Text, localize_result, sample_cases
from bots.validation import _common, describe_move_text, run_samples
from games.engine.registry import find_game

GAMES = ("tienlen", "stud", "diu")


def messages(message: Text) -> Iterator[str]:
    """``message``'s msgid and those of its nested params, skipping the pure glue
    (``{a}; {b}``: no words outside the placeholders)."""
    if re.sub(r"\{\w+\}", "", message.msgid).strip(" ;:(),—"):
        yield message.msgid
    for _name, value in message.params:
        if isinstance(value, Text):
            yield from messages(value)


def sample_messages() -> set[str]:
    found: set[str] = set()
    for game in GAMES:
        for index, case in enumerate(sample_cases(game)):
            for json_message in _common(case, index)["i18n"].values():
                found.update(messages(Text.from_json(json_message)))
    for game in GAMES:
        for kind in find_game(game).action_labels:
            move = {"type": kind, "seat": 0, "cards": ["66"]}
            found.update(messages(describe_move_text(move, game)))
    found.update(messages(describe_move_text({"type": "pass", "seat": 0}, "diu")))
    found.update(
        messages(describe_move_text({"type": "play", "seat": 0, "cards": ["3S"]}, "tienlen"))
    )
    return found


def test_every_sample_text_has_a_vietnamese_entry() -> None:
    found = sample_messages()
    assert "Opening lead with 3♠" in found
    assert "Fifth street: {legal}" in found or "Third street: {legal}" in found
    assert "Card {card} up, from seat {seat} ({source})" in found
    with translation.override("vi"):
        missing = sorted(m for m in found if translation.gettext(m) == m)
    assert missing == []


def test_samples_not_run_are_reported_in_the_readers_language() -> None:
    results = [r.to_json() for r in run_samples("function getNextMove() {}", budget_s=0)]
    assert {r["error_code"] for r in results} == {"not_run"}
    assert results[0]["error_message"] == "not run: the test's time budget (0 s) ran out"
    with translation.override("vi"):
        shown = localize_result(results[0], translation.gettext)
    assert shown["error_message"] == "chưa chạy: đã hết thời gian dành cho lượt thử (0 s)"
    assert shown["title"] == "Mở ván với 3♠"


def test_a_translation_with_other_placeholders_falls_back_to_english() -> None:
    message = Text("Seat {seat}", (("seat", "2"),))
    assert message.render({"Seat {seat}": "Ghế {ghe}"}.get) == "Seat 2"
    assert message.render({"Seat {seat}": "Ghế {seat}"}.get) == "Ghế 2"
    assert localize_result({"title": "x"}, {"x": "y"}.get) == {"title": "x"}  # no messages


@pytest.mark.django_db
def test_test_run_results_are_in_the_readers_language(user: User, good_code: str) -> None:
    api = APIClient()
    api.force_authenticate(user)
    english = api.post("/api/bots/test-run/", {"code": good_code}, format="json").json()
    first = english["results"][0]
    assert first["title"] == "Opening lead with 3♠"
    assert first["table"] == "You lead; include 3♠"
    assert first["move_text"] == "Played 3♠"
    assert "i18n" not in first
    vi = api.get(english["url"], HTTP_ACCEPT_LANGUAGE="vi").json()
    first = vi["results"][0]
    assert first["title"] == "Mở ván với 3♠"
    assert first["description"].startswith("Nước đầu tiên của ván")
    assert first["table"] == "Bạn đánh trước; phải có 3♠"
    assert first["move_text"] == "Đánh 3♠"
    assert first["hand"] == english["results"][0]["hand"]
    assert vi["passed"] == english["passed"] == english["total"]
