"""How many times a full recalculation of a workbook calls into Python: one call per benchsheet
function in each formula's text, an array formula entered over a range counted once.

From Excel, each call of a benchsheet function is a round trip from VBA to Python (xlwings); a
table read cell by cell with ``INDEX(TABLE(...),r,c)`` asks for the same table once per cell,
which an array formula over the block asks for once.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import openpyxl

from benchsheet.catalogue.functions import BY_NAME

_CALL = re.compile(r'"(?:[^"]|"")*"|(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_.]*)\s*\(')


def formula_calls(text: str) -> Counter[str]:
    """The benchsheet functions ``text`` calls, each as often as it is called (text in quotes skipped)."""
    names = (m.group(1) for m in _CALL.finditer(text) if m.group(1))
    return Counter(n.upper() for n in names if n.upper() in BY_NAME)


def sheet_recalc_calls(path: Path) -> dict[str, Counter[str]]:
    """The benchsheet function calls a full recalculation of the workbook at ``path`` makes, by sheet and function."""
    wb = openpyxl.load_workbook(path)
    try:
        out: dict[str, Counter[str]] = {}
        for ws in wb.worksheets:
            counted = out[ws.title] = Counter()
            for row in ws.iter_rows():
                for cell in row:
                    if cell.data_type == "f":
                        value = cell.value
                        counted.update(formula_calls(value if isinstance(value, str) else str(value.text)))
        return out
    finally:
        wb.close()


def recalc_calls(path: Path) -> Counter[str]:
    """The benchsheet function calls a full recalculation of the workbook at ``path`` makes, by function."""
    return sum(sheet_recalc_calls(path).values(), Counter())
