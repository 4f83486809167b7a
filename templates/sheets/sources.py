"""The Sources sheet: the source files (DATAINFO) and every entry the answering sheets name, cited
once per benchmark and scenario (ENTRIESUSED, CITE).

``ANSWERING`` lists the sheets whose entries are cited here; a new sheet is described in a module of its own
and added to it. The places that use an entry are found from the sheets' descriptions (``USES``): each block's
``cite``, a table function's rows of entries, and every formula reading an entry another sheet names.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator, Mapping

from benchsheet.analysis.uses import USES_HEADER
from benchsheet.templates.layout import (
    ArrayBlock,
    Cell,
    Column,
    Expr,
    Fields,
    Formula,
    Lifted,
    Lines,
    RowCells,
    TableBlock,
    Term,
    Text,
    Use,
    call,
    eq,
    if_,
    lit,
    under,
)
from benchsheet.templates.sheets.claims import CLAIMS_SHEET
from benchsheet.templates.sheets.common import (
    EMPTY_ROW_HEIGHT,
    SOURCES,
    TEXTS,
    prose,
    sheet,
    unless_blank,
    unless_error,
)
from benchsheet.templates.sheets.compare import COMPARE_SHEET
from benchsheet.templates.sheets.curves import CURVES_SHEET
from benchsheet.templates.sheets.fleet import FLEET_SHEET
from benchsheet.templates.sheets.quotes import QUOTES_SHEET
from benchsheet.templates.sheets.sensitivity import SENSITIVITY_SHEET
from benchsheet.templates.sheets.sizing import SIZING_SHEET
from benchsheet.templates.sheets.tco import TCO_SHEET
from benchsheet.templates.sheets.workload import linked
from benchsheet.templates.worksheet import Sheet

ANSWERING = (
    SIZING_SHEET,
    QUOTES_SHEET,
    SENSITIVITY_SHEET,
    TCO_SHEET,
    FLEET_SHEET,
    COMPARE_SHEET,
    CLAIMS_SHEET,
    CURVES_SHEET,
)  # a new sheet: describe it in a module of its own, add it here
"""The sheets that answer, in workbook order: the Read me lists them, this sheet cites what they use."""


def _table_uses(sheet: Sheet) -> Iterator[Use]:
    """A table function's rows that name an entry each (FLEET's): a table whose columns are headed Entry,
    Benchmark and Scenario; each row's entry is cited for its own benchmark and scenario."""
    for block in sheet.blocks:
        if not isinstance(block, TableBlock) or block.cite is not None:
            continue
        heads = {h.lower(): c.key for c in block.columns if isinstance(h := c.header, str)}
        if {"entry", "benchmark", "scenario"} <= heads.keys():
            for i in range(block.slots):
                row = block.row(i)
                cells = [row[heads[h]].abs for h in ("entry", "benchmark", "scenario")]
                yield Use(f"{sheet.name} row {row.first + i}", *cells)


def _referring_uses(sheet: Sheet, named: Mapping[Cell, Use]) -> Iterator[Use]:
    """The cells of ``sheet`` whose formula reads an entry another sheet names (TCO's rows read Sizing's), one
    use a row and entry: found from the formulas, so a sheet that starts using an entry is cited for it."""
    seen: set[tuple[int, Cell]] = set()
    for put in (p for block in sheet.blocks for p in block.puts()):
        expr = put.content.expr if isinstance(put.content, Formula) else None
        for part in expr.parts if isinstance(expr, Expr) else ():
            use = named.get(part.abs) if isinstance(part, Cell) and part.sheet != sheet.name else None
            if use is not None and (put.cell.row, use.entry) not in seen:
                seen.add((put.cell.row, use.entry))
                yield Use(f"{sheet.name} row {put.cell.row}", use.entry, use.benchmark, use.scenario)


def _uses() -> tuple[Use, ...]:
    """Every place that names an entry, in workbook order: the blocks' ``cite``, the table functions' rows of
    entries, and the cells whose formulas read an entry named on another sheet."""
    named = [use for sheet in ANSWERING for use in (*sheet.uses(), *_table_uses(sheet))]
    by_cell = {use.entry: use for use in named}
    found = {sheet.name: [*sheet.uses(), *_table_uses(sheet), *_referring_uses(sheet, by_cell)] for sheet in ANSWERING}
    return tuple(use for sheet in ANSWERING for use in found[sheet.name])


USES = _uses()
SOURCES_WORKLOAD = Fields(
    SOURCES, top=4, fields=(linked("benchmark", "set on Sizing"), linked("scenario", "set on Sizing"))
)
_DATAINFO_COLUMNS = ("round", "file", "rows", "sha256", "imported_at", "url")  # DATAINFO()'s header


def _source_file(column: str, style: str = "cite") -> Formula:
    """One column of DATAINFO()'s row for the slot's source file; empty past the last file."""

    def value(r: RowCells) -> Expr:
        at = Expr.of(FILES_ANSWER.cell(r.first + r.index, _DATAINFO_COLUMNS.index(column)))
        if column == "round":  # DATAINFO's last row says where the table was loaded from: not a file
            return if_(
                eq(at, lit("")), lit(""), call("IFERROR", if_(eq(at, lit("origin")), lit(""), lit("v") & at), lit(""))
            )
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
HIDDEN = 16  # column Q: the first of the hidden columns that hold a table function's whole answer
FILES_ANSWER = ArrayBlock(
    SOURCES, SOURCE_FILES.header_row, HIDDEN, SOURCE_FILES.slots + 1, len(_DATAINFO_COLUMNS), call("DATAINFO")
)
"""DATAINFO's header and a row a slot, from one call (its last row, where the table was loaded from, past them)."""
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
    """The use's entry; empty where it is an error or a reason (FLEET's "none: ..."; an entry ID has no space):
    the reason shows where it is used, not here."""
    reason = call("OR", eq(call("LEFT", use.entry, 1), lit("#")), call("ISNUMBER", call("FIND", lit(" "), use.entry)))
    return call("IFERROR", if_(reason, lit(""), use.entry), lit(""))


def _used(column: str, style: str = "cite") -> Formula:
    """ENTRIESUSED's ``column`` in the slot's row, from its answer's hidden copy (USED): empty past the last entry."""
    j = USES_HEADER.index(column)

    def value(r: RowCells) -> Expr:
        row = r.first + r.index
        return Expr.of(USED.cell(row, j))

    return Formula(value, style)


def _column(key: str) -> Expr:
    c = CITED.column(key)
    return span(c.first, c.last)


_LINES = ("entry", "result", "system", "notes", "derived")
"""The CITE lines the entries' table shows: each column of them ONE array formula over the slots (CITE lifted
over the entries, as Excel lifts a scalar function), in hidden cells the shown ones read."""


def _line(part: str) -> Lifted:
    """CITE's line ``part`` of every slot's entry, from one call; empty where the slot has no entry."""

    def value(c: Mapping[str, Expr]) -> Expr:
        return if_(eq(c["entry"], lit("")), lit(""), call("CITE", c["entry"], c["bench"], c["scen"], lit(part)))

    return Lifted(value)


def _cite(*parts: str) -> Callable[[RowCells], Expr]:
    """The row's CITE lines ``parts``, joined by spaces (an error once, as it is)."""

    def value(r: RowCells) -> Expr:
        lines = [Expr.of(r[f"line_{p}"]) for p in parts]
        joined = lines[0] if len(lines) == 1 else call("TRIM", lines[0] & lit(" ") & lines[1])
        return unless_blank(r["entry"], unless_error(lines[0], joined) if len(lines) > 1 else joined)

    return value


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
        *(Column(f"line_{part}", f"CITE {part}", _line(part)) for part in _LINES),
    ),
)
USED = ArrayBlock(
    SOURCES,
    CITED.header_row,
    HIDDEN,
    CITED.slots + 1,
    len(USES_HEADER),
    call("ENTRIESUSED", *(_column(key) for key in ("use_entry", "where", "use_bench", "use_scen"))),
)
"""ENTRIESUSED's whole answer (its header, then an entry a row) from one call, beside the entries' table."""
SOURCES_SHEET = sheet(
    SOURCES,
    (("A", 9), ("B", 20), ("C", 53), ("D", 52), ("E", 45), ("F:V", 0)),  # a citation in three lines
    (SOURCES_WORKLOAD, SOURCE_FILES, LEGEND, CITED, FILES_ANSWER, USED),
    one_page=False,
    empty_row=EMPTY_ROW_HEIGHT,
    repeat_row=CITED.header_row,
)
