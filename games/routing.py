"""WebSocket routes of the games app (docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import path

from games import consumers
from games.tournaments import consumers as tournament_consumers

_table: Any = consumers.TableConsumer.as_asgi()
_lobby: Any = consumers.LobbyConsumer.as_asgi()
_echo: Any = consumers.EchoConsumer.as_asgi()
_tournament: Any = tournament_consumers.TournamentConsumer.as_asgi()
_tournament_player: Any = tournament_consumers.PlayerConsumer.as_asgi()

websocket_urlpatterns: list[Any] = [
    path("ws/tables/<str:code>/", _table),
    path("ws/lobby/", _lobby),
    path("ws/tournaments/mine/", _tournament_player),
    path("ws/tournaments/<int:pk>/", _tournament),
]

if settings.GAMES_ENABLE_ECHO_WS:  # the benchmark's baseline only
    websocket_urlpatterns.append(path("ws/echo/", _echo))
