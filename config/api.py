"""Project-wide REST framework pieces. Imported by DRF's settings: keep imports light."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class WriteRateThrottle(SimpleRateThrottle):
    """Limit unsafe requests (POST, PUT, PATCH, DELETE) per user, or per IP when anonymous.

    Reads are not counted. The rate is ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["write"]``
    (env ``DJANGO_API_WRITE_RATE``), looked up on each request so tests can change it.
    """

    scope = "write"

    def get_rate(self) -> str | None:
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates.get(self.scope)

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user and request.user.is_authenticated:
            ident = str(request.user.pk)
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
