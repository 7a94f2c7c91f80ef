"""Tournament live updates over the sockets (games/tournaments/live.py, consumers.py), end to
end through the project's ASGI application: a round's start and the standings reach the
tournament page's sockets, each person's "your table is ready" reaches that person's sockets
only, with no request from the client after the connect (no polling)."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat
from games.tournaments import services
from games.tournaments.models import Round, RoundTable, Tournament
from tests.factories import UserFactory
from tests.games.tournaments.conftest import make_tournament
from tests.games.tournaments.test_services import finish_round
from tests.scheduler import FrozenClock, TestScheduler
from tests.ws import Conn, Frame, cookie_for, db, is_type

pytestmark = pytest.mark.django_db(transaction=True)


def page_path(t: Tournament, code: str | None = None) -> str:
    return f"/ws/tournaments/{t.pk}/" + (f"?code={code}" if code else "")


MINE = "/ws/tournaments/mine/"


def two_tables() -> tuple[Tournament, Any, Any]:
    """Lan and Minh, each with three house AIs: two tables of four in round 1 (Swiss groups
    the entrants in registration order), starting in 60 s, one round of one game."""
    creator = UserFactory.create()
    t, _ = make_tournament(creator=creator, rounds=1, start_in=60)
    lan, minh = UserFactory.create(), UserFactory.create()
    for person in (lan, minh):
        services.entry_join(tournament_id=t.pk, user=person)
        for _ in range(3):
            services.entry_add_house(tournament_id=t.pk, user=creator, level="easy")
    return t, lan, minh


def table_of(user: Any) -> str:
    """The URL of ``user``'s table of round 1."""
    rt = RoundTable.objects.select_related("table").get(
        table__seats__kind=Seat.Kind.HUMAN, table__seats__user=user
    )
    return f"/t/{rt.table.code}/"


def urls(frames: list[Frame]) -> set[str]:
    """Every table URL the ``your_tables`` frames (and snapshots) of a socket named."""
    return {
        table["url"]
        for f in frames
        if f["type"] in ("your_tables", "snapshot")
        for table in f.get("tables") or []
    }


async def test_round_start_and_standings_are_pushed_and_each_player_is_told_their_own_table(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    t, lan, minh = await db(two_tables)
    watcher = await db(UserFactory.create)
    lan_page = Conn(page_path(t), await cookie_for(lan))
    guest_page = Conn(page_path(t))
    minh_site = Conn(MINE, await cookie_for(minh))  # Minh is elsewhere on the site
    watcher_site = Conn(MINE, await cookie_for(watcher))
    snap = await lan_page.open()
    assert snap["state"]["status"] == "registration"
    assert len(snap["state"]["standings"]) == 8
    assert snap["tables"] == []
    assert (await guest_page.open())["tables"] == []
    assert (await minh_site.open()) == {"type": "snapshot", "state": None, "tables": []}
    await watcher_site.open()

    clock.advance(60)
    await db(services.tournaments_tick)  # beat: the tournament and its round 1 start
    lan_table, minh_table = await db(lambda: table_of(lan)), await db(lambda: table_of(minh))
    assert lan_table != minh_table

    for page in (lan_page, guest_page):
        frame = await page.until(is_type("tournament_state"))
        state = frame["state"]
        assert state["status"] == "running"
        assert [(r["number"], r["status"]) for r in state["rounds"]] == [(1, "running")]
        assert {tb["url"] for tb in state["rounds"][0]["tables"]} == {lan_table, minh_table}
        assert "your_table" not in state  # the page's state is the same for every viewer
    told = await lan_page.until(is_type("your_tables"))
    assert [x["url"] for x in told["tables"]] == [lan_table]
    assert told["tables"][0] == {
        "tournament": t.name,
        "round": 1,
        "url": lan_table,
        "page": f"/tournaments/{t.pk}/",
    }
    told = await minh_site.until(is_type("your_tables"))
    assert [x["url"] for x in told["tables"]] == [minh_table]

    # the round plays out: the results and standings are pushed; the tables are no longer
    # "ready" once done
    await db(lambda: finish_round(clock, scheduler, t, 1))
    final = await guest_page.until(
        lambda f: f["type"] == "tournament_state" and f["state"]["status"] == "finished"
    )
    standings = final["state"]["standings"]
    assert len(standings) == 8
    assert all(row["played"] == 1 for row in standings)
    assert sum(row["points"] for row in standings) == 12  # two tables of four: 6 points each
    assert final["state"]["rounds"][0]["status"] == Round.Status.FINISHED
    assert all(tb["finished"] for tb in final["state"]["rounds"][0]["tables"])
    await lan_page.until(lambda f: f["type"] == "your_tables" and f["tables"] == [])
    await minh_site.until(lambda f: f["type"] == "your_tables" and f["tables"] == [])

    for conn in (lan_page, guest_page, minh_site, watcher_site):
        await conn.drain(0.1)
    # nobody is told another person's table; a guest and a non-entrant are told none
    assert urls(lan_page.frames) == {lan_table}
    assert urls(minh_site.frames) == {minh_table}
    assert urls(guest_page.frames) == set()
    assert guest_page.of_type("your_tables") == []
    assert [f["type"] for f in watcher_site.frames] == ["snapshot"]
    assert minh_site.of_type("tournament_state") == []  # the site-wide socket: tables only
    for conn in (lan_page, guest_page, minh_site, watcher_site):
        await conn.close()


async def test_entries_and_start_now_are_pushed_to_the_page(
    clock: FrozenClock, scheduler: TestScheduler
) -> None:
    t, (lan,) = await db(lambda: make_tournament(people=1, start_in=600))
    page = Conn(page_path(t))
    assert [row["name"] for row in (await page.open())["state"]["standings"]] == [lan.public_name]
    await db(lambda: services.entry_add_house(tournament_id=t.pk, user=t.creator, level="easy"))
    frame = await page.until(is_type("tournament_state"))
    assert len(frame["state"]["standings"]) == 2
    await db(lambda: services.tournament_start_now(tournament_id=t.pk, user=t.creator))
    # start now: the new start time, then (the advance task runs at once) round 1
    await page.until(
        lambda f: f["type"] == "tournament_state" and f["state"]["status"] == "running"
    )
    await page.close()


async def test_an_invitation_tournament_socket_needs_the_code_and_guests_get_no_notifications(
    clock: FrozenClock,
) -> None:
    t, _ = await db(lambda: make_tournament(start_in=600, visibility="invite"))
    refused = Conn(page_path(t))
    connected, _ = await refused.comm.connect()
    assert connected
    assert await refused.comm.receive_output() == {"type": "websocket.close", "code": 4404}
    invited = Conn(page_path(t, t.invite_code))
    assert (await invited.open())["state"]["id"] == t.pk
    await invited.close()
    unknown = Conn("/ws/tournaments/999999/")
    await unknown.comm.connect()
    assert await unknown.comm.receive_output() == {"type": "websocket.close", "code": 4404}
    guest = Conn(MINE)
    await guest.comm.connect()
    assert await guest.comm.receive_output() == {"type": "websocket.close", "code": 4403}
