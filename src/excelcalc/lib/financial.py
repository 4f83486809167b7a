"""Excel's Financial functions the engine computes itself; the others of the group it takes from
formulas as they are (``FORMULAS``), checked against Excel.

* FV with its terms in the order Excel computes them (Excel's last digits).
* NPV at a rate of -1 divides by zero, as in Excel (formulas answered inf).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from excelcalc.backend import FunctionTable, XlError, elementwise
from excelcalc.lib._common import Entry, Wraps, formulas_own, lazy, number, plain_number
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS"]


def fv(rate: float, nper: float, pmt: float, pv: float = 0.0, kind: float = 0.0) -> float:
    """FV (Microsoft's page), its terms in the order Excel computes them: POI's FormulaEvalTestData
    (Excel-cached) has ``FV(2.95,13,13000,-17406.78521481564,1)`` = 333891.23010253906 to the last
    digit; formulas answered 333891.2279 (the cancellation of terms near 6E11 shows the order)."""
    if rate == 0:
        return -(pv + pmt * nper)
    growth = (1 + rate) ** nper
    return float(-(pv * growth + pmt * (1 + rate * (1 if kind else 0)) / rate * (growth - 1)))


def npv(table: FunctionTable) -> Callable[..., Any]:
    """NPV(rate, value1, ...) (Microsoft's page: each value divided by (1 + rate)^i): at a rate of -1
    that is a division by zero, #DIV/0! in Excel; the other rates as formulas computes them."""
    original = lazy(table, "NPV")

    def run(rate: Any, *values: Any) -> Any:
        r = plain_number(rate, "NPV's rate")
        if not isinstance(r, XlError) and r == -1:
            return ReasonedError("#DIV/0!", "NPV's rate is -1: each value is divided by (1 + rate)^i, 0")
        return original(rate, *values)

    run.__name__ = "NPV"
    return run


FUNCTIONS: dict[str, Entry] = {
    "FV": elementwise(fv, number),
    "NPV": Wraps(npv),
    **formulas_own("IRR NPER PMT PV RATE SLN"),
}
