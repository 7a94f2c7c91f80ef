"""What one user may create, per kind: tables, tournaments, bots, matches, arenas.

The same bucket per user and kind (:mod:`games.limits`, in Redis) counts the web forms' POSTs
(:func:`creation_limited`) and the REST API's creating requests (:class:`CreationThrottle`, one
of the default throttle classes: a view names its kind in ``creation_kind``). Rates are the
setting ``GAMES_CREATE_RATES`` (``{"tables": "30/h", ...}``, env ``GAMES_CREATE_RATE_TABLES``
and so on). Over it: the page answers 429 with a translated message and ``Retry-After``; the
API answers 429 ``{"code": "rate_limited", "detail", "retry_after"}`` with ``Retry-After``.
Nothing is created either way.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import Throttled
from rest_framework.throttling import BaseThrottle

from games import limits

#: The kinds and their default rates (per user).
CREATE_RATES = {
    "tables": "30/h",
    "tournaments": "10/h",
    "bots": "20/h",
    "matches": "30/h",
    "arenas": "20/h",
}

#: What the page says, per kind.
MESSAGES = {
    "tables": _("You have created many tables in a short time."),
    "tournaments": _("You have created many tournaments in a short time."),
    "bots": _("You have created many bots in a short time."),
    "matches": _("You have started many matches in a short time."),
    "arenas": _("You have started many arena sessions in a short time."),
}

View = Callable[..., HttpResponseBase]


class RateLimited(Throttled):
    """429 ``rate_limited`` of the REST API, with ``Retry-After`` (DRF sets it from ``wait``)."""

    default_code = "rate_limited"

    def __init__(self, wait: float, detail: str) -> None:
        seconds = limits.retry_after(wait)
        super().__init__(wait=seconds)
        body: Any = {
            "code": "rate_limited",
            "detail": f"{detail} Retry in {seconds} s.",
            "retry_after": seconds,
        }
        self.detail = body


def creation_wait(user: Any, kind: str) -> float | None:
    """Count one creation of ``kind`` by ``user``: None within the rate, else the seconds to
    wait (nothing is counted then)."""
    rates: dict[str, str] = settings.GAMES_CREATE_RATES or {}
    rate = limits.Rate.parse(rates.get(kind) or CREATE_RATES[kind])
    return limits.take(f"create:{kind}:{user.pk}", rate)


def rate_limited_page(request: HttpRequest, kind: str, wait: float) -> HttpResponse:
    seconds = limits.retry_after(wait)
    context = {"message": MESSAGES[kind], "minutes": max(1, math.ceil(seconds / 60))}
    response = render(request, "rate_limited.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def creation_limited(kind: str) -> Callable[[View], View]:
    """Decorate a form view: a logged-in user's POST counts as one creation of ``kind``; over
    the rate the form is not processed and the page says when to try again (HTTP 429)."""

    def decorator(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST" and request.user.is_authenticated:
                wait = creation_wait(request.user, kind)
                if wait is not None:
                    return rate_limited_page(request, kind, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


class CreationThrottle(BaseThrottle):
    """A POST to a REST view with ``creation_kind`` (a viewset: its ``create`` action) counts
    as one creation of that kind by the user; over the rate: :class:`RateLimited`."""

    def allow_request(self, request: Any, view: Any) -> bool:
        kind = getattr(view, "creation_kind", None)
        if kind is None or request.method != "POST":
            return True
        if getattr(view, "action", "create") != "create" or not request.user.is_authenticated:
            return True
        wait = creation_wait(request.user, kind)
        if wait is not None:
            raise RateLimited(wait, str(MESSAGES[kind]))
        return True
