"""The workload: set once on the Sizing sheet (benchmark, scenario, filters, utilization, target,
prices), and shown on the other sheets as links to it, in the data's spelling.
"""

from __future__ import annotations

from benchsheet.analysis.choices import AVAILABILITY_CHOICES
from benchsheet.templates.layout import (
    Expr,
    Field,
    Fields,
    Formula,
    Input,
    ListRule,
    NumberRule,
    RowCells,
    eq,
    if_,
    lit,
)
from benchsheet.templates.sheets.common import SIZING, canonical, unit_name, unless_blank

AVAILABILITY = Field(
    "availability",
    "Availability",
    Input("available"),
    "available, preview, rdi or any",
    ListRule(AVAILABILITY_CHOICES, "availability"),
)
MAX_GPUS = Field(
    "max_gpus",
    "Max GPUs per system",
    Input(8, "in_int"),
    "only systems with at most this many GPUs; blank = any size",
    NumberRule(1, whole=True),
)


def _with_headroom(w: RowCells) -> Expr:
    """target x (1 + headroom); a blank target is named (GPUSNEEDED would size it as 0 GPUs, $0)."""
    target = w["target"]
    blank = lit(f"#VALUE! the target throughput is required: {SIZING}!{target.a1} is empty")
    return if_(eq(target.rel, lit("")), blank, target.rel * (1 + w["headroom"].rel))


WORKLOAD = Fields(
    SIZING,
    top=5,
    title="Workload (shared by all sheets)",
    fields=(
        Field(
            "benchmark",
            "Benchmark",
            Input("gpt-oss-120b"),
            "from the list of benchmarks in the data",
            ListRule("benchmarks", "benchmark"),
        ),
        Field(
            "scenario", "Scenario", Input("Server"), "Server, Offline or Interactive", ListRule("scenarios", "scenario")
        ),
        AVAILABILITY,
        MAX_GPUS,
        Field(
            "utilization",
            "Utilization",
            Input(0.6, "in_pct"),
            "share of each hour spent serving, > 0 and <= 100%",
            NumberRule(0.0001, 1),
        ),
        Field(
            "target",
            "Target throughput",
            Input(1_000_000, "in_int"),
            "in the benchmark's units (below) to serve",
            NumberRule(0),
        ),
        Field("headroom", "Headroom", Input(0.2, "in_pct"), "extra capacity on top of the target", NumberRule(0)),
        Field(
            "price",
            "Default $/GPU-hour (example)",
            Input(3.00, "in_money"),
            "an example price, not data; a price per candidate below overrides it",
            NumberRule(0),
        ),
        Field("hours", "Hours per month", Input(730, "in_int"), "for the monthly cost", NumberRule(1)),
        Field(
            "target_with_headroom",
            "Target with headroom",
            Formula(_with_headroom, "out_int"),
            "target x (1 + headroom)",
        ),
        Field(
            "unit",
            "Units",
            Formula(unit_name, "out_text"),
            "the benchmark's: the target, per-GPU values and costs per million are in them",
        ),
    ),
)


_LINK_STYLES = {"max_gpus": "out_int", "utilization": "out_pct"}
_LISTED = {"benchmark": "benchmarks", "scenario": "scenarios", "availability": "availability"}


def linked(key: str, note: str = "") -> Field:
    """The workload's ``key``, shown on another sheet as a link to Sizing (in the data's spelling)."""
    label = next(f.label for f in WORKLOAD.fields if f.key == key)
    assert isinstance(label, str), key
    source = WORKLOAD[key]
    shown = canonical(source, _LISTED[key]) if key in _LISTED else Expr.of(source)
    return Field(key, label, Formula(unless_blank(source, shown), _LINK_STYLES.get(key, "out_text")), note)


def workload_links(sheet: str, *keys: str, top: int = 5, title: str = "Workload (set on Sizing)") -> Fields:
    """A block of the workload's ``keys`` on ``sheet``, each a link to Sizing."""
    return Fields(sheet, top=top, title=title, fields=tuple(linked(k) for k in keys))


FILTER_KEYS = ("benchmark", "scenario", "availability", "max_gpus")
"""The workload's keys a family look-up (BEST, BESTENTRY, BREAKEVEN) takes after the family."""
