"""The Claims sheet: does an "up to Nx" claim hold (RATIOS), a range claim of software gains
(GAINRANGE), a count claim (ROUNDCOUNT), and the software gains of the workload (GAINS).
"""

from __future__ import annotations

from collections.abc import Callable

from benchsheet.analysis.claims import GAINS_HEADER, RATIOS_HEADER
from benchsheet.templates.layout import (
    ArrayBlock,
    Cell,
    Chart,
    Cite,
    Column,
    Expr,
    Field,
    Fields,
    Formula,
    Input,
    ListRule,
    NumberRule,
    RowCells,
    Series,
    TableBlock,
    Term,
    call,
    eq,
    if_,
    le,
    lit,
    under,
)
from benchsheet.templates.sheets.common import CLAIMS, FAMILY_RULE, if_number, notes, sheet, unless_blank, unless_error
from benchsheet.templates.sheets.workload import workload_links

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
    ("rounds", "Rounds paired (candidate over baseline)", "out_text", ("rounds",)),
)
_RATIO_COLUMNS = {key: columns for key, _, _, columns in _ANSWER}


def _ratios(availability: str) -> Expr:
    return call("RATIOS", CLAIM["candidate"], CLAIM["baseline"], lit(availability))


def _ratios_block(availability: str) -> ArrayBlock:
    return RATIOS_ANY if availability == "any" else RATIOS_AVAILABLE


def _ratios_at(availability: str, row: int, column: str) -> Cell:
    """RATIOS' ``column`` in its ``row`` (2: the first ratio), from the hidden block of its answer."""
    block = _ratios_block(availability)
    return block.cell(block.top + row - 2, RATIOS_HEADER.index(column))


def _first_row(availability: str, key: str, otherwise: Term) -> Expr:
    """The answer block's ``key`` from RATIOS' first row, or ``otherwise`` when RATIOS has none."""
    parts = [_ratios_at(availability, 2, column) for column in _RATIO_COLUMNS[key]]
    joined = Expr.of(parts[0]) if len(parts) == 1 else parts[0] & lit(" / ") & parts[1]
    return if_(eq(_ratios_at(availability, 2, "ratio"), lit("")), otherwise, joined)  # "": RATIOS has no row


def _entry_at(spec: Cell, availability: str) -> Expr:
    """The entry a side of the claim uses at the claim's benchmark: itself, or its family's best."""
    where = (CLAIM["benchmark"], CLAIM["scenario"], lit(availability))
    return if_(call("ISNUMBER", call("GPUS", spec)), spec, call("BESTENTRY", spec, *where))


def _at_claimed(key: str, f: RowCells, availability: str) -> Expr:
    """The answer block's ``key`` at the benchmark and scenario the claim names (BREAKEVEN's ratio)."""
    cand, base, bench, scen = CLAIM["candidate"], CLAIM["baseline"], CLAIM["benchmark"], CLAIM["scenario"]
    ce, be = f["candidate_entry"], f["baseline_entry"]
    sides = call("ENTRY", ce, lit("availability")) & lit(" / ") & call("ENTRY", be, lit("availability"))
    paired = call("PAIRED", base, cand, bench, scen, lit(availability))
    return {
        "benchmark": Expr.of(bench),
        "scenario": Expr.of(scen),
        "ratio": call("BREAKEVEN", base, cand, bench, scen, lit(availability)),
        "candidate_entry": _entry_at(cand, availability),
        "baseline_entry": _entry_at(base, availability),
        "availability": unless_error(ce, unless_error(be, sides)),
        "rounds": unless_error(ce, unless_error(be, _rounds_of(paired))),
    }[key]


def _rounds_of(paired: Expr) -> Expr:
    """PAIRED's rounds without its entries ("same round (v6.1)"), as RATIOS' ``rounds`` column says them."""
    return call("IFERROR", call("LEFT", paired, call("FIND", lit(": candidate"), paired) - 1), paired)


def _claimed(key: str) -> Callable[[RowCells], Expr]:
    """Where the claim is made: its benchmark and scenario, or (none named) where the ratio is highest."""
    return lambda f: if_(eq(CLAIM["benchmark"], lit("")), BEST_RATIO[key], _at_claimed(key, f, "any"))


def _best(key: str) -> Callable[[RowCells], Expr]:
    return lambda f: _first_row("any", key, RATIOS_ANY.reason_cell)


def _available(key: str) -> Callable[[RowCells], Expr]:
    """Available hardware only; where no pair has any, the ratio says so and the rest stay empty."""

    def value(f: RowCells) -> Expr:
        none = lit("none: ") & CLAIM["candidate"] & lit(" and ") & CLAIM["baseline"]
        none = none & lit(" share no benchmark and scenario with closed Available results")
        otherwise = if_(
            call("ISNUMBER", BEST_RATIO["ratio"]), none if key == "ratio" else lit(""), RATIOS_AVAILABLE.reason_cell
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
    second_cell = _ratios_at("available", 3, "ratio")  # RATIOS' rows run highest first; none: 0
    second = if_(call("ISNUMBER", second_cell), second_cell, 0)
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
RATIOS_ANY = ArrayBlock(CLAIMS, BEST_RATIO.top, 9, 2, len(RATIOS_HEADER), _ratios("any"), reason=True, skip=1)
RATIOS_AVAILABLE = ArrayBlock(
    CLAIMS,
    AVAILABLE.top,
    9,
    2,
    len(RATIOS_HEADER),
    _ratios("available"),
    reason=True,
    skip=1,
    reason_unless=call("ISNUMBER", BEST_RATIO["ratio"]),  # then "none: ..." says it, not RATIOS' reason
)
"""RATIOS' first two rows (any availability, available only) from one call each (and one for its reason), in
the hidden columns J:W beside the answer blocks that show them."""

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


_RANGE_ROWS = {"low": 2, "high": 3, "below": 4, "inside": 5, "above": 6, "observed": 7}  # GAINRANGE's rows
_RANGE_COLUMNS = {"verdict": 3, "platform": 4, "system": 5, "weak": 6, "pairs": 7}


def _gainrange() -> Expr:
    r = RANGE_CLAIM
    return call("GAINRANGE", r["low"], r["high"], r["family"], r["old_round"], r["new_round"], lit("available"))


def _range_at(row: str, column: str) -> Callable[[RowCells], Expr]:
    """GAINRANGE's ``column`` in its ``row`` (low, high, below, inside, above, observed); its reason where
    it has none. ``strengths``: the pairs by match strength in one text."""
    answer = RANGE_ANSWER_CELLS
    table = answer.cell(answer.top + 1, 0)  # empty: GAINRANGE answered no table (its reason shows instead)

    def at(name: str) -> Expr:
        return Expr.of(answer.cell(answer.top + _RANGE_ROWS[row] - 1, _RANGE_COLUMNS[name] - 1))

    if column == "strengths":
        labels = (("platform", " same platform, "), ("system", " same system, "), ("weak", " weak match only"))
        joined = at(labels[0][0]) & lit(labels[0][1]) & at(labels[1][0]) & lit(labels[1][1])
        joined = joined & at(labels[2][0]) & lit(labels[2][1])
        return lambda _: if_(eq(table, lit("")), answer.reason_cell, joined)
    return lambda _: if_(eq(table, lit("")), answer.reason_cell, at(column))


RANGE_ANSWER_CELLS = ArrayBlock(
    CLAIMS, under(RANGE_CLAIM), 9, max(_RANGE_ROWS.values()), max(_RANGE_COLUMNS.values()), _gainrange(), reason=True
)
"""GAINRANGE's answer from one call (and one more for its reason), hidden beside the fields that show it."""
_END_FIELDS = (
    ("verdict", "verdict", "out_verdict"),
    ("platform", "pairs, same platform", "out_int"),
    ("system", "pairs, same system", "out_int"),
    ("weak", "pairs, weak match only", "out_int"),
    ("pairs", "nearest pairs", "out_wrap"),
)
_WHERE_FIELDS = (  # where the gains lie: key, label, GAINRANGE's row and column, style
    ("observed_verdict", "Where the gains lie: verdict", "observed", "verdict", "out_verdict"),
    ("observed_range", "Observed range and quartiles", "observed", "pairs", "out_text"),
    ("below_pairs", "Below the range", "below", "verdict", "out_text"),
    ("below_strengths", "Below: by match strength", "below", "strengths", "out_text"),
    ("below_farthest", "Below: farthest pairs", "below", "pairs", "out_wrap"),
    ("inside_pairs", "Inside the range", "inside", "verdict", "out_text"),
    ("inside_strengths", "Inside: by match strength", "inside", "strengths", "out_text"),
    ("above_pairs", "Above the range", "above", "verdict", "out_text"),
    ("above_strengths", "Above: by match strength", "above", "strengths", "out_text"),
    ("above_farthest", "Above: farthest pairs", "above", "pairs", "out_wrap"),
)
PAIRS_SPAN = 7
"""Columns B:H: a list of pairs is merged across the block's width and wraps there, inside the printed page."""


def _span(style: str) -> int:
    """How many columns a field of ``style`` spans: a wrapped list of pairs the block's width, others their own."""
    return PAIRS_SPAN if style == "out_wrap" else 1


RANGE_ANSWER = Fields(
    CLAIMS,
    top=under(RANGE_CLAIM),
    title="The range checked (like-for-like pairs, Available, any benchmark and scenario; GAINRANGE)",
    fields=(
        *(
            Field(key, label, Formula(_range_at(row, column), style, _span(style)))
            for key, label, row, column, style in _WHERE_FIELDS
        ),
        *(
            Field(
                f"{end}_{column}",
                f"{end.capitalize()} end: {label}",
                Formula(_range_at(end, column), style, _span(style)),
            )
            for end in ("low", "high")
            for column, label, style in _END_FIELDS
        ),
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
        row = r.first + r.index
        parts = [GAINS_ANSWER.cell(row, GAINS_HEADER.index(c)) for c in columns]
        joined = Expr.of(parts[0]) if len(parts) == 1 else parts[0] & lit(" ") & parts[1] & lit("x ") & parts[2]
        past = _gains() if reason and r.index == 0 else lit("")  # past GAINS' rows: why it has none, or empty
        return if_(eq(GAINS_ANSWER.cell(row, 0), lit("")), past, joined)

    return Formula(value, style)


def _gains_title(w: Fields) -> Expr:
    what = w["benchmark"] & lit(" ") & w["scenario"] & lit(", ") & w["availability"]
    return lit("Software gains (GAINS): like-for-like systems in the two latest rounds, ") & what


GAINS_TABLE = TableBlock(
    CLAIMS,
    header_row=under(GAINS_WORKLOAD),  # a blank row, then its title: not directly under the workload
    slots=16,
    title=_gains_title(GAINS_WORKLOAD),
    header_height=30,
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
        Column("flag", "Flag (an outlier is left out of GAINRANGE)", _gains_column("flag", style="out_wrap")),
    ),
)
GAINS_ANSWER = ArrayBlock(CLAIMS, GAINS_TABLE.header_row, 9, GAINS_TABLE.slots + 1, len(GAINS_HEADER), _gains())
"""GAINS' header and a row a slot from one call, in the hidden columns J:Y beside the table that shows them."""
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
    (("A", 34), ("B", 16), ("C:F", 12), ("G", 44), ("H", 30), ("J:Y", 0)),
    (
        CLAIM,
        VERDICT,
        CLAIMED_AT,
        BEST_RATIO,
        AVAILABLE,
        RATIOS_ANY,
        RATIOS_AVAILABLE,
        RANGE_CLAIM,
        RANGE_ANSWER,
        RANGE_ANSWER_CELLS,
        COUNT_CLAIM,
        COUNT_ANSWER,
        GAINS_WORKLOAD,
        GAINS_TABLE,
        GAINS_CHART,
        GAINS_ANSWER,
        notes(CLAIMS, under(GAINS_CHART, gap=0, titled=False)),
    ),
    one_page=False,  # one page wide, as many long as it takes: printed at the other sheets' scale
    breaks_before=(GAINS_CHART.top - 1,),  # a page from the blank row above the chart: printed whole, frame too
)
