"""Every kind of value a cell hands a function, through xlwings' own Windows call path.

Arguments are cells as users have them (tests/excel.py: a price in a currency cell is a Decimal, a
date cell a datetime, a newer error value a VT_ERROR integer), read by xlwings' real
``_xlwindows`` code and ``call_udf`` (tests/xlwings_windows.py). Expected answers are the same
function called with the plain values a careful user would have typed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from benchsheet.catalogue.calls import call
from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data import store
from benchsheet.data.table import Table
from benchsheet.errors import ALL_ERROR_CODES, ERROR_CODES, vt_error
from tests.excel import ACCOUNTING_FORMAT, CURRENCY_FORMAT, DATE_FORMAT, PERCENT_FORMAT, Cell, com_value
from tests.xlwings_windows import ComRange, Windows, cell, windows

__all__ = ["windows"]  # the fixture, used by name

NEWER_ERRORS = [code for code in ALL_ERROR_CODES if code not in ERROR_CODES]


def typed(name: str, *args: Any) -> Any:
    """The catalogue's answer to plain, clean arguments (as the add-in shows it: error text)."""
    return call(BY_NAME[name], store.get_table(), list(args), on_error=lambda e: e.text)


def excel(windows: Windows, name: str, *cells: Cell | Any) -> Any:
    """Call ``name`` as Excel does, each Cell read from the sheet; other values as formula literals."""
    args = [cell(com_value(c)) if isinstance(c, Cell) else c for c in cells]
    answer = windows.call(name, *args)
    return answer[0][0] if isinstance(answer, list) and len(answer) == 1 and len(answer[0]) == 1 else answer


# ------------------------------------------------------------------ the model


def test_the_model_gives_what_xlwings_then_makes_of_it(windows: Windows) -> None:
    """The model's COM values, cleaned by xlwings' own code, are what the UDF module receives."""
    engine = windows.xlwindows.engine
    cells = [
        Cell(3.6, CURRENCY_FORMAT),
        Cell(3.14159, ACCOUNTING_FORMAT),
        Cell(0.6, PERCENT_FORMAT),
        Cell(6.0),
        Cell(46028.0, DATE_FORMAT),
        Cell(True),
        Cell(None),
        Cell("B300"),
        Cell(None, error="#N/A"),
        Cell(None, error="#SPILL!"),
    ]
    cleaned = engine.clean_value_data([[com_value(c) for c in cells]], dt.datetime, None, None, True)[0]
    assert cleaned[0] == Decimal("3.6") and isinstance(cleaned[0], Decimal)
    assert cleaned[1] == Decimal("3.1416")  # Currency keeps four decimal places
    assert cleaned[2] == 0.6 and type(cleaned[2]) is float
    assert cleaned[3] == 6.0 and type(cleaned[3]) is float  # never an int
    assert type(cleaned[4]) is dt.datetime and cleaned[4].date() == dt.date(2026, 1, 6)
    assert cleaned[5:8] == [True, None, "B300"]
    assert cleaned[8] == "#N/A"  # a classic error: xlwings names it
    assert cleaned[9] == vt_error("#SPILL!") == -2146826243  # a newer one: xlwings leaves the integer


# --------------------------------------------------------------- behaviour


@pytest.mark.parametrize("fmt", [CURRENCY_FORMAT, ACCOUNTING_FORMAT])
def test_a_price_in_a_currency_cell_is_a_number(windows: Windows, fmt: str) -> None:
    per_gpu = typed("BEST", "B200", "gpt-oss-120b", "Server", "available", 8.0)
    got = excel(windows, "COSTPERMTOK", Cell(3.6, fmt), Cell(per_gpu), Cell(0.6, PERCENT_FORMAT))
    assert got == pytest.approx(typed("COSTPERMTOK", 3.6, per_gpu, 0.6))
    ceiling = excel(windows, "BREAKEVENPRICE", Cell(5.0, fmt), "B200", "B300", "gpt-oss-120b", "Server")
    assert ceiling == pytest.approx(typed("BREAKEVENPRICE", 5.0, "B200", "B300", "gpt-oss-120b", "Server"))
    assert excel(windows, "GPUSNEEDED", Cell(1e6), Cell(per_gpu, fmt)) == typed("GPUSNEEDED", 1e6, per_gpu)


def test_a_round_typed_as_a_number_is_a_round(windows: Windows) -> None:
    want = typed("HEADLINE", "deepseek-r1", "Server", "5.1", "6.0")
    assert isinstance(want, float)
    assert excel(windows, "HEADLINE", "deepseek-r1", "Server", Cell(5.1), Cell(6.0)) == want
    assert excel(windows, "HEADLINE", "deepseek-r1", "Server", 5.1, 6.0) == want  # typed in the formula
    noisy = excel(windows, "BEST", "B200", "gpt-oss-120b", "Server", "available", 8.0, Cell(6.1000000001))
    assert noisy == typed("BEST", "B200", "gpt-oss-120b", "Server", "available", 8.0, "6.1")


def test_a_date_where_a_round_or_text_is_wanted_says_so(windows: Windows) -> None:
    day = Cell(46028.0, DATE_FORMAT)  # "6.1" typed where the locale reads it as 6 January 2026
    got = excel(windows, "BEST", "B200", "gpt-oss-120b", "Server", "available", 8.0, day)
    assert got == '#VALUE! round is a date (2026-01-06); type the round as text, e.g. "6.1"'
    assert excel(windows, "PERGPU", day, "gpt-oss-120b", "Server") == (
        "#VALUE! entry is a date (2026-01-06); type it as text"
    )
    assert excel(windows, "BREAKEVEN", "B200", day, "gpt-oss-120b", "Server").startswith(
        "#VALUE! candidate is a date (2026-01-06)"
    )
    assert excel(windows, "COSTPERMTOK", Cell(3.0), day).startswith("#VALUE! tokens_per_sec_per_gpu is a date")


@pytest.mark.parametrize("code", NEWER_ERRORS)
def test_newer_error_values_pass_on_named(windows: Windows, code: str) -> None:
    err = Cell(None, error=code)
    assert excel(windows, "PERGPU", err, "gpt-oss-120b", "Server") == code
    assert excel(windows, "COSTPERMTOK", Cell(3.0), err) == code
    column = ComRange(((com_value(err),), ("6.1-0052",)))
    got = windows.call("PERGPU", column, "gpt-oss-120b", "Server")
    assert got == [[code], [typed("PERGPU", "6.1-0052", "gpt-oss-120b", "Server")]]


def test_every_classic_error_cell_passes_on(windows: Windows) -> None:
    for code in ERROR_CODES:
        assert excel(windows, "GPUS", Cell(None, error=code)) == code


def test_returned_text_has_no_apostrophe_but_files_do(table: Table) -> None:
    row = table.entry_rows("6.1-0052")[0]
    planted = '=HYPERLINK("http://evil.example","click")'
    rows = tuple(replace(r, system=planted) if r.entry == row.entry else r for r in table.rows)
    store.set_table(Table(rows, table.sources, table.origin))
    from benchsheet.udfs import functions as udf

    assert udf.ENTRY("6.1-0052", "system") == planted  # a cell shows the text, not "'=..."
    listed = udf.RESULTS("gpt-oss-120b", "Server", "B300", "any")
    assert any(line[2] == planted for line in listed)
    # the formula engine answers what the add-in answers (issue 19): a file caches it as a typed text
    # value (t="str"), which no program reads as a formula, so no apostrophe is added there either
    assert evaluate('=ENTRY("6.1-0052","system")') == planted
