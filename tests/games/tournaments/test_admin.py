"""The tournament admin (games/tournaments/admin.py): staff open tournaments and rounds with
their entries, progress, standings, tables and results, in English and Vietnamese; what the
beat task wrote cannot be edited there."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import clock
from games.tournaments import services
from games.tournaments.models import Round, RoundResult, RoundTable, Tournament
from tests.factories import TableFactory, UserFactory
from tests.games.tournaments.conftest import entries, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(client: Client) -> Client:
    client.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))
    return client


def played_round(t: Tournament) -> Round:
    """Round 1 of ``t`` (four entrants, one table) finished with totals 9, 3, 0, -12, as the
    beat task leaves it, and round 2 still to come."""
    now = clock.now_datetime()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    rnd = Round.objects.create(
        tournament=t,
        number=1,
        start_at=now,
        status=Round.Status.FINISHED,
        seeds=[11],
        started_at=now,
        ended_at=now,
    )
    Round.objects.create(tournament=t, number=2, start_at=now + timedelta(minutes=5))
    seats = [e.pk for e in entries(t)]
    totals = [9, 3, 0, -12]
    table = TableFactory.create(name="Cup R1", session={"totals": totals})
    rt = RoundTable.objects.create(round=rnd, table=table, index=0, seats=seats, finished_at=now)
    for seat, (entry, total) in enumerate(zip(seats, totals, strict=True)):
        RoundResult.objects.create(
            round=rnd, entry_id=entry, round_table=rt, seat=seat, total=total, points=3 - seat
        )
    return rnd


def test_staff_open_the_changelist_and_change_page_of_a_tournament(root: Client) -> None:
    t, _ = make_tournament(name="Spring Cup", house=4)
    rnd = played_round(t)

    listing = root.get(reverse("admin:games_tournament_changelist"))
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "Spring Cup" in html
    assert "1 of 2 rounds played" in html  # progress
    assert reverse("admin:games_tournament_change", args=[t.pk]) in html

    page = root.get(reverse("admin:games_tournament_change", args=[t.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Spring Cup" in html
    assert "1 of 2 rounds played" in html
    assert t.invite_code in html
    # the entries inline, by name, and the rounds inline linking to each round's page
    names = [services.entry_name(e) for e in entries(t)]
    assert all(name in html for name in names)
    assert reverse("admin:games_round_change", args=[rnd.pk]) in html
    assert f"{t.pk} round 1 (Finished)" in html  # the round's caption, its status as shown
    assert '<div class="readonly">Tiến Lên Miền Nam</div>' in html  # the game's title
    assert ">tienlen<" not in html
    # the standings: the best total of round 1 leads with 3 points
    standings = html.split('<table class="standings">', 1)[1].split("</table>", 1)[0]
    first = standings.split("<tr>")[2]
    assert "<td>1</td>" in first
    assert "<td>3</td>" in first
    assert "<td>9</td>" in first

    found = root.get(reverse("admin:games_tournament_changelist"), {"q": "spring"})
    assert "Spring Cup" in found.content.decode()
    assert "Spring Cup" not in (
        root.get(reverse("admin:games_tournament_changelist"), {"q": "autumn"}).content.decode()
    )


def test_a_round_page_shows_its_tables_and_results_and_changes_nothing(root: Client) -> None:
    t, _ = make_tournament(name="Spring Cup", house=4)
    rnd = played_round(t)
    listing = root.get(reverse("admin:games_round_changelist"))
    assert listing.status_code == 200
    assert "Spring Cup" in listing.content.decode()

    url = reverse("admin:games_round_change", args=[rnd.pk])
    page = root.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    table = RoundTable.objects.get(round=rnd).table
    assert reverse("admin:games_table_change", args=[table.pk]) in html
    assert ">-12<" in html  # the last seat's session total, among the results

    before = list(RoundResult.objects.values_list("entry_id", "total", "points"))
    assert root.post(url, {"status": "pending", "number": "7"}).status_code == 403
    assert root.get(reverse("admin:games_round_add")).status_code == 403
    assert root.get(reverse("admin:games_round_delete", args=[rnd.pk])).status_code == 403
    rnd.refresh_from_db()
    assert (rnd.status, rnd.number) == ("finished", 1)
    assert list(RoundResult.objects.values_list("entry_id", "total", "points")) == before


def test_only_name_visibility_and_start_change_and_only_before_the_start(root: Client) -> None:
    t, _ = make_tournament(name="Spring Cup", house=4, table_size=4)
    url = reverse("admin:games_tournament_change", args=[t.pk])
    start = (t.start_at + timedelta(hours=1)).astimezone()
    form = {
        "name": "Summer Cup",
        "visibility": "invite",
        "start_at_0": start.strftime("%Y-%m-%d"),
        "start_at_1": start.strftime("%H:%M:%S"),
        "table_size": "9",  # read-only: ignored
        "status": "finished",  # read-only: ignored
        **_empty_inlines(),
    }
    assert root.post(url, form).status_code == 302
    t.refresh_from_db()
    assert (t.name, t.visibility, t.table_size, t.status) == (
        "Summer Cup",
        "invite",
        4,
        "registration",
    )
    assert abs((t.start_at - start).total_seconds()) < 1

    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    assert root.post(url, {**form, "name": "Autumn Cup"}).status_code == 302
    t.refresh_from_db()
    assert t.name == "Summer Cup"
    assert root.get(reverse("admin:games_tournament_add")).status_code == 403


def _empty_inlines() -> dict[str, str]:
    """The management forms of the (read-only) inlines a change form posts."""
    form: dict[str, str] = {}
    for prefix in ("round_set", "entries"):
        form |= {
            f"{prefix}-TOTAL_FORMS": "0",
            f"{prefix}-INITIAL_FORMS": "0",
            f"{prefix}-MIN_NUM_FORMS": "0",
            f"{prefix}-MAX_NUM_FORMS": "1000",
        }
    return form


def test_the_tournament_admin_reads_in_vietnamese(root: Client) -> None:
    t, _ = make_tournament(name="Spring Cup", house=4)
    played_round(t)
    root.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    html = root.get(reverse("admin:games_tournament_changelist")).content.decode()
    assert "Giải đấu" in html  # the model's name
    assert "Tiến độ" in html
    assert "đã chơi 1 trên 2 vòng" in html
    html = root.get(reverse("admin:games_tournament_change", args=[t.pk])).content.decode()
    assert "Bảng xếp hạng" in html
    assert "Suất dự giải" in html
    assert "Số vòng" in html
    assert "rounds played" not in html
    assert "Standings" not in html
    # the game by its title, not its key; each round's caption in Vietnamese
    assert '<div class="readonly">Tiến Lên Miền Nam</div>' in html
    assert f"{t.pk} vòng 1 (Đã kết thúc)" in html
    assert f"{t.pk} vòng 2 (Đã lên lịch)" in html
    assert "round 1" not in html
    listing = root.get(reverse("admin:games_tournament_changelist")).content.decode()
    assert '<td class="field-game_name">Tiến Lên Miền Nam</td>' in listing


def test_a_user_who_is_not_staff_cannot_open_it(client: Client, user: User) -> None:
    t, _ = make_tournament(name="Spring Cup", house=4)
    client.force_login(user)
    for url in (
        reverse("admin:games_tournament_changelist"),
        reverse("admin:games_tournament_change", args=[t.pk]),
        reverse("admin:games_round_changelist"),
    ):
        response = client.get(url)
        assert response.status_code == 302  # the admin's log-in page: not for them
        assert response["Location"].startswith(reverse("admin:login"))
