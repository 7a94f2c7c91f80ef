"""Root URL configuration."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.generic.base import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from accounts.api import MeView
from accounts.throttle import login_throttle
from bots.api import BotViewSet
from bots.ladder.api import LadderDetailView, LadderListView
from bots.matches.api import MatchViewSet
from config.metrics import metrics
from config.views import healthz
from games import views as game_views
from games.api import GameBotMovesView, TableInviteView, TableViewSet
from games.quickplay.api import QuickPlayView

# The admin's log-in is throttled like the site's (accounts.throttle); set before admin.site.urls.
admin.site.login = login_throttle(admin.site.login)  # type: ignore[method-assign,assignment]


def _for_owners(model_admin: object) -> bool:
    return bool(getattr(model_admin, "for_owners", False))


def admin_has_permission(request: HttpRequest) -> bool:
    """Who may enter the admin: staff as before, and every active signed-in user for their own
    bot slots. For a user who is not staff, a model's pages open only when its ModelAdmin says
    ``for_owners`` (bots.admin: Bots and Bot versions, scoped to the owner); every other model
    (users, groups, tokens, tables, games…) stays closed whatever permissions the user holds,
    and so does the "view on site" redirect, which would tell whether another user's row
    exists."""
    user = request.user
    if not user.is_active:
        return False
    if user.is_staff:
        return True
    match = request.resolver_match
    if match is None:
        return True
    if match.url_name == "view_on_site":
        return False
    if match.url_name == "app_list":
        label = match.kwargs.get("app_label")
        return any(
            m._meta.app_label == label and _for_owners(a) for m, a in admin.site._registry.items()
        )
    model_admin = getattr(match.func, "model_admin", None)
    return model_admin is None or _for_owners(model_admin)


_admin_app_list = admin.site.get_app_list


def admin_app_list(request: HttpRequest, app_label: str | None = None) -> list[dict[str, Any]]:
    """The index and the side bar: for a user who is not staff, only the models open to them."""
    apps = _admin_app_list(request, app_label)
    if request.user.is_staff:
        return apps
    for app in apps:
        app["models"] = [
            m for m in app["models"] if _for_owners(admin.site.get_model_admin(m["model"]))
        ]
    return [app for app in apps if app["models"]]


admin.site.has_permission = admin_has_permission  # type: ignore[method-assign]
admin.site.get_app_list = admin_app_list  # type: ignore[method-assign]
# The admin's own log-in form turns away anyone who is not staff; the site's lets them in.
admin.site.login_form = AuthenticationForm

router = DefaultRouter()
router.register("bots", BotViewSet, basename="bot")
router.register("matches", MatchViewSet, basename="match")
router.register("tables", TableViewSet, basename="table")


class FaviconRedirect(RedirectView):
    """``/favicon.ico`` → the site's icon. Its static URL is looked up per request, not at
    import: the manifest does not exist yet when ``migrate`` or ``collectstatic`` imports the
    URLs on a fresh clone."""

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("img/favicon.svg")


api_urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
    path("bot/", include("bots.external.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("games/<int:pk>/bot-moves/", GameBotMovesView.as_view(), name="game-bot-moves"),
    path("tables/<str:code>/invite/", TableInviteView.as_view(), name="table-invite"),
    path("ladder/", LadderListView.as_view(), name="ladder-list"),
    path("ladder/<str:game>/<int:seats>/", LadderDetailView.as_view(), name="ladder-detail"),
    path("quickplay/", QuickPlayView.as_view(), name="quickplay"),
    *router.urls,
]

urlpatterns = [
    path("", game_views.home, name="home"),
    path("how-to-play/", game_views.how_to_play, name="how_to_play"),
    path("how-to-play/<slug:game>/", game_views.how_to_play, name="how_to_play_game"),
    path("tables/", include("games.urls")),
    path("t/<str:code>/", game_views.table_detail, name="table"),
    path("tournaments/", include("games.tournaments.urls")),
    path("", include("games.quickplay.urls")),
    path("bots/", include("bots.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", include((api_urlpatterns, "api"))),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),  # docs/cluster.md "Metrics"
    # the pages name static/img/favicon.svg; a browser asks /favicon.ico anyway (the admin's
    # pages name none)
    path("favicon.ico", FaviconRedirect.as_view(permanent=True)),
    path("i18n/", include("django.conf.urls.i18n")),
]

admin.site.site_header = _("Tiến Lên Arena administration")
admin.site.site_title = _("Tiến Lên Arena admin")

# Styled error pages (templates/400.html … 500.html) whenever DEBUG is off; never a traceback.
handler400 = "config.views.bad_request"
handler500 = "config.views.server_error"
