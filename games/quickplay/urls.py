from __future__ import annotations

from django.urls import path

from games.quickplay import views

app_name = "quickplay"

urlpatterns = [
    path("quickplay/", views.wait, name="wait"),
    path("quickplay/join/", views.join, name="join"),
    path("quickplay/leave/", views.leave, name="leave"),
    path("players/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.player, name="player"),
]
