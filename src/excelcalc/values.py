"""Values as the engine answers them: plain Python, and Excel's error values with their reasons.

``ReasonedError`` is a real Excel error value (``#N/A``, ``#VALUE!``: equal to the plain code, so
IFERROR and ISERROR see it) that also carries the reason a person can act on. ``FunctionError`` is
one answered by a registered add-in function: a file caches it as the add-in shows it in a cell
(``#N/A No entry '6.1-9999' in the loaded results``). ``plain`` turns an engine value into numbers, texts, booleans,
None, errors or rows of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from excelcalc.backend import PLAIN_TYPES, XlError

__all__ = ["FunctionError", "ReasonedError", "is_error", "plain"]


class ReasonedError(XlError):  # type: ignore[misc]
    """An Excel error value with the reason behind it; equal to the plain code."""

    reason: str

    def __new__(cls, code: str, reason: str) -> ReasonedError:
        obj: ReasonedError = super().__new__(cls, code)
        obj.reason = reason
        return obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, XlError) and str.__eq__(self, other)

    def __hash__(self) -> int:
        return str.__hash__(self)

    @property
    def text(self) -> str:
        return f"{self} {self.reason}"


class FunctionError(ReasonedError):
    """An error answered by a registered add-in function: a file shows it as the add-in shows it in
    classic Excel (``#N/A No entry '6.1-9999' in the loaded results``); Excel's own errors are stored as
    error values."""


def plain(value: Any) -> Any:
    """A value from the engine as plain Python: scalars, None, or rows of cells."""
    if type(value) in PLAIN_TYPES:
        return value
    if not isinstance(value, np.ndarray | str) and hasattr(value, "value"):
        value = value.value  # a formulas Ranges object
    if isinstance(value, np.ndarray):
        if value.size == 1:
            one = value.flat[0]  # most answers and arguments: one cell
            return one if type(one) in PLAIN_TYPES else plain(one)
        grid = value if value.ndim == 2 else value.reshape(1, -1)
        return [[plain(v) for v in row] for row in grid.tolist()]
    if isinstance(value, XlError):
        return value
    if isinstance(value, str) and type(value) is not str:  # schedula's EMPTY token
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def is_error(value: Any) -> bool:
    """An error value (a single one: rows of cells are not an error)."""
    if isinstance(value, list):
        return False
    return isinstance(value, XlError)
