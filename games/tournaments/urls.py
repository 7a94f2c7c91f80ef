from __future__ import annotations

from django.urls import path

from games.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("mine.json", views.tournament_mine, name="mine"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/state.json", views.tournament_state, name="state"),
    path("<int:pk>/edit/", views.tournament_edit, name="edit"),
    path("<int:pk>/join/", views.tournament_join, name="join"),
    path("<int:pk>/bot/", views.tournament_add_bot, name="add_bot"),
    path("<int:pk>/house/", views.tournament_add_house, name="add_house"),
    path("<int:pk>/start/", views.tournament_start, name="start"),
    path("entries/<int:entry_id>/withdraw/", views.entry_withdraw, name="withdraw"),
]
