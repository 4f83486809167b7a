"""Every error benchsheet raises on purpose, and the Excel error values.

``BenchsheetError`` is the one base: its message is one line a person can act on, and
``exit_status`` is what the CLI exits with after printing it (``console.print_error``). The
library raises; only the CLI prints. The groups:

* ``BenchError``: a cell's answer that is an error value (``#N/A No entry '6.1-9999' in the loaded results``); each
  shell turns it into what its runtime shows (text in an xlwings cell, a real error value in the
  formula engine and xlwings Lite). Exit status 1, as for any error answer of ``benchsheet eval``.
* ``DataError``: a file that cannot be used (results, cache, runs, loadgen log): names the file,
  the row or line, and the field.
* ``RefreshError``: a download that did not replace the cache.
* ``SetupError``: the Excel add-in set-up (``benchsheet addin``).

The workbook calculator's own errors (a workbook it cannot compute or write, a file it will not
write) are ``excelcalc.errors``; the CLI prints both alike.
"""

from __future__ import annotations

import re

ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")
"""The seven classic Excel errors: the codes benchsheet answers with."""

EXCEL_ERRORS: dict[str, int] = {
    "#NULL!": 2000,
    "#DIV/0!": 2007,
    "#VALUE!": 2015,
    "#REF!": 2023,
    "#NAME?": 2029,
    "#NUM!": 2036,
    "#N/A": 2042,
    "#GETTING_DATA": 2043,
    "#SPILL!": 2045,
    "#CONNECT!": 2046,
    "#BLOCKED!": 2047,
    "#UNKNOWN!": 2048,
    "#FIELD!": 2049,
    "#CALC!": 2050,
    "#BUSY!": 2051,
}
"""Every error value a cell can hold, with its Excel error number (``XlCVError``: xlErrNull = 2000 ...
xlErrSpill = 2045; the newer ones continue the sequence, #BUSY! assumed next). Through COM a cell error
is a VT_ERROR whose code is 0x800A0000 + this number; see ``vt_error``."""

ALL_ERROR_CODES = tuple(EXCEL_ERRORS)


def vt_error(code: str) -> int:
    """The signed 32-bit integer pywin32 gives for a cell holding the error ``code`` (#SPILL!: -2146826243)."""
    return 0x800A0000 + EXCEL_ERRORS[code] - (1 << 32)


VT_ERRORS: dict[int, str] = {vt_error(code): code for code in EXCEL_ERRORS}
"""VT_ERROR integer -> error code, as a classic xlwings UDF receives a cell error it does not name itself."""


class BenchsheetError(Exception):
    """Base of the errors benchsheet raises on purpose: a one-line message, and the CLI's exit status."""

    exit_status = 2


CELL_TEXT_LIMIT = 32_767
"""The most characters an Excel cell holds: no text benchsheet answers is longer."""
CLASSIC_TEXT_LIMIT = 255
"""The longest text a classic (Windows, VBA) xlwings UDF can answer in a cell: xlwings hands every answer
to VBA as a Variant array, and Excel shows #VALUE! for an element longer than this (xlwings issue #456)."""
_LIST_WORD = re.compile(r"\b(?:one of|use|known for|have|has) ")
"""Where a list may start (``use one of a, b, c``): a fixed word, found in one pass of the text."""
_LIST_END = re.compile(r"[;:()]")


def _list_at(text: str) -> tuple[int, int] | None:
    """Where the first list of the text starts and ends: after the first of ``_LIST_WORD`` that is followed,
    before the next ``;:()``, by an item, ", " and another item. The positions of the next ", " and the
    next ``;:()`` only move forward as the words do, so the text is read once (a backtracking pattern
    took 16 s on ten cells of 32,000 characters)."""
    comma = stop = -1
    for word in _LIST_WORD.finditer(text):
        start = word.end()
        if comma != -2 and comma < start + 1:
            found = text.find(", ", start + 1)
            comma = found if found >= 0 else -2  # -2: no ", " after here, nor after any later word
        if stop < start:
            end = _LIST_END.search(text, start)
            stop = end.start() if end else len(text)
        if comma == -2:
            return None
        if comma + 2 < stop:
            return start, stop
    return None


def shortened(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, its start (an error's code and reason) kept.

    A list (``use one of a, b, c, ...``) keeps its first items and says how many are left out
    (``a, b and 31 more``); otherwise the text is cut at a word and ends in "…". Linear in the text.
    """
    if len(text) <= limit:
        return text
    found = _list_at(text)
    if found:
        head, items, tail = text[: found[0]], text[found[0] : found[1]].split(", "), text[found[1] :]
        size = len(head) + len(tail) + sum(map(len, items)) + 2 * (len(items) - 1)  # all items joined
        for keep in range(len(items) - 1, 0, -1):
            size -= len(items[keep]) + 2
            if size + len(f" and {len(items) - keep} more") <= limit:
                return f"{head}{', '.join(items[:keep])} and {len(items) - keep} more{tail}"
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def money_text(x: float) -> str:
    """A sum of money as a reason quotes it: cents from $1 up ($1,234.57), three significant digits below
    ($0.833, $0.0001, $1E-09: never "$0.00" for a price that is not 0), and Excel's scientific notation from
    $1E+15 up ($2.778E+299, never 300 digits)."""
    a = abs(x)
    body = f"{a:.4G}" if a >= 1e15 else f"{a:,.2f}" if a >= 1 or a == 0 else f"{a:.3G}"
    return ("-" if x < 0 else "") + "$" + body


def share_text(x: float, sign: bool = False) -> str:
    """A share the user typed, as a percentage to its last digit (0.305: "30.5%", not "30%"); ``sign``: "+30.5%"."""
    return f"{x * 100:{'+' if sign else ''}.10G}%"


class BenchError(BenchsheetError):
    """A look-up or argument that cannot give a value, and why (never longer than a cell holds)."""

    exit_status = 1

    def __init__(self, code: str, reason: str) -> None:
        assert code in ERROR_CODES, code
        reason = shortened(reason, CELL_TEXT_LIMIT - len(code) - 1)
        super().__init__(f"{code} {reason}")
        self.code = code
        self.reason = reason

    @property
    def text(self) -> str:
        return f"{self.code} {self.reason}"


def not_available(reason: str) -> BenchError:
    return BenchError("#N/A", reason)


def bad_value(reason: str) -> BenchError:
    return BenchError("#VALUE!", reason)


def os_reason(exc: OSError) -> str:
    """An operating system error in words: "FILE: No such file or directory", not Python's "[Errno 2] ..."."""
    what = exc.strerror or type(exc).__name__
    if exc.filename is None:
        return what
    other = f" -> {exc.filename2}" if exc.filename2 is not None else ""
    return f"{exc.filename}{other}: {what}"


def too_large(where: str = "") -> BenchError:
    """``#NUM!`` for an answer that is not a finite number (Excel has no infinity and no NaN)."""
    return BenchError("#NUM!", f"{where}the answer is too large to be a number; check the inputs' units")


class DataError(BenchsheetError):
    """A results or cache file that cannot be used: names the file, row and field."""

    def __init__(
        self, file: str, row: int | str | None, field: str | None, reason: str, *, line: int | None = None
    ) -> None:
        where = file
        if row is not None:
            where += f", row {row}"
        if line is not None:
            where += f", line {line}"
        if field:
            where += f", field {field!r}"
        super().__init__(f"{where}: {reason}")
        self.file = file
        self.row = row
        self.line = line
        self.field = field
        self.reason = reason


class RefreshError(BenchsheetError):
    """Why a refresh did not replace the cache."""


class SetupError(BenchsheetError):
    """A step of the Excel add-in set-up that cannot be done."""


MAX_RESULT = 1e12
"""No MLPerf result comes near this (the largest official one is a few million per second): a
value above it in a file is a defect, not a measurement, and would overflow the ratios built on it."""
MIN_RESULT = 1e-6
"""No MLPerf result comes near this (the smallest official one is about 0.01 samples/s): a smaller
value, a denormal such as 5e-324 above all, is a defect that would answer 0 per GPU and divide by zero."""
MAX_ACCELERATORS = 1_000_000
"""More accelerators than any system holds: a count above it is a defect."""
