"""What the category modules of ``excelcalc.lib`` share: how each declares its functions, and how
Excel reads a single argument (one value of a range, a number, a whole number), and Excel's sum.

Each category module declares ``FUNCTIONS`` (Excel's name -> ``Entry``), and ``OPERATORS`` where it
computes operators of its own (``"+"``, ``"&"``, ``"="``, ``":"`` -> ``Entry``). An entry is one of:

* a function: the engine's own implementation, installed under the name;
* ``Wraps(make)``: made when the table is built, from formulas' own function(s) it corrects
  (``make(table)`` reads them with ``table.excel(name)``, or ``lazy(table, name)`` to import their
  module at the first call only; for an operator, ``backend.operator(name)``);
* ``FORMULAS``: formulas' own function, checked against Excel as it is: nothing is installed.

``excelcalc.lib.register`` installs them all: the one way Excel's functions get into the table (an
add-in's go in by ``formula.register``).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from excelcalc.backend import EMPTY, Array, FunctionTable, Ranges, XlError, as_grid, error, text_date
from excelcalc.lib.sheets import current
from excelcalc.textnum import text_number
from excelcalc.values import ReasonedError, plain

__all__ = [
    "FORMULAS",
    "MAX_ARRAY_MADE",
    "Entry",
    "Wraps",
    "cells",
    "formulas_own",
    "lazy",
    "number",
    "plain_number",
    "scalar",
    "text_serial",
    "total",
    "whole_number",
]


MAX_ARRAY_MADE = 2_000_000  # cells of one array a function makes (EXPAND...): as many as a sheet may hold here


@dataclass(frozen=True)
class Wraps:
    """An entry made when the table is built, from formulas' own functions (``table.excel``)."""

    make: Callable[[FunctionTable], Any]


class _Formulas:
    def __repr__(self) -> str:
        return "FORMULAS"


FORMULAS: Final[Any] = _Formulas()  # formulas' own function, checked against Excel as it is

Entry = Callable[..., Any] | Wraps | _Formulas


def formulas_own(names: str) -> dict[str, Entry]:
    """formulas' own functions ``names`` (separated by spaces), checked against Excel as they are."""
    return dict.fromkeys(names.split(), FORMULAS)


def lazy(table: FunctionTable, name: str) -> Callable[..., Any]:
    """formulas' own ``name``, its module imported at the first call (not for every ``eval``)."""
    found: list[Callable[..., Any]] = []

    def run(*args: Any) -> Any:
        if not found:
            found.append(table.excel(name))
        return found[0](*args)

    run.__name__ = name
    return run


def scalar(v: Any) -> Any:
    """One value of an argument: a 1x1 range or array gives its cell."""
    if isinstance(v, Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        if v.size != 1:
            return v
        v = v.flat[0]
    return v


def number(v: Any) -> float:
    """An argument where Excel needs a number: TRUE is 1, text as Excel (en-US) reads it
    (``textnum``, or a date with its year: ``text_serial``); anything else raises ValueError (#VALUE!)."""
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, str):
        n = text_number(v)
        if n is None:
            n = text_serial(v)
        if n is None:
            raise ValueError(v)
        return n
    return float(v)


_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
_EPOCH, _LEAP_DAY = datetime.date(1899, 12, 30), datetime.date(1900, 3, 1)  # serial 61 on count from _EPOCH


def text_serial(text: str) -> float | None:
    """The serial number of a date written as text with its year ("2024-01-10" 45301, "1/10/2024 12:00"
    45301.5; Microsoft's "Calculation operators and precedence": ``="6/1/2001"-"5/1/2001"`` is 31),
    of the workbook's date system; None for any other text. A date without its year (Excel takes the
    current one) is not read: its answer would change with the year."""
    if _YEAR.search(text) is None:
        return None
    found = text_date(text)
    if found is None or not 1900 <= found[0] <= 9999:
        return None
    try:
        day = datetime.date(found[0], found[1], found[2])
    except ValueError:
        return None
    serial = (day - _EPOCH).days if day >= _LEAP_DAY else (day - _EPOCH).days - 1  # Excel's February 29, 1900
    if getattr(current(), "date1904", False):
        serial -= 1462
        if serial < 0:
            return None
    hours, minutes, seconds = found[3:6]
    return serial + (hours * 3600 + minutes * 60 + seconds) / 86400


def whole_number(v: Any) -> float | XlError:
    """An argument where Excel needs a number, as a float (blank is 0); an error value as is,
    text that reads as no number #VALUE!."""
    if isinstance(v, XlError):
        return v
    if v is None or v is EMPTY:
        return 0.0
    try:
        return number(v)
    except (TypeError, ValueError):
        return error("#VALUE!")


def plain_number(v: Any, what: str = "AGGREGATE's k") -> float | XlError:
    """One number argument (a one-cell range or array gives its value; blank is 0)."""
    if isinstance(v, Ranges | np.ndarray):
        grid = as_grid(v)
        if grid.size != 1:
            return ReasonedError("#VALUE!", f"{what} of several values is not computed by benchsheet")
        v = grid.flat[0]
    if isinstance(v, XlError):
        return v
    try:
        return number(0 if v is EMPTY or v is None else v)
    except (TypeError, ValueError):
        return error("#VALUE!")


def total(v: list[float]) -> float:
    """Left to right, as Excel adds (FormulaEvalTestData's AVERAGE of ±9999999999 and small
    numbers keeps Excel's rounding: pairwise or exact sums answer another last digit)."""
    out = 0.0
    for x in v:
        out += x
    return out


def cells(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` of plain scalars, applied cell by cell over array arguments (as Excel does)."""

    def run(*args: Any) -> Any:
        values = [plain(a) for a in args]
        grids = [v for v in values if isinstance(v, list)]
        if not grids:
            return fn(*values)
        rows, cols = max(len(g) for g in grids), max(len(g[0]) for g in grids)

        def at(v: Any, r: int, c: int) -> Any:
            if not isinstance(v, list):
                return v
            if len(v) == 1 and len(v[0]) == 1:
                return v[0][0]
            return v[r][c] if r < len(v) and c < len(v[r]) else error("#N/A")

        out = [[fn(*[at(v, r, c) for v in values]) for c in range(cols)] for r in range(rows)]
        return np.asarray(out, dtype=object).view(Array)

    run.__name__ = fn.__name__
    return run
