"""Running totals filled down (issue 30): ``=A2+SUM($A$2:$A$N)`` and ``=A2+SUM($A$2:A2)`` read
their range from every row. Each range was built anew for its reader and summed cell by cell:
the work grew with the square of the rows (10,000 rows took 25-31 s). The growth is measured by
the count of Python operations (function calls, profiled), not by the clock."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from excelcalc.workbook.calc import calc


def _book(path: Path, rows: int, formula: str, numeric_text: bool = False) -> Path:
    """``formula`` filled down beside column A: numbers, every 7th a text (or, ``numeric_text``, numbers
    repeating and every 5th cell a text that reads as one, "12", as a column pasted from a report)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for r in range(2, rows + 2):
        if numeric_text:
            ws[f"A{r}"] = str(r % 97) if r % 5 == 0 else r % 97
        else:
            ws[f"A{r}"] = r if r % 7 else "text"
        ws[f"B{r}"] = formula.format(r=r, last=rows + 1)
    wb.save(path)
    return path


def _operations(path: Path, out: Path) -> int:
    """The Python and C function calls of a calc of ``path``."""
    count = 0

    def profile(_frame: Any, event: str, _arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    calc(path, out)  # the engine loaded, its functions imported: the same for both sizes
    sys.setprofile(profile)
    try:
        calc(path, out)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("formula", ["=A{r}+SUM($A$2:$A${last})", "=A{r}+SUM($A$2:A{r})", "=SUM($A$2:A{r})*2"])
def test_a_running_total_grows_linearly(formula: str, tmp_path: Path) -> None:
    small = _operations(_book(tmp_path / "small.xlsx", 300, formula), tmp_path / "o1.xlsx")
    large = _operations(_book(tmp_path / "large.xlsx", 1200, formula), tmp_path / "o2.xlsx")
    assert large / small < 5.5, f"{small:,} operations for 300 rows, {large:,} for 1,200 (4x the rows)"


RUNNING = [
    "=COUNTIF($A$2:A{r},A{r})",
    '=COUNTIF($A$2:A{r},">5")',
    '=SUMIF($A$2:A{r},">5")',
    "=SUMIF($A$2:A{r},A{r})",
    "=SUMIF($A$2:A{r},A{r},$A$2:A{r})",
    "=MAX($A$2:A{r})",
    "=MIN($A$2:A{r})",
    "=AVERAGE($A$2:A{r})",
    "=COUNT($A$2:A{r})",
    "=SUMPRODUCT($A$2:A{r},$A$2:A{r})",
]


@pytest.mark.parametrize("formula", RUNNING)
def test_a_running_aggregate_grows_linearly(formula: str, tmp_path: Path) -> None:
    """Issue 41: COUNTIF, SUMIF, MAX, MIN, AVERAGE, COUNT and SUMPRODUCT over ``$A$2:Ai`` filled down grew
    with the square of the rows (14-15x the operations for 4x the rows; COUNTIF of 10,000 rows 81 s)."""
    small = _operations(_book(tmp_path / "small.xlsx", 300, formula), tmp_path / "o1.xlsx")
    large = _operations(_book(tmp_path / "large.xlsx", 1200, formula), tmp_path / "o2.xlsx")
    assert large / small < 5, f"{small:,} operations for 300 rows, {large:,} for 1,200 (4x the rows)"


@pytest.mark.parametrize("formula", ["=COUNTIF($A$2:A{r},A{r})", "=SUMIF($A$2:A{r},A{r})"])
def test_a_running_count_by_value_over_numeric_text_grows_linearly(formula: str, tmp_path: Path) -> None:
    """Issue 41: COUNTIF with a number criterion over a column holding texts that read as numbers counts
    those texts too (formulas' COUNTIF, as Excel's), and was computed anew for each row's criterion: the
    square of the rows. Growth by the count of operations for 4x the rows (linear is 4)."""
    small = _operations(_book(tmp_path / "small.xlsx", 300, formula, True), tmp_path / "o1.xlsx")
    large = _operations(_book(tmp_path / "large.xlsx", 1200, formula, True), tmp_path / "o2.xlsx")
    assert large / small < 5, f"{small:,} operations for 300 rows, {large:,} for 1,200 (4x the rows)"


def test_a_running_total_answers_as_summed_cell_by_cell(tmp_path: Path) -> None:
    """The running sums equal SUM of each range added left to right (texts ignored, an error the
    answer from its row on)."""
    path = _book(tmp_path / "in.xlsx", 40, "=SUM($A$2:A{r})")
    wb = openpyxl.load_workbook(path)
    ws = wb["S"]
    ws["A20"] = 0.1
    ws["A21"] = 0.2
    ws["A30"] = "=1/0"
    ws["C2"] = "=SUM($A$2:$A$41)"
    ws["C3"] = "=SUM($A$2:$A$25)+SUM($A$2:$A$25)"
    wb.save(path)
    calc(path, tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    total = 0.0
    for r in range(2, 42):
        v = 0.1 if r == 20 else 0.2 if r == 21 else (r if r % 7 else None)
        if r >= 30:
            assert got[f"B{r}"].value == "#DIV/0!", r
            continue
        total += v if isinstance(v, float | int) and r != 30 else 0.0
        assert got[f"B{r}"].value == total, r
    assert got["C2"].value == "#DIV/0!"
    assert got["C3"].value == 2 * got["B25"].value


# XLOOKUP as Excel stores it, "_xlfn.XLOOKUP" (openpyxl writes the text as given; without the prefix
# Excel, and calc, answer #NAME?)
LOOKUPS = {
    "C": "=VLOOKUP(A{r},$A$2:$B${last},2,FALSE)",
    "D": "=INDEX($B$2:$B${last},MATCH(A{r},$A$2:$A${last},0))",
    "E": "=_xlfn.XLOOKUP(A{r},$A$2:$A${last},$B$2:$B${last})",
    "F": "=_xlfn.XLOOKUP(A{r}+0.5,$A$2:$A${last},$B$2:$B${last},,-1)",
    "G": "=MATCH(A{r},$A$2:A{r},0)",
}


def _lookups(path: Path, rows: int) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for r in range(2, rows + 2):
        ws[f"A{r}"] = (r * 7919) % (rows + 1)  # keys in no order, each once
        ws[f"B{r}"] = f"v{r}"
        for col, formula in LOOKUPS.items():
            ws[f"{col}{r}"] = formula.format(r=r, last=rows + 1)
    wb.save(path)
    return path


def test_lookups_grow_linearly(tmp_path: Path) -> None:
    """Issue 41: an exact-match VLOOKUP, INDEX/MATCH and XLOOKUP over a range, and XLOOKUP's next
    smaller value, each from every row, scanned the range for each look-up (rows x look-ups: 3.8 ms
    each over 5,000 rows); from an index built once per range they grow with the rows."""
    small = _operations(_lookups(tmp_path / "small.xlsx", 300), tmp_path / "o1.xlsx")
    large = _operations(_lookups(tmp_path / "large.xlsx", 1200), tmp_path / "o2.xlsx")
    assert large / small < 5.5, f"{small:,} operations for 300 rows, {large:,} for 1,200 (4x the rows)"


def test_lookups_answer_as_excel(tmp_path: Path) -> None:
    """Each look-up finds its own row: VLOOKUP, INDEX/MATCH and XLOOKUP the row of the key (Microsoft's
    VLOOKUP, MATCH and XLOOKUP pages: an exact match finds the first equal value), XLOOKUP with
    match_mode -1 "exact match. If none found, return the next smaller item" the key's row again
    (keys are whole numbers, looked up + 0.5), MATCH over the rows above the key's first occurrence."""
    path = _lookups(tmp_path / "in.xlsx", 50)
    calc(path, tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    for r in range(2, 52):
        assert [got[f"{c}{r}"].value for c in "CDEF"] == [f"v{r}"] * 4, r
        assert got[f"G{r}"].value == r - 1, r


def test_a_bare_reference_reads_its_cell_without_a_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: 200,000 plain references ``=A2``, ``=A3``... took 1.44x LibreOffice's time, each building a
    one-cell range and running its program over it. A formula that is one cell's reference reads the
    cell's value: no range is made (counted), and each answers what it answered before: the number,
    the text, TRUE, the error, a blank cell's 0 (Microsoft: "a reference to an empty cell" is 0 in a
    formula), also through another sheet's name and parentheses."""
    from excelcalc.backend import make_range as real
    from excelcalc.workbook import runner

    made = 0

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal made
        made += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "make_range", counting)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    inputs = [5, "text", True, "=1/0", None, 2.5]
    for r, v in enumerate(inputs, 1):
        ws[f"A{r}"] = v
        ws[f"B{r}"] = f"=A{r}"
        ws[f"C{r}"] = f"=S!A{r}"
        ws[f"D{r}"] = f"=(A{r})"
    wb.save(tmp_path / "in.xlsx")
    report = calc(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    assert report.formulas == 3 * len(inputs) + 1
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    for col in "BCD":
        assert [got[f"{col}{r}"].value for r in range(1, 7)] == [5, "text", True, "#DIV/0!", 0, 2.5], col
    assert made == 0
