"""Error explanations: a reason for an error that carries none, found where it came from.

A plain Excel error (``=B5*(1+B7)`` answering #VALUE! with text in B7) gets a reason from the
cell's precedents, computed before it (``explain``): the reason of an error it read, or the input
cell holding text or an error. A required argument left out names the one empty cell the formula
read (``name_blank``); text where a number is needed, the input cell holding it (``name_text``).
``bare`` is an error with nothing more known, as the report lists it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from excelcalc.backend import EMPTY, XlError
from excelcalc.formula import BARE_REASONS
from excelcalc.textnum import text_number
from excelcalc.values import ReasonedError
from excelcalc.workbook.cells import col_letters, quote_sheet

if TYPE_CHECKING:
    from excelcalc.workbook.book import FormulaCell, Pos, WorkbookCells
    from excelcalc.workbook.graph import Producers

__all__ = [
    "MAX_RANGE_CELLS",
    "NOT_A_NUMBER",
    "REQUIRED",
    "bare",
    "explain",
    "name_array_inputs",
    "name_blank",
    "name_text",
]

MAX_RANGE_CELLS = 20_000  # a precedent range larger than this is not searched for a reason


def bare(code: XlError) -> str:
    """An Excel error with nothing more specific known, as the report lists it."""
    reason = BARE_REASONS.get(str(code))
    return f"{code} {reason}" if reason else str(code)


def explain(
    book: WorkbookCells,
    producers: Producers,
    f: FormulaCell,
    value: Any,
    reasons: dict[int, str],
    rerun: Callable[[Pos, Any], Any] | None = None,
) -> str:
    """A reason for a plain error, from the cell's precedents (computed before it; '' if none). For
    #VALUE! with several input cells of text, the one named is the one ``rerun`` (the formula's answer
    with one cell's value replaced) shows the error goes without: the first text read may be a name
    compared, not the number the formula needed (issue 42: Fleet's ``IF(A18="","",$B$11*E18)`` blamed A18)."""
    v = _first(value)
    if not isinstance(v, XlError) or isinstance(v, ReasonedError):
        return ""
    code = str(v)
    texts: list[tuple[Pos, str]] = []
    in_range: str | None = None
    for ref in f.refs:
        s, r1, c1, r2, c2 = ref
        if (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_RANGE_CELLS:
            continue
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                p = book.values.get((s, r, c))
                if isinstance(p, ReasonedError):
                    return p.reason
                made = producers.at.get((s, r, c))
                where = f"{quote_sheet(book.titles[s])}!{col_letters(c)}{r}"
                if made is None:
                    if code == "#VALUE!" and isinstance(p, str) and not isinstance(p, XlError) and not _numeric(p):
                        said = f"{where} holds the text {p[:40]!r} where a number is needed"
                        if rerun is None:
                            return said
                        if (r1, c1) != (r2, c2):  # a cell of a range (an array formula's input): not tried alone
                            in_range = in_range or said
                        elif len(texts) < MAX_TEXTS_TRIED:
                            texts.append(((s, r, c), said))
                    if isinstance(p, XlError):
                        return f"{where} holds the error {p}"
                elif isinstance(p, XlError) and reasons.get(made):
                    return reasons[made]
    if len(texts) == 1:  # the one text read: named as before, without trying
        return texts[0][1]
    for pos, said in texts:
        again = _first(rerun(pos, 0.0)) if rerun is not None else None
        if not (isinstance(again, XlError) and str(again) == code):
            return said
    return in_range if in_range and not texts else ""


MAX_TEXTS_TRIED = 8  # input cells of text a #VALUE! is tried without, one at a time


def _first(value: Any) -> Any:
    """A one-cell answer, or an array answer's first element."""
    if isinstance(value, list):
        return value[0][0] if value and value[0] else None
    if isinstance(value, np.ndarray):
        return value.flat[0] if value.size else None
    return value


REQUIRED = " is required"  # the reason a function gives for an argument it did not get
NOT_A_NUMBER = " must be a number, not "  # the reason a function gives for text where a number is needed


def name_blank(
    book: WorkbookCells, producers: Producers, f: FormulaCell, value: ReasonedError, ranges: bool = False
) -> ReasonedError:
    """``price_per_gpu_hour is required`` made here (not passed on) names the empty cell it read,
    when the formula reads exactly one empty input cell."""

    def empty(held: Any) -> bool:
        return held is None or held is EMPTY or held == ""

    return _name_input(book, producers, f, value, empty, "is empty", ranges)


def name_text(
    book: WorkbookCells, producers: Producers, f: FormulaCell, value: ReasonedError, ranges: bool = False
) -> ReasonedError:
    """``price_per_gpu_hour must be a number, not 'lots'`` made here names the input cell holding that
    text (``: Quotes!C21 holds it``), as ``name_blank`` names an empty one, when exactly one such cell is read."""

    def holds_it(held: Any) -> bool:
        return isinstance(held, str) and not isinstance(held, XlError) and value.reason.endswith(f" not {held[:40]!r}")

    return _name_input(book, producers, f, value, holds_it, "holds it", ranges)


def name_array_inputs(
    book: WorkbookCells, producers: Producers, f: FormulaCell, grid: list[list[Any]]
) -> list[list[Any]]:
    """An array formula's answer with each element's blank or text reason made here naming its input cell, as
    ``name_blank`` and ``name_text`` name it for a one-cell formula; the cells of the ranges it reads are
    searched too (an array formula reads its inputs as ranges). The value map gets the named elements."""
    s, row, col = f.pos
    named: dict[tuple[str, str], Any] = {}
    out: list[list[Any]] = []
    for dr, line in enumerate(grid):
        out.append([])
        for dc, v in enumerate(line):
            if isinstance(v, ReasonedError) and (v.reason.endswith(REQUIRED) or NOT_A_NUMBER in v.reason):
                key = (str(v), v.reason)
                if key not in named:
                    blank = v.reason.endswith(REQUIRED)
                    named[key] = (name_blank if blank else name_text)(book, producers, f, v, ranges=True)
                v = book.values[(s, row + dr, col + dc)] = named[key]
            out[-1].append(v)
    return out


def _name_input(
    book: WorkbookCells,
    producers: Producers,
    f: FormulaCell,
    value: ReasonedError,
    matches: Callable[[Any], bool],
    says: str,
    ranges: bool = False,
) -> ReasonedError:
    """``value`` with the one input cell (no formula's) whose value ``matches`` named: "<reason>: S!A1 <says>";
    as it was when it is passed on from a cell that has it, or when no or several input cells match. Only
    one-cell references are searched, unless ``ranges`` (their cells too, up to ``MAX_RANGE_CELLS`` a range)."""
    found: list[str] = []
    for s, r1, c1, r2, c2 in f.refs:
        if (r1, c1) != (r2, c2) and (not ranges or (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_RANGE_CELLS):
            continue
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                held = book.values.get((s, r, c))
                if isinstance(held, ReasonedError) and held.reason == value.reason:
                    return value  # passed on from the cell that has it
                if matches(held) and producers.at.get((s, r, c)) is None:
                    where = f"{quote_sheet(book.titles[s])}!{col_letters(c)}{r}"
                    if where not in found:
                        found.append(where)
    if len(found) != 1:
        return value
    return type(value)(str(value), f"{value.reason}: {found[0]} {says}")  # an AddinError stays one


def _numeric(text: str) -> bool:
    """Text the engine reads as a number ("5", " 1.5e3", "$1,000", "50%")."""
    return text_number(text) is not None
