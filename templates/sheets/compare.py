"""The Compare sheet: accelerator families ranked by best per-GPU throughput for the workload, with
their median, and a chart.
"""

from __future__ import annotations

from collections.abc import Mapping

from benchsheet.templates.layout import (
    ArrayBlock,
    Cell,
    Chart,
    Cite,
    Column,
    Expr,
    Fields,
    Formula,
    Lifted,
    RowCells,
    Series,
    TableBlock,
    call,
    eq,
    if_,
    lit,
    under,
)
from benchsheet.templates.sheets.common import (
    COMPARE,
    FAMILY_RULE,
    canonical,
    filters,
    if_number,
    notes,
    sheet,
    unless_blank,
    unless_error,
)
from benchsheet.templates.sheets.workload import AVAILABILITY, MAX_GPUS, linked

COMPARE_FILTERS = Fields(
    COMPARE,
    top=5,
    title="Workload",
    fields=(linked("benchmark", "set on Sizing"), linked("scenario", "set on Sizing"), AVAILABILITY, MAX_GPUS),
)
_FAMILY_FILTERS = filters(COMPARE_FILTERS)


def _ranked(r: RowCells) -> Expr:
    """The families ranked for the workload, from FAMILIES' hidden answer; a family typed over a cell pins
    it, and the formula copied back from any other row ranks it again (the rank is the cell's own row)."""
    answer = Expr((RANKED.cell(RANKED.top, 0).abs, ":", RANKED.cell(RANKED.end, 0).abs))
    return call("INDEX", answer, call("ROW") - (r.first - 1))


def _of_family(name: str) -> Formula:
    """BEST or MEDIANPERGPU of the row's family under the sheet's filters: a formula a row, as the chart plots
    (``calc`` trims a chart to the rows in use by its formulas)."""
    return Formula(lambda r: unless_blank(r["family"], call(name, r["family"], *_FAMILY_FILTERS)), "out_num")


def _entries() -> Lifted:
    """BESTENTRY of every row's family under the sheet's filters: one call for the column."""
    return Lifted(lambda c: unless_blank(c["family"], call("BESTENTRY", c["family"], *_FAMILY_FILTERS)), "out_text")


def _of_entry(field: str) -> Lifted:
    """ENTRY's ``field`` of every row's entry behind the best (its error as it is): one call for the column."""

    def value(c: Mapping[str, Expr]) -> Expr:
        got = call("ENTRY", c["entry_all"], lit(field))
        return unless_blank(c["family"], unless_error(c["entry_all"], got))

    return Lifted(value)


def _shown(key: str, style: str = "out_text") -> Formula:
    """What the row's hidden cell ``key`` holds (an array formula's element): a plain formula shows it."""
    return Formula(lambda r: Expr.of(r[key]), style)


def _caption(bench: Cell, scen: Cell, avail: Cell, maxg: Cell) -> Expr:
    """What the table (and its chart) show, under which filters."""
    size = if_(eq(maxg, lit("")), lit("any system size"), lit("at most ") & maxg & lit(" GPUs"))
    shown = canonical(avail, "availability")
    return lit("Per-GPU throughput by family: ") & bench & lit(" ") & scen & lit(", ") & shown & lit(", ") & size


COMPARE_TABLE = TableBlock(
    COMPARE,
    header_row=under(COMPARE_FILTERS),
    slots=16,
    title=_caption(*_FAMILY_FILTERS),
    header_height=30,
    cite=Cite("entry"),
    columns=(
        Column("family", "Family", Formula(_ranked, "in_text"), FAMILY_RULE),
        Column("best", "Best per-GPU", _of_family("BEST")),
        Column("entry", "Entry behind best", _shown("entry_all")),
        Column(
            "round",
            "Round of best",  # "v" added here: in the array formula it makes LibreOffice recompute it on load
            Formula(lambda r: unless_blank(r["round_all"], unless_error(r["round_all"], lit("v") & r["round_all"]))),
        ),
        Column("system", "System", _shown("system_all", "out_wrap")),  # a long name wraps, never cut
        Column("median", "Median per-GPU", _of_family("MEDIANPERGPU")),
        Column(
            "best_over_median",
            "Best / median",
            Formula(lambda r: if_number(r["best"], if_number(r["median"], r["best"] / r["median"])), "out_ratio"),
        ),
        # hidden (H:J): the entries behind the best and their round and system, one array formula a column
        Column("entry_all", "entry behind best", _entries()),
        Column("round_all", "round of best", _of_entry("round")),
        Column("system_all", "system", _of_entry("system")),
    ),
)
COMPARE_CHART = Chart(
    top=under(COMPARE_TABLE, gap=2, titled=False),
    kind="bar",
    series=tuple(
        Series(name, COMPARE_TABLE.column("family"), COMPARE_TABLE.column(key), {"fill": {"color": color}, "gap": 60})
        for key, name, color in (("best", "Best per-GPU", "#2F5597"), ("median", "Median per-GPU", "#A9C4EB"))
    ),
    title=COMPARE_TABLE.title_cell,
    x_axis={"name": "per-GPU throughput (the benchmark's units per second)", "num_format": "#,##0"},
    y_axis={"reverse": True},
    legend="bottom",
    width=860,
    height=460,
)
RANKED = ArrayBlock(COMPARE, COMPARE_TABLE.first, 10, COMPARE_TABLE.slots, 1, call("FAMILIES", *_FAMILY_FILTERS))
"""FAMILIES' answer from one call, in the hidden column K beside the table that ranks it."""
COMPARE_SHEET = sheet(
    COMPARE,
    (("A", 24), ("B", 13), ("C:D", 11), ("E", 52), ("F:G", 13), ("H:K", 0)),
    (
        COMPARE_FILTERS,
        COMPARE_TABLE,
        COMPARE_CHART,
        RANKED,
        notes(COMPARE, under(COMPARE_CHART, gap=0, titled=False)),
    ),
)
