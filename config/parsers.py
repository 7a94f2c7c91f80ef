"""REST framework parsers for untrusted bodies (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``)."""

from __future__ import annotations

import codecs
from typing import IO, Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json as drf_json

from games.engine.core import jsonsafe


def _text_encoding(parser_context: dict[str, Any]) -> str:
    """The request's charset, or ``DEFAULT_CHARSET``; only text codecs (a bytes-to-bytes codec
    such as ``bz2_codec`` would decompress the body past the upload size check)."""
    encoding = str(parser_context.get("encoding") or settings.DEFAULT_CHARSET)
    try:
        "".encode(encoding)
    except (LookupError, UnicodeError) as exc:
        raise ParseError(
            f'Unsupported charset "{encoding}" in request Content-Type header.'
        ) from exc
    return encoding


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with a bound on nesting: ``[[[[…]]]]`` deeper than
    :data:`games.engine.core.jsonsafe.MAX_DEPTH` is a 400 ``JSON parse error`` like any other
    malformed body, not a ``RecursionError`` and a 500."""

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        encoding = _text_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
            constant = drf_json.strict_constant if self.strict else None
            return jsonsafe.loads(text, parse_constant=constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
