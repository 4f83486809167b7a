"""The Fleet sheet: a mix of workloads served by each candidate (FLEET: GPUs and nodes per workload and in all,
monthly cost, blended $ per million tokens), each workload with its share of a total target and, optionally,
its own latency target (TTFT/TPOT: the scenario FLEET chooses with the SLO functions); and what fits in a
power cap (MWGPUS, MWTOKENS, TOKENSPERMW) with each candidate's power per GPU from the TCO sheet.
"""

from __future__ import annotations

from collections.abc import Mapping

from benchsheet.analysis.fleet import FLEET_HEADER
from benchsheet.templates.layout import (
    ArrayBlock,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Input,
    Lifted,
    ListRule,
    NumberRule,
    RowCells,
    TableBlock,
    call,
    eq,
    if_,
    lit,
    span,
    under,
)
from benchsheet.templates.sheets.common import (
    EMPTY_ROW_HEIGHT,
    STATUS_WIDTH,
    if_number,
    notes,
    sheet,
    unit_name,
    units,
    unless_blank,
)
from benchsheet.templates.sheets.sizing import SIZING_TABLE
from benchsheet.templates.sheets.tco import INPUTS, TCO_TABLE
from benchsheet.templates.sheets.workload import WORKLOAD, workload_links

FLEET = "Fleet"
FLEET_WORKLOAD = workload_links(FLEET, "availability", "max_gpus", "utilization", "hours")
_ASSUMED = "assumption: an example, not data; type yours"
MIX_INPUTS = Fields(
    FLEET,
    top=under(FLEET_WORKLOAD),
    title="The mix: a total target shared between workloads",
    fields=(
        Field(
            "total",
            "Total target throughput",
            Input(1_500_000, "in_int"),
            "tokens/s in all; each workload below takes its share",
            NumberRule(0),
        ),
        Field(
            "basis",
            "Price per GPU-hour",
            Input("rented"),
            "rented (TCO's rented price) or owned (TCO's owned price)",
            ListRule(("rented", "owned"), "price basis"),
        ),
        Field(
            "headroom",
            "Headroom (Sizing's)",
            Formula(Expr.of(WORKLOAD["headroom"]), "out_pct"),
            "set on Sizing: GPUs for the target x (1 + headroom), as Sizing buys them",
        ),
        Field(
            "pool",
            "Pool nodes across workloads",
            Input("no"),
            "no: whole nodes per workload; yes: the workloads share nodes (whole nodes of their sum)",
            ListRule(("no", "yes"), "pooling"),
        ),
    ),
)
SAMPLE_MIX: tuple[tuple[str, str, float | None, float | None, float], ...] = (
    ("gpt-oss-120b", "Server", None, None, 0.6),
    ("llama2-70b-99.9", "", 1000, 100, 0.3),
    ("llama3.1-8b", "Server", None, None, 0.1),
)
"""The sample mix (shares and latency targets are examples): llama2-70b-99.9 states p99 TTFT 1,000 ms and TPOT
100 ms instead of a scenario, which only Interactive's bounds (450 ms, 40 ms) meet; Server allows 2,000 and 200."""
MIX = TableBlock(
    FLEET,
    under(MIX_INPUTS),
    5,
    (
        Column(
            "benchmark",
            "Benchmark",
            Input(),
            ListRule("benchmarks", "benchmark"),
            [m[0] for m in SAMPLE_MIX],
        ),
        Column(
            "scenario",
            "Scenario (blank: by the latency target)",
            Input(),
            ListRule("scenarios", "scenario"),
            [m[1] for m in SAMPLE_MIX],
        ),
        Column("ttft", "p99 TTFT target (ms)", Input(style="in_int"), NumberRule(0), [m[2] for m in SAMPLE_MIX]),
        Column("tpot", "p99 TPOT target (ms)", Input(style="in_int"), NumberRule(0), [m[3] for m in SAMPLE_MIX]),
        Column("share", "Share of the traffic", Input(style="in_pct"), NumberRule(0, 1), [m[4] for m in SAMPLE_MIX]),
        Column(
            "target",
            "Target (tokens/s)",
            Formula(lambda r: unless_blank(r["benchmark"], MIX_INPUTS["total"] * r["share"]), "out_int"),
        ),
    ),
    "Workloads: a benchmark, a scenario or a latency target (both TTFT and TPOT), a share",
    header_height=40,
)
POWER_INPUTS = Fields(
    FLEET,
    top=under(MIX),
    title="Power cap",
    fields=(
        Field("mw", "Facility power (MW)", Input(10, "in_num"), _ASSUMED, NumberRule(0)),
        Field("pue", "PUE (from TCO)", Formula(Expr.of(INPUTS["pue"]), "out_num2"), "set on the TCO sheet"),
    ),
)


def _tco(key: str, style: str = "out_text") -> Formula:
    return Formula(lambda r: Expr.of(TCO_TABLE.row(r.index)[key]), style)


def _sizing_per_gpu() -> Formula:
    return Formula(lambda r: Expr.of(SIZING_TABLE.row(r.index)["per_gpu"]), "out_num")


def _price(r: RowCells) -> Expr:
    """TCO's rented or owned $/GPU-hour of the candidate; where TCO's is an error, what to fix first (the reason
    names TCO's price, not the basis cell that chose it); TCO's own reason (text) passes on."""
    tco, basis = TCO_TABLE.row(r.index), MIX_INPUTS["basis"]
    chosen = if_(eq(basis, lit("owned")), tco["owned"], tco["rented"])
    fix = lit("#N/A fix TCO's ") & basis & lit(" $/GPU-hour of ") & r["candidate"] & lit(" first: it is an error there")
    return unless_blank(r["candidate"], if_(call("ISERROR", chosen), fix, chosen))


def _power(name: str) -> Lifted:
    """MWGPUS, MWTOKENS or TOKENSPERMW of every candidate row: one call for the column (the hidden ``POWER``)."""

    def value(_: Mapping[str, Expr]) -> Expr:
        c = {key: span(CANDIDATES.column(key)) for key in ("candidate", "gpus_node", "per_gpu", "kw")}
        cap = (POWER_INPUTS["mw"], c["kw"], POWER_INPUTS["pue"])
        inner = {
            "MWGPUS": (*cap, c["gpus_node"]),
            "MWTOKENS": (*cap, c["per_gpu"], c["gpus_node"], units(WORKLOAD)),
            "TOKENSPERMW": (c["per_gpu"], c["kw"], POWER_INPUTS["pue"], units(WORKLOAD)),
        }[name]
        return unless_blank(c["candidate"], if_number(c["kw"], if_number(c["per_gpu"], call(name, *inner))))

    return Lifted(value, "out_int")


def _shown(key: str) -> Formula:
    """What the row's hidden cell of ``POWER`` holds (an array formula's element): a plain formula shows it."""
    return Formula(lambda r: Expr.of(POWER.row(r.index)[key]), "out_int")


CANDIDATES = TableBlock(
    FLEET,
    under(POWER_INPUTS),
    TCO_TABLE.slots,
    (
        Column("candidate", "Candidate (Sizing's)", _tco("candidate")),
        Column("gpus_node", "GPUs per node", _tco("gpus_server", "out_int")),
        Column("price", "$/GPU-hour (rented or owned)", Formula(_price, "out_num2")),  # not currency: VT_CY
        Column("per_gpu", "Per-GPU (Sizing's workload)", _sizing_per_gpu()),
        Column("kw", "kW per GPU (TCO)", _tco("kw", "out_num2")),
        Column("gpus", "GPUs in the cap (MWGPUS)", _shown("gpus")),
        Column("tokens", unit_name(WORKLOAD) & lit(" in the cap (MWTOKENS)"), _shown("tokens")),
        Column("per_mw", unit_name(WORKLOAD) & lit(" per MW (TOKENS-PERMW)"), _shown("per_mw")),
        Column("kw_source", "Power per GPU from", _tco("kw_source")),
    ),
    "Candidates: the fleet's price and what fits in the power cap",
    header_height=53,
)

POWER = TableBlock(
    FLEET,
    CANDIDATES.header_row,
    CANDIDATES.slots,
    (
        Column("gpus", "MWGPUS", _power("MWGPUS")),
        Column("tokens", "MWTOKENS", _power("MWTOKENS")),
        Column("per_mw", "TOKENSPERMW", _power("TOKENSPERMW")),
    ),
    left=16,
)
"""Hidden (columns Q:S): what fits in the power cap, one array formula a column beside the candidates."""


def _family(r: RowCells) -> Expr:
    """The candidate as FLEET takes it: a family (its best rows) or an entry ID (its own rows); left out (empty)
    where its price is no number, so that FLEET answers for the others (the candidate's row says why)."""
    price = CANDIDATES.row(r.index)["price"]
    return if_(call("ISNUMBER", price), Expr.of(TCO_TABLE.row(r.index)["candidate"]), lit(""))


FAMILIES = TableBlock(
    FLEET,
    CANDIDATES.header_row,
    CANDIDATES.slots,
    (Column("family", "candidate for FLEET", Formula(_family)),),
    left=29,
)
"""Hidden (column AD): each candidate row's family or entry ID for FLEET."""


_EMPTY = Expr(("",))  # a left-out argument: FLEET(...,,...)
FLEET_CALL = call(
    "FLEET",
    span(MIX.column("benchmark")),
    span(MIX.column("scenario")),
    MIX_INPUTS["total"],
    span(FAMILIES.column("family")),
    span(CANDIDATES.column("price")),
    FLEET_WORKLOAD["utilization"],
    span(CANDIDATES.column("gpus_node")),
    FLEET_WORKLOAD["hours"],
    FLEET_WORKLOAD["availability"],
    FLEET_WORKLOAD["max_gpus"],
    _EMPTY,
    _EMPTY,
    span(MIX.column("share")),
    span(MIX.column("ttft")),
    span(MIX.column("tpot")),
    MIX_INPUTS["headroom"],
    eq(MIX_INPUTS["pool"], lit("yes")),
)
_ROWS = CANDIDATES.slots * (MIX.slots + 1)  # a row per candidate and workload, and its total
_STYLES: tuple[str, ...] = (
    *("out_text", "out_text", "out_text", "out_int", "out_num", "out_text", "out_text"),
    *("out_int", "out_int", "out_money", "out_money0", "out_money3"),
)
_LABELS = dict(zip(FLEET_HEADER, FLEET_HEADER, strict=True)) | {
    "target/s": "Target (tokens/s)",
    "per-GPU/s": "Per-GPU (tokens/s)",
    "monthly $": "Monthly cost",
    "$/M units": "$/M tokens (total: blended)",
}
_REASON_ROW = under(CANDIDATES, titled=False)
FIRST_CELL = TableBlock(
    FLEET,
    _REASON_ROW - 1,
    1,
    (Column("first", "FLEET's first cell", Formula(call("INDEX", FLEET_CALL, 1, 1))),),
    left=30,
)
"""Hidden (column AE): FLEET's answer as a plain formula shows it, its header's first cell or its error."""
FLEET_REASON = Fields(
    FLEET,
    top=_REASON_ROW,
    fields=(
        Field(
            "reason",
            "FLEET answers",
            Formula(
                if_(
                    call("ISERROR", FIRST_CELL.row(0)["first"]),
                    FIRST_CELL.row(0)["first"],
                    lit("the table below"),
                )
            ),
        ),
    ),
)
HIDDEN = 16  # column Q: FLEET's whole answer, from one call


_ENTRY = FLEET_HEADER.index("entry")


def _answered(r: RowCells, j: int) -> Expr:
    return Expr.of(ANSWER.cell(r.first + r.index, j))


def _answer(j: int) -> Formula:
    return Formula(lambda r: _answered(r, j), _STYLES[j])


def _note(r: RowCells) -> Expr:
    """FLEET's note on the row, which it answers in its entry column: a total's ("incomplete: ...", "pooled in
    nodes of 8"), or a workload's "none: <reason>" where the candidate has no row for it; else empty text."""
    entry = _answered(r, _ENTRY)
    is_note = call("OR", eq(_answered(r, 1), lit("total")), eq(call("LEFT", entry, 5), lit("none:")))
    return if_(is_note, entry, lit(""))


def _entry(r: RowCells) -> Expr:
    """The row's entry ID; empty where FLEET's entry column holds its note (the status column shows it)."""
    return if_(eq(_note(r), lit("")), _answered(r, _ENTRY), lit(""))


def _status(r: RowCells) -> Expr:
    """ "ok", or FLEET's note on the row in full, in a column wide enough to read it; empty for an empty slot."""
    note = _note(r)
    return unless_blank(r["c0"], if_(eq(note, lit("")), lit("ok"), note))


def _fleet_column(j: int, head: str) -> Column:
    label = _LABELS[head][:1].upper() + _LABELS[head][1:]
    return Column(f"c{j}", label, Formula(_entry, _STYLES[j]) if j == _ENTRY else _answer(j))


FLEET_TABLE = TableBlock(
    FLEET,
    under(FLEET_REASON),
    _ROWS,
    (
        *(_fleet_column(j, h) for j, h in enumerate(FLEET_HEADER)),
        Column("status", "Status: ok, or FLEET's note on the row", Formula(_status, "out_wrap")),
    ),
    "FLEET: per candidate, each workload and the total",
    header_height=40,
)
"""FLEET's rows, each cell a reference to the hidden answer beside it, and the row's status: FLEET's note
("none: <reason>", "incomplete: ...") in a column of its own, where the entry column would cut it."""
ANSWER = ArrayBlock(FLEET, FLEET_TABLE.first, HIDDEN, _ROWS, len(FLEET_HEADER), FLEET_CALL, skip=1)
"""FLEET's rows after its header from one array formula, in hidden columns beside the table that shows them
(LibreOffice shows an array formula's cached values only in its first cell)."""
FLEET_SHEET = sheet(
    FLEET,
    (("A", 24), ("B", 16), ("C", 13), ("D:F", 12), ("G", 13), ("H:L", 12), ("M", STATUS_WIDTH), ("Q:AE", 0)),
    (
        FLEET_WORKLOAD,
        MIX_INPUTS,
        MIX,
        POWER_INPUTS,
        CANDIDATES,
        POWER,
        FAMILIES,
        FIRST_CELL,
        FLEET_REASON,
        FLEET_TABLE,
        ANSWER,
        notes(FLEET, under(FLEET_TABLE, gap=0, titled=False)),
    ),
    one_page=False,
    empty_row=EMPTY_ROW_HEIGHT,  # FLEET's slots no candidate and workload fill print nothing (calc sets them again)
    thin=(FLEET_TABLE,),
    breaks_before=(FLEET_REASON.top,),  # FLEET's answer on a page of its own: its rows need no repeated header
)
