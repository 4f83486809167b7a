"""Excel 365's TEXTBEFORE and TEXTAFTER (Text group, issue 41 item 7), the engine's own: formulas' own
answered #VALUE! for a case-insensitive match_mode and a match_end, and TEXTAFTER("a-b-c","-",-3,,1)
"b-c-". Each as Microsoft's page states it (support.microsoft.com/en-us/office/textbefore-function,
textafter-function), a text argument of several cells answered cell by cell.
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


def _flag(v: Any, what: str) -> bool | XlError | ReasonedError:
    if v is None or scalar(v) is EMPTY:
        return False
    got = plain_number(v, what)
    if isinstance(got, XlError):
        return got
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

FUNCTIONS: dict[str, Entry] = {
    "TEXTBEFORE": textbefore,
    "_XLFN.TEXTBEFORE": textbefore,
    "TEXTAFTER": textafter,
    "_XLFN.TEXTAFTER": textafter,
}
