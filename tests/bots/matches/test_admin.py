"""The bot-match admin (bots/matches/admin.py): staff open every match with its progress, its
field and each entrant's results, in English and Vietnamese; nothing there changes a match."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from bots.matches.models import Match
from tests.bots.matches.conftest import ready_versions
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(client: Client) -> Client:
    client.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def match(user: User) -> Match:
    """Alice's match of "Mine v1" (an external bot) against two house AIs, 4 of 10 deals in."""
    version = ready_versions(user, "Mine", 1)[0]
    line = {"games": 16, "strikes": 0, "disqualified": 0}
    return Match.objects.create(
        owner=user,
        game="tienlen",
        entrants=[
            {
                "kind": "version",
                "version_id": version.pk,
                "label": "Mine v1",
                "external": True,
                "bot_id": version.bot_id,
            },
            {"kind": "house", "level": "easy", "label": "House easy"},
            {"kind": "house", "level": "hard", "label": "House hard"},
        ],
        deals=10,
        seed=77,
        status=Match.Status.RUNNING,
        deals_done=4,
        report={
            "game": "tienlen",
            "deals": 4,
            "entrants": [
                {**line, "name": "Mine v1", "first_rate": 0.5625, "mean_points": 1.25},
                {**line, "name": "House easy", "first_rate": 0.0625, "mean_points": -2.5},
                {**line, "name": "House hard", "first_rate": 0.375, "mean_points": 1.25},
            ],
        },
    )


def test_staff_open_the_changelist_and_change_page_of_a_match(root: Client, match: Match) -> None:
    listing = root.get(reverse("admin:bots_match_changelist"))
    assert listing.status_code == 200
    html = listing.content.decode()
    assert "Mine v1 · House easy · House hard" in html
    assert "4 of 10 deals (40.0%)" in html
    assert reverse("admin:bots_match_change", args=[match.pk]) in html
    assert (
        "alice" in root.get(reverse("admin:bots_match_changelist"), {"q": "alice"}).content.decode()
    )

    page = root.get(reverse("admin:bots_match_change", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "4 of 10 deals (40.0%)" in html
    assert '<div class="readonly">Tiến Lên Miền Nam</div>' in html  # the game, not its key
    results = html.split('<table class="match-results">', 1)[1].split("</table>", 1)[0]
    rows = results.split("<tr>")[2:]
    assert len(rows) == 3
    version_url = reverse("admin:bots_botversion_change", args=[match.entrants[0]["version_id"]])
    assert f'<a href="{version_url}">Mine v1</a> (external bot)' in rows[0]
    assert "<td>56.2%</td>" in rows[0]
    assert "<td>1.25</td>" in rows[0]
    assert "House easy" in rows[1]
    assert "<td>6.2%</td>" in rows[1]
    assert "<td>-2.5</td>" in rows[1]


def test_a_match_not_yet_started_shows_its_field_without_results(
    root: Client, match: Match
) -> None:
    Match.objects.filter(pk=match.pk).update(status="queued", deals_done=0, report={})
    html = root.get(reverse("admin:bots_match_change", args=[match.pk])).content.decode()
    results = html.split('<table class="match-results">', 1)[1].split("</table>", 1)[0]
    assert "House hard" in results
    assert results.count("<td>–</td>") == 6  # first-place rate and mean points, per entrant
    assert "0 of 10 deals (0.0%)" in html


def test_the_admin_changes_no_match(root: Client, match: Match) -> None:
    url = reverse("admin:bots_match_change", args=[match.pk])
    assert root.post(url, {"status": "finished", "deals": "1"}).status_code == 403
    assert root.get(reverse("admin:bots_match_add")).status_code == 403
    match.refresh_from_db()
    assert (match.status, match.deals, match.deals_done) == ("running", 10, 4)


def test_the_match_admin_reads_in_vietnamese(root: Client, match: Match) -> None:
    root.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    html = root.get(reverse("admin:bots_match_changelist")).content.decode()
    assert "Trận bot" in html or "trận bot" in html  # the model's name
    assert "4 trên 10 ván chia (40.0%)" in html
    assert "Tiến độ" in html
    html = root.get(reverse("admin:bots_match_change", args=[match.pk])).content.decode()
    assert "Người tham gia và kết quả" in html
    assert "Tỉ lệ về nhất" in html
    assert "(bot ngoài)" in html
    assert "deals (" not in html
    assert "First place rate" not in html
    assert '<div class="readonly">Tiến Lên Miền Nam</div>' in html  # the game's title
    assert ">tienlen<" not in html


def test_a_user_who_is_not_staff_cannot_open_it(
    client: Client, other_user: User, match: Match
) -> None:
    client.force_login(other_user)
    for url in (
        reverse("admin:bots_match_changelist"),
        reverse("admin:bots_match_change", args=[match.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302  # the admin's log-in page: not for them
        assert response["Location"].startswith(reverse("admin:login"))
