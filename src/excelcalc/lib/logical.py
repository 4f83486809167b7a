"""Excel's Logical functions the engine computes itself, and its comparison operators; the others
of the group it takes from formulas as they are (``FORMULAS``), checked against Excel.

* AND, OR, XOR read their arguments by Excel's rule (``excelcalc.args``: in a range TRUE/FALSE and
  numbers, typed directly "TRUE" too).
* ``= <> < > <= >=``: an empty cell compared with TRUE or FALSE is FALSE.
* MAKEARRAY: formulas' own, its size bounded before any LAMBDA call (the other LAMBDA helpers,
  MAP, BYROW, BYCOL, REDUCE, SCAN, go over arrays that exist already).
"""

from __future__ import annotations

import operator as op
from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.args import direct_logical, in_range_logical, values
from excelcalc.backend import EMPTY, Array, FunctionTable, XlError, error, operator, single_values
from excelcalc.lib._common import MAX_ARRAY_MADE, Entry, Wraps, formulas_own, plain_number, scalar
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS", "OPERATORS"]


def _logical(name: str, of: Callable[[list[bool]], bool]) -> Callable[..., Any]:
    """AND/OR/XOR: #VALUE! when no argument holds a logical value or a number."""

    def run(*args: Any) -> Any:
        got = values(args, in_range_logical, direct_logical)
        if isinstance(got, XlError):
            return got
        return of(got) if got else error("#VALUE!")

    run.__name__ = name
    return run


# two numbers compared as formulas' operators compare them: (kind, value) pairs of one kind, so by value
_NUMBERS: dict[str, Callable[[Any, Any], bool]] = {
    "=": op.eq,
    "<>": op.ne,
    "<": op.lt,
    ">": op.gt,
    "<=": op.le,
    ">=": op.ge,
}


def compare(original: Callable[..., Any], name: str = "") -> Callable[..., Any]:
    """A comparison of an empty cell with TRUE or FALSE reads the empty cell as FALSE (POI's
    FormulaEvalTestData, Excel-cached: ``FALSE=D7`` with D7 empty is TRUE); formulas read it as 0,
    a number, which no logical value equals. Two numbers (``D2>E2``: single values, 1x1 ranges or
    arrays) are compared here, answered in the form formulas' operator answers (an object Array,
    1x1 where an argument is 1x1, of a bool): 12 us of an IF of four cells, now 2."""
    numbers = _NUMBERS.get(name)

    def run(x: Any, y: Any) -> Any:
        single = single_values((x, y)) if numbers is not None else None
        if single is not None and numbers is not None:
            (a, b), grid = single
            if (type(a) is int or type(a) is float) and (type(b) is int or type(b) is float):
                out = np.empty((1, 1) if grid else (), dtype=object)
                out[(0, 0) if grid else ()] = numbers(a, b)
                return out.view(Array)
        a, b = scalar(x), scalar(y)
        if a is EMPTY and isinstance(b, bool | np.bool_):
            x = False
        elif b is EMPTY and isinstance(a, bool | np.bool_):
            y = False
        return original(x, y)

    return run


_XOR = _logical("XOR", lambda v: sum(v) % 2 == 1)


def _makearray(table: FunctionTable) -> Callable[..., Any]:
    """MAKEARRAY(rows, columns, lambda): formulas' own, refused with the reason when it would make
    more cells than a function makes here (``MAX_ARRAY_MADE``) or than Excel's sheet holds."""
    own = table.excel("MAKEARRAY")

    def run(rows: Any, columns: Any, *rest: Any) -> Any:
        n, m = plain_number(rows, "MAKEARRAY's rows"), plain_number(columns, "MAKEARRAY's columns")
        if isinstance(n, XlError) or isinstance(m, XlError):
            return n if isinstance(n, XlError) else m
        if n < 1 or m < 1:
            return ReasonedError("#VALUE!", "MAKEARRAY makes at least 1 row and 1 column")
        if n > 1_048_576 or m > 16_384 or n * m > MAX_ARRAY_MADE:
            return ReasonedError("#VALUE!", f"MAKEARRAY of {n:,.0f} x {m:,.0f} is more than benchsheet makes")
        return own(rows, columns, *rest)

    run.__name__ = "MAKEARRAY"
    return run


FUNCTIONS: dict[str, Entry] = {
    "AND": _logical("AND", all),
    "OR": _logical("OR", any),
    "XOR": _XOR,
    "_XLFN.XOR": _XOR,
    **formulas_own("FALSE IF IFERROR MAP NOT TRUE IFS SWITCH IFNA BYROW BYCOL REDUCE SCAN"),
    **formulas_own("_XLFN.BYROW _XLFN.BYCOL _XLFN.REDUCE _XLFN.SCAN"),
    **dict.fromkeys(("MAKEARRAY", "_XLFN.MAKEARRAY"), Wraps(_makearray)),
}


def _comparison(name: str) -> Wraps:
    return Wraps(lambda _table: compare(operator(name), name))


OPERATORS: dict[str, Entry] = {name: _comparison(name) for name in ("=", "<>", "<", ">", "<=", ">=")}
