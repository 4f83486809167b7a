"""Compute every formula of an .xlsx file without Excel: the calculator's public entry.

One engine with ``excelcalc.formula.evaluate`` (Excel's functions and those an add-in
registered): each formula is prepared there (its references replaced by placeholders) and parsed
once per shape, so a filled-down column of 5,000 formulas is parsed once and run 5,000 times. The
calculator reads the cells that exist (never the declared sheet size), resolves each reference
relative to its cell, orders the formula cells by their dependencies (no recursion: a
100,000-long chain computes) and runs them over a plain value map. On top of that it

* never lets one bad formula stop the whole workbook: a formula that cannot be
  parsed answers ``#VALUE!``/``#NAME?`` with the reason, the rest computes;
* computes array formulas (Ctrl+Shift+Enter and Excel 365's spilled ones) over
  the range the file gives them;
* turns each answer into the value an .xlsx file caches next to its formula,
  and an error into the text the xlwings add-in shows in Excel
  (``#N/A No entry '6.1-9999' in the loaded results``);
* explains plain Excel errors that carry no reason (``=B5*(1+B7)`` with text in
  B7) from the cell's precedents, which were computed before it.

This module puts the steps together (``compute``) and turns the answers into ``Computed``. The
steps: ``reading`` (the package's sheets to cells) into ``book`` (the cells kept), ``references``
(A1 text and defined names), ``shapes`` (each formula prepared once per shape), ``graph`` (the
order), ``runner`` (running them, within the ``Deadline``), ``explain`` (reasons for plain errors)
and ``dynamic`` (references made at run time).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from excelcalc.backend import XlError
from excelcalc.formula import functions
from excelcalc.formula_text import normalize_formula
from excelcalc.values import ReasonedError
from excelcalc.workbook.book import WorkbookCells
from excelcalc.workbook.cells import (
    CellKey,
    Computed,
    ComputeError,
    ErrorCode,
    col_letters,
    col_number,
    sheet_key,
    to_shown,
)
from excelcalc.workbook.explain import bare
from excelcalc.workbook.graph import Producers, dependency_order
from excelcalc.workbook.references import EXTERNAL
from excelcalc.workbook.runner import Deadline, failed, run_all, store
from excelcalc.workbook.shapes import ColumnRun, FormulaShape, prepare_cell

__all__ = [
    "EXTERNAL",
    "MAX_SECONDS",
    "CellKey",
    "ComputeError",
    "Computed",
    "ErrorCode",
    "col_letters",
    "col_number",
    "compute",
    "normalize_formula",
    "sheet_key",
    "to_shown",
]

MAX_SECONDS = 600.0  # a workbook that takes longer is refused, nothing written (bounded time)


def compute(
    path: Path, seconds: float | None = None, parts: dict[str, bytes] | None = None, *, inputs: bool = True
) -> Computed:
    """Read ``path`` and compute every formula cell. Raises ComputeError for a workbook refused,
    also one that would take longer than ``seconds`` (default ``MAX_SECONDS``), checked inside a
    long formula too. ``parts``: the package ``read_package(path)`` gave, if read already.
    ``inputs``: ``Computed.values`` holds the other cells' values too (calc, which writes the
    formula cells only, leaves them out: 160 bytes a cell, 1M cells of numbers 500 MB -> 350 MB)."""
    functions()  # the catalogue is registered in the engine's function table
    with Deadline(MAX_SECONDS if seconds is None else seconds) as deadline:
        book = WorkbookCells(Path(path), parts)
        shapes: dict[tuple[int, str], FormulaShape | None] = {}
        runs: dict[tuple[int, int], ColumnRun] = {}
        for f in book.formulas:
            try:
                prepare_cell(book, f, shapes, runs)
            except Exception as exc:  # the engine's own failure on odd input: this cell says so
                f.problem = failed(exc)
            deadline.check()
        producers = Producers(book)
        order, circular = dependency_order(book, producers)
        results, reasons = run_all(book, producers, order, deadline, circular)
        del producers, order  # their memory free for the answers' (1M formulas: 100 MB)
        return _collect(book, results, reasons, circular, inputs)


def _collect(
    book: WorkbookCells, results: dict[int, Any], reasons: dict[int, str], circular: set[int], inputs: bool = True
) -> Computed:
    """The answers as ``Computed``: every cell's value, and each formula cell's cached value."""
    keys = [sheet_key(t) for t in book.titles]
    out = Computed(sheet_names=dict(zip(keys, book.titles, strict=True)))
    if not inputs:  # only array formulas' cells are read below: the others' memory free for the answers
        arrays = {
            (f.pos[0], r, c): book.values.get((f.pos[0], r, c))
            for f in book.formulas
            if f.shape != (1, 1)
            for r in range(f.pos[1], f.pos[1] + f.shape[0])
            for c in range(f.pos[2], f.pos[2] + f.shape[1])
        }
        book.values = arrays
    texts, answers, shown = out.formulas, out.values, out.shown
    for i, f in enumerate(book.formulas):
        s, row, col = f.pos
        key = (keys[s], f"{col_letters(col)}{row}")
        texts[key] = f.text
        f.refs, f.prog = (), None  # run: its references' memory free for the answers (1M =A2...: 150 MB)
        if circular and i in circular:
            results[i] = store(book, f, ReasonedError("#VALUE!", "not computed (a circular reference?)"))
        if f.shape == (1, 1):  # most formula cells: the key made once, the answer shown at once
            answers[key] = v = results[i]
            kind = type(v)
            if kind is int or kind is str or kind is bool or (kind is float and math.isfinite(v)):
                shown[key] = v  # as to_shown shows them, without the call (200,000 answers: 60 ms)
            elif not isinstance(v, XlError | list):
                shown[key] = to_shown(v)  # a number or text: no error to report
            else:
                _show(out, key, v, reasons.get(i))
            continue
        out.arrays[key] = f"{key[1]}:{col_letters(col + f.shape[1] - 1)}{row + f.shape[0] - 1}"
        for r in range(row, row + f.shape[0]):
            for c in range(col, col + f.shape[1]):
                _show(out, (keys[s], f"{col_letters(c)}{r}"), book.values.get((s, r, c)), reasons.get(i))
    # the other cells after the formula cells, whose keys are kept (a key made again for a formula
    # cell is dropped at once: one key a formula cell, not two, 110 MB less for 1M formulas)
    values = out.values
    for (s, r, c), v in book.values.items() if inputs else ():
        values.setdefault((keys[s], f"{col_letters(c)}{r}"), v)
    return out


def _show(out: Computed, key: CellKey, v: Any, reason: str | None) -> None:
    """A formula cell's cached value (and its error for the report) into ``out``; ``reason``: one
    found for a plain error."""
    if isinstance(v, list):
        v = v[0][0] if v and v[0] else None
    if isinstance(v, XlError):
        if reason and not isinstance(v, ReasonedError):
            v = ReasonedError(str(v), reason)
        out.errors[key] = v.text if isinstance(v, ReasonedError) else bare(v)
    out.shown[key] = to_shown(v)
