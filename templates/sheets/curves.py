"""The Curves sheet: MLPerf Endpoints curves of a model, per-GPU tokens/s against tokens/s per user for a
baseline and up to three candidates, drawn as the official step function (Endpoints rules 5.2: no smoothing,
no interpolation) with flagged points marked apart and each curve's Offline ceiling, the user's target
interactivity marked on the chart, and the break-even of each candidate against the baseline at that target
(BREAKEVEN with an interactivity).

The curves are the user's (``benchsheet import-run <submission folder>``): none is bundled. Each slot starts
as the next loaded curve of the model (CURVES, in hidden cells), so a build after an import shows them with
nothing typed; a curve typed over a slot that is not loaded says so in its row; a test submission's curve
says so in its note.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from benchsheet.templates.layout import (
    ArrayBlock,
    Block,
    Cell,
    Chart,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Input,
    NumberRule,
    Put,
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
LISTED = 16  # the loaded curves of the model the hidden CURVES block holds (the slots take the first four)

_TOP = 5  # the inputs' first row, and the hidden blocks' header row
_STEP_COLS = 8  # CURVESTEPS: x and y of the step line's corners, the measured points, flagged points, Offline ends
_DATA_LEFT = 12  # column M: each slot's CURVESTEPS, then the loaded curves (CURVES), all hidden
_AXIS = Cell(CURVES, _TOP + 2 * POINTS + 1, _DATA_LEFT)
"""Hidden, under the baseline's CURVESTEPS: the loaded curves' x-axis in words, from the heading CURVESTEPS gives
its step line's x ("tokens/s per user (official steps)", an agentic model's "e2e_avg_interactivity (...)")."""
_AXIS_TITLE = Cell(CURVES, _AXIS.row, _DATA_LEFT + 1)
"""Hidden, beside it: the chart's x-axis title, the axis and that the chart draws only measured steps."""

CURVES_INPUTS = Fields(
    CURVES,
    top=_TOP,
    title="Model and target",
    fields=(
        Field("model", "Model", Input("gpt-oss-120b"), "as the curves name it (CURVES lists them)"),
        Field(
            "target",
            lit("Target ") & _AXIS,
            Input(100, "in_int"),
            "the interactivity you will serve at: 1000 / TPOT p90 ms (agentic: e2e_avg_interactivity)",
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
LOADED = ArrayBlock(
    CURVES, CURVES_INPUTS.top, _DATA_LEFT + _STEP_COLS * len(ROLES), LISTED + 1, 9, call("CURVES", _MODEL)
)
"""The loaded curves of the model (CURVES: curve, submitter, ..., note), header row first; empty text where none."""


def _listed(r: RowCells) -> Expr:
    """A slot's curve until the user types one: the next loaded curve of the model ("" past the last)."""
    i = r["curve"].row - CURVES_TABLE.row(0)["curve"].row
    return Expr.of(Cell(CURVES, LOADED.top + 1 + i, LOADED.left))


def _note(r: RowCells) -> Expr:
    """What the slot's curve is where it is no MLPerf result (a test submission, your own run): CURVES' note."""
    first, last = Cell(CURVES, LOADED.top + 1, LOADED.left), Cell(CURVES, LOADED.top + LISTED, LOADED.left + 8)
    listed = Expr((first.abs, ":", last.abs))
    return call("IFERROR", call("VLOOKUP", r["curve"], listed, 9, Expr(("FALSE",))), lit(""))


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
    title=lit("Per-GPU tokens/s at ") & _TARGET & lit(" ") & _AXIS & lit(": ") & _MODEL & lit(", MLPerf Endpoints"),
    header_height=44,
    columns=(
        Column("role", "Role", Text("", "label"), values=ROLES),
        Column("curve", "Endpoints curve (the loaded ones until you type one)", Formula(_listed, "in_text")),
        # the target in every row, never "": the chart's marker series needs numbers for its x values
        Column("at_x", lit("Target ") & _AXIS, Formula(lambda r: Expr.of(_TARGET), "out_num")),
        Column(
            "per_gpu",
            "Per-GPU tokens/s at the target (CURVEAT)",
            Formula(lambda r: unless_blank(r["curve"], call("CURVEAT", r["curve"], _TARGET)), "out_num"),
        ),
        Column("breakeven", "Break-even vs baseline (BREAKEVEN)", Formula(_ratio, "out_ratio")),
        Column("ceiling", "Ceiling $/GPU-hour (BREAKEVENPRICE)", Formula(lambda r: _ratio(r, True), "out_money")),
        Column("note", "Note", Formula(_note, "out_text")),
    ),
)
CURVE_DATA = tuple(
    ArrayBlock(
        CURVES,
        CURVES_INPUTS.top,
        _DATA_LEFT + _STEP_COLS * i,
        2 * POINTS + 1,
        _STEP_COLS,
        unless_blank(
            CURVES_TABLE.row(i)["curve"].abs, call("CURVESTEPS", CURVES_TABLE.row(i)["curve"].abs, lit(ROLES[i]))
        ),
    )
    for i in range(len(ROLES))
)
"""Each slot's CURVESTEPS (header row first): its step line's corners, its measured points, its flagged points,
its Offline ceiling's two ends, each an x and a y column."""


def _column(block: ArrayBlock, j: int) -> Span:
    return Span(Cell(CURVES, block.top + 1, block.left + j), Cell(CURVES, block.top + 2 * POINTS, block.left + j))


def _name(block: ArrayBlock, j: int) -> Cell:
    """Hidden, under the slot's block: the name of the series of its pair ``j`` (its y column), empty text where
    the pair has nothing to plot (no flagged point, no Offline result): a chart built so leaves it out."""
    return Cell(CURVES, block.top + 2 * POINTS + 1, block.left + j)


@dataclass(frozen=True)
class _SeriesNames(Block):
    """The optional series' names of every slot (flagged points, Offline ceiling), plain formulas: no call."""

    sheet: str = CURVES

    @property
    def end(self) -> int:  # type: ignore[override]
        return CURVE_DATA[0].top + 2 * POINTS + 1

    def puts(self) -> Iterator[Put]:
        heading = Cell(CURVES, _TOP, _DATA_LEFT)  # the baseline's x heading; "–" in an empty slot: the default
        axis = call("LEFT", heading, call("FIND", lit(" ("), heading) - 1)
        yield Put(_AXIS, Formula(call("IFERROR", axis, lit("tokens/s per user"))))
        yield Put(_AXIS_TITLE, Formula(_AXIS & lit("; official steps as measured, not interpolated (rules 5.2)")))
        for block in CURVE_DATA:
            for j in (5, 7):
                first, header = Cell(CURVES, block.top + 1, block.left + j), Cell(CURVES, block.top, block.left + j)
                yield Put(_name(block, j), Formula(if_(call("ISNUMBER", first), header, lit(""))))


_COLORS = ("#1F4E79", "#C55A11", "#548235", "#7030A0")
_STRAIGHT = {"smooth": False}  # rules 5.2: no smoothing (rendered with LibreOffice 7.4: straight segments)


def _slot_series(i: int, block: ArrayBlock) -> tuple[Series, ...]:
    """A slot's official step line (straight segments through its corners: rules 5.2 allow no smoothing), its
    measured points, its flagged points (a red cross) and its Offline ceiling (dashed); the last three named by
    the answer's header (the last two through ``_name``), empty text (and so left out of a chart built so) where
    the slot or the curve has none."""
    color = {"color": _COLORS[i]}
    return (
        Series(
            ROLES[i] + ": official steps",
            _column(block, 0),
            _column(block, 1),
            {"line": {"color": _COLORS[i], "width": 1.75}, "marker": {"type": "none"}, **_STRAIGHT},
        ),
        Series(
            Cell(CURVES, block.top, block.left + 3),  # empty text in a slot empty when built: left out
            _column(block, 2),
            _column(block, 3),
            {"line": {"none": True}, "marker": {"type": "circle", "size": 5, "fill": color, "border": color}},
        ),
        Series(
            _name(block, 5),
            _column(block, 4),
            _column(block, 5),
            {"line": {"none": True}, "marker": {"type": "x", "size": 9, "border": {"color": "#C00000", "width": 1.5}}},
        ),
        Series(
            _name(block, 7),
            _column(block, 6),
            _column(block, 7),
            {"line": {"color": _COLORS[i], "width": 1, "dash_type": "dash"}, "marker": {"type": "none"}, **_STRAIGHT},
        ),
    )


CURVES_CHART = Chart(
    top=under(CURVES_TABLE, gap=2, titled=False),
    kind="scatter",
    series=(
        *(s for i, block in enumerate(CURVE_DATA) for s in _slot_series(i, block)),
        Series(
            "At the target",
            CURVES_TABLE.column("at_x"),
            CURVES_TABLE.column("per_gpu"),
            {"marker": {"type": "diamond", "size": 10, "fill": {"color": "#C00000"}}, "line": {"none": True}},
        ),
    ),
    title=CURVES_TABLE.title_cell,
    x_axis={
        "name": [CURVES, _AXIS_TITLE.row - 1, _AXIS_TITLE.col],  # XlsxWriter's [sheet, row, col], from 0
        "num_format": "#,##0",
        "min": 0,
    },
    y_axis={"name": "tokens/s per GPU", "num_format": "#,##0", "min": 0, "major_gridlines": {"visible": True}},
    legend="bottom",
    width=860,
    height=420,
)
CURVES_SHEET = sheet(
    CURVES,
    (("A", 30), ("B", 30), ("C:F", 17), ("G", 40), ("M:BA", 0)),
    (
        CURVES_INPUTS,
        CURVES_TABLE,
        CURVES_CHART,
        *CURVE_DATA,
        LOADED,
        _SeriesNames(),
        notes(CURVES, under(CURVES_CHART, gap=0, titled=False)),
    ),
)

__all__ = ["CURVES", "CURVES_CHART", "CURVES_INPUTS", "CURVES_SHEET", "CURVES_TABLE", "CURVE_DATA", "EMPTY", "ROLES"]
