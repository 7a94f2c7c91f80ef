"""``/api/bot/…``: the HTTP form of the external bot API (:mod:`bots.external.http`)."""

from __future__ import annotations

from django.urls import path, re_path

from bots.external import api, http

app_name = "bot_api"

urlpatterns = [
    path("stream", http.stream, name="stream"),
    path("game/<int:game_id>/move", http.move, name="move"),
    # a duplicate-deal match's game (bots.external.matches)
    re_path(r"^game/(?P<game_id>match-[0-9]+-[0-9]+)/move$", http.move, name="match_move"),
    path("account/", api.ExternalBotCreateView.as_view(), name="account"),
    path("account/<int:bot_id>/token", api.ExternalBotTokenView.as_view(), name="token"),
]
