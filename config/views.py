"""Project-level views: the health endpoint, the CSRF failure page and the error handlers
(``config/urls.py`` ``handler400`` / ``handler500``; 403 and 404 are Django's own views with
``templates/403.html`` and ``404.html``)."""

from __future__ import annotations

import logging
from typing import Any

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseServerError,
    JsonResponse,
)
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.health import run_checks

logger = logging.getLogger(__name__)


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Report database, channel layer and Celery broker status; 200 if all ok, else 503.
    ``?scope=node``: the database and the channel layer only (the proxy's check)."""
    report = run_checks(node=request.GET.get("scope") == "node")
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Explain a rejected form in plain words instead of Django's bare 403 page."""
    html = render_to_string("403_csrf.html", {"reason": reason}, request=request)
    return HttpResponseForbidden(html)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _fallback_page(title: str, text: str) -> str:
    """A page that needs no template, static file or URL: what is left when ``500.html``
    itself fails (the database, a template or the static manifest broken)."""
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{escape(title)}</title></head>'
        '<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;'
        f'padding:0 1rem"><h1>{escape(title)}</h1><p>{escape(text)}</p>'
        f'<p><a href="/">{escape(_("Go home"))}</a></p></body></html>'
    )


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """``handler500``: ``templates/500.html`` rendered without a request (context processors
    may be what failed), JSON under ``/api/``; never a traceback, even if the page fails."""
    if _is_api(request):
        return JsonResponse({"detail": _("Something went wrong on the server.")}, status=500)
    html: str
    try:
        html = render_to_string("500.html")
    except Exception:
        logger.exception("the 500 page failed to render")
        html = _fallback_page(
            _("Something went wrong"), _("The error was logged. Please try again in a moment.")
        )
    return HttpResponseServerError(html)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400`` (a malformed request, a suspicious operation, a host not allowed):
    ``templates/400.html`` without a request, JSON under ``/api/``."""
    if _is_api(request):
        return JsonResponse({"detail": _("Bad request")}, status=400)
    html: str
    try:
        html = render_to_string("400.html")
    except Exception:
        logger.exception("the 400 page failed to render")
        html = _fallback_page(_("Bad request"), _("Go home"))
    return HttpResponseBadRequest(html)
