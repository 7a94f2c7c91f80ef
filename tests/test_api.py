from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.authentication import INVALID_TOKEN_MESSAGE
from accounts.models import User
from bots.models import Bot
from tests.factories import BotFactory, TableFactory

pytestmark = pytest.mark.django_db


def token_client(user: User) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.mark.parametrize("url", ["/api/me/", "/api/bots/"])
def test_auth_is_required(api_client: APIClient, url: str) -> None:
    response = api_client.get(url)
    assert response.status_code == 401
    assert response.json() == {"detail": "Authentication credentials were not provided."}
    assert response["WWW-Authenticate"] == "Token"


def test_token_auth_works(user: User) -> None:
    response = token_client(user).get("/api/me/")
    assert response.status_code == 200
    assert response.json()["username"] == "alice"
    assert response.json()["display_name"] == "Alice"


def test_session_auth_works(api_client: APIClient, user: User) -> None:
    api_client.force_login(user)
    assert api_client.get("/api/me/").json()["username"] == "alice"


def test_bad_token_gets_401_with_a_clear_message_and_changes_nothing(
    api_client: APIClient, user: User
) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    before = Bot.objects.count()

    response = api_client.post("/api/bots/", {"name": "Sneaky"}, format="json")

    assert response.status_code == 401
    assert response.json() == {"detail": INVALID_TOKEN_MESSAGE}
    assert "/accounts/token/" in response.json()["detail"]
    assert Bot.objects.count() == before
    assert api_client.get("/api/me/").status_code == 401


def test_regenerated_token_stops_working(user: User) -> None:
    client = token_client(user)
    Token.objects.filter(user=user).delete()
    assert client.get("/api/me/").status_code == 401


def test_bot_crud_is_limited_to_own_bots(user: User, other_user: User) -> None:
    client = token_client(user)
    foreign = BotFactory.create(owner=other_user, name="Not yours")

    created = client.post(
        "/api/bots/", {"name": "Gecko", "description": "d", "code": "// v1"}, format="json"
    )
    assert created.status_code == 201, created.content
    body: dict[str, Any] = created.json()
    assert body["name"] == "Gecko"
    assert body["latest_version"] == 1
    assert "code" not in body

    updated = client.patch(f"/api/bots/{body['id']}/", {"code": "// v2"}, format="json")
    assert updated.status_code == 200
    assert updated.json()["latest_version"] == 2

    listing = client.get("/api/bots/").json()
    assert [b["name"] for b in listing["results"]] == ["Gecko"]
    assert client.get(f"/api/bots/{foreign.pk}/").status_code == 404
    assert client.patch(f"/api/bots/{foreign.pk}/", {"name": "x"}, format="json").status_code == 404
    foreign.refresh_from_db()
    assert foreign.name == "Not yours"


def test_duplicate_bot_name_is_a_400(user: User) -> None:
    client = token_client(user)
    BotFactory.create(owner=user, name="Gecko")
    response = client.post("/api/bots/", {"name": "Gecko"}, format="json")
    assert response.status_code == 400
    assert response.json() == {"name": ["You already have a bot with this name."]}


def test_public_tables_are_listed_read_only(api_client: APIClient, user: User) -> None:
    TableFactory.create(name="Open One")
    TableFactory.create(name="Hidden", visibility="private")
    response = api_client.get("/api/tables/")
    assert response.status_code == 200
    assert [t["name"] for t in response.json()["results"]] == ["Open One"]
    api_client.force_login(user)
    assert api_client.post("/api/tables/", {"name": "x"}).status_code == 405


def test_schema_is_openapi(api_client: APIClient) -> None:
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in ("/api/me/", "/api/bots/", "/api/tables/"):
        assert path in schema["paths"]
    assert "tokenAuth" in schema["components"]["securitySchemes"]


def test_interactive_docs_are_served_without_a_cdn(api_client: APIClient) -> None:
    response = api_client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    assert "cdn." not in page
    assert "jsdelivr" not in page


def test_writes_are_throttled_reads_are_not(user: User) -> None:
    client = token_client(user)
    rates = {"write": "2/minute", "anon": "10000/minute"}
    with override_settings(
        REST_FRAMEWORK={
            "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.TokenAuthentication"],
            "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
            "DEFAULT_THROTTLE_RATES": rates,
            "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
            "PAGE_SIZE": 50,
        }
    ):
        for n in range(2):
            assert client.post("/api/bots/", {"name": f"B{n}"}, format="json").status_code == 201
        throttled = client.post("/api/bots/", {"name": "B2"}, format="json")
        assert throttled.status_code == 429
        assert "Request was throttled" in throttled.json()["detail"]
        assert "Retry-After" in throttled
        for _ in range(5):
            assert client.get("/api/bots/").status_code == 200
    assert not Bot.objects.filter(name="B2").exists()
