"""One rule for seating a bot version, on every path (issue 14): the Create Table form, the
table's ``add_bot`` frame (service and WebSocket) and Bot Arena accept the host's own ready
versions and ready versions of bots their owners opened to others — nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bots.models import BotVersion
from bots.selectors import bot_seat_choices
from games import services
from games.models import Seat, Table
from tests.factories import BotVersionFactory, UserFactory
from tests.ws import Conn, cookie_for, db

READY = BotVersion.Status.READY
PENDING = BotVersion.Status.PENDING


def _versions() -> dict[str, Any]:
    host = UserFactory.create(username="host", display_name="Host")
    rival = UserFactory.create(username="rival", display_name="Rival")
    return {
        "host": host,
        "own_ready": BotVersionFactory.create(bot__owner=host, bot__name="Mine", status=READY),
        "own_pending": BotVersionFactory.create(bot__owner=host, bot__name="Draft"),
        "private": BotVersionFactory.create(bot__owner=rival, bot__name="Secret", status=READY),
        "open": BotVersionFactory.create(
            bot__owner=rival, bot__name="Shared", bot__arena_open=True, status=READY
        ),
        "open_pending": BotVersionFactory.create(
            bot__owner=rival, bot__name="Shared draft", bot__arena_open=True, status=PENDING
        ),
    }


ALLOWED = {"own_ready", "open"}
REFUSED = {"own_pending", "private", "open_pending"}


@pytest.mark.django_db
@pytest.mark.parametrize("which", sorted(ALLOWED | REFUSED))
def test_add_bot_service_follows_the_rule(which: str) -> None:
    v = _versions()
    table = services.table_create(owner=v["host"], name="T", options={"seats": 2})
    version = v[which]
    if which in ALLOWED:
        services.seat_add_bot(table_id=table.pk, user=v["host"], seat=1, bot_version_id=version.pk)
        assert Seat.objects.get(table=table, index=1).bot_version_id == version.pk
    else:
        with pytest.raises(services.TableError) as exc:
            services.seat_add_bot(
                table_id=table.pk, user=v["host"], seat=1, bot_version_id=version.pk
            )
        assert exc.value.code == "unknown_bot"
        assert Seat.objects.get(table=table, index=1).kind == Seat.Kind.EMPTY


@pytest.mark.django_db
@pytest.mark.parametrize("which", sorted(ALLOWED | REFUSED))
def test_create_table_form_follows_the_same_rule(client: Client, which: str) -> None:
    v = _versions()
    client.force_login(v["host"])
    data = {
        "name": "Friday",
        "game": "tienlen",
        "seats": "2",
        "seat_1": f"bot:{v[which].pk}",
        "visibility": "public",
        "session_length": "16",
        "turn_seconds": "30",
    }
    response = client.post(reverse("tables:create"), data)
    if which in ALLOWED:
        assert response.status_code == 302
        seat = Seat.objects.get(table=Table.objects.get(), index=1)
        assert seat.bot_version_id == v[which].pk
    else:
        assert response.status_code == 200
        assert "for this table&#x27;s game" in response.content.decode()
        assert not Table.objects.exists()


@pytest.mark.django_db
def test_form_choices_are_the_rule_with_owners_named() -> None:
    v = _versions()
    choices = bot_seat_choices(v["host"], game="tienlen")
    assert choices == [
        (f"bot:{v['own_ready'].pk}", f"Mine v{v['own_ready'].number}"),
        (f"bot:{v['open'].pk}", f"Shared v{v['open'].number} · Rival"),
    ]


@pytest.mark.django_db
def test_arena_follows_the_rule_too() -> None:
    from django.core.exceptions import ValidationError

    v = _versions()
    mine, shared = v["own_ready"].pk, v["open"].pk
    table = services.table_create_arena(
        owner=v["host"], bot_version_ids=[mine, shared], start=False
    )
    assert table.seats.filter(kind=Seat.Kind.BOT).count() == 2
    for bad, code in (("private", "unknown_bot"), ("open_pending", "unknown_bot")):
        with pytest.raises(ValidationError) as exc:
            services.table_create_arena(owner=v["host"], bot_version_ids=[mine, v[bad].pk])
        assert exc.value.code == code
    with pytest.raises(ValidationError) as exc:
        services.table_create_arena(owner=v["host"], bot_version_ids=[mine, v["own_pending"].pk])
    assert exc.value.code == "not_ready"


@pytest.mark.django_db(transaction=True)
async def test_add_bot_frame_refuses_private_and_unready_versions() -> None:
    v = await db(_versions)
    table = await db(lambda: services.table_create(owner=v["host"], name="T", options={"seats": 3}))
    host = Conn(f"/ws/tables/{table.code}/", await cookie_for(v["host"]))
    await host.open()
    for which in ("private", "own_pending"):
        error = await host.error({"type": "add_bot", "seat": 1, "bot_version": v[which].pk})
        assert (error["code"], error["ref"]) == ("unknown_bot", "add_bot")
    await host.send({"type": "add_bot", "seat": 2, "bot_version": v["open"].pk})
    await host.until(lambda f: f["type"] == "player_joined" and f["seat"] == 2)
    kinds = await db(lambda: dict(Seat.objects.filter(table=table).values_list("index", "kind")))
    assert kinds == {0: "human", 1: "empty", 2: "bot"}
    await host.close()
