"""Template filters for a bot version's validation, in the reader's language
(:mod:`bots.error_text`): ``{% load bot_text %}`` then
``{{ version.validation|validation_message }}`` and ``{{ record|bot_error }}``."""

from __future__ import annotations

from django import template

from bots import error_text

register = template.Library()
register.filter("validation_message", error_text.validation_message)
register.filter("bot_error", error_text.bot_error)
