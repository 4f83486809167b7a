"""Functions of a range read from its first row by many formulas, answered from what the range
keeps between its readers (``args.Running``): ``MAX($A$2:A9)``, ``COUNTIF($A$2:A9,A9)`` filled
down each read one row more than the formula above, and computing each range anew grew with the
square of the rows (issue 41: COUNTIF over 10,000 rows took 81 s; SUM was made linear before, in
``args.many``).

* MAX, MIN, AVERAGE, COUNT, COUNTA of one such range: the running maximum, minimum, sum and count
  of its cells, cell by cell as ``args.values`` reads them (numbers only; the first error met is
  the answer), the sum left to right as ``_common.total`` adds.
* SUMPRODUCT of such ranges of one shape: the running sum of the products of their cells (a text,
  TRUE or blank is 0; an error is the answer), as ``lib.math.sumproduct`` adds them.
* COUNTIF and SUMIF of such ranges: for a criterion met before, its count (sum) so far and that of
  the rows read since, by the function itself (both add over cells); COUNTIF of a criterion that is
  one number over cells of no text, or one plain text, is counted by value, in one pass for all.

Any other call is the function's own (``over``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.args import SKIP, Running, in_range, is_number
from excelcalc.backend import EMPTY, Array, KnownRange, Ranges, XlError, error, text_date
from excelcalc.lib._common import scalar
from excelcalc.lib.criteria import with_unread
from excelcalc.textnum import text_number

__all__ = ["RUNNING", "over"]

_NOT: Any = object()  # not a read of a running range: the function's own answers


def _running(arg: Any) -> tuple[Running, int] | None:
    """The ``Running`` a range argument is the first rows of, and how many cells it reads."""
    if isinstance(arg, KnownRange) and isinstance(arg.known, Running):
        rows = len(arg.value)
        return arg.known, rows * arg.known.cols
    return None


def _larger(acc: Any, x: float) -> float:
    return x if acc is None or x > acc else acc


def _smaller(acc: Any, x: float) -> float:
    return x if acc is None or x < acc else acc


def _add(acc: tuple[float, int], x: float) -> tuple[float, int]:
    return (acc[0] + x, acc[1] + 1)


def _count(acc: int, _x: Any) -> int:
    return acc + 1


def _counted(v: Any) -> Any:
    return SKIP if isinstance(v, XlError) or in_range(v) is SKIP else 1.0


def _aggregate(name: str, _own: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        found = _running(args[0]) if len(args) == 1 else None
        if found is None:
            return _NOT
        running, cells = found
        if name in ("MAX", "MIN"):
            got, err = running.prefix(name, cells, in_range, _larger if name == "MAX" else _smaller, None)
            return err if err is not None else (0.0 if got is None else got)
        if name == "AVERAGE":
            got, err = running.prefix(name, cells, in_range, _add, (0.0, 0))
            if err is not None:
                return err
            return got[0] / got[1] if got[1] else error("#DIV/0!")
        rule = _counted if name == "COUNT" else (lambda v: SKIP if v is EMPTY else 1.0)
        got, _ = running.prefix(name, cells, rule, _count, 0)
        return float(got)

    return run


def _sumproduct(*args: Any) -> Any:
    found = [_running(a) for a in args]
    if not args or any(f is None for f in found):
        return _NOT
    first, cells = found[0]  # type: ignore[misc]
    if cells < 2 or any(f[0].cols != first.cols or f[1] != cells for f in found):  # type: ignore[index]
        return _NOT
    others = tuple(f[0] for f in found[1:])  # type: ignore[index]
    rows = [f[0].grid for f in found]  # type: ignore[index]
    cols = first.cols

    def product(i: int) -> Any:
        out = 1.0
        for grid in rows:
            v = grid[i // cols, i % cols]
            if isinstance(v, XlError):
                return v
            out *= float(v) if is_number(v) else 0.0
        return out

    got, err = first.prefix(("SUMPRODUCT", others), cells, lambda v: v, _plus, 0.0, at=product)
    return err if err is not None else got


def _plus(acc: float, x: float) -> float:
    return acc + x


# ------------------------------------------------------------------------------------ COUNTIF


class _Tally:
    """COUNTIF or SUMIF by value over a ``Running``'s first cells: for each number and each text
    (case-folded) among the cells read, how many there are (COUNTIF) or the sum of the summed cells
    beside them (SUMIF; None once one of those is not a number or a blank: the function itself then);
    a text that Python's ``float`` reads (formulas' ``_text2num`` reads it so first) is also counted
    under its number, which a number criterion matches. Where the first other text that reads as a
    number or a date is (a number criterion then takes the function itself)."""

    __slots__ = ("by_value", "cells", "texts_at")

    def __init__(self) -> None:
        self.cells = 0
        self.by_value: dict[tuple[int, Any], float | None] = {}
        self.texts_at = -1


def _reads_as_number(text: str) -> bool:
    """A text COUNTIF reads as a number, in a cell or as its criterion (formulas' ``_text2num``:
    what Python's ``float`` reads, or a date), or as Excel would (``textnum``)."""
    return _float(text) is not None or text_number(text) is not None or text_date(text) is not None


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _plain_text(c: str) -> bool:
    """A criterion formulas reads as the text itself, compared case-folded (no operator, wildcard,
    escape, error, number, date or truth value in it)."""
    if not c or c[0] in "<>=#" or any(ch in c for ch in "*?~") or c.strip().upper() in ("TRUE", "FALSE"):
        return False
    return not _reads_as_number(c)


def _wanted(criterion: Any) -> tuple[int, Any] | None:
    """The key of the cells a criterion matches by value: one number (a text of no operator or wildcard
    that Python's ``float`` reads is that number: formulas' ``__xfilter`` reads it so, ``_text2num``),
    or one plain text."""
    if is_number(criterion):
        return (0, float(criterion))
    if isinstance(criterion, str) and not isinstance(criterion, XlError) and criterion is not EMPTY:
        if criterion[:1] not in ("<", ">", "=") and not any(ch in criterion for ch in "*?~"):
            number = _float(criterion)
            if number is not None:
                return (0, number)
        return (1, criterion.casefold()) if _plain_text(criterion) else None
    return None


def _keys(v: Any, at: int, tally: _Tally) -> tuple[tuple[int, Any], ...]:
    if isinstance(v, bool | np.bool_ | XlError) or v is EMPTY:
        return ()
    if isinstance(v, str):
        number = _float(v)
        if number is None:
            if tally.texts_at < 0 and _reads_as_number(v):
                tally.texts_at = at
            return ((1, v.casefold()),)
        return ((1, v.casefold()), (0, number))
    return ((0, float(v)),) if is_number(v) else ()


def _summand(v: Any) -> float | None:
    """What a summed cell adds as SUMIF adds it (``lib.criteria.summed``: a number; a text or a blank
    nothing, "Blank and text values are ignored"); None where SUMIF is left to the function itself
    (a truth value, an error, NaN)."""
    if v is EMPTY or (isinstance(v, str) and not isinstance(v, XlError)):
        return 0.0
    return float(v) if is_number(v) and float(v) == float(v) else None


def _by_value(running: Running, cells: int, criterion: Any, summed: Running | None = None) -> Any:
    wanted = _wanted(criterion)
    if wanted is None:
        return _NOT
    name = ("SUMIF", summed) if summed is not None else "COUNTIF"
    tally: _Tally | None = running.kept.get(name)
    if tally is None:
        tally = running.kept[name] = _Tally()
    if tally.cells > cells:
        return _NOT  # a reader of fewer rows than counted: the function itself
    grid, cols, by_value = running.grid, running.cols, tally.by_value
    for i in range(tally.cells, cells):
        keys = _keys(grid[i // cols, i % cols], i, tally)
        if not keys:
            continue
        add = 1.0 if summed is None else _summand(summed.grid[i // cols, i % cols])
        for k in keys:
            old = by_value.get(k, 0.0)
            by_value[k] = None if old is None or add is None else old + add
    tally.cells = cells
    if wanted[0] == 0 and 0 <= tally.texts_at < cells:
        return _NOT  # a text that reads as the number by a date or Excel's rules: the function itself
    got = by_value.get(wanted, 0.0)
    return _NOT if got is None else got


def _countif(_name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        found = _running(args[0]) if len(args) == 2 else None
        criterion = scalar(args[1]) if found is not None else None
        if found is None or isinstance(criterion, np.ndarray | XlError):
            return _NOT
        running, cells = found
        got = _by_value(running, cells, criterion)
        if got is not _NOT:
            return got
        rows, cols = cells // running.cols, running.cols

        def more(done: int) -> Any:
            return original(running.grid[done:rows, :cols].view(Array), criterion)

        return _since(("COUNTIF", type(criterion), criterion), running, rows, more)

    return run


def _since(name: Any, running: Running, rows: int, more: Callable[[int], Any]) -> Any:
    """A sum over cells (COUNTIF's count, SUMIF's sum) of the first ``rows`` rows: what the last
    reader of ``name`` found, plus ``more(done)``, the function itself over the rows read since."""
    try:
        done, total = running.kept.get(name, (0, 0.0))
    except TypeError:  # an unhashable criterion
        return _NOT
    if done > rows:
        return _NOT
    if rows > done:
        got = scalar(more(done))
        if not is_number(got):
            return _NOT  # an error among the new rows, or no number: the function itself says what
        total += float(got)
    running.kept[name] = (rows, total)
    return total


def _sumif(_name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """SUMIF(range, criteria, [sum_range]) of ranges read from their first row: the sum so far plus
    formulas' own SUMIF of the rows read since, per criterion (the sums of a criterion that stays the
    same, ``SUMIF($A$2:A9,">5",$B$2:B9)``, are linear in rows)."""

    def run(*args: Any) -> Any:
        found = _running(args[0]) if len(args) in (2, 3) else None
        added = _running(args[2]) if len(args) == 3 else found
        criterion = scalar(args[1]) if found is not None else None
        if found is None or added is None or isinstance(criterion, np.ndarray | XlError):
            return _NOT
        (running, cells), (summed, summed_cells) = found, added
        if summed.cols != running.cols or summed_cells != cells:
            return _NOT
        got = _by_value(running, cells, criterion, summed)
        if got is not _NOT:
            return got
        rows, cols = cells // running.cols, running.cols

        def more(done: int) -> Any:
            part = running.grid[done:rows, :cols].view(Array)
            return original(part, criterion, summed.grid[done:rows, :cols].view(Array))

        return _since(("SUMIF", type(criterion), criterion, summed), running, rows, more)

    return run


# ------------------------------------------------------------------------------------ install


RUNNING: dict[str, Callable[[str, Callable[..., Any]], Callable[..., Any]]] = {
    **dict.fromkeys(("MAX", "MIN", "AVERAGE", "COUNT", "COUNTA"), _aggregate),
    "SUMPRODUCT": lambda name, own: _sumproduct,
    "COUNTIF": _countif,
    "SUMIF": _sumif,
}


def over(name: str, own: Callable[..., Any]) -> Callable[..., Any]:
    """``own`` (the function as installed), answered from the running range where it reads one."""
    answer = RUNNING[name](name, own)

    def run(*args: Any) -> Any:
        if args and isinstance(args[0], Ranges):
            got = answer(*args)
            if got is not _NOT:  # COUNTIF(A:A,...): the rows of the column below its cells too
                return with_unread(got, args[0], args[1]) if name == "COUNTIF" else got
        return own(*args)

    run.__name__ = name
    return run
