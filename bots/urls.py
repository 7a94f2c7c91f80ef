from __future__ import annotations

from django.urls import path

from bots import views
from bots.external import views as external_views
from bots.ladder import views as ladder_views
from bots.matches import views as match_views

app_name = "bots"

urlpatterns = [
    path("", views.bot_list, name="list"),
    path("new/", views.bot_create, name="create"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("ladder/", ladder_views.ladder_index, name="ladder_index"),
    path("ladder/<str:game>/<int:seats>/", ladder_views.ladder_page, name="ladder"),
    path("arena/", views.arena_create, name="arena"),
    path("practice/", views.practice_create, name="practice"),
    path("<int:bot_id>/arena-open/", views.bot_arena_open, name="arena_open"),
    path("<int:bot_id>/", views.bot_editor, name="editor"),
    path("<int:bot_id>/delete/", views.bot_delete, name="delete"),
    path("<int:bot_id>/versions/", views.version_list, name="versions"),
    path("<int:bot_id>/versions/<int:number>/", views.version_detail, name="version"),
    path(
        "<int:bot_id>/versions/<int:number>/rollback/",
        views.version_rollback,
        name="rollback",
    ),
    path("<int:bot_id>/compare/", views.version_compare, name="compare"),
    # duplicate matches (bots/matches/): Evaluate a version, a match's page, one's matches
    path("matches/", match_views.matches, name="matches"),
    path("matches/<int:match_id>/", match_views.match_detail, name="match"),
    path("<int:bot_id>/versions/<int:number>/evaluate/", match_views.match_new, name="evaluate"),
    path(
        "<int:bot_id>/versions/<int:number>/promote/",
        match_views.version_promote,
        name="promote",
    ),
    path("<int:bot_id>/rating/", views.bot_rating, name="rating"),
    # external bots (bots/external/): a program plays them over the token API
    path("external/new/", external_views.external_create, name="external_create"),
    path("<int:bot_id>/external/", external_views.external_detail, name="external"),
    path("<int:bot_id>/external/token/", external_views.external_token, name="external_token"),
]
