"""The Quotes sheet: vendor quotes against a baseline accelerator, each with its break-even price; a quote's
price may be "owned", the TCO sheet's owned $/GPU-hour for the family. Each quote's break-even at the Curves
sheet's target interactivity (MLPerf Endpoints curves of the Curves sheet's model), or one plain line while no
curve of that model is loaded. In hidden columns, each TCO candidate's rented price, taken from the quotes here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from benchsheet.templates.layout import (
    Block,
    Cell,
    Cite,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    FormulaRule,
    Input,
    Lifted,
    Put,
    RowCells,
    TableBlock,
    Term,
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
    STATUS_WIDTH,
    accelerator_fields,
    cost_per_mtok,
    entry_used,
    example_price,
    filters,
    if_number,
    notes,
    per_gpu,
    per_million,
    rows_behind,
    rows_shown,
    sheet,
    status,
    unless_blank,
    unless_error,
)
from benchsheet.templates.sheets.curves import CURVES, CURVES_INPUTS, EMPTY, LOADED
from benchsheet.templates.sheets.sizing import SIZING_TABLE
from benchsheet.templates.sheets.tco import RENTED_COL, TCO_TABLE
from benchsheet.templates.sheets.workload import FILTER_KEYS, workload_links

QUOTES_WORKLOAD = workload_links(QUOTES, *FILTER_KEYS, "utilization")


def _baseline_rows(b: RowCells) -> Expr:
    """How many rows the baseline's per-GPU value is the best of: 1 for an entry ID (its own row)."""
    counted = if_(eq(b["entry"], b["accelerator"]), 1, call("ROWSBEHIND", b["accelerator"], *filters(QUOTES_WORKLOAD)))
    return unless_error(b["entry"], counted)


_BASELINE_ACCELERATOR, _BASELINE_ENTRY, _BASELINE_PER_GPU = accelerator_fields(
    QUOTES_WORKLOAD, "B200", "Baseline accelerator"
)
BASELINE = Fields(
    QUOTES,
    top=under(QUOTES_WORKLOAD),
    title="Baseline",
    cite=Cite("entry", "baseline"),
    fields=(
        _BASELINE_ACCELERATOR,
        example_price("price", "Baseline $/GPU-hour (example)", 3.00),
        _BASELINE_ENTRY,
        _BASELINE_PER_GPU,
        Field(
            "rows",
            "Baseline rows behind it",
            Formula(_baseline_rows, "out_int"),
            "BEST of how many rows (ROWSBEHIND); 1: one system alone",
        ),
        Field(
            "cost_per_mtok",
            lit("Baseline cost per million (") & per_million(QUOTES_WORKLOAD) & lit(")"),
            Formula(
                lambda b: cost_per_mtok(b["price"], b["per_gpu"], QUOTES_WORKLOAD["utilization"], QUOTES_WORKLOAD),
                "out_money3",
            ),
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
OWNED = "owned"
"""A quote's price typed as this takes the TCO sheet's owned $/GPU-hour for the family."""


def _owned_price(accelerator: Cell) -> Expr:
    """TCO's owned $/GPU-hour for ``accelerator`` (one of Sizing's candidates), or why there is none."""
    at = call("MATCH", accelerator, span(TCO_TABLE.column("candidate")), 0)
    missing = lit("#N/A no owned $/GPU-hour for ") & accelerator & lit(": owning is priced for Sizing's candidates")
    # ISNA, not IFERROR: TCO's own reason (depreciation years = 0...) passes on
    return if_(call("ISNA", at), missing, call("INDEX", span(TCO_TABLE.column("owned")), at))


def _price_used(r: RowCells) -> Expr:
    """The quote's price, or TCO's owned price where it says "owned"; a blank price stays blank (empty text)."""
    price = r["price"]
    return if_(eq(price, lit(OWNED)), _owned_price(r["accelerator"]), if_(eq(price, lit("")), lit(""), price))


def _cost(r: RowCells) -> Expr:
    """COSTPERMTOK at the quoted price, as before owned prices (so a bad price names its cell); an owned price's
    is TCO's owned $/M tokens for the family (the same per-GPU value: its best entry under the same workload)."""
    at = call("MATCH", r["accelerator"], span(TCO_TABLE.column("candidate")), 0)
    owned = unless_error(r["price_used"], call("INDEX", span(TCO_TABLE.column("owned_mtok")), at))
    quoted = cost_per_mtok(r["price"], r["per_gpu"], QUOTES_WORKLOAD["utilization"], QUOTES_WORKLOAD)
    return if_(eq(r["price"], lit(OWNED)), owned, quoted)


def _price_rule(cell: Cell) -> Expr:
    return call("OR", call("AND", call("ISNUMBER", cell), le(0, cell)), eq(cell, lit(OWNED)))


PRICE_RULE = FormulaRule(_price_rule, "Enter a price >= 0, or owned: the TCO sheet's owned $/GPU-hour for the family.")


def _ratio(r: RowCells) -> Expr:
    # the quote's own cost check has vetted its price; the baseline's cost vets the baseline price
    return if_number(r["cost_per_mtok"], if_number(BASELINE["cost_per_mtok"], r["price_used"] / BASELINE["price"]))


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


_HEADER = under(BASELINE)  # the quotes' header row
_AT_COL = 13  # column N: each quote's break-even at the Curves sheet's target; O (hidden) holds BREAKEVEN's
AT_TARGET_LINE = Cell(QUOTES, _HEADER - 1, _AT_COL)
"""Above the column: what its break-even is at (the Curves sheet's target and model), or, while no curve of
that model is loaded, one plain line saying so (the column's rows then show a dash, not a reason a row)."""
CURVES_LOADED = Cell(QUOTES, _HEADER - 2, _AT_COL + 1)
"""Hidden (column O): TRUE where CURVES has a curve of the Curves sheet's model, FALSE where it answers why not."""


NO_CURVE = EMPTY + " no curve"
"""A quote's break-even at the target where its side or the baseline's has no curve value there (BREAKEVEN with
the target says why): a short dash line, the line above the column saying what it means."""


def _curves_loaded() -> Expr:
    """TRUE where the Curves sheet's hidden CURVES block lists a curve of its model (no call of its own)."""
    return call("ISNUMBER", Cell(CURVES, LOADED.top + 1, LOADED.left + 5).abs)


def _at_target_line() -> Expr:
    model, target = CURVES_INPUTS["model"], CURVES_INPUTS["target"]
    at = call("TEXT", target, lit("#,##0")) & lit(" tokens/s per user (the Curves sheet's target), ") & model
    none = (
        lit("Break-even at the Curves target: no MLPerf Endpoints curve of ")
        & model
        & lit(" is loaded (benchsheet import-run <submission folder> adds them)")
    )
    loaded = (
        lit("Break-even at ")
        & at
        & lit(f", MLPerf Endpoints curves ({NO_CURVE}: the baseline or the quote has none there):")
    )
    return if_(CURVES_LOADED.abs, loaded, none)


def _at_target_all(c: Mapping[str, Expr]) -> Expr:
    """BREAKEVEN of every row's accelerator against the baseline at the Curves sheet's target interactivity
    (each side its family's best curve of the Curves sheet's model there, its official step): one call for the
    column; a dash while no curve of the model is loaded (the line above the column says so once), and a dash
    line saying so where the baseline or the row has no value there (an import of another family's curves
    leaves every row so, not an error a row)."""
    _, scenario, availability, max_gpus = filters(QUOTES_WORKLOAD)
    args = (CURVES_INPUTS["model"], scenario, availability, max_gpus, lit(""), CURVES_INPUTS["target"])
    at = call("BREAKEVEN", BASELINE["accelerator"], c["accelerator"], *args)
    none = lit(NO_CURVE)
    return unless_blank(c["accelerator"], if_(CURVES_LOADED.abs, call("IFERROR", at, none), lit(EMPTY)))


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
        "Quoted $/GPU-hour (or owned)",
        Input(style="in_money"),
        PRICE_RULE,
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
        lit("$ per million ") & per_million(QUOTES_WORKLOAD),
        Formula(_cost, "out_money3"),
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
    Column("price_used", "$/GPU-hour used (owned: TCO's)", Formula(_price_used, "out_money")),
    Column(
        "at_target",
        "Break-even at Curves target",
        Formula(lambda r: Expr.of(r["at_target_all"]), "out_ratio"),
    ),
    # hidden (O): BREAKEVEN at the target for every row, one array formula shown through the column above
    Column("at_target_all", "break-even at the Curves target", Lifted(_at_target_all, "out_ratio")),
    Column("rows", "Rows behind its per-GPU", rows_shown("accelerator", "entry", "rows_all")),
    Column("status", "Status: ok, or the row's first problem", Formula(status("accelerator", "verdict"))),
    # hidden (R): ROWSBEHIND of every quote's accelerator, one array formula the rows column shows
    Column("rows_all", "rows behind each BEST", rows_behind("accelerator", "entry", QUOTES_WORKLOAD)),
)
QUOTES_TABLE = TableBlock(QUOTES, _HEADER, 9, QUOTES_COLUMNS, "Vendor quotes", header_height=44, cite=Cite("entry"))


def _first_quote(r: RowCells) -> Expr:
    """The row (within the quotes) of the candidate's first quote; an error where it has none."""
    return call("MATCH", r["candidate"], span(QUOTES_TABLE.column("accelerator")), 0)


def _rental(r: RowCells) -> Expr:
    """The quote's price as a rental: "" where it is blank or "owned"; a price that is no number ("3,40") is the
    quote's own cost error, which says why (so TCO never takes Sizing's price instead, and calc lists one reason)."""
    quote = QUOTES_TABLE.row(r.index)
    price = quote["price"]
    rental = if_(call("ISNUMBER", price), price, quote["cost_per_mtok"])
    return if_(call("OR", eq(price, lit("")), eq(price, lit(OWNED))), lit(""), rental)


RENTALS = TableBlock(
    QUOTES,
    _HEADER,
    QUOTES_TABLE.slots,
    (Column("rental", "quote as a rental $/GPU-hour", Formula(_rental, "out_num2")),),
    left=RENTED_COL - 2,
)
"""Hidden (column S): each quote's price as a rental, in the quote's row."""


def _quoted(r: RowCells) -> Expr:
    """The candidate's first quote's rental price (``RENTALS``): "" for none; an error where it has no quote."""
    return call("INDEX", span(RENTALS.column("rental")), _first_quote(r))


def _rented_or(r: RowCells, sizing: Term, quoted: Term) -> Expr:
    """``quoted`` where the candidate's first quote is a rental price or no number, else ``sizing`` (no quote, a
    blank one, or "owned")."""
    price = _quoted(r)
    rental = if_(call("ISERROR", price), quoted, if_(eq(price, lit("")), sizing, quoted))
    return if_(call("ISNA", _first_quote(r)), sizing, rental)


def _rented(r: RowCells) -> Expr:
    """Each TCO candidate's rented $/GPU-hour: the baseline price for the baseline's family, else the family's
    first quote with a price, else the $/GPU-hour Sizing uses for the row."""
    other = _rented_or(r, SIZING_TABLE.row(r.index)["price"], _quoted(r))
    return unless_blank(r["candidate"], if_(eq(r["candidate"], BASELINE["accelerator"]), BASELINE["price"], other))


def _rented_from(r: RowCells) -> Expr:
    vendor = call("INDEX", span(QUOTES_TABLE.column("vendor")), _first_quote(r))
    other = _rented_or(r, lit("Sizing's $/GPU-hour"), lit("Quotes: ") & vendor)
    return unless_blank(
        r["candidate"], if_(eq(r["candidate"], BASELINE["accelerator"]), lit("Quotes: baseline"), other)
    )


RENTED = TableBlock(
    QUOTES,
    TCO_TABLE.header_row,
    TCO_TABLE.slots,
    (
        Column("candidate", "TCO candidate", Formula(lambda r: Expr.of(TCO_TABLE.row(r.index)["candidate"]))),
        Column("rented", "rented $/GPU-hour", Formula(_rented, "out_money")),
        Column("from", "rented price from", Formula(_rented_from)),
    ),
    left=RENTED_COL - 1,
)
"""Hidden: TCO's rented prices from the quotes, in TCO's rows (its ``rented`` columns read them there)."""


@dataclass(frozen=True)
class _AtTarget(Block):
    """The two cells above the break-even at the target: the visible line and the hidden CURVES check."""

    sheet: str = QUOTES

    @property
    def end(self) -> int:  # type: ignore[override]
        return AT_TARGET_LINE.row

    def puts(self) -> Iterator[Put]:
        yield Put(CURVES_LOADED, Formula(_curves_loaded()))
        yield Put(AT_TARGET_LINE, Formula(_at_target_line(), "note_right"))


QUOTES_SHEET = sheet(
    QUOTES,
    (
        ("A", 30),
        ("B:C", 14),
        ("D:E", 11),
        ("F:J", 13),
        ("K", 22),
        ("L", 28),
        ("M:N", 13),
        ("O", 0),
        ("P", 11),
        ("Q", STATUS_WIDTH),
        ("R:V", 0),
    ),
    (
        QUOTES_WORKLOAD,
        BASELINE,
        QUOTES_TABLE,
        notes(QUOTES, under(QUOTES_TABLE, titled=False)),
        RENTALS,
        RENTED,
        _AtTarget(),
    ),
)
