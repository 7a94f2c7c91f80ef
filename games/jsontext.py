"""JSON text on the move path (frames on the socket, a game's state to and from PostgreSQL), by
orjson: the standard library's ``json`` was about 8 % of daphne's CPU per move
(docs/benchmarks.md "Issue 26 … session 12"). Where orjson refuses what ``json`` takes (an
integer beyond 64 bits, ``NaN``), the standard library does the job, so the result is always
what ``json`` would accept. Text is compact (no spaces) and UTF-8 as it is (not ``\\u``
escaped): the same JSON values.

>>> dumps({"a": [1, 2.5, None], 3: "đ"})
'{"a":[1,2.5,null],"3":"đ"}'
>>> loads('{"seed": 340282366920938463463374607431768211456}')["seed"] == 2**128
True
>>> dumps({"seed": 2**128})
'{"seed":340282366920938463463374607431768211456}'
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """Compact JSON text of ``value``."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode("utf-8")
    except TypeError:  # e.g. an integer beyond 64 bits
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | bytes) -> Any:
    """The value of JSON ``text``."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # e.g. an integer beyond 64 bits; bad text raises again
        return json.loads(text)
