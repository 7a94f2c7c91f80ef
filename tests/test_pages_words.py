"""Issue 25, "what a new player and a bot author hit" (pages, part 1): the Create Table settings
in words with the rare ones under "Advanced" and friendlier Diu timers, a How to Play page per
game that "Read the rules" follows, and the Vietnamese pages without English or raw values left
(settings, import errors, bot errors, the leaderboard's headers, house AI names)."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from bots.error_text import (
    BOT_ERROR_SENTENCES,
    NOT_BOT_CODES,
    bot_error,
    error_sentence,
    error_text,
    validation_message,
)
from bots.samples import localize_result, sample_cases, text
from bots.sandbox import ErrorCode, MoveOutcome
from bots.validation import judge_sample
from games import services
from games.engine.registry import GAMES, bot_error_sentences, error_codes, find_game
from games.forms import TableCreateForm
from games.models import Game, Table
from games.tournaments.services import entry_add_house, tournament_create
from tests.factories import UserFactory
from tests.games.live import seat_users, state_of

pytestmark = pytest.mark.django_db

#: Engine words the Create Table form showed as labels before (issue 25).
RAW_WORDS = [
    "fixed",
    "literal head only",
    "next claimant",
    "fisher yates",
    "riffle3",
    "normal flow",
    "complete hand",
    "winner becomes a",
    "pips",
    "pong",
]


def _text(response: Any, drop: tuple[str, ...] = ()) -> str:
    """The page's visible text: tags, scripts, styles (and the ``drop`` elements) dropped,
    entities decoded."""
    body = response.content.decode()
    tags = "|".join(("script", "style", *drop))
    body = re.sub(rf"<({tags})\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _options(page: str, name: str) -> list[str]:
    """The labels of the options of the select named ``name``."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, name
    return [html.unescape(x).strip() for x in re.findall(r">([^<]*)</option>", select[1])]


# --------------------------------------------------------------------------- Create Table


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_every_word_option_of_every_game_has_a_label_in_words(
    user_client: Client, lang: str
) -> None:
    page = user_client.get(f"{reverse('tables:create')}?lang={lang}").content.decode()
    for game in GAMES.values():
        for key in game.table_option_choices:
            labels = _options(page, key)
            assert len(labels) == len(game.table_option_choices[key])
            for label in labels:
                assert label.lower() not in RAW_WORDS, (key, label)
                assert "_" not in label, (key, label)
    if lang == "vi":
        assert "Người thắng làm A (头家)" in _options(page, "rotation")
        assert "Chỉ xáo" in _options(page, "shuffle_mode")


def test_diu_rare_options_are_under_advanced_and_timers_are_friendlier(
    user_client: Client,
) -> None:
    page = user_client.get(f"{reverse('tables:create')}?lang=vi").content.decode()
    advanced = re.search(
        r'<details class="advanced-options" data-advanced-options="diu"(.*?)</details>', page, re.S
    )
    assert advanced is not None
    assert "Nâng cao" in advanced[1]
    for key in find_game("diu").advanced_table_options:
        assert f'name="{key}"' in advanced[1], key
    for key in ("t_play", "t_call", "rotation", "diu_mode", "hard_bonus"):
        assert f'name="{key}"' not in advanced[1], key
    form = TableCreateForm()
    assert (form["t_play"].initial, form["t_call"].initial, form["t_offer"].initial) == (45, 25, 25)
    # the rules' own defaults stay the engine's (conformance scenarios rely on them)
    assert find_game("diu").validate_config({})["t_play"] == 20


def test_read_the_rules_follows_the_chosen_game(user_client: Client) -> None:
    page = user_client.get(reverse("tables:create")).content.decode()
    found = re.search(r'id="rules-urls"[^>]*>(.*?)</script>', page, re.S)
    assert found is not None
    urls = json.loads(found[1])
    assert urls == {
        "tienlen": "/how-to-play/",
        "stud": "/how-to-play/stud/",
        "diu": "/how-to-play/diu/",
    }
    assert re.search(r'href="/how-to-play/" data-rules-link', page)
    # a form sent back with Diu chosen links Diu's rules
    again = user_client.post(reverse("tables:create"), {"game": "diu", "name": ""}).content.decode()
    assert re.search(r'href="/how-to-play/diu/" data-rules-link', again), re.findall(
        r'href="[^"]*" data-rules-link', again
    )
    assert "rulesLink.href = rulesUrls[game.value]" in page  # and the script follows a change


@pytest.mark.parametrize(
    ("path", "english", "vietnamese"),
    [
        ("/how-to-play/", "How to play Tiến Lên Miền Nam", "Cách chơi Tiến Lên Miền Nam"),
        ("/how-to-play/stud/", "How to play Seven-Card Stud", "Cách chơi Stud 7 lá"),
        (
            "/how-to-play/diu/",
            "How to play Suijiang Diu (绥江丢)",
            "Cách chơi Suijiang Diu (绥江丢)",
        ),
    ],
)
def test_each_game_has_its_how_to_play_page_in_both_languages(
    client: Client, path: str, english: str, vietnamese: str
) -> None:
    en = _text(client.get(f"{path}?lang=en"))
    vi = _text(client.get(f"{path}?lang=vi"))
    assert english in en
    assert vietnamese in vi
    assert english not in vi
    for title in ("Tiến Lên Miền Nam", "Stud 7 lá"):  # the pages link each other
        assert title in vi


def test_an_unknown_game_has_no_rules_page(client: Client) -> None:
    assert client.get("/how-to-play/chess/").status_code == 404


# --------------------------------------------------------------------------- history pages


def _finished(game_name: str, on_commit: Any) -> tuple[Table, Game]:
    """Game 1 of a new table of ``game_name``, four people playing each its first legal action
    to the end (``on_commit``: pytest-django's ``django_capture_on_commit_callbacks``, which
    runs the deal the start schedules)."""
    users = [UserFactory.create(username=f"{game_name}{i}") for i in range(4)]
    table = services.table_create(owner=users[0], name="Words", game=game_name)
    for i, user in enumerate(users[1:], start=1):
        services.seat_join(table_id=table.pk, user=user, seat=i)
    for user in users:
        services.seat_ready(table_id=table.pk, user=user)
    with on_commit(execute=True):
        services.table_start(table_id=table.pk, user=users[0])
    game = Game.objects.get(table=table, number=1)
    engine = find_game(game_name)
    for _ in range(3000):
        if game.status != Game.Status.RUNNING:
            break
        state = state_of(game)
        seat = engine.round_status(state).pending[0]
        services.game_play(
            table_id=table.pk,
            user=seat_users(table)[seat],
            version=game.version,
            action=dict(engine.legal_actions(state, seat)[0]),
        )
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return table, game


@pytest.mark.parametrize("game_name", ["tienlen", "stud", "diu"])
def test_the_game_page_shows_its_settings_in_words(
    client: Client, game_name: str, django_capture_on_commit_callbacks: Any
) -> None:
    table, _game = _finished(game_name, django_capture_on_commit_callbacks)
    en = _text(client.get(f"/tables/{table.code}/games/1/?lang=en"))
    vi = _text(client.get(f"/tables/{table.code}/games/1/?lang=vi"))
    for raw in (
        "hide_hand_counts",
        "opening",
        "t_play",
        "decline_policy",
        "next_claimant",
        "True",
        "False",
        "buy_in",
        "small_bet",
        "{'chi'",
    ):
        assert not re.search(rf"\b{re.escape(raw)}\b", en + vi), raw
    assert "Games in the session" in en
    assert "Số ván của phiên" in vi
    if game_name == "diu":
        assert "Seconds to discard" in en
        assert "45" in en
        assert "Standard: 对 is a pair" in en
        assert "Chuẩn: 对 là một đôi" in vi
    if game_name == "tienlen":
        assert "Hide hand counts" in en
        assert "Không" in vi


def test_a_house_ai_is_named_in_the_readers_language_on_the_game_and_replay_pages(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    table, game = _finished("tienlen", django_capture_on_commit_callbacks)
    players = list(game.players)
    players[1] = {**players[1], "name": "AI Tùng (medium)", "user_id": None}
    Game.objects.filter(pk=game.pk).update(players=players)
    for path in (f"/tables/{table.code}/games/1/", f"/tables/{table.code}/games/1/replay/"):
        page = _text(client.get(f"{path}?lang=vi"), drop=("textarea",))  # not the shared text
        assert "AI Tùng (vừa)" in page, path
        at = page.find("(medium)")
        assert at < 0, (path, page[max(0, at - 300) : at + 50])


def test_import_errors_are_sentences_in_both_languages(user_client: Client) -> None:
    url = reverse("tables:history_import")
    en = user_client.post(f"{url}?lang=en", {"text": "not json"})
    vi = user_client.post(f"{url}?lang=vi", {"text": "not json"})
    assert en.status_code == vi.status_code == 400
    assert "That is not a game export of this site" in _text(en)
    assert "Đây không phải tệp xuất ván của trang này" in _text(vi)
    for page in (_text(en), _text(vi)):
        assert "bad_export" not in page
        assert "the file is not JSON" not in page
    assert 'data-code="bad_export"' in vi.content.decode()


# --------------------------------------------------------------------------- bot errors


def test_every_code_a_bots_move_can_get_has_a_sentence_in_both_languages() -> None:
    codes = (set(error_codes()) - NOT_BOT_CODES) | {str(c) for c in ErrorCode}
    sentences = {**BOT_ERROR_SENTENCES, **bot_error_sentences()}  # shared, then each game's
    assert codes <= set(sentences)
    assert all(error_sentence(code) == sentences[code] for code in codes)
    with translation.override("vi"):
        for code, sentence in sentences.items():
            if "{" in sentence:
                continue
            assert translation.gettext(sentence) != sentence, code


def test_a_rules_error_of_test_bot_reads_as_a_sentence_not_its_code_twice() -> None:
    """The editor showed "leader_cannot_pass: leader_cannot_pass"."""
    case = next(c for c in sample_cases("tienlen") if c.key == "new_round_leader")
    result = judge_sample(case, 0, MoveOutcome(ok=True, value={"action": "pass"}))
    assert (result.ok, result.error_code) == (False, "leader_cannot_pass")
    assert result.error_message == "Your bot leads this round: it must play, not pass."
    with translation.override("vi"):
        shown = localize_result(result.to_json(), translation.gettext)
    assert shown["error_message"] == "Bot của bạn mở vòng này: nó phải đánh, không được bỏ lượt."


def test_validation_messages_and_records_read_in_the_readers_language() -> None:
    message = text(
        "move {n} (seat {seat}): {error}", n="3", seat="1", error=error_text("timeout", "slow")
    )
    stored = {"message": str(message), "message_i18n": message.to_json()}
    with translation.override("en"):
        english = validation_message(stored)
    assert english == "move 3 (seat 1): Your bot took longer than its time limit."
    with translation.override("vi"):
        assert (
            validation_message(stored) == "nước 3 (ghế 1): Bot của bạn chạy quá thời gian cho phép."
        )
        record = {"error_code": "illegal:leader_cannot_pass", "error_message": "leader_cannot_pass"}
        assert bot_error(record) == "Bot của bạn mở vòng này: nó phải đánh, không được bỏ lượt."
    assert validation_message({"message": "an old English one"}) == "an old English one"


# --------------------------------------------------------------------------- the walk


#: English and raw fragments the Vietnamese pages showed before (issue 25), by page.
LEFT_OVER = {
    "*": [
        "Skill (95%)",
        "House AI (",
        "(medium)",
        "(easy)",
        " AM",
        " PM",
        "leader_cannot_pass: leader_cannot_pass",
        "tampered:",
        "bad_export:",
        "Read the rules",
    ],
    "create-diu": RAW_WORDS,
    "game-": ["hide_hand_counts", "False", "True", "t_play", "next_claimant"],
}


def test_the_main_pages_in_vietnamese_show_no_english_or_raw_values_left(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.bots.matches.conftest import ready_versions

    client.force_login(user)
    bot = ready_versions(user, "Mine", 1)[0].bot
    tournament = tournament_create(
        creator=user,
        name="Giải",
        game="tienlen",
        format="round_robin",
        start_at=timezone.now() + timedelta(days=1),
    )
    entry_add_house(tournament_id=tournament.pk, user=user, level="easy")
    tables = {
        name: _finished(name, django_capture_on_commit_callbacks)[0]
        for name in ("tienlen", "stud", "diu")
    }
    pages = {
        "home": "/",
        "rules-tienlen": "/how-to-play/",
        "rules-stud": "/how-to-play/stud/",
        "rules-diu": "/how-to-play/diu/",
        "leaderboard": "/bots/leaderboard/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{tournament.pk}/",
        "editor": f"/bots/{bot.pk}/",
        **{f"game-{n}": f"/tables/{t.code}/games/1/" for n, t in tables.items()},
    }
    texts = {name: _text(client.get(f"{path}?lang=vi")) for name, path in pages.items()}
    for game in GAMES:
        response = client.post(f"{reverse('tables:create')}?lang=vi", {"game": game, "name": ""})
        page = response.content.decode()
        # only the chosen game's options count (the others' are hidden by the page's script)
        texts[f"create-{game}"] = _text(response)
        if game == "diu":
            texts["create-diu"] = " ".join(
                " | ".join(_options(page, k)) for k in GAMES[game].table_option_choices
            )
    for name, text_ in texts.items():
        for prefix, fragments in LEFT_OVER.items():
            if prefix == "*" or name.startswith(prefix):
                left = [f for f in fragments if re.search(rf"(?<![\w_]){re.escape(f)}", text_)]
                assert not left, f"{name}: {left}"
    assert "Trình độ (95%)" in texts["leaderboard"]
    assert re.search(r"AI \w+ \(dễ\)", texts["tournament"])  # its house entry, in words
    assert "Đọc luật chơi" in texts["create-tienlen"]
