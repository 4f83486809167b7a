"""Excel's Financial functions the engine computes itself; the others of the group it takes from
formulas as they are (``FORMULAS``), checked against Excel.

* FV with its terms in the order Excel computes them (Excel's last digits).
"""

from __future__ import annotations

from excelcalc.backend import elementwise
from excelcalc.lib._common import Entry, formulas_own, number

__all__ = ["FUNCTIONS"]


def fv(rate: float, nper: float, pmt: float, pv: float = 0.0, kind: float = 0.0) -> float:
    """FV (Microsoft's page), its terms in the order Excel computes them: POI's FormulaEvalTestData
    (Excel-cached) has ``FV(2.95,13,13000,-17406.78521481564,1)`` = 333891.23010253906 to the last
    digit; formulas answered 333891.2279 (the cancellation of terms near 6E11 shows the order)."""
    if rate == 0:
        return -(pv + pmt * nper)
    growth = (1 + rate) ** nper
    return float(-(pv * growth + pmt * (1 + rate * (1 if kind else 0)) / rate * (growth - 1)))


FUNCTIONS: dict[str, Entry] = {
    "FV": elementwise(fv, number),
    **formulas_own("IRR NPER NPV PMT PV RATE SLN"),
}
