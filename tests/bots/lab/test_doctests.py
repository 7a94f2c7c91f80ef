"""The doctests of the local runner's modules and of the export format (outside the
``--doctest-modules`` paths)."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

import bots.lab.entrants
import bots.lab.report
import games.exports


@pytest.mark.parametrize("module", [bots.lab.entrants, bots.lab.report, games.exports], ids=str)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
