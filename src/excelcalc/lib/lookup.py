"""Excel's Lookup & Reference functions the engine computes itself, Excel's implicit intersection
and its range operator; the others of the group it takes from formulas as they are (``FORMULAS``),
checked against Excel.

* INDEX (a row or column number of 0, a reference kept a reference), ROWS and COLUMNS of an array,
  XLOOKUP of several columns, LOOKUP, MATCH, VLOOKUP and HLOOKUP by Excel's binary search, ADDRESS's sheet names.
* OFFSET, INDIRECT and the range operator (``A1:OFFSET(...)``) make a reference while the formula
  runs and read it from the workbook (``lib.sheets``).
* Implicit intersection (``@``, written ``_xlfn.SINGLE`` in a file): which ranges of an ordinary
  formula Excel reads as one value (``intersected``, used when a formula is prepared), and the
  value it reads (``single``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from excelcalc.args import is_number
from excelcalc.backend import (
    EMPTY,
    NONE,
    Array,
    FunctionTable,
    Ranges,
    XlError,
    as_grid,
    column_letters,
    error,
    make_range,
    operator,
    range_parts,
)
from excelcalc.lib._common import MAX_ARRAY_MADE, Entry, Wraps, formulas_own, lazy, plain_number, scalar
from excelcalc.lib.lookup_index import CASEFOLD, SCAN, nearest, position, searchable
from excelcalc.lib.sheets import FULL, Area, Sheets, area_of, current
from excelcalc.textnum import text_number
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS", "OPERATORS", "WHOLE", "intersected"]


# ------------------------------------------------------------------------------------ INDEX


def _whole(v: Any) -> int | XlError:
    """An INDEX position: a number (text that reads as one, TRUE = 1), truncated; an error as is."""
    v = scalar(v)
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
        if several or any(isinstance(scalar(a), np.ndarray) for a in (row_num, col_num, area_num) if a is not None):
            return original(compiling, array, row_num, *(() if col_num is None else (col_num, area_num)))
        if _whole(area_num) != 1:
            return original(compiling, array, row_num, col_num, area_num)
        grid = as_grid(array)
        rows, cols = grid.shape
        if not isinstance(array, Ranges) and grid.size == 1 and isinstance(grid.flat[0], XlError):
            return grid.flat[0]  # a function's error given as the array (a table function's #N/A) is the answer
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
            what, n, size = ("row", r, f"{rows:,} rows") if r > rows else ("column", c, f"{cols:,} columns")
            return ReasonedError("#REF!", f"INDEX's {what} {n:,} is past the end of its array of {size}")
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


# ------------------------------------------------------------------------ implicit intersection


# Engineering, Financial and Statistical functions of single values (Microsoft's pages)
_SINGLE_VALUED = """
BIN2DEC BIN2HEX BIN2OCT DEC2BIN DEC2HEX DEC2OCT HEX2BIN HEX2DEC HEX2OCT OCT2BIN OCT2DEC OCT2HEX
COMPLEX CONVERT DECIMAL IMABS IMAGINARY IMARGUMENT IMCONJUGATE IMCOS IMDIV IMEXP IMLN IMLOG10 IMLOG2
IMPOWER IMREAL IMSIN IMSQRT IMSUB FV NPER PMT PV RATE SLN NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV
T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T CHISQ.DIST CHISQ.DIST.RT CHISQ.INV CHISQ.INV.RT F.DIST
F.DIST.RT F.INV F.INV.RT BINOM.DIST POISSON.DIST POISSON EXPON.DIST GAMMA.DIST LOGNORM.DIST
CONFIDENCE.NORM CONFIDENCE.T CONFIDENCE NORMDIST NORMINV NORMSDIST NORMSINV TDIST TINV CHIDIST
CHIINV FDIST FINV BINOMDIST EXPONDIST GAMMADIST LOGNORMDIST STANDARDIZE GAMMALN GAMMALN.PRECISE
BETA.DIST BETADIST BETA.INV BETAINV WEIBULL.DIST WEIBULL HYPGEOM.DIST HYPGEOMDIST NEGBINOM.DIST
NEGBINOMDIST BINOM.INV CRITBINOM GAMMA.INV GAMMAINV LOGNORM.INV LOGINV FISHER FISHERINV PHI GAMMA
GAUSS ERROR.TYPE
"""

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
        "CEILING.MATH",
        "CEILING.PRECISE",
        "CHAR",
        "CLEAN",
        "CODE",
        "COMBIN",
        "CONCATENATE",
        "COS",
        "COSH",
        "DATE",
        "DATEDIF",
        "DAY",
        "DAYS",
        "DAYS360",
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
        "FLOOR.MATH",
        "FLOOR.PRECISE",
        "HOUR",
        "IF",
        "IFERROR",
        "IFNA",
        "INT",
        "ISBLANK",
        "ISERR",
        "ISERROR",
        "ISEVEN",
        "ISO.CEILING",
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
        "QUOTIENT",
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
        *_SINGLE_VALUED.split(),
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
    "NETWORKDAYS": frozenset({0, 1}),
    "NETWORKDAYS.INTL": frozenset({0, 1, 2}),
    "WORKDAY": frozenset({0, 1}),
    "WORKDAY.INTL": frozenset({0, 1, 2}),
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
    r1, c1 = int(part["r1"]), int(part["n1"])
    r2, c2 = part.get(FULL, (int(part["r2"]), int(part["n2"])))  # a whole column: not only the cells present
    row, col = int(here["r1"]), int(here["n1"])
    if (r1, c1) == (r2, c2):
        return ref
    if c1 == c2 and r1 <= row <= r2:
        r, c = row, c1
    elif r1 == r2 and c1 <= col <= c2:
        r, c = r1, col
    else:
        why = "a range of several cells where one value is needed, none of them in the formula's row or column"
        return ReasonedError("#VALUE!", why + " (Excel's implicit intersection)")
    one = as_grid(ref)[r - r1 : r - r1 + 1, c - c1 : c - c1 + 1]
    return make_range(range_parts(part["sheet_id"], r, c, r, c), one if one.size else _EMPTY_CELL)


_EMPTY_CELL = np.empty((1, 1), dtype=object)  # a cell of a whole column below the cells present (not np.full:
_EMPTY_CELL.fill(EMPTY)  # it copies EMPTY as the plain text "empty")


# ----------------------------------------------------------------------- XLOOKUP, LOOKUP, ADDRESS


def xlookup(original: Callable[..., Any], xmatch: Callable[..., Any]) -> Callable[..., Any]:
    """XLOOKUP, its position found from the index of the lookup_array (``lookup_index``: an exact
    match, or by bisection the next smaller or larger, built once per range) where the match is by
    value and the search from the first; the others as formulas' XMATCH finds them. A return_array
    wider than one column (or taller than one row, for a row to look in) answers the whole matching
    row or column: Microsoft's XLOOKUP page, "Example 2 ... returns ... from the matching row" of
    several columns (formulas answered the first cell of the whole array, 11 for the second row of
    {10,11;20,21;30,31})."""

    def run(lookup_value: Any, lookup_array: Any, return_array: Any, *rest: Any) -> Any:
        look, ret = as_grid(lookup_array), as_grid(return_array)
        if look.shape[1] == 1 and look.shape[0] > 1:
            axis, length, width = 0, look.shape[0], ret.shape[1]
        elif look.shape[0] == 1 and look.shape[1] > 1:
            axis, length, width = 1, look.shape[1], ret.shape[0]
        else:
            return original(lookup_value, lookup_array, return_array, *rest)
        if ret.shape[axis] != length:
            return original(lookup_value, lookup_array, return_array, *rest) if width == 1 else error("#VALUE!")
        v = scalar(lookup_value)
        pos = _indexed(v, lookup_array, look, axis, rest[1:3])
        if pos == SCAN and width == 1:
            return original(lookup_value, lookup_array, return_array, *rest)
        if isinstance(v, np.ndarray):
            return ReasonedError("#VALUE!", "XLOOKUP of several values into several columns is not computed")
        if pos == SCAN:
            pos = scalar(xmatch(lookup_value, lookup_array, *rest[1:3]))
            pos = int(pos) - 1 if isinstance(pos, int | float | np.number) and not isinstance(pos, XlError) else None
        if pos is None:
            if rest and scalar(rest[0]) is not EMPTY:
                return rest[0]  # if_not_found
            return original(lookup_value, lookup_array, return_array, *rest) if width == 1 and rest else error("#N/A")
        part = ret[pos : pos + 1, :] if axis == 0 else ret[:, pos : pos + 1]
        out = np.asarray(part, dtype=object)
        out[out == np.array(EMPTY, dtype=object)] = 0
        return out[0, 0] if width == 1 else out.view(Array)

    run.__name__ = "XLOOKUP"
    return run


def _indexed(v: Any, array: Any, grid: np.ndarray[Any, Any], axis: int, modes: tuple[Any, ...]) -> Any:
    """XLOOKUP's position (from 0) of ``v`` from the index (``lookup_index``), None for none;
    ``SCAN`` where formulas' XMATCH answers (wildcards, a search from the last or binary, a value
    the index does not hold)."""
    match_mode = scalar(modes[0]) if modes else 0
    search_mode = scalar(modes[1]) if len(modes) > 1 else 1
    match_mode = 0 if match_mode is EMPTY else match_mode
    search_mode = 1 if search_mode is EMPTY else search_mode
    if not (is_number(match_mode) and is_number(search_mode)) or float(search_mode) != 1:
        return SCAN
    if float(match_mode) not in (-1.0, 0.0, 1.0) or not searchable(v, wildcards=False):
        return SCAN
    if float(match_mode) == 0:
        return position(v, array, grid, axis, fold=CASEFOLD)
    return nearest(v, array, grid, float(match_mode) == 1, axis)


def lookup(original: Callable[..., Any]) -> Callable[..., Any]:
    """LOOKUP(value, lookup_vector, [result_vector]) found by Excel's binary search, as Apache POI
    models it (``LookupUtils``; POI passes its FormulaEvalTestData, Excel-cached, with it): over
    values not in ascending order Excel's answer is where the search lands (``LOOKUP("DOUBLE",
    C6:G6,C9:G9)`` is C9 where a scan found D9). Values of another kind (text among numbers, an
    error, an empty cell) are stepped over. The array form (a table) goes to formulas."""

    def run(value: Any, vector: Any, *rest: Any) -> Any:
        v, grid = scalar(value), as_grid(vector)
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


def match(original: Callable[..., Any]) -> Callable[..., Any]:
    """MATCH(lookup_value, lookup_array, [match_type]) of match_type 1 (the default) over one row or
    column found by Excel's binary search (``_binary_search``, as LOOKUP's), so over values not in
    ascending order the answer is where Excel's search lands (MATCH("b",{"c","a","d","b","e"}) is
    #N/A: the search looks at "d" and "c" only; formulas scanned every value and answered 2). The
    other match types, and arrays of lookup values, go to formulas."""

    def run(value: Any, array: Any, match_type: Any = None) -> Any:
        v, kind, grid = scalar(value), scalar(match_type), as_grid(array)
        approximate = match_type is None or (is_number(kind) and float(kind) == 1)
        exact = is_number(kind) and float(kind) == 0
        axis = 0 if grid.shape[1] == 1 else 1
        if exact and min(grid.shape) == 1 and searchable(v, wildcards=True):
            i = position(v, array, grid, axis)
            return error("#N/A") if i is None else i + 1
        if not approximate or isinstance(v, np.ndarray) or v is EMPTY or min(grid.shape) != 1:
            return original(value, array) if match_type is None else original(value, array, match_type)
        if isinstance(v, XlError):
            return v
        i = _binary_search(v, grid[:, 0] if axis == 0 else grid[0, :])
        return error("#N/A") if i < 0 else i + 1

    run.__name__ = "MATCH"
    return run


def table_lookup(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """VLOOKUP and HLOOKUP of an approximate match (range_lookup omitted, TRUE or a number other than 0)
    found by Excel's binary search in the table's first column (row), the one MATCH and LOOKUP use
    (``_binary_search``): over values not in ascending order the answer is where Excel's search lands
    (VLOOKUP("b",{"c",1;"a",2;"d",3;"b",4;"e",5},2) is #N/A as MATCH's; formulas answered 2). An exact
    match, an empty range_lookup (Excel's exact match), an array of lookup values and an index outside
    the table go to formulas."""
    vertical = name == "VLOOKUP"

    def run(value: Any, table: Any, index: Any, range_lookup: Any = None) -> Any:
        args = (value, table, index) if range_lookup is None else (value, table, index, range_lookup)
        v, k, flag, grid = scalar(value), scalar(index), scalar(range_lookup), as_grid(table)
        approximate = range_lookup is None or ((is_number(flag) or isinstance(flag, bool | np.bool_)) and bool(flag))
        exact = isinstance(flag, bool | np.bool_) or is_number(flag)  # not approximate: FALSE or 0
        lines = grid if vertical else grid.T
        if not is_number(k) or (approximate and (isinstance(v, np.ndarray | XlError) or v is EMPTY)):
            return original(*args)
        if not approximate and not (exact and searchable(v, wildcards=True)):
            return original(*args)
        at = math.trunc(float(k)) - 1
        if not 0 <= at < lines.shape[1]:
            return original(*args)
        if approximate:
            i = _binary_search(v, lines[:, 0])
        else:
            found = position(v, table, grid, 0 if vertical else 1)
            i = -1 if found is None else found
        if i < 0:
            return error("#N/A")
        got = lines[i, at]
        return 0 if got is EMPTY else got

    run.__name__ = name
    return run


def _compare(v: Any, x: Any) -> int | None:
    """-1, 0, 1 as ``v`` is less than, equal to or greater than ``x``; None for another kind."""
    kind = _kind(v)
    if kind == "none" or _kind(x) != kind:
        return None
    a, b = _key(v), _key(x)
    return int(a > b) - int(a < b)


def _binary_search(v: Any, line: Sequence[Any] | np.ndarray[Any, Any]) -> int:
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


_PLAIN_SHEET = re.compile(r"^(?:\[[^\]]*\])?[A-Za-z_][\w.]*$")


def address(original: Callable[..., Any]) -> Callable[..., Any]:
    """ADDRESS with a sheet_text: quoted only where the name needs quotes (a space, a sign...), as
    Excel cached it in POI's FormulaEvalTestData (``ADDRESS(2,3,3,TRUE,"[Book1]Sheet1")`` is
    ``[Book1]Sheet1!$C2``); formulas quoted every name."""

    def run(*args: Any) -> Any:
        out = original(*args)
        text = scalar(out)
        sheet = scalar(args[4]) if len(args) > 4 else None
        if isinstance(text, str) and isinstance(sheet, str) and _PLAIN_SHEET.match(sheet):
            quoted = "'" + sheet.replace("'", "''") + "'!"
            if text.startswith(quoted) and not re.match(r"^(?:\[[^\]]*\])?(?:[A-Za-z]{1,3}\d+|[Rr]\d*[Cc]\d*)$", sheet):
                return sheet + "!" + text[len(quoted) :]
        return out

    run.__name__ = "ADDRESS"
    return run


# ------------------------------------------------------------------------ OFFSET, INDIRECT, ":"

MAX_ROW, MAX_COL = 1_048_576, 16_384


def _offset_number(v: Any, sheets: Sheets, what: str) -> int | XlError | None:
    """A rows/cols/height/width argument of OFFSET: a whole number (text that reads as a number,
    truncated toward 0); None when omitted or empty; a range by implicit intersection."""
    if v is None or v is EMPTY:
        return None
    if isinstance(v, Ranges) and as_grid(v).size != 1:
        one = _intersect(area_of(v), as_grid(v), sheets.cell)
        if one is None:
            return ReasonedError("#VALUE!", f"OFFSET with several {what} is not computed by benchsheet")
        v = one
    x = plain_number(v, f"OFFSET's {what}")
    if isinstance(x, XlError):
        return x
    if not math.isfinite(x):
        return error("#VALUE!")
    if x < 0 and not x.is_integer():
        return ReasonedError("#VALUE!", f"OFFSET with negative fractional {what} is not computed by benchsheet")
    return math.trunc(x)


def _intersect(area: Area | None, grid: np.ndarray[Any, Any], cell: tuple[int, int, int] | None) -> Any:
    """Implicit intersection of a one-row or one-column range with the formula's cell, as Excel
    reads a range where one value is needed: the range's cell in the formula's column (or row);
    #VALUE! where there is none; None where it is not known (an array formula, no workbook)."""
    if area is None or cell is None:
        return None
    s, r1, c1, r2, c2 = area
    sheet, row, col = cell
    one = None
    if s == sheet and r1 == r2 and c1 <= col <= c2:
        one = grid[:, col - c1 : col - c1 + 1]
    elif s == sheet and c1 == c2 and r1 <= row <= r2:
        one = grid[row - r1 : row - r1 + 1, :]
    if one is None:
        return np.asarray([[error("#VALUE!")]], dtype=object)
    return one if one.size else np.asarray([[EMPTY]], dtype=object)  # below the cells present: blank


def offset(reference: Any, rows: Any, cols: Any, height: Any = None, width: Any = None) -> Any:
    """OFFSET(reference, rows, cols, [height], [width]) (Microsoft's OFFSET page): the reference
    ``rows`` rows down and ``cols`` columns right of ``reference``, ``height`` rows by ``width``
    columns (left out or empty: the size of ``reference``); off the sheet, or a height or width of
    0, is #REF!; a reference that is no range of the workbook #VALUE!. Numbers are truncated
    (``OFFSET(G7,"2.1","1.9")`` is H9, Excel's cached value in POI's FormulaEvalTestData)."""
    sheets = current()
    area = area_of(reference)
    if isinstance(reference, XlError):
        return reference
    if sheets is None or area is None:
        return ReasonedError("#VALUE!", "OFFSET needs a range of the workbook as its reference")
    numbers: list[int | None] = []
    for v, what in ((rows, "rows"), (cols, "columns"), (height, "heights"), (width, "widths")):
        n = _offset_number(v, sheets, what)
        if isinstance(n, XlError):
            return n
        numbers.append(n)
    down, right, tall, wide = numbers
    s, r1, c1, r2, c2 = area
    tall = r2 - r1 + 1 if tall is None else tall
    wide = c2 - c1 + 1 if wide is None else wide
    if tall < 0 or wide < 0:
        return ReasonedError("#VALUE!", "OFFSET with a negative height or width is not computed by benchsheet")
    top, left = r1 + (down or 0), c1 + (right or 0)
    bottom, last = top + tall - 1, left + wide - 1
    if tall == 0 or wide == 0 or top < 1 or left < 1 or bottom > MAX_ROW or last > MAX_COL:
        return ReasonedError("#REF!", "OFFSET's reference is off the sheet")
    return sheets.read((s, top, left, bottom, last))


def indirect(ref_text: Any, a1: Any = True) -> Any:
    """INDIRECT(ref_text, [a1]) (Microsoft's INDIRECT page) of a text made while the formula runs
    (a cell's text, ``ADDRESS(...)``, a defined name): the reference it names; text that names no
    reference is #REF!. R1C1 text (a1 FALSE) is not computed. (A literal, ``INDIRECT("B2")``, is
    read as a reference before the formula runs.)"""
    sheets = current()
    text = as_grid(ref_text).flat[0] if isinstance(ref_text, Ranges | np.ndarray) else ref_text
    if isinstance(ref_text, Ranges | np.ndarray) and as_grid(ref_text).size != 1:
        return ReasonedError("#VALUE!", "INDIRECT of several texts is not computed by benchsheet")
    if isinstance(text, XlError):
        return text
    style = as_grid(a1).flat[0] if isinstance(a1, Ranges | np.ndarray) else a1
    if style is not EMPTY and style is not None and not (style is True or (is_number(style) and style != 0)):
        return ReasonedError("#VALUE!", "INDIRECT of an R1C1 reference is not computed by benchsheet")
    if sheets is None:
        return ReasonedError("#REF!", "INDIRECT has no workbook to refer to")
    if not isinstance(text, str) or text is EMPTY or not text.strip():
        return ReasonedError("#REF!", "INDIRECT's text names no reference")
    area = sheets.resolve(text.strip())
    if isinstance(area, XlError):
        return area
    return sheets.read(area)


_PREFIXES = re.compile(r"_xlfn\.(?:_xlws\.)?|_xlws\.", re.IGNORECASE)


def formulatext(reference: Any) -> Any:
    """FORMULATEXT(reference) (Microsoft's FORMULATEXT page): the formula of the reference's
    upper-left cell as the formula bar shows it (a newer function without the ``_xlfn.`` the file
    holds), an array formula entered with Ctrl+Shift+Enter in braces in each cell of its range, as
    the formula bar shows it (``{=SUM(A1:A3*B1:B3)}``), a dynamic array without them in its first cell;
    a cell without a formula (one a dynamic array spills into), or one of more than 8,192 characters, #N/A."""
    sheets, area = current(), area_of(reference)
    if isinstance(reference, XlError):
        return reference
    if sheets is None or area is None:
        return ReasonedError("#VALUE!", "FORMULATEXT needs a cell of the workbook as its reference")
    found = sheets.formula(*area[:3])
    cell = f"{column_letters(area[2])}{area[1]}"
    if found is None or len(found[0]) > 8192:
        why = "holds no formula" if found is None else "holds a formula of more than 8,192 characters"
        return ReasonedError("#N/A", f"FORMULATEXT: {cell} {why}")
    parts = found[0].split('"')
    shown = '"'.join(p if k % 2 else _PREFIXES.sub("", p) for k, p in enumerate(parts))
    return "{" + shown + "}" if found[1] else shown


def range_operator(original: Callable[..., Any]) -> Callable[..., Any]:
    """``A1:OFFSET(...)``, ``B2:INDEX(...)``, ``D1:INDIRECT(...)``: the range from one corner to the
    other, read from the workbook (formulas' operator kept only the two corners' values: the
    cells between were blank, ``SUM(D1:INDIRECT("B1"))`` added D1 and B1 alone)."""

    def run(left: Any, right: Any) -> Any:
        sheets = current()
        a, b = area_of(left), area_of(right)
        if sheets is None or a is None or b is None or a[0] != b[0]:
            return original(left, right)
        return sheets.read((a[0], min(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]), max(a[4], b[4])))

    return run


def _index(table: FunctionTable) -> dict[str, Any]:
    own = table.excel("INDEX")
    return {"extra_inputs": own["extra_inputs"], "function": index(own["function"])}


def _xlookup(table: FunctionTable) -> Callable[..., Any]:
    return xlookup(table.excel("XLOOKUP"), table.excel("XMATCH"))


def _single(table: FunctionTable) -> dict[str, Any]:
    return {"extra_inputs": table.excel("_XLFN.SINGLE")["extra_inputs"], "function": single}


def expand(original: Callable[..., Any]) -> Callable[..., Any]:
    """EXPAND(array, rows, [columns], [pad_with]) of at most a sheet's rows and columns and
    ``MAX_ARRAY_MADE`` cells (Microsoft's EXPAND page: "Excel returns a #NUM when array is too
    large"); formulas made every cell asked for (``EXPAND(5,100000000,1,1)``: seven minutes)."""

    def run(array: Any, rows: Any, columns: Any = None, *rest: Any) -> Any:
        shape = as_grid(array).shape
        size = []
        for v, most, have, what in ((rows, MAX_ROW, shape[0], "rows"), (columns, MAX_COL, shape[1], "columns")):
            x = have if v is None or v is EMPTY else plain_number(v, f"EXPAND's {what}")
            if isinstance(x, XlError):
                return x
            if x > most:
                return ReasonedError("#NUM!", f"EXPAND to {x:,.0f} {what}: a sheet has {most:,}")
            size.append(max(float(x), 1.0))
        if size[0] * size[1] > MAX_ARRAY_MADE:
            why = f"EXPAND to {size[0] * size[1]:,.0f} cells: more than benchsheet makes in one array"
            return ReasonedError("#NUM!", f"{why} ({MAX_ARRAY_MADE:,})")
        return original(array, rows, *((columns, *rest) if columns is not None or rest else ()))

    run.__name__ = "EXPAND"
    return run


def hyperlink(link_location: Any, friendly_name: Any = None) -> Any:
    """HYPERLINK(link_location, [friendly_name]) (Microsoft's page): the cell shows friendly_name, or
    link_location without one (tests/corpus poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!D724:
    HYPERLINK("http://poi.apache.org") is "http://poi.apache.org"); the jump is Excel's, not a value."""
    shown = scalar(link_location if friendly_name is None else friendly_name)
    if isinstance(shown, np.ndarray):
        return ReasonedError("#VALUE!", "HYPERLINK of an array is not computed by benchsheet")
    return 0.0 if shown is EMPTY else shown


FUNCTIONS: dict[str, Entry] = {
    "HYPERLINK": hyperlink,
    "INDEX": Wraps(_index),
    "ROWS": Wraps(lambda table: rows_columns(table.excel("ROWS"), 0)),
    "COLUMNS": Wraps(lambda table: rows_columns(table.excel("COLUMNS"), 1)),
    "XLOOKUP": Wraps(_xlookup),
    "_XLFN.XLOOKUP": Wraps(_xlookup),
    "LOOKUP": Wraps(lambda table: lookup(lazy(table, "LOOKUP"))),
    "MATCH": Wraps(lambda table: match(table.excel("MATCH"))),
    "VLOOKUP": Wraps(lambda table: table_lookup("VLOOKUP", table.excel("VLOOKUP"))),
    "HLOOKUP": Wraps(lambda table: table_lookup("HLOOKUP", table.excel("HLOOKUP"))),
    "ADDRESS": Wraps(lambda table: address(lazy(table, "ADDRESS"))),
    "OFFSET": offset,
    "INDIRECT": indirect,
    "FORMULATEXT": formulatext,
    "_XLFN.FORMULATEXT": formulatext,
    "SINGLE": Wraps(_single),
    "_XLFN.SINGLE": Wraps(_single),
    "EXPAND": Wraps(lambda table: expand(table.excel("EXPAND"))),
    "_XLFN.EXPAND": Wraps(lambda table: expand(table.excel("_XLFN.EXPAND"))),
    **formulas_own("CHOOSE COLUMN ROW TRANSPOSE _XLFN.CHOOSECOLS _XLFN.XMATCH"),
}

OPERATORS: dict[str, Entry] = {":": Wraps(lambda table: range_operator(operator(":")))}
