"""The Sensitivity sheet: cost per million tokens (or the benchmark's units) of one accelerator by price and
utilization (a grid and its chart).
"""

from __future__ import annotations

from benchsheet.templates.layout import (
    Chart,
    Cite,
    Expr,
    Field,
    Fields,
    Formula,
    Grid,
    Input,
    NumberRule,
    Series,
    lit,
    under,
)
from benchsheet.templates.sheets.common import (
    FAMILY_RULE,
    SENSITIVITY,
    cost_per_mtok,
    entry_used,
    notes,
    per_gpu,
    per_million,
    sheet,
)
from benchsheet.templates.sheets.workload import FILTER_KEYS, workload_links

SENS_WORKLOAD = workload_links(SENSITIVITY, *FILTER_KEYS)
SENS = Fields(
    SENSITIVITY,
    top=under(SENS_WORKLOAD),
    title="Accelerator and price range",
    cite=Cite("entry"),
    fields=(
        Field("accelerator", "Accelerator", Input("B300"), "a family (its best entry) or an entry ID", FAMILY_RULE),
        Field("entry", "Entry used", Formula(lambda s: entry_used(s["accelerator"], SENS_WORKLOAD))),
        Field("per_gpu", "Per-GPU throughput", Formula(lambda s: per_gpu(s["entry"], SENS_WORKLOAD), "out_num")),
        Field(
            "price_from",
            "$/GPU-hour, first row (example)",
            Input(2.00, "in_money"),
            "an example price, not data",
            NumberRule(0),
        ),
        Field("price_step", "$/GPU-hour, step between rows", Input(0.50, "in_money"), check=NumberRule(0)),
    ),
)
GRID_ARRAY = 10
"""Column K: the first of the hidden columns the grid's one array formula fills (the grid shows its cells)."""
SENS_GRID = Grid(
    SENSITIVITY,
    header_row=under(SENS),
    title=lit("Cost per million ")
    & per_million(SENS_WORKLOAD)
    & lit(" ($): ")
    & SENS["accelerator"]
    & lit(", ")
    & SENS_WORKLOAD["benchmark"]
    & lit(" ")
    & SENS_WORKLOAD["scenario"]
    & lit(", by $/GPU-hour and utilization"),
    corner="$/GPU-hour \\ utilization",
    across=(0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    across_style="in_pct",
    across_check=NumberRule(0.0001, 1),
    down=8,
    down_first=Expr.of(SENS["price_from"]),
    down_next=lambda above: above + SENS["price_step"],
    down_style="out_money",
    body=lambda price, utilization: cost_per_mtok(price, SENS["per_gpu"], utilization, SENS_WORKLOAD),
    body_style="out_money3",
    lifted_at=GRID_ARRAY,  # one COSTPERMTOK over the prices' column and the utilizations' row, not one a cell
)
SENS_CHART = Chart(
    top=under(SENS_GRID, gap=2, titled=False),
    kind="line",
    series=tuple(
        Series(
            SENS_GRID.across_cell(j),
            SENS_GRID.down_span(),
            SENS_GRID.body_span(j),
            {"marker": {"type": "circle", "size": 4}},
        )
        for j in range(len(SENS_GRID.across))
    ),
    title=SENS_GRID.title_cell,
    x_axis={"name": "$/GPU-hour", "num_format": "$0.00"},
    y_axis={
        "name": "$ per million (the benchmark's units)",
        "num_format": "$0.00",
        "major_gridlines": {"visible": True},
    },
    legend="right",
    width=860,
    height=400,
)
SENSITIVITY_SHEET = sheet(
    SENSITIVITY,
    (("A", 30), ("B:I", 11), ("K:R", 0)),
    (SENS_WORKLOAD, SENS, SENS_GRID, SENS_CHART, notes(SENSITIVITY, under(SENS_CHART, gap=0, titled=False))),
)
