"""The Curves sheet: MLPerf Endpoints curves of a model, per-GPU tokens/s against tokens/s per user for a
baseline and up to three candidates, the user's target interactivity marked on the chart, and the
break-even of each candidate against the baseline at that target (BREAKEVEN with an interactivity).

The curves are the user's (``benchsheet import-run <submission folder>``): none is bundled, so the slots
start empty; a curve typed that is not loaded says so in its row.
"""

from __future__ import annotations

from benchsheet.templates.layout import (
    ArrayBlock,
    Cell,
    Chart,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Input,
    NumberRule,
    RowCells,
    Series,
    Span,
    TableBlock,
    Text,
    call,
    eq,
    if_,
    lit,
    under,
)
from benchsheet.templates.sheets.common import if_number, notes, sheet

EMPTY = "–"
"""What an empty slot's answers show: a dash, not an empty text (a fresh workbook's slots are all empty, and the
template keeps its formula cells mostly non-blank, tests/templates/test_builder.py)."""


def unless_blank(cell: Cell, then: Expr) -> Expr:
    """``EMPTY`` while ``cell`` (a slot's curve) is empty, else ``then``."""
    return if_(eq(cell, lit("")), lit(EMPTY), then)


CURVES = "Curves"
ROLES = ("baseline", "candidate 1", "candidate 2", "candidate 3")
POINTS = 8  # the points a curve's chart series holds (v1.0: four regions, three of the submitter's choice, Offline)

CURVES_INPUTS = Fields(
    CURVES,
    top=5,
    title="Model and target",
    fields=(
        Field("model", "Model", Input("gpt-oss-120b"), "as the curves name it (CURVES lists them)"),
        Field(
            "target",
            "Target tokens/s per user",
            Input(100, "in_int"),
            "the interactivity you will serve at: 1000 / TPOT p90 ms",
            NumberRule(0),
        ),
        Field(
            "price",
            "Baseline $/GPU-hour (example)",
            Input(5.00, "in_money"),
            "an example price, not data",
            NumberRule(0),
        ),
    ),
)
_MODEL, _TARGET, _PRICE = CURVES_INPUTS["model"], CURVES_INPUTS["target"], CURVES_INPUTS["price"]


def _ratio(r: RowCells, price: bool = False) -> Expr:
    """The row's per-GPU tokens/s over the baseline's at the target: BREAKEVEN's answer at an interactivity for
    two curves (the same CURVEAT values divided; the sheet's test checks it equal), times the baseline price for
    BREAKEVENPRICE's. Arithmetic, so that the sheet adds no calls but CURVEAT's and CURVEPOINTS' (the template's
    call budget, tests/templates/test_calls.py)."""
    base = CURVES_TABLE.row(0)["per_gpu"].abs
    ratio = if_number(r["per_gpu"], if_number(base, r["per_gpu"] / base))
    return unless_blank(r["curve"], if_number(ratio, _PRICE * ratio) if price else ratio)


CURVES_TABLE = TableBlock(
    CURVES,
    header_row=under(CURVES_INPUTS),
    slots=len(ROLES),
    title=lit("Per-GPU tokens/s at ") & _TARGET & lit(" tokens/s per user: ") & _MODEL & lit(", MLPerf Endpoints"),
    header_height=44,
    columns=(
        Column("role", "Role", Text("", "label"), values=ROLES),
        Column("curve", "Endpoints curve (CURVES lists them)", Input(None, "in_text")),
        # the target in every row, never "": the chart's marker series needs numbers for its x values
        Column("at_x", "Target tokens/s per user", Formula(lambda r: Expr.of(_TARGET), "out_num")),
        Column(
            "per_gpu",
            "Per-GPU tokens/s at the target (CURVEAT)",
            Formula(lambda r: unless_blank(r["curve"], call("CURVEAT", r["curve"], _TARGET)), "out_num"),
        ),
        Column("breakeven", "Break-even vs baseline (BREAKEVEN)", Formula(_ratio, "out_ratio")),
        Column("ceiling", "Ceiling $/GPU-hour (BREAKEVENPRICE)", Formula(lambda r: _ratio(r, True), "out_money")),
    ),
)
_DATA_LEFT = 12  # column M: the curves' points, hidden (one CURVEPOINTS call each, none for an empty slot)
CURVE_DATA = tuple(
    ArrayBlock(
        CURVES,
        CURVES_INPUTS.top,
        _DATA_LEFT + 4 * i,
        POINTS + 1,
        4,
        unless_blank(CURVES_TABLE.row(i)["curve"].abs, call("CURVEPOINTS", CURVES_TABLE.row(i)["curve"].abs)),
    )
    for i in range(len(ROLES))
)
"""Each slot's CURVEPOINTS: concurrency, tokens/s, tokens/s per user, tokens/s per GPU (header row first)."""


def _points(block: ArrayBlock, j: int) -> Span:
    return Span(Cell(CURVES, block.top + 1, block.left + j), Cell(CURVES, block.top + POINTS, block.left + j))


CURVES_CHART = Chart(
    top=under(CURVES_TABLE, gap=2, titled=False),
    kind="scatter",
    series=(
        *(
            Series(
                ROLES[i],
                _points(block, 2),
                _points(block, 3),
                {"line": {"width": 1.5}, "marker": {"type": "circle", "size": 5}, "smooth": False},
            )
            for i, block in enumerate(CURVE_DATA)
        ),
        Series(
            "At the target",
            CURVES_TABLE.column("at_x"),
            CURVES_TABLE.column("per_gpu"),
            {"marker": {"type": "diamond", "size": 10, "fill": {"color": "#C00000"}}, "line": {"none": True}},
        ),
    ),
    title=CURVES_TABLE.title_cell,
    x_axis={"name": "tokens/s per user (1000 / TPOT p90 ms)", "num_format": "#,##0", "min": 0},
    y_axis={"name": "tokens/s per GPU", "num_format": "#,##0", "min": 0, "major_gridlines": {"visible": True}},
    legend="bottom",
    width=860,
    height=420,
)
CURVES_SHEET = sheet(
    CURVES,
    (("A", 30), ("B", 30), ("C:F", 17), ("M:AB", 0)),
    (
        CURVES_INPUTS,
        CURVES_TABLE,
        CURVES_CHART,
        *CURVE_DATA,
        notes(CURVES, under(CURVES_CHART, gap=0, titled=False)),
    ),
)

__all__ = ["CURVES", "CURVES_CHART", "CURVES_INPUTS", "CURVES_SHEET", "CURVES_TABLE", "CURVE_DATA", "EMPTY", "ROLES"]
