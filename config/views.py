"""Project-level views: the health endpoint and the CSRF failure page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.health import run_checks


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Report database, channel layer and Celery broker status; 200 if all ok, else 503."""
    report = run_checks()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Explain a rejected form in plain words instead of Django's bare 403 page."""
    html = render_to_string("403_csrf.html", {"reason": reason}, request=request)
    return HttpResponseForbidden(html)
