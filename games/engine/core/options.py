"""Small helpers for validating table options.

>>> is_int(3), is_int(True), is_int(3.0)
(True, False, False)
"""

from __future__ import annotations

__all__ = ["is_int"]


def is_int(value: object) -> bool:
    """Whether ``value`` is an int and not a bool.

    >>> is_int(-1), is_int(False)
    (True, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)
