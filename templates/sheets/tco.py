"""The TCO sheet: owning against renting per candidate (OWNEDGPUHOUR, RENTVSOWN, COSTPERMTOK, APIUTILIZATION), every
owning input with its source or assumption, $/M tokens by utilization (a table and its chart), the tornado.

The candidates are Sizing's, row for row (its entries, per-GPU values and GPUs per node: cited on Sources from
there); power per GPU is the candidate row's measured power (KWPERGPU) where MLPerf measured it, else the
user's input, and says which.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from benchsheet.analysis.tco import HOURS_PER_YEAR
from benchsheet.templates.layout import (
    ROW_PX,
    ArrayBlock,
    Band,
    Cell,
    Chart,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Header,
    Input,
    Lifted,
    NumberRule,
    RowCells,
    Series,
    Span,
    TableBlock,
    Term,
    Text,
    call,
    eq,
    if_,
    le,
    lit,
    span,
    under,
)
from benchsheet.templates.sheets.common import (
    FAMILY_RULE,
    QUOTES,
    if_number,
    notes,
    sheet,
    units,
    unless_blank,
    unless_error,
)
from benchsheet.templates.sheets.sizing import CANDIDATES, SIZING_TABLE
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
        Field("years", "Depreciation (years)", Input(4, "in_int"), _ASSUMED, NumberRule(1, 100, whole=True)),
        Field("rate", "Cost of capital (yearly)", Input(0.08, "in_pct"), _ASSUMED, NumberRule(0, 1)),
        Field(
            "residual",
            "Residual value (share of capex)",
            Input(0.1, "in_pct"),
            "assumption: a share here; OWNEDGPUHOUR takes $ per GPU (the table's residual column)",
            NumberRule(0, 1),
        ),
        Field(
            "kw",
            "Power per GPU, your input (kW)",
            Input(1.2, "in_num"),
            "assumption: used only where a candidate has no measured power and no kW of its own below",
            NumberRule(0.0001),
        ),
        Field("pue", "PUE (facility / IT power)", Input(1.3, "in_num"), _ASSUMED, NumberRule(1)),
        Field("kwh", "Electricity ($/kWh)", Input(0.10, "in_money"), _ASSUMED, NumberRule(0)),
        Field("colo", "Colocation ($ per kW-month)", Input(150, "in_money"), _ASSUMED, NumberRule(0)),
        Field("software", "Software ($ per GPU-year)", Input(4500, "in_money0"), _ASSUMED, NumberRule(0)),
        Field(
            "support",
            "Support/maintenance (share of capex a year)",
            Input(0.05, "in_pct"),
            "assumption: vendor contracts are typically a share of capex a year",
            NumberRule(0, 10),
        ),
        Field(
            "network",
            "Back-end network and storage (share of capex)",
            Input(0.10, "in_pct"),
            "assumption: the cluster's share, bought with the servers (year 0)",
            NumberRule(0, 10),
        ),
        Field("tax", "Sales tax and installation (share of capex)", Input(0.05, "in_pct"), _ASSUMED, NumberRule(0, 10)),
        Field("staff", "Staff ($ per GPU-year)", Input(600, "in_money0"), _ASSUMED, NumberRule(0)),
        Field(
            "availability",
            "Availability (share of hours up)",
            Input(0.98, "in_pct"),
            "assumption: downtime's hours serve nothing; the year's cost falls on the rest",
            NumberRule(0.0001, 1),
        ),
    ),
)
SLO_HEADER = Header(
    TCO,
    under(INPUTS),  # a blank row, then its title: not directly under the last owning input
    ("Service level and API", "Value", "Source / assumption"),
    "The service level your product sells, and the API it competes with",
    height=27,
)
SERVICE = Fields(
    TCO,
    top=SLO_HEADER.row + 1,
    fields=(
        Field(
            "ttft",
            "p99 time to first token (ms)",
            Input(2000, "in_int"),
            "assumption: an interactive chat or API product; rates come from rows whose bounds meet it (SLOBEST)",
            NumberRule(0.0001),
        ),
        Field(
            "tpot",
            "p99 time per output token (ms)",
            Input(15, "in_int"),
            "assumption: 15 ms is about 67 tokens/s per user, the speed an API streams at",
            NumberRule(0.0001),
        ),
        Field("api", "API price ($ per million output tokens)", Input(0.60, "in_money"), _ASSUMED, NumberRule(0)),
        Field("api_in", "API price ($ per million input tokens)", Input(0.15, "in_money"), _ASSUMED, NumberRule(0)),
        Field(
            "api_cached",
            "API price ($ per million cached input tokens)",
            Input(0.075, "in_money"),
            "assumption: blank = the input price",
            NumberRule(0),
        ),
        Field("cached_share", "Share of input tokens cached", Input(0.0, "in_pct"), _ASSUMED, NumberRule(0, 1)),
        Field(
            "in_tokens",
            "Mean input tokens per request",
            Input(1112, "in_int"),
            "assumption: MLCommons publishes no mean input for gpt-oss-120b; type your workload's",
            NumberRule(0.0001),
        ),
        Field(
            "out_tokens",
            "Mean output tokens per request",
            Input(1278.2, "in_num"),
            "gpt-oss-120b: MLCommons' reference mean output, 1,278.2 (inference compliance/TEST09); type yours",
            NumberRule(0.0001),
        ),
        Field(
            "api_cost",
            "API cost ($ per million output tokens, input included)",
            Formula(
                lambda f: call(
                    "APICOSTPERMTOK",
                    f["api"],
                    f["api_in"],
                    f["in_tokens"],
                    f["out_tokens"],
                    if_(eq(f["api_cached"], lit("")), f["api_in"], f["api_cached"]),
                    f["cached_share"],
                ),
                "out_money3",
            ),
            "APICOSTPERMTOK: what the GPU's $/M output tokens is compared with",
        ),
    ),
)
SAMPLE_CAPEX: tuple[float, ...] = (400_000, 480_000, 240_000, 300_000, 250_000)
"""Example server prices, one a sample candidate (B200, B300, GB300 with 4 GPUs a node, MI355X, H200):
assumptions for the sample, never data."""
SAMPLE_KW: tuple[float, ...] = (1.3, 1.4, 1.6, 1.6, 0.9)
"""Example average kW per GPU, server share included, one a sample candidate: assumptions for the sample
(MLPerf measured no power for these rows), never data; a measured row's power replaces them."""
CAPEX_TABLE = TableBlock(
    TCO,
    under(SERVICE),
    SIZING_TABLE.slots,
    (
        Column(
            "candidate",
            "Candidate (as typed on Sizing)",
            Input(),
            FAMILY_RULE,
            [c for c, _ in CANDIDATES],
        ),
        Column("capex_server", "Capex per server ($, example)", Input(style="in_money0"), NumberRule(0), SAMPLE_CAPEX),
        Column("kw_own", "kW per GPU (blank: above)", Input(style="in_num"), NumberRule(0.0001), SAMPLE_KW),
    ),
    "Capex and power per candidate: found by the candidate's name, wherever it sits on Sizing",
    header_height=40,
)
"""The inputs that belong to a candidate, keyed by its name (MATCH), not by Sizing's row: replacing H200 by
MI300X on Sizing asks for MI300X's capex instead of taking H200's (issue 40)."""

_UTIL = TCO_WORKLOAD["utilization"]


def _sizing(key: str, style: str = "out_text") -> Formula:
    """Sizing's ``key`` on the same candidate row (empty where Sizing's row is)."""

    def value(r: RowCells) -> Expr:
        there = SIZING_TABLE.row(r.index)
        return unless_blank(there["candidate"], Expr.of(there[key]))

    return Formula(value, style)


def _keyed(key: str, style: str) -> Formula:
    """The candidate's ``key`` from the per-candidate table (CAPEX_TABLE), found by its name: capex missing is
    an error that says what to type first; a blank kW stays blank (the input above stands in)."""

    def value(r: RowCells) -> Expr:
        at = call("MATCH", r["candidate"], span(CAPEX_TABLE.column("candidate")), 0)
        typed = call("INDEX", span(CAPEX_TABLE.column(key)), at)
        found = if_(eq(typed, lit("")), lit(""), typed)
        if key == "kw_own":
            return unless_blank(r["candidate"], call("IFERROR", found, lit("")))
        missing = lit("#N/A type ") & r["candidate"] & lit("'s capex per server in the table above: it has none there")
        blank = lit("#N/A type ") & r["candidate"] & lit("'s capex per server in the table above: it is blank there")
        return unless_blank(r["candidate"], if_(call("ISNA", at), missing, if_(eq(typed, lit("")), blank, typed)))

    return Formula(value, style)


def _measured(r: RowCells) -> Cell:
    """The row's measured kW per GPU (KWPERGPU's answer in the hidden column beside the table), or empty text."""
    return MEASURED.cell(r.first + r.index, 0)


def _kw(r: RowCells) -> Expr:
    yours = if_(eq(r["kw_own"], lit("")), INPUTS["kw"], r["kw_own"])
    return unless_blank(r["candidate"], if_(call("ISNUMBER", _measured(r)), _measured(r), yours))


def _kw_source(r: RowCells) -> Expr:
    measured = lit("measured: ") & r["entry"] & lit(" system power / GPUs (KWPERGPU)")
    yours = if_(
        eq(r["kw_own"], lit("")),
        lit("your input above: no measured power in ") & r["entry"] & lit("'s row"),
        lit("your input for ") & r["candidate"] & lit(": no measured power in ") & r["entry"] & lit("'s row"),
    )
    return unless_blank(r["candidate"], if_(call("ISNUMBER", _measured(r)), measured, yours))


_MORE = ("support", "network", "tax", "staff", "availability")
"""OWNEDGPUHOUR's cost lines after software, in its order (issue 39)."""


def _own_args(r: RowCells) -> tuple[Term, ...]:
    """OWNEDGPUHOUR's arguments for the row: every cost line."""
    i = INPUTS
    head = (r["capex_gpu"], i["years"], i["rate"], r["residual_gpu"], r["kw"], i["pue"], i["kwh"], i["colo"])
    return (*head, i["software"], *(i[k] for k in _MORE))


def _owned(r: RowCells) -> Expr:
    return unless_blank(r["candidate"], if_number(r["capex_gpu"], call("OWNEDGPUHOUR", *_own_args(r))))


def _lifted(key: str, style: str = "out_text") -> Formula:
    """The row's cell of the hidden LIFTED block (one array formula a column), shown as a plain reference
    (empty text in an empty slot, without reading the array)."""
    return Formula(lambda r: unless_blank(r["candidate"], LIFTED.row(r.index)[key]), style)


def _npv(price: str) -> Formula:
    """The NPV of the row's $/GPU-hour paid for every available hour of every year: Excel's PV of that yearly
    payment at the cost of capital. Owning's equals TCOCASHFLOW's NPV (capex up front, yearly costs, residual
    back), as OWNEDGPUHOUR is its annuity; renting's is the reserved rental's."""

    def value(r: RowCells) -> Expr:
        i = INPUTS
        yearly = r[price] * HOURS_PER_YEAR * i["availability"]
        return if_number(r[price], call("PV", i["rate"], i["years"], yearly * -1))

    return Formula(value, "out_money0")


def _cheaper(r: RowCells) -> Expr:
    own, rent = r["npv_own"], r["npv_rent"]
    return if_number(own, if_number(rent, if_(le(own, rent), lit("owning"), lit("renting"))))


def _from_quotes(j: int) -> Formula:
    """The candidate's rented price (j = 0) or where it comes from (j = 1), as Quotes works them out.

    Prices and capex computed here are formatted as plain numbers, not currency: Excel hands a currency cell
    to a function as VT_CY, rounded to 4 decimals, and the owned price is not a round number."""
    style = "out_num2" if j == 0 else "out_wrap"  # where from: a vendor's name as typed, wrapped in its column
    return Formula(lambda r: Expr.of(Cell(QUOTES, r.first + r.index, RENTED_COL + j)), style)


def _cost(price: str, util: Term) -> Formula:
    return Formula(
        lambda r: unless_blank(
            r["candidate"], if_number(r["per_gpu"], call("COSTPERMTOK", r[price], r["per_gpu"], util))
        ),
        "out_money3",
    )


def _api(price: str) -> Lifted:
    """APIUTILIZATION of every candidate at the ``price`` column ("owned" or "rented"), one array formula for
    the column (the template's call budget): a row without a rate at the service level passes its reason on."""
    s = SERVICE
    cached = if_(eq(s["api_cached"], lit("")), s["api_in"], s["api_cached"])
    api = (s["api"], s["api_in"], s["in_tokens"], s["out_tokens"], cached, s["cached_share"])

    def value(_: Mapping[str, Expr]) -> Expr:
        t = TCO_TABLE
        candidates, per_gpu = span(t.column("candidate")), span(t.column("per_gpu"))
        return unless_blank(
            candidates, if_number(per_gpu, call("APIUTILIZATION", span(t.column(price)), per_gpu, *api))
        )

    return Lifted(value, "out_pct1")


def _status(r: RowCells) -> Expr:
    """The row's status in full (a narrow number column shows only a reason's start): "ok", or the first problem
    of its owned price (capex, kW, an owning input), then of its rented price; "none" at the service level is no
    problem of the row (its cells say so)."""
    rented = if_(call("ISERROR", r["rented"]), lit("#N/A fix the rented $/GPU-hour on Quotes or Sizing"), r["rented"])
    return unless_blank(r["candidate"], unless_error(r["owned"], unless_error(rented, lit("ok"))))


def _breakeven(r: RowCells) -> Expr:
    """RENTVSOWN's answer for the row, from the hidden column of one array formula (BREAKEVEN)."""
    at: Cell = BREAKEVEN.cell(r.first + r.index, 0)
    return if_number(r["owned"], at)


def _sizing_mtok(c: Mapping[str, Expr]) -> Expr:
    """Owned $/M tokens (queries, samples: the workload's units) at Sizing's per-GPU value (Sizing's workload),
    for Quotes' "owned" price rows: one array formula over the column."""
    per_gpu = span(SIZING_TABLE.column("per_gpu"))
    cost = if_number(per_gpu, call("COSTPERMTOK", c["owned"], per_gpu, _UTIL, units(TCO_WORKLOAD)))
    return unless_blank(c["candidate"], if_number(c["owned"], cost))


def _shown(key: str) -> Formula:
    """The row's price (owned or rented) in dollars: the hidden plain number the functions read, shown."""
    return Formula(lambda r: Expr.of(r[key]), "out_money")


TCO_COLUMNS = (
    Column("candidate", "Candidate (Sizing's)", _sizing("candidate")),
    Column("gpus_server", "GPUs per server (Sizing's, else MLPerf's)", _sizing("node", "out_int")),
    Column("capex_server", "Capex per server ($, the candidate's above)", _keyed("capex_server", "out_money0")),
    Column(
        "capex_gpu",
        "Capex per GPU ($)",
        Formula(
            lambda r: unless_blank(r["candidate"], if_number(r["capex_server"], r["capex_server"] / r["gpus_server"])),
            "out_money0",
        ),
    ),
    Column(
        "residual_gpu",
        "Residual per GPU ($): capex x share",
        Formula(
            lambda r: unless_blank(r["candidate"], if_number(r["capex_gpu"], r["capex_gpu"] * INPUTS["residual"])),
            "out_money0",
        ),
    ),
    Column("kw_own", "kW per GPU, the candidate's (above)", _keyed("kw_own", "out_num2")),
    Column("kw", "kW per GPU used", Formula(_kw, "out_num2")),
    Column("owned_usd", "Owned $/GPU-hour (every cost line)", _shown("owned")),
    Column("rented_usd", "Rented $/GPU-hour (reserved: every hour paid)", _shown("rented")),
    Column("status", "Status: ok, or the row's first problem", Formula(_status, "out_wrap", span=2)),
    # at the utilization and service level above
    Column("scenario", "Scenario at service level (token benchmarks only)", _lifted("scenario")),
    Column("per_gpu", "Per-GPU at your service level (SLOBEST)", _lifted("per_gpu", "out_num")),
    Column("owned_sl", "$/M tokens owned", _cost("owned", _UTIL)),
    Column("rented_sl", "$/M tokens rented (reserved)", _cost("rented", _UTIL)),
    Column("npv_own", "NPV of owning ($ per GPU)", _npv("owned")),
    Column("npv_rent", "NPV of renting, reserved ($ per GPU)", _npv("rented")),
    Column("cheaper", "Cheaper by NPV", Formula(_cheaper, "out_verdict")),
    Column("breakeven", "Break-even rental $/GPU-hour (reserved)", Formula(_breakeven, "out_money")),
    Column("api_owned", "API break-even utiliz., owned", _lifted("api_owned", "out_pct1")),
    Column("api_rented", "API break-even utiliz., rented", _lifted("api_rented", "out_pct1")),
    # where the power and the rented price come from
    Column("kw_source", "Power per GPU: measured or your input", Formula(_kw_source, "out_wrap", span=6)),
    Column("rented_source", "Rented price from", Formula(_from_quotes(1).expr, "out_wrap", span=4)),
    # hidden: what the functions read (plain numbers, not currency: see _from_quotes)
    Column("entry", "entry", _sizing("entry")),  # Sizing's
    Column("owned", "owned $/GPU-hour", Formula(_owned, "out_num2")),
    Column("rented", "rented $/GPU-hour", _from_quotes(0)),
    Column("owned_mtok", "owned $/M at Sizing's rate", Lifted(_sizing_mtok, "out_money3")),  # hidden: Quotes'
)
HIDDEN_AT = 22  # column W: hidden helpers (W:AX) beside the table's first part and beside CURVES
TCO_TABLE = TableBlock(
    TCO,
    under(CAPEX_TABLE),
    SIZING_TABLE.slots,
    TCO_COLUMNS,
    "Owned and rented (reserved) $ per GPU-hour, per candidate",
    header_height=72,
    bands=(
        Band(
            10,
            "Per candidate at the utilization and service level above (none: no MLPerf row of it meets the service "
            "level)",
            header_height=72,
        ),
        Band(20, "Where each candidate's power per GPU and rented price come from", header_height=17),
        Band(22, at=HIDDEN_AT),
    ),
)
"""Owned against rented per candidate, in three parts under each other, each a page wide at a readable scale
(one row of 22 columns printed at 41%, issue 40)."""
_HIDDEN = TCO_TABLE.col(TCO_COLUMNS[-1].key) + 1  # after the table's hidden columns: answers of one call each
MEASURED = ArrayBlock(
    TCO,
    TCO_TABLE.first,
    _HIDDEN,
    TCO_TABLE.slots,
    1,
    call("KWPERGPU", span(TCO_TABLE.column("entry")), TCO_WORKLOAD["benchmark"], TCO_WORKLOAD["scenario"]),
)
"""KWPERGPU of each candidate's entry, from one array formula: a number only where MLPerf measured the system's
power (no measured power is no error here: the user's input stands in, and the row says so)."""
BREAKEVEN = ArrayBlock(
    TCO, TCO_TABLE.first, _HIDDEN + 1, TCO_TABLE.slots, 1, call("RENTVSOWN", span(TCO_TABLE.column("owned")), 1)
)
"""RENTVSOWN of each candidate's owned $/GPU-hour for a reserved rental (every hour paid, as the rented price and
the NPV columns take it: utilization 1), from one array formula (a row without one shows its reason)."""
NO_RATE = "none"
"""What a candidate without a row at the service level shows (SLOSCENARIOS says which scenarios would)."""


def _slo(name: str) -> Lifted:
    """SLOBEST or SLOBESTSCENARIO of every candidate at the service level above, under the workload's filters,
    one array formula for the column; where no row meets it, text that says so (the costs beside pass it on)."""

    def value(_: Mapping[str, Expr]) -> Expr:
        w, candidates = TCO_WORKLOAD, span(TCO_TABLE.column("candidate"))
        args = (candidates, w["benchmark"], SERVICE["ttft"], SERVICE["tpot"], w["availability"], w["max_gpus"])
        return unless_blank(candidates, call("IFERROR", call(name, *args), lit(NO_RATE)))

    return Lifted(value, "out_num" if name == "SLOBEST" else "out_text")


LIFTED = TableBlock(
    TCO,
    TCO_TABLE.header_row,
    TCO_TABLE.slots,
    (
        Column("scenario", "SLOBESTSCENARIO", _slo("SLOBESTSCENARIO")),
        Column("per_gpu", "SLOBEST", _slo("SLOBEST")),
        Column("api_owned", "APIUTILIZATION owned", _api("owned")),
        Column("api_rented", "APIUTILIZATION rented", _api("rented")),
    ),
    left=_HIDDEN + 3 + 14 + 3,
)
"""Hidden: one array formula a column beside the table (its rates and scenarios at the
service level, its API break-even utilizations), shown in the table by plain references."""
UTILIZATIONS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _series_name(r: RowCells) -> Expr:
    """ "B200 owned"; "GB300 owned: none" where no row meets the service level (no line: its points are #N/A)."""
    row = TCO_TABLE.row(r.index // 2)
    candidate, per_gpu = row["candidate"].abs, row["per_gpu"].abs
    named = candidate & lit(" rented" if r.index % 2 else " owned")
    return unless_blank(candidate, if_(call("ISNUMBER", per_gpu), named, named & lit(": ") & per_gpu))


def _at_utilization(j: int) -> Formula:
    """The row's candidate's $/M tokens (owned on even rows, rented on odd) at the j-th utilization:
    COSTPERMTOK is inversely proportional to utilization."""

    def value(r: RowCells) -> Expr:
        at = TCO_TABLE.row(r.index // 2)["rented_sl" if r.index % 2 else "owned_sl"].abs
        return if_number(at, at * _UTIL / UTILIZATIONS[j])

    return Formula(value, "out_money3")


def _plotted(j: int) -> Formula:
    """The row's j-th $/M tokens as the chart plots it: #N/A where none (a text it would draw at $0.00)."""
    return Formula(lambda r: if_(call("ISNUMBER", r[f"u{j}"]), r[f"u{j}"], call("NA")), "out_money3")


CURVES = TableBlock(
    TCO,
    under(TCO_TABLE, gap=1, titled=False) + -(-420 // ROW_PX) + 2,  # under the chart, which plots it
    2 * SIZING_TABLE.slots,
    (
        Column("series", "Candidate, owned or rented", Formula(_series_name)),
        *(Column(f"u{j}", f"{u:.0%}", _at_utilization(j)) for j, u in enumerate(UTILIZATIONS)),
        *(Column(f"plot{j}", f"plotted {u:.0%}", _plotted(j)) for j, u in enumerate(UTILIZATIONS)),
    ),
    lit("$ per million tokens by utilization, owned and rented (reserved), at your service level: ")
    & TCO_WORKLOAD["benchmark"],
    bands=(Band(1 + len(UTILIZATIONS), at=HIDDEN_AT),),  # the plotted values: hidden, beside the rows
)


def _plotted_span(i: int) -> Span:  # the hidden cells the chart plots for the CURVES row i
    return Span(CURVES.row(i)["plot0"].abs, CURVES.row(i)[f"plot{len(UTILIZATIONS) - 1}"].abs)


CURVES_CHART = Chart(
    top=under(TCO_TABLE, gap=1, titled=False),
    kind="line",
    series=tuple(
        Series(
            Cell(TCO, CURVES.first + i, 0),
            Span(Cell(TCO, CURVES.header_row, 1), Cell(TCO, CURVES.header_row, len(UTILIZATIONS))),
            _plotted_span(i),
            {"marker": {"type": "circle", "size": 4}, "line": {"dash_type": "dash" if i % 2 else "solid"}},
        )
        for i in range(CURVES.slots)
    ),
    gaps=Span(_plotted_span(0).first, _plotted_span(CURVES.slots - 1).last),
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
    ("support", "Support/maintenance share"),
    ("network", "Network and storage share"),
    ("tax", "Tax and installation share"),
    ("staff", "Staff $/GPU-year"),
    ("utilization", "Utilization"),
)


OWNED_ARGS = ("capex", "years", "rate", "residual", "kw", "pue", "kwh", "colo", "software", *_MORE)
"""OWNEDGPUHOUR's arguments, in its order (residual: its $ per GPU, from the share of capex); availability is
not moved (+10% of 98% is no share of hours), it stays as typed."""


def _moved_arg(name: str) -> Formula:
    """The row's value of OWNEDGPUHOUR's argument ``name``: the first candidate's, the row's input moved up by
    STEP (in a hidden cell, so that the call reads plain references)."""

    def value(r: RowCells) -> Expr:
        key = MOVED[r.index][0]
        base: dict[str, Expr] = {
            "capex": Expr.of(_FIRST["capex_gpu"].abs),
            "kw": Expr.of(_FIRST["kw"].abs),
            **{k: Expr.of(INPUTS[k]) for k in ("years", "rate", "residual", "pue", "kwh", "colo", "software")},
            **{k: Expr.of(INPUTS[k]) for k in _MORE},
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
    return if_number(owned, call("OWNEDGPUHOUR", *(args[f"a_{k}"] for k in OWNED_ARGS)) / owned - 1)


MOVE_ARGS = TableBlock(
    TCO,
    under(CURVES),
    len(MOVED),
    tuple(Column(f"a_{k}", k, _moved_arg(k)) for k in OWNED_ARGS),
    left=_HIDDEN + 3,
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
    changes = span(MOVES.column("change"))
    names = span(MOVES.column("input"))
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


# ------------------------------------------------------------ the cost lines per candidate, and a chart

PARTS: tuple[tuple[str, str], ...] = (
    ("capital", "Capital, net of residual"),
    ("energy", "Energy"),
    ("colo", "Colocation"),
    ("software", "Software"),
    ("rest", "Support and staff"),
)


def _part(key: str) -> Lifted:
    """OWNEDGPUHOUR of every candidate with only the part's cost lines, one array formula for the column: each
    part its own answer (per available GPU-hour)."""

    def value(_: Mapping[str, Expr]) -> Expr:
        t = {k: span(TCO_TABLE.column(k)) for k in ("capex_gpu", "residual_gpu", "kw", "owned")}
        i = INPUTS
        zero = (0, 0, 0, 0)
        years, avail = i["years"], i["availability"]
        capital_lines = (i["network"], i["tax"], 0)
        lines: dict[str, tuple[Term, ...]] = {
            "capital": (t["capex_gpu"], years, i["rate"], t["residual_gpu"], 0, 1, 0, 0, 0, 0, *capital_lines),
            "energy": (0, years, 0, 0, t["kw"], i["pue"], i["kwh"], 0, 0, *zero),
            "colo": (0, years, 0, 0, t["kw"], 1, 0, i["colo"], 0, *zero),
            "software": (0, years, 0, 0, 0, 1, 0, 0, i["software"], *zero),
        }
        only = lines[key]
        return if_number(t["owned"], call("OWNEDGPUHOUR", *only, avail))

    return Lifted(value, "out_money")


def _shown_part(key: str) -> Formula:
    """The part's hidden cell (PARTS_HIDDEN); the rest is what the whole leaves."""

    def value(r: RowCells) -> Expr:
        owned = TCO_TABLE.row(r.index)["owned"]
        if key != "rest":
            return Expr.of(PARTS_HIDDEN.row(r.index)[key])
        parts = [r[k] for k, _ in PARTS[:-1]]
        return if_number(owned, owned - parts[0] - parts[1] - parts[2] - parts[3])

    return Formula(value, "out_money")


BREAKDOWN = TableBlock(
    TCO,
    under(MOST, titled=True),
    SIZING_TABLE.slots,
    (
        Column("candidate", "Candidate", Formula(lambda r: Expr.of(TCO_TABLE.row(r.index)["candidate"]))),
        *(Column(k, label, _shown_part(k)) for k, label in PARTS),
    ),
    lit("Owned $ per available GPU-hour, line by line (each OWNEDGPUHOUR of its lines alone; capital includes ")
    & lit("network, storage, tax and installation)"),
    header_height=40,
)
PARTS_HIDDEN = TableBlock(
    TCO,
    BREAKDOWN.header_row,
    BREAKDOWN.slots,
    tuple(Column(k, k, _part(k)) for k, _ in PARTS[:-1]),
    left=LIFTED.left,
)
"""Hidden: each part of every candidate, one array formula a column beside the breakdown."""
BREAKDOWN_CHART = Chart(
    top=under(BREAKDOWN, gap=1, titled=False),
    kind="column",
    series=tuple(
        Series(
            Cell(TCO, BREAKDOWN.header_row, 1 + j),
            Span(Cell(TCO, BREAKDOWN.first, 0), Cell(TCO, BREAKDOWN.end, 0)),
            Span(Cell(TCO, BREAKDOWN.first, 1 + j), Cell(TCO, BREAKDOWN.end, 1 + j)),
        )
        for j in range(len(PARTS))
    ),
    title=BREAKDOWN.title_cell,
    x_axis={"name": "candidate"},
    y_axis={"name": "$ per GPU-hour", "num_format": "$0.00", "major_gridlines": {"visible": True}},
    legend="right",
    width=860,
    height=360,
)

# ------------------------------------------------------------ a yearly cash-flow schedule, first candidate

MAX_YEARS = 10
"""The schedule's rows: years 0..10, then the NPVs and the verdict (a longer depreciation shows its first 10)."""
_CASH_ROWS = MAX_YEARS + 1 + 2
_CASH_LEFT = _HIDDEN + 3 + len(OWNED_ARGS)  # hidden, after the moved arguments


def _cash_call() -> Expr:
    own = _own_args(TCO_TABLE.row(0))
    return call("TCOCASHFLOW", _FIRST["rented"].abs, *(a.abs if isinstance(a, Cell) else a for a in own))


CASH: ArrayBlock  # below: the hidden answer CASH_TABLE shows


def _cash_cell(j: int) -> Callable[[RowCells], Expr]:
    """The row's cell of column ``j`` of the hidden CASH answer."""
    return lambda r: Expr.of(CASH.cell(r.first + r.index, j))


CASH_TABLE = TableBlock(
    TCO,
    under(BREAKDOWN_CHART, gap=0, titled=True),
    _CASH_ROWS,
    tuple(
        Column(key, label, Formula(_cash_cell(j), style))
        for j, (key, label, style) in enumerate(
            (
                ("year", "Year", "out_left"),  # under its heading, not at the wide column's far edge
                ("own", "Owning ($ per GPU)", "out_money0"),
                ("rent", "Renting, reserved ($ per GPU)", "out_money0"),
            )
        )
    ),
    lit("Cash flows of owning against renting the same GPU-hours (TCOCASHFLOW): ") & _FIRST["candidate"].abs,
    header_height=40,
)
CASH = ArrayBlock(TCO, CASH_TABLE.first, _CASH_LEFT, _CASH_ROWS, 3, _cash_call(), skip=1)
"""TCOCASHFLOW of the first candidate after its header, from one array formula in hidden columns (LibreOffice
shows an array formula's cached values only in its first cell): empty text past the last year."""


TCO_SHEET = sheet(
    TCO,  # the table's three parts, the utilization grid and the inputs' notes: A and ten columns
    (("A", 44), ("B:K", 12), ("W:AX", 0)),
    (
        TCO_WORKLOAD,
        INPUT_HEADER,
        INPUTS,
        SLO_HEADER,
        SERVICE,
        CAPEX_TABLE,
        TCO_TABLE,
        MEASURED,
        BREAKEVEN,
        CURVES_CHART,
        CURVES,
        MOVES,
        MOVE_ARGS,
        MOST,
        LIFTED,
        BREAKDOWN,
        PARTS_HIDDEN,
        BREAKDOWN_CHART,
        CASH_TABLE,
        CASH,
        notes(TCO, under(CASH_TABLE, titled=False)),
    ),
    one_page=False,
    # a page each: the inputs, the table's three parts, the utilization chart and its table, which input moves
    # it most, the cost lines and their chart, the cash flows and the notes (each part whole, with its title)
    breaks_before=(CURVES_CHART.top, *(t.header_row - 1 for t in (TCO_TABLE, MOVES, BREAKDOWN, CASH_TABLE))),
)
