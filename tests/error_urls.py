"""The site's URLs plus views that fail, for tests/test_error_pages.py (``pytest.mark.urls``)."""

from __future__ import annotations

from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler400, handler500
from config.urls import urlpatterns as site_urlpatterns

__all__ = ["handler400", "handler500", "urlpatterns"]


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("kaboom: a secret detail that must never reach the user")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("no")


def bad(request: HttpRequest) -> HttpResponse:
    raise BadRequest("bad")


urlpatterns = [
    path("test-errors/boom/", boom),
    path("api/test-errors/boom/", boom),
    path("test-errors/forbidden/", forbidden),
    path("test-errors/bad/", bad),
    *site_urlpatterns,
]
