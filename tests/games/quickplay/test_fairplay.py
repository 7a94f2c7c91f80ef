"""The fair play report (docs/quickplay.md "Fair play report"): the pure rule, the loader on
real PostgreSQL rows, and the staff-only admin page in both languages."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games import clock as services_clock
from games.models import Game, Table
from games.quickplay.fairplay import GameRecord, suspicious_pairs
from games.quickplay.fairplay_report import fairplay_report
from games.quickplay.models import QuickPlaySeat
from tests.factories import GameFactory, TableFactory, UserFactory
from tests.scheduler import FrozenClock

PAGE = "/admin/games/personrating/fair-play/"


# --------------------------------------------------------------------------- the pure rule
def _game(gid: int, seats: dict[int, int], scores: list[float], engine: str = "tienlen") -> Any:
    return GameRecord(gid, engine, seats, scores)


def test_a_farming_pair_is_found_and_ranked_first() -> None:
    records = []
    # 7 (the farmer) takes from 8 in all 10 four-seat games, beside two honest strangers.
    for i in range(10):
        records.append(_game(i, {0: 7, 1: 8, 2: 30 + i, 3: 40 + i}, [12.0, -12.0, 1.0, -1.0]))
    # 5 takes from 6 in 6 of 8 games only: p = 37/256 > 0.05, not listed
    for i in range(8):
        win = 3.0 if i < 6 else -3.0
        records.append(_game(100 + i, {0: 5, 1: 6}, [win, -win]))
    # 1 takes from 2 in 6 of 6: listed, but after the farmer (p 1/64 > 1/1024)
    for i in range(6):
        records.append(_game(200 + i, {0: 1, 1: 2}, [2.0, -2.0]))
    pairs = suspicious_pairs(records, min_games=5)
    assert [(p.gainer, p.loser) for p in pairs] == [(7, 8), (1, 2)]
    top = pairs[0]
    assert (top.together, top.leaning, top.p) == (10, 10, 1 / 1024)
    assert top.mean_gap_together == 24.0
    assert top.expected_gap == 0.0
    assert top.games == tuple(range(10))
    assert not top.shared_address


def test_honest_friends_who_split_evenly_are_not_flagged() -> None:
    # 40 games together; each wins half, by varying margins, and they play others too.
    records = [
        _game(i, {0: 1, 1: 2}, [float(1 + i % 3), -float(1 + i % 3)][:: 1 if i % 2 else -1])
        for i in range(40)
    ]
    records += [_game(100 + i, {0: 1, 1: 50 + i}, [1.0, -1.0]) for i in range(5)]
    records += [_game(200 + i, {0: 2, 1: 60 + i}, [1.0, -1.0]) for i in range(5)]
    assert suspicious_pairs(records, min_games=5) == []


def test_too_few_games_together_are_not_listed() -> None:
    records = [_game(i, {0: 1, 1: 2}, [9.0, -9.0]) for i in range(4)]
    assert suspicious_pairs(records, min_games=5) == []
    # the count is what keeps them out: 4 of 4 (p = 1/16) is listed from 4 games at p <= 1/16
    assert [p.together for p in suspicious_pairs(records, min_games=4, max_p=1 / 16)] == [4]


def test_bots_and_house_seats_only_count_in_the_mean() -> None:
    # seat 2 is a house AI (not in ``people``): it loses everything; 1 and 2 split it evenly.
    records = [_game(i, {0: 1, 1: 2}, [5.0, 5.0, -10.0]) for i in range(10)]
    assert suspicious_pairs(records, min_games=5) == []


# --------------------------------------------------------------------------- the loader
def _people_game(
    table: Table, number: int, users: list[Any], scores: list[int], ended: Any, **extra: Any
) -> Game:
    players = [
        {"seat": i, "kind": "human", "user_id": u.pk, "name": u.username}
        for i, u in enumerate(users)
    ]
    players += [
        {"seat": len(users) + j, "kind": "house", "user_id": None, "house_level": "easy"}
        for j in range(len(scores) - len(users))
    ]
    return GameFactory.create(
        table=table,
        number=number,
        players=players,
        scores=scores,
        result={"scores": scores},
        ended_at=ended,
        **extra,
    )


@pytest.mark.django_db(transaction=True)
def test_the_report_reads_recent_finished_games_of_people(clock: FrozenClock) -> None:
    now = services_clock.now_datetime()
    farmer, fed, other = (UserFactory.create(username=n) for n in ("farmer", "fed", "other"))
    table = TableFactory.create(code="FARM01", game="tienlen")
    for n in range(1, 6):
        _people_game(table, n, [farmer, fed], [13, -13], now - timedelta(days=n))
    old = TableFactory.create(code="OLD001", game="tienlen")
    _people_game(old, 1, [farmer, other], [13, -13], now - timedelta(days=31))
    for n in range(2, 6):
        _people_game(old, n, [farmer, other], [13, -13], now - timedelta(days=2))
    # a person against a house AI and a running game never count
    alone = TableFactory.create(code="ALONE1", game="tienlen")
    for n in range(1, 7):
        _people_game(alone, n, [other], [9, -9], now - timedelta(days=1))
    running = TableFactory.create(code="RUN001", game="tienlen")
    _people_game(running, 1, [other, fed], [9, -9], None, status=Game.Status.RUNNING)
    QuickPlaySeat.objects.create(table=table, user=farmer, address="10.1.1.1", created_at=now)
    QuickPlaySeat.objects.create(table=old, user=fed, address="10.1.1.1", created_at=now)

    rows = fairplay_report()
    # farmer/other: 4 games in the window (the 31-day-old one is outside): not listed
    assert [(r.gainer_name, r.loser_name) for r in rows] == [("farmer", "fed")]
    [row] = rows
    assert row.pair.together == 5
    assert row.pair.shared_address
    assert [label for label, _ in row.evidence] == [f"FARM01 #{n}" for n in range(1, 6)]
    assert [url for _, url in row.evidence] == [f"/tables/FARM01/games/{n}/" for n in range(1, 6)]
    # The window is measured from the injected clock: 40 days on, nothing is recent.
    clock.advance(40 * 86400)
    assert fairplay_report() == []


# --------------------------------------------------------------------------- the page
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "title", "yes"),
    [("en", "Fair play report", "yes"), ("vi", "Báo cáo chơi công bằng", "có")],
)
def test_staff_see_the_page_with_evidence_links(language: str, title: str, yes: str) -> None:
    now = services_clock.now_datetime()
    staff = UserFactory.create(is_staff=True, is_superuser=True)
    farmer, fed = UserFactory.create(username="farmer"), UserFactory.create(username="fed")
    table = TableFactory.create(code="FARM02", game="tienlen")
    games = [
        _people_game(table, n, [farmer, fed], [20, -20], now - timedelta(hours=n))
        for n in range(1, 7)
    ]
    QuickPlaySeat.objects.create(table=table, user=farmer, address="10.2.2.2", created_at=now)
    QuickPlaySeat.objects.create(table=table, user=fed, address="10.2.2.2", created_at=now)
    client = Client()
    client.force_login(staff)
    response = client.get(PAGE, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert title in html
    row = re.search(r'<tr class="fairplay-pair">(.*?)</tr>', html, re.S)
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row.group(1), re.S)
    assert cells[1:5] == ["farmer", "fed", "6", "6"]
    assert cells[8] == yes
    links = re.findall(r'<a class="fairplay-game" href="([^"]+)">', row.group(1))
    assert links == [f"/tables/FARM02/games/{g.number}/" for g in sorted(games, key=lambda g: g.pk)]
    for link in links[:1]:
        assert client.get(link).status_code == 200
    # the ratings' list links to it
    listing = client.get("/admin/games/personrating/", HTTP_ACCEPT_LANGUAGE=language)
    assert PAGE in listing.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "empty"),
    [("en", "No pair looks suspicious."), ("vi", "Không có cặp nào đáng ngờ.")],
)
def test_an_empty_report_says_so(language: str, empty: str) -> None:
    client = Client()
    client.force_login(UserFactory.create(is_staff=True))
    html = client.get(PAGE, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert empty in html
    assert 'id="fairplay-pairs"' not in html


@pytest.mark.django_db(transaction=True)
def test_people_who_are_not_staff_cannot_open_it() -> None:
    anonymous = Client().get(PAGE)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/admin/login/")
    client = Client()
    client.force_login(UserFactory.create(is_staff=False))
    response = client.get(PAGE)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert "fairplay" not in response.content.decode()
