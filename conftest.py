"""Shared by every test pytest collects, the apps' doctests included (tests/conftest.py holds
the fixtures of tests/)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _pytest.doctest import DoctestItem
from django.utils import translation


@pytest.fixture(autouse=True)
def _doctests_read_in_english(request: pytest.FixtureRequest) -> Iterator[None]:
    """A docstring's examples are written in English: run them in English whatever language an
    earlier test's request left active on this thread."""
    if not isinstance(request.node, DoctestItem):
        yield
        return
    with translation.override("en"):
        yield
