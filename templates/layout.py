"""The vocabulary a sheet is described in: cells, formulas, blocks of cells, checks and charts.

A sheet description (``sheets/``, a module a sheet) places blocks at rows: ``Fields`` (labelled
values), ``TableBlock`` (a header row and slots under it), ``Grid``, ``Lines`` and ``Chart``. Each block
knows its own cells, so a formula refers to a cell by asking the block for it (a slot's cells are a
``RowCells``), never by writing its address. The writer (``writer.py``) turns the blocks into
XlsxWriter calls, the report (``report.py``) reads the computed values back through the same blocks.

Rows are Excel row numbers (1-based, as a user sees them); columns are 0-based indexes (A = 0),
as in XlsxWriter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xlsxwriter.utility import quote_sheetname, xl_rowcol_to_cell

Style = str  # a format name of the writer: "in_money", "out_ratio", ...
ROW_PX = 17  # the default row height in pixels, which places what follows a chart
CHART_GAPS = "ChartGaps"  # the workbook's name for cells answering #N/A on purpose (``Chart.gaps``)
Scalar = str | float | int | None

# ------------------------------------------------------------------ cells


@dataclass(frozen=True)
class Cell:
    """One cell of a sheet, and how a formula refers to it ($B$5, B5, $A19 or B$18)."""

    sheet: str
    row: int  # Excel row number, 1-based
    col: int  # 0-based
    row_abs: bool = True
    col_abs: bool = True

    @property
    def a1(self) -> str:
        """The plain address, e.g. ``B5``."""
        return str(xl_rowcol_to_cell(self.row - 1, self.col))

    @property
    def rel(self) -> Cell:
        return replace(self, row_abs=False, col_abs=False)

    @property
    def abs(self) -> Cell:
        return replace(self, row_abs=True, col_abs=True)

    def fixed(self, row: bool, col: bool) -> Cell:
        return replace(self, row_abs=row, col_abs=col)

    def ref(self, here: str) -> str:
        """How a formula on sheet ``here`` names this cell."""
        local = str(xl_rowcol_to_cell(self.row - 1, self.col, self.row_abs, self.col_abs))
        return local if here == self.sheet else f"{quote_sheetname(self.sheet)}!{local}"

    def __add__(self, other: Term) -> Expr:
        return Expr.of(self) + other

    def __radd__(self, other: Term) -> Expr:
        return Expr.of(other) + self

    def __sub__(self, other: Term) -> Expr:
        return Expr.of(self) - other

    def __mul__(self, other: Term) -> Expr:
        return Expr.of(self) * other

    def __truediv__(self, other: Term) -> Expr:
        return Expr.of(self) / other

    def __and__(self, other: Term) -> Expr:
        return Expr.of(self) & other

    def __rand__(self, other: Term) -> Expr:
        return Expr.of(other) & self


@dataclass(frozen=True)
class Span:
    """A rectangle of cells on one sheet, first to last (inclusive)."""

    first: Cell
    last: Cell

    def a1(self) -> str:
        return self.first.a1 if self.first == self.last else f"{self.first.a1}:{self.last.a1}"

    def chart_ref(self) -> list[Any]:
        """XlsxWriter's ``[sheet, first_row, first_col, last_row, last_col]`` (0-based)."""
        return [self.first.sheet, self.first.row - 1, self.first.col, self.last.row - 1, self.last.col]


# --------------------------------------------------------------- formulas


def span(s: Span) -> Expr:
    """A rectangle of cells as a range in a formula: ``first:last``."""
    return Expr((s.first, ":", s.last))


_PRECEDENCE = {"=": 1, "<=": 1, "&": 2, "+": 3, "-": 3, "*": 4, "/": 4}
_ATOM = 9


@dataclass(frozen=True)
class Expr:
    """A formula (without its leading ``=``) built from cells, literals and calls.

    Operators render as in Excel and add the parentheses their precedence needs, so a
    formula is balanced by construction; ``==``/``<=`` are ``eq``/``le`` (Python keeps ``==``).
    """

    parts: tuple[str | Cell, ...]
    precedence: int = _ATOM

    @staticmethod
    def of(term: Term) -> Expr:
        if isinstance(term, Expr):
            return term
        if isinstance(term, Cell):
            return Expr((term,))
        if isinstance(term, bool) or not isinstance(term, int | float):
            raise TypeError(f"not a formula term: {term!r} (text goes through lit())")
        return Expr((f"{term:g}",)) if isinstance(term, float) else Expr((str(term),))

    def render(self, here: str) -> str:
        """The formula's text on sheet ``here``, without ``=``. A range of another sheet names the sheet once,
        as Excel writes it (``Sizing!$F$19:$F$26``, not ``Sizing!$F$19:Sizing!$F$26``)."""
        out: list[str] = []
        for i, p in enumerate(self.parts):
            if isinstance(p, str):
                out.append(p)
                continue
            start = self.parts[i - 2] if i >= 2 and self.parts[i - 1] == ":" else None
            out.append(p.ref(p.sheet) if isinstance(start, Cell) and start.sheet == p.sheet else p.ref(here))
        return "".join(out)

    def _binary(self, op: str, other: Term, swap: bool = False) -> Expr:
        left, right = (Expr.of(other), self) if swap else (self, Expr.of(other))
        p = _PRECEDENCE[op]
        return Expr((*_wrapped(left, p < left.precedence + 1), op, *_wrapped(right, p < right.precedence)), p)

    def __add__(self, other: Term) -> Expr:
        return self._binary("+", other)

    def __radd__(self, other: Term) -> Expr:
        return self._binary("+", other, swap=True)

    def __sub__(self, other: Term) -> Expr:
        return self._binary("-", other)

    def __mul__(self, other: Term) -> Expr:
        return self._binary("*", other)

    def __truediv__(self, other: Term) -> Expr:
        return self._binary("/", other)

    def __and__(self, other: Term) -> Expr:
        return self._binary("&", other)

    def __rand__(self, other: Term) -> Expr:
        return self._binary("&", other, swap=True)


Term = Expr | Cell | int | float


def _wrapped(e: Expr, bare: bool) -> tuple[str | Cell, ...]:
    return e.parts if bare else ("(", *e.parts, ")")


def lit(text: str) -> Expr:
    """An Excel text literal: ``"..."`` with inner quotes doubled."""
    return Expr(('"' + text.replace('"', '""') + '"',))


def call(name: str, *args: Term) -> Expr:
    """``NAME(arg,arg,...)``."""
    parts: list[str | Cell] = [f"{name}("]
    for i, arg in enumerate(args):
        if i:
            parts.append(",")
        parts.extend(Expr.of(arg).parts)
    parts.append(")")
    return Expr(tuple(parts))


def eq(a: Term, b: Term) -> Expr:
    return Expr.of(a)._binary("=", b)


def le(a: Term, b: Term) -> Expr:
    return Expr.of(a)._binary("<=", b)


def if_(cond: Term, then: Term, otherwise: Term) -> Expr:
    return call("IF", cond, then, otherwise)


# --------------------------------------------------------------- contents


@dataclass(frozen=True)
class Text:
    """Fixed text; ``fit``: make the row tall enough when the style wraps."""

    text: str = ""
    style: Style = "plain"
    fit: bool = True
    span: int = 1  # columns the cell spans to its right, merged (a table's column over several sheet columns)


@dataclass(frozen=True)
class Input:
    """A yellow cell a user types over; ``value`` is the sample a fresh workbook holds."""

    value: Scalar = None
    style: Style = "in_text"


@dataclass(frozen=True)
class Formula:
    """A formula; in a block, ``expr`` may be a function of the block's (or the row's) cells."""

    expr: Expr | Callable[[RowCells], Expr]
    style: Style = "out_text"
    span: int = 1  # columns the cell spans to its right, merged: a long text wraps inside them (a wrapping style)
    fit: bool = True  # make the row tall enough for the text when the style wraps (a heading's row has its height)

    def at(self, row: RowCells) -> Formula:
        return self if isinstance(self.expr, Expr) else replace(self, expr=self.expr(row))


@dataclass(frozen=True)
class Stamp:
    """The build's own line (version and time), filled in when the workbook is written."""

    style: Style = "plain"


@dataclass(frozen=True)
class ArrayFormula:
    """One formula entered over ``rows`` x ``cols`` cells from its own (Ctrl+Shift+Enter): one call fills them."""

    expr: Expr
    rows: int
    cols: int
    style: Style = "out_text"


@dataclass(frozen=True)
class Lifted:
    """A table column as ONE array formula over its slots: ``expr`` of the table's columns, each the range
    from its first slot to its last, so that a function Excel lifts over ranges (as it lifts its own scalar
    functions) is called once for the column where a formula a row called it once a row. Each cell holds
    what the row's own formula would: the same expression, element by element. Keep such a column hidden
    and show it through plain references: LibreOffice recalculates a visible array formula on load (without
    the add-in: #NAME?), where a plain formula shows the value the file cached."""

    expr: Callable[[Mapping[str, Expr]], Expr]
    style: Style = "out_text"


Content = Text | Input | Formula | Stamp | ArrayFormula


@dataclass(frozen=True)
class Put:
    """One cell's content, as the writer receives it (formulas resolved)."""

    cell: Cell
    content: Content


class RowCells(Mapping[str, Cell]):
    """The cells of one row of a block (or of a whole Fields block), by key."""

    def __init__(self, cells: Mapping[str, Cell], index: int = 0, first: int = 0) -> None:
        self._cells = dict(cells)
        self.index = index  # the slot, 0 for the first row of a table
        self.first = first  # the Excel row of the table's first slot

    def __getitem__(self, key: str) -> Cell:
        return self._cells[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)


# ----------------------------------------------------------------- checks


@dataclass(frozen=True)
class ListRule:
    """A drop-down list: a named column of the Lists sheet, or fixed choices.

    Strict rules refuse other values; a lenient one (``title``/``message`` given) only informs.
    """

    source: str | tuple[str, ...]
    what: str = "value"
    title: str = ""
    message: str = ""


@dataclass(frozen=True)
class NumberRule:
    low: float
    high: float | None = None
    whole: bool = False


@dataclass(frozen=True)
class FormulaRule:
    """A custom check: ``formula`` of the checked range's first cell (as Data Validation's Custom), TRUE to
    accept; ``message`` says what is accepted."""

    formula: Callable[[Cell], Expr]
    message: str


Rule = ListRule | NumberRule | FormulaRule


@dataclass(frozen=True)
class Check:
    span: Span
    rule: Rule


# ----------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Use:
    """A place that names an MLPerf entry: where, and the cell with the entry."""

    where: str
    entry: Cell
    benchmark: Cell | None = None  # where the entry is cited for, if not the shared workload's
    scenario: Cell | None = None


@dataclass(frozen=True)
class Cite:
    """Which key of a block holds the entry used, for the Sources sheet; ``benchmark``/``scenario``,
    keys of the block holding the workload the entry is cited for (default: the shared workload).
    """

    entry: str
    label: str = ""
    benchmark: str = ""
    scenario: str = ""


Cites = Cite | tuple[Cite, ...] | None


def _cites(cites: Cites) -> tuple[Cite, ...]:
    return (cites,) if isinstance(cites, Cite) else cites or ()


def _use(where: str, cite: Cite, cells: Mapping[str, Cell]) -> Use:
    """The use a cite describes, its cells taken from ``cells`` (a block's or a row's)."""
    where = f"{where} {cite.label}".strip()
    bench, scen = (cells[k].abs if k else None for k in (cite.benchmark, cite.scenario))
    return Use(where, cells[cite.entry].abs, bench, scen)


class Block:
    """Something placed on a sheet. Subclasses yield their cells, checks, row heights and uses."""

    end: int  # the last row the block takes

    def puts(self) -> Iterator[Put]:
        return iter(())

    def checks(self) -> Iterator[Check]:
        return iter(())

    def heights(self) -> Iterator[tuple[int, float]]:
        return iter(())

    def uses(self) -> Iterator[Use]:
        return iter(())


class Headed(Block):
    """A block under its header row, with an optional section title (text or formula) in the row above."""

    sheet: str
    header_row: int
    title: str | Expr | None

    @property
    def title_cell(self) -> Cell:
        return Cell(self.sheet, self.header_row - 1, 0)

    def title_puts(self) -> Iterator[Put]:
        if self.title is not None:
            yield section(self.sheet, self.header_row - 1, self.title)


def section(sheet: str, row: int, title: str | Expr) -> Put:
    """A section title in column A: text, or a formula that names what follows."""
    content: Content = Text(title, "section") if isinstance(title, str) else Formula(title, "section")
    return Put(Cell(sheet, row, 0), content)


@dataclass(frozen=True)
class Header(Block):
    """A row of column headers from column A (``texts``), under an optional section title: the heading of
    the ``Fields`` under it (label, value, note) where its columns need naming."""

    sheet: str
    row: int
    texts: tuple[str, ...]
    title: str | None = None
    height: float | None = None  # the header row's height (points)

    @property
    def end(self) -> int:  # type: ignore[override]
        return self.row

    def heights(self) -> Iterator[tuple[int, float]]:
        if self.height is not None:
            yield self.row, self.height

    def puts(self) -> Iterator[Put]:
        if self.title is not None:
            yield section(self.sheet, self.row - 1, self.title)
        for j, text in enumerate(self.texts):
            yield Put(Cell(self.sheet, self.row, j), Text(text, "header", fit=False))


@dataclass(frozen=True)
class Lines(Block):
    """Lines of text down column A (notes under a table or chart)."""

    sheet: str
    top: int
    lines: tuple[str, ...]
    style: Style = "note"

    @property
    def end(self) -> int:  # type: ignore[override]
        return self.top + len(self.lines) - 1

    def puts(self) -> Iterator[Put]:
        for i, line in enumerate(self.lines):
            yield Put(Cell(self.sheet, self.top + i, 0), Text(line, self.style))


@dataclass(frozen=True)
class Field:
    """One labelled value: label in A, value in B, an optional note in C."""

    key: str
    label: str | Expr  # an Expr: a formula, e.g. a label naming the workload's unit
    content: Content
    note: str = ""
    check: Rule | None = None
    label_style: Style = "label"


@dataclass(frozen=True)
class Fields(Block):
    """Labelled values down rows ``top``..; ``fields["key"]`` is the value's cell ($B$5)."""

    sheet: str
    top: int
    fields: tuple[Field, ...]
    title: str | Expr | None = None  # a section title in the row above
    cite: Cites = None

    @property
    def end(self) -> int:  # type: ignore[override]
        return self.top + len(self.fields) - 1

    def __getitem__(self, key: str) -> Cell:
        for i, f in enumerate(self.fields):
            if f.key == key:
                return Cell(self.sheet, self.top + i, 1)
        raise KeyError(key)

    def cells(self) -> RowCells:
        return RowCells({f.key: self[f.key] for f in self.fields})

    def puts(self) -> Iterator[Put]:
        if self.title is not None:
            yield section(self.sheet, self.top - 1, self.title)
        row = self.cells()
        for i, f in enumerate(self.fields):
            r = self.top + i
            yield Put(Cell(self.sheet, r, 0), _heading(f.label, f.label_style, fit=True))
            yield Put(Cell(self.sheet, r, 1), f.content.at(row) if isinstance(f.content, Formula) else f.content)
            if f.note:
                yield Put(Cell(self.sheet, r, 2), Text(f.note, "note"))

    def checks(self) -> Iterator[Check]:
        for f in self.fields:
            if f.check is not None:
                yield Check(Span(self[f.key], self[f.key]), f.check)

    def uses(self) -> Iterator[Use]:
        for cite in _cites(self.cite):
            yield _use(self.sheet, cite, self.cells())


@dataclass(frozen=True)
class Column:
    """One column of a table: its header and what each row holds. ``values`` gives a row-by-row value to an Input
    or Text column (rows past it are empty); ``short``, a heading for text reports (``template build``'s)."""

    key: str
    header: str | Expr  # an Expr: a formula, e.g. a heading naming the workload's unit
    content: Content | Lifted
    check: Rule | None = None
    values: Sequence[Scalar] = ()
    short: str = ""


@dataclass(frozen=True)
class Band:
    """Where a wide table goes on below itself, each part a page wide at a readable scale: its columns from
    ``start`` (an index into the table's) under a title and header row of their own, after the table's first
    column (its key) shown again; or, with ``at``, on the first part's rows from column ``at`` (hidden helpers)."""

    start: int
    title: str | Expr | None = None
    header_height: float | None = None
    at: int | None = None


@dataclass(frozen=True)
class TableBlock(Headed):
    """A header row and ``slots`` rows under it, one column per ``Column`` from column A (or ``left``), a wide
    table going on in ``bands`` below it."""

    sheet: str
    header_row: int
    slots: int
    columns: tuple[Column, ...]
    title: str | Expr | None = None  # a section title in the row above the header
    header_height: float | None = None
    cite: Cites = None
    row_height: float | None = None  # every slot's height (points), whatever it holds later
    left: int = 0  # the first column's index (A = 0)
    bands: tuple[Band, ...] = ()

    @property
    def first(self) -> int:
        return self.header_row + 1

    @property
    def end(self) -> int:  # type: ignore[override]
        return max(head for head, _, _ in self._parts()) + self.slots

    def _parts(self) -> list[tuple[int, int, Band]]:
        """Each part's (header row, first column index) and its band: the first part, then the bands."""
        parts = [(self.header_row, self.left, Band(0, self.title, self.header_height))]
        for band in self.bands:
            below = max(head for head, _, b in parts if b.at is None) + self.slots + 3  # a blank row, the title
            parts.append((self.header_row, band.at, band) if band.at is not None else (below, self.left, band))
        return parts

    def _place(self, key: str) -> tuple[int, int]:
        """The (header row, column index) of the column ``key``: its slots are under that header."""
        j = [c.key for c in self.columns].index(key)
        head, left, band = next(p for p in reversed(self._parts()) if p[2].start <= j)
        keyed = band.start > 0 and band.at is None  # the key shown again in the band's first column
        return head, left + keyed + sum(_width(c) for c in self.columns[band.start : j])

    def col(self, key: str) -> int:
        return self._place(key)[1]

    def row(self, i: int) -> RowCells:
        """Slot ``i``'s cells, as relative references (A18)."""
        at = {c.key: self._place(c.key) for c in self.columns}
        return RowCells({k: Cell(self.sheet, h + 1 + i, j, False, False) for k, (h, j) in at.items()}, i, self.first)

    def column(self, key: str) -> Span:
        head, j = self._place(key)
        return Span(Cell(self.sheet, head + 1, j), Cell(self.sheet, head + self.slots, j))

    def ranges(self) -> dict[str, Expr]:
        """Each column's slots as a range (``$B$19:$B$91``), by key: what a ``Lifted`` column reads."""
        return {c.key: span(self.column(c.key)) for c in self.columns}

    def puts(self) -> Iterator[Put]:
        yield from self.title_puts()
        key = self.columns[0]
        for head, left, band in (p for p in self._parts()[1:] if p[2].at is None):  # the key again, as typed above
            yield section(self.sheet, head - 1, band.title or "")
            yield Put(Cell(self.sheet, head, left), _heading(key.header, "header", fit=False))
            for i in range(self.slots):
                yield Put(Cell(self.sheet, head + 1 + i, left), Formula(Expr.of(self.row(i)[key.key]), _style(key)))
        for c in self.columns:
            head, j = self._place(c.key)
            heading = _heading(c.header, "header", fit=False)
            yield Put(Cell(self.sheet, head, j), replace(heading, span=_width(c)) if _width(c) > 1 else heading)
            if isinstance(c.content, Lifted):
                whole = ArrayFormula(c.content.expr(self.ranges()), self.slots, 1, c.content.style)
                yield Put(Cell(self.sheet, head + 1, j), whole)
        for i in range(self.slots):
            row = self.row(i)
            for c in self.columns:
                if not isinstance(c.content, Lifted):
                    yield Put(row[c.key], _slot(c, i, row))

    def checks(self) -> Iterator[Check]:
        for c in self.columns:
            if c.check is not None:
                yield Check(self.column(c.key), c.check)

    def heights(self) -> Iterator[tuple[int, float]]:
        for head, _, band in self._parts():
            if band.header_height is not None:
                yield head, band.header_height
        if self.row_height is not None:
            for i in range(self.slots):
                yield self.first + i, self.row_height

    def uses(self) -> Iterator[Use]:
        for i in range(self.slots):
            row = self.row(i)
            for cite in _cites(self.cite):
                yield _use(f"{self.sheet} row {row.first + i}", cite, row)


def _width(c: Column) -> int:
    """The sheet columns a table's column takes: a formula spanning several (merged, its text wrapped) or one."""
    return c.content.span if isinstance(c.content, Formula) else 1


def _style(c: Column) -> Style:
    return "out_text" if isinstance(c.content, Stamp) else c.content.style


def _heading(text: str | Expr, style: Style, fit: bool) -> Text | Formula:
    """A label or a column's heading: its text, or the formula that makes it."""
    return Text(text, style, fit) if isinstance(text, str) else Formula(text, style, fit=fit)


def _slot(c: Column, i: int, row: RowCells) -> Content:
    content = c.content
    assert not isinstance(content, Lifted), "a Lifted column is one array formula (TableBlock.puts)"
    if isinstance(content, Formula):
        return content.at(row)
    if isinstance(content, Input) and c.values:
        return replace(content, value=c.values[i] if i < len(c.values) else None)
    if isinstance(content, Text) and c.values:
        return replace(content, text=str(c.values[i]))
    return content


@dataclass(frozen=True)
class Grid(Headed):
    """A two-way table: input values across the header row, a series down column A, and a
    formula of (row value, column value) in every other cell."""

    sheet: str
    header_row: int
    corner: str
    across: tuple[float, ...]
    across_style: Style
    across_check: Rule
    down: int
    down_first: Expr
    down_next: Callable[[Cell], Expr]  # of the cell above
    down_style: Style
    body: Callable[[Term, Term], Expr]  # of the row's value ($A19) and the column's value (B$18)
    body_style: Style
    title: str | Expr | None = None
    lifted_at: int | None = None  # the body as ONE array formula of the column ($A19:$A26) and the row
    # (B18:I18), in hidden columns from this one; each body cell shows its element (LibreOffice recalculates
    # a visible array formula on load, a plain reference shows what the file cached)

    @property
    def end(self) -> int:  # type: ignore[override]
        return self.header_row + self.down

    def across_cell(self, j: int) -> Cell:
        return Cell(self.sheet, self.header_row, 1 + j)

    def down_span(self) -> Span:
        return Span(Cell(self.sheet, self.header_row + 1, 0), Cell(self.sheet, self.end, 0))

    def body_span(self, j: int) -> Span:
        return Span(Cell(self.sheet, self.header_row + 1, 1 + j), Cell(self.sheet, self.end, 1 + j))

    def puts(self) -> Iterator[Put]:
        yield from self.title_puts()
        yield Put(Cell(self.sheet, self.header_row, 0), Text(self.corner, "header"))
        for j, value in enumerate(self.across):
            yield Put(self.across_cell(j), Input(value, self.across_style))
        for i in range(self.down):
            here = Cell(self.sheet, self.header_row + 1 + i, 0, False, False)
            first = self.down_first if i == 0 else self.down_next(replace(here, row=here.row - 1))
            yield Put(here, Formula(first, self.down_style))
            for j in range(len(self.across)):
                cell = Cell(self.sheet, here.row, 1 + j, False, False)
                if self.lifted_at is None:
                    body = self.body(here.fixed(False, True), self.across_cell(j).fixed(True, False))
                else:
                    body = Expr.of(Cell(self.sheet, here.row, self.lifted_at + j, False, False))
                yield Put(cell, Formula(body, self.body_style))
        if self.lifted_at is not None:
            down, across = self.down_span(), Span(self.across_cell(0), self.across_cell(len(self.across) - 1))
            body = self.body(span(down), span(across))
            whole = ArrayFormula(body, self.down, len(self.across), self.body_style)
            yield Put(Cell(self.sheet, self.header_row + 1, self.lifted_at), whole)

    def checks(self) -> Iterator[Check]:
        yield Check(Span(self.across_cell(0), self.across_cell(len(self.across) - 1)), self.across_check)


@dataclass(frozen=True)
class Series:
    name: str | Cell
    categories: Span
    values: Span
    options: Mapping[str, Any] = field(default_factory=dict)  # marker, fill, gap: XlsxWriter's own keys


@dataclass(frozen=True)
class Chart(Block):
    """A native chart anchored in column A of ``top``; ``end`` is the last row it covers."""

    top: int
    kind: str
    series: tuple[Series, ...]
    title: Cell
    x_axis: Mapping[str, Any]
    y_axis: Mapping[str, Any]
    legend: str
    width: int
    height: int
    gaps: Span | None = None  # hidden cells it plots, #N/A where no point (named CHART_GAPS: not errors to calc)

    @property
    def end(self) -> int:  # type: ignore[override]
        """Rows of default height the chart covers, plus one."""
        return self.top + -(-self.height // ROW_PX)


@dataclass(frozen=True)
class ArrayBlock(Block):
    """A table function's whole answer in hidden cells: ONE array formula over ``rows`` x ``cols`` cells from
    (``top``, ``left``), so that Excel calls the function once where ``INDEX(TABLE(...),r,c)`` in every cell
    called it once a cell. The formula is the block's exact size, each cell what ``IFERROR(INDEX(answer,r,c),"")``
    gives: empty text past the answer or where it is an error (never #N/A, nor a single row repeated).
    """

    sheet: str
    top: int
    left: int
    rows: int
    cols: int
    expr: Expr
    reason: bool = False  # also the answer as a plain formula under the block: an error with its reason
    reason_unless: Expr | None = None  # where this is TRUE the reason cell is empty text: its error is not shown
    skip: int = 0  # the answer's rows left out above the block (1: its header, shown by the sheet otherwise)

    @property
    def end(self) -> int:  # type: ignore[override]
        return self.top + self.rows - (0 if self.reason else 1)

    @property
    def reason_cell(self) -> Cell:
        """The answer as a plain formula shows it (its first cell, or its error with the reason)."""
        assert self.reason, "an ArrayBlock without reason=True has no reason cell"
        return Cell(self.sheet, self.top + self.rows, self.left)

    def cell(self, row: int, j: int) -> Cell:
        """The answer's column ``j`` (0-based) in Excel row ``row``, as a relative reference."""
        return Cell(self.sheet, row, self.left + j, False, False)

    def puts(self) -> Iterator[Put]:
        rows = Expr(("{" + ";".join(str(self.skip + i + 1) for i in range(self.rows)) + "}",))
        cols = Expr(("{" + ",".join(str(j + 1) for j in range(self.cols)) + "}",))
        whole = call("IFERROR", call("INDEX", self.expr, rows, cols), lit(""))
        yield Put(Cell(self.sheet, self.top, self.left), ArrayFormula(whole, self.rows, self.cols))
        if self.reason:
            first = call("INDEX", self.expr, 1, 1)  # one value, as Excel shows it
            shown = first if self.reason_unless is None else if_(self.reason_unless, lit(""), first)
            yield Put(self.reason_cell, Formula(shown))


def under(block: Block, gap: int = 1, titled: bool = True) -> int:
    """The first row of what follows ``block`` after ``gap`` blank rows (and its section title)."""
    return block.end + 1 + gap + (1 if titled else 0)
