"""``?lang=vi`` on any page switches the language and remembers it in the language cookie.

Sits just before Django's ``LocaleMiddleware``, which then reads the cookie as usual.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class LanguageQueryMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.codes = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        lang = request.GET.get("lang")
        if lang not in self.codes:
            return self.get_response(request)
        request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = lang
        response = self.get_response(request)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            lang,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            secure=settings.LANGUAGE_COOKIE_SECURE,
        )
        return response
