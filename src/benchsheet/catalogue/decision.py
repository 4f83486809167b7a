"""The catalogue's functions for the buyer's decision (issue 33): owning against renting, the user's latency
target, an API's price, a power cap, a mix of workloads.

Declared as data, and made into the catalogue's ``Function`` entries by ``benchsheet.catalogue.functions``
(which is at the house's size limit): each entry is (name, arguments, help, example, the analysis function,
what it returns). An argument is a name the catalogue shares ("benchmark", "family", the filters...) or
(name, kind, help[, default]) with the kinds of ``functions.Kind``; a left-out default makes it required.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from benchsheet.analysis import tco

KindName = Literal["text", "number", "int", "round", "spec", "bool", "cells"]
ArgData = str | tuple[str, KindName, str] | tuple[str, KindName, str, Any]
Entry = tuple[str, tuple[ArgData, ...], str, str, Callable[..., Any], Literal["number", "text", "table"]]

UTILIZATION = "Share of the owned GPU's hours spent serving, > 0 and <= 1"

DECISION: tuple[Entry, ...] = (
    (
        "OWNEDGPUHOUR",
        (
            ("capex_per_gpu", "number", "Purchase price per GPU in $ (a server's price / its GPUs), >= 0"),
            ("years", "number", "Depreciation period in years, > 0"),
            ("cost_of_capital", "number", "Yearly cost of capital as a fraction, 0 to 1, e.g. 0.08 (default 0)", 0.0),
            ("residual_value", "number", "Value per GPU in $ at the end of the period, <= capex (default 0)", 0.0),
            ("kw_per_gpu", "number", "Average power per GPU in kW, your input or KWPERGPU(...) (default 0)", 0.0),
            ("pue", "number", "Power usage effectiveness, facility / IT power, >= 1 (default 1)", 1.0),
            ("price_per_kwh", "number", "Electricity in $ per kWh (default 0)", 0.0),
            ("colo_per_kw_month", "number", "Colocation in $ per kW of IT power per month (default 0)", 0.0),
            ("software_per_gpu_year", "number", "Software licences in $ per GPU per year (default 0)", 0.0),
        ),
        "$ per GPU-hour of owning, every hour of the year: (capex x CRF - residual x (CRF - r) + colocation x kW x "
        "12 + software) / 8,760 + kW x PUE x $/kWh; CRF = r(1+r)^n/((1+r)^n-1), 1/n at r = 0. COSTPERMTOK takes "
        "it like a rented price.",
        "=OWNEDGPUHOUR(30000,4,0.08,3000,1.2,1.3,0.1,150,4000)",
        tco.owned_gpu_hour,
        "number",
    ),
    (
        "RENTVSOWN",
        (
            ("owned_price_per_gpu_hour", "number", "Owned $ per GPU-hour, e.g. OWNEDGPUHOUR(...)"),
            ("utilization", "number", UTILIZATION),
        ),
        "The break-even rental $ per GPU-hour, renting only the hours served: owned / utilization. A rental below "
        "it costs less per token than owning at that utilization.",
        "=RENTVSOWN(OWNEDGPUHOUR(30000,4,0.08,3000,1.2,1.3,0.1,150,4000),0.6)",
        tco.rent_vs_own,
        "number",
    ),
    (
        "KWPERGPU",
        ("entry", "benchmark", "scenario"),
        "Measured system power / GPUs, in kW per GPU: only rows whose power MLPerf measured (PERWATT's rows) have "
        "one, cited with ENERGYCITE; a design or TDP figure is never used.",
        '=KWPERGPU("5.1-0061","llama2-70b-99","Offline")',
        tco.kw_per_gpu,
        "number",
    ),
)
