"""The pages and the REST API of matches: Evaluate (form → match page), the match list, the
owner-only rule, stable error codes, Promote buttons and what they change."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from bots.matches.services import match_create
from bots.models import BotVersion, Match

pytestmark = pytest.mark.django_db


def test_evaluate_offers_the_field_and_starts_a_match(
    user_client: Client, mine: list[BotVersion], theirs: list[BotVersion], private: list[BotVersion]
) -> None:
    bot = mine[0].bot
    page = user_client.get(f"/bots/{bot.pk}/versions/3/evaluate/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Evaluate Mine v3" in html
    assert f'value="version:{mine[0].pk}"' in html  # its older versions
    assert 'value="house:hard"' in html
    assert f'value="version:{theirs[2].pk}"' in html  # another user's open bot: its latest
    assert f'value="version:{theirs[0].pk}"' not in html
    assert f'value="version:{private[0].pk}"' not in html
    assert page.context["form"]["seat_2"].initial == f"version:{mine[1].pk}"  # the previous one
    response = user_client.post(
        f"/bots/{bot.pk}/versions/3/evaluate/",
        {
            "seat_2": f"version:{mine[0].pk}",
            "seat_3": "house:hard",
            "seat_4": "",
            "deals": "7",
            "seed": "1234",
            "stop_when_separated": "on",
        },
    )
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/bots/matches/{match.pk}/"
    assert match.labels == ["Mine v3", "Mine v1", "house:hard"]
    assert (match.deals, match.seed, match.stop_when_separated) == (7, 1234, True)
    detail = user_client.get(response["Location"])
    assert detail.status_code == 200
    assert 'id="match-progress"' in detail.content.decode()
    listing = user_client.get("/bots/matches/")
    assert f'href="/bots/matches/{match.pk}/"' in listing.content.decode()


def test_a_forged_entrant_is_refused_with_its_code_and_nothing_is_created(
    user_client: Client, mine: list[BotVersion], private: list[BotVersion]
) -> None:
    bot = mine[0].bot
    response = user_client.post(
        f"/bots/{bot.pk}/versions/3/evaluate/",
        {"seat_2": f"version:{private[0].pk}", "deals": "5", "seed": "1"},
    )
    assert response.status_code == 200
    assert Match.objects.count() == 0
    assert response.context["form"].errors  # not one of the choices


def test_evaluate_pages_of_another_users_bot_are_404(
    user_client: Client, theirs: list[BotVersion]
) -> None:
    bot = theirs[0].bot
    assert user_client.get(f"/bots/{bot.pk}/versions/1/evaluate/").status_code == 404
    assert user_client.post(f"/bots/{bot.pk}/versions/1/promote/").status_code == 404
    bot.refresh_from_db()
    assert bot.promoted_version_id is None


def test_only_the_owner_sees_or_stops_a_match(user: User, other_user: User, client: Client) -> None:
    match = match_create(owner=user, game="stud", entrants=["house:easy"] * 2, deals=3, seed=1)
    client.force_login(other_user)
    assert client.get(f"/bots/matches/{match.pk}/").status_code == 404
    assert f"/bots/matches/{match.pk}/" not in client.get("/bots/matches/").content.decode()
    api = APIClient()
    api.force_authenticate(other_user)
    for response in (
        api.get(f"/api/matches/{match.pk}/"),
        api.post(f"/api/matches/{match.pk}/stop/"),
    ):
        assert response.status_code == 404
        assert response.json()["code"] == "no_such_match"
    assert api.get("/api/matches/").json()["results"] == []
    match.refresh_from_db()
    assert not match.stop_requested
    anonymous = APIClient()
    assert anonymous.get(f"/api/matches/{match.pk}/").status_code in (401, 403)


def test_the_api_answers_bad_input_with_stable_codes(user: User, private: list[BotVersion]) -> None:
    api = APIClient()
    api.force_authenticate(user)
    cases: list[tuple[dict[str, Any], int, str]] = [
        (
            {"game": "tienlen", "entrants": ["house:easy", "house:hard"], "deals": 0},
            400,
            "bad_deals",
        ),
        ({"game": "chess", "entrants": ["house:easy"], "deals": 1}, 400, "unknown_game"),
        ({"game": "tienlen", "entrants": ["house:easy"], "deals": 1}, 400, "bad_field"),
        (
            {
                "game": "tienlen",
                "entrants": [{"kind": "version", "version_id": private[0].pk}, "house:easy"],
                "deals": 1,
            },
            400,
            "entrant_not_seatable",
        ),
    ]
    for body, status, code in cases:
        response = api.post("/api/matches/", body, format="json")
        assert (response.status_code, response.json()["code"]) == (status, code), body
    assert Match.objects.count() == 0
    ok = {"game": "stud", "entrants": ["house:easy", "house:hard"], "deals": 2, "seed": 3}
    assert api.post("/api/matches/", ok, format="json").status_code == 201
    assert api.post("/api/matches/", ok, format="json").status_code == 201
    third = api.post("/api/matches/", ok, format="json")
    assert (third.status_code, third.json()["code"]) == (429, "matches_in_flight")
    assert api.get("/api/matches/abc/").status_code == 404
    schema = api.get("/api/schema/").content.decode()
    assert "/api/matches/{id}/stop/" in schema


def test_promote_from_the_version_list(
    user_client: Client, user: User, other_user: User, mine: list[BotVersion]
) -> None:
    bot = mine[0].bot
    bot.arena_open = True
    bot.save()
    page = user_client.get(f"/bots/{bot.pk}/versions/").content.decode()
    assert 'form="promote-2"' in page
    assert f"/bots/{bot.pk}/versions/2/evaluate/" in page
    response = user_client.post(f"/bots/{bot.pk}/versions/2/promote/")
    assert response.status_code == 302
    bot.refresh_from_db()
    assert bot.promoted_version_id == mine[1].pk
    seatable = BotVersion.objects.seatable(user=other_user, game="tienlen")
    assert list(seatable.values_list("pk", flat=True)) == [mine[1].pk]
    page = user_client.get(f"/bots/{bot.pk}/versions/").content.decode()
    assert "data-promoted" in page
    assert 'form="promote-0"' in page  # Unpromote
    listing = user_client.get("/bots/").content.decode()
    assert 'data-promoted="2"' in listing
    assert f"/bots/{bot.pk}/versions/3/evaluate/" in listing
    user_client.post(f"/bots/{bot.pk}/versions/0/promote/")
    bot.refresh_from_db()
    assert bot.promoted_version_id is None
    assert list(seatable.values_list("pk", flat=True)) == [mine[2].pk]


def test_the_match_pages_speak_vietnamese(
    user_client: Client, user: User, mine: list[BotVersion]
) -> None:
    match = match_create(
        owner=user, game="tienlen", entrants=["house:hard", "house:easy"], deals=2, seed=1
    )
    html = user_client.get(f"/bots/matches/{match.pk}/?lang=vi").content.decode()
    assert f"Trận {match.pk} · Tiến Lên Miền Nam" in html
    assert "Điểm trung bình" in html
    assert "KTC 95%" in html
    assert "Đang chạy: {done} / {total} ván chia" in html  # the script's strings
    assert "Mean points" not in html
    form = user_client.get(f"/bots/{mine[0].bot_id}/versions/3/evaluate/?lang=vi").content.decode()
    assert "Đánh giá Mine v3" in form
    assert "AI của nhà cái" in form
    assert "Bắt đầu trận" in form


def test_the_editor_links_a_ready_version_to_evaluate(
    user_client: Client, mine: list[BotVersion]
) -> None:
    bot = mine[0].bot
    html = user_client.get(f"/bots/{bot.pk}/?version=2").content.decode()
    assert f'href="/bots/{bot.pk}/versions/2/evaluate/"' in html
    BotVersion.objects.filter(pk=mine[2].pk).update(status=BotVersion.Status.NOT_READY)
    html = user_client.get(f"/bots/{bot.pk}/").content.decode()
    # the latest is not ready: no link to evaluate (the editor keeps the link's pattern for
    # when a validation finishes: data-evaluate-url)
    assert 'class="evaluate-link"' not in html
    assert 'href="/bots/' + str(bot.pk) + '/versions/3/evaluate/"' not in html
