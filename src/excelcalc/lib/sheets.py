"""The workbook as Excel's functions read it beyond their arguments' values, while a formula runs.

SUBTOTAL and AGGREGATE (``lib.math``: which cells are subtotals, which rows are hidden), OFFSET,
INDIRECT and the range operator (``lib.lookup``: a reference made while the formula runs) and the
date functions of a 1904 workbook (``lib.datetime``) read it through ``Sheets``, which the workbook
calculator (``excelcalc.workbook.dynamic``) provides while it runs a formula (``use``/``reset``).
``Sheets.read`` may find formula cells not computed yet (a reference made at run time has no place
in the order the calculator made beforehand): it then raises ``Pending``, the calculator computes
those first and runs the formula again. Without a workbook (``formula.evaluate``) there is none:
``current()`` is None and those functions answer an error.
"""

from __future__ import annotations

import contextvars
from collections.abc import Sequence
from typing import Any, Protocol

from excelcalc.backend import Ranges, XlError

__all__ = ["FULL", "Area", "Pending", "Sheets", "area_of", "current", "reset", "use"]

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

    def formula(self, sheet: int, row: int, col: int) -> tuple[str, bool] | None:
        """The formula of a cell as the file holds it (``=...``) and whether it is an array formula
        entered with Ctrl+Shift+Enter covering the cell; None for a cell without a formula, a cell a
        dynamic array spills into among them (FORMULATEXT)."""


_CURRENT: contextvars.ContextVar[Sheets | None] = contextvars.ContextVar("excelcalc_sheets", default=None)


def current() -> Sheets | None:
    return _CURRENT.get()


def use(sheets: Sheets | None) -> contextvars.Token[Sheets | None]:
    """Make ``sheets`` the workbook the functions read (``reset`` with the token it gives)."""
    return _CURRENT.set(sheets)


def reset(token: contextvars.Token[Sheets | None]) -> None:
    _CURRENT.reset(token)


FULL = "excelcalc_full"  # key of a range's parts: (r2, c2) of a whole column or row read as its cells present


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
