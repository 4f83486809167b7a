"""The cells of a workbook as the calculator holds them: ``WorkbookCells`` (values, formula cells,
defined names, tables, extents, hidden rows) and ``FormulaCell``.

A workbook is read by ``reading`` (the sheets' XML, or openpyxl for what that reader leaves);
this module owns what is kept of it and the questions asked of it later: the cells a whole-column
range can hold (``trimmed``), what a defined name stands for (``name``). It refuses a workbook
whose sheet names differ only by case or whose array formulas cover too many cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from excelcalc.backend import error
from excelcalc.values import ReasonedError
from excelcalc.workbook.cells import CELL as _CELL
from excelcalc.workbook.cells import (
    ERROR_CODES,
    MAX_COL,
    MAX_ROW,
    ComputeError,
    col_letters,
    col_number,
    quote_sheet,
    sheet_key,
)
from excelcalc.workbook.reading import Unusual, read_openpyxl, read_xml
from excelcalc.workbook.references import scoped_name
from excelcalc.workbook.tables import ExcelTable

__all__ = ["MAX_ARRAY_CELLS", "MAX_FORMULAS", "FormulaCell", "Pos", "Ref", "WorkbookCells"]

MAX_ARRAY_CELLS = 2_000_000  # cells of array formulas' ranges (as many as a sheet may hold)
# formula cells of a workbook: a calc holds about 700 bytes for each (its cell, program's place,
# answer and the key written), 1M of ="" took 750 MB; more is refused as soon as it is read
MAX_FORMULAS = 1_000_000

Ref = tuple[int, int, int, int, int]  # (sheet index, r1, c1, r2, c2)
Pos = tuple[int, int, int]  # (sheet index, row, column)


@dataclass(slots=True)
class FormulaCell:
    """A formula cell as read, and what preparing it found: its program and references, or a problem."""

    pos: Pos
    text: str  # as written
    shape: tuple[int, int] = (1, 1)  # rows, columns of an array formula's range
    prog: Any = None
    refs: tuple[Ref, ...] = ()  # a tuple: a formula of none shares the empty one (a list was 56 bytes a cell)
    problem: ReasonedError | None = None  # a reason known before running (unknown sheet, external)
    array: bool = False  # an array formula (Ctrl+Shift+Enter, or a spilled one): no implicit intersection


class WorkbookCells:
    """The cells of a workbook that exist, by sheet index, row and column."""

    def __init__(self, path: Path, parts: dict[str, bytes] | None = None) -> None:
        self.titles: list[str] = []
        self.values: dict[Pos, Any] = {}
        self.formulas: list[FormulaCell] = []
        self.extent: list[tuple[int, int]] = []  # (last row, last column) holding a cell, per sheet
        self.col_last: dict[tuple[int, int], int] = {}  # (sheet, column) -> last row holding a cell
        # sheet -> row -> last column holding a cell: a dict a sheet, keys of one int (a sheet of 1M
        # rows: 64 MB less than a (sheet, row) key each)
        self.row_last: dict[int, dict[int, int]] = {}
        self.names: dict[tuple[int | None, str], str] = {}
        self.tables: dict[str, ExcelTable] = {}  # Excel tables by name (upper case), for structured references
        self.array_cells = 0  # cells of array formulas' ranges
        self.spilling: set[Pos] = set()  # array formulas Excel 365 spills (not Ctrl+Shift+Enter ones)
        self.date1904 = False  # the workbook counts days from 1904 (Excel for Mac's old default)
        self.hidden_rows: set[tuple[int, int]] = set()  # (sheet, row) of rows hidden (SUBTOTAL 101-111)
        self.filtered: set[int] = set()  # sheets with a filter or a table, which may hide rows
        try:
            read_xml(self, path, parts)
        except (Unusual, IndexError, ValueError, KeyError):  # what the quick reader does not know: openpyxl
            read_openpyxl(self, path)
        self.by_key = {sheet_key(t): i for i, t in enumerate(self.titles)}
        if len(self.by_key) < len(self.titles):  # Excel refuses such names; a file can still hold them
            seen: dict[str, str] = {}
            for t in self.titles:
                if sheet_key(t) in seen:
                    raise ComputeError(
                        f"refused: the sheets {seen[sheet_key(t)]!r} and {t!r} differ only by case; Excel reads "
                        "them as one name, so a reference to either is ambiguous. Rename one"
                    )
                seen[sheet_key(t)] = t

    def clear(self) -> None:
        """Forget every cell read (before reading the workbook again, with openpyxl)."""
        self.titles, self.values, self.formulas, self.extent = [], {}, [], []
        self.col_last, self.row_last, self.names, self.tables = {}, {}, {}, {}
        self.array_cells = 0
        self.hidden_rows, self.filtered = set(), set()

    def add(self, s: int, row: int, col: int, data_type: str, value: Any) -> None:
        """One cell present in the file (a value of None: a cell with a style only)."""
        if row > self.col_last.get((s, col), 0):
            self.col_last[(s, col)] = row
        rows = self.row_last.get(s) or self.row_last.setdefault(s, {})
        if col > rows.get(row, 0):
            rows[row] = col
        self.put((s, row, col), data_type, value)

    def put(self, pos: Pos, data_type: str, value: Any) -> None:
        """The content of a cell whose place ``col_last`` and ``row_last`` already count (``add``,
        ``reading``)."""
        if value is None or (data_type == "f" and value == "="):  # "=": openpyxl's empty <f/>, no formula
            return
        if data_type == "f":
            self._formula(pos, value)
        elif data_type == "e" and isinstance(value, str) and value.upper() in ERROR_CODES:
            self.values[pos] = error(value.upper())
        else:  # a number as the file holds it: Excel computes with the whole double it saved (POI's
            self.values[pos] = value  # FormulaEvalTestData: FV of -17406.785214815642 to the last digit)

    def formula_cell(self, pos: Pos, text: str) -> None:
        """A formula cell whose place ``col_last`` and ``row_last`` already count, as ``put`` stores its
        text (``"=..."``): the reader's path for the formula cells of a sheet (200,000: 40 ms less)."""
        formulas = self.formulas
        if len(formulas) >= MAX_FORMULAS or text == "=":  # refused, or no formula: as ``put`` does
            self.put(pos, "f", text)
            return
        formulas.append(FormulaCell(pos, text[1:] if text.startswith("==") else text))

    def count_extents(self) -> None:
        """The last row and column holding a cell, per sheet, from ``col_last`` (once all is read)."""
        extent = [(0, 0)] * len(self.titles)
        for (s, col), row in self.col_last.items():
            r, c = extent[s]
            extent[s] = (max(r, row), max(c, col))
        self.extent = extent

    def _formula(self, pos: Pos, value: Any) -> None:
        if len(self.formulas) >= MAX_FORMULAS:
            raise ComputeError(
                f"refused: it holds more than {MAX_FORMULAS:,} formula cells (computing them would take more "
                "than 1 GB of memory); nothing was written. Split the workbook"
            )
        if isinstance(value, str):
            self.formulas.append(FormulaCell(pos, value[1:] if value.startswith("==") else value))
            return
        text = getattr(value, "text", None)
        ref = getattr(value, "ref", None)
        if type(value).__name__ in ("ArrayFormula", "_ArrayFormula") and isinstance(text, str) and isinstance(ref, str):
            r = _area(ref)
            shape = (r[2] - r[0] + 1, r[3] - r[1] + 1) if r else (1, 1)
            self.array_cells += shape[0] * shape[1]
            where = f"{quote_sheet(self.titles[pos[0]])}!{col_letters(pos[2])}{pos[1]}"
            if r and (r[2] > MAX_ROW or r[3] > MAX_COL):  # Excel cannot hold it: the file is damaged
                raise ComputeError(
                    f"refused: the array formula at {where} covers {ref}, past the sheet's last row "
                    f"({MAX_ROW:,}) or column (XFD); nothing was written"
                )
            if self.array_cells > MAX_ARRAY_CELLS:  # each cell of the range is computed and written
                raise ComputeError(
                    f"refused: its array formulas cover more than {MAX_ARRAY_CELLS:,} cells "
                    f"(the one at {where} covers {shape[0] * shape[1]:,}); nothing was written"
                )
            self.formulas.append(FormulaCell(pos, text, shape, array=True))
            if getattr(value, "spills", False):
                self.spilling.add(pos)
            return
        f = FormulaCell(pos, "=" + type(value).__name__)
        f.problem = ReasonedError("#VALUE!", "a data table (What-If Analysis) is not computed outside Excel")
        self.formulas.append(f)

    def trimmed(self, ref: Ref) -> tuple[int, int]:
        """The last row and column of a range that can hold a cell: a whole column (A:A) or row (1:1)
        reads the cells that exist, so memory follows the cells, never the sheet's size."""
        s, r1, c1, r2, c2 = ref
        last_r, last_c = self.extent[s]
        if r2 - r1 + 1 >= MAX_ROW:
            if c2 - c1 < 1024:
                last_r = max((self.col_last.get((s, c), 0) for c in range(c1, c2 + 1)), default=0)
            r2 = max(r1, min(r2, last_r))
        if c2 - c1 + 1 >= MAX_COL:
            if r2 - r1 < 1024:
                rows = self.row_last.get(s, {})
                last_c = max((rows.get(r, 0) for r in range(r1, r2 + 1)), default=0)
            c2 = max(c1, min(c2, last_c))
        return r2, c2

    def name(self, sheet: int, text: str) -> str | None:
        """What the defined name ``text`` stands for in sheet ``sheet`` (its own name first), or None;
        ``Sheet2!Name``, a name of another sheet's, as ``references.scoped_name`` reads it."""
        if "!" in text:
            return scoped_name(self, text)
        key = text.upper()
        found = self.names.get((sheet, key))
        return found if found is not None else self.names.get((None, key))


def _area(ref: str) -> tuple[int, int, int, int] | None:
    """ "B2:C9" -> (2, 2, 9, 3): rows and columns, first and last."""
    first, _, last = ref.replace("$", "").partition(":")
    m1, m2 = _CELL.match(first), _CELL.match(last or first)
    if not m1 or not m2:
        return None
    r1, r2 = sorted((int(m1.group(4)), int(m2.group(4))))
    c1, c2 = sorted((col_number(m1.group(2)), col_number(m2.group(2))))
    return r1, c1, r2, c2
