"""Workbooks made for a test of Excel's functions and calc'd: each cell's value as a file caches it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.workbook.defined_name import DefinedName

from excelcalc.workbook.calc import calc

__all__ = ["book", "hide"]


def book(
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


def hide(*rows: int, autofilter: str = "") -> Callable[[Any], None]:
    def shape(wb: Any) -> None:
        for row in rows:
            wb.active.row_dimensions[row].hidden = True
        if autofilter:
            wb.active.auto_filter.ref = autofilter

    return shape
