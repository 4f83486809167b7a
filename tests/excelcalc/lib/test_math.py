"""Excel's Math & Trig functions (``excelcalc.lib.math``): COMBIN, SUBTOTAL and AGGREGATE, which
calc and eval answered as errors before (issue 19). Each expected value is Excel's: from
Microsoft's function pages or workbooks Excel saved (tests/corpus), cited beside the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from excelcalc.formula import evaluate
from excelcalc.values import ReasonedError
from tests import excel_corpus as ec
from tests.excelcalc.lib.workbooks import book, hide


def test_combin_as_microsoft_documents_it() -> None:
    """Microsoft's COMBIN page: COMBIN(8,2) is 28. It answered #NAME? (formulas has none)."""
    assert evaluate("=COMBIN(8,2)") == 28
    assert isinstance(evaluate("=COMBIN(2,3)"), ReasonedError) and str(evaluate("=COMBIN(2,3)")) == "#NUM!"
    assert str(evaluate('=COMBIN("a",1)')) == "#VALUE!"


# ------------------------------------------------------------------------ SUBTOTAL, AGGREGATE


def test_subtotal_as_microsoft_documents_it(tmp_path: Path) -> None:
    """Microsoft's SUBTOTAL page: with A2:A5 120, 10, 150, 23, SUBTOTAL(9,A2:A5) is 303 and
    SUBTOTAL(1,A2:A5) 75.75. Other SUBTOTAL cells in the range are left out ("to avoid double
    counting"); 101-111 leave out hidden rows, 1-11 count them (row 4 hidden by hand)."""
    cells: dict[str, Any] = {"A2": 120, "A3": 10, "A4": 150, "A5": 23, "A6": "=SUBTOTAL(9,A2:A5)"}
    cells |= {"B1": "=SUBTOTAL(1,A2:A5)", "B2": "=SUBTOTAL(9,A2:A6)", "B3": "=SUBTOTAL(109,A2:A6)"}
    cells |= {"B4": "=SUBTOTAL(2,A2:A6)", "B5": "=SUBTOTAL(104,A2:A5)", "B6": "=SUBTOTAL(3,A1:A5)"}
    cells |= {"B7": "=SUBTOTAL(12,A2:A5)", "B8": "=SUBTOTAL(6,A2:A3)", "B9": "=SUBTOTAL(10,A2:A5)"}
    cells |= {"C1": "=NOSUCH(1)", "C2": 5, "C3": "=SUBTOTAL(3,C1:C2)", "C4": "=SUBTOTAL(2,C1:C2)"}  # an error counts
    cells |= {"C5": "=SUBTOTAL(9,C1:C2)"}
    got = book(tmp_path, cells, hide(4))
    assert (got["C3"], got["C4"], got["C5"]) == (2, 1, "#NAME?")
    assert (got["A6"], got["B1"], got["B2"], got["B3"]) == (303, 75.75, 303, 153)
    assert (got["B4"], got["B5"], got["B6"], got["B7"], got["B8"]) == (4, 120, 4, "#VALUE!", 1200)
    assert got["B9"] == pytest.approx(14576.75 / 3)  # VAR: squared deviations from 75.75 over n-1


def test_subtotal_shows_the_digits_of_its_function(tmp_path: Path) -> None:
    """SUBTOTAL(10, r) and VAR(r) of one range are one number to the last digit: SUBTOTAL computed
    its statistics a second way (Python's statistics module), so two cells of a workbook showed
    959.8367199999998 and 959.8367199999999, and only one of them can be Excel's."""
    cells: dict[str, Any] = {f"A{i}": x for i, x in enumerate((13.44, 84.74, 76.38, 25.51, 49.54), 1)}
    cells |= {"B1": "=SUBTOTAL(10,A1:A5)", "B2": "=VAR(A1:A5)", "B3": "=SUBTOTAL(7,A1:A5)", "B4": "=STDEV(A1:A5)"}
    got = book(tmp_path, cells)
    assert (got["B1"], got["B3"]) == (got["B2"], got["B4"])


def test_subtotal_over_rows_a_filter_may_hide_names_the_case(tmp_path: Path) -> None:
    """Microsoft's SUBTOTAL page: "SUBTOTAL ignores any rows that are not included in the result of
    a filter, no matter which function_num": a hidden row under a filter may be filtered out or
    hidden by hand, which only Excel tells apart, so 1-11 answer an error naming it; 101-111
    leave it out either way."""
    cells: dict[str, Any] = {"A1": "n", "A2": 1, "A3": 2, "A4": 4}
    cells |= {"B1": "=SUBTOTAL(9,A2:A4)", "B2": "=SUBTOTAL(109,A2:A4)"}
    got = book(tmp_path, cells, hide(3, autofilter="A1:A4"))
    assert got["B1"] == "#VALUE!" and "filter" in got["reasons"]["B1"]
    assert got["B2"] == 5


def test_aggregate_as_microsoft_documents_it(tmp_path: Path) -> None:
    """Microsoft's AGGREGATE page: with its data in A1:B11, AGGREGATE(4,6,A1:A11) is 96,
    AGGREGATE(14,6,A1:A11,3) 72, AGGREGATE(15,6,A1:A11) #VALUE!, AGGREGATE(12,6,A1:A11,B1:B11)
    68. Options: 5 leaves out hidden rows, 4 counts nested subtotals, 0 leaves them out; the
    array form reads a computed array (errors left out with option 6)."""
    a = ["=1/0", 72, 30, "=SQRT(-1)", 31, 96, 32, 81, 33, 53, 34]
    b = [82, 65, 95, 63, 53, 71, 55, 83, 100, 91, 89]
    cells: dict[str, Any] = {f"A{i + 1}": v for i, v in enumerate(a)} | {f"B{i + 1}": v for i, v in enumerate(b)}
    cells |= {"C1": "=_xlfn.AGGREGATE(4,6,A1:A11)", "C2": "=_xlfn.AGGREGATE(14,6,A1:A11,3)"}
    cells |= {"C3": "=_xlfn.AGGREGATE(15,6,A1:A11)", "C4": "=_xlfn.AGGREGATE(12,6,A1:A11,B1:B11)"}
    cells |= {"C5": "=_xlfn.AGGREGATE(9,5,B1:B3)", "C6": "=_xlfn.AGGREGATE(4,0,A1:A11)"}
    cells |= {"D1": 5, "D2": "=SUBTOTAL(9,D1)"}
    cells |= {"C7": "=_xlfn.AGGREGATE(9,4,D1:D2)", "C8": "=_xlfn.AGGREGATE(9,0,D1:D2)"}
    cells |= {"C9": "=_xlfn.AGGREGATE(14,6,B1:B11/(B1:B11<90),1)"}
    got = book(tmp_path, cells, hide(2))
    assert (got["C1"], got["C2"], got["C3"], got["C4"]) == (96, 72, "#VALUE!", 68)
    assert (got["C5"], got["C6"], got["C7"], got["C8"], got["C9"]) == (177, "#DIV/0!", 10, 5, 89)


def test_quotient_and_seriessum_as_microsoft_documents_them() -> None:
    """QUOTIENT's page: QUOTIENT(5,2) 2, QUOTIENT(4.5,3.1) 1, QUOTIENT(-10,3) -3. SERIESSUM's page:
    SERIESSUM(PI()/4,0,2,{1,-1/FACT(2),1/FACT(4),-1/FACT(6)}) 0.70710321 (cos(pi/4) by its series).
    Both answered "#NAME? unknown function" (formulas has neither)."""
    assert [evaluate(f"=QUOTIENT({a})") for a in ("5,2", "4.5,3.1", "-10,3")] == [2, 1, -3]
    assert str(evaluate("=QUOTIENT(1,0)")) == "#DIV/0!"
    got = evaluate("=SERIESSUM(PI()/4,0,2,{1,-1/FACT(2),1/FACT(4),-1/FACT(6)})")
    assert round(float(got), 8) == 0.70710321
    assert str(evaluate('=SERIESSUM(2,0,2,{1,"a"})')) == "#VALUE!"


def test_sumif_sums_a_sum_range_of_the_range_s_shape(tmp_path: Path) -> None:
    """Microsoft's SUMIF page: "The sum_range argument does not have to be the same size and shape
    as the range argument. The actual cells that are added are determined by using the upper
    leftmost cell in the sum_range argument as the beginning cell, and then including cells that
    correspond in size and shape to the range argument": range A1:A5 with sum_range B1:B3 adds
    B1:B5, A1:B4 with C1:C2 adds C1:D4. calc answered #VALUE! (issue 44 item 7, SUMIF criteria)."""
    cells: dict[str, Any] = {f"A{r}": r for r in range(1, 6)} | {f"B{r}": 10 * r for r in range(1, 6)}
    cells |= {f"C{r}": 100 * r for r in range(1, 5)} | {f"D{r}": 1000 * r for r in range(1, 5)}
    cells |= {"F1": '=SUMIF(A1:A5,">=2",B1:B5)', "F2": '=SUMIF(A1:A5,">=2",B1:B3)', "F3": '=SUMIF(A1:A5,">=2",B1)'}
    cells |= {"F4": '=SUMIF(A1:B4,">=3",C1:D4)', "F5": '=SUMIF(A1:B4,">=3",C1:C2)', "F6": '=SUMIF(A1:A5,">=2",B2)'}
    got = book(tmp_path, cells)
    assert (got["F1"], got["F2"], got["F3"]) == (140, 140, 140)
    # A1:B4 >= 3: A3, A4 and every B (10..40): C3, C4 and D1..D4
    assert (got["F4"], got["F5"]) == (300 + 400 + 1000 + 2000 + 3000 + 4000,) * 2
    assert got["F6"] == 30 + 40 + 50  # B2:B6, B6 empty
    # as Excel cached it: POI's FormulaEvalTestData E1324, SUMIF(AA7:AA13,C10:D10, C7) is 1.1
    path = ec.FILES / "poi/FormulaEvalTestData_Copy.xlsx"
    differ = {d.cell for d in ec.run_calc(path, tmp_path / path.name).differences or ()}
    assert "EverythingTests!E1324" not in differ


def test_a_date_typed_as_text_is_its_serial_number_where_a_number_is_needed(tmp_path: Path) -> None:
    """Microsoft's "Calculation operators and precedence in Excel", Using operators: Excel converts
    text to a number where one is needed, ``="6/1/2001"-"5/1/2001"`` is 31, ``="1"+"2"`` 3 and
    ``=SQRT("8+1")`` #VALUE!; ``"2024-01-10"`` reads as 45301 (issue 44 item 7: calc refused it),
    in a workbook of the 1904 date system 43839 (1,462 days fewer). A date without its year
    (Excel takes the current year's) is not read: its answer would change with the year."""
    assert evaluate('="6/1/2001"-"5/1/2001"') == 31 and evaluate('="1"+"2"') == 3
    assert str(evaluate('=SQRT("8+1")')) == "#VALUE!"
    assert evaluate('="2024-01-10"+0') == 45301 and evaluate('="1/10/2024 12:00"*1') == 45301.5
    assert evaluate('="January 10, 2024"*1') == 45301 and evaluate('="1900-01-01"+0') == 1
    assert str(evaluate('="1/10"+0')) == "#VALUE!" and str(evaluate('="2024-13-01"+0')) == "#VALUE!"
    cells: dict[str, Any] = {"A1": "2024-01-10", "B1": "=A1+0", "B2": '="2024-01-10"-"2024-01-01"'}
    got = book(tmp_path, cells, _mac_1904)
    assert (got["B1"], got["B2"]) == (43839, 9)


def _mac_1904(wb: Any) -> None:
    wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
