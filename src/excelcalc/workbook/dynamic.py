"""References made while a formula runs (OFFSET, INDIRECT of a cell's text) and what SUBTOTAL
and AGGREGATE read of the workbook (hidden rows, subtotal cells): the calculator's side of
``excelcalc.lib.sheets.Sheets``.

The calculator orders formula cells by the references written in them. A reference made at run
time may read a formula cell that comes later in that order: ``BookSheets.read`` then raises
``Pending`` with those cells, ``run_on_demand`` computes them first (and what they read) and runs
the formula again; a formula that needs itself this way answers a circular-reference error.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from excelcalc.backend import XlError
from excelcalc.lib.sheets import Area, Pending
from excelcalc.values import ReasonedError
from excelcalc.workbook.cells import col_letters
from excelcalc.workbook.references import resolve, resolve_text
from excelcalc.workbook.tables import NotComputed

if TYPE_CHECKING:
    from excelcalc.workbook.book import WorkbookCells
    from excelcalc.workbook.graph import Producers
    from excelcalc.workbook.runner import Runner

_SUBTOTAL = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:SUBTOTAL|AGGREGATE)\s*\(", re.IGNORECASE)


class BookSheets:
    """The workbook as the functions of ``excelcalc.lib.sheets`` read it, while the calculator runs."""

    def __init__(self, book: WorkbookCells, producers: Producers, runner: Runner, results: dict[int, Any]) -> None:
        self.book, self.producers, self.runner, self.results = book, producers, runner, results
        self.date1904 = book.date1904
        self.cell: tuple[int, int, int] | None = None
        self.home = 0  # the sheet of the formula running
        self._subtotals: set[tuple[int, int, int]] | None = None

    def running(self, pos: tuple[int, int, int], array: bool) -> None:
        self.home = pos[0]
        self.cell = None if array else pos

    def read(self, area: Area) -> Any:
        needed = [j for j in self.producers.within(area) if j not in self.results]
        if needed:
            raise Pending(needed)
        return self.runner.ranges(area)

    def resolve(self, text: str) -> Area | XlError:
        return resolve_text(self.book, self.home, text)

    def hidden(self, sheet: int, row: int) -> bool:
        return (sheet, row) in self.book.hidden_rows

    def filtered(self, sheet: int) -> bool:
        return sheet in self.book.filtered

    def subtotal(self, sheet: int, row: int, col: int) -> bool:
        if self._subtotals is None:
            self._subtotals = {f.pos for f in self.book.formulas if _SUBTOTAL.search(_outside_strings(f.text))}
        return (sheet, row, col) in self._subtotals

    def formula(self, sheet: int, row: int, col: int) -> tuple[str, bool] | None:
        i = self.producers.at.get((sheet, row, col))
        if i is None:
            return None
        f = self.book.formulas[i]
        if f.pos in self.book.spilling:  # a dynamic array: its formula is in its first cell only
            return (f.text, False) if f.pos == (sheet, row, col) else None
        return f.text, f.array


_ANCHOR = re.compile(
    r"_xlfn\.ANCHORARRAY\(\s*((?:'(?:[^']|'')*'|[^\s'!(),]+)!)?(\$?[A-Za-z]{1,3}\$?[0-9]{1,7})\s*\)", re.IGNORECASE
)
_SPILLS: weakref.WeakKeyDictionary[WorkbookCells, dict[tuple[int, int, int], tuple[int, int]]] = (
    weakref.WeakKeyDictionary()
)


def spilled(text: str, book: WorkbookCells, home: int) -> str:
    """``text`` with each ``_xlfn.ANCHORARRAY(D1)`` (``D1#``, Microsoft's "Spilled range operator")
    written as the range the array formula in D1 covers (``D1:D3``), so that the order of the
    formulas and the reading see the whole spilled range; formulas' parser read it as D1 alone
    (``SUM(D1#)`` answered D1). A cell that holds no array formula spilled nothing: #REF! naming it."""
    if "ANCHORARRAY" not in text.upper():
        return text
    spills = _SPILLS.get(book)
    if spills is None:
        spills = _SPILLS[book] = {f.pos: f.shape for f in book.formulas if f.array}
    parts = text.split('"')
    for k in range(0, len(parts), 2):  # outside strings
        parts[k] = _ANCHOR.sub(lambda m: _spill_range(m, book, home, spills), parts[k])
    return '"'.join(parts)


def _spill_range(m: re.Match[str], book: WorkbookCells, home: int, spills: dict[Any, tuple[int, int]]) -> str:
    prefix, cell = m.group(1) or "", m.group(2)
    at = resolve(book, home, prefix + cell)
    if isinstance(at, ReasonedError):
        raise NotComputed(str(at), at.reason)
    shape = spills.get(at[:3])
    if shape is None:
        raise NotComputed("#REF!", f"{prefix}{cell}# refers to the range spilled from {cell}, which spilled nothing")
    last = f"{col_letters(at[2] + shape[1] - 1)}{at[1] + shape[0] - 1}"
    return f"{prefix}{col_letters(at[2])}{at[1]}:{last}"


def _outside_strings(text: str) -> str:
    return "".join(text.split('"')[::2])


def run_on_demand(
    first: int,
    results: dict[int, Any],
    compute: Callable[[int], None],
    reads: Callable[[int], Iterable[int]],
    circular: Callable[[int], None],
    check: Callable[[], None],
    blocked: set[int] | frozenset[int] = frozenset(),
) -> None:
    """Compute formula ``first`` (``compute``), first any formula its run-time references need
    (``Pending``), and before each of those the formulas it reads (``reads``); a formula that needs
    one already waiting, or one on a circle of written references (``blocked``), answers a
    circular-reference error (``circular``)."""
    check()
    try:  # the usual case: nothing made at run time needs a formula not computed yet
        compute(first)
        return
    except Pending:
        pass
    stack = [first]
    waiting = {first, *blocked}
    while stack:
        check()
        top = stack[-1]
        needed = [] if top == first else [j for j in reads(top) if j not in results]
        if not needed:
            try:
                compute(top)
            except Pending as pending:
                needed = [j for j in dict.fromkeys(pending.needed) if j not in results]
        if not needed or any(j in waiting for j in needed):
            if needed:
                circular(top)
            stack.pop()
            waiting.discard(top)
            continue
        stack.extend(needed)
        waiting.update(needed)
