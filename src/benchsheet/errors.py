"""Errors as values.

``BenchError`` carries an Excel error code and a reason a person can act on.
The analysis layer raises it; each shell turns it into what its runtime shows:
text such as ``#N/A Unknown entry 6.1-9999`` in an xlwings cell, a real error
value in the formula engine, a message and exit status 1 in the CLI.
"""

from __future__ import annotations

ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")


class BenchError(Exception):
    """A look-up or argument that cannot give a value, and why."""

    def __init__(self, code: str, reason: str) -> None:
        assert code in ERROR_CODES, code
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


class DataError(Exception):
    """A results or cache file that cannot be used: names the file, row and field."""

    def __init__(self, file: str, row: int | str | None, field: str | None, reason: str) -> None:
        where = file
        if row is not None:
            where += f", row {row}"
        if field:
            where += f", field {field!r}"
        super().__init__(f"{where}: {reason}")
        self.file = file
        self.row = row
        self.field = field
        self.reason = reason
