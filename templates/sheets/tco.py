"""The TCO sheet: owning against renting per candidate (OWNEDGPUHOUR, RENTVSOWN, COSTPERMTOK, APIUTILIZATION),
every owning input a labelled cell with its source or assumption, $ per million tokens by utilization (a table
and its chart), and which input moves owned $ per million tokens most (the Read me's sensitivity row).

The candidates are Sizing's, row for row (its entries, per-GPU values and GPUs per node: cited on Sources from
there); power per GPU is the candidate row's measured power (KWPERGPU) where MLPerf measured it, else the
user's input, and says which.
"""

from __future__ import annotations

from benchsheet.templates.layout import (
    ROW_PX,
    ArrayBlock,
    Cell,
    Chart,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Header,
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
    le,
    lit,
    under,
)
from benchsheet.templates.sheets.common import QUOTES, if_number, notes, sheet, unless_blank
from benchsheet.templates.sheets.sizing import SIZING_TABLE
from benchsheet.templates.sheets.workload import FILTER_KEYS, workload_links

TCO = "TCO"
RENTED_COL = 20
"""Quotes' hidden column U: each candidate's rented $/GPU-hour, worked out on Quotes from its own cells in the
TCO table's rows (and V, where it comes from), so that Quotes can take TCO's owned price without a circle."""
TCO_WORKLOAD = workload_links(TCO, *FILTER_KEYS, "utilization")
_ASSUMED = "assumption: an example, not data; type yours"
INPUT_HEADER = Header(
    TCO,
    under(TCO_WORKLOAD),
    ("Owning input", "Value", "Source / assumption"),
    "Owning inputs (for every candidate)",
    height=27,
)
INPUTS = Fields(
    TCO,
    top=INPUT_HEADER.row + 1,
    fields=(
        Field("years", "Depreciation (years)", Input(4, "in_int"), _ASSUMED, NumberRule(0.0001)),
        Field("rate", "Cost of capital (yearly)", Input(0.08, "in_pct"), _ASSUMED, NumberRule(0, 1)),
        Field("residual", "Residual value (share of capex)", Input(0.1, "in_pct"), _ASSUMED, NumberRule(0, 1)),
        Field(
            "kw",
            "Power per GPU, your input (kW)",
            Input(1.2, "in_num"),
            "assumption: yours; used only where the candidate's row has no measured power",
            NumberRule(0.0001),
        ),
        Field("pue", "PUE (facility / IT power)", Input(1.3, "in_num"), _ASSUMED, NumberRule(1)),
        Field("kwh", "Electricity ($/kWh)", Input(0.10, "in_money"), _ASSUMED, NumberRule(0)),
        Field("colo", "Colocation ($ per kW-month)", Input(150, "in_money"), _ASSUMED, NumberRule(0)),
        Field("software", "Software ($ per GPU-year)", Input(4500, "in_money0"), _ASSUMED, NumberRule(0)),
        Field("api", "API price ($ per million output tokens)", Input(0.50, "in_money"), _ASSUMED, NumberRule(0)),
    ),
)
SAMPLE_CAPEX: tuple[float, ...] = (400_000, 480_000, 240_000, 300_000, 250_000)
"""Example server prices, one a Sizing candidate row (B200, B300, GB300 with 4 GPUs a node, MI355X, H200):
assumptions for the sample, never data."""

_UTIL = TCO_WORKLOAD["utilization"]


def _sizing(key: str, style: str = "out_text") -> Formula:
    """Sizing's ``key`` on the same candidate row (empty where Sizing's row is)."""

    def value(r: RowCells) -> Expr:
        there = SIZING_TABLE.row(r.index)
        return unless_blank(there["candidate"], Expr.of(there[key]))

    return Formula(value, style)


def _gpus_per_server(r: RowCells) -> Expr:
    per_node = SIZING_TABLE.row(r.index)["gpus_per_node"]
    return unless_blank(r["candidate"], if_(eq(per_node, lit("")), 8, per_node))


def _measured(r: RowCells) -> Cell:
    """The row's measured kW per GPU (KWPERGPU's answer in the hidden column beside the table), or empty text."""
    return MEASURED.cell(r.first + r.index, 0)


def _kw(r: RowCells) -> Expr:
    return unless_blank(r["candidate"], if_(call("ISNUMBER", _measured(r)), _measured(r), INPUTS["kw"]))


def _kw_source(r: RowCells) -> Expr:
    measured = lit("measured: ") & r["entry"] & lit(" system power / GPUs (KWPERGPU)")
    yours = lit("your input: no measured power in ") & r["entry"] & lit("'s row")
    return unless_blank(r["candidate"], if_(call("ISNUMBER", _measured(r)), measured, yours))


def _owned(r: RowCells) -> Expr:
    capex = r["capex_gpu"]
    args = (INPUTS["years"], INPUTS["rate"], r["residual_gpu"], r["kw"], INPUTS["pue"])
    return unless_blank(
        r["candidate"], call("OWNEDGPUHOUR", capex, *args, INPUTS["kwh"], INPUTS["colo"], INPUTS["software"])
    )


def _span(s: Span) -> Expr:
    return Expr((s.first, ":", s.last))


def _from_quotes(j: int) -> Formula:
    """The candidate's rented price (j = 0) or where it comes from (j = 1), as Quotes works them out.

    Prices and capex computed here are formatted as plain numbers, not currency: Excel hands a currency cell
    to a function as VT_CY, rounded to 4 decimals, and the owned price is not a round number."""
    style = "out_num2" if j == 0 else "out_text"
    return Formula(lambda r: Expr.of(Cell(QUOTES, r.first + r.index, RENTED_COL + j)), style)


def _cost(price: str) -> Formula:
    return Formula(
        lambda r: unless_blank(
            r["candidate"], if_number(r["per_gpu"], call("COSTPERMTOK", r[price], r["per_gpu"], _UTIL))
        ),
        "out_money3",
    )


def _api(price: str) -> Formula:
    return Formula(
        lambda r: unless_blank(
            r["candidate"], if_number(r["per_gpu"], call("APIUTILIZATION", r[price], r["per_gpu"], INPUTS["api"]))
        ),
        "out_pct1",
    )


def _breakeven(r: RowCells) -> Expr:
    """RENTVSOWN's answer for the row, from the hidden column of one array formula (BREAKEVEN)."""
    at: Cell = BREAKEVEN.cell(r.first + r.index, 0)
    return if_number(r["owned"], at)


def _cheaper(r: RowCells) -> Expr:
    owned, rented = r["owned_mtok"], r["rented_mtok"]
    return if_number(owned, if_number(rented, if_(le(owned, rented), lit("owning"), lit("renting"))))


TCO_COLUMNS = (
    Column("candidate", "Candidate (Sizing's)", _sizing("candidate")),
    Column("gpus_server", "GPUs per server", Formula(_gpus_per_server, "out_int")),
    Column("capex_server", "Capex per server ($, example)", Input(style="in_money0"), NumberRule(0), SAMPLE_CAPEX),
    Column(
        "capex_gpu",
        "Capex per GPU ($)",
        Formula(lambda r: unless_blank(r["candidate"], r["capex_server"] / r["gpus_server"]), "out_int"),
    ),
    Column("kw", "kW per GPU used", Formula(_kw, "out_num2")),
    Column("owned", "Owned $/GPU-hour", Formula(_owned, "out_num2")),
    Column("rented", "Rented $/GPU-hour", _from_quotes(0)),
    Column("per_gpu", "Per-GPU (Sizing)", _sizing("per_gpu", "out_num")),
    Column("owned_mtok", "$/M tokens owned", _cost("owned")),
    Column("rented_mtok", "$/M tokens rented", _cost("rented")),
    Column("cheaper", "Cheaper here", Formula(_cheaper)),
    Column(
        "breakeven",
        "Rent-vs-own $/GPU-hour",
        Formula(_breakeven, "out_money"),
    ),
    Column("api_owned", "API break-even utiliz., owned", _api("owned")),
    Column("api_rented", "API break-even utiliz., rented", _api("rented")),
    Column("kw_source", "Power per GPU: measured or your input", Formula(_kw_source)),
    Column("rented_source", "Rented price from", _from_quotes(1)),
    Column("entry", "entry", _sizing("entry")),  # hidden: the entry (Sizing's)
    Column(
        "residual_gpu",
        "residual per GPU",
        Formula(lambda r: unless_blank(r["candidate"], r["capex_gpu"] * INPUTS["residual"])),
    ),  # hidden: OWNEDGPUHOUR reads it by reference
)
TCO_TABLE = TableBlock(
    TCO,
    under(INPUTS),
    SIZING_TABLE.slots,
    TCO_COLUMNS,
    "Owned against rented, per candidate (at the utilization above)",
    header_height=40,
)
_HIDDEN = len(TCO_COLUMNS)  # the first column after the table's: hidden answers of one call each
MEASURED = ArrayBlock(
    TCO,
    TCO_TABLE.first,
    _HIDDEN,
    TCO_TABLE.slots,
    1,
    call("KWPERGPU", _span(TCO_TABLE.column("entry")), TCO_WORKLOAD["benchmark"], TCO_WORKLOAD["scenario"]),
)
"""KWPERGPU of each candidate's entry, from one array formula: a number only where MLPerf measured the system's
power (no measured power is no error here: the user's input stands in, and the row says so)."""
BREAKEVEN = ArrayBlock(
    TCO, TCO_TABLE.first, _HIDDEN + 1, TCO_TABLE.slots, 1, call("RENTVSOWN", _span(TCO_TABLE.column("owned")), _UTIL)
)
"""RENTVSOWN of each candidate's owned $/GPU-hour, from one array formula (a row without one shows its reason)."""
UTILIZATIONS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _series_name(r: RowCells) -> Expr:
    candidate = TCO_TABLE.row(r.index // 2)["candidate"].abs
    return unless_blank(candidate, candidate & lit(" rented" if r.index % 2 else " owned"))


def _at_utilization(j: int) -> Formula:
    """The row's candidate's $/M tokens (owned on even rows, rented on odd) at the j-th utilization:
    COSTPERMTOK is inversely proportional to utilization."""

    def value(r: RowCells) -> Expr:
        at = TCO_TABLE.row(r.index // 2)["rented_mtok" if r.index % 2 else "owned_mtok"].abs
        return if_number(at, at * _UTIL / UTILIZATIONS[j])

    return Formula(value, "out_money3")


CURVES = TableBlock(
    TCO,
    under(TCO_TABLE, gap=1, titled=False) + -(-420 // ROW_PX) + 2,  # under the chart, which plots it
    2 * SIZING_TABLE.slots,
    (
        Column("series", "Candidate, owned or rented", Formula(_series_name)),
        *(Column(f"u{j}", f"{u:.0%}", _at_utilization(j)) for j, u in enumerate(UTILIZATIONS)),
    ),
    lit("$ per million tokens by utilization, owned and rented: ")
    & TCO_WORKLOAD["benchmark"]
    & lit(" ")
    & TCO_WORKLOAD["scenario"],
)


def _row_span(block: TableBlock, i: int) -> Span:
    r = block.first + i
    return Span(Cell(TCO, r, 1), Cell(TCO, r, len(UTILIZATIONS)))


CURVES_CHART = Chart(
    top=under(TCO_TABLE, gap=1, titled=False),
    kind="line",
    series=tuple(
        Series(
            Cell(TCO, CURVES.first + i, 0),
            Span(Cell(TCO, CURVES.header_row, 1), Cell(TCO, CURVES.header_row, len(UTILIZATIONS))),
            _row_span(CURVES, i),
            {"marker": {"type": "circle", "size": 4}, "line": {"dash_type": "dash" if i % 2 else "solid"}},
        )
        for i in range(CURVES.slots)
    ),
    title=CURVES.title_cell,
    x_axis={"name": "utilization"},
    y_axis={"name": "$ per million tokens", "num_format": "$0.00", "major_gridlines": {"visible": True}},
    legend="right",
    width=960,
    height=420,
)

# ------------------------------------------------------------ which input moves owned $/M tokens most

STEP = 0.1
"""Each input moved by +10%, one at a time, on the first candidate row."""
_FIRST = TCO_TABLE.row(0)
MOVED: tuple[tuple[str, str], ...] = (
    ("capex", "Capex per GPU"),
    ("years", "Depreciation (years)"),
    ("rate", "Cost of capital"),
    ("residual", "Residual value"),
    ("kw", "Power per GPU"),
    ("pue", "PUE"),
    ("kwh", "Electricity $/kWh"),
    ("colo", "Colocation $/kW-month"),
    ("software", "Software $/GPU-year"),
    ("utilization", "Utilization"),
)


_ARGS = ("capex", "years", "rate", "residual", "kw", "pue", "kwh", "colo", "software")
"""OWNEDGPUHOUR's arguments, in its order (residual: its $ per GPU, from the share of capex)."""


def _moved_arg(name: str) -> Formula:
    """The row's value of OWNEDGPUHOUR's argument ``name``: the first candidate's, the row's input moved up by
    STEP (in a hidden cell, so that the call reads plain references)."""

    def value(r: RowCells) -> Expr:
        key = MOVED[r.index][0]
        base: dict[str, Expr] = {
            "capex": Expr.of(_FIRST["capex_gpu"].abs),
            "kw": Expr.of(_FIRST["kw"].abs),
            **{k: Expr.of(INPUTS[k]) for k in ("years", "rate", "residual", "pue", "kwh", "colo", "software")},
        }
        moved = {k: v * (1 + STEP) if k == key else v for k, v in base.items()}
        if name == "residual":  # $ per GPU: the (moved) capex x the (moved) share
            return Expr.of(r["a_capex"]) * moved["residual"]
        return moved[name]

    return Formula(value, "out_text")


def _change(r: RowCells) -> Expr:
    key = MOVED[r.index][0]
    owned = Expr.of(_FIRST["owned"].abs)
    if key == "utilization":
        return if_number(owned, Expr.of(1) / (1 + STEP) - 1)
    args = MOVE_ARGS.row(r.index)
    return if_number(owned, call("OWNEDGPUHOUR", *(args[f"a_{k}"] for k in _ARGS)) / owned - 1)


MOVE_ARGS = TableBlock(
    TCO,
    under(CURVES),
    len(MOVED),
    tuple(Column(f"a_{k}", k, _moved_arg(k)) for k in _ARGS),
    left=len(TCO_COLUMNS) + 3,
)
"""Hidden: the arguments of each row's OWNEDGPUHOUR (one input moved up by STEP), beside the table."""
MOVES = TableBlock(
    TCO,
    under(CURVES),
    len(MOVED),
    (
        Column("input", "Input moved up by 10%", Text(), values=[label for _, label in MOVED]),
        Column("change", "Change in owned $/M tokens", Formula(_change, "out_pct1")),
    ),
    lit("Which input moves owned $/M tokens most: ") & _FIRST["candidate"].abs & lit(", each input +10% alone"),
    header_height=40,
)


def _most() -> Expr:
    changes = _span(MOVES.column("change"))
    names = _span(MOVES.column("input"))
    top, bottom = call("MAX", changes), call("MIN", changes)
    at = if_(
        le(call("ABS", bottom), call("ABS", top)), call("MATCH", top, changes, 0), call("MATCH", bottom, changes, 0)
    )
    biggest = if_(le(call("ABS", bottom), call("ABS", top)), top, bottom)
    said = (
        call("INDEX", names, at)
        & lit(": +10% moves ")
        & _FIRST["candidate"].abs
        & lit("'s owned $/M tokens by ")
        & call("TEXT", biggest, lit("+0.0%;-0.0%"))
    )
    return call("IFERROR", said, lit("no owned $/M tokens on the first candidate row: see its reason on TCO"))


MOST = Fields(TCO, top=under(MOVES, titled=False), fields=(Field("most", "Moves it most", Formula(_most())),))
TCO_SHEET = sheet(
    TCO,
    (("A", 30), ("B", 10), ("C", 12), ("D:N", 10), ("O", 36), ("P", 22), ("Q:AD", 0)),
    (
        TCO_WORKLOAD,
        INPUT_HEADER,
        INPUTS,
        TCO_TABLE,
        MEASURED,
        BREAKEVEN,
        CURVES_CHART,
        CURVES,
        MOVES,
        MOVE_ARGS,
        MOST,
        notes(TCO, under(MOST, titled=False)),
    ),
    one_page=False,
)
