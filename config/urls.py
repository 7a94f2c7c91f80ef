"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from accounts.api import MeView
from accounts.throttle import LOGIN, throttle
from bots.api import BotViewSet
from config.views import healthz
from games import views as game_views
from games.api import TableViewSet

# The admin's log-in is throttled like the site's (accounts.throttle); set before admin.site.urls.
admin.site.login = throttle(LOGIN)(admin.site.login)  # type: ignore[method-assign,assignment]

router = DefaultRouter()
router.register("bots", BotViewSet, basename="bot")
router.register("tables", TableViewSet, basename="table")

api_urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    *router.urls,
]

urlpatterns = [
    path("", game_views.home, name="home"),
    path("how-to-play/", game_views.how_to_play, name="how_to_play"),
    path("tables/", include("games.urls")),
    path("t/<str:code>/", game_views.table_detail, name="table"),
    path("bots/", include("bots.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", include((api_urlpatterns, "api"))),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
]

admin.site.site_header = "Tiến Lên Arena administration"
admin.site.site_title = "Tiến Lên Arena admin"

# Styled error pages (templates/400.html … 500.html) whenever DEBUG is off; never a traceback.
handler400 = "config.views.bad_request"
handler500 = "config.views.server_error"
