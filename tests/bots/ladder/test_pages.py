"""The ladder's page (both languages), its JSON API, a bot's placement on its rating page, and
the reason of a suspension shown to its owner only."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bots.ladder import services
from bots.models import Bot, LadderEntrant, LadderSet
from tests.bots.live import example_version, new_user

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(settings: Any) -> dict[str, Any]:
    """One ladder (Tiến Lên, 4 seats) with a promoted bot and one set played (the test
    scheduler plays the tables at once: no countdown, no bot delay)."""
    settings.LADDER_GAMES = ["tienlen:4"]
    settings.HOUSE_AI_BUDGET_MS = 20.0
    owner = new_user("owner")
    version = example_version(owner, "greedy", "Greedy")
    Bot.objects.filter(pk=version.bot_id).update(promoted_version=version)
    assert services.ladder_tick(rng=random.Random(4)) == 1
    the_set = LadderSet.objects.get()
    assert the_set.status == LadderSet.Status.FINISHED
    entrant = LadderEntrant.objects.get(version=version)
    return {"owner": owner, "version": version, "set": the_set, "entrant": entrant}


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_ladder_page_in_both_languages(played: dict[str, Any]) -> None:
    url = reverse("bots:ladder", args=["tienlen", 4])
    assert _client().get(reverse("bots:ladder_index"))["Location"] == url
    html = _client().get(url).content.decode()
    assert "Bot ladder: Tiến Lên Miền Nam, 4 seats" in html
    assert f"Greedy v{played['version'].number}" in html
    assert "House AI (Easy)" in html
    assert "Placing" in html
    # the line links to its set's four games (replays; the deal is closed: every table done)
    for link in played["set"].tables.select_related("table"):
        assert reverse("tables:replay", args=[link.table.code, 1]) in html
    vi = _client().get(f"{url}?lang=vi").content.decode()
    assert "Bảng thang bot: Tiến Lên Miền Nam, 4 ghế" in vi
    assert "Đang xếp hạng" in vi
    assert "Ván bảng thang gần đây" in vi
    assert _client().get(reverse("bots:ladder", args=["tienlen", 7])).status_code == 404


def test_ladder_tables_stay_off_the_lobby_and_the_home_pages_recent_games(
    played: dict[str, Any], settings: Any
) -> None:
    from games.selectors import game_list_recent, table_list_public

    codes = [link.table.code for link in played["set"].tables.select_related("table")]
    assert not {g.table.code for g in game_list_recent(limit=50)} & set(codes)
    services.start_set(services.Ladder("tienlen", 4), played["set"].field)  # plays at once
    settings.GAMES_COUNTDOWN_SECONDS = 5.0
    running = services.start_set(services.Ladder("tienlen", 4), played["set"].field)
    open_codes = [link.table.code for link in running.tables.select_related("table")]
    assert not table_list_public().filter(code__in=open_codes).exists()
    home = _client().get(reverse("home")).content.decode()
    for code in [*codes, *open_codes]:
        assert code not in home


def test_the_ladder_as_json(played: dict[str, Any]) -> None:
    listing = _client().get("/api/ladder/").json()
    assert listing == [
        {
            "game": "tienlen",
            "seats": 4,
            "title": "Tiến Lên Miền Nam",
            "url": "/api/ladder/tienlen/4/",
        }
    ]
    body = _client().get("/api/ladder/tienlen/4/").json()
    assert body["game"] == "tienlen"
    assert body["seats"] == 4
    assert body["sets_played"] == 1
    lines = {line["entrant"]: line for line in body["entrants"]}
    mine = lines[played["entrant"].pk]
    assert mine["kind"] == "bot"
    assert mine["bot_id"] == played["version"].bot_id
    assert mine["version"] == played["version"].number
    assert mine["games"] == 4
    assert mine["state"] == "placing"
    best, worst = mine["rank"]
    assert 1 <= best <= worst <= len(lines)
    assert [len(s["games"]) for s in mine["recent"]] == [4]
    assert mine["recent"][0]["set"] == played["set"].pk
    anchors = [line for line in body["entrants"] if line["kind"] == "house"]
    assert {a["house_level"] for a in anchors} == {"easy", "medium", "hard", "expert"}
    assert all(a["owner"] is None for a in anchors)
    missing = _client().get("/api/ladder/tienlen/9/")
    assert missing.status_code == 404
    assert missing.json()["code"] == "unknown_ladder"


def test_a_suspension_reason_is_shown_to_the_owner_only(played: dict[str, Any]) -> None:
    LadderEntrant.objects.filter(pk=played["entrant"].pk).update(
        state=LadderEntrant.State.SUSPENDED, reason="faults", games=8, faults=3
    )
    reason = "made an illegal move in 3 of its 8 ladder games (more than 25%)"
    ladder_url = reverse("bots:ladder", args=["tienlen", 4])
    rating_url = reverse("bots:rating", args=[played["version"].bot_id])
    owner = _client(played["owner"])
    stranger = _client(new_user("stranger"))
    for url in (ladder_url, rating_url):
        mine = owner.get(url).content.decode()
        assert "Suspended" in mine
        assert reason in mine
        theirs = stranger.get(url).content.decode()
        assert "Suspended" in theirs
        assert reason not in theirs
    vi = owner.get(f"{rating_url}?lang=vi").content.decode()
    assert "Vị trí trên bảng thang" in vi
    assert "3 trên 8 ván bảng thang" in vi


def test_the_rating_page_shows_the_placement(played: dict[str, Any]) -> None:
    url = reverse("bots:rating", args=[played["version"].bot_id])
    html = _client().get(url).content.decode()  # public: the bot plays on a ladder
    assert "Ladder placement" in html
    assert reverse("bots:ladder", args=["tienlen", 4]) in html
    assert f'data-entrant="{played["entrant"].pk}"' in html
    # each recent game links its replay, where the owner has the Replay lab for its moves
    replay = _client().get("/api/ladder/tienlen/4/").json()
    mine = next(e for e in replay["entrants"] if e["entrant"] == played["entrant"].pk)
    first = mine["recent"][0]["games"][0]["replay"]
    assert first in html
    assert 'id="rp-lab"' in _client(played["owner"]).get(first).content.decode()
    assert 'id="rp-lab"' not in _client(new_user("stranger")).get(first).content.decode()
    # the placement refreshes itself from the ladder's JSON (static/js/ladder_placement.js)
    assert 'data-api="/api/ladder/tienlen/4/"' in html
    assert "js/ladder_placement" in html
    vi = _client().get(f"{url}?lang=vi").content.decode()
    raw = vi.split('<script type="application/json" id="ladder-i18n">')[1].split("</script>")[0]
    assert json.loads(raw) == {
        "placing": "Đang xếp hạng",
        "settled": "Đã ổn định",
        "suspended": "Bị tạm ngưng",
    }
