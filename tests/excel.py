"""Excel as tests need it: what a cell hands a Python function, and formula literals.

What reaches an xlwings UDF for a cell holding a value shown with a number format, rule by rule:

1. xlwings reads a range argument with ``Range.Value``, not ``Value2`` (``xlwings/_xlwindows.py``,
   ``Range.raw_value``: ``return self.xl.Value``). Microsoft's ``Range.Value2`` page: "The only
   difference between this property and the Value property is that the Value2 property doesn't use
   the Currency and Date data types." So a cell whose number format is a currency or accounting
   format is read as a Currency (VT_CY), a date or time format as a Date (VT_DATE), every other
   number as a Double (VT_R8): Excel stores every number as a double, so a number is never an int.
2. pywin32 turns each VARIANT into Python (``PyCom_PyObjectFromVariant``): VT_R8 -> float,
   VT_CY -> ``decimal.Decimal`` (a 64-bit integer of 1/10,000 units: four decimal places),
   VT_DATE -> ``pywintypes.TimeType`` (a datetime subclass), VT_BOOL -> bool, VT_BSTR -> str,
   VT_EMPTY -> None, VT_ERROR -> the error's SCODE as a (negative) int.
3. xlwings cleans what pywin32 gave (``_xlwindows._clean_value_data_element``): empty -> None,
   a TimeType -> ``datetime``, and, with ``err_to_str``, the seven classic error codes in its
   ``cell_errors`` table -> their text (``#N/A``); the newer errors (``#SPILL!``, ``#CALC!``, ...)
   are not in that table and stay integers. That step is xlwings' own code, run by the tests
   (tests/xlwings_windows.py); this module stops at what pywin32 gives.

A percentage (60%) is the number 0.6 with a percent format: a float. Text is passed as typed.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from openpyxl.styles.numbers import is_date_format
from openpyxl.utils.datetime import from_excel

from benchsheet.errors import EXCEL_ERRORS, vt_error

CURRENCY_FORMAT = "$#,##0.00"  # the template's price cells
ACCOUNTING_FORMAT = '_("$"* #,##0.00_);_("$"* \\(#,##0.00\\);_("$"* "-"??_);_(@_)'
PERCENT_FORMAT = "0%"
DATE_FORMAT = "d/m/yyyy"  # a locale's short date: typing 6.1 there makes 6 January

_QUOTED_OR_BRACKETED = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.')
_CURRENCY_SYMBOLS = ("$", "€", "£", "¥")


@dataclass(frozen=True)
class Cell:
    """A worksheet cell: its stored value (a float for any number, as Excel stores it) and number format."""

    value: float | str | bool | None
    number_format: str = "General"
    error: str | None = None  # "#N/A", "#SPILL!", ...: the cell holds this error value


def is_currency_format(number_format: str) -> bool:
    """Currency and Accounting formats name a currency symbol outside quotes (or as ``[$€-x]``)."""
    if "[$" in number_format:
        return True
    bare = _QUOTED_OR_BRACKETED.sub("", number_format)
    return any(symbol in bare for symbol in _CURRENCY_SYMBOLS) or '"$"' in number_format


def com_value(cell: Cell) -> Any:
    """What pywin32 hands xlwings for the cell (rules 1 and 2 above)."""
    if cell.error is not None:
        if cell.error not in EXCEL_ERRORS:
            raise ValueError(f"not an Excel error value: {cell.error}")
        return vt_error(cell.error)
    value = cell.value
    if value is None or isinstance(value, bool | str):
        return value
    number = float(value)
    if not math.isfinite(number):
        raise ValueError("a cell never holds an infinite number or NaN")
    if is_date_format(cell.number_format):
        stamp = from_excel(number)
        if isinstance(stamp, dt.time):
            stamp = dt.datetime.combine(dt.date(1899, 12, 30), stamp)
        return time_type(stamp)
    if is_currency_format(cell.number_format):
        return Decimal(repr(number)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_EVEN)
    return number


def time_type(stamp: dt.datetime) -> Any:
    """pywin32's ``TimeType`` for a VT_DATE: the stand-in's class while tests/xlwings_windows.py runs."""
    from tests.xlwings_windows import TimeType

    return TimeType(stamp.year, stamp.month, stamp.day, stamp.hour, stamp.minute, stamp.second, stamp.microsecond)


def literal(v: Any) -> str:
    """``None`` -> a left-out argument, text quoted, booleans as TRUE/FALSE, infinity as 1/0."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return '"' + v.replace('"', '""') + '"'
    if isinstance(v, float) and not math.isfinite(v):
        return "1/0"
    return repr(v)
