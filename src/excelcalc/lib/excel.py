"""Excel's own functions where the ``formulas`` package computes them differently from Excel.

Each override follows Microsoft's documentation of the function (cited in its docstring)
and is registered over formulas' version in the engine's function table
(``benchsheet.engine.functions``); the package itself is never patched.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from excelcalc import args as excel_args
from excelcalc.backend import (
    COMPILING,
    EMPTY,
    NONE,
    Array,
    Ranges,
    XlError,
    as_grid,
    cellwise,
    elementwise,
    error,
    make_range,
    operator,
    range_parts,
    replace_empty,
    replace_operators,
    text_date,
    wrap_ufunc,
)
from excelcalc.textnum import text_number

Table = dict[str, Any]


def _scalar(v: Any) -> Any:
    """One value of an argument: a 1x1 range or array gives its cell."""
    if isinstance(v, Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        if v.size != 1:
            return v
        v = v.flat[0]
    return v


def _whole(v: Any) -> int | XlError:
    """An INDEX position: a number (text that reads as one, TRUE = 1), truncated; an error as is."""
    v = _scalar(v)
    if v is EMPTY or v is None:
        return 0
    if isinstance(v, XlError):
        return v
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, str):
        n = text_number(v)
        if n is None:
            return error("#VALUE!")
        v = n
    try:
        return int(float(v))
    except (TypeError, ValueError):
        return error("#VALUE!")


def index(original: Callable[..., Any]) -> Callable[..., Any]:
    """INDEX(array, row_num, [column_num], [area_num]) as Excel: a row or column number of 0 gives
    the whole column or row ("If you set row_num or column_num to 0, INDEX returns the array of
    values for the entire column or row"), a reference stays a reference (``SUM(INDEX(A1:B3,0,2))``
    sums the column), a number beyond the array is #REF!. formulas reads 0 as 1. Several areas
    and arrays of positions go to formulas."""

    def run(compiling: bool, array: Any, row_num: Any = 0, col_num: Any = None, area_num: Any = 1) -> Any:
        if compiling:
            return original(compiling, array, row_num, col_num, area_num)
        several = isinstance(array, Ranges) and len(array.ranges) != 1
        if several or any(isinstance(_scalar(a), np.ndarray) for a in (row_num, col_num, area_num) if a is not None):
            return original(compiling, array, row_num, *(() if col_num is None else (col_num, area_num)))
        if _whole(area_num) != 1:
            return original(compiling, array, row_num, col_num, area_num)
        grid = as_grid(array)
        rows, cols = grid.shape
        r, c = _whole(row_num), (None if col_num is None else _whole(col_num))
        for v in (r, c):
            if isinstance(v, XlError):
                return v
        assert not isinstance(r, XlError) and not isinstance(c, XlError)
        if c is None:  # one position: along a vector, else a row of a table
            if rows == 1:
                r, c = 1, r
            elif cols == 1:
                c = 1
            else:
                c = 0
        if r < 0 or c < 0:
            return error("#VALUE!")
        if r > rows or c > cols:
            return error("#REF!")
        r1, r2 = (1, rows) if r == 0 else (r, r)
        c1, c2 = (1, cols) if c == 0 else (c, c)
        part = grid[r1 - 1 : r2, c1 - 1 : c2]
        if isinstance(array, Ranges):
            base = array.ranges[0]
            top, left = int(base["r1"]), int(base["n1"])
            parts = range_parts(base["sheet_id"], top + r1 - 1, left + c1 - 1, top + r2 - 1, left + c2 - 1)
            return make_range(parts, np.asarray(part, dtype=object))
        if part.size == 1:
            v = part[0, 0]
            return np.asarray(0 if v is EMPTY else v, dtype=object).view(Array)
        return np.asarray(part, dtype=object).view(Array)

    run.__name__ = "INDEX"
    return run


def rows_columns(original: Callable[..., Any], axis: int) -> Callable[..., Any]:
    """ROWS/COLUMNS of an array too (``ROWS(INDEX(A1:B3,0,2))``, ``ROWS({1;2;3})``): formulas
    counts references only and answers #VALUE! for an array."""

    def run(ref: Any) -> Any:
        if isinstance(ref, Ranges):
            return original(ref)
        if isinstance(ref, XlError):
            return ref
        return as_grid(ref).shape[axis]

    run.__name__ = "ROWS" if axis == 0 else "COLUMNS"
    return run


# Functions whose arguments are all single values: a range given to one of them, or to an operator
# outside any function, is read by Excel's implicit intersection in an ordinary formula ("implicit
# intersection ... reduces many values to a single value", Microsoft's "Implicit intersection
# operator: @" page). Functions that take ranges or arrays (SUM, SUMPRODUCT, INDEX, VLOOKUP...) are
# not listed: what they read stays a range, as before. T is not listed: Excel's T of a range reads
# its top-left cell (FormulaEvalTestData: ``T(L7:N7)`` in column N is "", N7 holding text).
SCALAR_FUNCTIONS = frozenset(
    [
        "ABS",
        "ACOS",
        "ACOSH",
        "ASIN",
        "ASINH",
        "ATAN",
        "ATAN2",
        "ATANH",
        "CEILING",
        "CHAR",
        "CLEAN",
        "CODE",
        "COMBIN",
        "CONCATENATE",
        "COS",
        "COSH",
        "DATE",
        "DAY",
        "DAYS",
        "DEGREES",
        "DOLLAR",
        "EDATE",
        "EOMONTH",
        "EVEN",
        "EXACT",
        "EXP",
        "FACT",
        "FIND",
        "FLOOR",
        "HOUR",
        "IF",
        "IFERROR",
        "IFNA",
        "INT",
        "ISBLANK",
        "ISERR",
        "ISERROR",
        "ISEVEN",
        "ISLOGICAL",
        "ISNA",
        "ISNONTEXT",
        "ISNUMBER",
        "ISODD",
        "ISTEXT",
        "LEFT",
        "LEN",
        "LN",
        "LOG",
        "LOG10",
        "LOWER",
        "MID",
        "MINUTE",
        "MOD",
        "MONTH",
        "MROUND",
        "N",
        "NOT",
        "ODD",
        "POWER",
        "PROPER",
        "RADIANS",
        "REPLACE",
        "REPT",
        "RIGHT",
        "ROUND",
        "ROUNDDOWN",
        "ROUNDUP",
        "SEARCH",
        "SECOND",
        "SIGN",
        "SIN",
        "SINH",
        "SQRT",
        "SUBSTITUTE",
        "TAN",
        "TANH",
        "TEXT",
        "TIME",
        "TRIM",
        "TRUNC",
        "UPPER",
        "VALUE",
        "WEEKDAY",
        "YEAR",
        "YEARFRAC",
    ]
)
# Functions of both kinds of parameters: the positions (from 0) of those that take one value
# (Microsoft's pages: COUNTIF's criteria, VLOOKUP's lookup_value...); the others take ranges.
SCALAR_ARGUMENTS: dict[str, frozenset[int]] = {
    "AVERAGEIF": frozenset({1}),
    "CHOOSE": frozenset({0}),
    "COUNTIF": frozenset({1}),
    "HLOOKUP": frozenset({0, 2, 3}),
    "INDEX": frozenset({1, 2, 3}),
    "LARGE": frozenset({1}),
    "MATCH": frozenset({0, 2}),
    "SMALL": frozenset({1}),
    "SUMIF": frozenset({1}),
    "VLOOKUP": frozenset({0, 2, 3}),
}


def _takes_one_value(name: str | None, position: int) -> bool:
    """Whether an argument at ``position`` of the call ``name`` (None: a parenthesis) is one value."""
    if name is None:
        return True
    if name in SCALAR_FUNCTIONS:
        return True
    return position in SCALAR_ARGUMENTS.get(name, ())


# Functions that answer a reference: where one value is needed, Excel intersects it as a range
# (``=INDEX(B14:C15,0,2)`` in row 736 is #VALUE!, POI's FormulaEvalTestData).
REFERENCE_FUNCTIONS = frozenset({"INDEX", "OFFSET", "INDIRECT"})
WHOLE = -1  # in ``intersected``: the whole formula (an intersection of ranges at its top level)


def intersected(items: Sequence[Any]) -> set[int]:
    """Which tokens of an ordinary formula (openpyxl's tokenizer) Excel reads by implicit
    intersection: a range (``A2:A4``, a name's range), or a call of a function that answers a
    reference (its opening token), that is an operand at the formula's top level or, in every call
    around it, an argument that takes one value (``=Price*Qty``, ``=ROUND(Price,2)``,
    ``COUNTIF(A1:A9,B1:B9)``'s criteria). A range beside a range operator (``A1:A3 B2:C2``, a union)
    is left alone; an intersection at the top level makes the whole formula intersected (``WHOLE``)."""
    out: set[int] = set()
    stack: list[list[Any]] = []  # enclosing calls [name, argument position]; parentheses [None, 0]
    for i, tok in enumerate(items):
        if tok.subtype == "OPEN" and tok.type in ("FUNC", "PAREN", "ARRAY"):
            name = tok.value[:-1].upper().removeprefix("_XLFN.") if tok.type == "FUNC" else None
            if name in REFERENCE_FUNCTIONS and all(_takes_one_value(n, k) for n, k in stack):
                out.add(i)
            stack.append([name if tok.type == "FUNC" else ("{" if tok.type == "ARRAY" else None), 0])
        elif tok.subtype == "CLOSE" and stack:
            stack.pop()
        elif tok.type == "SEP" and tok.subtype == "ARG" and stack:
            stack[-1][1] += 1
        elif tok.type == "WHITE-SPACE" and not stack and 0 < i < len(items) - 1:
            if items[i - 1].type == "OPERAND" and items[i + 1].type == "OPERAND":
                out.add(WHOLE)
        elif tok.type == "OPERAND" and tok.subtype == "RANGE" and ":" in tok.value:
            if not all(_takes_one_value(name, position) for name, position in stack):
                continue
            near = [items[k] for k in (i - 1, i + 1) if 0 <= k < len(items)]
            if any(t.type == "WHITE-SPACE" or (t.type == "OPERATOR-INFIX" and t.value == ",") for t in near):
                continue
            out.add(i)
    return out


def single(compiling: bool, cell: Any, ref: Any) -> Any:
    """Excel's implicit intersection (``@``) of ``ref`` with the cell computing the formula: a range
    of one column gives its cell in the formula's row, a range of one row its cell in the formula's
    column, a single cell itself; otherwise #VALUE!. An array gives its first value. formulas
    intersected a column only (``=A7:J7*B15`` and ``=COS(H12:L12)`` were #VALUE!)."""
    if compiling:
        return NONE
    if not isinstance(ref, Ranges):
        return ref.flat[0] if isinstance(ref, np.ndarray) and ref.size else ref
    if len(ref.ranges) != 1 or cell is None:
        return error("#VALUE!")
    part, here = ref.ranges[0], cell.ranges[0]
    r1, r2, c1, c2 = int(part["r1"]), int(part["r2"]), int(part["n1"]), int(part["n2"])
    row, col = int(here["r1"]), int(here["n1"])
    if (r1, c1) == (r2, c2):
        return ref
    if c1 == c2 and r1 <= row <= r2:
        r, c = row, c1
    elif r1 == r2 and c1 <= col <= c2:
        r, c = r1, col
    else:
        from excelcalc.values import ReasonedError

        why = "a range of several cells where one value is needed, none of them in the formula's row or column"
        return ReasonedError("#VALUE!", why + " (Excel's implicit intersection)")
    grid = as_grid(ref)
    return make_range(range_parts(part["sheet_id"], r, c, r, c), grid[r - r1 : r - r1 + 1, c - c1 : c - c1 + 1])


def number(v: Any) -> float:
    """An argument where Excel needs a number: TRUE is 1, text as Excel (en-US) reads it
    (``textnum``); anything else raises ValueError (#VALUE!)."""
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, str):
        n = text_number(v)
        if n is None:
            raise ValueError(v)
        return n
    return float(v)


def _digits15(x: float) -> float:
    """A result as Excel keeps it: 15 significant digits (7.7 rounded down to 0.2s is 7.6, not
    7.6000000000000005)."""
    return float(f"{x:.15g}") if math.isfinite(x) else x


def _multiples(x: float, significance: float) -> float:
    """``x`` in units of ``significance``, an integer where binary noise is all that keeps it from one."""
    q = x / significance
    return float(round(q)) if math.isclose(q, round(q), rel_tol=1e-12, abs_tol=1e-12) else q


def floor_math(x: float, significance: float = 1.0, mode: float = 0.0) -> float:
    """FLOOR.MATH (Microsoft's page: ``FLOOR.MATH(-8.1,2)`` is -10, ``FLOOR.MATH(-5.5,2,-1)`` is -4):
    down to a multiple of |significance|; a negative number goes away from 0, or toward 0 with a
    mode other than 0. formulas turned the sign of a negative number round (-23.5 gave 23)."""
    s = abs(significance)
    if s == 0:
        return 0.0
    q = _multiples(x, s)
    return _digits15((-math.floor(-q) if x < 0 and mode else math.floor(q)) * s)


def ceiling_math(x: float, significance: float = 1.0, mode: float = 0.0) -> float:
    """CEILING.MATH (Microsoft's page: ``CEILING.MATH(-8.1,2)`` is -8, ``CEILING.MATH(-5.5,2,-1)``
    is -6): up to a multiple of |significance|; a negative number goes toward 0, or away from 0
    with a mode other than 0."""
    s = abs(significance)
    if s == 0:
        return 0.0
    q = _multiples(x, s)
    return _digits15((math.floor(q) if x < 0 and mode else math.ceil(q)) * s)


def _precise(f: Callable[..., float]) -> Callable[..., float]:
    """FLOOR.PRECISE/CEILING.PRECISE: the .MATH function with mode 0 (sign of significance ignored)."""
    return lambda x, significance=1.0: f(x, significance, 0.0)


def power(x: float, y: float) -> Any:
    """``x^y`` and POWER as Excel: no real answer (``(-5)^0.5``) or too large (``5^1000``) is #NUM!,
    ``0^0`` #NUM!, 0 to a negative power #DIV/0! (Python gave a complex number and an overflow)."""
    if x == 0:
        return error("#NUM!") if y == 0 else (error("#DIV/0!") if y < 0 else 0.0)
    if x < 0 and not float(y).is_integer():
        root = 1 / y  # an odd root of a negative number is real: (-8)^(1/3) is -2
        if abs(root - round(root)) < 1e-9 and round(root) % 2:
            return -math.pow(-x, y)
        return error("#NUM!")
    try:
        return math.pow(x, y)
    except (OverflowError, ValueError):
        return error("#NUM!")


def _divide(x: float, y: float) -> Any:
    return x / y if y else error("#DIV/0!")


# Excel's arithmetic operators over numbers; each operand read by ``number`` (``="$5"*1`` is 5,
# ``="50%"*1`` is 0.5: formulas read text with Python's float and answered #VALUE!)
OPERATORS: dict[str, Callable[..., Any]] = {
    "+": lambda x, y: x + y,
    "-": lambda x, y: x - y,
    "*": lambda x, y: x * y,
    "/": _divide,
    "^": power,
    "U-": lambda x: -x,
    "%": lambda x: x / 100.0,
}


def value(original: Callable[..., Any]) -> Callable[..., Any]:
    """VALUE(text): a number as Excel reads it (``textnum``: ``VALUE("$1,000")`` is 1000 and a time
    of day is its fraction, ``VALUE("12:30")`` 0.520833..., where formulas added January 1 of the
    current year); dates as formulas reads them."""

    def one(v: Any) -> Any:
        if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY:
            n = text_number(v)
            if n is not None:
                return n
        return _call(original, v)

    def run(v: Any) -> Any:
        x = _scalar(v)
        if isinstance(x, np.ndarray):
            return cellwise(one, x)
        return one(x)

    run.__name__ = "VALUE"
    return run


def xlookup(original: Callable[..., Any], xmatch: Callable[..., Any]) -> Callable[..., Any]:
    """XLOOKUP whose return_array is wider than one column (or taller than one row, for a row to
    look in): Microsoft's XLOOKUP page, "Example 2 ... returns ... from the matching row" of several
    columns. formulas answered the first cell of the whole array (11 for the second row of
    {10,11;20,21;30,31}); here the whole matching row or column. One column goes to formulas."""

    def run(lookup_value: Any, lookup_array: Any, return_array: Any, *rest: Any) -> Any:
        look, ret = as_grid(lookup_array), as_grid(return_array)
        if look.shape[1] == 1 and look.shape[0] > 1:
            axis, length, width = 0, look.shape[0], ret.shape[1]
        elif look.shape[0] == 1 and look.shape[1] > 1:
            axis, length, width = 1, look.shape[1], ret.shape[0]
        else:
            return original(lookup_value, lookup_array, return_array, *rest)
        if width == 1:
            return original(lookup_value, lookup_array, return_array, *rest)
        if ret.shape[axis] != length:
            return error("#VALUE!")
        if isinstance(_scalar(lookup_value), np.ndarray):
            from excelcalc.values import ReasonedError

            return ReasonedError("#VALUE!", "XLOOKUP of several values into several columns is not computed")
        pos = _scalar(xmatch(lookup_value, lookup_array, *rest[1:3]))
        if isinstance(pos, XlError) or not isinstance(pos, int | float | np.number):
            if rest and _scalar(rest[0]) is not EMPTY:
                return rest[0]  # if_not_found
            return pos if isinstance(pos, XlError) else error("#N/A")
        i = int(pos) - 1
        part = ret[i : i + 1, :] if axis == 0 else ret[:, i : i + 1]
        out = np.asarray(part, dtype=object)
        out[out == np.array(EMPTY, dtype=object)] = 0
        return out.view(Array)

    run.__name__ = "XLOOKUP"
    return run


def excel_round(away: bool | None) -> Callable[[float, float], float]:
    """ROUND (None), ROUNDUP (True), ROUNDDOWN (False) of the number as Excel holds it, 15
    significant digits, in decimal: ``ROUND(2.675,2)`` is 2.68, and POI's 56315.xlsx (Excel-cached)
    rounds ``1*(0.001+0.5-0.4-0.05-0.001)`` (0.049999999999999975 in binary) to 0.1."""
    from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Context, Decimal

    wide = Context(prec=1000)  # room for every digit of a double: ROUND(1E300,2) is 1E300
    mode = ROUND_HALF_UP if away is None else (ROUND_UP if away else ROUND_DOWN)

    def run(x: float, digits: float) -> float:
        if not math.isfinite(x):
            return x
        places = Decimal(1).scaleb(-max(-400, min(400, int(digits))))
        return float(Decimal(f"{x:.15g}").quantize(places, rounding=mode, context=wide))

    return run


def date(original: Callable[..., Any]) -> Callable[..., Any]:
    """DATE(year, month, day): the serial number of the month's first day plus day - 1, as Excel
    counts ("If day is greater than the number of days in the month specified, day adds that
    number of days to the first day in the month"): POI's FormulaEvalTestData (Excel-cached) has
    ``DATE(1900,1,22222)`` = 22222, where formulas counted Excel's 29 February 1900 once more."""

    def run(year: Any, month: Any, day: Any) -> Any:
        d = _scalar(day)
        if isinstance(d, np.ndarray) or isinstance(_scalar(year), np.ndarray) or isinstance(_scalar(month), np.ndarray):
            return original(year, month, day)
        if isinstance(d, XlError):
            return d
        try:
            days = math.trunc(number(0 if d is EMPTY else d))
        except (TypeError, ValueError):
            return error("#VALUE!")
        first = _scalar(original(year, month, 1))
        if isinstance(first, XlError) or not isinstance(first, int | float | np.number):
            return first
        serial = int(first) + days - 1
        return serial if 0 <= serial <= 2958465 else error("#NUM!")

    run.__name__ = "DATE"
    return run


def date_part(original: Callable[..., Any]) -> Callable[..., Any]:
    """YEAR/MONTH/DAY of a text date: Excel reads no date before 1900 or after 9999 in a text
    (xlcalculator's YEAR.xlsx, Excel-cached: ``YEAR("7/5/1800")`` is #VALUE!); formulas read it."""

    def run(serial: Any) -> Any:
        v = _scalar(serial)
        if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY and text_number(v) is None:
            found = text_date(v)
            if found is not None and not 1900 <= found[0] <= 9999:
                return error("#VALUE!")
        return original(serial)

    run.__name__ = getattr(original, "__name__", "DATE_PART")
    return run


_PLAIN_SHEET = re.compile(r"^(?:\[[^\]]*\])?[A-Za-z_][\w.]*$")


def address(original: Callable[..., Any]) -> Callable[..., Any]:
    """ADDRESS with a sheet_text: quoted only where the name needs quotes (a space, a sign...), as
    Excel cached it in POI's FormulaEvalTestData (``ADDRESS(2,3,3,TRUE,"[Book1]Sheet1")`` is
    ``[Book1]Sheet1!$C2``); formulas quoted every name."""

    def run(*args: Any) -> Any:
        out = original(*args)
        text = _scalar(out)
        sheet = _scalar(args[4]) if len(args) > 4 else None
        if isinstance(text, str) and isinstance(sheet, str) and _PLAIN_SHEET.match(sheet):
            quoted = "'" + sheet.replace("'", "''") + "'!"
            if text.startswith(quoted) and not re.match(r"^(?:\[[^\]]*\])?(?:[A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*)$", sheet):
                return sheet + "!" + text[len(quoted) :]
        return out

    run.__name__ = "ADDRESS"
    return run


def compare(original: Callable[..., Any]) -> Callable[..., Any]:
    """A comparison of an empty cell with TRUE or FALSE reads the empty cell as FALSE (POI's
    FormulaEvalTestData, Excel-cached: ``FALSE=D7`` with D7 empty is TRUE); formulas read it as 0,
    a number, which no logical value equals."""

    def run(x: Any, y: Any) -> Any:
        a, b = _scalar(x), _scalar(y)
        if a is EMPTY and isinstance(b, bool | np.bool_):
            x = False
        elif b is EMPTY and isinstance(a, bool | np.bool_):
            y = False
        return original(x, y)

    return run


def fv(rate: float, nper: float, pmt: float, pv: float = 0.0, kind: float = 0.0) -> float:
    """FV (Microsoft's page), its terms in the order Excel computes them: POI's FormulaEvalTestData
    (Excel-cached) has ``FV(2.95,13,13000,-17406.78521481564,1)`` = 333891.23010253906 to the last
    digit; formulas answered 333891.2279 (the cancellation of terms near 6E11 shows the order)."""
    if rate == 0:
        return -(pv + pmt * nper)
    growth = (1 + rate) ** nper
    return float(-(pv * growth + pmt * (1 + rate * (1 if kind else 0)) / rate * (growth - 1)))


def lookup(original: Callable[..., Any]) -> Callable[..., Any]:
    """LOOKUP(value, lookup_vector, [result_vector]) found by Excel's binary search, as Apache POI
    models it (``LookupUtils``; POI passes its FormulaEvalTestData, Excel-cached, with it): over
    values not in ascending order Excel's answer is where the search lands (``LOOKUP("DOUBLE",
    C6:G6,C9:G9)`` is C9 where a scan found D9). Values of another kind (text among numbers, an
    error, an empty cell) are stepped over. The array form (a table) goes to formulas."""

    def run(value: Any, vector: Any, *rest: Any) -> Any:
        v, grid = _scalar(value), as_grid(vector)
        if isinstance(v, np.ndarray) or min(grid.shape) != 1 or len(rest) > 1:
            return original(value, vector, *rest)
        if isinstance(v, XlError):
            return v
        line = list(grid.flat)
        i = _binary_search(v, line)
        if i < 0:
            return error("#N/A")
        results = list(as_grid(rest[0]).flat) if rest else line
        if i >= len(results):
            return error("#N/A")
        got = results[i]
        return 0 if got is EMPTY else got

    run.__name__ = "LOOKUP"
    return run


def _compare(v: Any, x: Any) -> int | None:
    """-1, 0, 1 as ``v`` is less than, equal to or greater than ``x``; None for another kind."""
    kind = _kind(v)
    if kind == "none" or _kind(x) != kind:
        return None
    a, b = _key(v), _key(x)
    return int(a > b) - int(a < b)


def _binary_search(v: Any, line: list[Any]) -> int:
    """The position Excel's approximate match finds (-1: none), POI's ``lookupIndexOfValue``."""
    low, high = -1, len(line)
    while high - low >= 2:
        mid = (low + high) // 2
        cmp = _compare(v, line[mid])
        if cmp is None:  # step over values of another kind, toward the end
            nxt = next((k for k in range(mid + 1, high) if _compare(v, line[k]) is not None), None)
            if nxt is None or (nxt == high - 1 and _compare(v, line[nxt]) == -1):
                high = mid
                continue
            mid, cmp = nxt, _compare(v, line[nxt])
        if cmp == 0:  # the last of a run of equal values
            while mid + 1 < high and _compare(v, line[mid + 1]) == 0:
                mid += 1
            return mid
        if cmp == -1:
            high = mid
        else:
            low = mid
    return low


def _kind(v: Any) -> str:
    if isinstance(v, XlError) or v is EMPTY:
        return "none"
    if isinstance(v, bool | np.bool_):
        return "bool"
    return "text" if isinstance(v, str) else "number"


def _key(v: Any) -> Any:
    return v.upper() if isinstance(v, str) else v


# ------------------------------------------------------------------------ numbers as text


def as_text(v: Any) -> Any:
    """A value where Excel needs text: a number as Excel writes it, at most 15 significant digits
    (``0.1+0.2`` is "0.3"; formulas wrote Python's 17); TRUE/FALSE in capitals; other values as
    they are. A number Excel writes in a form of its own (1E+20, 1E-05 as "0.00001") answers an
    error naming it."""
    if isinstance(v, bool | np.bool_):
        return "TRUE" if v else "FALSE"
    if not excel_args.is_number(v):
        return v
    text = "%.15g" % (float(v) or 0.0)  # -0.0 is "0"
    if "e" in text or not math.isfinite(float(v)):
        from excelcalc.values import ReasonedError

        return ReasonedError("#VALUE!", f"the number {text.upper()} as text is not computed by benchsheet")
    return text


def _texts(v: Any) -> Any:
    """``as_text`` over an argument: a single value, or each cell of a range or array."""
    if isinstance(v, Ranges | np.ndarray):
        grid = as_grid(v)
        return cellwise(as_text, grid) if grid.size else v
    return as_text(v)


def textual(original: Callable[..., Any], positions: frozenset[int] | None) -> Callable[..., Any]:
    """``original`` with its text arguments (at ``positions``; None: all) written as Excel writes
    numbers as text."""

    def run(*args: Any) -> Any:
        if COMPILING in args:
            return original(*args)
        return original(*(_texts(a) if positions is None or i in positions else a for i, a in enumerate(args)))

    run.__name__ = getattr(original, "__name__", "textual")
    return run


# Excel's text functions: the positions (from 0) of their text arguments (Microsoft's pages)
TEXT_ARGUMENTS: dict[str, frozenset[int] | None] = {
    "CONCATENATE": None,
    "EXACT": frozenset({0, 1}),
    "FIND": frozenset({0, 1}),
    "FINDB": frozenset({0, 1}),
    "LEFT": frozenset({0}),
    "LEFTB": frozenset({0}),
    "LEN": frozenset({0}),
    "LENB": frozenset({0}),
    "LOWER": frozenset({0}),
    "MID": frozenset({0}),
    "MIDB": frozenset({0}),
    "PROPER": frozenset({0}),
    "REPLACE": frozenset({0, 3}),
    "REPT": frozenset({0}),
    "RIGHT": frozenset({0}),
    "RIGHTB": frozenset({0}),
    "SEARCH": frozenset({0, 1}),
    "SEARCHB": frozenset({0, 1}),
    "SUBSTITUTE": frozenset({0, 1, 2}),
    "TRIM": frozenset({0}),
    "UPPER": frozenset({0}),
}


def _joined(x: Any, y: Any) -> Any:
    x, y = as_text(x), as_text(y)
    if isinstance(x, XlError):
        return x
    return y if isinstance(y, XlError) else x + y


def _lazy(table: Any, name: str) -> Callable[..., Any]:
    """formulas' own ``name``, its module imported at the first call (not for every ``eval``)."""

    def run(*args: Any) -> Any:
        return table.excel(name)(*args)

    run.__name__ = name
    return run


def register(table: Table) -> None:
    """Put the overrides into the engine's function table (formulas' versions kept inside)."""
    excel_args.register(table)
    old_index = table["INDEX"]
    table["INDEX"] = {"extra_inputs": old_index["extra_inputs"], "function": index(old_index["function"])}
    table["ROWS"] = rows_columns(table["ROWS"], 0)
    table["COLUMNS"] = rows_columns(table["COLUMNS"], 1)
    table["TEXT"] = text(table["TEXT"])
    table["VALUE"] = value(table["VALUE"])
    table["XLOOKUP"] = table["_XLFN.XLOOKUP"] = xlookup(table["XLOOKUP"], table["XMATCH"])
    table["POWER"] = elementwise(power, number)
    for name, away in (("ROUND", None), ("ROUNDUP", True), ("ROUNDDOWN", False)):
        table[name] = elementwise(excel_round(away), number)
    table["DATE"] = date(_lazy(table, "DATE"))
    for name in ("YEAR", "MONTH", "DAY"):
        table[name] = date_part(_lazy(table, name))
    table["ADDRESS"] = address(_lazy(table, "ADDRESS"))
    table["FV"] = elementwise(fv, number)
    table["LOOKUP"] = lookup(_lazy(table, "LOOKUP"))
    intersect = {"extra_inputs": table["_XLFN.SINGLE"]["extra_inputs"], "function": single}
    table["SINGLE"] = table["_XLFN.SINGLE"] = intersect
    replace_operators({name: elementwise(f, number) for name, f in OPERATORS.items()})
    blank_is_empty_text = {"args_parser": lambda *a: (replace_empty(v, "") for v in a)}
    replace_operators({"&": wrap_ufunc(_joined, input_parser=lambda *a: a, **blank_is_empty_text)})
    for name, positions in TEXT_ARGUMENTS.items():
        table[name] = textual(dict.get(table, name) or _lazy(table, name), positions)
    replace_operators({name: compare(operator(name)) for name in ("=", "<>", "<", ">", "<=", ">=")})
    for name, f in (("FLOOR", floor_math), ("CEILING", ceiling_math)):
        table[f"{name}.MATH"] = table[f"_XLFN.{name}.MATH"] = elementwise(f, number)
        table[f"{name}.PRECISE"] = table[f"_XLFN.{name}.PRECISE"] = elementwise(_precise(f), number)


__all__ = ["COMPILING", "register"]


# ------------------------------------------------------------------------------------ TEXT

_LITERAL = r'(?:"[^"]*"|\\.|[$\-+()/: ]|_.)'
_SIMPLE_SECTION = re.compile(
    rf"^(?P<pre>{_LITERAL}*)(?P<int>[0#?,]*)(?:\.(?P<frac>[0#?]*))?(?P<scale>,*)(?P<post>(?:{_LITERAL}|%)*)$"
)
_SECTIONS = re.compile(r'((?:"[^"]*"|\\.|[^;"\\])*)(;|$)')


def _sections(code: str) -> list[str]:
    out = [m.group(1) for m in _SECTIONS.finditer(code) if m.group(0) or m.start() < len(code)]
    return out[:4] or [""]


def _literal(text: str) -> str:
    return re.sub(r'"([^"]*)"|\\(.)|_(.)', lambda m: m.group(1) or m.group(2) or (" " if m.group(3) else ""), text)


def _number_text(value: float, section: str) -> str | None:
    """``value`` (already made positive for a negative section) formatted by a section of digit
    placeholders (0 # ?), thousands commas, a decimal point, percent and literal text; None for
    any other section."""
    m = _SIMPLE_SECTION.match(section)
    if m is None or not re.search(r"[0#?]", m.group("int") + (m.group("frac") or "")):
        return None
    int_code = m.group("int")
    scale = len(int_code) - len(int_code.rstrip(",")) + len(m.group("scale"))  # trailing commas: 1000s
    int_code = int_code.rstrip(",")
    grouped = "," in int_code
    int_places = int_code.replace(",", "")
    frac_places = m.group("frac") or ""
    percent = (m.group("pre") + m.group("post")).count("%")
    n = abs(value) * 100**percent / 1000**scale
    from decimal import ROUND_HALF_UP, Decimal

    rounded = Decimal(repr(n)).quantize(Decimal(1).scaleb(-len(frac_places)), rounding=ROUND_HALF_UP)
    whole, _, frac = f"{rounded:f}".partition(".")
    whole = whole.lstrip("0")
    pad = [("0" if p == "0" else " " if p == "?" else "") for p in int_places[: max(0, len(int_places) - len(whole))]]
    chars = [*pad, *whole]
    if grouped:
        out = []
        for k, ch in enumerate(chars):
            left = len(chars) - k
            out.append(ch)
            if left > 1 and (left - 1) % 3 == 0 and ch:
                out.append(" " if ch == " " else ",")
        chars = out
    frac_chars = list(frac)
    for k in range(len(frac_places) - 1, -1, -1):
        if frac_places[k] == "0" or frac_chars[k] != "0":
            break
        frac_chars[k] = " " if frac_places[k] == "?" else ""
    body = "".join(chars) + ("." + "".join(frac_chars) if m.group("frac") is not None else "")
    sign = "-" if value < 0 and float(rounded) != 0 else ""
    return sign + _literal(m.group("pre")).replace("%", "") + body + _literal(m.group("post")).replace("%", "%")


def text(original: Callable[..., Any]) -> Callable[..., Any]:
    """TEXT(value, format_text) for number formats of up to four sections (Microsoft's "Number format
    codes" page: "positive; negative; zero; text"): a negative number in the second section is
    shown without its minus (``TEXT(-1,"0.0;(0.0)")`` is "(1.0)"), and the ``?`` placeholder pads
    with a space. formulas added a minus to the second section and printed ``?`` as is. A format
    with ``?`` this cannot read answers #VALUE! naming TEXT, never a different text."""

    def one(value: Any, format_code: Any) -> Any:
        if isinstance(value, XlError):
            return value
        if isinstance(format_code, XlError):
            return format_code
        code = "" if format_code is EMPTY else str(format_code)
        if isinstance(value, bool) or "[" in code:
            return _call(original, value, format_code)
        try:
            x = number(value) if value is not EMPTY else 0.0
        except (TypeError, ValueError):
            return _call(original, value, format_code)
        sections = _sections(code)
        section, shown = sections[0], x
        if x < 0 and len(sections) > 1:
            section, shown = sections[1], -x
        elif x == 0 and len(sections) > 2:
            section = sections[2]
        out = _number_text(shown, section)
        if out is not None:
            return out
        if "?" in section:
            from excelcalc.values import ReasonedError

            return ReasonedError("#VALUE!", f"TEXT's format {code[:40]!r} is not computed by benchsheet")
        return _call(original, shown if section is not sections[0] else value, section)

    def run(value: Any, format_code: Any) -> Any:
        v, c = _scalar(value), _scalar(format_code)
        if isinstance(v, np.ndarray) or isinstance(c, np.ndarray):
            return np.vectorize(one, otypes=[object])(as_grid(value), as_grid(format_code)).view(Array)
        return one(v, c)

    run.__name__ = "TEXT"
    return run


def _call(original: Callable[..., Any], *args: Any) -> Any:
    return _scalar(original(*args))
