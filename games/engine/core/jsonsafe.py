"""JSON from untrusted input, with a bound on nesting.

``json.loads`` recurses once per nested array or object and raises :class:`RecursionError` (not
a ``ValueError``) on a few kilobytes of ``[[[[…]]]]``; a value just under the interpreter's limit
parses and then overflows whatever walks it next. :func:`loads` refuses text nested deeper than
``max_depth`` before parsing, with :class:`JSONTooDeepError`, a :class:`json.JSONDecodeError`
(so a ``ValueError``): every caller that already maps bad JSON to its error maps this too.

>>> loads('{"a": [1, {"b": []}]}')
{'a': [1, {'b': []}]}
>>> loads("[" * 2000 + "]" * 2000)
Traceback (most recent call last):
...
games.engine.core.jsonsafe.JSONTooDeepError: JSON nested deeper than 64 levels: ...
>>> loads('["[[[[", "{{{{"]', max_depth=2)
['[[[[', '{{{{']
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "JSONTooDeepError", "loads", "nesting_depth", "nests_within"]

#: Deeper than anything this project writes or reads (exports nest about 6 levels).
MAX_DEPTH = 64

# A JSON string (with escapes) or one bracket. Strings are matched whole so that brackets
# inside them are skipped; an unterminated string matches nothing and json.loads reports it.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


# For the quick bound: strings go first (their brackets do not count), then everything but
# brackets; each pass of _PAIRS then removes one level of matched, innermost pairs.
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SIMPLE_STRINGS = re.compile(r'"[^"]*"')
_QUOTES_AND_BRACKETS = str.maketrans(
    "", "", "".join(c for c in map(chr, range(128)) if c not in '"[]{}')
)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_PAIRS = re.compile(r"\[\]|\{\}")


class JSONTooDeepError(json.JSONDecodeError):
    """The text nests arrays/objects deeper than allowed. ``code`` is ``"too_deep"``."""

    code = "too_deep"


def nesting_depth(text: str, *, stop_above: int | None = None) -> tuple[int, int]:
    """The deepest nesting of ``text`` and the offset where it is first reached (or, with
    ``stop_above``, first exceeds that depth). Brackets inside strings do not count.

    >>> nesting_depth('[{"x": "]]]"}, []]')
    (2, 1)
    >>> nesting_depth("[[[[]]]]", stop_above=2)
    (3, 2)
    """
    depth = deepest = 0
    where = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, match.start()
                if stop_above is not None and depth > stop_above:
                    break
        elif token in "]}":
            depth -= 1
    return deepest, where


def nests_within(text: str, max_depth: int) -> bool:
    """True when ``text`` surely nests no deeper than ``max_depth`` (brackets in strings do not
    count). Regular expressions do the work, one pass a level, so it is many times faster than
    :func:`nesting_depth` on large input; False means "not sure" (too deep, or brackets that do
    not match, which the parser reports): ask :func:`nesting_depth` then.

    >>> nests_within('[{"x": "]]]"}, []]', 2), nests_within("[[[]]]", 2)
    (True, False)
    >>> nests_within("[}", 5)
    False
    """
    if "\\" not in text and text.count('"') % 2 == 0:
        # No escapes: quotes pair up left to right. Dropping the ASCII that is neither a quote
        # nor a bracket, then any two adjacent quotes, keeps every other quote's parity and
        # drops no bracket, so the same brackets stay outside strings; the few strings left
        # (those holding brackets or other characters) go by a simple pattern.
        outside = _SIMPLE_STRINGS.sub("", text.translate(_QUOTES_AND_BRACKETS).replace('""', ""))
    else:
        outside = _STRINGS.sub("", text)
    rest = _NOT_BRACKETS.sub("", outside)
    for _ in range(max_depth):
        if not rest:
            return True
        rest = _PAIRS.sub("", rest)
    return not rest


def loads(data: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH, **kwargs: Any) -> Any:
    """``json.loads`` that raises :class:`JSONTooDeepError` for text nested deeper than
    ``max_depth`` instead of overflowing the stack. Bytes are decoded as ``json.loads`` does
    (UTF-8/16/32 detected; a bad encoding raises ``UnicodeDecodeError``, a ``ValueError``)."""
    text = (
        data.decode(json.detect_encoding(data), "surrogatepass")
        if not isinstance(data, str)
        else data
    )
    # Fast path: fewer opening brackets than the limit cannot nest deeper than it.
    if text.count("[") + text.count("{") > max_depth and not nests_within(text, max_depth):
        deepest, where = nesting_depth(text, stop_above=max_depth)
        if deepest > max_depth:
            raise JSONTooDeepError(f"JSON nested deeper than {max_depth} levels", text, where)
    return json.loads(text, **kwargs)
