"""The replay page and its JSON show the move texts in the reader's language (translated at
display time from the engine's templates and params), while exports keep the English texts
byte for byte."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.games.test_history_games import human_table, play

pytestmark = pytest.mark.django_db(transaction=True)

#: game → (seats, Vietnamese words its move texts must show, their English counterparts,
#: English words of the texts its export keeps: stud's and Diu's own lines are shown at display
#: only, their exports keep the generic lines)
CASES = {
    "tienlen": (4, ["đánh", "thắng vòng"], ["played", "won round"], ["played", "won round"]),
    "stud": (
        4,
        ["Ván mới, 4 người chơi", "thắng ván"],
        ["New hand, 4 players", "wins the hand"],
        ["hand_started", "Game over"],
    ),
    "diu": (
        4,
        ["Đã niêm phong thêm", "đánh ra", "bỏ lượt"],
        ["more stock cards are sealed", "discards", "passes"],
        ["discarded", "passed (stage"],
    ),
}


def _finished(name: str) -> Game:
    seats = CASES[name][0]
    table, users, game = human_table(name, seats, f"{name[:2]}i")
    game = play(table, users, game, rng=random.Random(f"i18n-{name}"))
    assert game.status == Game.Status.FINISHED
    return game


def _page_texts(client: Client, game: Game, lang: str) -> list[str]:
    url = reverse("tables:replay", args=[game.table.code, game.number])
    html = client.get(f"{url}?lang={lang}").content.decode()
    start = html.index('<script id="replay-data" type="application/json">')
    body = html[html.index(">", start) + 1 : html.index("</script>", start)]
    return [str(s["text"]) for s in json.loads(body)["steps"]]


def _json_texts(client: Client, game: Game, lang: str) -> list[str]:
    url = reverse("tables:replay_json", args=[game.table.code, game.number])
    return [str(s["text"]) for s in client.get(f"{url}?lang={lang}").json()["steps"]]


def _export(client: Client, game: Game, lang: str) -> bytes:
    url = reverse("tables:export", args=[game.table.code, game.number])
    response = client.get(f"{url}?lang={lang}")
    assert response.status_code == 200
    return bytes(response.content)


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_move_texts_follow_the_readers_language(name: str) -> None:
    game = _finished(name)
    _, vietnamese, english, _ = CASES[name]
    client = Client()
    for texts in (_page_texts(client, game, "vi"), _json_texts(client, game, "vi")):
        joined = "\n".join(texts)
        if name == "tienlen":
            assert texts[0] == "Bài đã được chia"
        for word in vietnamese:
            assert word in joined, (word, joined[:500])
        for word in english:
            assert word not in joined, (word, joined[:500])
    for texts in (_page_texts(client, game, "en"), _json_texts(client, game, "en")):
        joined = "\n".join(texts)
        if name == "tienlen":
            assert texts[0] == "The cards are dealt"
        for word in english:
            assert word in joined, (word, joined[:500])
        assert not any(word in joined for word in vietnamese)
    # the players' names and the cards stay as they are in both languages
    names = [p["name"] for p in game.players] if isinstance(game.players, list) else []
    assert any(str(n) in "\n".join(_json_texts(client, game, "vi")) for n in names)


@pytest.mark.parametrize("name", sorted(CASES))
def test_exports_keep_the_english_texts_whatever_the_readers_language(name: str) -> None:
    game = _finished(name)
    client = Client()
    english, vietnamese = _export(client, game, "en"), _export(client, game, "vi")
    assert english == vietnamese
    turns = json.loads(english).get("turns")  # a hand history (stud); the others: a seed
    if turns is not None:
        texts = "\n".join(str(t["text"]) for t in turns)
        assert all(word in texts for word in CASES[name][3])
        assert not any(word in texts for word in CASES[name][1] + CASES[name][2])
