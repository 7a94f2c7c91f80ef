from __future__ import annotations

from django.urls import path

from games import history_views, views

app_name = "tables"

urlpatterns = [
    path("new/", views.table_create, name="create"),
    path("practice/", views.table_practice, name="practice"),
    path("join/", views.table_join, name="join"),
    path("invite/<str:token>/", views.table_invite_open, name="invite"),
    path("invite-player/<int:user_id>/", views.table_invite_opponent, name="invite_opponent"),
    # game history (docs/history.md)
    path("history/", history_views.history_public, name="history"),
    path("history/mine/", history_views.history_mine, name="history_mine"),
    path("history/import/", history_views.game_import, name="history_import"),
    path("history/players/<int:user_id>/", history_views.history_player, name="history_player"),
    path("history/bots/<int:bot_id>/", history_views.history_bot, name="history_bot"),
    path("<str:code>/games/", history_views.history_table, name="history_table"),
    path("<str:code>/games/<int:number>/", history_views.game_detail, name="game"),
    path("<str:code>/games/<int:number>/replay/", history_views.game_replay, name="replay"),
    path(
        "<str:code>/games/<int:number>/replay.json",
        history_views.game_replay_json,
        name="replay_json",
    ),
    path("<str:code>/games/<int:number>/export.json", history_views.game_export, name="export"),
    path("<str:code>/invite/", views.table_invite_make, name="invite_make"),
    path("<str:code>/invite/revoke/", views.table_invite_revoke, name="invite_revoke"),
    path("<str:code>/", views.table_detail, name="detail"),
]
