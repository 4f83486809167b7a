"""The Sensitivity sheet: cost per million tokens (or the benchmark's units) of one accelerator by price and
utilization (a grid and its chart).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from openpyxl.utils.cell import get_column_letter

from benchsheet.templates.layout import (
    Chart,
    Cite,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Grid,
    Input,
    Lifted,
    NumberRule,
    RowCells,
    Series,
    TableBlock,
    Text,
    call,
    lit,
    span,
    under,
)
from benchsheet.templates.sheets.common import (
    SENSITIVITY,
    accelerator_fields,
    cost_per_mtok,
    example_price,
    if_number,
    notes,
    per_million,
    sheet,
)
from benchsheet.templates.sheets.tco import INPUTS as TCO_INPUTS
from benchsheet.templates.sheets.tco import MOVED, OWNED_ARGS, TCO_TABLE
from benchsheet.templates.sheets.workload import FILTER_KEYS, workload_links

SENS_WORKLOAD = workload_links(SENSITIVITY, *FILTER_KEYS)
SENS = Fields(
    SENSITIVITY,
    top=under(SENS_WORKLOAD),
    title="Accelerator and price range",
    cite=Cite("entry"),
    fields=(
        *accelerator_fields(SENS_WORKLOAD, "B300"),
        example_price("price_from", "$/GPU-hour, first row (example)", 2.00),
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
SENS_NOTES = notes(SENSITIVITY, under(SENS_CHART, gap=0, titled=False))

# ------------------------------------------------------------ the tornado: every input -10% and +10%, ranked

STEP = 0.1
"""Each input moved down and up by 10%, one at a time, on TCO's first candidate (as TCO's own block)."""
_FIRST = TCO_TABLE.row(0)
_OWNED_INPUTS = tuple(m for m in MOVED if m[0] != "utilization")
"""OWNEDGPUHOUR's inputs (TCO's), moved in OWNEDGPUHOUR itself; utilization and per-GPU throughput divide."""
_DIVIDING = (("utilization", "Utilization"), ("per_gpu", "Per-GPU throughput"))
TORNADO_INPUTS = (*_OWNED_INPUTS, *_DIVIDING)
HIDDEN = 19  # column T: the first of the tornado's hidden columns
TORNADO_TOP = under(SENS_NOTES, gap=1)  # the tornado's header row (its hidden helper tables' too)
_OWNED_ARGS = OWNED_ARGS
"""OWNEDGPUHOUR's arguments in its order: every cost line TCO's owned price counts (the tornado left out the
ones after software, issue 40: every input then moved owned $/M tokens down by some 21%, both ways)."""


def _moved(r: RowCells, name: str) -> Expr:
    """OWNEDGPUHOUR's argument ``name`` on hidden row ``r``: input ``r.index // 2`` moved down (even rows) or up
    (odd rows) by STEP, the others TCO's first candidate's."""
    key, factor = _OWNED_INPUTS[r.index // 2][0], 1 - STEP if r.index % 2 == 0 else 1 + STEP
    base: dict[str, Expr] = {
        "capex": Expr.of(_FIRST["capex_gpu"].abs),
        "kw": Expr.of(_FIRST["kw"].abs),
        **{k: Expr.of(TCO_INPUTS[k]) for k in _OWNED_ARGS if k not in ("capex", "kw")},
    }
    moved = {k: v * factor if k == key else v for k, v in base.items()}
    if name == "residual":  # $ per GPU: the (moved) capex x the (moved) share
        return Expr.of(r["a_capex"]) * moved["residual"]
    return moved[name]


def _owned_all(c: Mapping[str, Expr]) -> Expr:
    return call("OWNEDGPUHOUR", *(c[f"a_{k}"] for k in _OWNED_ARGS))


MOVED_OWNED = TableBlock(
    SENSITIVITY,
    TORNADO_TOP,
    2 * len(_OWNED_INPUTS),
    (
        *(Column(f"a_{k}", k, Formula(partial(_moved, name=k))) for k in _OWNED_ARGS),
        Column("owned", "owned $/GPU-hour moved", Lifted(_owned_all, "out_num")),
    ),
    left=HIDDEN,
)


def _change(r: RowCells, side: int) -> Expr:
    """The change in owned $/M tokens with the row's input moved down (side 0) or up (side 1) by STEP."""
    owned = Expr.of(_FIRST["owned"].abs)
    if r.index >= len(_OWNED_INPUTS):  # $/M tokens divides by it: x 1/(1 -/+ 10%)
        return if_number(owned, Expr.of(1) / (1 + (STEP if side else -STEP)) - 1)
    moved = MOVED_OWNED.row(2 * r.index + side)["owned"]
    return if_number(owned, if_number(moved, moved / owned - 1))


def _swing(r: RowCells) -> Expr:
    """|up - down|, and a hair more for a row further up, so that equal swings rank in the order listed."""
    return if_number(r["low"], call("ABS", r["high"] - r["low"]) + (len(TORNADO_INPUTS) - r.index) * 1e-12)


UNRANKED = TableBlock(
    SENSITIVITY,
    TORNADO_TOP,
    len(TORNADO_INPUTS),
    (
        Column("input", "input", Text(style="out_text", fit=False), values=[label for _, label in TORNADO_INPUTS]),
        Column("low", "-10%", Formula(lambda r: _change(r, 0), "out_pct1")),
        Column("high", "+10%", Formula(lambda r: _change(r, 1), "out_pct1")),
        Column("swing", "swing", Formula(_swing, "out_pct1")),
    ),
    left=HIDDEN + len(_OWNED_ARGS) + 1,
)


def _span(column: str) -> Expr:
    return span(UNRANKED.column(column))


def _ranked(column: str, style: str) -> Formula:
    """The ``column`` of the input with the row's rank by swing (1: the largest)."""

    def value(r: RowCells) -> Expr:
        at = call("MATCH", call("LARGE", _span("swing"), r.index + 1), _span("swing"), 0)
        return call("IFERROR", call("INDEX", _span(column), at), _FIRST["owned"].abs)  # else TCO's reason

    return Formula(value, style)


TORNADO = TableBlock(
    SENSITIVITY,
    TORNADO_TOP,
    len(TORNADO_INPUTS),
    (
        Column("input", "Input (each alone)", _ranked("input", "out_text")),
        Column("low", "-10%", _ranked("low", "out_pct1")),
        Column("high", "+10%", _ranked("high", "out_pct1")),
    ),
    lit("Tornado: change in owned $/M tokens of ")
    & _FIRST["candidate"].abs
    & lit(" (TCO's first candidate) with each input -10% and +10% alone, largest first"),
    header_height=27,
)
"""Every input's effect on owned $ per million tokens, ranked (Read me's "input that matters most" is its top)."""
TORNADO_CHART = Chart(
    top=under(TORNADO, gap=1, titled=False),
    kind="bar",
    series=tuple(
        Series(
            name, TORNADO.column("input"), TORNADO.column(key), {"fill": {"color": color}, "overlap": 100, "gap": 40}
        )
        for key, name, color in (("low", "input -10%", "#2F5597"), ("high", "input +10%", "#C55A11"))
    ),
    title=TORNADO.title_cell,
    x_axis={"name": "change in owned $ per million tokens", "num_format": "0%"},
    y_axis={"reverse": True, "label_position": "low", "interval_unit": 1, "num_font": {"size": 8}},  # all named
    legend="bottom",
    width=860,
    height=380,
)
SENSITIVITY_SHEET = sheet(
    SENSITIVITY,
    (("A", 30), ("B:I", 11), ("K:R", 0), (f"T:{get_column_letter(UNRANKED.left + len(UNRANKED.columns))}", 0)),
    (
        SENS_WORKLOAD,
        SENS,
        SENS_GRID,
        SENS_CHART,
        SENS_NOTES,
        TORNADO,
        TORNADO_CHART,
        MOVED_OWNED,
        UNRANKED,
    ),
    landscape=False,  # a grid and two charts, one above the other: portrait prints them at half again the size
)
