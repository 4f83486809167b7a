"""Excel's functions that read the workbook beyond their arguments' values: SUBTOTAL and
AGGREGATE (which cells are subtotals, which rows are hidden), OFFSET and INDIRECT (a reference
made while the formula runs). Each follows Microsoft's page of the function.

They read the workbook through ``Sheets``, which the workbook calculator
(``benchsheet.workbook.dynamic``) provides while it runs a formula. ``Sheets.read`` may find
formula cells not computed yet (a reference made at run time has no place in the order the
calculator made beforehand): it then raises ``Pending``, the calculator computes those first and
runs the formula again. Without a workbook (``benchsheet eval``) they answer an error.
"""

from __future__ import annotations

import contextvars
import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from excelcalc.args import STATISTICS, is_number, mode
from excelcalc.backend import EMPTY, Ranges, XlError, as_grid, error, operator, replace_operators
from excelcalc.lib.excel import number

Table = dict[str, Any]
Area = tuple[int, int, int, int, int]  # (sheet index, r1, c1, r2, c2)


class Pending(BaseException):
    """Formula cells a reference made at run time reads that are not computed yet (their
    indices); a BaseException, so no formula's own error handling takes it for a failure."""

    def __init__(self, needed: Sequence[int]) -> None:
        super().__init__(len(needed))
        self.needed = list(needed)


class Sheets(Protocol):
    """What a function that needs the workbook reads of it while a formula runs."""

    date1904: bool
    cell: tuple[int, int, int] | None  # (sheet, row, column) of an ordinary formula running; None in an array formula

    def read(self, area: Area) -> Any:
        """The cells of a range as a Ranges (raises ``Pending`` for formula cells not computed)."""

    def resolve(self, text: str) -> Area | XlError:
        """A reference written as text (``B2``, ``Sheet2!A1:B3``, a defined name) in the formula's sheet."""

    def hidden(self, sheet: int, row: int) -> bool:
        """The row is hidden (by Hide Rows, or by a filter)."""

    def filtered(self, sheet: int) -> bool:
        """The sheet has a filter, which may hide rows (told apart from Hide Rows by Excel only)."""

    def subtotal(self, sheet: int, row: int, col: int) -> bool:
        """The cell's formula calls SUBTOTAL or AGGREGATE."""


_CURRENT: contextvars.ContextVar[Sheets | None] = contextvars.ContextVar("benchsheet_sheets", default=None)


def current() -> Sheets | None:
    return _CURRENT.get()


def use(sheets: Sheets | None) -> contextvars.Token[Sheets | None]:
    """Make ``sheets`` the workbook the functions read (``reset`` with the token it gives)."""
    return _CURRENT.set(sheets)


def reset(token: contextvars.Token[Sheets | None]) -> None:
    _CURRENT.reset(token)


def _reason(code: str, why: str) -> XlError:
    from excelcalc.values import ReasonedError

    return ReasonedError(code, why)


FULL = "benchsheet_full"  # key of a range's parts: (r2, c2) of a whole column or row read as its cells present


def area_of(ref: Any) -> Area | None:
    """(sheet, r1, c1, r2, c2) of a one-area reference the calculator made (sheet id ``S3``); a
    whole column (``A:A``, read as the cells present) to its last row."""
    if not isinstance(ref, Ranges) or len(ref.ranges) != 1:
        return None
    r = ref.ranges[0]
    sheet = str(r.get("sheet_id", ""))
    if not sheet.startswith("S") or not sheet[1:].isdigit():
        return None
    r2, c2 = r.get(FULL, (int(r["r2"]), int(r["n2"])))
    return int(sheet[1:]), int(r["r1"]), int(r["n1"]), r2, c2


# ------------------------------------------------------------------------ SUBTOTAL, AGGREGATE


# function number -> (name, the function over the numbers kept); 2 and 3 count cells instead. The
# statistics are those of SUM, VAR... themselves, so a SUBTOTAL shows the digits its function does
_BY_NUMBER: dict[int, tuple[str, Callable[[list[float]], Any]]] = {
    n: (name, STATISTICS.get(name, mode))
    for n, name in {
        1: "AVERAGE",
        4: "MAX",
        5: "MIN",
        6: "PRODUCT",
        7: "STDEV",
        8: "STDEVP",
        9: "SUM",
        10: "VAR",
        11: "VARP",
        12: "MEDIAN",
        13: "MODE.SNGL",
    }.items()
}


class _Rules:
    """Which cells a SUBTOTAL or AGGREGATE leaves out."""

    def __init__(self, name: str, hidden: bool, errors: bool, nested: bool) -> None:
        self.name, self.hidden, self.errors, self.nested = name, hidden, errors, nested


def _kept(refs: Sequence[Any], rules: _Rules) -> list[Any] | XlError:
    """The values of the reference arguments a SUBTOTAL/AGGREGATE reads, in order; an error value
    naming what it cannot read as Excel does."""
    sheets = current()
    out: list[Any] = []
    for ref in refs:
        area = area_of(ref)
        if area is None or sheets is None:
            return _reason(
                "#VALUE!", f"{rules.name} of anything but ranges of the workbook is not computed by benchsheet"
            )
        s, r1, c1, _, _ = area
        for dr, row in enumerate(as_grid(ref)):
            if sheets.hidden(s, r1 + dr):
                if rules.hidden:
                    continue
                if sheets.filtered(s):
                    why = f"{rules.name} over rows a filter may hide is not computed by benchsheet (use 101-111)"
                    return _reason("#VALUE!", why)
            for dc, v in enumerate(row):
                if rules.nested and sheets.subtotal(s, r1 + dr, c1 + dc):
                    continue
                if not (rules.errors and isinstance(v, XlError)):
                    out.append(v)
    return out


def _summarize(code: int, values: list[Any] | XlError) -> Any:
    """Function ``code`` (1-13 of AGGREGATE, 1-11 of SUBTOTAL) of the values kept; the first error
    among them is the answer, except for COUNT (2) and COUNTA (3), which count."""
    if isinstance(values, XlError):
        return values
    numbers: list[float] = []
    count = 0
    for v in values:
        if isinstance(v, XlError):
            if code not in (2, 3):
                return v
            count += 1
        elif v is not EMPTY and v is not None:
            count += 1
            if is_number(v):
                numbers.append(float(v))
    if code == 2:
        return float(len(numbers))
    if code == 3:
        return float(count)
    return _BY_NUMBER[code][1](numbers)


def _code(v: Any) -> int | XlError:
    """A function number or option: a number (truncated)."""
    x = _plain_number(v, "a function number or option")
    if isinstance(x, XlError):
        return x
    return int(x) if math.isfinite(x) else error("#VALUE!")


def subtotal(function_num: Any, *refs: Any) -> Any:
    """SUBTOTAL(function_num, ref1, ...) (Microsoft's SUBTOTAL page): function 1-11 (AVERAGE,
    COUNT, COUNTA, MAX, MIN, PRODUCT, STDEV, STDEVP, SUM, VAR, VARP) of the references, leaving
    out cells that hold SUBTOTAL (or AGGREGATE) themselves; 101-111 also leave out hidden rows.
    "The SUBTOTAL function ignores any rows that are not included in the result of a filter, no
    matter which function_num value you use": a hidden row on a filtered sheet with 1-11 is not
    told apart from a row hidden by hand, so that case answers an error naming it."""
    code = _code(function_num)
    if isinstance(code, XlError):
        return code
    base = code - 100 if code > 100 else code
    if not 1 <= base <= 11 or not refs:
        return error("#VALUE!")
    return _summarize(base, _kept(refs, _Rules("SUBTOTAL", code > 100, False, True)))


_ARRAY_FORM: dict[int, str] = {
    14: "LARGE",
    15: "SMALL",
    16: "PERCENTILE.INC",
    17: "QUARTILE.INC",
    18: "PERCENTILE.EXC",
    19: "QUARTILE.EXC",
}


def aggregate(function_num: Any, options: Any, *args: Any) -> Any:
    """AGGREGATE(function_num, options, ref1, ...) and AGGREGATE(function_num, options, array, k)
    (Microsoft's AGGREGATE page): functions 1-13 of references, 14-19 of one array or reference
    and k; options 0-7 leave out nested SUBTOTAL/AGGREGATE cells (0-3), hidden rows (1, 3, 5, 7)
    and error values (2, 3, 6, 7)."""
    code, option = _code(function_num), _code(EMPTY if options is None else options)
    for v in (code, option):
        if isinstance(v, XlError):
            return v
    assert isinstance(code, int) and isinstance(option, int)
    if not 1 <= code <= 19 or not 0 <= option <= 7 or not args:
        return error("#VALUE!")
    rules = _Rules("AGGREGATE", option in (1, 3, 5, 7), option in (2, 3, 6, 7), option <= 3)
    if code <= 13:
        if any(not isinstance(a, Ranges) for a in args):
            return error("#VALUE!")
        return _summarize(code, _kept(args, rules))
    if len(args) != 2:
        return error("#VALUE!")
    data, k = args
    if isinstance(data, Ranges):
        values = _kept((data,), rules)
    else:  # a computed array: no rows to hide, no subtotal cells
        values = [v for v in as_grid(data).flat if not (rules.errors and isinstance(v, XlError))]
    return values if isinstance(values, XlError) else _ranked(code, values, _plain_number(k))


def _plain_number(v: Any, what: str = "AGGREGATE's k") -> float | XlError:
    """One number argument (a one-cell range or array gives its value; blank is 0)."""
    if isinstance(v, Ranges | np.ndarray):
        grid = as_grid(v)
        if grid.size != 1:
            return _reason("#VALUE!", f"{what} of several values is not computed by benchsheet")
        v = grid.flat[0]
    if isinstance(v, XlError):
        return v
    try:
        return number(0 if v is EMPTY or v is None else v)
    except (TypeError, ValueError):
        return error("#VALUE!")


def _ranked(code: int, values: list[Any], k: float | XlError) -> Any:
    """AGGREGATE 14-19 of the numbers kept (an error among them is the answer)."""
    if isinstance(k, XlError):
        return k
    numbers: list[float] = []
    for v in values:
        if isinstance(v, XlError):
            return v
        if is_number(v):
            numbers.append(float(v))
    numbers.sort()
    n = len(numbers)
    if code in (14, 15):
        if not float(k).is_integer():
            return _reason("#VALUE!", f"AGGREGATE's {_ARRAY_FORM[code]} with a k that is not whole is not computed")
        if not 1 <= k <= n:
            return error("#NUM!")
        return numbers[n - int(k)] if code == 14 else numbers[int(k) - 1]
    p = k if code in (16, 18) else math.trunc(k) / 4
    if code in (17, 19) and not (0 <= math.trunc(k) <= 4):
        return error("#NUM!")
    return _percentile(numbers, p, exclusive=code in (18, 19))


def _percentile(xs: list[float], p: float, exclusive: bool) -> Any:
    """PERCENTILE.INC/.EXC of sorted numbers (Microsoft's pages: .INC interpolates between ranks
    over 0..n-1, .EXC over 1..n with p strictly between 1/(n+1) and n/(n+1))."""
    n = len(xs)
    if n == 0:
        return error("#NUM!")
    if exclusive:
        rank = p * (n + 1) - 1
        if not 0 < p < 1 or rank < 0 or rank > n - 1:
            return error("#NUM!")
    else:
        if not 0 <= p <= 1:
            return error("#NUM!")
        rank = p * (n - 1)
    low = math.floor(rank)
    high = min(low + 1, n - 1)
    return xs[low] + (rank - low) * (xs[high] - xs[low])


# -------------------------------------------------------------------------------- OFFSET


def _offset_number(v: Any, sheets: Sheets, what: str) -> int | XlError | None:
    """A rows/cols/height/width argument of OFFSET: a whole number (text that reads as a number,
    truncated toward 0); None when omitted or empty; a range by implicit intersection."""
    if v is None or v is EMPTY:
        return None
    if isinstance(v, Ranges) and as_grid(v).size != 1:
        one = _intersect(area_of(v), as_grid(v), sheets.cell)
        if one is None:
            return _reason("#VALUE!", f"OFFSET with several {what} is not computed by benchsheet")
        v = one
    x = _plain_number(v, f"OFFSET's {what}")
    if isinstance(x, XlError):
        return x
    if not math.isfinite(x):
        return error("#VALUE!")
    if x < 0 and not x.is_integer():
        return _reason("#VALUE!", f"OFFSET with negative fractional {what} is not computed by benchsheet")
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
        return _reason("#VALUE!", "OFFSET needs a range of the workbook as its reference")
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
        return _reason("#VALUE!", "OFFSET with a negative height or width is not computed by benchsheet")
    top, left = r1 + (down or 0), c1 + (right or 0)
    bottom, last = top + tall - 1, left + wide - 1
    if tall == 0 or wide == 0 or top < 1 or left < 1 or bottom > MAX_ROW or last > MAX_COL:
        return _reason("#REF!", "OFFSET's reference is off the sheet")
    return sheets.read((s, top, left, bottom, last))


def indirect(ref_text: Any, a1: Any = True) -> Any:
    """INDIRECT(ref_text, [a1]) (Microsoft's INDIRECT page) of a text made while the formula runs
    (a cell's text, ``ADDRESS(...)``, a defined name): the reference it names; text that names no
    reference is #REF!. R1C1 text (a1 FALSE) is not computed. (A literal, ``INDIRECT("B2")``, is
    read as a reference before the formula runs.)"""
    sheets = current()
    text = as_grid(ref_text).flat[0] if isinstance(ref_text, Ranges | np.ndarray) else ref_text
    if isinstance(ref_text, Ranges | np.ndarray) and as_grid(ref_text).size != 1:
        return _reason("#VALUE!", "INDIRECT of several texts is not computed by benchsheet")
    if isinstance(text, XlError):
        return text
    style = as_grid(a1).flat[0] if isinstance(a1, Ranges | np.ndarray) else a1
    if style is not EMPTY and style is not None and not (style is True or (is_number(style) and style != 0)):
        return _reason("#VALUE!", "INDIRECT of an R1C1 reference is not computed by benchsheet")
    if sheets is None:
        return _reason("#REF!", "INDIRECT has no workbook to refer to")
    if not isinstance(text, str) or text is EMPTY or not text.strip():
        return _reason("#REF!", "INDIRECT's text names no reference")
    area = sheets.resolve(text.strip())
    if isinstance(area, XlError):
        return area
    return sheets.read(area)


MAX_ROW, MAX_COL = 1_048_576, 16_384


# ------------------------------------------------------------------------ the 1904 date system

DAYS_1904 = 1462  # the 1900 serial of 1904-01-01, serial 0 of the 1904 system ("Date systems in Excel")

# date functions computed in a 1904 workbook: which arguments are dates, whether the answer is one
IN_1904: dict[str, tuple[tuple[int, ...], bool]] = {
    "YEAR": ((0,), False),
    "MONTH": ((0,), False),
    "DAY": ((0,), False),
    "DAYS": ((0, 1), False),
    "_XLFN.DAYS": ((0, 1), False),
    "DAYS360": ((0, 1), False),
    "DATEDIF": ((0, 1), False),
    "DATE": ((), True),
    "EDATE": ((0,), True),
    "EOMONTH": ((0,), True),
    "WORKDAY": ((0, 2), True),
}


def _shift(value: Any, days: int) -> Any:
    """``value`` with each number moved by ``days`` (text, blanks... as they are; a blank date is 0)."""
    if isinstance(value, Ranges | np.ndarray):
        grid = as_grid(value).copy()
        if grid.size == 1:
            return _shift(grid.flat[0], days)
        for idx, v in np.ndenumerate(grid):
            grid[idx] = _shift(v, days)
        return grid
    if value is EMPTY or value is None:
        return float(days)
    if is_number(value):
        moved = float(value) + days
        return error("#NUM!") if moved < 0 else moved
    return value


def in_1904(original: Callable[..., Any], dates: tuple[int, ...], makes_date: bool) -> Callable[..., Any]:
    """A date function of formulas (which counts from 1900) in a workbook of the 1904 date system:
    its date arguments moved to 1900 serials, its date answer back to 1904 ones."""

    def run(*args: Any) -> Any:
        sheets = current()
        if sheets is None or not sheets.date1904:
            return original(*args)
        moved = [_shift(a, DAYS_1904) if i in dates else a for i, a in enumerate(args)]
        out = original(*moved)
        return _shift(out, -DAYS_1904) if makes_date and not isinstance(out, XlError) else out

    return run


def register(table: Table) -> None:
    """Put these functions into the engine's function table."""
    table["SUBTOTAL"] = subtotal
    table["AGGREGATE"] = table["_XLFN.AGGREGATE"] = aggregate
    table["OFFSET"] = offset
    table["INDIRECT"] = indirect
    for name, (dates, makes_date) in IN_1904.items():
        table[name] = in_1904(table[name], dates, makes_date)
    replace_operators({":": range_operator(operator(":"))})


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
