"""Excel's Information functions the engine computes itself; the others of the group it takes from
formulas as they are (``FORMULAS``), checked against Excel.

* ISNUMBER: TRUE for a number only, never for a text that reads as one (formulas said TRUE for "5").
"""

from __future__ import annotations

from typing import Any

from excelcalc.args import is_number, one_value
from excelcalc.backend import as_grid, cellwise
from excelcalc.lib._common import Entry, formulas_own

__all__ = ["FUNCTIONS"]


def isnumber(v: Any) -> Any:
    """ISNUMBER: TRUE for a number only (``ISNUMBER("5")`` is FALSE), cell by cell over a range."""
    grid = as_grid(v)
    out = cellwise(is_number, grid)
    return out if one_value(v) is False else out.flat[0]


FUNCTIONS: dict[str, Entry] = {
    "ISNUMBER": isnumber,
    **formulas_own("ERROR.TYPE ISBLANK ISERROR ISLOGICAL ISNA ISNONTEXT ISREF ISTEXT N NA TYPE"),
}
