"""Throttles for sign-up and log-in: per client address, and failed log-ins per account.

Address counters are django-ratelimit's fixed windows in the Django cache (Redis), keyed by the
client address (``REMOTE_ADDR``: the peer, or what a proxy named in ``TRUSTED_PROXIES`` sent in
``X-Forwarded-For``, config/proxy.py; IPv6 addresses by /64). Only POSTs count: showing the
form is free. A request over the limit gets a translated page with HTTP 429 and
``Retry-After``.

Rates (``"<count>/<period>"``, period ``s m h d``, e.g. ``10/h``) are read per request from the
settings ``ACCOUNTS_SIGNUP_RATE`` and ``ACCOUNTS_LOGIN_RATE`` (env ``DJANGO_SIGNUP_RATE``,
``DJANGO_LOGIN_RATE``; defaults ``10/h`` and ``10/m``, declared in config/settings/base.py).

Failed log-ins are also counted per account name, whatever the address (a token bucket of
:mod:`games.limits`: ``ACCOUNTS_LOGIN_ACCOUNT_RATE``, default ``10/15m``, a burst
of 10 refilled over 15 minutes): guesses spread over many addresses stop there too. The window
is short on purpose: an attacker can hold an account's log-in shut only while guessing, and
it opens again within minutes after.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django_ratelimit.core import get_usage  # type: ignore[import-untyped]

from games import limits

View = Callable[..., HttpResponseBase]


@dataclass(frozen=True)
class Throttle:
    group: str
    setting: str

    def rate(self) -> str:
        return str(getattr(settings, self.setting))

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


SIGNUP = Throttle("accounts.signup", "ACCOUNTS_SIGNUP_RATE")
LOGIN = Throttle("accounts.login", "ACCOUNTS_LOGIN_RATE")


def throttled_response(
    request: HttpRequest, seconds: int, *, account: bool = False
) -> HttpResponse:
    minutes = max(1, math.ceil(seconds / 60))
    context = {"minutes": minutes, "account": account}
    response = render(request, "accounts/throttled.html", context, status=429)
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


def _account_bucket(request: HttpRequest) -> str | None:
    name = str(request.POST.get("username", "")).strip().casefold()
    if not name:
        return None
    return "login:account:" + hashlib.sha256(name.encode("utf-8", "replace")).hexdigest()


def login_throttle(view: View) -> View:
    """Decorate a log-in view (the site's, the admin's): POSTs are throttled per address
    (:data:`LOGIN`), and an account name with too many failed log-ins is refused before the
    password is checked. A failed log-in (the form shown again, not a redirect) counts."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        seconds = LOGIN.seconds_left(request)
        if seconds is not None:
            return throttled_response(request, seconds)
        bucket = _account_bucket(request)
        rate = limits.setting_rate("ACCOUNTS_LOGIN_ACCOUNT_RATE")
        if bucket is not None and (wait := limits.take(bucket, rate, cost=0)) is not None:
            return throttled_response(request, limits.retry_after(wait), account=True)
        response = view(request, *args, **kwargs)
        failed = not (300 <= response.status_code < 400)
        if bucket is not None and failed:
            limits.take(bucket, rate)
        return response

    return wrapped
