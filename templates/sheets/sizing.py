"""The Sizing sheet: GPUs, nodes and monthly cost of each candidate for the workload set above them."""

from __future__ import annotations

from collections.abc import Mapping

from benchsheet.templates.layout import (
    Cite,
    Column,
    Expr,
    Formula,
    Input,
    Lifted,
    NumberRule,
    RowCells,
    TableBlock,
    call,
    eq,
    if_,
    lit,
    under,
)
from benchsheet.templates.sheets.common import (
    FAMILY_RULE,
    SIZING,
    STATUS_WIDTH,
    cost_per_mtok,
    entry_used,
    if_number,
    notes,
    per_gpu,
    per_million,
    rows_behind,
    rows_shown,
    sheet,
    status,
    units,
    unless_blank,
    unless_error,
)
from benchsheet.templates.sheets.workload import WORKLOAD

CANDIDATES: tuple[tuple[str, int], ...] = (("B200", 8), ("B300", 8), ("GB300", 4), ("MI355X", 8), ("H200", 8))
"""The sample candidates: a family and its GPUs per node."""


def _nodes(r: RowCells) -> Expr:
    return if_number(r["gpus"], r["gpus"] / r["node"])


def _node(c: Mapping[str, Expr]) -> Expr:
    """Each row's node size: yours, else the MLPerf system's of the entry used (ENTRY's gpus_per_node, as FLEET
    takes a blank), one array formula for the column; empty where the entry is an error (the row says why)."""
    mlperf = call("IFERROR", call("ENTRY", c["entry"], lit("gpus_per_node")), lit(""))
    return unless_blank(c["candidate"], if_(eq(c["gpus_per_node"], lit("")), mlperf, c["gpus_per_node"]))


def _headroom(r: RowCells) -> Expr:
    """What the GPU and node counts include beside the plain target: "incl. 20% headroom"."""
    h = WORKLOAD["headroom"]
    with_it = if_(eq(h, 0), lit("no headroom"), lit("incl. ") & call("TEXT", h, lit("0%")) & lit(" headroom"))
    return if_(call("ISNUMBER", r["gpus"]), with_it, lit(""))


def _as_bought(r: RowCells) -> Expr:
    """The fleet's $ per million tokens as bought: the month's cost of the GPUs bought (headroom, whole nodes)
    over the month's output at the target."""
    w = WORKLOAD
    return if_number(r["monthly_cost"], r["monthly_cost"] * 1e6 / (w["target"] * 3600 * w["hours"]))


def _monthly(r: RowCells) -> Expr:
    return if_number(r["cost_per_mtok"], if_number(r["gpus"], r["gpus"] * r["price"] * WORKLOAD["hours"]))


SIZING_COLUMNS = (
    Column(
        "candidate",
        "Candidate (family or entry ID)",
        Input(),
        FAMILY_RULE,
        [c for c, _ in CANDIDATES],
        short="candidate",
    ),
    Column(
        "gpus_per_node",
        "GPUs per node (blank = MLPerf node)",
        Input(style="in_int"),
        NumberRule(1, whole=True),
        [n for _, n in CANDIDATES],
    ),
    Column("price_override", "$/GPU-hour (blank = default)", Input(style="in_money"), NumberRule(0)),
    Column(
        "entry",
        "Entry used",
        Formula(lambda r: unless_blank(r["candidate"], entry_used(r["candidate"], WORKLOAD))),
        short="entry",
    ),
    Column(
        "availability",
        "Availability",
        Formula(
            lambda r: unless_blank(
                r["candidate"], unless_error(r["entry"], call("ENTRY", r["entry"], lit("availability")))
            )
        ),
    ),
    Column(
        "per_gpu",
        lit("Per-GPU (") & WORKLOAD["unit"] & lit(")"),
        Formula(lambda r: unless_blank(r["candidate"], per_gpu(r["entry"], WORKLOAD)), "out_num"),
        short="per-GPU",
    ),
    Column("rows", "Rows behind it", rows_shown("candidate", "entry", "rows_all"), short="rows"),
    Column(
        "gpus",
        "GPUs needed",
        Formula(
            lambda r: if_number(
                r["per_gpu"],
                if_number(
                    WORKLOAD["target_with_headroom"],
                    call(
                        "GPUSNEEDED",
                        WORKLOAD["target_with_headroom"],
                        r["per_gpu"],
                        WORKLOAD["utilization"],
                        r["node"],
                        units(WORKLOAD),
                    ),
                ),
            ),
            "out_int",
        ),
        short="GPUs",
    ),
    Column("nodes", "Nodes needed", Formula(_nodes, "out_int"), short="nodes"),
    Column("headroom", "Headroom in GPUs and nodes", Formula(_headroom), short="headroom"),
    Column(
        "price",
        "$/GPU-hour used",
        Formula(
            lambda r: unless_blank(
                r["candidate"], if_(eq(r["price_override"], lit("")), WORKLOAD["price"], r["price_override"])
            ),
            "out_money",
        ),
        short="$/GPU-h",
    ),
    Column(
        "cost_per_mtok",
        lit("$ per million ") & per_million(WORKLOAD) & lit(" at utilization"),
        Formula(lambda r: cost_per_mtok(r["price"], r["per_gpu"], WORKLOAD["utilization"], WORKLOAD), "out_money3"),
        short="$/M tokens",
    ),
    Column(
        "bought_mtok",
        lit("$ per million ") & per_million(WORKLOAD) & lit(" as bought"),
        Formula(_as_bought, "out_money3"),
        short="$/M bought",
    ),
    Column("monthly_cost", "Monthly cost", Formula(_monthly, "out_money0"), short="monthly"),
    Column("status", "Status: ok, or the row's first problem", Formula(status("candidate", "monthly_cost"))),
    # hidden: ROWSBEHIND of every candidate, one array formula the rows column shows
    Column("rows_all", "rows behind each BEST", rows_behind("candidate", "entry", WORKLOAD)),
    # hidden: the node size used, yours or the MLPerf system's (TCO and Fleet take it too)
    Column("node", "GPUs per node used", Lifted(_node, "out_int")),
)
SIZING_TABLE = TableBlock(
    SIZING,
    under(WORKLOAD),
    8,
    SIZING_COLUMNS,
    "Candidates: a family takes its best per-GPU entry under the workload's filters",
    header_height=44,
    cite=Cite("entry"),
)
SIZING_SHEET = sheet(
    SIZING,
    (
        *(("A", 30), ("B:C", 17), ("D", 11), ("E", 11), ("F", 13), ("G", 12), ("H:I", 13), ("J", 18), ("K:N", 13)),
        *(("O", STATUS_WIDTH), ("P:Q", 0)),
    ),
    (WORKLOAD, SIZING_TABLE, notes(SIZING, under(SIZING_TABLE, titled=False))),
)
