"""Excel functions calc and eval answered as errors before (issue 19): OFFSET and INDIRECT of a
text made at run time, SUBTOTAL and AGGREGATE, YEARFRAC on every basis and in the 1904 date
system, DOLLAR and COMBIN. Each expected value is Excel's: from Microsoft's function pages, from
workbooks Excel saved (tests/corpus: POI's FormulaEvalTestData, PhpSpreadsheet's issue 2778),
or from PhpSpreadsheet's YEARFRAC test data (values Excel gives), cited beside the test."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName

from benchsheet.catalogue.engine import evaluate
from excelcalc.values import ReasonedError
from excelcalc.workbook.calc import calc


def _book(
    tmp_path: Path, cells: dict[str, Any], shape: Callable[[Any], None] | None = None, **names: str
) -> dict[str, Any]:
    """A one-sheet workbook of ``cells``, shaped further by ``shape(workbook)``, calc'd; every
    cell's cached value, and the reasons of the errors under "reasons"."""
    path = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for ref, value in cells.items():
        ws[ref] = value
    for name, text in names.items():
        wb.defined_names[name] = DefinedName(name, attr_text=text)
    if shape is not None:
        shape(wb)
    wb.save(path)
    report = calc(path, tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    out: dict[str, Any] = {c.coordinate: c.value for c in got._cells.values()}
    out["reasons"] = {e.where.split("!")[-1]: e.text for e in report.errors}
    return out


# ------------------------------------------------------------------------------ COMBIN, DOLLAR


def test_combin_and_dollar_as_microsoft_documents_them() -> None:
    """Microsoft's COMBIN page: COMBIN(8,2) is 28; DOLLAR page: DOLLAR(1234.567,2) "$1,234.57",
    DOLLAR(1234.567,-2) "$1,200", DOLLAR(-1234.567,-2) "($1,200)", DOLLAR(-0.123,4) "($0.1230)",
    DOLLAR(99.888) "$99.89". Both answered #NAME? (formulas has neither)."""
    assert evaluate("=COMBIN(8,2)") == 28
    assert isinstance(evaluate("=COMBIN(2,3)"), ReasonedError) and str(evaluate("=COMBIN(2,3)")) == "#NUM!"
    assert str(evaluate('=COMBIN("a",1)')) == "#VALUE!"
    examples = {
        "=DOLLAR(1234.567,2)": "$1,234.57",
        "=DOLLAR(1234.567,-2)": "$1,200",
        "=DOLLAR(-1234.567,-2)": "($1,200)",
        "=DOLLAR(-0.123,4)": "($0.1230)",
        "=DOLLAR(99.888)": "$99.89",
    }
    assert {f: evaluate(f) for f in examples} == examples


# ------------------------------------------------------------------------------------ YEARFRAC

# PhpSpreadsheet's tests/data/Calculation/DateTime/YEARFRAC.php (values Excel gives): expected,
# start, end, basis. formulas' own YEARFRAC answered 8 of them otherwise (basis 1 across a year).
YEARFRAC_CASES = """
0.025 2007-1-10 2007-1-1 0
0.02465753424658 2007-1-1 2007-1-10 1
1.01111111111111 2007-1-1 2007-12-31 2
0.99722222222222 2007-1-1 2007-12-31 4
1.49658002735978 2007-1-1 2008-7-1 1
0.08055555555556 2007-1-1 2007-1-31 4
0.08611111111111 2007-1-31 2007-3-1 0
0.07945205479452 2007-1-31 2007-3-1 1
0.08611111111111 2007-1-31 2007-3-1 4
0.16666666666667 2007-1-31 2007-3-31 0
0.66666666666667 2008-1-1 2008-9-1 1
0.66849315068493 2008-1-1 2008-9-1 3
1.16279069767442 2007-2-1 2008-4-1 1
47.5216225276567 1960-12-19 2008-6-28 1
25.5571892111134 1982-12-7 2008-6-28 1
25.9305555555556 1982-12-7 2008-6-28 2
0.163934426 1960-01-01 1960-03-01 1
0.161643836 1963-03-01 1963-01-01 1
1.086183311 1960-01-01 1961-02-01 1
1.083447332 1963-01-01 1964-02-01 1
1.162790698 1963-01-01 1964-03-01 1
0.841530055 2020-02-28 2021-01-01 1
0.764383562 2020-03-28 2021-01-01 1
0.841530055 2023-04-28 2024-03-01 1
0.838797814 2023-04-28 2024-02-29 1
0.838356164 2023-04-28 2024-02-28 1
0.753424658 2023-04-28 2024-01-28 1
1.0 2020-01-01 2021-01-01 1
0.99726776 2020-02-28 2021-02-27 1
1.082191781 2022-04-28 2023-05-28 1
1.002739726 2022-04-27 2023-04-28 1
0.084699454 2024-04-27 2024-05-28 1
2.085766423 2023-04-27 2025-05-28 1
"""


def _serial(text: str) -> int:
    return (datetime.date(*map(int, text.split("-"))) - datetime.date(1899, 12, 30)).days


def test_yearfrac_as_excel_computes_it() -> None:
    wrong = []
    for case in YEARFRAC_CASES.strip().splitlines():
        expected, start, end, basis = case.split()
        got = evaluate(f"=YEARFRAC({_serial(start)},{_serial(end)},{basis})")
        if got != pytest.approx(float(expected), abs=1e-9):
            wrong.append(f"{case}: {got}")
    assert wrong == []


def test_yearfrac_end_of_february_on_basis_0() -> None:
    """Microsoft's YEARFRAC page: YEARFRAC(2012-1-1, 2012-7-30) is 0.58055556 on basis 0,
    0.57650273 on basis 1, 0.57808219 on basis 3. Basis 0 counts a start on the last day of
    February as the 30th, and an end on the last day of February then too (Excel's US 30/360;
    POI's YearFracCalculator): 2007-02-28 to 2008-02-29 is one year; a basis of 5 is #NUM!."""
    assert evaluate("=YEARFRAC(40909,41120)") == pytest.approx(0.58055556, abs=1e-8)
    assert evaluate("=YEARFRAC(40909,41120,1)") == pytest.approx(0.57650273, abs=1e-8)
    assert evaluate("=YEARFRAC(40909,41120,3)") == pytest.approx(0.57808219, abs=1e-8)
    assert evaluate(f"=YEARFRAC({_serial('2007-2-28')},{_serial('2008-2-29')},0)") == 1
    assert str(evaluate("=YEARFRAC(40909,41120,5)")) == "#NUM!"


def test_yearfrac_in_a_1904_workbook_counts_from_1904(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": a 1904 serial is 1,462 lower than the 1900 serial of
    the same date. YEARFRAC answered #VALUE! there; now the dates are read in their system."""

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    got = _book(tmp_path, {"A1": 40909 - 1462, "A2": 41120 - 1462, "B1": "=YEARFRAC(A1,A2,1)"}, mac)
    assert got["B1"] == pytest.approx(0.57650273, abs=1e-8)


def test_date_functions_of_a_1904_workbook_read_and_make_its_dates(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": serial 0 of the 1904 system is 1904-01-01, so
    2012-01-01 is 40909 - 1462. YEAR, MONTH, DAY, DATE, EDATE, EOMONTH, DAYS, DAYS360, DATEDIF and
    WORKDAY read and make dates of that system (they answered #VALUE! naming it); a function that
    would need more (TEXT of a date) still answers that error, never a date 4 years off."""

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    cells: dict[str, Any] = {"A1": 40909 - 1462, "B1": "=YEAR(A1)*10000+MONTH(A1)*100+DAY(A1)"}
    cells |= {"B2": "=DATE(2012,1,1)", "B3": "=EOMONTH(A1,1)", "B4": "=EDATE(A1,-1)", "B5": "=DATE(1903,12,31)"}
    cells |= {"B6": "=DAYS360(A1,B3)", "B7": '=DATEDIF(A1,B3,"D")', "B8": "=WORKDAY(A2,1,A3)", "B9": "=YEAR(C1)"}
    cells |= {"B10": '=TEXT(A1,"yyyy")', "A2": 40910 - 1462, "A3": 40911 - 1462}  # Monday 2012-01-02, a holiday
    got = _book(tmp_path, cells, mac)
    assert (got["B1"], got["B2"], got["B3"], got["B4"]) == (20120101, 40909 - 1462, 40968 - 1462, 40878 - 1462)
    assert (got["B5"], got["B6"], got["B7"], got["B8"], got["B9"]) == ("#NUM!", 58, 59, 40912 - 1462, 1904)
    assert got["B10"] == "#VALUE!" and "1904" in got["reasons"]["B10"]


# ------------------------------------------------------------------------ SUBTOTAL, AGGREGATE


def _hide(*rows: int, autofilter: str = "") -> Callable[[Any], None]:
    def shape(wb: Any) -> None:
        for row in rows:
            wb.active.row_dimensions[row].hidden = True
        if autofilter:
            wb.active.auto_filter.ref = autofilter

    return shape


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
    got = _book(tmp_path, cells, _hide(4))
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
    got = _book(tmp_path, cells)
    assert (got["B1"], got["B3"]) == (got["B2"], got["B4"])


def test_subtotal_over_rows_a_filter_may_hide_names_the_case(tmp_path: Path) -> None:
    """Microsoft's SUBTOTAL page: "SUBTOTAL ignores any rows that are not included in the result of
    a filter, no matter which function_num": a hidden row under a filter may be filtered out or
    hidden by hand, which only Excel tells apart, so 1-11 answer an error naming it; 101-111
    leave it out either way."""
    cells: dict[str, Any] = {"A1": "n", "A2": 1, "A3": 2, "A4": 4}
    cells |= {"B1": "=SUBTOTAL(9,A2:A4)", "B2": "=SUBTOTAL(109,A2:A4)"}
    got = _book(tmp_path, cells, _hide(3, autofilter="A1:A4"))
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
    got = _book(tmp_path, cells, _hide(2))
    assert (got["C1"], got["C2"], got["C3"], got["C4"]) == (96, 72, "#VALUE!", 68)
    assert (got["C5"], got["C6"], got["C7"], got["C8"], got["C9"]) == (177, "#DIV/0!", 10, 5, 89)


# -------------------------------------------------------------------------------- OFFSET


def _grid() -> dict[str, Any]:
    """B2:F8 holding 10*row + column (B2 is 22), so each cell names itself."""
    return {f"{c}{r}": 10 * r + i + 2 for r in range(2, 9) for i, c in enumerate("BCDEF")}


def test_offset_as_microsoft_documents_it(tmp_path: Path) -> None:
    """Microsoft's OFFSET page: OFFSET(D3,3,-2,1,1) is the value of B6; SUM(OFFSET(D3:F5,3,-2,3,3))
    sums B6:D8; OFFSET(D3,-3,-3) is #REF! (off the sheet). Height and width left out or empty
    are the reference's (POI's FormulaEvalTestData, Excel's cached values)."""
    cells = _grid() | {
        "H1": "=OFFSET(D3,3,-2,1,1)",
        "H2": "=SUM(OFFSET(D3:F5,3,-2,3,3))",
        "H3": "=OFFSET(D3,-3,-3)",
        "H4": "=SUM(OFFSET(B2:C3,1,1,,))",
        "H5": "=COUNTA(OFFSET(B2,0,0,7,5))",
        "H6": "=AVERAGE(OFFSET(B2:B8,0,1))",
        "H7": "=INDEX(OFFSET(B2:F8,1,1),2,3)",
        "H8": "=MATCH(45,OFFSET(B2,2,0,1,5),0)",
        "H9": "=OFFSET(B2,-2,0)",
    }
    got = _book(tmp_path, cells)
    assert (got["H1"], got["H2"], got["H3"]) == (62, 62 + 63 + 64 + 72 + 73 + 74 + 82 + 83 + 84, "#REF!")
    assert (got["H4"], got["H5"], got["H6"]) == (33 + 34 + 43 + 44, 35, 53)
    assert (got["H7"], got["H8"], got["H9"]) == (45, 4, "#REF!")


def test_offset_reads_formula_cells_computed_after_it_would_be(tmp_path: Path) -> None:
    """The cells OFFSET lands on are known only when it runs: a formula cell there is computed
    first (A1 reads A5, whose formula reads A3), a reference from a corner to an OFFSET or INDIRECT
    reads every cell between (PhpSpreadsheet's issue 2778, Excel's cached 63), and an OFFSET that
    lands on itself answers a circular-reference error, never a number."""
    cells: dict[str, Any] = {"A1": "=OFFSET(A2,3,0)*2", "A3": 4, "A5": "=A3+1", "B1": "=SUM(B2:OFFSET(B2,2,0))"}
    cells |= {"B2": 1, "B3": "=A5", "B4": 3, "C1": "=OFFSET(C2,-1,0)", "D1": '=SUM(A3:INDIRECT("A"&5))'}
    cells |= {"E1": "=F1", "F1": "=IFERROR(E1,0)+1", "G1": "=IFERROR(OFFSET(D1,0,2),5)"}  # E1, F1: a circle
    got = _book(tmp_path, cells)
    assert (got["A1"], got["B1"], got["D1"]) == (10, 9, 9)
    assert got["C1"] == "#VALUE!" and "circular" in got["reasons"]["C1"]
    assert got["G1"] == "#VALUE!" and "circular" in got["reasons"]["G1"]


def test_indirect_of_a_cell_text_or_a_defined_name(tmp_path: Path) -> None:
    """INDIRECT of a text made at run time (a cell's text, ADDRESS) or of a defined name (PhpSpreadsheet's
    IndirectDefinedName.xlsx: INDIRECT("CURRENCY_EUR")); a text that names nothing is #REF!."""
    cells: dict[str, Any] = {"A1": 7, "A2": "A1", "B1": "=INDIRECT(A2)*2", "B2": "=INDIRECT(ADDRESS(1,1))"}
    cells |= {"B3": '=INDIRECT("Rate")', "B4": '=INDIRECT("no such")', "B5": "=SUM(INDIRECT(C1))", "C1": "A1:A1"}
    got = _book(tmp_path, cells, Rate="S!$A$1")
    assert (got["B1"], got["B2"], got["B3"], got["B4"], got["B5"]) == (14, 7, 7, "#REF!", 7)


def test_offset_of_a_whole_column_moves_all_of_it(tmp_path: Path) -> None:
    """A whole column is read as the cells present, but OFFSET moves all of it: SUM(OFFSET(A:A,0,1))
    is the whole of column B (which is longer than A), OFFSET(A:A,1,0) runs over the sheet's edge
    (#REF!, Microsoft's OFFSET page). One cell's OFFSET of several cells is read by implicit
    intersection, as Excel does: none of B1:B2 is in row 5, so #VALUE! saying why."""
    cells: dict[str, Any] = {f"A{r}": r for r in range(1, 4)} | {f"B{r}": 10 * r for r in range(1, 7)}
    cells |= {"D1": "=SUM(OFFSET(A:A,0,1))", "D2": "=OFFSET(A:A,1,0)", "D5": "=OFFSET(A1,0,1,2,1)"}
    got = _book(tmp_path, cells)
    assert (got["D1"], got["D2"], got["D5"]) == (210, "#REF!", "#VALUE!")
    assert "implicit intersection" in got["reasons"]["D5"]


def test_a_range_between_two_references_reads_every_cell_between(tmp_path: Path) -> None:
    """``(A1):(A5)`` and ``INDEX(...):INDEX(...)`` (references joined by the range operator) are
    every cell from one corner to the other (formulas kept the corners alone), also filled down:
    B5 reads A1:A5 although its corners hold what B3's do (each cell's own range, not an answer
    kept for equal corners)."""
    cells: dict[str, Any] = {f"A{r}": v for r, v in enumerate([1, 2, 3, 4, 3], start=1)}
    cells |= {f"B{r}": f"=SUM(($A$1):(A{r}))" for r in range(1, 6)}
    cells |= {"C1": "=SUM(INDEX(A1:A5,2):INDEX(A1:A5,4))"}
    got = _book(tmp_path, cells)
    assert [got[f"B{r}"] for r in range(1, 6)] == [1, 3, 6, 10, 13]
    assert got["C1"] == 9


def test_indirect_of_a_name_relative_to_its_cell_names_the_case(tmp_path: Path) -> None:
    """A defined name with relative references (``S!A1`` without $) means another cell in each
    cell that uses it (Excel reads it from the active cell); INDIRECT of it answers an error naming
    it, never the value of the cell the name means from A1."""
    got = _book(tmp_path, {"A1": 1, "A2": 2, "B2": '=INDIRECT("Here")'}, Here="S!A1")
    assert got["B2"] == "#VALUE!" and "relative" in got["reasons"]["B2"]
