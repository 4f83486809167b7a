"""The cluster-sizing workbook, sheet by sheet, described once as data.

Each sheet is a ``Sheet`` of blocks (``layout.py``): labelled fields, tables, a grid, charts
and notes. Formulas name cells by asking their block (``WORKLOAD["benchmark"]``,
``row["entry"]``), so every address is stated once, here. The Sources sheet cites every
entry the other sheets name (their ``cite``), the Read me lists what each sheet answers
(its ``purpose``). To add a sheet: describe it and add it to ``ANSWERING``.

Sample inputs (prices, quotes) are examples and say so in the sheets.
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchsheet.addin.config import UDF_MODULE
from benchsheet.analysis.choices import AVAILABILITY_CHOICES
from benchsheet.analysis.citations import NOT_VERIFIED, TRADEMARK
from benchsheet.analysis.claims import GAINS_HEADER, RATIOS_HEADER
from benchsheet.analysis.uses import USES_HEADER
from benchsheet.templates.layout import (
    Block,
    Cell,
    Chart,
    Cite,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Grid,
    Input,
    Lines,
    ListRule,
    ListsSheet,
    NumberRule,
    RowCells,
    Series,
    SettingsSheet,
    Sheet,
    Stamp,
    TableBlock,
    Term,
    Text,
    Use,
    call,
    eq,
    if_,
    le,
    lit,
    under,
)

READ_ME, SIZING, QUOTES, SENSITIVITY, COMPARE, CLAIMS, SOURCES = (
    "Read me",
    "Sizing",
    "Quotes",
    "Sensitivity",
    "Compare",
    "Claims",
    "Sources",
)
TEXTS: dict[str, Any] = tomllib.loads(Path(__file__).with_name("texts.toml").read_text(encoding="utf-8"))
NOTICES = {"derived": str(TEXTS["notices"]["derived"]), "not_verified": NOT_VERIFIED, "trademark": TRADEMARK}
DERIVED_NOTE = NOTICES["derived"]
BOOK_PROPERTIES = {**TEXTS["book"], "comments": " ".join(NOTICES.values())}


def prose(text: str) -> str:
    """A text of texts.toml with the notices filled in."""
    return text.format(**NOTICES)


def sheet(name: str, widths: tuple[tuple[str, float], ...], blocks: tuple[Block, ...], **page: Any) -> Sheet:
    """A sheet with its title, subtitle and purpose from texts.toml."""
    t = TEXTS["sheets"][name]
    return Sheet(name, t["title"], t["subtitle"], widths, blocks, t.get("purpose", ""), **page)


def notes(name: str, top: int) -> Lines:
    """The sheet's notes (texts.toml) down column A from ``top``."""
    return Lines(name, top, tuple(prose(line) for line in TEXTS["sheets"][name]["notes"]))


LISTS = ListsSheet(
    "Lists",
    (
        ("Benchmarks", "benchmarks"),
        ("Scenarios", "scenarios"),
        ("Families", "families"),
        ("Availability", "availability"),
    ),
    TEXTS["lists"]["note"],
)
XLWINGS_CONF = SettingsSheet("xlwings.conf", (("UDF Modules", UDF_MODULE),), TEXTS["xlwings_conf"]["note"])
"""What xlwings' Import Functions imports for this workbook (and for no other one: this sheet is its own)."""
FAMILY_RULE = ListRule("families", title=TEXTS["families"]["title"], message=TEXTS["families"]["message"])

# ------------------------------------------------------------ formula pieces


def if_number(x: Term, then: Term) -> Expr:
    """``then`` if ``x`` is a number, else ``x`` itself: its error or reason passes on."""
    return if_(call("ISNUMBER", x), then, x)


def unless_blank(cell: Cell, then: Term) -> Expr:
    """Empty text while ``cell`` is empty (an unused slot), else ``then``."""
    return if_(eq(cell, lit("")), lit(""), then)


def unless_error(entry: Term, then: Term) -> Expr:
    """``then`` unless ``entry`` is an error (an error value, or the add-in's error text)."""
    return if_(eq(call("LEFT", entry, 1), lit("#")), entry, then)


def filters(workload: Fields) -> tuple[Cell, Cell, Cell, Cell]:
    """A workload block's benchmark, scenario, availability and max GPUs."""
    return workload["benchmark"], workload["scenario"], workload["availability"], workload["max_gpus"]


def entry_used(spec: Cell, workload: Fields) -> Expr:
    """An entry ID stays itself; a family becomes the entry behind its best per-GPU value."""
    return if_(call("ISNUMBER", call("GPUS", spec)), spec, call("BESTENTRY", spec, *filters(workload)))


def per_gpu(entry: Cell, workload: Fields) -> Expr:
    return unless_error(entry, call("PERGPU", entry, workload["benchmark"], workload["scenario"]))


# -------------------------------------------------------------------- Sizing

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
            "tokens/s (the benchmark's units) to serve",
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
            Formula(lambda w: w["target"].rel * (1 + w["headroom"].rel), "out_int"),
            "target x (1 + headroom)",
        ),
    ),
)
CANDIDATES: tuple[tuple[str, int], ...] = (("B200", 8), ("B300", 8), ("GB300", 4), ("MI355X", 8), ("H200", 8))


def _cost(price: Cell, per_gpu: Cell, utilization: Cell) -> Expr:
    return if_number(per_gpu, call("COSTPERMTOK", price, per_gpu, utilization))


def _nodes(r: RowCells) -> Expr:
    return if_number(r["gpus"], r["gpus"] / if_(eq(r["gpus_per_node"], lit("")), 8, r["gpus_per_node"]))


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
        "GPUs per node (blank = 8)",
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
        "Per-GPU throughput",
        Formula(lambda r: unless_blank(r["candidate"], per_gpu(r["entry"], WORKLOAD)), "out_num"),
        short="per-GPU",
    ),
    Column(
        "gpus",
        "GPUs needed",
        Formula(
            lambda r: if_number(
                r["per_gpu"],
                call(
                    "GPUSNEEDED",
                    WORKLOAD["target_with_headroom"],
                    r["per_gpu"],
                    WORKLOAD["utilization"],
                    r["gpus_per_node"],
                ),
            ),
            "out_int",
        ),
        short="GPUs",
    ),
    Column("nodes", "Nodes needed", Formula(_nodes, "out_int"), short="nodes"),
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
        "Cost per million tokens",
        Formula(lambda r: _cost(r["price"], r["per_gpu"], WORKLOAD["utilization"]), "out_money3"),
        short="$/M tokens",
    ),
    Column("monthly_cost", "Monthly cost", Formula(_monthly, "out_money0"), short="monthly"),
)
SIZING_TABLE = TableBlock(
    SIZING,
    under(WORKLOAD),
    8,
    SIZING_COLUMNS,
    "Candidates: a family takes its best per-GPU entry under the workload's filters",
    header_height=45,
    cite=Cite("entry"),
)
SIZING_SHEET = sheet(
    SIZING,
    (("A", 30), ("B:C", 14), ("D", 11), ("E", 11), ("F:K", 13)),
    (WORKLOAD, SIZING_TABLE, notes(SIZING, under(SIZING_TABLE, titled=False))),
)

# --------------------------------------------------- the workload, linked from Sizing

_LINK_STYLES = {"max_gpus": "out_int", "utilization": "out_pct"}
_LISTED = {"benchmark": "benchmarks", "scenario": "scenarios", "availability": "availability"}


def canonical(cell: Cell, source: str) -> Expr:
    """What ``cell`` holds in the spelling of the Lists sheet's ``source`` ("offline" -> "Offline"),
    as titles show it; the text as typed where the list does not have it."""
    listed = LISTS.ref(source)
    return call("IFERROR", call("INDEX", listed, call("MATCH", cell, listed, 0)), cell)


def linked(key: str, note: str = "") -> Field:
    """The workload's ``key``, shown on another sheet as a link to Sizing (in the data's spelling)."""
    label = next(f.label for f in WORKLOAD.fields if f.key == key)
    source = WORKLOAD[key]
    shown = canonical(source, _LISTED[key]) if key in _LISTED else Expr.of(source)
    return Field(key, label, Formula(unless_blank(source, shown), _LINK_STYLES.get(key, "out_text")), note)


def workload_links(sheet: str, *keys: str, top: int = 5, title: str = "Workload (set on Sizing)") -> Fields:
    return Fields(sheet, top=top, title=title, fields=tuple(linked(k) for k in keys))


_FILTERS = ("benchmark", "scenario", "availability", "max_gpus")

# -------------------------------------------------------------------- Quotes

QUOTES_WORKLOAD = workload_links(QUOTES, *_FILTERS, "utilization")
BASELINE = Fields(
    QUOTES,
    top=under(QUOTES_WORKLOAD),
    title="Baseline",
    cite=Cite("entry", "baseline"),
    fields=(
        Field(
            "accelerator",
            "Baseline accelerator",
            Input("B200"),
            "a family (its best entry) or an entry ID",
            FAMILY_RULE,
        ),
        Field(
            "price",
            "Baseline $/GPU-hour (example)",
            Input(3.00, "in_money"),
            "an example price, not data",
            NumberRule(0),
        ),
        Field("entry", "Baseline entry used", Formula(lambda b: entry_used(b["accelerator"], QUOTES_WORKLOAD))),
        Field(
            "per_gpu", "Baseline per-GPU throughput", Formula(lambda b: per_gpu(b["entry"], QUOTES_WORKLOAD), "out_num")
        ),
        Field(
            "cost_per_mtok",
            "Baseline cost per million tokens",
            Formula(lambda b: _cost(b["price"], b["per_gpu"], QUOTES_WORKLOAD["utilization"]), "out_money3"),
        ),
    ),
)
SAMPLE_QUOTES: tuple[tuple[str, str, float, str], ...] = (
    ("Example vendor A", "B300", 3.60, "12 months"),
    ("Example vendor B", "B300", 4.10, "36 months"),
    ("Example vendor C", "MI355X", 3.40, "12 months"),
    ("Example vendor D", "GB300", 5.00, "24 months"),
)


def _ratio(r: RowCells) -> Expr:
    # the quote's own cost check has vetted its price; the baseline's cost vets the baseline price
    return if_number(r["cost_per_mtok"], if_number(BASELINE["cost_per_mtok"], r["price"] / BASELINE["price"]))


def _verdict(r: RowCells) -> Expr:
    ratio, be = r["ratio"], r["breakeven"]
    above = call("TEXT", ratio / be - 1, lit("0.0%")) & lit(" above break-even")
    return if_number(ratio, if_number(be, if_(le(ratio, be), lit("within break-even"), above)))


def _breakeven(r: RowCells, *price: Cell) -> Expr:
    """BREAKEVEN (no price) or BREAKEVENPRICE (the baseline price first) of the row's accelerator."""
    name = "BREAKEVENPRICE" if price else "BREAKEVEN"
    args = (*price, BASELINE["accelerator"], r["accelerator"], *filters(QUOTES_WORKLOAD))
    return unless_blank(r["accelerator"], call(name, *args))


QUOTES_COLUMNS = (
    Column("vendor", "Vendor", Input(), values=[q[0] for q in SAMPLE_QUOTES], short="vendor"),
    Column(
        "accelerator",
        "Accelerator (family or entry ID)",
        Input(),
        FAMILY_RULE,
        [q[1] for q in SAMPLE_QUOTES],
        short="accelerator",
    ),
    Column(
        "price",
        "Quoted $/GPU-hour",
        Input(style="in_money"),
        NumberRule(0),
        [q[2] for q in SAMPLE_QUOTES],
        short="quote",
    ),
    Column("term", "Term", Input(), values=[q[3] for q in SAMPLE_QUOTES]),
    Column(
        "entry",
        "Entry used",
        Formula(lambda r: unless_blank(r["accelerator"], entry_used(r["accelerator"], QUOTES_WORKLOAD))),
    ),
    Column(
        "per_gpu",
        "Per-GPU throughput",
        Formula(lambda r: unless_blank(r["accelerator"], per_gpu(r["entry"], QUOTES_WORKLOAD)), "out_num"),
    ),
    Column(
        "cost_per_mtok",
        "Cost per million tokens",
        Formula(lambda r: _cost(r["price"], r["per_gpu"], QUOTES_WORKLOAD["utilization"]), "out_money3"),
    ),
    Column("ratio", "Quote ratio to baseline", Formula(_ratio, "out_ratio"), short="ratio"),
    Column("breakeven", "Break-even ratio", Formula(_breakeven, "out_ratio"), short="break-even"),
    Column(
        "ceiling",
        "Break-even price ceiling ($/GPU-hour)",
        Formula(lambda r: _breakeven(r, BASELINE["price"]), "out_money"),
        short="ceiling",
    ),
    Column("verdict", "Verdict", Formula(_verdict), short="verdict"),
)
QUOTES_TABLE = TableBlock(
    QUOTES, under(BASELINE), 8, QUOTES_COLUMNS, "Vendor quotes", header_height=45, cite=Cite("entry")
)
QUOTES_SHEET = sheet(
    QUOTES,
    (("A", 30), ("B:C", 14), ("D:E", 11), ("F:J", 13), ("K", 22)),
    (QUOTES_WORKLOAD, BASELINE, QUOTES_TABLE, notes(QUOTES, under(QUOTES_TABLE, titled=False))),
)

# --------------------------------------------------------------- Sensitivity

SENS_WORKLOAD = workload_links(SENSITIVITY, *_FILTERS)
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
SENS_GRID = Grid(
    SENSITIVITY,
    header_row=under(SENS),
    title=lit("Cost per million tokens ($): ")
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
    body=lambda price, utilization: _cost(price, SENS["per_gpu"], utilization),
    body_style="out_money3",
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
    y_axis={"name": "$ per million tokens", "num_format": "$0.00", "major_gridlines": {"visible": True}},
    legend="right",
    width=860,
    height=400,
)
SENSITIVITY_SHEET = sheet(
    SENSITIVITY,
    (("A", 30), ("B:I", 11)),
    (SENS_WORKLOAD, SENS, SENS_GRID, SENS_CHART, notes(SENSITIVITY, under(SENS_CHART, gap=0, titled=False))),
)

# ------------------------------------------------------------------- Compare

COMPARE_FILTERS = Fields(
    COMPARE,
    top=5,
    title="Workload",
    fields=(linked("benchmark", "set on Sizing"), linked("scenario", "set on Sizing"), AVAILABILITY, MAX_GPUS),
)
_FAMILY_FILTERS = filters(COMPARE_FILTERS)


def _ranked(r: RowCells) -> Expr:
    """The families ranked for the workload; a family typed over a cell pins it, and the formula copied
    back from any other row ranks it again (the rank is the cell's own row)."""
    rank = call("ROW") - (r.first - 1)
    return call("IFERROR", call("INDEX", call("FAMILIES", *_FAMILY_FILTERS), rank), lit(""))


def _of_family(name: str) -> Formula:
    """BEST, BESTENTRY or MEDIANPERGPU of the row's family under the sheet's filters."""
    style = "out_text" if name == "BESTENTRY" else "out_num"
    return Formula(lambda r: unless_blank(r["family"], call(name, r["family"], *_FAMILY_FILTERS)), style)


def _caption(bench: Cell, scen: Cell, avail: Cell, maxg: Cell) -> Expr:
    """What the table (and its chart) show, under which filters."""
    size = if_(eq(maxg, lit("")), lit("any system size"), lit("at most ") & maxg & lit(" GPUs"))
    shown = canonical(avail, "availability")
    return lit("Per-GPU throughput by family: ") & bench & lit(" ") & scen & lit(", ") & shown & lit(", ") & size


COMPARE_TABLE = TableBlock(
    COMPARE,
    header_row=under(COMPARE_FILTERS, gap=0),
    slots=16,
    title=_caption(*_FAMILY_FILTERS),
    header_height=30,
    cite=Cite("entry"),
    columns=(
        Column("family", "Family", Formula(_ranked, "in_text"), FAMILY_RULE),
        Column("best", "Best per-GPU", _of_family("BEST")),
        Column("entry", "Entry behind best", _of_family("BESTENTRY")),
        Column(
            "system",
            "System",
            Formula(
                lambda r: unless_blank(r["family"], unless_error(r["entry"], call("ENTRY", r["entry"], lit("system"))))
            ),
        ),
        Column("median", "Median per-GPU", _of_family("MEDIANPERGPU")),
        Column(
            "best_over_median",
            "Best / median",
            Formula(lambda r: if_number(r["best"], if_number(r["median"], r["best"] / r["median"])), "out_ratio"),
        ),
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
COMPARE_SHEET = sheet(
    COMPARE,
    (("A", 24), ("B", 13), ("C", 11), ("D", 52), ("E:F", 13)),
    (COMPARE_FILTERS, COMPARE_TABLE, COMPARE_CHART, notes(COMPARE, under(COMPARE_CHART, gap=0, titled=False))),
)

# -------------------------------------------------------------------- Claims

CLAIM = Fields(
    CLAIMS,
    top=5,
    title='The claim (yellow: the sample is v6.1\'s news, "Vera Rubin is up to 3.7x GB300")',
    fields=(
        Field(
            "candidate",
            "Candidate (family or entry ID)",
            Input("Vera Rubin"),
            "the side said to be faster",
            FAMILY_RULE,
        ),
        Field("baseline", "Baseline (family or entry ID)", Input("GB300"), "the side it is compared with", FAMILY_RULE),
        Field("claimed", "Claimed ratio", Input(3.7, "in_ratio"), 'the N of "up to Nx"', NumberRule(0)),
        Field(
            "benchmark",
            "Benchmark (optional)",
            Input(),
            'blank: an "up to" claim, checked where the ratio is highest',
            ListRule("benchmarks", "benchmark"),
        ),
        Field("scenario", "Scenario (optional)", Input(), "with the benchmark", ListRule("scenarios", "scenario")),
    ),
)
_ANSWER = (  # the fields of each answer block: key, label, style, RATIOS' columns
    ("benchmark", "Benchmark", "out_text", ("benchmark",)),
    ("scenario", "Scenario", "out_text", ("scenario",)),
    ("ratio", "Ratio (candidate / baseline per-GPU)", "out_ratio", ("ratio",)),
    ("candidate_entry", "Candidate entry", "out_text", ("candidate entry",)),
    ("baseline_entry", "Baseline entry", "out_text", ("baseline entry",)),
    (
        "availability",
        "Availability (candidate / baseline)",
        "out_text",
        ("candidate availability", "baseline availability"),
    ),
)
_RATIO_COLUMNS = {key: columns for key, _, _, columns in _ANSWER}


def _ratios(availability: str) -> Expr:
    return call("RATIOS", CLAIM["candidate"], CLAIM["baseline"], lit(availability))


def _ratios_at(availability: str, row: int, column: str) -> Expr:
    return call("INDEX", _ratios(availability), row, RATIOS_HEADER.index(column) + 1)


def _first_row(availability: str, key: str, otherwise: Term) -> Expr:
    """The answer block's ``key`` from RATIOS' first row, or ``otherwise`` when RATIOS has none."""
    parts = [_ratios_at(availability, 2, column) for column in _RATIO_COLUMNS[key]]
    joined = parts[0] if len(parts) == 1 else parts[0] & lit(" / ") & parts[1]
    return call("IFERROR", joined, otherwise)


def _entry_at(spec: Cell, availability: str) -> Expr:
    """The entry a side of the claim uses at the claim's benchmark: itself, or its family's best."""
    where = (CLAIM["benchmark"], CLAIM["scenario"], lit(availability))
    return if_(call("ISNUMBER", call("GPUS", spec)), spec, call("BESTENTRY", spec, *where))


def _at_claimed(key: str, f: RowCells, availability: str) -> Expr:
    """The answer block's ``key`` at the benchmark and scenario the claim names (BREAKEVEN's ratio)."""
    cand, base, bench, scen = CLAIM["candidate"], CLAIM["baseline"], CLAIM["benchmark"], CLAIM["scenario"]
    ce, be = f["candidate_entry"], f["baseline_entry"]
    sides = call("ENTRY", ce, lit("availability")) & lit(" / ") & call("ENTRY", be, lit("availability"))
    return {
        "benchmark": Expr.of(bench),
        "scenario": Expr.of(scen),
        "ratio": call("BREAKEVEN", base, cand, bench, scen, lit(availability)),
        "candidate_entry": _entry_at(cand, availability),
        "baseline_entry": _entry_at(base, availability),
        "availability": unless_error(ce, unless_error(be, sides)),
    }[key]


def _claimed(key: str) -> Callable[[RowCells], Expr]:
    """Where the claim is made: its benchmark and scenario, or (none named) where the ratio is highest."""
    return lambda f: if_(eq(CLAIM["benchmark"], lit("")), BEST_RATIO[key], _at_claimed(key, f, "any"))


def _best(key: str) -> Callable[[RowCells], Expr]:
    return lambda f: _first_row("any", key, _ratios("any"))


def _available(key: str) -> Callable[[RowCells], Expr]:
    """Available hardware only; where no pair has any, the ratio says so and the rest stay empty."""

    def value(f: RowCells) -> Expr:
        none = lit("none: ") & CLAIM["candidate"] & lit(" and ") & CLAIM["baseline"]
        none = none & lit(" share no benchmark and scenario with closed Available results")
        otherwise = if_(
            call("ISNUMBER", BEST_RATIO["ratio"]), none if key == "ratio" else lit(""), _ratios("available")
        )
        anywhere = _first_row("available", key, otherwise)
        return if_(eq(CLAIM["benchmark"], lit("")), anywhere, _at_claimed(key, f, "available"))

    return value


def answer(top: int, title: str, label: str, value: Callable[[str], Callable[[RowCells], Expr]]) -> Fields:
    """An answer block: benchmark, scenario, ratio, both entries and their availability."""
    cites = tuple(
        Cite(f"{side}_entry", f"({label}, {side})", "benchmark", "scenario") for side in ("candidate", "baseline")
    )
    fields = tuple(Field(key, name, Formula(value(key), style)) for key, name, style, _ in _ANSWER)
    return Fields(CLAIMS, top=top, title=title, fields=fields, cite=cites)


def _verdict_of_claim(_: RowCells) -> Expr:
    """holds / holds only for <benchmark scenario> / holds only with Preview hardware / does not hold."""
    claimed, at, available = CLAIM["claimed"], CLAIMED_AT["ratio"], AVAILABLE["ratio"]
    preview = call("ISNUMBER", call("SEARCH", lit("preview"), CLAIMED_AT["availability"]))
    only_with = lit("holds only with ") & if_(preview, lit("Preview"), lit("RDI")) & lit(" hardware")
    second = call("IFERROR", _ratios_at("available", 3, "ratio"), 0)  # RATIOS' rows run highest first
    only_for = lit("holds only for ") & AVAILABLE["benchmark"] & lit(" ") & AVAILABLE["scenario"]
    anywhere = if_(le(claimed, second), lit("holds"), only_for)
    with_available = if_(eq(CLAIM["benchmark"], lit("")), anywhere, lit("holds"))
    holds = if_(call("ISNUMBER", available), if_(le(claimed, available), with_available, only_with), only_with)
    return unless_blank(claimed, if_number(at, if_(le(claimed, at), holds, lit("does not hold"))))


VERDICT = Fields(
    CLAIMS,
    top=under(CLAIM),
    title="Verdict",
    fields=(
        Field(
            "verdict",
            "Does the claim hold?",
            Formula(_verdict_of_claim, "out_verdict"),
        ),
    ),
)
CLAIMED_AT = answer(under(VERDICT), "Where the claim is made (any availability)", "claim", lambda key: _claimed(key))
BEST_RATIO = answer(under(CLAIMED_AT), "Best ratio anywhere (RATIOS' first row, any availability)", "best", _best)
AVAILABLE = answer(
    under(BEST_RATIO),
    "Available hardware only (where the claim is made, availability available)",
    "available",
    _available,
)

# ------------------------------------------------- Claims: range and count claims

RANGE_CLAIM = Fields(
    CLAIMS,
    top=under(AVAILABLE),
    title='A range claim (yellow: v6.1\'s "8 to 36 percent gains on deployed Blackwell through software alone")',
    fields=(
        Field("family", "Family or group", Input("Blackwell"), 'e.g. "Blackwell", "Hopper", "CDNA 3", "B200"'),
        Field("low", "Claimed low end", Input(0.08, "in_pct"), "per-GPU gain"),
        Field("high", "Claimed high end", Input(0.36, "in_pct"), "per-GPU gain"),
        Field("old_round", "Older round", Input("6.0"), "software gains between these rounds"),
        Field("new_round", "Newer round", Input("6.1"), "every benchmark and scenario (GAINRANGE)"),
    ),
)


def _range_at(row: int, column: str) -> Callable[[RowCells], Expr]:
    """GAINRANGE's ``column`` at the low (2) or high (3) end; its reason where it has none."""
    r = RANGE_CLAIM
    args = (r["low"], r["high"], r["family"], r["old_round"], r["new_round"], lit("available"))
    table = call("GAINRANGE", *args)
    index = {"verdict": 3, "platform": 4, "system": 5, "weak": 6, "pairs": 7}[column]
    return lambda _: call("IFERROR", call("INDEX", table, row, index), table)


RANGE_ANSWER = Fields(
    CLAIMS,
    top=under(RANGE_CLAIM),
    title="The range checked at both ends (like-for-like pairs, Available, any benchmark and scenario)",
    fields=tuple(
        Field(f"{end}_{column}", f"{end.capitalize()} end: {label}", Formula(_range_at(row, column), style))
        for end, row in (("low", 2), ("high", 3))
        for column, label, style in (
            ("verdict", "verdict", "out_verdict"),
            ("platform", "pairs, same platform", "out_int"),
            ("system", "pairs, same system", "out_int"),
            ("weak", "pairs, weak match only", "out_int"),
            ("pairs", "nearest pairs", "out_text"),
        )
    ),
)
COUNT_CLAIM = Fields(
    CLAIMS,
    top=under(RANGE_ANSWER),
    title='A count claim (yellow: v6.1\'s "30 submitters and 120 systems")',
    fields=(
        Field("round", "Round", Input("6.1"), "the round the news is about"),
        Field("submitters", "Claimed submitters", Input(30, "in_int"), ""),
        Field("systems", "Claimed systems", Input(120, "in_int"), "MLPerf counts systems as entry IDs"),
    ),
)


def _count(what: str, division: str) -> Callable[[RowCells], Expr]:
    return lambda _: call("ROUNDCOUNT", COUNT_CLAIM["round"], lit(what), lit(division), lit("any"), lit(""))


def _count_verdict(what: str) -> Callable[[RowCells], Expr]:
    """Which division the claimed number is: closed only, all divisions, or neither."""

    def value(f: RowCells) -> Expr:
        claimed, closed, every = COUNT_CLAIM[what], f[f"{what}_closed"], f[f"{what}_all"]
        neither = lit("neither: ") & closed & lit(" closed, ") & every & lit(" in all")
        return if_(
            eq(claimed, closed), lit("the closed division"), if_(eq(claimed, every), lit("all divisions"), neither)
        )

    return value


COUNT_ANSWER = Fields(
    CLAIMS,
    top=under(COUNT_CLAIM),
    title="What the round holds (COUNTS): the news may mix the closed division with all",
    fields=(
        Field("submitters_closed", "Submitters, closed division", Formula(_count("submitters", "closed"), "out_int")),
        Field("submitters_all", "Submitters, all divisions", Formula(_count("submitters", "all"), "out_int")),
        Field("submitters_is", "The claimed submitters are", Formula(_count_verdict("submitters"), "out_verdict")),
        Field("systems_closed", "Entry IDs (systems), closed", Formula(_count("entry IDs", "closed"), "out_int")),
        Field("systems_all", "Entry IDs (systems), all divisions", Formula(_count("entry IDs", "all"), "out_int")),
        Field("systems_is", "The claimed systems are", Formula(_count_verdict("systems"), "out_verdict")),
    ),
)

# ---------------------------------------------------------- Claims: software gains

GAINS_WORKLOAD = workload_links(
    CLAIMS,
    "benchmark",
    "scenario",
    "availability",
    top=under(COUNT_ANSWER),
    title="Software gains: the workload set on Sizing",
)


def _gains() -> Expr:
    """GAINS of the workload, rounds and family left to their defaults.

    Given as "" rather than left out: the formula engine does not compute a formula that has both a
    cell reference and a left-out argument."""
    w, default = GAINS_WORKLOAD, lit("")
    return call("GAINS", w["benchmark"], w["scenario"], default, default, default, w["availability"])


def _gains_column(*columns: str, style: str = "out_text", reason: bool = False) -> Formula:
    """GAINS' columns in the row's slot (joined: "HPE 8x MI355X"); empty past its last row.

    With ``reason``, the first slot shows why GAINS has no rows for the workload.
    """

    def value(r: RowCells) -> Expr:
        parts = [call("INDEX", _gains(), r.index + 2, GAINS_HEADER.index(c) + 1) for c in columns]
        joined = parts[0] if len(parts) == 1 else parts[0] & lit(" ") & parts[1] & lit("x ") & parts[2]
        return call("IFERROR", joined, _gains() if reason and r.index == 0 else lit(""))

    return Formula(value, style)


def _gains_title(w: Fields) -> Expr:
    what = w["benchmark"] & lit(" ") & w["scenario"] & lit(", ") & w["availability"]
    return lit("Software gains (GAINS): like-for-like systems in the two latest rounds, ") & what


GAINS_TABLE = TableBlock(
    CLAIMS,
    header_row=under(GAINS_WORKLOAD, gap=0),
    slots=16,
    title=_gains_title(GAINS_WORKLOAD),
    cite=(Cite("old_entry", "(old)"), Cite("new_entry", "(new)")),
    columns=(
        Column(
            "system", "System (submitter, GPUs x family)", _gains_column("submitter", "GPUs", "family", reason=True)
        ),
        Column("old_entry", "Old entry", _gains_column("old entry")),
        Column("new_entry", "New entry", _gains_column("new entry")),
        Column("old_per_gpu", "Old per-GPU", _gains_column("old per-GPU", style="out_num")),
        Column("new_per_gpu", "New per-GPU", _gains_column("new per-GPU", style="out_num")),
        Column("gain", "Gain per GPU", _gains_column("gain", style="out_pct1")),
        Column(
            "match",
            "Pairing (same platform, system, or submitter, family and size)",
            _gains_column("match", style="out_wrap"),
        ),
    ),
)
GAINS_CHART = Chart(
    top=under(GAINS_TABLE, gap=2, titled=False),
    kind="bar",
    series=(
        Series(
            "Gain per GPU",
            GAINS_TABLE.column("system"),
            GAINS_TABLE.column("gain"),
            {"fill": {"color": "#2F5597"}, "gap": 60},
        ),
    ),
    title=GAINS_TABLE.title_cell,
    x_axis={"name": "per-GPU gain over the older round (same submitter, family and GPU count)", "num_format": "0%"},
    y_axis={"reverse": True, "label_position": "low"},  # names left of the plot, clear of a loss's bar
    legend="none",
    width=860,
    height=460,
)
CLAIMS_SHEET = sheet(
    CLAIMS,
    (("A", 34), ("B", 16), ("C:F", 12), ("G", 56)),
    (
        CLAIM,
        VERDICT,
        CLAIMED_AT,
        BEST_RATIO,
        AVAILABLE,
        RANGE_CLAIM,
        RANGE_ANSWER,
        COUNT_CLAIM,
        COUNT_ANSWER,
        GAINS_WORKLOAD,
        GAINS_TABLE,
        GAINS_CHART,
        notes(CLAIMS, under(GAINS_CHART, gap=0, titled=False)),
    ),
    landscape=False,
)

# --------------------------------------------------- the registry, Sources and Read me

ANSWERING = (
    SIZING_SHEET,
    QUOTES_SHEET,
    SENSITIVITY_SHEET,
    COMPARE_SHEET,
    CLAIMS_SHEET,
)  # a new sheet: describe it, add it here

USES = tuple(use for sheet in ANSWERING for use in sheet.uses())
SOURCES_WORKLOAD = Fields(
    SOURCES, top=4, fields=(linked("benchmark", "set on Sizing"), linked("scenario", "set on Sizing"))
)
_DATAINFO_COLUMNS = ("round", "file", "rows", "sha256", "imported_at", "url")  # DATAINFO()'s header


def _source_file(column: str, style: str = "cite") -> Formula:
    """One column of DATAINFO()'s row for the slot's source file; empty past the last file."""

    def value(r: RowCells) -> Expr:
        at = call("INDEX", call("DATAINFO"), r.index + 2, _DATAINFO_COLUMNS.index(column) + 1)
        if column == "round":  # DATAINFO's last row says where the table was loaded from: not a file
            return call("IFERROR", if_(eq(at, lit("origin")), lit(""), lit("v") & at), lit(""))
        return unless_blank(r["round"], at)

    return Formula(value, style)


SOURCE_FILES = TableBlock(
    SOURCES,
    header_row=under(SOURCES_WORKLOAD, titled=True),
    slots=5,
    title="Source files: every entry below is cited from one of these (DATAINFO)",
    columns=(
        Column("round", "Round", _source_file("round")),
        Column("file", "File", _source_file("file")),
        Column("url", "A copy of", _source_file("url")),
        Column("sha256", "SHA-256", _source_file("sha256")),
        Column("imported_at", "Retrieved (UTC)", _source_file("imported_at")),
    ),
)
LEGEND = Lines(  # short lines: a note runs over the empty cells to its right, and must stay on the page
    SOURCES,
    under(SOURCE_FILES, gap=0, titled=False),
    tuple(line for text in TEXTS["sheets"][SOURCES]["notes"] for line in textwrap.wrap(prose(text), 150)),
)


def span(first: Cell, last: Cell) -> Expr:
    """The range ``first:last`` in a formula."""
    return Expr((first, ":", last))


def _of_use(part: Callable[[Use], Term]) -> Formula:
    """A hidden cell of the slot's use (the slot's own row is the use's index): what ENTRIESUSED reads."""
    return Formula(lambda r: Expr.of(part(USES[r.index])), "out_text")


def _entry_of_use(use: Use) -> Expr:
    """The use's entry; empty where it is an error (its reason shows where it is used, not here)."""
    return call("IFERROR", if_(eq(call("LEFT", use.entry, 1), lit("#")), lit(""), use.entry), lit(""))


def _used(column: str, style: str = "cite") -> Formula:
    """ENTRIESUSED's ``column`` in the slot's row: the slot's own row number picks the row, so the formula
    is one down the column and a slot past the last entry is empty."""
    j = USES_HEADER.index(column) + 1

    def value(r: RowCells) -> Expr:
        used = call("ENTRIESUSED", *(_column(key) for key in ("use_entry", "where", "use_bench", "use_scen")))
        return call("IFERROR", call("INDEX", used, call("ROW") - (r.first - 2), j), lit(""))

    return Formula(value, style)


def _column(key: str) -> Expr:
    c = CITED.column(key)
    return span(c.first, c.last)


def _cite(*parts: str) -> Callable[[RowCells], Expr]:
    """The row's CITE lines ``parts``, joined by spaces (an error once, as it is)."""

    def value(r: RowCells) -> Expr:
        lines = [call("CITE", r["entry"], r["bench"], r["scen"], lit(p)) for p in parts]
        joined = lines[0] if len(lines) == 1 else call("TRIM", lines[0] & lit(" ") & lines[1])
        return unless_blank(r["entry"], unless_error(lines[0], joined) if len(lines) > 1 else joined)

    return value


EMPTY_ROW_HEIGHT = 1.5
"""Points: on Sources, a row that shows nothing (a slot no entry fills) is a hairline, so the empty slots
after the last citation take no page; a row that shows something has its own height (calc sets it too)."""
CITED = TableBlock(
    SOURCES,
    header_row=under(LEGEND),
    slots=len(USES),  # room for every use to name an entry of its own
    title="Entries: one row each, with every place that uses it (ENTRIESUSED; CITE, one line a part)",
    header_height=30,
    columns=(  # calc makes a row it fills as tall as its text (and one it empties the default height)
        Column("entry", "Entry", _used("entry")),
        Column("used_on", "Used on", _used("used on")),
        Column(
            "citation",
            "MLPerf® Inference round, division, category, benchmark, scenario, entry; result",
            Formula(_cite("entry", "result"), "cite"),
        ),
        Column("system", "System and submitter; notes", Formula(_cite("system", "notes"), "cite")),
        Column("derived", "Per-GPU value: derived, not verified", Formula(_cite("derived"), "cite")),
        # hidden: the workload each entry is cited for, and one use a row (where, its entry and workload)
        Column("bench", "benchmark cited", _used("benchmark", "out_text")),
        Column("scen", "scenario cited", _used("scenario", "out_text")),
        Column("where", "where", Text(style="out_text", fit=False), values=[u.where for u in USES]),
        Column("use_entry", "entry of the use", _of_use(_entry_of_use)),
        Column("use_bench", "benchmark of the use", _of_use(lambda u: u.benchmark or SOURCES_WORKLOAD["benchmark"])),
        Column("use_scen", "scenario of the use", _of_use(lambda u: u.scenario or SOURCES_WORKLOAD["scenario"])),
    ),
)
SOURCES_SHEET = sheet(
    SOURCES,
    (("A", 9), ("B", 20), ("C", 53), ("D", 52), ("E", 45), ("F:K", 0)),  # a citation in three lines
    (SOURCES_WORKLOAD, SOURCE_FILES, LEGEND, CITED),
    one_page=False,
    empty_row=EMPTY_ROW_HEIGHT,
    repeat_row=CITED.header_row,
)

ANSWERS = Fields(
    READ_ME,
    top=5,
    title="What it answers",
    fields=tuple(Field(s.name, s.name, Text(s.purpose, "wrap")) for s in (*ANSWERING, SOURCES_SHEET)),
)
HOW_TO = Fields(
    READ_ME,
    top=under(ANSWERS),
    title="How to use it",
    fields=tuple(
        Field(label, label, Text(prose(text), "wrap"), label_style="label" if i else "in_text")  # a yellow sample
        for i, (label, text) in enumerate(TEXTS["read_me"]["how"].items())
    ),
)
_DATAINFO = (
    ("rounds", "Rounds", "out_left"),
    ("rows", "Result rows", "out_left"),
    ("origin", "Loaded from", "out_left"),
    ("imported_at", "Imported at (UTC)", "out_left"),
)
_FILES = "Each file, the copy it was read from, its SHA-256 and when: on the Sources sheet (one line a file)."
DATA = Fields(
    READ_ME,
    top=under(HOW_TO),
    title="Where the data comes from (DATAINFO)",
    fields=(
        *(Field(key, label, Formula(call("DATAINFO", lit(key)), style)) for key, label, style in _DATAINFO),
        Field("sources", "Source files", Text(_FILES, "wrap")),  # a list of them is too long for classic Excel
        Field("built", "Built", Stamp()),
    ),
)
NOTES = Fields(
    READ_ME,
    top=under(DATA),
    title="Notes",
    fields=tuple(Field(label, label, Text(prose(text), "wrap")) for label, text in TEXTS["read_me"]["notes"].items()),
)
READ_ME_SHEET = sheet(READ_ME, (("A", 24), ("B", 120)), (ANSWERS, HOW_TO, DATA, NOTES), landscape=False, one_page=False)

SHEETS = (READ_ME_SHEET, *ANSWERING, SOURCES_SHEET)  # in workbook order; then the hidden Lists and xlwings.conf
