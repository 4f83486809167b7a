"""The cluster-sizing template: a workbook wired to benchsheet's functions, built by code.

Six sheets (Read me, Sizing, Quotes, Sensitivity, Compare, Sources) and a
hidden Lists sheet that feeds the drop-down lists from the loaded table. Every
number is a formula calling the catalogue's functions on the yellow input
cells. The workbook is written twice with XlsxWriter: once as a draft that the
formula engine computes (``compute``), once more with each formula's computed
value cached next to it, so that LibreOffice, file viewers and Excel without
the add-in show real numbers, and the native charts have data.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import xlsxwriter

from benchsheet import __version__
from benchsheet.analysis import NOT_VERIFIED, TRADEMARK
from benchsheet.choices import AVAILABILITY_CHOICES, benchmarks, families, scenarios
from benchsheet.names import cell_text
from benchsheet.store import get_table

from .compute import Computed, col_letters, col_number, compute
from .xlsxfile import cached_values, rewrite

DERIVED_NOTE = "Per-GPU values, ratios and costs are derived from MLPerf results and are not official MLPerf results."

# ------------------------------------------------------------------ layout
# Cell addresses other code (report, tests) relies on. Rows are 1-based, as in Excel.

READ_ME, SIZING, QUOTES, SENSITIVITY, COMPARE, SOURCES, LISTS = (
    "Read me",
    "Sizing",
    "Quotes",
    "Sensitivity",
    "Compare",
    "Sources",
    "Lists",
)
SHEETS = (READ_ME, SIZING, QUOTES, SENSITIVITY, COMPARE, SOURCES)
READ_ME_DATAINFO_ROW = 21  # =DATAINFO("rounds"), then rows, origin, sources, sha256, imported_at

# Sizing: the shared workload block (column B) and the candidate table
WORKLOAD = {
    "benchmark": "B5",
    "scenario": "B6",
    "availability": "B7",
    "max_gpus": "B8",
    "utilization": "B9",
    "target": "B10",
    "headroom": "B11",
    "price": "B12",
    "hours": "B13",
    "target_with_headroom": "B14",
}
SIZING_HEADER_ROW = 17
SIZING_FIRST, SIZING_SLOTS = 18, 8
SIZING_COLUMNS = {
    "candidate": "A",
    "gpus_per_node": "B",
    "price_override": "C",
    "entry": "D",
    "availability": "E",
    "per_gpu": "F",
    "gpus": "G",
    "nodes": "H",
    "price": "I",
    "cost_per_mtok": "J",
    "monthly_cost": "K",
}

# Quotes: baseline block and one row per quote
BASELINE = {"accelerator": "B12", "price": "B13", "entry": "B14", "per_gpu": "B15", "cost_per_mtok": "B16"}
QUOTES_HEADER_ROW = 19
QUOTES_FIRST, QUOTES_SLOTS = 20, 8
QUOTE_COLUMNS = {
    "vendor": "A",
    "accelerator": "B",
    "price": "C",
    "term": "D",
    "entry": "E",
    "per_gpu": "F",
    "cost_per_mtok": "G",
    "ratio": "H",
    "breakeven": "I",
    "ceiling": "J",
    "verdict": "K",
}

# Sensitivity: accelerator, price axis (rows) x utilization axis (columns)
SENS = {"accelerator": "B11", "entry": "B12", "per_gpu": "B13", "price_from": "B14", "price_step": "B15"}
SENS_HEADER_ROW = 18  # utilization inputs in B..I
SENS_FIRST, SENS_PRICES, SENS_UTILS = 19, 8, 8

# Compare: its own filters, one row per family
COMPARE_FILTERS = {"availability": "B7", "max_gpus": "B8"}
COMPARE_HEADER_ROW = 10
COMPARE_FIRST, COMPARE_SLOTS = 11, 16
COMPARE_COLUMNS = {
    "family": "A",
    "best": "B",
    "entry": "C",
    "system": "D",
    "median": "E",
    "best_over_median": "F",
}

SOURCES_HEADER_ROW = 7
SOURCES_FIRST = 8

# --------------------------------------------------------------- defaults
# Sample inputs of a fresh template. Prices are examples, labelled so in the sheets.

DEFAULT_BENCHMARK, DEFAULT_SCENARIO = "gpt-oss-120b", "Server"
DEFAULT_AVAILABILITY, DEFAULT_MAX_GPUS = "available", 8
DEFAULT_UTILIZATION, DEFAULT_TARGET, DEFAULT_HEADROOM = 0.6, 1_000_000, 0.2
DEFAULT_PRICE, DEFAULT_HOURS = 3.00, 730
DEFAULT_CANDIDATES: tuple[tuple[str, int], ...] = (("B200", 8), ("B300", 8), ("GB300", 4), ("MI355X", 8), ("H200", 8))
DEFAULT_BASELINE, DEFAULT_BASELINE_PRICE = "B200", 3.00
DEFAULT_QUOTES: tuple[tuple[str, str, float, str], ...] = (
    ("Example vendor A", "B300", 3.60, "12 months"),
    ("Example vendor B", "B300", 4.10, "36 months"),
    ("Example vendor C", "MI355X", 3.40, "12 months"),
    ("Example vendor D", "GB300", 5.00, "24 months"),
)
DEFAULT_SENS_ACCELERATOR, DEFAULT_PRICE_FROM, DEFAULT_PRICE_STEP = "B300", 2.00, 0.50
DEFAULT_UTILIZATIONS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


# ------------------------------------------------------------------ report


Value = float | int | bool | str | None  # a computed cell: a number, text, an error's text; None if empty


@dataclass(frozen=True, slots=True)
class SizingLine:
    """One candidate row of Sizing, as computed (numbers, text, or an error's text)."""

    candidate: Value
    gpus_per_node: Value
    price_override: Value
    entry: Value
    availability: Value
    per_gpu: Value
    gpus: Value
    nodes: Value
    price: Value
    cost_per_mtok: Value
    monthly_cost: Value


@dataclass(frozen=True, slots=True)
class QuoteLine:
    """One vendor quote row of Quotes, as computed."""

    vendor: Value
    accelerator: Value
    price: Value
    term: Value
    entry: Value
    per_gpu: Value
    cost_per_mtok: Value
    ratio: Value
    breakeven: Value
    ceiling: Value
    verdict: Value


@dataclass(frozen=True)
class BuildReport:
    """What ``build`` wrote and the key outputs, as the workbook computed them."""

    path: Path
    benchmark: str
    scenario: str
    utilization: Value
    target: Value
    baseline: str
    baseline_price: Value
    sizing: tuple[SizingLine, ...]
    quotes: tuple[QuoteLine, ...]
    formulas: int
    seconds: float
    errors: dict[str, str] = field(default_factory=dict)  # "Sheet!B5" -> error text (none in a fresh template)


# ------------------------------------------------------------------ writer


@dataclass(frozen=True)
class Lists:
    """Drop-down choices taken from the loaded table."""

    benchmarks: tuple[str, ...]
    scenarios: tuple[str, ...]
    families: tuple[str, ...]


class _Sheet:
    """One worksheet: writes cells with the workbook's formats and cached values."""

    def __init__(self, book: _Book, name: str) -> None:
        self.book = book
        self.name = name
        self.ws: Any = book.wb.add_worksheet(name)
        self.formulas = 0
        self.widths: dict[str, float] = {}  # column letter -> width in characters
        self.heights: dict[int, float] = {}  # 1-based row -> height in points

    def fmt(self, style: str) -> Any:
        return self.book.formats[style]

    def header(self, title: str, subtitle: str, widths: Sequence[tuple[str, float]]) -> None:
        """Column widths ("A" or "B:C"), then the sheet's title in A1 and what it is for in A2."""
        for cols, width in widths:
            first, _, last = cols.partition(":")
            self.columns(first, last or first, width)
        self.text("A1", title, "title")
        self.text("A2", subtitle, "subtitle")

    def columns(self, first: str, last: str, width: float) -> None:
        self.ws.set_column(f"{first}:{last}", width)
        for i in range(col_number(first), col_number(last) + 1):
            self.widths[col_letters(i)] = width

    def height(self, row: int, points: float) -> None:
        self.heights[row] = max(points, self.heights.get(row, 0.0))

    def _fit(self, ref: str, value: Any, style: str) -> None:
        """Make a wrapped cell's row tall enough for its text (neither Excel nor LibreOffice does on open)."""
        spec = _FORMATS[style]
        if not spec.get("text_wrap") or not isinstance(value, str) or not value:
            return
        col = "".join(ch for ch in ref if ch.isalpha())
        size = float(spec.get("font_size", FONT_SIZE))
        per_line = max(1.0, self.widths.get(col, 8.43) * 1.0 * FONT_SIZE / size)
        lines = sum(_wrapped_lines(part, per_line) for part in value.split("\n"))
        if lines > 1:
            self.height(int(ref[len(col) :]), lines * size * 1.3 + 2)

    def text(self, ref: str, value: str, style: str = "plain") -> None:
        self.ws.write_string(ref, value, self.fmt(style))
        self._fit(ref, value, style)

    def input(self, ref: str, value: str | float | None, style: str = "in_text") -> None:
        if value is None or value == "":
            self.ws.write_blank(ref, None, self.fmt(style))
        elif isinstance(value, str):
            self.ws.write_string(ref, value, self.fmt(style))
        else:
            self.ws.write_number(ref, value, self.fmt(style))

    def formula(self, ref: str, formula: str, style: str = "out_text") -> None:
        value = self.book.value(self.name, ref)
        self.ws.write_formula(ref, formula, self.fmt(style), value)
        self.formulas += 1
        self._fit(ref, value, style)

    def label_rows(self, first_row: int, rows: Sequence[tuple[str, str]], style: str = "label") -> None:
        for i, (label, note) in enumerate(rows):
            self.text(f"A{first_row + i}", label, style)
            if note:
                self.text(f"C{first_row + i}", note, "note")

    def validate_list(self, rng: str, source: str | list[str], strict: bool = True, what: str = "value") -> None:
        options: dict[str, Any] = {"validate": "list", "source": source}
        if strict:
            options.update(error_title="Not in the list", error_message=f"Pick a {what} from the list.")
        else:
            options.update(
                error_type="information",
                error_title="Not a listed family",
                error_message="Not one of the families in the data: benchsheet reads it as an entry ID "
                "(e.g. 6.1-0052) and shows the reason if it cannot.",
            )
        self.ws.data_validation(rng, options)

    def validate_number(self, rng: str, low: float, high: float | None = None, whole: bool = False) -> None:
        options: dict[str, Any] = {"validate": "integer" if whole else "decimal", "ignore_blank": True}
        if high is None:
            options.update(criteria=">=", value=low, error_message=f"Enter a number >= {low:g}.")
        else:
            options.update(
                criteria="between", minimum=low, maximum=high, error_message=f"Enter a number from {low:g} to {high:g}."
            )
        self.ws.data_validation(rng, options)

    def finish(self, landscape: bool = True, one_page: bool = True) -> None:
        """Red text for errors, protection (inputs stay editable), one page wide when printed."""
        self.ws.conditional_format(
            "A1:Z200", {"type": "text", "criteria": "begins with", "value": "#", "format": self.fmt("error")}
        )
        for row, points in self.heights.items():
            self.ws.set_row(row - 1, points)
        self.ws.protect("", {"format_columns": True, "format_rows": True})
        if landscape:
            self.ws.set_landscape()
        self.ws.set_paper(9)  # A4
        self.ws.fit_to_pages(1, 1 if one_page else 0)
        self.ws.set_margins(left=0.4, right=0.4, top=0.5, bottom=0.5)


FONT, FONT_SIZE = "Arial", 10
_INPUT = {"bg_color": "#FFF2CC", "border": 1, "border_color": "#BF9000", "locked": False, "valign": "top"}
_FORMATS: dict[str, dict[str, Any]] = {
    "plain": {"valign": "top"},
    "title": {"bold": True, "font_size": 14, "font_color": "#1F3864"},
    "subtitle": {"italic": True, "font_color": "#595959"},
    "section": {"bold": True, "font_color": "#1F3864", "bottom": 1},
    "label": {"valign": "top"},
    "note": {"italic": True, "font_color": "#7F7F7F", "valign": "top"},
    "wrap": {"text_wrap": True, "valign": "top"},
    "cite": {"text_wrap": True, "valign": "top", "font_size": 9},
    "header": {"bold": True, "bg_color": "#D9E1F2", "border": 1, "text_wrap": True, "valign": "top"},
    "error": {"font_color": "#C00000"},
    "in_text": dict(_INPUT),
    "in_int": {**_INPUT, "num_format": "#,##0"},
    "in_money": {**_INPUT, "num_format": "$#,##0.00"},
    "in_pct": {**_INPUT, "num_format": "0%"},
    "out_text": {"valign": "top"},
    "out_left": {"valign": "top", "align": "left"},
    "out_wrap": {"text_wrap": True, "valign": "top"},
    "out_int": {"num_format": "#,##0"},
    "out_num": {"num_format": "#,##0.0"},
    "out_money": {"num_format": "$#,##0.00"},
    "out_money3": {"num_format": "$#,##0.000"},
    "out_money0": {"num_format": "$#,##0"},
    "out_ratio": {"num_format": "0.000"},
    "out_pct": {"num_format": "0%"},
    "out_bold_money3": {"num_format": "$#,##0.000", "bold": True},
}


class _Book:
    def __init__(self, target: Any, computed: Computed | None) -> None:
        self.wb = xlsxwriter.Workbook(
            target,
            {
                "strings_to_numbers": False,
                "strings_to_formulas": False,
                # Arial: Liberation Sans, its metric twin, ships with LibreOffice, so layouts match
                "default_format_properties": {"font_name": FONT, "font_size": FONT_SIZE},
                "default_row_height": 17,
            },
        )
        self.computed = computed
        self.formats = {name: self.wb.add_format(spec) for name, spec in _FORMATS.items()}
        # Show the cached values on open: no full recalculation on load (which, in Excel without the
        # add-in, would turn every benchsheet function into #NAME?), and a current calc engine ID.
        self.wb.calc_on_load = False
        self.wb.set_calc_mode("auto", calc_id=191029)

    def value(self, sheet: str, ref: str) -> Any:
        if self.computed is None:
            return None
        return self.computed.shown_value(sheet, ref)

    def sheet(self, name: str) -> _Sheet:
        return _Sheet(self, name)


# ----------------------------------------------------------------- helpers


def _entry_used(spec: str, bench: str, scen: str, avail: str, maxg: str) -> str:
    """An entry ID stays itself; a family becomes the entry behind its best per-GPU value."""
    return f"IF(ISNUMBER(GPUS({spec})),{spec},BESTENTRY({spec},{bench},{scen},{avail},{maxg}))"


def _unless_error(entry: str, then: str) -> str:
    """``then`` unless ``entry`` is an error (an error value, or the add-in's error text)."""
    return f'IF(LEFT({entry},1)="#",{entry},{then})'


def _field(entry: str, name: str) -> str:
    return f'ENTRY({entry},"{name}")'


def _if_number(x: str, then: str) -> str:
    """``then`` if ``x`` is a number, else ``x`` itself: its error or reason passes on."""
    return f"IF(ISNUMBER({x}),{then},{x})"


def _rows_under(pixels: int) -> int:
    """Rows of default height (17 px) a chart of this height covers, plus one."""
    return -(-pixels // 17) + 1


def _notes(sheet: _Sheet, row: int, *lines: str) -> None:
    for i, line in enumerate(lines):
        sheet.text(f"A{row + i}", line, "note")


def _linked(sheet: _Sheet, row: int, label: str, source: str, style: str = "out_text", note: str = "") -> None:
    sheet.text(f"A{row}", label, "label")
    sheet.formula(f"B{row}", f'=IF({source}="","",{source})', style)
    if note:
        sheet.text(f"C{row}", note, "note")


_WORKLOAD_LINKS = (
    ("Benchmark", "benchmark", "out_text"),
    ("Scenario", "scenario", "out_text"),
    ("Availability", "availability", "out_text"),
    ("Max GPUs per system", "max_gpus", "out_int"),
    ("Utilization", "utilization", "out_pct"),
)


def _workload_links(sheet: _Sheet, with_utilization: bool) -> list[str]:
    """The shared workload, linked from Sizing into rows 5.. of ``sheet``; their absolute refs."""
    sheet.text("A4", "Workload (set on Sizing)", "section")
    links = _WORKLOAD_LINKS if with_utilization else _WORKLOAD_LINKS[:-1]
    for i, (label, key, style) in enumerate(links):
        _linked(sheet, 5 + i, label, f"{SIZING}!{_abs(WORKLOAD[key])}", style)
    return [f"$B${5 + i}" for i in range(len(links))]


# ------------------------------------------------------------------ sheets


def _read_me(book: _Book, built: str) -> _Sheet:
    s = book.sheet(READ_ME)
    ws = s.ws
    s.header(
        "benchsheet cluster-sizing workbook",
        "Cluster sizing, vendor quotes and price sensitivity from MLPerf Inference results, "
        "computed by benchsheet's worksheet functions.",
        (("A", 24), ("B", 120)),
    )
    s.text("A4", "What it answers", "section")
    answers = (
        (
            SIZING,
            "Architects: how many GPUs and nodes each candidate accelerator needs for a target throughput, "
            "the entry behind each per-GPU value, the cost per million tokens and per month.",
        ),
        (
            QUOTES,
            "Procurement: each vendor quote against a baseline accelerator: quote ratio, break-even ratio, "
            "break-even price ceiling and a verdict.",
        ),
        (SENSITIVITY, "Finance: cost per million tokens over a grid of $/GPU-hour x utilization, with a chart."),
        (
            COMPARE,
            "Best and median per-GPU value of each accelerator family, the entry behind each best value, with a chart.",
        ),
        (SOURCES, "Every MLPerf entry the workbook uses, with its citation (CITE)."),
    )
    for i, (name, text) in enumerate(answers):
        s.text(f"A{5 + i}", name, "label")
        s.text(f"B{5 + i}", text, "wrap")

    s.text("A11", "How to use it", "section")
    s.input("A12", "Input", "in_text")
    s.text(
        "B12",
        "Yellow cells like this one are inputs: type over them. Every other value is a formula calling "
        "benchsheet's functions (BEST, BESTENTRY, PERGPU, BREAKEVEN, BREAKEVENPRICE, COSTPERMTOK, GPUSNEEDED, "
        "CITE, DATAINFO, ...); the sheets are protected against accidental edits (Review > Unprotect Sheet, "
        "no password).",
        "wrap",
    )
    how = (
        (
            "Shared workload",
            "Benchmark, scenario, availability, max GPUs and utilization are set once, on Sizing, "
            "and used by Quotes, Sensitivity and Sources; Compare has its own availability and max GPUs.",
        ),
        (
            "Drop-down lists",
            "Benchmark, scenario and family cells list the benchmarks, scenarios and accelerator "
            "families of the loaded results. A family cell also takes an entry ID such as 6.1-0052.",
        ),
        ("Example prices", "Every $/GPU-hour in this workbook is an example, not data: replace it with your own."),
        (
            "Recomputing",
            "In Excel with the benchsheet add-in, cells recompute when you change an input "
            "(Ctrl+Alt+F9 recomputes everything). Without it (LibreOffice, Excel on Mac, file viewers) the values "
            "stored in the file are shown: after editing inputs run  benchsheet template calc FILE.xlsx  to "
            "recompute them, and  benchsheet freeze IN.xlsx OUT.xlsx  for a values-only copy to send.",
        ),
        (
            "Compare",
            "The family rows list the families with results for the workload, best first (FAMILIES), and follow "
            "a change of benchmark, scenario or filters. Type a family over a row to pin it; to unpin it, copy "
            "the family cell of an unpinned row back over it.",
        ),
        (
            "Errors",
            "A cell that cannot be computed says why, e.g. '#N/A No closed H100 gpt-oss-120b Server rows "
            "with availability available, at most 8 GPUs'; cells that depend on it show the same reason.",
        ),
    )
    row = 13
    for label, text in how:
        s.text(f"A{row}", label, "label")
        s.text(f"B{row}", text, "wrap")
        row += 1

    row += 1
    s.text(f"A{row}", "Where the data comes from (DATAINFO)", "section")
    info = (
        ("Rounds", "rounds"),
        ("Result rows", "rows"),
        ("Loaded from", "origin"),
        ("Source files", "sources"),
        ("SHA-256", "sha256"),
        ("Imported at (UTC)", "imported_at"),
    )
    assert row + 1 == READ_ME_DATAINFO_ROW
    for label, key in info:
        row += 1
        s.text(f"A{row}", label, "label")
        s.formula(f"B{row}", f'=DATAINFO("{key}")', "out_wrap" if key in ("sources", "sha256") else "out_left")
    row += 1
    s.text(f"A{row}", "Built", "label")
    s.text(f"B{row}", f"benchsheet {__version__}, {built}", "plain")

    row += 2
    s.text(f"A{row}", "Notes", "section")
    notes = (("Derived metrics", DERIVED_NOTE), ("Verification", NOT_VERIFIED), ("Trademark", TRADEMARK))
    for label, text in notes:
        row += 1
        s.text(f"A{row}", label, "label")
        s.text(f"B{row}", text, "wrap")
    s.finish(landscape=False, one_page=False)
    ws.set_portrait()
    return s


def _sizing(book: _Book, lists: Lists) -> _Sheet:
    s = book.sheet(SIZING)
    ws = s.ws
    s.header(
        "Cluster sizing (architects)",
        "Yellow cells are inputs. The workload block is shared by every sheet. Prices are examples, not data.",
        (("A", 30), ("B:C", 14), ("D", 11), ("E", 11), ("F:K", 13)),
    )
    s.text("A4", "Workload (shared by all sheets)", "section")
    w = WORKLOAD
    s.label_rows(
        5,
        (
            ("Benchmark", "from the list of benchmarks in the data"),
            ("Scenario", "Server, Offline or Interactive"),
            ("Availability", "available, preview, rdi or any"),
            ("Max GPUs per system", "only systems with at most this many GPUs; blank = any size"),
            ("Utilization", "share of each hour spent serving, > 0 and <= 100%"),
            ("Target throughput", "tokens/s (the benchmark's units) to serve"),
            ("Headroom", "extra capacity on top of the target"),
            ("Default $/GPU-hour (example)", "an example price, not data; a price per candidate below overrides it"),
            ("Hours per month", "for the monthly cost"),
            ("Target with headroom", "target x (1 + headroom)"),
        ),
    )
    s.input(w["benchmark"], DEFAULT_BENCHMARK)
    s.input(w["scenario"], DEFAULT_SCENARIO)
    s.input(w["availability"], DEFAULT_AVAILABILITY)
    s.input(w["max_gpus"], DEFAULT_MAX_GPUS, "in_int")
    s.input(w["utilization"], DEFAULT_UTILIZATION, "in_pct")
    s.input(w["target"], DEFAULT_TARGET, "in_int")
    s.input(w["headroom"], DEFAULT_HEADROOM, "in_pct")
    s.input(w["price"], DEFAULT_PRICE, "in_money")
    s.input(w["hours"], DEFAULT_HOURS, "in_int")
    s.formula(w["target_with_headroom"], f"={w['target']}*(1+{w['headroom']})", "out_int")
    s.validate_list(w["benchmark"], _list_ref(0, len(lists.benchmarks)), what="benchmark")
    s.validate_list(w["scenario"], _list_ref(1, len(lists.scenarios)), what="scenario")
    s.validate_list(w["availability"], list(AVAILABILITY_CHOICES), what="availability")
    s.validate_number(w["max_gpus"], 1, whole=True)
    s.validate_number(w["utilization"], 0.0001, 1)
    s.validate_number(w["target"], 0)
    s.validate_number(w["headroom"], 0)
    s.validate_number(w["price"], 0)
    s.validate_number(w["hours"], 1)

    s.text("A16", "Candidates: a family takes its best per-GPU entry under the workload's filters", "section")
    headers = (
        "Candidate (family or entry ID)",
        "GPUs per node (blank = 8)",
        "$/GPU-hour (blank = default)",
        "Entry used",
        "Availability",
        "Per-GPU throughput",
        "GPUs needed",
        "Nodes needed",
        "$/GPU-hour used",
        "Cost per million tokens",
        "Monthly cost",
    )
    for i, h in enumerate(headers):
        ws.write_string(SIZING_HEADER_ROW - 1, i, h, s.fmt("header"))
    s.height(SIZING_HEADER_ROW, 45)
    bench, scen, avail, maxg = (_abs(w[k]) for k in ("benchmark", "scenario", "availability", "max_gpus"))
    util, target, price, hours = (_abs(w[k]) for k in ("utilization", "target_with_headroom", "price", "hours"))
    for i in range(SIZING_SLOTS):
        r = SIZING_FIRST + i
        cand, gpn, override, entry, per_gpu, gpus, used_price, cost = (
            f"A{r}",
            f"B{r}",
            f"C{r}",
            f"D{r}",
            f"F{r}",
            f"G{r}",
            f"I{r}",
            f"J{r}",
        )
        name, per_node = DEFAULT_CANDIDATES[i] if i < len(DEFAULT_CANDIDATES) else ("", None)
        s.input(cand, name)
        s.input(gpn, per_node, "in_int")
        s.input(override, None, "in_money")
        blank = f'IF({cand}="","",'
        s.formula(entry, f"={blank}{_entry_used(cand, bench, scen, avail, maxg)})")
        s.formula(f"E{r}", f"={blank}{_unless_error(entry, _field(entry, 'availability'))})")
        s.formula(per_gpu, f"={blank}{_unless_error(entry, f'PERGPU({entry},{bench},{scen})')})", "out_num")
        s.formula(gpus, "=" + _if_number(per_gpu, f"GPUSNEEDED({target},{per_gpu},{util},{gpn})"), "out_int")
        s.formula(f"H{r}", "=" + _if_number(gpus, f'{gpus}/IF({gpn}="",8,{gpn})'), "out_int")
        s.formula(used_price, f'={blank}IF({override}="",{price},{override}))', "out_money")
        s.formula(cost, "=" + _if_number(per_gpu, f"COSTPERMTOK({used_price},{per_gpu},{util})"), "out_money3")
        s.formula(f"K{r}", "=" + _if_number(cost, _if_number(gpus, f"{gpus}*{used_price}*{hours}")), "out_money0")
    last = SIZING_FIRST + SIZING_SLOTS - 1
    s.validate_list(f"A{SIZING_FIRST}:A{last}", _list_ref(2, len(lists.families)), strict=False)
    s.validate_number(f"B{SIZING_FIRST}:B{last}", 1, whole=True)
    s.validate_number(f"C{SIZING_FIRST}:C{last}", 0)
    _notes(s, last + 2, DERIVED_NOTE, NOT_VERIFIED)
    s.finish()
    return s


def _quotes(book: _Book, lists: Lists) -> _Sheet:
    s = book.sheet(QUOTES)
    ws = s.ws
    s.header(
        "Vendor quotes (procurement)",
        "Is each quote worth it against the baseline? Yellow cells are inputs; the sample quotes and prices are "
        "examples, not data.",
        (("A", 30), ("B:C", 14), ("D:E", 11), ("F:J", 13), ("K", 22)),
    )
    bench, scen, avail, maxg, util = _workload_links(s, with_utilization=True)

    b = BASELINE
    s.text("A11", "Baseline", "section")
    s.label_rows(
        12,
        (
            ("Baseline accelerator", "a family (its best entry) or an entry ID"),
            ("Baseline $/GPU-hour (example)", "an example price, not data"),
            ("Baseline entry used", ""),
            ("Baseline per-GPU throughput", ""),
            ("Baseline cost per million tokens", ""),
        ),
    )
    s.input(b["accelerator"], DEFAULT_BASELINE)
    s.input(b["price"], DEFAULT_BASELINE_PRICE, "in_money")
    base, base_price, base_entry = _abs(b["accelerator"]), _abs(b["price"]), _abs(b["entry"])
    base_pg, base_cost = _abs(b["per_gpu"]), _abs(b["cost_per_mtok"])
    s.formula(b["entry"], f"={_entry_used(base, bench, scen, avail, maxg)}")
    s.formula(b["per_gpu"], "=" + _unless_error(base_entry, f"PERGPU({base_entry},{bench},{scen})"), "out_num")
    s.formula(
        b["cost_per_mtok"], "=" + _if_number(base_pg, f"COSTPERMTOK({base_price},{base_pg},{util})"), "out_money3"
    )
    s.validate_list(b["accelerator"], _list_ref(2, len(lists.families)), strict=False)
    s.validate_number(b["price"], 0)

    s.text("A18", "Vendor quotes", "section")
    headers = (
        "Vendor",
        "Accelerator (family or entry ID)",
        "Quoted $/GPU-hour",
        "Term",
        "Entry used",
        "Per-GPU throughput",
        "Cost per million tokens",
        "Quote ratio to baseline",
        "Break-even ratio",
        "Break-even price ceiling ($/GPU-hour)",
        "Verdict",
    )
    for i, h in enumerate(headers):
        ws.write_string(QUOTES_HEADER_ROW - 1, i, h, s.fmt("header"))
    s.height(QUOTES_HEADER_ROW, 45)
    for i in range(QUOTES_SLOTS):
        r = QUOTES_FIRST + i
        acc, price, entry, per_gpu, cost, ratio, be = (
            f"B{r}",
            f"C{r}",
            f"E{r}",
            f"F{r}",
            f"G{r}",
            f"H{r}",
            f"I{r}",
        )
        vendor, accel, quoted, term = DEFAULT_QUOTES[i] if i < len(DEFAULT_QUOTES) else ("", "", None, "")
        s.input(f"A{r}", vendor)
        s.input(acc, accel)
        s.input(price, quoted, "in_money")
        s.input(f"D{r}", term)
        blank = f'IF({acc}="","",'
        s.formula(entry, f"={blank}{_entry_used(acc, bench, scen, avail, maxg)})")
        s.formula(per_gpu, f"={blank}{_unless_error(entry, f'PERGPU({entry},{bench},{scen})')})", "out_num")
        s.formula(cost, "=" + _if_number(per_gpu, f"COSTPERMTOK({price},{per_gpu},{util})"), "out_money3")
        # the quote's own cost check has vetted its price; the baseline's cost vets the baseline price
        s.formula(ratio, "=" + _if_number(cost, _if_number(base_cost, f"{price}/{base_price}")), "out_ratio")
        s.formula(be, f"={blank}BREAKEVEN({base},{acc},{bench},{scen},{avail},{maxg}))", "out_ratio")
        s.formula(
            f"J{r}", f"={blank}BREAKEVENPRICE({base_price},{base},{acc},{bench},{scen},{avail},{maxg}))", "out_money"
        )
        verdict = f'IF({ratio}<={be},"within break-even",TEXT({ratio}/{be}-1,"0.0%")&" above break-even")'
        s.formula(f"K{r}", "=" + _if_number(ratio, _if_number(be, verdict)))
    last = QUOTES_FIRST + QUOTES_SLOTS - 1
    s.validate_list(f"B{QUOTES_FIRST}:B{last}", _list_ref(2, len(lists.families)), strict=False)
    s.validate_number(f"C{QUOTES_FIRST}:C{last}", 0)
    _notes(
        s,
        last + 2,
        "Quote ratio = quoted price / baseline price.",
        "Break-even ratio = per-GPU throughput of the quoted accelerator / the baseline's (BREAKEVEN).",
        "Break-even price ceiling = baseline price x break-even ratio (BREAKEVENPRICE): the most worth paying.",
        DERIVED_NOTE,
        NOT_VERIFIED,
    )
    s.finish()
    return s


def _sensitivity(book: _Book, lists: Lists) -> _Sheet:
    s = book.sheet(SENSITIVITY)
    ws = s.ws
    s.header(
        "Price sensitivity (finance)",
        "Cost per million tokens for one accelerator over $/GPU-hour x utilization. Yellow cells are inputs; "
        "prices are examples, not data.",
        (("A", 30), ("B:I", 11)),
    )
    bench, scen, avail, maxg = _workload_links(s, with_utilization=False)
    s.text("A10", "Accelerator and price range", "section")
    s.label_rows(
        11,
        (
            ("Accelerator", "a family (its best entry) or an entry ID"),
            ("Entry used", ""),
            ("Per-GPU throughput", ""),
            ("$/GPU-hour, first row (example)", "an example price, not data"),
            ("$/GPU-hour, step between rows", ""),
        ),
    )
    acc, entry, per_gpu = _abs(SENS["accelerator"]), _abs(SENS["entry"]), _abs(SENS["per_gpu"])
    s.input(SENS["accelerator"], DEFAULT_SENS_ACCELERATOR)
    s.formula(SENS["entry"], f"={_entry_used(acc, bench, scen, avail, maxg)}")
    s.formula(SENS["per_gpu"], "=" + _unless_error(entry, f"PERGPU({entry},{bench},{scen})"), "out_num")
    s.input(SENS["price_from"], DEFAULT_PRICE_FROM, "in_money")
    s.input(SENS["price_step"], DEFAULT_PRICE_STEP, "in_money")
    s.validate_list(SENS["accelerator"], _list_ref(2, len(lists.families)), strict=False)
    s.validate_number(SENS["price_from"], 0)
    s.validate_number(SENS["price_step"], 0)

    s.formula(
        "A17",
        f'="Cost per million tokens ($): "&{acc}&", "&{bench}&" "&{scen}&", by $/GPU-hour and utilization"',
        "section",
    )
    h = SENS_HEADER_ROW
    s.text(f"A{h}", "$/GPU-hour \\ utilization", "header")
    for j in range(SENS_UTILS):
        s.input(f"{col_letters(2 + j)}{h}", DEFAULT_UTILIZATIONS[j], "in_pct")
    s.validate_number(f"B{h}:{col_letters(1 + SENS_UTILS)}{h}", 0.0001, 1)
    for i in range(SENS_PRICES):
        r = SENS_FIRST + i
        if i == 0:
            s.formula(f"A{r}", f"={_abs(SENS['price_from'])}", "out_money")
        else:
            s.formula(f"A{r}", f"=A{r - 1}+{_abs(SENS['price_step'])}", "out_money")
        for j in range(SENS_UTILS):
            c = col_letters(2 + j)
            s.formula(f"{c}{r}", "=" + _if_number(per_gpu, f"COSTPERMTOK($A{r},{per_gpu},{c}${h})"), "out_money3")

    last = SENS_FIRST + SENS_PRICES - 1
    chart = book.wb.add_chart({"type": "line"})
    for j in range(SENS_UTILS):
        chart.add_series(
            {
                "name": [SENSITIVITY, h - 1, 1 + j],
                "categories": [SENSITIVITY, SENS_FIRST - 1, 0, last - 1, 0],
                "values": [SENSITIVITY, SENS_FIRST - 1, 1 + j, last - 1, 1 + j],
                "marker": {"type": "circle", "size": 4},
            }
        )
    chart.set_title({"name": [SENSITIVITY, 16, 0], "name_font": {"size": 11}})
    chart.set_x_axis({"name": "$/GPU-hour", "num_format": "$0.00"})
    chart.set_y_axis({"name": "$ per million tokens", "num_format": "$0.00", "major_gridlines": {"visible": True}})
    chart.set_legend({"position": "right"})
    chart.set_size({"width": 860, "height": 400})
    ws.insert_chart(f"A{last + 3}", chart)
    _notes(s, last + 3 + _rows_under(400), "One line per utilization.", DERIVED_NOTE, NOT_VERIFIED)
    s.finish()
    return s


def _compare(book: _Book, lists: Lists) -> _Sheet:
    s = book.sheet(COMPARE)
    ws = s.ws
    s.header(
        "Compare accelerator families",
        "Best and median per-GPU value of each family (closed division, latest round with rows) and the entry "
        "behind each best value. Yellow cells are inputs.",
        (("A", 24), ("B", 13), ("C", 11), ("D", 52), ("E:F", 13)),
    )
    s.text("A4", "Workload", "section")
    w = WORKLOAD
    _linked(s, 5, "Benchmark", f"{SIZING}!{_abs(w['benchmark'])}", note="set on Sizing")
    _linked(s, 6, "Scenario", f"{SIZING}!{_abs(w['scenario'])}", note="set on Sizing")
    s.label_rows(
        7,
        (
            ("Availability", "available, preview, rdi or any"),
            ("Max GPUs per system", "only systems with at most this many GPUs; blank = any size"),
        ),
    )
    s.input(COMPARE_FILTERS["availability"], DEFAULT_AVAILABILITY)
    s.input(COMPARE_FILTERS["max_gpus"], DEFAULT_MAX_GPUS, "in_int")
    s.validate_list(COMPARE_FILTERS["availability"], list(AVAILABILITY_CHOICES), what="availability")
    s.validate_number(COMPARE_FILTERS["max_gpus"], 1, whole=True)
    bench, scen = "$B$5", "$B$6"
    avail, maxg = _abs(COMPARE_FILTERS["availability"]), _abs(COMPARE_FILTERS["max_gpus"])
    headers = (
        "Family",
        "Best per-GPU",
        "Entry behind best",
        "System",
        "Median per-GPU",
        "Best / median",
    )
    for i, h in enumerate(headers):
        ws.write_string(COMPARE_HEADER_ROW - 1, i, h, s.fmt("header"))
    s.height(COMPARE_HEADER_ROW, 30)
    for i in range(COMPARE_SLOTS):
        r = COMPARE_FIRST + i
        fam, best, entry, median = f"A{r}", f"B{r}", f"C{r}", f"E{r}"
        # the families ranked for the chosen workload; a family typed over a cell pins it, and the formula
        # copied back from any other row ranks it again (the rank is the cell's own row)
        rank = f"ROW()-{COMPARE_FIRST - 1}"
        s.formula(fam, f'=IFERROR(INDEX(FAMILIES({bench},{scen},{avail},{maxg}),{rank}),"")', "in_text")
        blank = f'IF({fam}="","",'
        s.formula(best, f"={blank}BEST({fam},{bench},{scen},{avail},{maxg}))", "out_num")
        s.formula(entry, f"={blank}BESTENTRY({fam},{bench},{scen},{avail},{maxg}))")
        s.formula(f"D{r}", f"={blank}{_unless_error(entry, _field(entry, 'system'))})")
        s.formula(median, f"={blank}MEDIANPERGPU({fam},{bench},{scen},{avail},{maxg}))", "out_num")
        s.formula(f"F{r}", "=" + _if_number(best, _if_number(median, f"{best}/{median}")), "out_ratio")
    last = COMPARE_FIRST + COMPARE_SLOTS - 1
    s.validate_list(f"A{COMPARE_FIRST}:A{last}", _list_ref(2, len(lists.families)), strict=False)

    chart = book.wb.add_chart({"type": "bar"})
    s.formula(
        f"A{COMPARE_HEADER_ROW - 1}",
        f'="Per-GPU throughput by family: "&{bench}&" "&{scen}&", "&{avail}&", "'
        f'&IF({maxg}="","any system size","at most "&{maxg}&" GPUs")',
        "section",
    )
    for col, name, color in ((1, "Best per-GPU", "#2F5597"), (4, "Median per-GPU", "#A9C4EB")):
        chart.add_series(
            {
                "name": name,
                "categories": [COMPARE, COMPARE_FIRST - 1, 0, last - 1, 0],
                "values": [COMPARE, COMPARE_FIRST - 1, col, last - 1, col],
                "fill": {"color": color},
                "gap": 60,
            }
        )
    chart.set_title({"name": [COMPARE, COMPARE_HEADER_ROW - 2, 0], "name_font": {"size": 11}})
    chart.set_x_axis({"name": "per-GPU throughput (the benchmark's units per second)", "num_format": "#,##0"})
    chart.set_y_axis({"reverse": True})
    chart.set_legend({"position": "bottom"})
    chart.set_size({"width": 860, "height": 460})
    ws.insert_chart(f"A{last + 3}", chart)
    _notes(s, last + 3 + _rows_under(460), DERIVED_NOTE, NOT_VERIFIED)
    s.finish()
    return s


def _sources(book: _Book) -> _Sheet:
    s = book.sheet(SOURCES)
    ws = s.ws
    s.header(
        "Sources: every MLPerf entry this workbook uses",
        "One row per use, cited as the MLPerf Results Messaging Guidelines ask (CITE): round, division, category, "
        "entry, source file and SHA-256.",
        (("A", 18), ("B", 18), ("C", 10), ("D", 130)),
    )
    w = WORKLOAD
    _linked(s, 4, "Benchmark", f"{SIZING}!{_abs(w['benchmark'])}", note="set on Sizing")
    _linked(s, 5, "Scenario", f"{SIZING}!{_abs(w['scenario'])}", note="set on Sizing")
    headers = ("Used on", "Candidate or family", "Entry", "Citation (CITE)")
    for i, h in enumerate(headers):
        ws.write_string(SOURCES_HEADER_ROW - 1, i, h, s.fmt("header"))
    for i, (where, asked, entry) in enumerate(_uses()):
        r = SOURCES_FIRST + i
        s.text(f"A{r}", where, "plain")
        s.formula(f"B{r}", f'=IF({asked}="","",{asked})')
        s.formula(f"C{r}", f"={entry}")  # "" where nothing is asked
        s.formula(f"D{r}", f'=IF(C{r}="","",{_unless_error(f"C{r}", f"CITE(C{r},$B$4,$B$5)")})', "cite")
    s.finish(one_page=False)
    return s


def _uses() -> list[tuple[str, str, str]]:
    """Every place that names an entry: (where, the cell with what was asked, the cell with the entry)."""
    uses = [(f"{SIZING} row {r}", f"{SIZING}!$A${r}", f"{SIZING}!$D${r}") for r in _rows(SIZING_FIRST, SIZING_SLOTS)]
    uses.append(
        (f"{QUOTES} baseline", f"{QUOTES}!{_abs(BASELINE['accelerator'])}", f"{QUOTES}!{_abs(BASELINE['entry'])}")
    )
    uses += [(f"{QUOTES} row {r}", f"{QUOTES}!$B${r}", f"{QUOTES}!$E${r}") for r in _rows(QUOTES_FIRST, QUOTES_SLOTS)]
    uses.append((SENSITIVITY, f"{SENSITIVITY}!{_abs(SENS['accelerator'])}", f"{SENSITIVITY}!{_abs(SENS['entry'])}"))
    uses += [
        (f"{COMPARE} row {r}", f"{COMPARE}!$A${r}", f"{COMPARE}!$C${r}") for r in _rows(COMPARE_FIRST, COMPARE_SLOTS)
    ]
    return uses


def _rows(first: int, count: int) -> range:
    return range(first, first + count)


def _lists_sheet(book: _Book, lists: Lists) -> None:
    ws = book.wb.add_worksheet(LISTS)
    for col, (title, values) in enumerate(
        (
            ("Benchmarks", lists.benchmarks),
            ("Scenarios", lists.scenarios),
            ("Families", lists.families),
            ("Availability", AVAILABILITY_CHOICES),
        )
    ):
        ws.write_string(0, col, title, book.formats["header"])
        for i, v in enumerate(values):
            ws.write_string(1 + i, col, cell_text(v))  # names from results files: never a formula
    ws.write_string(0, 5, "Drop-down lists taken from the loaded results when the workbook was built.")
    ws.protect("")
    ws.hide()


def _abs(ref: str) -> str:
    """B5 -> $B$5"""
    col = "".join(ch for ch in ref if ch.isalpha())
    return f"${col}${ref[len(col) :]}"


def _wrapped_lines(text: str, per_line: float) -> int:
    """Lines a paragraph takes when wrapped at spaces into lines of ``per_line`` characters."""
    lines, used = 1, 0.0
    for word in text.split(" "):
        need = float(len(word) + (1 if used else 0))
        if used and used + need > per_line:
            lines, used = lines + 1, 0.0
            need = float(len(word))
        while need > per_line:  # a word longer than a line breaks anywhere
            lines, need = lines + 1, need - per_line
        used += need
    return lines


def _list_ref(col: int, n: int) -> str:
    """The range of the Lists sheet's column ``col`` (0 = A) holding ``n`` choices."""
    c = col_letters(col + 1)
    return f"={LISTS}!${c}$2:${c}${max(n, 1) + 1}"


def _write(target: Any, lists: Lists, computed: Computed | None, built: str) -> int:
    """Write the workbook to ``target`` (a path or a binary file); returns the number of formulas."""
    book = _Book(target, computed)
    book.wb.set_properties(
        {
            "title": "benchsheet cluster-sizing workbook",
            "subject": "Cluster sizing, vendor quotes and price sensitivity from MLPerf Inference results",
            "author": f"benchsheet {__version__}",
            "comments": DERIVED_NOTE + " " + NOT_VERIFIED + " " + TRADEMARK,
        }
    )
    sheets = [
        _read_me(book, built),
        _sizing(book, lists),
        _quotes(book, lists),
        _sensitivity(book, lists),
        _compare(book, lists),
        _sources(book),
    ]
    _lists_sheet(book, lists)
    sheets[0].ws.activate()
    book.wb.close()
    return sum(s.formulas for s in sheets)


def template_lists() -> Lists:
    table = get_table()
    return Lists(
        benchmarks=tuple(benchmarks(table)),
        scenarios=tuple(scenarios(table)),
        families=tuple(families(table)),
    )


def build(out: Path) -> BuildReport:
    """Write the template to ``out`` with every formula computed and cached. Prints nothing.

    A draft is written and computed by the formula engine; the workbook is then written again
    with each value cached next to its formula and charts holding the data, and finally passed
    through the same cached-value writer as ``template calc`` (which also types an empty text
    answer as text, where XlsxWriter leaves it untyped), into ``out`` atomically.
    """
    start = time.perf_counter()
    out = Path(out)
    lists = template_lists()
    built = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    with tempfile.TemporaryDirectory(prefix="benchsheet-template-") as tmp:
        draft, final = Path(tmp) / "draft.xlsx", Path(tmp) / "final.xlsx"
        _write(str(draft), lists, None, built)
        computed = compute(draft)
        count = _write(str(final), lists, computed, built)
        rewrite(final, out, cached_values(computed))
    return _report(out, computed, count, time.perf_counter() - start)


def _row(c: Computed, sheet: str, columns: dict[str, str], r: int) -> dict[str, Value]:
    return {key: c.shown_value(sheet, f"{col}{r}") for key, col in columns.items()}


def _report(out: Path, c: Computed, count: int, seconds: float) -> BuildReport:
    sizing = [_row(c, SIZING, SIZING_COLUMNS, SIZING_FIRST + i) for i in range(SIZING_SLOTS)]
    quotes = [_row(c, QUOTES, QUOTE_COLUMNS, QUOTES_FIRST + i) for i in range(QUOTES_SLOTS)]
    return BuildReport(
        path=out,
        benchmark=str(c.shown_value(SIZING, WORKLOAD["benchmark"])),
        scenario=str(c.shown_value(SIZING, WORKLOAD["scenario"])),
        utilization=c.shown_value(SIZING, WORKLOAD["utilization"]),
        target=c.shown_value(SIZING, WORKLOAD["target"]),
        baseline=str(c.shown_value(QUOTES, BASELINE["accelerator"])),
        baseline_price=c.shown_value(QUOTES, BASELINE["price"]),
        sizing=tuple(SizingLine(**row) for row in sizing if row["candidate"]),
        quotes=tuple(QuoteLine(**row) for row in quotes if row["accelerator"]),
        formulas=count,
        seconds=seconds,
        errors={c.where(k): text for k, text in c.errors.items()},
    )
