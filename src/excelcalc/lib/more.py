"""More of Excel's functions, computed by benchsheet where the ``formulas`` package has none or
answers otherwise than Excel, each as Microsoft's function reference states it and checked
against values Excel cached (tests/corpus, tests/test_excel_more.py).

* COMBIN, DOLLAR: formulas has neither.
* YEARFRAC: formulas' basis 1 always divides by the average year length and its basis 0 misses
  Excel's end-of-February rules (Apache POI's YearFracCalculator, after David Wheeler's study of
  Excel's YEARFRAC, spells them out).

Functions that read the workbook beyond their arguments (SUBTOTAL, AGGREGATE, OFFSET, INDIRECT,
dates of the 1904 system) are in ``excel_refs``; ``register`` puts both modules' functions in.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from excelcalc.backend import EMPTY, XlError, error
from excelcalc.lib import refs as excel_refs
from excelcalc.lib.checked import _cells
from excelcalc.lib.excel import number
from excelcalc.lib.refs import _reason, current

Table = dict[str, Any]


def _whole_number(v: Any) -> float | XlError:
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


# ------------------------------------------------------------------------------ COMBIN, DOLLAR


def combin(n: Any, k: Any) -> Any:
    """COMBIN(number, number_chosen) (Microsoft's COMBIN page): both truncated to integers;
    nonnumeric is #VALUE!; a negative one, or number < number_chosen, #NUM!. Too large for a
    number (COMBIN(1030,515)): #NUM!."""
    a, b = _whole_number(n), _whole_number(k)
    for v in (a, b):
        if isinstance(v, XlError):
            return v
    assert isinstance(a, float) and isinstance(b, float)
    if not (math.isfinite(a) and math.isfinite(b)):
        return error("#NUM!")
    ni, ki = int(a), int(b)
    if ni < 0 or ki < 0 or ni < ki:
        return error("#NUM!")
    try:
        return float(math.comb(ni, ki))
    except OverflowError:
        return error("#NUM!")


MAX_DOLLAR = 1e15  # beyond 15 digits Excel shows digits it does not keep: not computed here


def dollar(value: Any, decimals: Any = 2.0) -> Any:
    """DOLLAR(number, [decimals]) (Microsoft's DOLLAR page): the number rounded to ``decimals``
    (default 2; negative rounds left of the decimal point) in the format ``$#,##0.00_);($#,##0.00)``:
    a negative number in parentheses. Excel's cached values add: a blank cell is $0.00, TRUE in a
    cell $1.00, text that reads as a number ("1", "$1.00") that number, other text #VALUE!."""
    x, d = _whole_number(value), _whole_number(EMPTY if decimals is None else decimals)
    for v in (x, d):
        if isinstance(v, XlError):
            return v
    assert isinstance(x, float) and isinstance(d, float)
    if not math.isfinite(x) or not math.isfinite(d) or d > 127:
        return error("#VALUE!")
    places = int(d)
    if abs(x) >= MAX_DOLLAR:
        return _reason("#VALUE!", "DOLLAR of a number of more than 15 digits is not computed by benchsheet")
    rounded = Decimal(repr(abs(x))).quantize(Decimal(1).scaleb(-max(places, 0)), rounding=ROUND_HALF_UP)
    if places < 0:
        unit = Decimal(10) ** -places
        rounded = (rounded / unit).quantize(Decimal(1), rounding=ROUND_HALF_UP) * unit
    if x < 0 and rounded == 0:
        return _reason("#VALUE!", "DOLLAR of a negative number that rounds to 0 is not computed by benchsheet")
    shown = f"${rounded:,.{max(places, 0)}f}"
    return f"({shown})" if x < 0 else shown


# ------------------------------------------------------------------------------------ YEARFRAC

MAX_SERIAL = 2958465  # 9999-12-31, the last date Excel has
_EPOCH = datetime.date(1899, 12, 30)  # serial 61 is 1900-03-01: serials from 61 on count from here
FIRST_REAL = 61  # serials below count Excel's February 29, 1900, a day that never was


def _serial_date(v: Any, date1904: bool) -> datetime.date | XlError:
    """A date argument as a date: a serial number (truncated) of the workbook's date system."""
    if isinstance(v, bool):
        return error("#VALUE!")
    if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY:
        from excelcalc.textnum import text_number

        if text_number(v) is None:
            return _reason("#VALUE!", "YEARFRAC of a date written as text is not computed by benchsheet")
    n = _whole_number(v)
    if isinstance(n, XlError):
        return n
    serial = math.floor(n)
    if serial < 0 or serial > (MAX_SERIAL - 1462 if date1904 else MAX_SERIAL):
        return error("#NUM!")
    if date1904:
        serial += 1462
    elif serial < FIRST_REAL:
        return _reason("#VALUE!", "YEARFRAC of a date before March 1, 1900 is not computed by benchsheet")
    return _EPOCH + datetime.timedelta(days=serial)


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _last_of_february(d: datetime.date) -> bool:
    return d.month == 2 and d.day == (29 if _leap(d.year) else 28)


def _days_360(start: datetime.date, end: datetime.date, d1: int, d2: int) -> float:
    return ((end.year - start.year) * 360 + (end.month - start.month) * 30 + (d2 - d1)) / 360


def _basis0(start: datetime.date, end: datetime.date) -> float:
    """US (NASD) 30/360 as YEARFRAC computes it (not as DAYS360 does): the 31st is the 30th; an
    end on the 31st stays unless the start is on the 30th or 31st; a start on the last day of
    February is the 30th, and so is an end on the last day of February then."""
    d1, d2 = start.day, end.day
    if d1 == 31 and d2 == 31:
        d1 = d2 = 30
    elif d1 == 31:
        d1 = 30
    elif d1 == 30 and d2 == 31:
        d2 = 30
    elif _last_of_february(start):
        d1 = 30
        if _last_of_february(end):
            d2 = 30
    return _days_360(start, end, d1, d2)


def _basis1(start: datetime.date, end: datetime.date) -> float:
    """Actual/actual as Excel computes it: the days between over the length of a year, which is
    366 within one year of a leap year or across a February 29 (when the dates are at most a year
    apart), else the average length of the calendar years the dates touch."""
    days = (end - start).days
    within_a_year = start.year == end.year or (
        start.year + 1 == end.year and (start.month, start.day) >= (end.month, end.day)
    )
    if not within_a_year:
        years = range(start.year, end.year + 1)
        return days / (sum(366 if _leap(y) else 365 for y in years) / len(years))
    if start.year == end.year:
        leap = _leap(start.year)
    else:
        leap = any(_leap(y) and start <= datetime.date(y, 2, 29) <= end for y in (start.year, end.year))
    return days / (366 if leap else 365)


def _basis4(start: datetime.date, end: datetime.date) -> float:
    """European 30/360: a 31st is the 30th, February as it is."""
    return _days_360(start, end, min(start.day, 30), min(end.day, 30))


_BASES: dict[int, Callable[[datetime.date, datetime.date], float]] = {
    0: _basis0,
    1: _basis1,
    2: lambda s, e: (e - s).days / 360,
    3: lambda s, e: (e - s).days / 365,
    4: _basis4,
}


def yearfrac(start_date: Any, end_date: Any, basis: Any = 0.0) -> Any:
    """YEARFRAC(start_date, end_date, [basis]) (Microsoft's YEARFRAC page): the fraction of a year
    between two dates (truncated to whole days, in either order) on one of five day-count bases;
    a basis outside 0-4 is #NUM!, a date that is no date #VALUE!. In a workbook of the 1904 date
    system the serial numbers count from 1904 (Microsoft's "Date systems in Excel")."""
    b = _whole_number(EMPTY if basis is None else basis)
    if isinstance(b, XlError):
        return b
    if isinstance(basis, bool) or not math.isfinite(b) or int(b) not in _BASES:
        return error("#VALUE!") if isinstance(basis, bool) else error("#NUM!")
    date1904 = bool(getattr(current(), "date1904", False))
    start, end = _serial_date(start_date, date1904), _serial_date(end_date, date1904)
    for v in (start, end):
        if isinstance(v, XlError):
            return v
    assert isinstance(start, datetime.date) and isinstance(end, datetime.date)
    if start > end:
        start, end = end, start
    return 0.0 if start == end else _BASES[int(b)](start, end)


def register(table: Table) -> None:
    """Put these functions into the engine's function table."""
    table["COMBIN"] = _cells(combin)
    table["DOLLAR"] = _cells(dollar)
    table["YEARFRAC"] = _cells(yearfrac)
    excel_refs.register(table)
