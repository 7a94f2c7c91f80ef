"""Helpers of the external bot tests: bots with tokens, tables they sit at, socket clients."""

from __future__ import annotations

import json
from typing import Any

from channels.testing import WebsocketCommunicator

from bots.external.services import external_bot_create
from bots.external.tokens import token_issue
from bots.models import Bot, BotVersion
from games import services
from games.models import Game, Seat, Table


def external_bot(owner: Any, game: str = "tienlen", name: str = "") -> tuple[Bot, BotVersion, str]:
    """A new external bot of ``owner`` for ``game``: the bot, its one version and its token."""
    bot = external_bot_create(owner=owner, name=name or f"Ext {game} {owner.pk}", game=game)
    token = token_issue(bot=bot)
    return bot, bot.versions.get(), token


def bot_table(
    owner: Any,
    version: BotVersion,
    *,
    game: str = "tienlen",
    seats: int = 4,
    mode: str | None = None,
    start: bool = True,
    human: bool = False,
) -> Table:
    """``version`` (and the owner at seat 0 with ``human``) against house AIs (easy)."""
    specs = [services.SeatSpec()] if human else []
    specs.append(services.SeatSpec(Seat.Kind.BOT, bot_version_id=version.pk))
    specs += [services.SeatSpec(Seat.Kind.HOUSE, "easy")] * (seats - len(specs))
    table = services.table_create(
        owner=owner,
        name=f"External {game}",
        game=game,
        options={"seats": seats, "mode": mode or ("hybrid" if human else "practice")},
        seats=specs,
        host_seated=human,
    )
    if human:
        services.seat_ready(table_id=table.pk, user=owner)
    else:  # every seat is filled and ready: as games.services marks a watched practice table
        Table.objects.filter(pk=table.pk).update(status=Table.Status.READY)
    if start:
        services.table_start(table_id=table.pk, user=owner)
    return table


def latest_game(table: Table) -> Game | None:
    return Game.objects.filter(table=table).order_by("-number").first()


def communicator(token: str | None, path: str = "/ws/bot/") -> WebsocketCommunicator:
    """An in-process socket to the project's ASGI application, as a program connects: no
    Origin, the token in ``Authorization``."""
    from config.asgi import application

    headers = [(b"host", b"testserver")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def receive(comm: WebsocketCommunicator, timeout: float = 5.0) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(await comm.receive_from(timeout=timeout))
    return frame


def card_ids(value: Any) -> set[str]:
    """Every card id (``{"rank", "suit", "id"}`` objects, or strings under ``cards``) in a
    JSON value."""
    out: set[str] = set()
    if isinstance(value, dict):
        if "rank" in value and "suit" in value and isinstance(value.get("id"), str):
            out.add(value["id"])
        for key, item in value.items():
            if key in ("cards", "myCards") and isinstance(item, list):
                out |= {c for c in item if isinstance(c, str)}
            out |= card_ids(item)
    elif isinstance(value, list):
        for item in value:
            out |= card_ids(item)
    return out
