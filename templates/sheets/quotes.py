"""The Quotes sheet: vendor quotes against a baseline accelerator, each with its break-even price."""

from __future__ import annotations

from benchsheet.templates.layout import (
    Cell,
    Cite,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Input,
    NumberRule,
    RowCells,
    TableBlock,
    call,
    if_,
    le,
    lit,
    under,
)
from benchsheet.templates.sheets.common import (
    FAMILY_RULE,
    QUOTES,
    cost_per_mtok,
    entry_used,
    filters,
    if_number,
    notes,
    per_gpu,
    sheet,
    unless_blank,
)
from benchsheet.templates.sheets.workload import FILTER_KEYS, workload_links

QUOTES_WORKLOAD = workload_links(QUOTES, *FILTER_KEYS, "utilization")
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
            Formula(lambda b: cost_per_mtok(b["price"], b["per_gpu"], QUOTES_WORKLOAD["utilization"]), "out_money3"),
        ),
    ),
)
SAMPLE_QUOTES: tuple[tuple[str, str, float, str], ...] = (
    ("Example vendor A", "B300", 3.60, "12 months"),
    ("Example vendor B", "B300", 4.10, "36 months"),
    ("Example vendor C", "MI355X", 3.40, "12 months"),
    ("Example vendor D", "GB300", 5.00, "24 months"),
    ("Example vendor E", "H200", 1.20, "12 months"),
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


def _rounds(r: RowCells) -> Expr:
    """The rounds BREAKEVEN pairs for the row (PAIRED without its entries): "same round (v6.1)" or
    "across rounds: v6.1 over v6.0"; empty where the break-even has no number (its reason says why)."""
    paired = call("PAIRED", BASELINE["accelerator"], r["accelerator"], *filters(QUOTES_WORKLOAD))
    head = call("LEFT", paired, call("FIND", lit(": candidate"), paired) - 1)
    return if_(call("ISNUMBER", r["breakeven"]), call("IFERROR", head, paired), lit(""))


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
        Formula(lambda r: cost_per_mtok(r["price"], r["per_gpu"], QUOTES_WORKLOAD["utilization"]), "out_money3"),
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
    Column("rounds", "Rounds paired (break-even and ceiling)", Formula(_rounds), short="rounds"),
)
QUOTES_TABLE = TableBlock(
    QUOTES, under(BASELINE), 9, QUOTES_COLUMNS, "Vendor quotes", header_height=40, cite=Cite("entry")
)
QUOTES_SHEET = sheet(
    QUOTES,
    (("A", 30), ("B:C", 14), ("D:E", 11), ("F:J", 13), ("K", 22), ("L", 28)),
    (QUOTES_WORKLOAD, BASELINE, QUOTES_TABLE, notes(QUOTES, under(QUOTES_TABLE, titled=False))),
)
