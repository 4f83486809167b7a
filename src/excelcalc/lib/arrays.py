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


FUNCTIONS: dict[str, Entry] = {
    "FILTER": Wraps(lambda table: filtered(lazy(table, "FILTER"))),
    "_XLFN._XLWS.FILTER": Wraps(lambda table: filtered(lazy(table, "_XLFN._XLWS.FILTER"))),
    "UNIQUE": unique,
    "_XLFN.UNIQUE": unique,
    "SEQUENCE": sequence,
    "_XLFN.SEQUENCE": sequence,
    **formulas_own("SORT _XLFN._XLWS.SORT SORTBY _XLFN.SORTBY"),
}
