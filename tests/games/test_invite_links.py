"""Invite links to private tables (docs/protocol.md, "Invite links"), the profile's recent
opponents with their "Invite", and the REST call for the link."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from games import services
from games.models import Game, Seat, Table, TableInvite
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _private(owner: User, seats: int = 3) -> Table:
    return services.table_create(
        owner=owner, name="Home game", visibility=Table.Visibility.PRIVATE, options={"seats": seats}
    )


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _invite_path(table: Table) -> str:
    invite = TableInvite.objects.get(table=table, revoked_at__isnull=True)
    return reverse("tables:invite", args=[invite.token])


def test_the_host_makes_a_link_and_sees_it_with_copy_and_revoke(user: User) -> None:
    table = _private(user)
    host = _client(user)
    page = host.get(f"/t/{table.code}/").content.decode()
    assert 'id="btn-make-invite"' in page
    assert 'id="invite-link"' not in page

    assert host.post(reverse("tables:invite_make", args=[table.code])).status_code == 302
    invite = TableInvite.objects.get(table=table)
    assert len(invite.token) == 32
    page = host.get(f"/t/{table.code}/").content.decode()
    assert f"/tables/invite/{invite.token}/" in page
    assert 'id="btn-copy-invite"' in page
    assert 'id="btn-revoke-invite"' in page
    # making it again keeps the one link
    host.post(reverse("tables:invite_make", args=[table.code]))
    assert TableInvite.objects.filter(table=table).count() == 1


def test_only_the_host_sees_or_makes_the_link(user: User, other_user: User) -> None:
    table = _private(user)
    services.invite_create(table_id=table.pk, user=user)
    guest = _client(other_user)
    assert 'id="invite-box"' not in guest.get(f"/t/{table.code}/").content.decode()
    guest.post(reverse("tables:invite_revoke", args=[table.code]))
    assert TableInvite.objects.get(table=table).revoked_at is None
    with pytest.raises(services.TableError) as exc:
        services.invite_create(table_id=table.pk, user=other_user)
    assert exc.value.code == "not_host"


def test_a_public_table_has_no_invite_link(user: User) -> None:
    table = services.table_create(owner=user, name="Open")
    with pytest.raises(services.TableError) as exc:
        services.invite_create(table_id=table.pk, user=user)
    assert exc.value.code == "not_private"
    assert 'id="invite-box"' not in _client(user).get(f"/t/{table.code}/").content.decode()


def test_opening_the_link_seats_the_person_once(user: User, other_user: User) -> None:
    table = _private(user)
    services.invite_create(table_id=table.pk, user=user)
    guest = _client(other_user)
    response = guest.get(_invite_path(table))
    assert response.status_code == 302
    assert response["Location"] == f"/t/{table.code}/"
    assert list(table.seats.filter(user=other_user).values_list("index", flat=True)) == [1]
    # twice: still one seat, and the host opening their own link changes nothing
    assert guest.get(_invite_path(table)).status_code == 302
    assert _client(user).get(_invite_path(table)).status_code == 302
    assert table.seats.filter(user=other_user).count() == 1
    assert table.seats.filter(user=user).count() == 1
    assert table.seats.filter(kind=Seat.Kind.EMPTY).count() == 1


def test_an_anonymous_visitor_logs_in_or_signs_up_and_comes_back(
    client: Client, user: User, password: str
) -> None:
    table = _private(user)
    services.invite_create(table_id=table.pk, user=user)
    path = _invite_path(table)
    response = client.get(path)
    assert response.status_code == 302
    login = response["Location"]
    assert login.startswith(reverse("accounts:login"))
    assert "next=" in login
    # the login page offers sign-up and keeps where to come back to
    page = client.get(login).content.decode()
    assert f"{reverse('accounts:signup')}?next=" in page
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": password,
            "password2": password,
            "next": path,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == path
    assert client.get(path)["Location"] == f"/t/{table.code}/"
    assert table.seats.filter(user__username="newcomer").count() == 1


def test_a_full_table_says_so_and_seats_nobody(user: User) -> None:
    table = _private(user, seats=2)
    services.invite_create(table_id=table.pk, user=user)
    first, second = UserFactory.create(), UserFactory.create()
    assert _client(first).get(_invite_path(table)).status_code == 302
    response = _client(second).get(_invite_path(table))
    assert response.status_code == 409
    assert "The table is full" in response.content.decode()
    assert not table.seats.filter(user=second).exists()


def test_a_started_table_says_so_in_both_languages(user: User, other_user: User) -> None:
    table = _private(user)
    services.invite_create(table_id=table.pk, user=user)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.IN_PROGRESS)
    guest = _client(other_user)
    response = guest.get(_invite_path(table))
    assert response.status_code == 409
    assert "The game has started" in response.content.decode()
    assert not table.seats.filter(user=other_user).exists()
    guest.cookies["django_language"] = "vi"
    assert "Ván đã bắt đầu" in guest.get(_invite_path(table)).content.decode()


def test_a_revoked_link_says_so_and_a_new_one_works(user: User, other_user: User) -> None:
    table = _private(user)
    services.invite_create(table_id=table.pk, user=user)
    old = _invite_path(table)
    host = _client(user)
    assert host.post(reverse("tables:invite_revoke", args=[table.code])).status_code == 302
    guest = _client(other_user)
    response = guest.get(old)
    assert response.status_code == 410
    assert "This invite link was revoked" in response.content.decode()
    assert not table.seats.filter(user=other_user).exists()
    guest.cookies["django_language"] = "vi"
    assert "Liên kết mời này đã bị thu hồi" in guest.get(old).content.decode()
    # the host's lobby offers a new link; it seats people, the old one still does not
    assert 'id="btn-make-invite"' in host.get(f"/t/{table.code}/").content.decode()
    host.post(reverse("tables:invite_make", args=[table.code]))
    new = _invite_path(table)
    assert new != old
    assert guest.get(new).status_code == 302
    assert table.seats.filter(user=other_user).count() == 1
    assert guest.get(old).status_code == 410


def test_an_unknown_token_is_a_clear_404(user_client: Client) -> None:
    response = user_client.get(reverse("tables:invite", args=["nope"]))
    assert response.status_code == 404
    assert "Invite link not found" in response.content.decode()


def test_the_rest_call_makes_and_revokes_the_link(user: User, other_user: User) -> None:
    table = _private(user)
    api = APIClient()
    api.force_authenticate(user)
    url = reverse("api:table-invite", args=[table.code])
    made = api.post(url)
    assert made.status_code == 201
    token = made.json()["token"]
    assert made.json()["url"].endswith(f"/tables/invite/{token}/")
    assert api.post(url).json()["token"] == token  # the same live link
    stranger = APIClient()
    stranger.force_authenticate(other_user)
    assert stranger.post(url).json()["error"] == "not_host"
    assert stranger.delete(url).status_code == 403
    assert api.delete(url).status_code == 204
    assert TableInvite.objects.get(token=token).revoked_at is not None
    assert api.post(url).json()["token"] != token
    assert APIClient().post(url).status_code in (401, 403)
    assert api.post(reverse("api:table-invite", args=["missing"])).status_code == 404


def test_recent_opponents_are_listed_and_invite_makes_a_private_table(
    user: User, other_user: User
) -> None:
    met = services.table_create(owner=other_user, name="Met")
    Game.objects.create(
        table=met,
        number=1,
        engine="tienlen",
        seed=1,
        players=[
            {"seat": 0, "kind": "human", "user_id": other_user.pk},
            {"seat": 1, "kind": "human", "user_id": user.pk},
            {"seat": 2, "kind": "house", "user_id": None},
        ],
    )
    stranger = UserFactory.create()
    assert services.table_create(owner=stranger, name="Elsewhere")
    me = _client(user)
    page = me.get(reverse("accounts:profile")).content.decode()
    assert "Recent opponents" in page
    assert other_user.public_name in page
    assert stranger.public_name not in page
    response = me.post(reverse("tables:invite_opponent", args=[other_user.pk]))
    table = Table.objects.exclude(pk=met.pk).get(owner=user)
    assert response["Location"] == f"/t/{table.code}/"
    assert table.visibility == Table.Visibility.PRIVATE
    assert table.seat_count == 2
    invite = TableInvite.objects.get(table=table, revoked_at__isnull=True)
    assert f"/tables/invite/{invite.token}/" in me.get(response["Location"]).content.decode()
    assert _client(other_user).get(_invite_path(table))["Location"] == f"/t/{table.code}/"
    assert table.seats.filter(user=other_user).count() == 1


def test_inviting_yourself_or_nobody_makes_no_table(user: User) -> None:
    me = _client(user)
    assert me.post(reverse("tables:invite_opponent", args=[user.pk])).status_code == 404
    assert me.post(reverse("tables:invite_opponent", args=[999_999])).status_code == 404
    assert me.get(reverse("tables:invite_opponent", args=[user.pk])).status_code == 405
    assert not Table.objects.filter(owner=user).exists()
