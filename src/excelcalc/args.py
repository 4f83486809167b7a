"""How Excel reads the arguments of its functions of many values (SUM, COUNT, MAX, STDEV, AND...).

The argument layer of ``excelcalc.lib``: the functions themselves are in their category's module
(SUM in ``lib.math``, COUNT and STDEV in ``lib.statistical``, AND in ``lib.logical``); each reads
its arguments with the rules here (``many``, ``values``).

Microsoft's pages (SUM, COUNT, AVERAGE, AVERAGEA, AND, MODE...) give one rule, kept here once:

* in a reference or an array argument (``A1:A9``, ``E15``, ``{1,"5",TRUE}``) only numbers count;
  text (even "5"), TRUE/FALSE and empty cells are ignored; an error is the answer;
* typed directly as an argument, TRUE is 1, a text that reads as a number is that number (``"5"``
  is 5, a date with its year its serial number), any other text #VALUE!; a left-out argument is 0;
* the ``...A`` variants (AVERAGEA, MAXA...) also count TRUE as 1, FALSE and text as 0 in a reference;
* COUNT counts what would be a number (direct TRUE and "5" too), COUNTA every value not empty;
* AND/OR/XOR read TRUE/FALSE and numbers (0 is FALSE), and text "TRUE"/"FALSE" typed directly.

The ``formulas`` package read a text "5" in a range as 5 (``SUM`` of a range holding "5" added it,
``ISNUMBER("5")`` was TRUE). Apache POI's FormulaEvalTestData, with Excel's cached answers, is in the
corpus (tests/corpus) and judges every rule; the exceptions it shows are cited where they are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from excelcalc.backend import EMPTY, KnownRange, Ranges, XlError, as_grid, error
from excelcalc.textnum import text_number

Rule = Callable[[Any], Any]  # one value -> a number (or bool) it counts as, SKIP, or an error
SKIP: Any = object()


def is_number(v: Any) -> bool:
    return (type(v) is float or type(v) is int or isinstance(v, np.floating | np.integer)) and not isinstance(
        v, bool | np.bool_
    )


def in_range(v: Any) -> Any:
    """A value of a reference or array: numbers only."""
    if is_number(v):
        return float(v)
    return v if isinstance(v, XlError) else SKIP


def in_range_a(v: Any) -> Any:
    """A value of a reference or array for AVERAGEA, MAXA...: TRUE 1, FALSE and text 0, empty ignored."""
    if isinstance(v, XlError):
        return v
    if isinstance(v, bool | np.bool_):
        return float(v)
    if v is EMPTY:
        return SKIP
    return 0.0 if isinstance(v, str) else in_range(v)


def direct(v: Any) -> Any:
    """A value typed as an argument (or computed by another function): converted to a number."""
    if isinstance(v, XlError):
        return v
    if v is EMPTY:
        return 0.0
    if isinstance(v, bool | np.bool_):
        return float(v)
    if isinstance(v, str):
        n = text_number(v)
        if n is None:  # a date with its year as Microsoft's COUNT page counts it ("2024-01-10": 45301)
            from excelcalc.lib._common import text_serial  # lib reads its arguments here: imported once used

            n = text_serial(v)
        return error("#VALUE!") if n is None else n
    return float(v) if is_number(v) else error("#VALUE!")


def direct_strict(v: Any) -> Any:
    """MODE's single values (a cell reference too): a number, or #VALUE! (FormulaEvalTestData:
    ``MODE(B9,2,D7)`` with D7 empty and ``MODE(B8,"1",2,3)`` are #VALUE!)."""
    if isinstance(v, XlError):
        return v
    return float(v) if is_number(v) else error("#VALUE!")


def counted(rule: Rule) -> Rule:
    """COUNT's and COUNTA's rule: 1 for what ``rule`` keeps, nothing else (errors too)."""

    def one(v: Any) -> Any:
        got = rule(v)
        return SKIP if got is SKIP or isinstance(got, XlError) else 1.0

    return one


def in_range_logical(v: Any) -> Any:
    if isinstance(v, XlError):
        return v
    if isinstance(v, bool | np.bool_):
        return bool(v)
    return bool(v) if is_number(v) else SKIP


def direct_logical(v: Any) -> Any:
    if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY:
        word = v.strip().upper()
        return word == "TRUE" if word in ("TRUE", "FALSE") else error("#VALUE!")
    return SKIP if v is EMPTY else in_range_logical(v)


def one_value(arg: Any) -> bool:
    """An argument that is one value, not a reference or an array (``{"a"}`` is an array; formulas
    answers a function's single value as an array of no dimensions)."""
    return not isinstance(arg, Ranges) and (not isinstance(arg, np.ndarray) or arg.ndim == 0)


def values(args: Iterable[Any], ranged: Rule, single: Rule, cell_is_single: bool = False) -> list[Any] | XlError:
    """The values the arguments count as, in order (a range row by row); the first error met instead."""
    out: list[Any] = []
    items: Iterable[Any]
    for arg in args:
        if one_value(arg) or (cell_is_single and isinstance(arg, Ranges) and as_grid(arg).size == 1):
            items, rule = [as_grid(arg).flat[0]] if isinstance(arg, Ranges | np.ndarray) else [arg], single
        else:
            items, rule = as_grid(arg).flat, ranged
        for v in items:
            got = rule(v)
            if got is SKIP:
                continue
            if isinstance(got, XlError):
                return got
            out.append(got)
    return out


class _Prefix:
    """One running aggregate of a ``Running``'s cells: its value after each cell, the first error."""

    __slots__ = ("after", "error", "error_at")

    def __init__(self) -> None:
        self.after: list[Any] = []
        self.error: Any = None
        self.error_at = -1


class Running:
    """A range's cells from its first row down, as the formulas filled down a column read them
    (``SUM($A$2:A9)`` from each row, ``SUM(Sales[Qty])`` beside each row): grown by rows as its
    readers need them (``add``), each reader given the rows it reads (``rows``), and running
    aggregates of its cells (``prefix``), the running total as ``SUM`` adds them, left to right
    (``total``): a reader's SUM is one look-up, where summing each range anew grew with the square
    of the rows."""

    __slots__ = ("cols", "count", "grid", "kept")

    def __init__(self, cols: int) -> None:
        self.cols = cols
        self.count = 0  # rows read
        self.grid: np.ndarray[Any, Any] = np.empty((16, cols), dtype=object)
        # what its readers work out from its rows and keep for the next: running aggregates
        # (``prefix``: SUM here, MAX, COUNTIF... in ``lib.running``), a look-up's index of a column
        # (``lib.lookup_index``)
        self.kept: dict[Any, Any] = {}

    def add(self, row: list[Any]) -> None:
        if self.count == len(self.grid):
            grown = np.empty((2 * len(self.grid), self.cols), dtype=object)
            grown[: self.count] = self.grid[: self.count]
            self.grid = grown
        for c, v in enumerate(row):
            self.grid[self.count, c] = v
        self.count += 1

    def rows(self, n: int) -> np.ndarray[Any, Any]:
        """The first ``n`` rows (a view: the cells a reader reads, never changed)."""
        return self.grid[:n]

    def prefix(
        self,
        name: Any,
        cells: int,
        rule: Rule,
        step: Callable[[Any, Any], Any],
        start: Any,
        at: Callable[[int], Any] | None = None,
    ) -> tuple[Any, Any]:
        """The aggregate ``name`` of the first ``cells`` cells, row by row: ``step`` over what ``rule``
        keeps of each (``at(i)``, the cell itself by default), from ``start``, grown from where the last
        reader left it; and the first error among those cells (None)."""
        kept: _Prefix | None = self.kept.get(name)
        if kept is None:
            kept = self.kept[name] = _Prefix()
        after, grid, cols = kept.after, self.grid, self.cols
        acc = after[-1] if after else start
        for i in range(len(after), cells):
            got = rule(grid[i // cols, i % cols] if at is None else at(i))
            if got is not SKIP:
                if isinstance(got, XlError):
                    if kept.error is None:
                        kept.error, kept.error_at = got, i
                else:
                    acc = step(acc, got)
            after.append(acc)
        if kept.error is not None and kept.error_at < cells:
            return None, kept.error
        return (after[cells - 1] if cells else start), None

    def total(self, rows: int) -> Any:
        """SUM of the first ``rows`` rows as ``values`` and ``total`` add them (numbers only, left to
        right; the first error met is the answer)."""
        got, err = self.prefix("SUM", rows * self.cols, in_range, _add, 0.0)
        return err if err is not None else got


def _add(acc: float, x: float) -> float:
    return acc + x


def many(name: str, of: Callable[[list[float]], Any], ranged: Rule, single: Rule) -> Callable[..., Any]:
    """Excel's function ``name`` of many values: ``of`` the values its arguments count as (``ranged``
    in a reference or an array, ``single`` typed directly); the first error met is the answer.
    ``SUM`` of one range of a running total (``Running``) is its running total."""
    running = name == "SUM"

    def run(*args: Any) -> Any:
        if running and len(args) == 1 and isinstance(args[0], KnownRange) and isinstance(args[0].known, Running):
            return args[0].known.total(len(args[0].value))
        got = values(args, ranged, single, cell_is_single=single is direct_strict)
        return got if isinstance(got, XlError) else of(got)

    run.__name__ = name
    return run
