"""Tournament sockets (docs/tournaments.md "Live page and notification"): read-only, pushed by
the services on commit (games/tournaments/live.py).

- ``/ws/tournaments/<id>/`` (``?code=`` for an invitation tournament): the tournament page. Joins
  the tournament's group and, for a logged-in user, their own player group.
- ``/ws/tournaments/mine/``: the site-wide "your table is ready" notification of a logged-in
  user: their own player group only (a guest is refused, close code 4403).

Both send a ``snapshot`` first and answer ``sync`` (a fresh snapshot) and ``ping``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from games.consumers import CLOSE_NOT_FOUND, BaseConsumer, Frame, db_call
from games.tournaments import live, services
from games.tournaments.models import Tournament

CLOSE_LOGIN_REQUIRED = 4403


def _viewable(tournament_id: int, user: Any, code: str | None) -> bool:
    t = Tournament.objects.filter(pk=tournament_id).first()
    return t is not None and services.can_view(t, user, code)


class _TournamentSocket(BaseConsumer):
    handlers = {"sync": "sync", "ping": "ping"}

    tournament_id: int | None = None
    groups_joined: list[str]

    async def join(self, groups: list[str]) -> None:
        if not await self.setup_limits():
            return
        self.groups_joined = groups
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.sync({})

    async def disconnect(self, code: int) -> None:
        await self.stop_watch()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def sync(self, frame: Frame) -> None:
        await self.send_frame(await db_call(live.snapshot)(self.tournament_id, self.user))


class TournamentConsumer(_TournamentSocket):
    """A socket on a tournament's page."""

    async def connect(self) -> None:
        pk = int(self.scope["url_route"]["kwargs"]["pk"])
        query = parse_qs(bytes(self.scope.get("query_string") or b"").decode("latin-1"))
        code = next(iter(query.get("code") or []), None)
        allowed = await db_call(_viewable)(pk, self.user, code)
        await self.accept()
        if not allowed:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.tournament_id = pk
        groups = [live.tournament_group(pk)]
        if self.user is not None:
            groups.append(live.player_group(self.user.pk))
        await self.join(groups)


class PlayerConsumer(_TournamentSocket):
    """The site-wide notification socket of one logged-in user."""

    async def connect(self) -> None:
        await self.accept()
        if self.user is None:
            await self.close(code=CLOSE_LOGIN_REQUIRED)
            return
        await self.join([live.player_group(self.user.pk)])
