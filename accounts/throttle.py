"""Per-client-address throttles for sign-up and log-in.

Counters are django-ratelimit's fixed windows in the Django cache (Redis), keyed by the
client address (``REMOTE_ADDR``, which daphne's ``--proxy-headers`` sets from
``X-Forwarded-For``; IPv6 addresses by /64). Only POSTs count: showing the form is free. A
request over the limit gets a translated page with HTTP 429 and ``Retry-After``.

Rates (``"<count>/<period>"``, period ``s m h d``, e.g. ``10/h``) are read per request from the
settings ``ACCOUNTS_SIGNUP_RATE`` and ``ACCOUNTS_LOGIN_RATE`` (env ``DJANGO_SIGNUP_RATE``,
``DJANGO_LOGIN_RATE``), defaults :data:`SIGNUP_RATE` and :data:`LOGIN_RATE`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django_ratelimit.core import get_usage  # type: ignore[import-untyped]

#: Accounts one address may create per hour.
SIGNUP_RATE = "10/h"
#: Log-in attempts (right or wrong) one address may make per minute.
LOGIN_RATE = "10/m"

View = Callable[..., HttpResponseBase]


@dataclass(frozen=True)
class Throttle:
    group: str
    setting: str
    default: str

    def rate(self) -> str:
        return str(getattr(settings, self.setting, None) or self.default)

    def seconds_left(self, request: HttpRequest) -> int | None:
        """Count this request; the seconds until the window ends if it is over the limit,
        else None."""
        usage = get_usage(
            request,
            group=self.group,
            key="ip",
            rate=self.rate(),
            method="POST",
            increment=True,
        )
        if usage is None or not usage["should_limit"]:
            return None
        return max(1, int(usage["time_left"]))


SIGNUP = Throttle("accounts.signup", "ACCOUNTS_SIGNUP_RATE", SIGNUP_RATE)
LOGIN = Throttle("accounts.login", "ACCOUNTS_LOGIN_RATE", LOGIN_RATE)


def throttled_response(request: HttpRequest, seconds: int) -> HttpResponse:
    minutes = max(1, math.ceil(seconds / 60))
    response = render(request, "accounts/throttled.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def throttle(rule: Throttle) -> Callable[[View], View]:
    """Decorate a view: a POST over ``rule``'s rate gets :func:`throttled_response`."""

    def decorator(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            seconds = rule.seconds_left(request)
            if seconds is not None:
                return throttled_response(request, seconds)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
