"""Bounded JSON parsing (games.engine.core.jsonsafe) and the conformance runner on deep input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.conformance import run_input
from games.engine.core import jsonsafe

DEEP = "[" * 1900 + "]" * 1900  # 3.8 KB: overflows json.loads' recursion


def test_plain_json_overflows_the_stack_on_deep_input() -> None:
    """Why the module exists: the standard parser raises RecursionError, not ValueError."""
    with pytest.raises(RecursionError):
        json.loads(DEEP)


@pytest.mark.parametrize("text", [DEEP, DEEP.encode(), "{" + '"a":{' * 1900 + "}" * 1901])
def test_deep_input_is_a_json_decode_error(text: str | bytes) -> None:
    with pytest.raises(jsonsafe.JSONTooDeepError) as info:
        jsonsafe.loads(text)
    assert isinstance(info.value, ValueError)
    assert info.value.code == "too_deep"


def test_the_limit_is_inclusive_and_strings_do_not_count() -> None:
    assert jsonsafe.loads("[" * 64 + "]" * 64, max_depth=64) is not None
    with pytest.raises(jsonsafe.JSONTooDeepError):
        jsonsafe.loads("[" * 65 + "]" * 65, max_depth=64)
    text = json.dumps({"s": "[" * 500, "t": '\\"[[[', "u": [[1]]})
    assert jsonsafe.loads(text, max_depth=3) == json.loads(text)


def test_bytes_are_decoded_like_json_loads() -> None:
    assert jsonsafe.loads('{"a": "ố"}'.encode("utf-16")) == {"a": "ố"}
    with pytest.raises(UnicodeDecodeError):
        jsonsafe.loads(b"\xff\xfe\xfd")


def test_conformance_runner_answers_deep_input_with_an_error() -> None:
    assert json.loads(run_input(DEEP)) == {
        "error": "bad_scenario",
        "detail": "JSON nested deeper than 64 levels",
    }
    lines = run_input('{"game": "go"}\n' + DEEP).splitlines()
    assert json.loads(lines[1])["error"] == "bad_scenario"


# The quick bound (nests_within) may only say "within" when the exact scan agrees.
_PIECES = ["[", "]", "{", "}", '"', "a", "ệ", ",", ":", '""', '"]"', '"[["']
_ESCAPES = ["\\", '"\\""', '"\\\\"']
_TEXTS = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join) | st.lists(
    st.sampled_from(_PIECES + _ESCAPES), max_size=60
).map("".join)


@given(_TEXTS, st.integers(0, 8))
def test_the_quick_bound_never_says_within_when_the_exact_scan_does_not(
    text: str, limit: int
) -> None:
    if jsonsafe.nests_within(text, limit):
        assert jsonsafe.nesting_depth(text)[0] <= limit


@given(
    st.recursive(
        st.none() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=20,
    ),
    st.integers(0, 8),
)
def test_the_quick_bound_is_exact_on_valid_json(value: object, limit: int) -> None:
    text = json.dumps(value)
    assert jsonsafe.nests_within(text, limit) == (jsonsafe.nesting_depth(text)[0] <= limit)
