"""Excel's Information functions the engine computes itself; the others of the group it takes from
formulas as they are (``FORMULAS``), checked against Excel.

* ISNUMBER: TRUE for a number only, never for a text that reads as one (formulas said TRUE for "5").
* N: TRUE is 1 and FALSE 0 (formulas answered TRUE itself).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from excelcalc.args import is_number, one_value
from excelcalc.backend import Array, XlError, as_grid, cellwise
from excelcalc.lib._common import Entry, formulas_own

__all__ = ["FUNCTIONS"]


def isnumber(v: Any) -> Any:
    """ISNUMBER: TRUE for a number only (``ISNUMBER("5")`` is FALSE), cell by cell over a range."""
    grid = as_grid(v)
    out = cellwise(is_number, grid)
    return out if one_value(v) is False else out.flat[0]


def n(v: Any) -> Any:
    """N(value) (Microsoft's N page): a number is itself, TRUE 1, FALSE 0, an error itself, anything
    else 0; of a range or an array its first value (as formulas reads it)."""
    x = as_grid(v).flat[0]
    if isinstance(x, XlError):
        out: Any = x
    elif isinstance(x, bool | np.bool_):
        out = int(x)
    else:
        out = x if is_number(x) else 0
    return np.asarray([[out]], dtype=object).view(Array)


FUNCTIONS: dict[str, Entry] = {
    "ISNUMBER": isnumber,
    "N": n,
    **formulas_own("ERROR.TYPE ISBLANK ISERR ISERROR ISLOGICAL ISNA ISNONTEXT ISREF ISTEXT NA TYPE"),
    **formulas_own("ISEVEN ISODD"),  # issue 41: the examples of Microsoft's pages
}
