"""Excel's Date & Time functions the engine computes itself; the others of the group it takes from
formulas as they are (``FORMULAS``), checked against Excel.

* DATE counts days past the month's end as Excel does; YEAR, MONTH, DAY read no text date before
  1900 or after 9999; DATEDIF reads its unit in any case.
* YEARFRAC on its five day-count bases, with Excel's end-of-February rules (formulas has others).
* In a workbook of the 1904 date system (``lib.sheets``), the date functions of ``IN_1904`` read
  and make its serial numbers (formulas counts from 1900).
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np

from excelcalc.args import is_number
from excelcalc.backend import EMPTY, Ranges, XlError, as_grid, cellwise, error, text_date
from excelcalc.lib._common import Entry, Wraps, cells, formulas_own, lazy, number, scalar, text_serial, whole_number
from excelcalc.lib.sheets import current
from excelcalc.textnum import text_number, text_time
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS", "IN_1904"]


def date(original: Callable[..., Any]) -> Callable[..., Any]:
    """DATE(year, month, day): the serial number of the month's first day plus day - 1, as Excel
    counts ("If day is greater than the number of days in the month specified, day adds that
    number of days to the first day in the month"): POI's FormulaEvalTestData (Excel-cached) has
    ``DATE(1900,1,22222)`` = 22222, where formulas counted Excel's 29 February 1900 once more."""

    def run(year: Any, month: Any, day: Any) -> Any:
        d = scalar(day)
        if isinstance(d, np.ndarray) or isinstance(scalar(year), np.ndarray) or isinstance(scalar(month), np.ndarray):
            return original(year, month, day)
        if isinstance(d, XlError):
            return d
        try:
            days = math.trunc(number(0 if d is EMPTY else d))
        except (TypeError, ValueError):
            return error("#VALUE!")
        first = scalar(original(year, month, 1))
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
        v = scalar(serial)
        if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY and text_number(v) is None:
            found = text_date(v)
            if found is not None and not 1900 <= found[0] <= 9999:
                return error("#VALUE!")
        return original(serial)

    run.__name__ = getattr(original, "__name__", "DATE_PART")
    return run


def datedif(original: Callable[..., Any]) -> Callable[..., Any]:
    """DATEDIF(start, end, unit) reading its unit in any case, as Excel does (formulas compared
    ``"D"`` before upper-casing it: ``DATEDIF(a,b,"d")`` was #NUM!)."""

    def upper(v: Any) -> Any:
        return v.upper() if type(v) is str else v

    def run(start: Any, end: Any, unit: Any) -> Any:
        u = scalar(unit)
        u = cellwise(upper, as_grid(unit)) if isinstance(u, np.ndarray) else upper(u)
        return original(start, end, u)

    run.__name__ = "DATEDIF"
    return run


# ------------------------------------------------------------------------------------ YEARFRAC

MAX_SERIAL = 2958465  # 9999-12-31, the last date Excel has


_EPOCH = datetime.date(1899, 12, 30)  # serial 61 is 1900-03-01: serials from 61 on count from here


FIRST_REAL = 61  # serials below count Excel's February 29, 1900, a day that never was


def _serial_date(v: Any, date1904: bool) -> datetime.date | XlError:
    """A date argument as a date: a serial number (truncated) of the workbook's date system."""
    if isinstance(v, bool):
        return error("#VALUE!")
    if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY and text_number(v) is None:
        return ReasonedError("#VALUE!", "YEARFRAC of a date written as text is not computed by benchsheet")
    n = whole_number(v)
    if isinstance(n, XlError):
        return n
    serial = math.floor(n)
    if serial < 0 or serial > (MAX_SERIAL - 1462 if date1904 else MAX_SERIAL):
        return error("#NUM!")
    if date1904:
        serial += 1462
    elif serial < FIRST_REAL:
        return ReasonedError("#VALUE!", "YEARFRAC of a date before March 1, 1900 is not computed by benchsheet")
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
    b = whole_number(EMPTY if basis is None else basis)
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
    "WEEKDAY": ((0,), False),
    "WEEKNUM": ((0,), False),
    "ISOWEEKNUM": ((0,), False),
    "_XLFN.ISOWEEKNUM": ((0,), False),
    # the engine's own, which read the workbook's date system themselves (lib.text's TEXT, and below)
    "TEXT": ((), False),
    "WORKDAY.INTL": ((0, 3), True),
    "_XLFN.WORKDAY.INTL": ((0, 3), True),
    "NETWORKDAYS": ((0, 1, 2), False),
    "NETWORKDAYS.INTL": ((0, 1, 3), False),
    "_XLFN.NETWORKDAYS.INTL": ((0, 1, 3), False),
}
_OWN_1904 = frozenset({"TEXT", "WORKDAY", "WORKDAY.INTL", "_XLFN.WORKDAY.INTL"}) | {
    "NETWORKDAYS",
    "NETWORKDAYS.INTL",
    "_XLFN.NETWORKDAYS.INTL",
}  # of IN_1904, those not formulas' own moved to 1900 serials


def _outside(low: float, high: float) -> ReasonedError:
    return ReasonedError(
        "#NUM!", f"the date is outside Excel's calendar (serial numbers {low:,.0f} to {high:,.0f} in this workbook)"
    )


def _shift(value: Any, days: int, high: float) -> Any:
    """``value`` with each number moved by ``days`` (text, blanks... as they are; a blank date is 0);
    a number outside Excel's calendar of the workbook (0 to ``high`` before the move) is #NUM!."""
    if isinstance(value, Ranges | np.ndarray):
        grid = as_grid(value).copy()
        if grid.size == 1:
            return _shift(grid.flat[0], days, high)
        for idx, v in np.ndenumerate(grid):
            grid[idx] = _shift(v, days, high)
        return grid
    if value is EMPTY or value is None:
        return float(days)
    if is_number(value):
        if not 0 <= float(value) < high + 1:
            return _outside(0, high)
        return float(value) + days
    return value


def in_calendar(value: Any, high: float) -> Any:
    """A date answer as it is, or #NUM! where it is outside Excel's calendar (serial 0 to ``high``)."""
    if isinstance(value, np.ndarray):
        bad = [i for i, v in enumerate(value.flat) if is_number(v) and not 0 <= float(v) < high + 1]
        if not bad:
            return value
        out = value.astype(object)
        for i in bad:
            out.flat[i] = _outside(0, high)
        return out
    return _outside(0, high) if is_number(value) and not 0 <= float(value) < high + 1 else value


# date functions whose second argument moves the date: the answer lies that way from the start
MOVES = frozenset({"EDATE", "EOMONTH", "WORKDAY"})


def _moved_back(out: Any, args: tuple[Any, ...], high: float) -> Any:
    """EDATE, EOMONTH or WORKDAY gone before January 1900: formulas makes that date with DATE's rule
    for a year before 1900 (1900 added: ``EDATE(0,-1)`` answered 693931, December 3799); an answer
    on the other side of the start than the move is outside Excel's calendar."""
    if len(args) < 2:
        return out
    start, step, got = scalar(args[0]), scalar(args[1]), scalar(out)
    if not (is_number(start) and is_number(step) and is_number(got)):
        return out
    move = math.trunc(float(step))
    if (move < 0 and float(got) > math.floor(float(start))) or (move > 0 and float(got) < float(start)):
        return _outside(0, high)
    return out


def in_1904(
    original: Callable[..., Any], dates: tuple[int, ...], makes_date: bool, name: str = ""
) -> Callable[..., Any]:
    """A date function of formulas (which counts from 1900) in a workbook of the 1904 date system:
    its date arguments moved to 1900 serials, its date answer back to 1904 ones; in either system a
    date argument or answer outside Excel's calendar is #NUM!."""
    moves = name in MOVES

    def run(*args: Any) -> Any:
        sheets = current()
        if sheets is None or not sheets.date1904:
            out = original(*args)
            if moves:
                out = _moved_back(out, args, MAX_SERIAL)
            return in_calendar(out, MAX_SERIAL) if makes_date else out
        high = MAX_SERIAL - DAYS_1904
        moved = [_shift(a, DAYS_1904, high) if i in dates else a for i, a in enumerate(args)]
        for i in dates:
            if i < len(moved) and isinstance(moved[i], ReasonedError):
                return moved[i]
        out = original(*moved)
        if not makes_date or isinstance(out, XlError):
            return out
        if moves:
            out = _moved_back(out, tuple(moved), high)
            if isinstance(out, XlError):
                return out
        return in_calendar(_shift(out, -DAYS_1904, MAX_SERIAL), high)

    return run


def _dated(name: str, made: Callable[[Callable[..., Any]], Callable[..., Any]] | None = None) -> Wraps:
    """formulas' own ``name`` (corrected by ``made``), reading and making dates of a 1904 workbook."""
    if made is None:
        return Wraps(lambda table: in_1904(table.excel(name), *IN_1904[name], name))
    return Wraps(lambda table: in_1904(made(lazy(table, name)), *IN_1904[name], name))


# ------------------------------------------------------------------------- working days

# WORKDAY.INTL's weekend numbers (Microsoft's page): the weekdays off, Monday = 0 ... Sunday = 6
_WEEKENDS: dict[int, tuple[int, ...]] = {1: (5, 6), 2: (6, 0), 3: (0, 1), 4: (1, 2), 5: (2, 3), 6: (3, 4), 7: (4, 5)}
_WEEKENDS |= {code: (code - 12 if code > 11 else 6,) for code in range(11, 18)}


def _weekend(v: Any) -> tuple[bool, ...] | XlError:
    """The seven days off, Monday first, of a weekend argument: a number 1-7 or 11-17, or a text of
    seven 0s and 1s (1 a day off; all seven off is #VALUE!); another number #NUM!."""
    if v is EMPTY or v is None:
        v = 1.0
    if isinstance(v, XlError):
        return v
    if isinstance(v, str):
        if len(v) != 7 or set(v) - {"0", "1"}:
            return ReasonedError(
                "#VALUE!", f"the weekend {v[:20]!r} is no weekend text (seven 0s and 1s, Monday first)"
            )
        return error("#VALUE!") if v == "1111111" else tuple(c == "1" for c in v)
    if isinstance(v, bool):
        return error("#VALUE!")
    n = whole_number(v)
    if isinstance(n, XlError):
        return n
    off = _WEEKENDS.get(math.trunc(n)) if math.isfinite(n) else None
    if off is None:
        return error("#NUM!")
    return tuple(d in off for d in range(7))


def _day_of(v: Any, offset: int) -> int | XlError:
    """A date argument as a 1900 serial day (truncated; ``offset`` 1462 in a 1904 workbook): a number
    of Excel's calendar or a text date; an error as it is, anything else #VALUE!."""
    if isinstance(v, XlError):
        return v
    if v is EMPTY or v is None:
        v = 0.0
    if isinstance(v, str):
        n = text_number(v)
        if n is None:
            found = text_date(v)
            if found is None or not 1900 <= found[0] <= 9999:
                return error("#VALUE!")
            d = datetime.date(found[0], found[1], found[2])
            return (d - _EPOCH).days if d >= datetime.date(1900, 3, 1) else (d - datetime.date(1899, 12, 31)).days
        v = n
    if isinstance(v, bool) or not is_number(v):
        return error("#VALUE!")
    if not 0 <= float(v) < MAX_SERIAL - offset + 1:
        return _outside(0, MAX_SERIAL - offset)
    return math.floor(float(v)) + offset


def _holidays(v: Any, offset: int) -> frozenset[int] | XlError:
    """The holidays argument's dates (blank cells left out); the first that is no date its error."""
    if v is None:
        return frozenset()
    out: set[int] = set()
    for x in as_grid(v).flat:
        if x is EMPTY or x is None:
            continue
        day = _day_of(x, offset)
        if isinstance(day, XlError):
            return day
        out.add(day)
    return frozenset(out)


def _working(day: int, weekend: tuple[bool, ...], holidays: frozenset[int]) -> bool:
    return not weekend[(day + 5) % 7] and day not in holidays  # serial 1 (Excel's 1900-01-01) a Sunday


def _workday(start: int, days: int, weekend: tuple[bool, ...], holidays: frozenset[int]) -> int | None:
    """The ``days``-th working day after (before, when negative) ``start``; None past Excel's calendar."""
    per_week = weekend.count(False)
    step = 1 if days > 0 else -1
    left, day = abs(days), start
    while left > per_week:  # whole weeks at once, the working holidays among them counted back
        weeks = (left - 1) // per_week
        end = day + step * 7 * weeks
        if not -7 <= end <= MAX_SERIAL + 7:
            return None
        low, high = min(day, end), max(day, end)
        left -= weeks * per_week
        jumped = [h for h in holidays if (low < h <= high if step > 0 else low <= h < high)]
        left += sum(1 for h in jumped if _working(h, weekend, frozenset()))
        day = end
    while left:
        day += step
        if not 0 <= day <= MAX_SERIAL:
            return None
        if _working(day, weekend, holidays):
            left -= 1
    return day


def _offset() -> int:
    return DAYS_1904 if getattr(current(), "date1904", False) else 0


def _each(fn: Callable[..., Any], *args: Any) -> Any:
    return cells(fn)(*args)


def workday_intl(start_date: Any, days: Any, weekend: Any = None, holidays: Any = None) -> Any:
    """WORKDAY.INTL(start_date, days, [weekend], [holidays]) and WORKDAY (weekend 1) as Microsoft's
    pages state them: the date ``days`` working days (truncated) after the start, or before it;
    ``days`` 0 is the start itself, a weekend day too; a start on a day off counts from there.
    A start or holiday that is no date is #VALUE!, an answer outside Excel's calendar #NUM!. In a
    1904 workbook the dates count from 1904. formulas answered #VALUE! for a start on a day off
    (Microsoft's example WORKDAY.INTL(DATE(2012,1,1),90,11)) and for a weekend text."""
    offset = _offset()
    off = _holidays(holidays, offset)
    if isinstance(off, XlError):
        return off

    def one(start: Any, count: Any, code: Any) -> Any:
        first = _day_of(start, offset)
        if isinstance(first, XlError):
            return first
        n = whole_number(count)
        if isinstance(n, XlError) or isinstance(count, bool):
            return error("#VALUE!") if isinstance(count, bool) else n
        week = _weekend(code)
        if isinstance(week, XlError):
            return week
        if not math.isfinite(n) or abs(n) > MAX_SERIAL:
            return _outside(0, MAX_SERIAL - offset)
        got = _workday(first, math.trunc(n), week, off)
        if got is None or not offset <= got <= MAX_SERIAL:
            return _outside(0, MAX_SERIAL - offset)
        return float(got - offset)

    return _each(one, start_date, days, EMPTY if weekend is None else weekend)


def workday(start_date: Any, days: Any, holidays: Any = None) -> Any:
    return workday_intl(start_date, days, None, holidays)


def networkdays_intl(start_date: Any, end_date: Any, weekend: Any = None, holidays: Any = None) -> Any:
    """NETWORKDAYS.INTL(start_date, end_date, [weekend], [holidays]) and NETWORKDAYS (weekend 1) as
    Microsoft's pages state them: the working days from start to end, both counted, negative when
    the end is before the start; in a 1904 workbook the dates count from 1904."""
    offset = _offset()
    off = _holidays(holidays, offset)
    if isinstance(off, XlError):
        return off

    def one(start: Any, end: Any, code: Any) -> Any:
        first, last = _day_of(start, offset), _day_of(end, offset)
        for v in (first, last):
            if isinstance(v, XlError):
                return v
        week = _weekend(code)
        if isinstance(week, XlError):
            return week
        assert isinstance(first, int) and isinstance(last, int)
        low, high = min(first, last), max(first, last)
        weeks, rest = divmod(high - low + 1, 7)
        count = weeks * week.count(False)
        count += sum(1 for d in range(high - rest + 1, high + 1) if _working(d, week, frozenset()))
        count -= sum(1 for h in off if low <= h <= high and _working(h, week, frozenset()))
        return float(count if first <= last else -count)

    return _each(one, start_date, end_date, EMPTY if weekend is None else weekend)


def networkdays(start_date: Any, end_date: Any, holidays: Any = None) -> Any:
    return networkdays_intl(start_date, end_date, None, holidays)


# ------------------------------------------------------------------ DATEVALUE and TIMEVALUE


def _date_text(name: str, v: Any) -> str | XlError:
    """The text argument of DATEVALUE or TIMEVALUE; a number, a date, TRUE or a blank is #VALUE!
    (Microsoft's "How to correct a #VALUE! error in the DATEVALUE function": "The date_text argument
    has to be a valid text value, and not a number or a date")."""
    if isinstance(v, XlError):
        return v
    if not isinstance(v, str) or v is EMPTY:
        return ReasonedError("#VALUE!", f"{name} reads a date written as text; its argument is no text")
    return v


def datevalue(date_text: Any) -> Any:
    """DATEVALUE(date_text) (Microsoft's DATEVALUE page): the serial number of a date written as text,
    read as the engine reads a date text wherever a number is needed (``text_serial``: "2024-01-10" is
    45301, as ``"2024-01-10"+0``); "Time information in the date_text argument is ignored"; a date
    outside 1900 to 9999 is #VALUE!. A date without its year (the page: Excel takes the current year
    from the clock) is #VALUE! naming it, never another year's date."""
    text = _date_text("DATEVALUE", date_text)
    if isinstance(text, XlError):
        return text
    if text_number(text) is None:
        serial = text_serial(text)
        if serial is not None:
            return float(math.floor(serial))
        if text_date(text) is not None:  # a date text_serial does not read: no year, or two digits of it
            why = "it reads a date written with its four-digit year"
            return ReasonedError("#VALUE!", f"DATEVALUE of {text[:40]!r} is not computed by benchsheet: {why}")
    return ReasonedError("#VALUE!", f"DATEVALUE of {text[:40]!r}: no date of Excel's calendar is written in it")


def timevalue(time_text: Any) -> Any:
    """TIMEVALUE(time_text) (Microsoft's TIMEVALUE page): the fraction of a day of a time written as
    text ("6:45 PM", "18:45"), read as the engine reads a time wherever a number is needed
    (``textnum``), or of a date and time (``text_serial``; "Date information in time_text is
    ignored"). A text without a time is #VALUE! naming it."""
    text = _date_text("TIMEVALUE", time_text)
    if isinstance(text, XlError):
        return text
    alone = text_time(text)
    if alone is not None:
        return alone % 1
    found = text_date(text) if text_number(text) is None and text_serial(text) is not None else None
    if found is not None and (":" in text or re.search(r"\d\s*[AaPp][Mm]?\s*$", text)):
        hours, minutes, seconds = found[3:6]
        return (hours * 3600 + minutes * 60 + seconds) / 86400
    return ReasonedError("#VALUE!", f"TIMEVALUE of {text[:40]!r}: no time is written in it (not computed)")


def calendar_end(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """EDATE or EOMONTH (of 1900 serials) whose month is December 9999 or later: formulas' date
    arithmetic fails past 9999-12-31 (#VALUE! "wrong type"). Excel's EOMONTH page: "If start_date
    plus months yields an invalid date, EOMONTH returns the #NUM! error value"; December 9999 itself
    is in Excel's calendar (``EOMONTH(2958465,0)`` is 2958465). Other months go to formulas."""

    def made(original: Callable[..., Any]) -> Callable[..., Any]:
        def run(start_date: Any, months: Any, *rest: Any) -> Any:
            start, move = scalar(start_date), scalar(months)
            if is_number(start) and is_number(move) and FIRST_REAL <= float(start) < MAX_SERIAL + 1:
                if not math.isfinite(float(move)):
                    return _outside(0, MAX_SERIAL)
                day = _EPOCH + datetime.timedelta(days=math.floor(float(start)))
                year, month = divmod(day.year * 12 + day.month - 1 + math.trunc(float(move)), 12)
                if year > 9999 or year < 1899:
                    return _outside(0, MAX_SERIAL)
                if (year, month) == (9999, 11):
                    last = datetime.date(9999, 12, 31 if name == "EOMONTH" else day.day)
                    return (last - _EPOCH).days
            return original(start_date, months, *rest)

        run.__name__ = name
        return run

    return made


FUNCTIONS: dict[str, Entry] = {
    **{name: _dated(name) for name in IN_1904 if name not in _OWN_1904},
    "EDATE": _dated("EDATE", calendar_end("EDATE")),
    "EOMONTH": _dated("EOMONTH", calendar_end("EOMONTH")),
    "DATE": _dated("DATE", date),
    "YEAR": _dated("YEAR", date_part),
    "MONTH": _dated("MONTH", date_part),
    "DAY": _dated("DAY", date_part),
    "DATEDIF": _dated("DATEDIF", datedif),
    "YEARFRAC": cells(yearfrac),
    "DATEVALUE": cells(datevalue),
    "TIMEVALUE": cells(timevalue),
    "WORKDAY": workday,
    "WORKDAY.INTL": workday_intl,
    "_XLFN.WORKDAY.INTL": workday_intl,
    "NETWORKDAYS": networkdays,
    "NETWORKDAYS.INTL": networkdays_intl,
    "_XLFN.NETWORKDAYS.INTL": networkdays_intl,
    **formulas_own("HOUR MINUTE NOW SECOND TIME TODAY"),
}


# ------------------------------------------------------------------- TEXT of a date or a time

# a date or time code of a number format section (Microsoft's "Number format codes"), the text
# inside quotes or after a backslash, or a character shown as it is
_DATE_TOKEN = re.compile(
    r'"(?P<quoted>[^"]*)"|\\(?P<escaped>.)|_(?P<space>.)|\*(?P<fill>.)|(?P<ampm>AM/PM|A/P|a/p)'
    r"|\[(?P<elapsed>h+|m+|s+)\]|\[(?P<bracket>[^\]]*)\]|(?P<code>y+|m+|d+|h+|s+)(?P<fraction>\.0+)?"
    r"|(?P<plain>[-+/():,. $!^&'~{}<>=])",
    re.IGNORECASE,
)
_DATE_CODE = re.compile(r"[ymdhs]", re.IGNORECASE)
_MONTHS = "January February March April May June July August September October November December".split()  # noqa: SIM905
_WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
_ENGLISH = re.compile(r"\$-(?:[0-9a-fA-F]*409|en-US)", re.IGNORECASE)  # [$-409]: English (United States)
_COLOURS = frozenset(["black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"])


def is_date_section(section: str) -> bool:
    """The section of a number format shows a date or a time (a y, m, d, h or s code outside quotes)."""
    bare = re.sub(r'"[^"]*"|\\.|_.|\*.|\[\$[^\]]*\]|\[[a-zA-Z]+[0-9]*\]', "", section)
    return bool(_DATE_CODE.search(bare))


def _tokens(section: str) -> list[tuple[str, str, str]] | str:
    """(kind, code, fraction) of each part of a date section, or what about it is not computed."""
    out: list[tuple[str, str, str]] = []
    at = 0
    while at < len(section):
        m = _DATE_TOKEN.match(section, at)
        if m is None:
            return f"the character {section[at]!r}"
        at = m.end()
        if m["quoted"] is not None or m["escaped"] is not None or m["plain"] is not None:
            out.append(("text", m["quoted"] if m["quoted"] is not None else m["escaped"] or m["plain"], ""))
        elif m["space"] is not None:
            out.append(("text", " ", ""))
        elif m["ampm"] is not None:
            out.append(("ampm", m["ampm"], ""))
        elif m["elapsed"] is not None:
            out.append(("elapsed", m["elapsed"].lower(), ""))
        elif m["bracket"] is not None:
            inside = m["bracket"]
            if inside.lower() in _COLOURS or re.fullmatch(r"color[0-9]{1,2}", inside, re.IGNORECASE):
                continue
            if _ENGLISH.fullmatch(inside):
                continue
            return f"[{inside}]"
        elif m["code"] is not None:
            out.append(("code", m["code"].lower(), m["fraction"] or ""))
        # a fill (*x) repeats a character to the column's width: no width in TEXT, nothing shown
    return out


def _minutes(tokens: list[tuple[str, str, str]], i: int) -> bool:
    """m or mm at ``i`` is minutes: right after an hour code or right before a seconds code
    (other parts between them aside)."""
    codes = [(j, c) for j, (kind, c, _) in enumerate(tokens) if kind in ("code", "elapsed")]
    place = next(k for k, (j, _) in enumerate(codes) if j == i)
    before = codes[place - 1][1] if place > 0 else ""
    after = codes[place + 1][1] if place + 1 < len(codes) else ""
    return before.startswith("h") or after.startswith("s")


def _calendar_1900(day: int) -> tuple[int, int, int, int]:
    """(year, month, day, weekday from Sunday = 0) of a 1900 serial day, with Excel's January 0 and
    February 29, 1900 (serials 0 and 60) and its weekdays of them (serial 1 a Sunday)."""
    weekday = (day + 6) % 7
    if day == 0:
        return 1900, 1, 0, weekday
    if day == 60:
        return 1900, 2, 29, weekday
    d = (_EPOCH if day > 60 else datetime.date(1899, 12, 31)) + datetime.timedelta(days=day)
    return d.year, d.month, d.day, weekday


def _not_computed(section: str, what: str) -> ReasonedError:
    return ReasonedError("#VALUE!", f"TEXT's date format {section[:40]!r} ({what}) is not computed by benchsheet")


def date_text(serial: float, section: str, date1904: bool) -> str | ReasonedError:
    """TEXT of the serial number ``serial`` by a date or time section of a number format: rounded to
    the shown fraction of a second (to the second without one) before the parts are read, so a time
    just before midnight is the next day's 00:00:00, as Excel shows it; in a 1904 workbook serial 0
    is January 1, 1904. Codes: y yy (two digits) yyy yyyy; m mm mmm mmmm mmmmm (month, or minutes
    after an hour or before seconds); d dd ddd dddd; h hh, s ss (.0 .00 .000); [h] [m] [s] elapsed;
    AM/PM A/P a/p; quoted text, \\x, _x, colours and [$-409]."""
    tokens = _tokens(section)
    if isinstance(tokens, str):
        return _not_computed(section, tokens)
    if any(f and c[0] != "s" for kind, c, f in tokens if kind == "code"):
        return _not_computed(section, "a fraction of another part than seconds")
    high = MAX_SERIAL - DAYS_1904 if date1904 else MAX_SERIAL
    if not 0 <= serial < high + 1:
        why = "no date of Excel's calendar"
        return ReasonedError("#VALUE!", f"TEXT of {serial:g} as a date or time is not computed by benchsheet ({why})")
    digits = max((len(f) - 1 for _, _, f in tokens if f), default=0)
    seconds = (Decimal(repr(float(serial))) * 86400).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    whole = int(seconds)
    fraction = seconds - whole
    day, in_day = divmod(whole, 86400)
    if day > high:
        return ReasonedError("#VALUE!", f"TEXT of {serial:g} as a date is not computed by benchsheet (past 9999)")
    year, month, mday, weekday = _calendar_1900(day + DAYS_1904 if date1904 else day)
    hour, rest = divmod(in_day, 3600)
    minute, second = divmod(rest, 60)
    twelve = any(kind == "ampm" for kind, _, _ in tokens)
    out: list[str] = []
    for i, (kind, code, frac) in enumerate(tokens):
        n = len(code)
        if kind == "text":
            out.append(code)
        elif kind == "ampm":
            if code not in ("AM/PM", "A/P", "a/p"):
                return _not_computed(section, code)
            out.append(code.split("/")[0 if hour < 12 else 1])
        elif kind == "elapsed":
            total = {"h": whole // 3600, "m": whole // 60, "s": whole}[code[0]]
            out.append(str(total).zfill(n))
        elif code[0] == "y":
            out.append(str(year % 100).zfill(2) if n <= 2 else str(year))
        elif code[0] == "m" and n <= 2 and _minutes(tokens, i):
            out.append(str(minute).zfill(n))
        elif code[0] == "m":
            name = _MONTHS[month - 1]
            out.append(str(month).zfill(n) if n <= 2 else name[:3] if n == 3 else name[0] if n == 5 else name)
        elif code[0] == "d":
            name = _WEEKDAYS[weekday]
            out.append(str(mday).zfill(n) if n <= 2 else name[:3] if n == 3 else name)
        elif code[0] == "h":
            shown = (hour % 12 or 12) if twelve else hour
            out.append(str(shown).zfill(min(n, 2)))
        else:
            out.append(str(second).zfill(min(n, 2)))
        if frac:
            out.append("." + str(int(fraction.scaleb(len(frac) - 1))).zfill(len(frac) - 1))
    return "".join(out)
