"""What ``build`` reports: the key outputs as the workbook computed them, and how the CLI prints them.

The values are read back through the sheet descriptions (``benchsheet.templates.sheets``), so the report
follows the layout wherever it moves.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openpyxl.utils.cell import range_boundaries, range_to_tuple
from openpyxl.workbook.defined_name import DefinedName

from benchsheet.errors import ALL_ERROR_CODES
from benchsheet.templates.layout import CHART_GAPS, Cell, TableBlock
from benchsheet.templates.sheets import BASELINE, QUOTES_TABLE, SIZING_TABLE, WORKLOAD
from excelcalc.workbook.calc import CellError
from excelcalc.workbook.cells import Computed, quote_sheet
from excelcalc.workbook.xlsxfile import read_package, sheet_parts

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
    rows: Value
    gpus: Value
    nodes: Value
    headroom: Value
    price: Value
    cost_per_mtok: Value
    bought_mtok: Value
    monthly_cost: Value
    status: Value = None  # "ok", or the row's first error
    rows_all: Value = None  # ROWSBEHIND, from the hidden array formula the rows column shows
    node: Value = None  # the node size used: yours, or the MLPerf system's (hidden)


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
    rounds: Value
    price_used: Value = None  # the price, or TCO's owned $/GPU-hour where the quote says "owned"
    at_target: Value = None  # the break-even at the Curves sheet's target interactivity (MLPerf Endpoints)
    at_target_all: Value = None  # the same, from the hidden array formula it shows
    rows: Value = None  # how many rows stand behind the per-GPU value (BEST of how many)
    status: Value = None  # "ok", or the row's first error
    rows_all: Value = None  # ROWSBEHIND, from the hidden array formula the rows column shows


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


def _rows(c: Computed, table: TableBlock, filled: str) -> list[dict[str, Value]]:
    """The computed rows of ``table`` whose ``filled`` column is not empty."""
    rows = [{k: _value(c, cell) for k, cell in table.row(i).items()} for i in range(table.slots)]
    return [row for row in rows if row[filled]]


def _value(c: Computed, cell: Cell) -> Value:
    return c.shown_value(cell.sheet, cell.a1)


ERROR_TEXT = re.compile("^(?:" + "|".join(map(re.escape, ALL_ERROR_CODES)) + ")(?: |$)")
"""A text that reads as an error: an Excel error code, then its reason (the add-in's errors, as Excel shows them,
and the workbook's own: "#N/A no owned $/GPU-hour for GB200: ...")."""
_FORMULA_TEXT = re.compile(  # a cell typed "str" (a formula's text) with a body: not one closed at once (<c .../>)
    r'<(?:\w+:)?c\b[^>]*?\br="([A-Z]+\d+)"[^>]*?\bt="str"[^>]*?(?<!/)>(.*?)</(?:\w+:)?c>', re.DOTALL
)
_VALUE = re.compile(r"<(?:\w+:)?v>(.*?)</(?:\w+:)?v>", re.DOTALL)


def error_texts(path: Path) -> tuple[CellError, ...]:
    """The formula cells of the workbook at ``path`` whose cached text reads as an error (``ERROR_TEXT``), in
    sheet order: the engine computed them without an error, yet each shows one (a formula's own error text, or
    an add-in error a formula passed on as text), and a user reads them as errors, so calc counts them."""
    package = read_package(path)
    found = []
    for sheet, part in sheet_parts(package).items():
        for m in _FORMULA_TEXT.finditer(package[part].decode("utf-8")):
            value = _VALUE.search(m.group(2))
            text = html.unescape(value.group(1)) if value else ""
            if ERROR_TEXT.match(text):
                found.append(CellError(f"{quote_sheet(sheet)}!{m.group(1)}", text))
    return tuple(found)


_CELL = re.compile(r'<(?:\w+:)?c\b[^>]*?\br="([A-Z]+\d+)"[^>]*?(?<!/)>(.*?)</(?:\w+:)?c>', re.DOTALL)
_TEXT = re.compile(r"<(?:\w+:)?t\b[^>]*>(.*?)</(?:\w+:)?t>", re.DOTALL)


def frozen_error_texts(src: Path, out: Path) -> tuple[CellError, ...]:
    """The cells of the values-only copy ``out`` that were formulas in ``src`` and now hold a text reading as an
    error (``ERROR_TEXT``): what ``error_texts`` finds in a computed workbook, after freeze (which writes each
    formula's text as an inline string, as it writes typed texts: so the formulas are found in ``src``)."""
    source, frozen = read_package(src), read_package(out)
    found = []
    for sheet, part in sheet_parts(frozen).items():
        was = sheet_parts(source).get(sheet)
        body = source[was].decode("utf-8") if was else ""
        formulas = {m.group(1) for m in _CELL.finditer(body) if "<f" in m.group(2)}
        for m in _CELL.finditer(frozen[part].decode("utf-8")):
            shown = _TEXT.search(m.group(2)) or _VALUE.search(m.group(2))
            text = html.unescape(shown.group(1)) if shown else ""
            if m.group(1) in formulas and ERROR_TEXT.match(text):
                found.append(CellError(f"{quote_sheet(sheet)}!{m.group(1)}", text))
    return tuple(found)


_GAPS = re.compile(rf'<(?:\w+:)?definedName\b(?![^>]*\blocalSheetId=)[^>]*\bname="{CHART_GAPS}"[^>]*>([^<]*)<')


def not_gaps(errors: Sequence[CellError], path: Path) -> tuple[CellError, ...]:
    """``errors`` less the #N/A of the cells the workbook at ``path`` names CHART_GAPS: points a chart leaves out
    on purpose (a text it would draw at 0), which a user does not see as an error."""
    m = _GAPS.search(read_package(path).get("xl/workbook.xml", b"").decode("utf-8"))
    if m is None:
        return tuple(errors)
    named = DefinedName(CHART_GAPS, attr_text=html.unescape(m.group(1)))
    areas = [(sheet, range_boundaries(area)) for sheet, area in named.destinations]

    def gap(e: CellError) -> bool:
        sheet, (col, row, _, _) = range_to_tuple(e.where)
        return any(s == sheet and c1 <= col <= c2 and r1 <= row <= r2 for s, (c1, r1, c2, r2) in areas)

    return tuple(e for e in errors if not (e.text.startswith("#N/A") and gap(e)))


def every_error(errors: Sequence[CellError], path: Path) -> tuple[CellError, ...]:
    """``errors`` (the engine's), then the cells of ``path`` showing an error text that are not among them; none
    of them a chart's gap (``not_gaps``)."""
    known = {e.where for e in errors}
    return not_gaps((*errors, *(e for e in error_texts(path) if e.where not in known)), path)


def make_report(out: Path, c: Computed, count: int, seconds: float) -> BuildReport:
    return BuildReport(
        path=out,
        benchmark=str(_value(c, WORKLOAD["benchmark"])),
        scenario=str(_value(c, WORKLOAD["scenario"])),
        utilization=_value(c, WORKLOAD["utilization"]),
        target=_value(c, WORKLOAD["target"]),
        baseline=str(_value(c, BASELINE["accelerator"])),
        baseline_price=_value(c, BASELINE["price"]),
        sizing=tuple(SizingLine(**row) for row in _rows(c, SIZING_TABLE, "candidate")),
        quotes=tuple(QuoteLine(**row) for row in _rows(c, QUOTES_TABLE, "accelerator")),
        formulas=count,
        seconds=seconds,
        errors={e.where: e.text for e in every_error([CellError(c.where(k), t) for k, t in c.errors.items()], out)},
    )


# ------------------------------------------------------------------ printing

_NUMBER_FORMATS = {
    "money": "${:,.2f}",
    "money3": "${:,.3f}",
    "money0": "${:,.0f}",
    "ratio": "{:.3f}",
    "pct": "{:.0%}",
    "int": "{:,.0f}",
}


def fmt(value: Any, kind: str = "") -> str:
    """A cached value as a short text: numbers in the given style, errors and text as they are."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "" if value is None else str(value)
    return _NUMBER_FORMATS.get(kind, "{:,.1f}").format(value)


def text_table(rows: Sequence[Sequence[str]], indent: str = "  ") -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]

    def cell(i: int, text: str) -> str:
        numeric = i > 0 and text[:1] in "$0123456789"
        return text.rjust(widths[i]) if numeric else text.ljust(widths[i])

    return "\n".join(indent + "  ".join(cell(i, c) for i, c in enumerate(r)).rstrip() for r in rows)


def _lines_table(lines: Sequence[Any], table: TableBlock) -> str:
    """The lines under the table's short headings, each value shown as its column's format."""
    columns = [(c.short, c.key, c.content.style.partition("_")[2]) for c in table.columns if c.short]
    rows = [[heading for heading, _, _ in columns]]
    rows += [[fmt(getattr(line, key), kind) for _, key, kind in columns] for line in lines]
    return text_table(rows)


def print_report(r: BuildReport) -> None:
    """The key outputs of a build, as ``benchsheet template build`` prints them."""
    print(f"wrote {r.path}: {r.formulas} formulas computed and cached in {r.seconds:.1f} s")
    print(
        f"workload: {r.benchmark} {r.scenario}, target {fmt(r.target, 'int')} tokens/s, "
        f"utilization {fmt(r.utilization, 'pct')} (inputs on the Sizing sheet; prices are examples)"
    )
    print("sizing:")
    print(_lines_table(r.sizing, SIZING_TABLE))
    print(f"quotes vs baseline {r.baseline} at {fmt(r.baseline_price, 'money')}/GPU-hour:")
    print(_lines_table(r.quotes, QUOTES_TABLE))
    print("Per-GPU values, ratios and costs are derived from MLPerf results, not official MLPerf results.")
