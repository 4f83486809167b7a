"""The cells of a computed workbook, shared by the calculator and the package writer.

``Computed`` holds every cell's answer (``ComputeError``: a workbook that cannot be computed at
all); ``to_shown`` turns one answer into the value an .xlsx caches next to its formula;
``sheet_key`` compares sheet names as Excel does; ``col_number``/``col_letters`` convert column
names.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import Any

from excelcalc.backend import XlError, column_letters
from excelcalc.values import FunctionError as AddinError

__all__ = [
    "ERROR_CODES",
    "MAX_COL",
    "MAX_ROW",
    "MAX_TEXT",
    "CellKey",
    "ComputeError",
    "Computed",
    "ErrorCode",
    "col_letters",
    "col_number",
    "quote_sheet",
    "sheet_key",
    "to_shown",
]

CellKey = tuple[str, str]  # (sheet_key(sheet name), "B5")
MAX_ROW, MAX_COL = 1_048_576, 16_384
MAX_TEXT = 32_767  # characters a cell's text may have in Excel
CELL = re.compile(r"^(\$?)([A-Za-z]{1,3})(\$?)(\d+)$")
ERROR_CODES = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"})


class ComputeError(Exception):
    """The workbook cannot be computed at all (too many dependencies): nothing is written."""


class ErrorCode(str):
    """An Excel error with no reason to show: cached as a real error value."""

    __slots__ = ()


def sheet_key(name: str) -> str:
    """A sheet name compared as Excel compares them: case-insensitive, letter by letter
    (``Straße`` and ``STRASSE`` are two sheets; ``sizing`` and ``Sizing`` one)."""
    return "".join(ch.upper() if len(ch.upper()) == 1 else ch for ch in name)


@dataclass
class Computed:
    """Every cell's answer, keyed by (sheet_key(sheet), "B5")."""

    values: dict[CellKey, Any] = field(default_factory=dict)  # plain values of all cells
    formulas: dict[CellKey, str] = field(default_factory=dict)  # formula text of formula cells
    shown: dict[CellKey, float | int | bool | str] = field(default_factory=dict)  # cached value per formula cell
    errors: dict[CellKey, str] = field(default_factory=dict)  # error text per formula cell that has one
    sheet_names: dict[str, str] = field(default_factory=dict)  # sheet key -> the name as written in the file
    arrays: dict[CellKey, str] = field(default_factory=dict)  # anchor of an array formula -> its range "H2:H9"

    def where(self, key: CellKey) -> str:
        """``Sizing!B5``, ``'Read me'!B5``: a cell as Excel writes it."""
        return f"{quote_sheet(self.sheet_names.get(key[0], key[0]))}!{key[1]}"

    def shown_value(self, sheet: str, ref: str) -> float | int | bool | str | None:
        key = (sheet_key(sheet), ref.replace("$", "").upper())
        if key in self.shown:
            return self.shown[key]
        value = self.values.get(key)
        return None if value is None else to_shown(value)


@functools.lru_cache(maxsize=1024)
def quote_sheet(name: str) -> str:
    """A sheet name as a reference writes it: ``Sizing``, ``'Read me'``, ``'Bob''s'``. Memoized: a
    workbook's few sheets are named in every error its report lists (three patterns each time)."""
    if re.fullmatch(r"[A-Za-z_][\w.]*", name) and not CELL.match(name) and not re.fullmatch(r"R\d*C\d*", name, re.I):
        return name
    return "'" + name.replace("'", "''") + "'"


@functools.lru_cache(maxsize=4096)
def col_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


col_letters = functools.lru_cache(maxsize=MAX_COL)(column_letters)


def to_shown(value: Any) -> float | int | bool | str:
    """The value an .xlsx caches for an answer: an error of an add-in's functions as the add-in
    shows it (its text with the reason), every other error as a real error value (its reason goes
    to the report)."""
    kind = type(value)  # the common answers first: a sheet's thousands of numbers and texts
    if kind is str or kind is int or kind is bool:
        shown: str | int | bool = value
        return shown
    if kind is float:
        return value if math.isfinite(value) else ErrorCode("#NUM!")
    if isinstance(value, list):  # an array in one cell shows its first value, as in Excel
        value = value[0][0] if value and value[0] else None
    if isinstance(value, AddinError):
        return value.text
    if isinstance(value, XlError):
        return ErrorCode(str(value))
    if value is None:
        return ""
    if isinstance(value, bool | str):
        return str(value) if isinstance(value, str) else value
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return ErrorCode("#NUM!")
        return value
    return str(value)
