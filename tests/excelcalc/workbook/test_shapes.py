"""A filled-down column's formulas placed by arithmetic (``shapes.ColumnRun``): each cell gets the
program and references ``prepare_cell`` derives for it alone, and the column's shape is derived once
per run of cells, not once per cell (counted, never timed)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl

from excelcalc.formula import functions
from excelcalc.workbook.book import WorkbookCells
from excelcalc.workbook.shapes import ColumnRun, FormulaShape, prepare_cell

ROWS = 130  # rows 2..131: the row numbers cross 9 -> 10 and 99 -> 100 (one digit more)

# per column, the formula of row r (each filled down, as a program writes them)
COLUMNS: dict[str, Callable[[int], str]] = {
    "D": lambda r: f"=B{r}",
    "E": lambda r: f"=B{r}*$C$1+B{r - 1}",  # one reference leaves the sheet in row 2 (B1 is row 1: stays)
    "F": lambda r: f"=SUM(B$2:B{r})",  # a range
    "G": lambda r: f'=IF(B{r}>5,"B{r}",C{r})&"x9"',  # a reference in a string: not a reference
    "H": lambda r: f"=Other!B{r}+Other!$A$1",  # another sheet
    "I": lambda r: f"=B{r + 3}*2.5+B{r - 1}",  # two row offsets, each with its own width
    "J": lambda r: f"=B{r}" if r % 3 else f"=C{r}",  # shapes that change every few rows
    "K": lambda r: f"=B{r - 2}",  # leaves the sheet in row 2 (B0): its cell's problem, as alone
    "L": lambda r: f"=Other!B{r}:B{r + 1}",  # a range of another sheet ("!" and ":")
    "M": lambda r: f'=INDIRECT("B{r}")+B{r}',  # a reference read from a text
}


def _book(tmp_path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    other = wb.create_sheet("Other")
    ws["C1"] = 2
    for r in range(2, ROWS + 2):
        ws[f"B{r}"], ws[f"C{r}"], other[f"B{r}"] = r, r * 10, -r
        for col, formula in COLUMNS.items():
            ws[f"{col}{r}"] = formula(r)
    path = tmp_path / "columns.xlsx"
    wb.save(path)
    return path


def _prepared(path: Path, quick: bool) -> tuple[list[tuple[object, ...]], dict[tuple[int, int], ColumnRun]]:
    functions()
    book = WorkbookCells(path)
    shapes: dict[tuple[int, str], FormulaShape | None] = {}
    runs: dict[tuple[int, int], ColumnRun] = {}
    for f in book.formulas:
        prepare_cell(book, f, shapes, runs if quick else None)
    return [(f.pos, f.text, id(f.prog), f.refs, f.problem and f.problem.text) for f in book.formulas], runs


def test_a_column_run_places_each_cell_as_the_cell_alone_is_placed(tmp_path: Path) -> None:
    path = _book(tmp_path)
    alone, _ = _prepared(path, quick=False)
    quick, _ = _prepared(path, quick=True)
    assert quick == alone
    assert len(alone) == ROWS * len(COLUMNS)


def test_a_filled_down_column_derives_its_shape_once_per_width_of_its_rows(tmp_path: Path) -> None:
    """200,000 ``=B2`` filled down derived their shape 200,000 times (0.54 s of a calc's CPU): a run
    now places every cell whose row numbers have as many digits as the run's first cell's."""
    _, runs = _prepared(_book(tmp_path), quick=True)
    by_col = {openpyxl.utils.get_column_letter(col): run for (_, col), run in runs.items()}
    # rows 100..131 of D: the run made at row 100 placed the 31 cells after it
    assert by_col["D"].hits == ROWS + 1 - 100
    assert by_col["F"].hits == ROWS + 1 - 100
    assert "M" not in by_col  # INDIRECT's text is placed by its text, cell by cell
