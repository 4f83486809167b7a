"""Excel 365's TEXTBEFORE, TEXTAFTER and TEXTSPLIT (Text group, issue 41 item 7), the engine's own:
formulas' own answered #VALUE! for a case-insensitive match_mode and a match_end, and
TEXTAFTER("a-b-c","-",-3,,1) "b-c-". Each as Microsoft's page states it
(support.microsoft.com/en-us/office/textbefore-function, textafter-function, textsplit-function), a
text argument of several cells answered cell by cell (TEXTSPLIT: each cell's first piece, as Excel
makes no array of arrays).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from excelcalc.backend import EMPTY, Array, Ranges, XlError, as_grid, error
from excelcalc.lib._common import Entry, plain_number, scalar
from excelcalc.lib.text import as_text
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS"]


def _text(v: Any) -> Any:
    v = scalar(v)
    if v is None or v is EMPTY:
        return ""
    return as_text(v)


def _found(text: str, delimiters: list[str], n: int, fold: bool, end: bool) -> tuple[int, int] | None:
    """Where the n-th delimiter (from the end where n < 0) starts and ends in ``text``; the end of the
    text (its start, from the end) is one more where ``end``."""
    hay = text.casefold() if fold else text
    needles = [d.casefold() if fold else d for d in delimiters]
    count = 0
    if n > 0:
        i = 0
        while i <= len(hay):
            hit = next((d for d in needles if hay.startswith(d, i)), None) if i < len(hay) else None
            if hit is not None:
                count += 1
                if count == n:
                    return i, i + len(hit)
                i += len(hit)
            else:
                i += 1
        return (len(text), len(text)) if end and count + 1 == n else None
    i = len(hay)
    while i >= 0:
        hit = next((d for d in needles if i >= len(d) and hay.endswith(d, 0, i)), None) if i > 0 else None
        if hit is not None:
            count += 1
            if count == -n:
                return i - len(hit), i
            i -= len(hit)
        else:
            i -= 1
    return (0, 0) if end and count + 1 == -n else None


def _flag(v: Any, what: str, any_number: bool = False) -> bool | XlError | ReasonedError:
    """A 0-or-1 argument (``any_number``: any number, 0 FALSE, else TRUE); left out, FALSE."""
    if v is None or scalar(v) is EMPTY:
        return False
    got = plain_number(v, what)
    if isinstance(got, XlError):
        return got
    if any_number:
        return got != 0
    if got not in (0, 1):
        return ReasonedError("#VALUE!", f"{what} is 0 or 1")
    return bool(got)


def _part(after: bool) -> Any:
    name = "TEXTAFTER" if after else "TEXTBEFORE"

    def one(text: Any, delimiter: Any, instance: Any, mode: Any, end: Any, if_not_found: Any) -> Any:
        t = _text(text)
        if isinstance(t, XlError):
            return t
        if t == "":  # "If text is an empty string, Excel returns empty text"
            return ""
        delimiters = [_text(d) for d in as_grid(delimiter).flat]
        for d in delimiters:
            if isinstance(d, XlError):
                return d
        n = 1.0 if instance is None or scalar(instance) is EMPTY else plain_number(instance, f"{name}'s instance_num")
        if isinstance(n, XlError):
            return n
        k = int(n)
        if k == 0 or abs(k) > max(len(t), 1):
            return ReasonedError("#VALUE!", f"{name}'s instance_num is not 0 and at most the text's length")
        fold, at_end = _flag(mode, f"{name}'s match_mode"), _flag(end, f"{name}'s match_end")
        for f in (fold, at_end):
            if isinstance(f, XlError):
                return f
        if any(d == "" for d in delimiters):  # "When searching with an empty delimiter value, ... matches immediately"
            before = k < 0
            return (t if before else "") if not after else ("" if before else t)
        where = _found(t, delimiters, k, bool(fold), bool(at_end))
        if where is None:
            return error("#N/A") if if_not_found is None else scalar(if_not_found)
        return t[where[1] :] if after else t[: where[0]]

    def run(
        text: Any, delimiter: Any, instance: Any = None, mode: Any = None, end: Any = None, if_not_found: Any = None
    ) -> Any:
        if isinstance(text, Ranges | np.ndarray) and as_grid(text).size > 1:
            grid = as_grid(text)
            out = np.empty(grid.shape, dtype=object)
            for i, v in enumerate(grid.flat):
                out.flat[i] = one(v, delimiter, instance, mode, end, if_not_found)
            return out.view(Array)
        return one(text, delimiter, instance, mode, end, if_not_found)

    run.__name__ = name
    return run


textbefore, textafter = _part(False), _part(True)


def _delimiters(v: Any, what: str) -> list[str] | XlError | None:
    """A delimiter argument's texts (an array holds several; a blank cell is empty text); None where it
    is left out."""
    if v is None or v is EMPTY:
        return None
    out: list[str] = []
    for d in as_grid(v).flat:
        t = _text(d)
        if isinstance(t, XlError):
            return t
        if t == "":
            return ReasonedError("#VALUE!", f"TEXTSPLIT's {what} of empty text is not computed by benchsheet")
        out.append(t)
    return out


def _split(text: str, delimiters: list[str], fold: bool) -> list[str]:
    """``text`` cut at each delimiter, the first of ``delimiters`` that matches at a place winning."""
    needles = [d.lower() if fold else d for d in delimiters]
    pieces: list[str] = []
    start = i = 0
    while i < len(text):
        hit = next((d for d in needles if (text[i : i + len(d)].lower() if fold else text[i : i + len(d)]) == d), None)
        if hit is None:
            i += 1
            continue
        pieces.append(text[start:i])
        i += len(hit)
        start = i
    pieces.append(text[start:])
    return pieces


def _textsplit_one(
    text: Any, cols: list[str] | None, rows: list[str] | None, ignore: bool, fold: bool, pad: Any
) -> Any:
    t = _text(text)
    if isinstance(t, XlError):
        return t
    lines = _split(t, rows, fold) if rows else [t]
    grid = [_split(line, cols, fold) if cols else [line] for line in lines]
    if ignore:  # "Specify TRUE to ignore consecutive delimiters"
        grid = [kept for kept in ([p for p in row if p != ""] for row in grid) if kept]
    if not grid:
        return ReasonedError("#CALC!", "TEXTSPLIT has nothing to show: every piece is empty (Excel has no empty array)")
    width = max(len(row) for row in grid)
    if len(grid) == 1 and width == 1:
        return grid[0][0]
    out = np.empty((len(grid), width), dtype=object)
    for r, row in enumerate(grid):
        for c in range(width):
            out[r, c] = row[c] if c < len(row) else pad  # "The value with which to pad the result"
    return out.view(Array)


def textsplit(
    text: Any,
    col_delimiter: Any = None,
    row_delimiter: Any = None,
    ignore_empty: Any = None,
    match_mode: Any = None,
    pad_with: Any = None,
) -> Any:
    """TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty], [match_mode], [pad_with])
    (Microsoft's page): "Splits text strings by using column and row delimiters"; several delimiters
    as an array constant; ignore_empty "Defaults to FALSE, which creates an empty cell"; match_mode 1
    case-insensitive; pad_with "The default is #N/A". A text of several cells: each cell's first piece."""
    cols, rows = _delimiters(col_delimiter, "col_delimiter"), _delimiters(row_delimiter, "row_delimiter")
    for d in (cols, rows):
        if isinstance(d, XlError):
            return d
    if not cols and not rows:
        return ReasonedError("#VALUE!", "TEXTSPLIT needs a col_delimiter or a row_delimiter")
    ignore = _flag(ignore_empty, "TEXTSPLIT's ignore_empty", any_number=True)
    fold = _flag(match_mode, "TEXTSPLIT's match_mode")
    for f in (ignore, fold):
        if isinstance(f, XlError):
            return f
    pad = error("#N/A") if pad_with is None or scalar(pad_with) is EMPTY else scalar(pad_with)
    args = (cols, rows, bool(ignore), bool(fold), pad)
    if isinstance(text, Ranges | np.ndarray) and as_grid(text).size > 1:
        grid = as_grid(text)
        out = np.empty(grid.shape, dtype=object)
        for i, v in enumerate(grid.flat):
            one = _textsplit_one(v, *args)
            out.flat[i] = one.flat[0] if isinstance(one, np.ndarray) else one
        return out.view(Array)
    return _textsplit_one(text, *args)


FUNCTIONS: dict[str, Entry] = {
    "TEXTBEFORE": textbefore,
    "_XLFN.TEXTBEFORE": textbefore,
    "TEXTAFTER": textafter,
    "_XLFN.TEXTAFTER": textafter,
    "TEXTSPLIT": textsplit,
    "_XLFN.TEXTSPLIT": textsplit,
}
