"""Excel's dynamic-array functions (Excel 365: FILTER, SORT, SORTBY and UNIQUE of the Lookup &
Reference group, SEQUENCE of Math & Trig), answering an array a formula spills; the others of
them it takes from formulas as they are (``FORMULAS``), checked against Excel.

* FILTER with nothing to show and no if_empty is #CALC! (Microsoft's FILTER page: "Excel does not
  currently support empty arrays"); formulas answered #VALUE!.
* UNIQUE compares texts regardless of case, as Excel's UNIQUE does; formulas kept "a" and "A".
* SEQUENCE (formulas has none), bounded by Excel's grid and by the cells benchsheet makes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.args import is_number
from excelcalc.backend import EMPTY, Array, XlError, as_grid, error
from excelcalc.lib._common import Entry, Wraps, formulas_own, lazy, plain_number, scalar
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS", "MAX_CELLS"]

ROWS, COLUMNS = 1_048_576, 16_384  # Excel's grid (Microsoft's "Excel specifications and limits")
MAX_CELLS = 4_000_000  # cells of one array benchsheet makes (as of a range it reads: runner.MAX_RANGE)


def _empty(name: str) -> ReasonedError:
    return ReasonedError("#CALC!", f"{name} has nothing to show (Excel has no empty array)")


def _array(rows: list[list[Any]]) -> Any:
    out = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=object)
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            out[r, c] = v
    return out.view(Array)


# ------------------------------------------------------------------------------------ FILTER


def filtered(original: Callable[..., Any]) -> Callable[..., Any]:
    """FILTER(array, include, [if_empty]) as formulas computes it; with no row or column kept and no
    if_empty, Excel's #CALC! (Microsoft's FILTER page: "If the dataset might return an empty value,
    use the 3rd argument ([if_empty]). Otherwise, a #CALC! error will result")."""

    def run(array: Any, include: Any, *if_empty: Any) -> Any:
        if not if_empty:
            keep = as_grid(include)
            if not any(isinstance(v, XlError) for v in keep.flat) and keep.size:
                flags = [v for v in keep.flat if v is not EMPTY and not isinstance(v, str)]
                if len(flags) == keep.size and not any(bool(v) for v in flags):
                    return _empty("FILTER")
        return original(array, include, *if_empty)

    run.__name__ = "FILTER"
    return run


# ------------------------------------------------------------------------------------ UNIQUE


def _key(v: Any) -> tuple[int, Any]:
    """A value as UNIQUE compares it: its kind, then the value (a text regardless of case)."""
    if isinstance(v, XlError):
        return (3, str(v))
    if isinstance(v, bool | np.bool_):
        return (2, bool(v))
    if v is EMPTY:
        return (0, 0.0)  # a blank is shown as 0
    if isinstance(v, str):
        return (1, v.casefold())
    return (0, float(v)) if is_number(v) else (4, repr(v))


def _flag(v: Any, default: bool) -> bool | XlError:
    v = scalar(v)
    if v is None or v is EMPTY:
        return default
    if isinstance(v, XlError):
        return v
    if isinstance(v, bool | np.bool_) or is_number(v):
        return bool(v)
    return error("#VALUE!")


def unique(array: Any, by_col: Any = None, exactly_once: Any = None) -> Any:
    """UNIQUE(array, [by_col], [exactly_once]) (Microsoft's UNIQUE page): the distinct rows (columns
    with by_col TRUE) in the order first met, or those met exactly once; texts compared regardless
    of case, as Excel compares them (UNIQUE({"a";"A"}) is "a"); a blank shows as 0."""
    columns, once = _flag(by_col, False), _flag(exactly_once, False)
    for flag in (columns, once):
        if isinstance(flag, XlError):
            return flag
    grid = as_grid(array)
    lines = grid.T if columns else grid
    counts: dict[tuple[Any, ...], int] = {}
    first: dict[tuple[Any, ...], int] = {}
    for i, line in enumerate(lines):
        k = tuple(_key(v) for v in line)
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, i)
    kept = [i for k, i in first.items() if not once or counts[k] == 1]
    if not kept:
        return _empty("UNIQUE")
    rows = [[0.0 if v is EMPTY else v for v in lines[i]] for i in kept]
    out = _array(rows)
    return out.T.copy().view(Array) if columns else out


# ------------------------------------------------------------------------------------ SEQUENCE


def sequence(rows: Any, columns: Any = None, start: Any = None, step: Any = None) -> Any:
    """SEQUENCE(rows, [columns], [start], [step]) (Microsoft's SEQUENCE page: "=SEQUENCE(4,5)"
    is 4 rows by 5 columns, 1 to 20 row by row; columns, start and step default to 1). rows and
    columns are truncated; fewer than 1 is #CALC! (an empty array), more than Excel's grid
    #VALUE!, more than ``MAX_CELLS`` cells #VALUE! with the reason, before any is made."""
    got = [
        plain_number(v if v is not None and scalar(v) is not EMPTY else 1.0, f"SEQUENCE's {what}")
        for v, what in ((rows, "rows"), (columns, "columns"), (start, "start"), (step, "step"))
    ]
    for v in got:
        if isinstance(v, XlError):
            return v
    n, m, first, by = (float(v) for v in got)
    n, m = int(n), int(m)
    if n < 1 or m < 1:
        return _empty("SEQUENCE")
    if n > ROWS or m > COLUMNS:
        return ReasonedError("#VALUE!", f"SEQUENCE of {n:,} x {m:,} is larger than Excel's sheet")
    if n * m > MAX_CELLS:
        return ReasonedError("#VALUE!", f"SEQUENCE of {n * m:,} cells is more than benchsheet makes ({MAX_CELLS:,})")
    values = first + by * np.arange(n * m, dtype=float)
    out = np.empty((n, m), dtype=object)
    out.flat[:] = values.tolist()
    return out.view(Array)


# ------------------------------------------------------------------------------ TAKE, DROP, VSTACK, HSTACK, TOCOL...


def _count(v: Any, what: str) -> int | XlError | ReasonedError | None:
    """A count argument (TAKE's rows...), truncated; None where it is left out."""
    if v is None or scalar(v) is EMPTY:
        return None
    got = plain_number(v, what)
    if isinstance(got, XlError):
        return got
    if not abs(got) < 2.0**53:
        return ReasonedError("#VALUE!", f"{what} of {got:g} is no whole number Excel holds")
    return int(got)


def _shown(grid: Any) -> Any:
    """An array as a formula spills it: a blank cell shows 0, as Excel shows one; none at all is #CALC!."""
    if grid.size == 0:
        return None
    out = np.empty(grid.shape, dtype=object)
    for i, v in enumerate(grid.flat):
        out.flat[i] = 0.0 if v is EMPTY or v is None else v
    return out.view(Array)


def _cut(name: str, array: Any, rows: Any, columns: Any, take: bool) -> Any:
    grid = as_grid(array)
    counts = [_count(rows, f"{name}'s rows"), _count(columns, f"{name}'s columns")]
    for c in counts:
        if isinstance(c, XlError):
            return c
    if counts[0] is None and counts[1] is None:
        return error("#VALUE!")
    for axis, n in enumerate(counts):
        if n is None:
            continue
        size = grid.shape[axis]
        if take:
            keep = slice(0, min(n, size)) if n >= 0 else slice(max(size + n, 0), size)
        else:
            keep = slice(min(n, size), size) if n >= 0 else slice(0, max(size + n, 0))
        grid = grid[keep, :] if axis == 0 else grid[:, keep]
    shown = _shown(grid)
    return _empty(name) if shown is None else shown


def take(array: Any, rows: Any = None, columns: Any = None) -> Any:
    """TAKE(array, rows, [columns]) (Microsoft's TAKE page): the first rows and columns, the last ones
    where negative; "Excel returns a #CALC! error to indicate an empty array when either rows or columns
    is 0"; more than the array has takes it all (formulas: TAKE(A,,2) and TAKE(A,0) #VALUE!)."""
    return _cut("TAKE", array, rows, columns, True)


def drop(array: Any, rows: Any = None, columns: Any = None) -> Any:
    """DROP(array, rows, [columns]) (Microsoft's DROP page): without the first rows and columns, the
    last ones where negative; nothing left is #CALC! (formulas answered an empty row)."""
    return _cut("DROP", array, rows, columns, False)


def _stacked(name: str, arrays: tuple[Any, ...], down: bool) -> Any:
    """VSTACK and HSTACK (Microsoft's pages): the arrays appended down (across), as wide (tall) as the
    widest (tallest), the cells an array lacks #N/A; past Excel's sheet or ``MAX_CELLS`` cells #NUM!
    ("Excel returns a #NUM when array is too large"), before any cell is made."""
    if not arrays:
        return error("#VALUE!")
    grids = [as_grid(a) for a in arrays]
    grids = [g if down else g.T for g in grids]
    length, width = sum(g.shape[0] for g in grids), max(g.shape[1] for g in grids)
    rows, columns = (length, width) if down else (width, length)
    if rows > ROWS or columns > COLUMNS or rows * columns > MAX_CELLS:
        return ReasonedError("#NUM!", f"{name} of {rows:,} x {columns:,} is larger than benchsheet makes")
    out = np.empty((length, width), dtype=object)
    out[:, :] = error("#N/A")
    at = 0
    for g in grids:
        out[at : at + g.shape[0], : g.shape[1]] = g
        at += g.shape[0]
    shown = _shown(out if down else out.T)
    return _empty(name) if shown is None else shown


def vstack(*arrays: Any) -> Any:
    """VSTACK(array1, [array2], ...): the arrays one under the other (``_stacked``)."""
    return _stacked("VSTACK", arrays, True)


def hstack(*arrays: Any) -> Any:
    """HSTACK(array1, [array2], ...): the arrays side by side (``_stacked``)."""
    return _stacked("HSTACK", arrays, False)


def _flat(name: str, array: Any, ignore: Any, scan_by_column: Any, column: bool) -> Any:
    how = _count(ignore, f"{name}'s ignore")
    if isinstance(how, XlError):
        return how
    how = 0 if how is None else how
    if how not in (0, 1, 2, 3):
        return ReasonedError("#VALUE!", f"{name}'s ignore is 0, 1, 2 or 3")
    by_column = _flag(scan_by_column, False)
    if isinstance(by_column, XlError):
        return by_column
    grid = as_grid(array)
    values = list((grid.T if by_column else grid).flat)
    kept = [
        v
        for v in values
        if not (how in (1, 3) and (v is EMPTY or v is None)) and not (how in (2, 3) and isinstance(v, XlError))
    ]
    if not kept:
        return _empty(name)
    out = np.empty((len(kept), 1) if column else (1, len(kept)), dtype=object)
    out.flat[:] = kept
    return _shown(out)


def tocol(array: Any, ignore: Any = None, scan_by_column: Any = None) -> Any:
    """TOCOL(array, [ignore], [scan_by_column]) (Microsoft's TOCOL page): the array as one column, read
    by row (by column where scan_by_column is TRUE); ignore "0 Keep all values (default), 1 Ignore
    blanks, 2 Ignore errors, 3 Ignore blanks and errors"."""
    return _flat("TOCOL", array, ignore, scan_by_column, True)


def torow(array: Any, ignore: Any = None, scan_by_column: Any = None) -> Any:
    """TOROW(array, [ignore], [scan_by_column]) (Microsoft's TOROW page): the array as one row (``tocol``)."""
    return _flat("TOROW", array, ignore, scan_by_column, False)


def chooserows(array: Any, *row_nums: Any) -> Any:
    """CHOOSEROWS(array, row_num1, [row_num2], ...) (Microsoft's CHOOSEROWS page): the rows named, an
    array of numbers naming several, a negative one counted from the end; "If the absolute value of
    any of row_num arguments is zero or exceeds the number of rows in array, CHOOSEROWS returns a
    #VALUE! error"; more than ``MAX_CELLS`` cells #NUM! before any is made."""
    grid = as_grid(array)
    wanted: list[int] = []
    for arg in row_nums:
        for v in as_grid(arg).flat:
            n = _count(v, "CHOOSEROWS' row_num")
            if isinstance(n, XlError):
                return n
            if n is None or n == 0 or abs(n) > grid.shape[0]:
                return ReasonedError("#VALUE!", f"CHOOSEROWS' row_num {n} is not a row of the array")
            wanted.append(n - 1 if n > 0 else grid.shape[0] + n)
            if len(wanted) * grid.shape[1] > MAX_CELLS or len(wanted) > ROWS:
                return ReasonedError("#NUM!", "CHOOSEROWS would make more cells than benchsheet makes")
    if not wanted:
        return error("#VALUE!")
    shown = _shown(grid[wanted, :])
    return _empty("CHOOSEROWS") if shown is None else shown


_SHAPING = {"TAKE": take, "DROP": drop, "VSTACK": vstack, "HSTACK": hstack, "TOCOL": tocol, "TOROW": torow}
_SHAPING["CHOOSEROWS"] = chooserows

FUNCTIONS: dict[str, Entry] = {
    **_SHAPING,
    **{f"_XLFN.{name}": f for name, f in _SHAPING.items()},
    "FILTER": Wraps(lambda table: filtered(lazy(table, "FILTER"))),
    "_XLFN._XLWS.FILTER": Wraps(lambda table: filtered(lazy(table, "_XLFN._XLWS.FILTER"))),
    "UNIQUE": unique,
    "_XLFN.UNIQUE": unique,
    "SEQUENCE": sequence,
    "_XLFN.SEQUENCE": sequence,
    **formulas_own("SORT _XLFN._XLWS.SORT SORTBY _XLFN.SORTBY"),
}
