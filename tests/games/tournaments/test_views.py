"""Tournament pages and state.json: create, enter, invitation, errors, the per-user
notification of a ready table, both languages."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import clock as games_clock
from games.tournaments import services
from games.tournaments.models import Entry, RoundTable, Tournament
from tests.factories import BotFactory, BotVersionFactory, UserFactory
from tests.games.tournaments.conftest import make_tournament
from tests.scheduler import FrozenClock

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_create_form_makes_a_tournament_and_bad_input_changes_nothing(clock: FrozenClock) -> None:
    user = UserFactory.create()
    client = logged_in(user)
    page = client.get("/tournaments/")
    assert page.status_code == 200
    assert b"data-tournament-create" in page.content
    start = (games_clock.now_datetime() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Friday Cup",
        "game": "tienlen",
        "format": "round_robin",
        "visibility": "public",
        "start_at": start,
        "rounds": 3,
        "table_size": 9,  # Tiến Lên seats 2 to 4
        "games_per_round": 2,
        "turn_seconds": 30,
        "round_gap_seconds": 60,
    }
    bad = client.post("/tournaments/", data)
    assert bad.status_code == 200
    assert b"2 to 4" in bad.content
    assert not Tournament.objects.exists()
    response = client.post("/tournaments/", {**data, "table_size": 2})
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{t.pk}/"
    assert (t.creator, t.format, t.table_size, t.rounds) == (user, "round_robin", 2, 3)
    anonymous = Client().post("/tournaments/", data)
    assert anonymous.status_code == 302
    assert "/accounts/login/" in anonymous["Location"]


def test_invitation_tournament_needs_its_code(clock: FrozenClock) -> None:
    t, _ = make_tournament(start_in=600, visibility="invite")
    guest = UserFactory.create()
    client = logged_in(guest)
    assert client.get(f"/tournaments/{t.pk}/").status_code == 404
    assert client.get("/tournaments/").content.count(t.name.encode()) == 0
    assert client.post(f"/tournaments/{t.pk}/join/").status_code == 404
    assert not Entry.objects.exists()
    page = client.get(f"/tournaments/{t.pk}/?code={t.invite_code}")
    assert page.status_code == 200
    assert b"data-join" in page.content
    client.post(f"/tournaments/{t.pk}/join/", {"code": t.invite_code})
    assert Entry.objects.get().user == guest
    assert client.get(f"/tournaments/{t.pk}/").status_code == 200  # an entrant sees it


def test_errors_are_messages_in_the_readers_language(clock: FrozenClock) -> None:
    t, (person,) = make_tournament(people=1, start_in=600)
    client = logged_in(person)
    client.cookies["django_language"] = "vi"
    response = client.post(f"/tournaments/{t.pk}/join/", HTTP_ACCEPT_LANGUAGE="vi", follow=True)
    assert "Người chơi này đã tham gia rồi.".encode() in response.content
    assert Entry.objects.count() == 1
    response = client.post(f"/tournaments/{t.pk}/house/", {"level": "easy"}, follow=True)
    assert "Chỉ người tạo giải".encode() in response.content
    assert Entry.objects.count() == 1
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Bảng xếp hạng" in page
    assert "Tham gia giải đấu" not in page  # already in: no Join button
    assert "Bàn của bạn ở vòng {n} đã sẵn sàng" in page  # the notification, for the JS


def test_a_bot_owner_enters_their_ready_version(clock: FrozenClock) -> None:
    t, _ = make_tournament(start_in=600)
    owner = UserFactory.create()
    version = BotVersionFactory.create(bot=BotFactory.create(owner=owner), status="ready")
    other = BotVersionFactory.create(status="ready")
    client = logged_in(owner)
    page = client.get(f"/tournaments/{t.pk}/")
    assert f"bot:{version.pk}".encode() in page.content
    client.post(f"/tournaments/{t.pk}/bot/", {"bot": f"bot:{other.pk}"})
    client.post(f"/tournaments/{t.pk}/bot/", {"bot": "bot:x"})
    assert not Entry.objects.exists()
    client.post(f"/tournaments/{t.pk}/bot/", {"bot": f"bot:{version.pk}"})
    entry = Entry.objects.get()
    assert (entry.kind, entry.bot_version_id, entry.user_id) == ("bot", version.pk, owner.pk)


def test_your_table_is_told_to_that_player_only(clock: FrozenClock) -> None:
    # two people at two different tables of round 1: each is told their own table only
    creator = UserFactory.create()
    t = services.tournament_create(
        creator=creator,
        name="Two tables",
        game="tienlen",
        format="swiss",
        start_at=games_clock.now_datetime(),
        rounds=1,
        table_size=4,
        games_per_round=1,
    )
    lan, minh, watcher = (UserFactory.create() for _ in range(3))
    services.entry_join(tournament_id=t.pk, user=lan)
    for _ in range(3):
        services.entry_add_house(tournament_id=t.pk, user=creator, level="easy")
    services.entry_join(tournament_id=t.pk, user=minh)
    for _ in range(3):
        services.entry_add_house(tournament_id=t.pk, user=creator, level="easy")
    services.tournaments_tick()
    tables = {rt.index: rt.table for rt in RoundTable.objects.all()}
    seats = {
        rt.table.code: rt.table.seats.filter(kind="human").get().user
        for rt in RoundTable.objects.select_related("table")
    }
    assert set(seats.values()) == {lan, minh}
    for user in (lan, minh):
        state = logged_in(user).get(f"/tournaments/{t.pk}/state.json").json()
        mine = next(code for code, u in seats.items() if u == user)
        assert state["your_table"] == {"round": 1, "url": f"/t/{mine}/"}
    assert logged_in(watcher).get(f"/tournaments/{t.pk}/state.json").json()["your_table"] is None
    assert Client().get(f"/tournaments/{t.pk}/state.json").json()["your_table"] is None
    state = Client().get(f"/tournaments/{t.pk}/state.json").json()
    assert [len(r["tables"]) for r in state["rounds"]] == [2]
    assert {tb["code"] for tb in state["rounds"][0]["tables"]} == {
        tables[0].code,
        tables[1].code,
    }


def test_every_page_tells_a_player_their_ready_table(clock: FrozenClock) -> None:
    t, (lan, minh) = make_tournament(people=2, house=2, rounds=1, start_in=60)
    watcher = UserFactory.create()
    home = logged_in(lan).get("/").content.decode()
    assert 'id="tournament-notify"' in home  # entered: the site-wide script is on every page
    assert 'id="tournament-notify"' not in logged_in(watcher).get("/").content.decode()
    assert logged_in(lan).get("/tournaments/mine.json").json() == {"tables": []}
    clock.advance(60)
    services.tournaments_tick()
    code = RoundTable.objects.get().table.code
    for user in (lan, minh):
        assert logged_in(user).get("/tournaments/mine.json").json() == {
            "tables": [
                {
                    "tournament": t.name,
                    "round": 1,
                    "url": f"/t/{code}/",
                    "page": f"/tournaments/{t.pk}/",
                }
            ]
        }
    assert logged_in(watcher).get("/tournaments/mine.json").json() == {"tables": []}
    assert Client().get("/tournaments/mine.json").json() == {"tables": []}


def edit_data(t: Tournament, **changes: Any) -> dict[str, Any]:
    data = {
        "name": t.name,
        "visibility": t.visibility,
        "start_at": t.start_at.strftime("%Y-%m-%dT%H:%M"),
        "rounds": t.rounds,
        "games_per_round": t.games_per_round,
    }
    data.update(changes)
    return data


def settings_of(t: Tournament) -> tuple[Any, ...]:
    t.refresh_from_db()
    return (t.name, t.start_at, t.rounds, t.games_per_round, t.visibility, t.status)


def test_the_creator_edits_a_tournament_until_it_starts(clock: FrozenClock) -> None:
    t, _ = make_tournament(start_in=3600)
    client = logged_in(t.creator)
    detail = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'href="/tournaments/{t.pk}/edit/"' in detail  # the creator's Edit link
    page = client.get(f"/tournaments/{t.pk}/edit/")
    assert page.status_code == 200
    assert b'value="Cup"' in page.content  # filled in with the tournament's settings
    new_start = (games_clock.now_datetime() + timedelta(hours=3)).replace(second=0, microsecond=0)
    response = client.post(
        f"/tournaments/{t.pk}/edit/",
        edit_data(
            t,
            name="Cup, moved",
            start_at=new_start.strftime("%Y-%m-%dT%H:%M"),
            rounds=5,
            games_per_round=3,
            visibility="invite",
        ),
        follow=True,
    )
    assert b"Tournament updated." in response.content
    assert settings_of(t) == ("Cup, moved", new_start, 5, 3, "invite", "registration")
    # bad input: the form says why, and nothing changes
    before = settings_of(t)
    response = client.post(f"/tournaments/{t.pk}/edit/", edit_data(t, rounds=0, name=""))
    assert response.status_code == 200
    assert b"data-tournament-edit" in response.content
    assert settings_of(t) == before
    # the game, format and table size are not the edit form's to change
    client.post(f"/tournaments/{t.pk}/edit/", edit_data(t, table_size=2, format="round_robin"))
    t.refresh_from_db()
    assert (t.table_size, t.format) == (4, "swiss")


def test_a_non_creator_cannot_edit_a_tournament(clock: FrozenClock) -> None:
    t, (lan,) = make_tournament(people=1, start_in=3600)
    before = settings_of(t)
    client = logged_in(lan)
    assert f"/tournaments/{t.pk}/edit/" not in client.get(f"/tournaments/{t.pk}/").content.decode()
    response = client.get(f"/tournaments/{t.pk}/edit/", follow=True)
    assert response.redirect_chain == [(f"/tournaments/{t.pk}/", 302)]
    assert b"Only the tournament&#x27;s creator may do that." in response.content
    response = client.post(f"/tournaments/{t.pk}/edit/", edit_data(t, name="Mine now"), follow=True)
    assert b"Only the tournament&#x27;s creator may do that." in response.content
    assert settings_of(t) == before
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_update(tournament_id=t.pk, user=lan, **edit_fields(t, rounds=4))
    assert refused.value.code == "not_creator"
    assert settings_of(t) == before
    # a guest is sent to log in
    response = Client().post(f"/tournaments/{t.pk}/edit/", edit_data(t, name="Anyone"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert settings_of(t) == before


def edit_fields(t: Tournament, **changes: Any) -> dict[str, Any]:
    fields = {
        "name": t.name,
        "start_at": t.start_at,
        "rounds": t.rounds,
        "games_per_round": t.games_per_round,
        "visibility": t.visibility,
    }
    fields.update(changes)
    return fields


def test_a_started_tournament_cannot_be_edited_in_either_language(clock: FrozenClock) -> None:
    t, _ = make_tournament(people=2, house=2, rounds=1)
    services.tournaments_tick()
    before = settings_of(t)
    assert before[-1] == "running"
    client = logged_in(t.creator)
    assert f"/tournaments/{t.pk}/edit/" not in client.get(f"/tournaments/{t.pk}/").content.decode()
    response = client.post(f"/tournaments/{t.pk}/edit/", edit_data(t, rounds=3), follow=True)
    assert b"The tournament has started: it can no longer be edited." in response.content
    assert settings_of(t) == before
    client.cookies["django_language"] = "vi"
    response = client.get(f"/tournaments/{t.pk}/edit/", HTTP_ACCEPT_LANGUAGE="vi", follow=True)
    assert "Giải đấu đã bắt đầu: không thể sửa nữa.".encode() in response.content
    with pytest.raises(services.TournamentError) as refused:
        services.tournament_update(tournament_id=t.pk, user=t.creator, **edit_fields(t, rounds=3))
    assert refused.value.code == "not_editable"
    assert settings_of(t) == before
    assert RoundTable.objects.count() == 1


def test_the_edit_page_in_vietnamese(clock: FrozenClock) -> None:
    t, _ = make_tournament(start_in=3600)
    client = logged_in(t.creator)
    client.cookies["django_language"] = "vi"
    page = client.get(f"/tournaments/{t.pk}/edit/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Sửa giải đấu" in page
    assert "Lưu thay đổi" in page
    response = client.post(
        f"/tournaments/{t.pk}/edit/",
        edit_data(t, name="Cúp mới"),
        HTTP_ACCEPT_LANGUAGE="vi",
        follow=True,
    )
    assert "Đã cập nhật giải đấu.".encode() in response.content
    assert settings_of(t)[0] == "Cúp mới"


@pytest.mark.parametrize("language", ["en", "vi"])
def test_the_page_offers_no_entry_forms_once_the_start_is_due(
    clock: FrozenClock, language: str
) -> None:
    """Issue 25: after Start now the buttons (Join, Enter bot, Add house AI, Start now,
    Withdraw) stayed until the tick started the tournament; clicking them said entries were
    closed."""
    t, _ = make_tournament(people=2, start_in=3600)
    client = logged_in(t.creator)
    client.cookies["django_language"] = language
    before = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "data-start-now" in before
    assert "data-registration" in before
    client.post(f"/tournaments/{t.pk}/start/")
    after = client.get(f"/tournaments/{t.pk}/").content.decode()
    for marker in ("data-registration", "data-start-now", "data-add-house", "data-join"):
        assert marker not in after
    assert ("Starting…" if language == "en" else "Đang bắt đầu…") in after
    # the standings are a styled table that scrolls inside its card on a phone
    assert 'class="table-scroll"' in after
    assert 'class="data-table" data-standings' in after
