"""The criteria of Excel's conditional functions (SUMIF, SUMIFS, COUNTIF, COUNTIFS, AVERAGEIF,
AVERAGEIFS, MAXIFS, MINIFS): which cells of a range a criterion matches, as Excel matches them.

Microsoft's COUNTIF and SUMIF pages: a criterion is a number, a truth value, a text, or a text
beginning with an operator (``=``, ``<>``, ``<``, ``>``, ``<=``, ``>=``); text matches in any case,
with the wildcards ``?`` (one character) and ``*`` (any characters) and ``~`` before either (or
itself) for the character; ``""`` matches the blank cells. The rest as Apache POI's ``Countif``
states it and checks it against Excel's own answers (its TestCountFuncs, Bugzilla 51498):

* a criterion that reads as a number (``17``, ``"17"``, ``">10"``, ``">1/1/2024"``) compares numbers;
  for equality a text cell that reads as that number matches too (``"17"`` matches the text "17");
  ``<``, ``>``, ``<=``, ``>=`` never match a text;
* ``TRUE``/``FALSE`` (or their text) match truth values only, an error text (``"#N/A"``) that error;
* any other text compares texts only (wildcards for ``=`` and ``<>``, in order for the others);
* ``<>`` matches what ``=`` does not: blanks, numbers, texts and errors alike, and ``"<>"`` alone
  every cell that is not blank; ``"="`` alone the blank cells; ``"<>"`` with a number matches the
  truth values too, and ``"<>TRUE"`` the texts (Gnumeric's samples/excel12/countif.xlsx, sheets CmpNum
  and CmpBool: ``"<>1"`` counts FALSE and TRUE, ``"<>TRUE"`` the text "String"; POI's pull request
  1327, bug 69853, checked against Excel by its reporter);
* a criterion that is a blank cell is 0 (Microsoft's COUNTIFS page: "If the criteria argument is a
  reference to an empty cell, the COUNTIFS function treats the empty cell as a 0 value"; its AVERAGEIF
  page alike): it matches the zeros, never a blank cell nor the text "" (POI's countifExamples.xls,
  saved by Excel, rows 14 and 15).

A whole column or row (``A:A``, ``1:1``) is read as its cells present (``workbook.book.trimmed``):
``keeping_blanks`` reads the rows left out as the blank cells they are, arithmetically.

formulas matched ``<>`` among one kind of value only (``"<>apple"`` left numbers and blanks out),
``"="`` nothing, wildcards from the start only and in one case (``"?"`` matched every text, ``"A*"``
not "apple"), and ``">10"`` the text "17".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.args import is_number
from excelcalc.backend import EMPTY, Array, FunctionTable, Ranges, XlError, as_grid
from excelcalc.lib._common import Wraps, lazy, text_serial
from excelcalc.lib.sheets import FULL, area_of, current
from excelcalc.textnum import text_number

__all__ = ["BLANK", "keeping_blanks", "matches", "summed", "with_unread"]

_OPERATORS = ("<=", ">=", "<>", "<", ">", "=")
_ERRORS = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")
_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}

Match = Callable[[Any], bool]


class _Blank(str):
    """A blank cell of a criteria range, told apart from the text "" a formula answers (formulas
    gives both as "" to the criteria): ``"="`` matches a blank cell, ``"<>"`` the text ""."""

    __slots__ = ()


BLANK = _Blank("")


def _blank(x: Any) -> bool:
    return x is EMPTY or x is None or type(x) is _Blank


def _text(x: Any) -> bool:
    return isinstance(x, str) and not isinstance(x, XlError) and x is not EMPTY and type(x) is not _Blank


def _empty_text(x: Any) -> bool:
    return type(x) is str and x == ""


def _truth(x: Any) -> bool:
    return isinstance(x, bool | np.bool_)


def _as_number(text: str) -> float | None:
    n = text_number(text)
    return n if n is not None else text_serial(text)


def _wildcards(value: str) -> re.Pattern[str] | None:
    """The pattern of a text with Excel's wildcards (``?``, ``*``, ``~`` before one of them or
    itself), matched whole and in any case; None where it has none."""
    out, wild, i = [], False, 0
    while i < len(value):
        ch = value[i]
        if ch == "~" and i + 1 < len(value) and value[i + 1] in "?*~":
            out.append(re.escape(value[i + 1]))
            wild, i = True, i + 2
            continue
        out.append("." if ch == "?" else ".*" if ch == "*" else re.escape(ch))
        wild = wild or ch in "?*"
        i += 1
    return re.compile("".join(out), re.IGNORECASE | re.DOTALL) if wild else None


def _number(value: float, op: str) -> Match:
    def equal(x: Any) -> bool:
        if is_number(x):
            return float(x) == value
        return _text(x) and not _blank(x) and text_number(x) == value

    if op in ("", "="):
        return equal
    if op == "<>":  # POI: '<>123' matches every text, '123' too, a blank and a truth value (module doc)
        return lambda x: not isinstance(x, XlError) and (_text(x) or _blank(x) or _truth(x) or not equal(x))
    order = _ORDER[op]
    return lambda x: is_number(x) and order(float(x), value)


def _boolean(value: bool, op: str) -> Match:
    if op in ("", "="):
        return lambda x: _truth(x) and bool(x) == value
    if op == "<>":  # a number, a blank or a text is not equal to a truth value (module doc)
        return lambda x: (_truth(x) and bool(x) != value) or is_number(x) or _blank(x) or _text(x)
    order = _ORDER[op]
    return lambda x: _truth(x) and order(int(bool(x)), int(value))


def _error(value: str, op: str) -> Match:
    code = _ERRORS.index(value)

    def same(a: int, b: int) -> bool:
        return (a == b) != (op == "<>")

    compare: Callable[[Any, Any], bool] = _ORDER.get(op, same)
    return lambda x: isinstance(x, XlError) and str(x) in _ERRORS and compare(_ERRORS.index(str(x)), code)


def _string(value: str, op: str) -> Match:
    folded = value.casefold()
    if op not in ("", "=", "<>"):
        order = _ORDER[op]
        return lambda x: _text(x) and not (x == "" and value == "") and order(x.casefold(), folded)
    pattern = _wildcards(value)

    def equal(x: Any) -> bool:
        if _blank(x):  # "" and "=" match a blank cell, "<>" does not: it is not equal to a text
            return value == ""
        if not _text(x):
            return False
        if x == "" and value == "":  # POI: "=" does not match the text "" a formula answers, "" does
            return op == ""
        return bool(pattern.fullmatch(x)) if pattern is not None else x.casefold() == folded

    if op == "<>":
        return lambda x: not equal(x) if not _empty_text(x) or value else True
    return equal


def criterion(condition: Any) -> Match:
    """What a criterion matches: a function of one cell's value (a blank cell ``EMPTY`` or ``""``)."""
    if isinstance(condition, XlError):
        return _error(str(condition), "") if str(condition) in _ERRORS else lambda x: False
    if condition is EMPTY or condition is None:  # Microsoft's COUNTIFS page: an empty criteria cell is 0
        return _number(0.0, "")
    if _truth(condition):
        return _boolean(bool(condition), "")
    if is_number(condition):
        return _number(float(condition), "")
    text = str(condition)
    op = next((o for o in _OPERATORS if text.startswith(o)), "")
    value = text[len(op) :]
    if value.upper() in ("TRUE", "FALSE"):
        return _boolean(value.upper() == "TRUE", op)
    n = _as_number(value) if value.strip() else None
    if n is not None:
        return _number(n, op)
    if value in _ERRORS:
        return _error(value, op)
    return _string(value, op)


def matches(values: np.ndarray[Any, Any], condition: Any) -> np.ndarray[Any, Any]:
    """The cells of ``values`` (formulas' test range, a blank cell as ``""``) that ``condition``
    matches, as an array of booleans of its shape."""
    if isinstance(condition, np.ndarray):
        condition = condition.flat[0] if condition.size else EMPTY
    match = criterion(condition)
    grid = np.asarray(values, dtype=object)
    out = np.zeros(grid.shape, dtype=bool)
    for idx, v in np.ndenumerate(grid):
        out[idx] = match(v)
    return out


def summed(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The cells a conditional function adds, averages or compares, of its sum_range (average_range,
    max_range...): numbers, and errors (an error among them is the answer); a text, a truth value or
    a blank is left out as blank. Microsoft's SUMIF page: "Blank and text values are ignored"; its
    AVERAGEIF page: "Cells in range that contain TRUE or FALSE are ignored". formulas added a text
    that reads as a number (``SUMIF(A1:A2,">0",B1:B2)`` with B1 the text "5" added 5)."""
    out = values.copy()
    for idx, v in np.ndenumerate(values):
        if not (is_number(v) or isinstance(v, XlError)):
            out[idx] = EMPTY
    return out


def _kept(v: Any) -> Any:
    """A criteria range with its blank cells ``BLANK`` (an array, as formulas reads one)."""
    if not isinstance(v, Ranges | np.ndarray):
        return v
    grid = as_grid(v)
    blank = np.frompyfunc(lambda x: x is EMPTY, 1, 1)(grid).astype(bool)
    if not blank.any():
        return v
    out = grid.copy()
    out[blank] = BLANK
    return out.view(Array)


def _spans(arg: Any) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """(rows, columns) a range argument refers to and (rows, columns) of it read: a whole column or
    row (``A:A``, ``1:1``) is read as its cells present, the rest of it blank (``lib.sheets.FULL``)."""
    if not isinstance(arg, Ranges) or len(arg.ranges) != 1:
        return None
    read = as_grid(arg).shape
    part = arg.ranges[0]
    if FULL not in part:
        return read, read
    r2, c2 = part[FULL]
    return (r2 - int(part["r1"]) + 1, c2 - int(part["n1"]) + 1), read


def _filled(shape: tuple[int, int], value: Any) -> np.ndarray[Any, Any]:
    """An object array of ``shape`` holding ``value`` itself (np.full would make ``BLANK`` the text "",
    an error a text)."""
    out = np.empty(shape, dtype=object)
    out[...] = value
    return out


def _padded(arg: Any, shape: tuple[int, int], blank: Any) -> Any:
    """A range read as its cells present, with the blank cells below and right of them to ``shape``."""
    grid = as_grid(arg)
    if grid.shape == shape:
        return arg
    out = _filled(shape, blank)
    out[: grid.shape[0], : grid.shape[1]] = grid
    return out.view(Array)


def _blanks_counted(conditions: list[Any]) -> np.ndarray[Any, Any]:
    """Whether a blank cell meets every one of ``conditions`` (each one value or an array of them),
    in the shape the conditions broadcast to."""
    grids = [as_grid(c) if isinstance(c, Ranges | np.ndarray) else _filled((1, 1), c) for c in conditions]
    shape = np.broadcast_shapes(*(g.shape for g in grids))
    out = np.ones(shape, dtype=bool)
    for g in grids:
        out &= np.frompyfunc(lambda c: criterion(c)(BLANK), 1, 1)(np.broadcast_to(g, shape)).astype(bool)
    return out


def _plus_blanks(counted: Any, blanks: int, conditions: list[Any]) -> Any:
    """COUNTIF's (COUNTIFS') answer with the ``blanks`` cells of its ranges left unread counted where a
    blank cell meets its criteria (a number of the answer; an error stays)."""
    met = _blanks_counted(conditions)
    if not met.any():
        return counted
    grid = np.asarray(counted, dtype=object)
    if grid.ndim == 0:
        n = grid.item()
        return n + blanks if is_number(n) else counted
    if met.size == 1:
        met = np.broadcast_to(met.reshape(()), grid.shape)
    if grid.shape != met.shape:
        return counted
    out = grid.copy()
    for idx, n in np.ndenumerate(grid):
        if met[idx] and is_number(n):
            out[idx] = n + blanks
    return out.view(Array)


def with_unread(counted: Any, range_: Any, condition: Any) -> Any:
    """COUNTIF(``range_``, ``condition``) from ``counted``, its count of the cells read: a whole column
    or row is read as its cells present, and the rest of it, blank, counts where a blank cell meets
    ``condition`` (``lib.running`` counts a range read from its first row so)."""
    spans = _spans(range_)
    if spans is None or spans[0] == spans[1]:
        return counted
    (rows, cols), (read_rows, read_cols) = spans
    return _plus_blanks(counted, rows * cols - read_rows * read_cols, [condition])


def keeping_blanks(name: str, first: int, made: Any = None) -> Wraps:
    """formulas' own ``name`` (corrected by ``made``, where given) given its criteria ranges, every
    other argument from ``first`` on (COUNTIF's range: 0; SUMIFS' criteria_range1: 1), with their
    blank cells ``BLANK``. Whole columns or rows among its ranges (and SUMIFS' sum_range...), each
    read as its cells present, are read to one size, the blank cells below (right of) them as blank
    (formulas answered #VALUE! for ``COUNTIFS(A:A,"x",B:B,"y")`` where A and B end apart); COUNTIF and
    COUNTIFS count the cells left unread (a whole column has 1,048,576) where a blank cell meets the
    criteria (``COUNTIF(A:A,"<>x")``) without reading them."""
    counts = name in ("COUNTIF", "COUNTIFS")

    def make(table: FunctionTable) -> Any:
        original = lazy(table, name)

        def run(*args: Any) -> Any:
            ranges = ([0] if first == 1 else []) + list(range(first, len(args), 2))
            spans = [_spans(args[i]) for i in ranges]
            unread = 0
            if all(s is not None for s in spans) and any(s is not None and s[0] != s[1] for s in spans):
                full = {s[0] for s in spans if s is not None}
                if len(full) == 1:
                    (rows, cols) = full.pop()
                    shape = (max(s[1][0] for s in spans if s), max(s[1][1] for s in spans if s))
                    args = tuple(
                        _padded(a, shape, BLANK if i >= first else EMPTY) if i in ranges else a
                        for i, a in enumerate(args)
                    )
                    unread = rows * cols - shape[0] * shape[1]
            counted = original(*(_kept(a) if i >= first and (i - first) % 2 == 0 else a for i, a in enumerate(args)))
            if counts and unread > 0:
                return _plus_blanks(counted, unread, list(args[first + 1 :: 2]))
            return counted

        run.__name__ = name
        return made(run) if made is not None else run

    return Wraps(make)


def from_corner(range_: Any, other: Any) -> Any:
    """``other`` (SUMIF's sum_range, AVERAGEIF's average_range) as Excel reads it beside ``range_``:
    Microsoft's SUMIF and AVERAGEIF pages, the cells "determined by using the upper leftmost cell in the
    sum_range argument as the beginning cell, and then including cells that correspond in size and
    shape to the range argument" (read from the workbook through ``lib.sheets``); as it is where it
    has the range's shape or is no reference."""
    rows, cols = as_grid(range_).shape
    area, sheets = area_of(other), current()
    if area is not None and sheets is not None and as_grid(other).shape != (rows, cols):
        s, r1, c1 = area[:3]
        return sheets.read((s, r1, c1, r1 + rows - 1, c1 + cols - 1))
    return other


def reshaping(name: str) -> Callable[[Any], Any]:
    """SUMIF or AVERAGEIF whose sum_range (average_range) is of another size than its range: Microsoft's
    SUMIF page, "the actual cells that are added are determined by using the upper leftmost cell in the
    sum_range argument as the beginning cell, and then including cells that correspond in size and shape
    to the range argument", AVERAGEIF's page alike (``from_corner``; formulas answered #VALUE!)."""

    def make(original: Any) -> Any:
        def run(range_: Any, criteria: Any, other: Any = None) -> Any:
            if other is None:
                return original(range_, criteria)
            return original(range_, criteria, from_corner(range_, other))

        run.__name__ = name
        return run

    return make
