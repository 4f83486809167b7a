"""The exceptions excelcalc raises on purpose: one base, a one-line message a person can act on.

A cell's failure is never an exception: it is an error value (``excelcalc.values.ReasonedError``).
These are for what cannot be answered in a cell: a workbook that cannot be read, computed or
written, and a file that must not be written.
"""

from __future__ import annotations


class ExcelCalcError(Exception):
    """Base of the errors excelcalc raises on purpose; ``exit_status`` is what a command line exits with."""

    exit_status = 2


class WorkbookError(ExcelCalcError):
    """A workbook that cannot be computed or written; nothing was written."""


class WriteRefused(ExcelCalcError):
    """A file that will not be written; the message says which and why. Nothing was written."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.file = str(path)
        self.reason = reason
