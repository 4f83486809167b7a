"""The index a look-up answers from: built once per range and recalculation, where a scan of the
range for each look-up grew with rows x look-ups (issue 41: 15,000 VLOOKUP over 5,000 rows).

An exact match (VLOOKUP/HLOOKUP/MATCH of 0, XLOOKUP/XMATCH of match_mode 0) is one dictionary
look-up: the first position of each value, as formulas' scan finds it (``MATCH`` and ``VLOOKUP``
compare texts lower-cased, ``XLOOKUP`` and ``XMATCH`` case-folded, a number never equals a text or
TRUE). XLOOKUP's "exact or next smaller/larger" (match_mode -1 and 1) is a bisection of the
values sorted as formulas orders them (kind first: numbers, texts, TRUE/FALSE, errors, blanks),
as Excel's own look-up caches answer. Where the engine hands the same range to many readers (a
range from one first cell read by several formulas, ``args.Running``) the index lives on it and
grows with its rows, so ``MATCH(A9,$A$2:A9,0)`` filled down is linear too; any other range keeps
its index while it lives and is among the last few ranges looked in (``_RECENT``).
"""

from __future__ import annotations

import bisect
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.args import Running, is_number
from excelcalc.backend import EMPTY, KnownRange, XlError

__all__ = ["CASEFOLD", "LOWER", "SCAN", "Key", "key", "nearest", "position", "searchable"]

Key = tuple[int, Any]
Fold = Callable[[str], str]
LOWER: Fold = str.lower  # MATCH, VLOOKUP, HLOOKUP (formulas' ``_lower``)
CASEFOLD: Fold = str.casefold  # XLOOKUP, XMATCH (formulas' ``_casefold``)

_NUMBER, _TEXT, _BOOL, _ERROR, _BLANK = 0, 1, 2, 4, 99  # formulas' ``_get_type_id`` order
_RECENT = 8  # ranges outside a ``Running`` whose index is kept while they live


def key(v: Any, fold: Fold) -> Key:
    """``v`` as the look-up compares it: its kind first, then the value (a text folded)."""
    if isinstance(v, bool | np.bool_):
        return (_BOOL, bool(v))
    if isinstance(v, XlError):
        return (_ERROR, str(v))
    if v is EMPTY:
        return (_BLANK, "")
    if isinstance(v, str):
        return (_TEXT, fold(v))
    if is_number(v):
        return (_NUMBER, float(v))
    return (_BLANK, "")


def searchable(v: Any, wildcards: bool) -> bool:
    """A look-up value the index answers as formulas' scan would: a number, TRUE/FALSE, or a text
    (without ``* ? ~`` where they are wildcards: those go on to the scan)."""
    if isinstance(v, XlError) or v is EMPTY or isinstance(v, np.ndarray):
        return False
    if isinstance(v, str):
        return not (wildcards and any(ch in v for ch in "*?~"))
    return isinstance(v, bool | np.bool_) or is_number(v)


class _Index:
    """The first position of each value of a line, and (made when first asked) its values sorted."""

    __slots__ = ("built", "first", "sorted_keys")

    def __init__(self) -> None:
        self.built = 0
        self.first: dict[Key, int] = {}
        self.sorted_keys: list[Key] | None = None

    def grow(self, line: Callable[[int], Any], upto: int, fold: Fold) -> None:
        first = self.first
        for i in range(self.built, upto):
            first.setdefault(key(line(i), fold), i)
        if upto > self.built:
            self.sorted_keys = None
        self.built = max(self.built, upto)


# ranges outside a ``Running``: their index while the range lives (a weak reference: an index never
# keeps its range, and goes with it), the last ``_RECENT`` of them
_recent: OrderedDict[tuple[int, int, int, Fold], tuple[weakref.ref[Any], _Index]] = OrderedDict()


def _forget(name: tuple[int, int, int, Fold]) -> Callable[[weakref.ref[Any]], None]:
    def gone(ref: weakref.ref[Any]) -> None:
        kept = _recent.get(name)
        if kept is not None and kept[0] is ref:
            del _recent[name]

    return gone


def _index(arg: Any, grid: np.ndarray[Any, Any], axis: int, at: int, fold: Fold) -> tuple[_Index, int]:
    """The index of line ``at`` of ``grid`` (a column for ``axis`` 0, a row for 1), grown to its
    length; the length."""
    known = arg.known if isinstance(arg, KnownRange) else None
    if axis == 0 and isinstance(known, Running):
        store: dict[Any, Any] = known.kept
        found = store.get(("index", at, fold))
        if found is None:
            found = store[("index", at, fold)] = _Index()
        rows = grid.shape[0]
        if found.built < rows:
            cells = known.grid
            found.grow(lambda i: cells[i, at], rows, fold)
        return found, rows
    name = (id(grid), axis, at, fold)
    kept = _recent.get(name)
    if kept is not None and kept[0]() is grid:
        _recent.move_to_end(name)
        return kept[1], grid.shape[axis]
    made = _Index()
    line = grid[:, at] if axis == 0 else grid[at, :]
    made.grow(line.__getitem__, len(line), fold)
    _recent[name] = (weakref.ref(grid, _forget(name)), made)
    while len(_recent) > _RECENT:
        _recent.popitem(last=False)
    return made, len(line)


def position(
    v: Any, arg: Any, grid: np.ndarray[Any, Any], axis: int = 0, at: int = 0, fold: Fold = LOWER
) -> int | None:
    """The first position (from 0) of ``v`` in line ``at`` of ``grid``, or None: the exact match."""
    index, length = _index(arg, grid, axis, at, fold)
    i = index.first.get(key(v, fold))
    return i if i is not None and i < length else None


SCAN = -1  # ``nearest``'s answer where the index cannot tell: formulas' scan answers


def nearest(
    v: Any, arg: Any, grid: np.ndarray[Any, Any], larger: bool, axis: int = 0, at: int = 0, fold: Fold = CASEFOLD
) -> int:
    """XLOOKUP's match_mode -1 (``larger`` False) or 1: the first position of ``v``, else of the
    largest value below it (smallest above) of its kind, by bisection of the line's values sorted
    once; ``SCAN`` where there is none of its kind on that side (formulas then looks among the
    other kinds, ordered numbers, texts, TRUE/FALSE, errors, blanks) or the reader reads fewer
    rows than the index holds: formulas' scan answers those."""
    index, length = _index(arg, grid, axis, at, fold)
    if length < index.built:
        return SCAN
    wanted = key(v, fold)
    exact = index.first.get(wanted)
    if exact is not None:
        return exact
    if index.sorted_keys is None:
        index.sorted_keys = sorted(index.first)  # kind first: a number never meets a text
    keys = index.sorted_keys
    k = bisect.bisect_left(keys, wanted)
    k = k if larger else k - 1
    if not 0 <= k < len(keys) or keys[k][0] != wanted[0]:
        return SCAN  # none of its kind on that side: formulas' scan says what (another kind, or #N/A)
    return index.first[keys[k]]
