"""Sheet descriptions to an .xlsx file, with XlsxWriter.

The writer knows formats, page setup and how each kind of content, check and chart is written;
what goes where comes from the descriptions (``sheets/``). Given the computed values of a
draft, each formula is written with its value cached.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import xlsxwriter
from xlsxwriter.utility import quote_sheetname, xl_col_to_name, xl_range, xl_range_abs

from benchsheet import __version__
from benchsheet.templates.hidden import ListsSheet, SettingsSheet
from benchsheet.templates.layout import (
    CHART_GAPS,
    ROW_PX,
    ArrayFormula,
    Cell,
    Chart,
    Check,
    Content,
    Formula,
    FormulaRule,
    Input,
    ListRule,
    NumberRule,
    Series,
    Span,
    Text,
)
from benchsheet.templates.worksheet import Sheet, columns_of
from excelcalc.formula_text import cell_text
from excelcalc.workbook.cells import Computed
from excelcalc.workbook.rows import ONE_LINE, text_height

Choices = Mapping[str, Sequence[str]]  # list name -> drop-down choices

FONT, FONT_SIZE = "Arial", 10
DEFAULT_WIDTH = 8.43  # characters, a column XlsxWriter leaves alone
RED_TEXT_SPAN = xl_range(0, 0, 199, 25)  # cells whose text starts with "#" (an error's) show red
A4 = 9
A4_LONG, A4_SHORT = 842.0, 595.0  # points
MARGIN_SIDE, MARGIN_END = 0.4 * 72, 0.5 * 72  # points: left and right; top and bottom
DEFAULT_ROW = 15.0  # points: the height XlsxWriter gives a row it is told nothing of
_INPUT = {"bg_color": "#FFF2CC", "border": 1, "border_color": "#BF9000", "locked": False, "valign": "top"}
# A number format ends in "_)": a space as wide as ")" on the right, so a right-aligned number
# never touches the left-aligned text in the next cell ("$3.6012 months")
FORMATS: dict[str, dict[str, Any]] = {
    "plain": {"valign": "top"},
    "title": {"bold": True, "font_size": 14, "font_color": "#1F3864"},
    "subtitle": {"italic": True, "font_color": "#595959"},
    "section": {"bold": True, "font_color": "#1F3864", "bottom": 1},
    "label": {"valign": "top"},
    "note": {"italic": True, "font_color": "#7F7F7F", "valign": "top"},
    "note_right": {"italic": True, "font_color": "#7F7F7F", "valign": "top", "align": "right"},
    "wrap": {"text_wrap": True, "valign": "top"},
    "cite": {"text_wrap": True, "valign": "top", "font_size": 8},
    "header": {"bold": True, "bg_color": "#D9E1F2", "border": 1, "text_wrap": True, "valign": "top"},
    "error": {"font_color": "#C00000"},
    "in_text": dict(_INPUT),
    "in_int": {**_INPUT, "num_format": "#,##0_)"},
    "in_money": {**_INPUT, "num_format": "$#,##0.00_)"},
    "in_pct": {**_INPUT, "num_format": "0%_)"},
    "in_num": {**_INPUT, "num_format": "#,##0.0##_)"},
    "in_money0": {**_INPUT, "num_format": "$#,##0_)"},
    "in_ratio": {**_INPUT, "num_format": '0.0##"x"_)'},
    "out_text": {"valign": "top"},
    "out_left": {"valign": "top", "align": "left"},
    "out_wrap": {"text_wrap": True, "valign": "top"},
    "out_int": {"num_format": "#,##0_)", "valign": "top"},
    "out_num": {"num_format": "#,##0.0_)", "valign": "top"},
    "out_num2": {"num_format": "#,##0.00_)", "valign": "top"},
    "out_money": {"num_format": "$#,##0.00_)", "valign": "top"},
    "out_money3": {"num_format": "$#,##0.000_)", "valign": "top"},
    "out_money0": {"num_format": "$#,##0_)", "valign": "top"},
    "out_ratio": {"num_format": "0.000_)", "valign": "top"},
    "out_pct": {"num_format": "0%_)", "valign": "top"},
    "out_pct1": {"num_format": "0.0%_)", "valign": "top"},
    "out_verdict": {"bold": True, "valign": "top"},
    "out_bold_money3": {"num_format": "$#,##0.000_)", "bold": True, "valign": "top"},
    "subtitle_wrap": {"italic": True, "font_color": "#595959", "text_wrap": True, "valign": "top"},
    "note_wrap": {"italic": True, "font_color": "#7F7F7F", "valign": "top", "text_wrap": True},
}
RUN_ON = {"subtitle": "subtitle_wrap", "note": "note_wrap"}
"""Styles of a line in column A that runs on over the empty cells to its right, and their wrapped forms."""


PRINT_SLACK = 0.81
"""A sheet with page breaks prints at this share of the scale at which its columns fill the page by Excel's widths
(``column_pixels``): LibreOffice 7.4 draws the same columns about 21% wider (TCO's A:K fill a landscape page
at 86% by Excel's widths; LibreOffice fits them at 71%, and at 74% puts column K on pages of its own)."""


class WorkbookWriter:
    """The workbook being written: its formats, the drop-down choices and the computed draft."""

    def __init__(self, target: Any, choices: Choices, computed: Computed | None, built: str) -> None:
        self.wb = xlsxwriter.Workbook(
            target,
            {
                "strings_to_numbers": False,
                "strings_to_formulas": False,
                # Arial: Liberation Sans, its metric twin, ships with LibreOffice, so layouts match
                "default_format_properties": {"font_name": FONT, "font_size": FONT_SIZE},
                "default_row_height": ROW_PX,
            },
        )
        self.choices, self.computed, self.built = choices, computed, built
        self.gaps: list[Span] = []  # the charts' gap cells, named CHART_GAPS once every sheet is written
        self.formats = {name: self.wb.add_format(spec) for name, spec in FORMATS.items()}
        # Show the cached values on open: no full recalculation on load (which, in Excel without the
        # add-in, would turn every benchsheet function into #NAME?), and a current calc engine ID.
        self.wb.calc_on_load = False
        self.wb.set_calc_mode("auto", calc_id=191029)

    def value(self, cell: Cell) -> Any:
        return None if self.computed is None else self.computed.shown_value(cell.sheet, cell.a1)


class SheetWriter:
    """Writes one described sheet: cells with formats and cached values, checks, charts, page setup."""

    def __init__(self, book: WorkbookWriter, sheet: Sheet) -> None:
        self.book, self.sheet = book, sheet
        self.ws: Any = book.wb.add_worksheet(sheet.name)
        self.formulas = 0
        self.widths = dict(columns_of(sheet.widths))  # column letter -> width in characters
        self.heights: dict[int, float] = {}  # Excel row -> height in points
        self.written: set[Cell] = set()
        self.shown: dict[int, float] = {}  # Excel row -> the largest font size of a cell that shows something
        self.last_row, self.last_col = 1, 0  # the printed area's far corner (Excel row, column index)
        self.run_on: list[tuple[int, str, str]] = []  # (row, text, style) of a line that runs on to the right

    def write(self, lists: ListsSheet) -> int:
        """Write everything the description holds; returns the number of formulas."""
        for cols, width in self.sheet.widths:  # width 0: a hidden column (helper cells)
            self.ws.set_column(cols if ":" in cols else f"{cols}:{cols}", width, None, {"hidden": width == 0})
        for p in self.sheet.heading():
            self.put(p.cell, p.content)
        for block in self.sheet.blocks:
            for p in block.puts():
                self.put(p.cell, p.content)
            for check in block.checks():
                self.check(check, lists)
            for row, points in block.heights():
                self.height(row, points)
            if isinstance(block, Chart):
                self.chart(block)
        self.finish()
        return self.formulas

    def fmt(self, style: str) -> Any:
        return self.book.formats[style]

    def put(self, cell: Cell, content: Content) -> None:
        if cell.abs in self.written:
            raise ValueError(f"{cell.sheet}!{cell.a1} is described twice")
        self.written.add(cell.abs)
        self._reach(cell.row, cell.col, cell.col)
        row, col, ws = cell.row - 1, cell.col, self.ws
        if isinstance(content, ArrayFormula):
            self._array(cell, content)
        elif isinstance(content, Formula):
            assert not callable(content.expr), "a block resolves its formulas"
            value = self.book.value(cell)
            if content.span > 1:  # one cell over several columns: merged, its text wraps across them
                self._merge(cell, content.span, self.fmt(content.style))
            ws.write_formula(row, col, "=" + content.expr.render(cell.sheet), self.fmt(content.style), value)
            self.formulas += 1
            if content.fit:
                self._fit(cell, value, content.style, content.span)
            self._shows(cell, value, content.style)
        elif isinstance(content, Input):
            _write_input(ws, row, col, content.value, self.fmt(content.style))
            self._shows(cell, content.value, content.style)
        else:
            text = content.text if isinstance(content, Text) else f"benchsheet {__version__}, {self.book.built}"
            if isinstance(content, Text) and content.span > 1:  # a heading over a table column of merged cells
                self._merge(cell, content.span, self.fmt(content.style))
            ws.write_string(row, col, text, self.fmt(content.style))
            if col == 0 and content.style in RUN_ON:
                self.run_on.append((cell.row, text, content.style))
            self._shows(cell, text, content.style)
            if not isinstance(content, Text) or content.fit:
                self._fit(cell, text, content.style, content.span if isinstance(content, Text) else 1)

    def _array(self, cell: Cell, content: ArrayFormula) -> None:
        """One array formula over its range: the range's other cells are its, not described elsewhere."""
        last_row, last_col = cell.row + content.rows - 1, cell.col + content.cols - 1
        for r in range(cell.row, last_row + 1):
            for c in range(cell.col, last_col + 1):
                if (r, c) != (cell.row, cell.col):
                    other = Cell(cell.sheet, r, c)
                    if other in self.written:
                        raise ValueError(f"{cell.sheet}!{other.a1} is described twice")
                    self.written.add(other)
                shown = self.book.value(Cell(cell.sheet, r, c))
                self._fit(Cell(cell.sheet, r, c), shown, content.style)  # each cell shows one value of the block
                self._shows(Cell(cell.sheet, r, c), shown, content.style)
        self._reach(last_row, cell.col, last_col)
        formula = "{=" + content.expr.render(cell.sheet) + "}"
        first, last = (cell.row - 1, cell.col), (last_row - 1, last_col)
        value = self.book.value(cell)  # the range's other cells get theirs when the values are cached (rewrite)
        self.ws.write_array_formula(*first, *last, formula, self.fmt(content.style), 0 if value is None else value)
        self.formulas += 1

    def _reach(self, row: int, first_col: int, last_col: int) -> None:
        """The printed area reaches ``row`` and the last shown column of ``first_col..last_col``: a hidden
        column (helper cells) prints nothing, so the area ends where the shown ones do."""
        self.last_row = max(self.last_row, row)
        shown = [c for c in range(first_col, last_col + 1) if self.widths.get(xl_col_to_name(c)) != 0]
        if shown:
            self.last_col = max(self.last_col, shown[-1])

    def _shows(self, cell: Cell, value: Any, style: str) -> None:
        if value is not None and value != "" and self.widths.get(xl_col_to_name(cell.col)) != 0:  # not hidden
            size = float(FORMATS[style].get("font_size", FONT_SIZE))
            self.shown[cell.row] = max(size, self.shown.get(cell.row, 0.0))

    def height(self, row: int, points: float) -> None:
        self.heights[row] = max(points, self.heights.get(row, 0.0))

    def _merge(self, cell: Cell, span: int, fmt: Any) -> None:
        """Merge ``cell`` with the ``span - 1`` cells to its right (the formula is written into the first)."""
        for c in range(cell.col + 1, cell.col + span):
            other = Cell(cell.sheet, cell.row, c)
            if other in self.written:
                raise ValueError(f"{cell.sheet}!{other.a1} is described twice")
            self.written.add(other)
        self.last_col = max(self.last_col, cell.col + span - 1)
        self.ws.merge_range(cell.row - 1, cell.col, cell.row - 1, cell.col + span - 1, "", fmt)

    def _fit(self, cell: Cell, value: Any, style: str, span: int = 1) -> None:
        """Make a wrapped cell's row tall enough for its text (neither Excel nor LibreOffice does on open); a
        merged cell's text wraps across the ``span`` columns it covers."""
        spec = FORMATS[style]
        if not spec.get("text_wrap") or not isinstance(value, str) or not value:
            return
        width = sum(self.widths.get(xl_col_to_name(c), DEFAULT_WIDTH) for c in range(cell.col, cell.col + span))
        if width == 0:  # a hidden column shows nothing
            return
        needed = text_height(value, width, float(spec.get("font_size", FONT_SIZE)), FONT_SIZE)
        if needed is not None:
            self.height(cell.row, needed)

    def check(self, check: Check, lists: ListsSheet) -> None:
        rule, span = check.rule, check.span.a1()
        if isinstance(rule, ListRule):
            source = rule.source
            choices = list(source) if isinstance(source, tuple) else lists.span(source, len(self.book.choices[source]))
            self.ws.data_validation(span, _list_options(rule, choices))
        elif isinstance(rule, FormulaRule):
            first = check.span.first.fixed(False, False)
            formula = "=" + rule.formula(first).render(first.sheet)
            self.ws.data_validation(span, {"validate": "custom", "value": formula, "error_message": rule.message})
        else:
            self.ws.data_validation(span, _number_options(rule))

    def chart(self, c: Chart) -> None:
        chart = self.book.wb.add_chart({"type": c.kind})
        for s in c.series:
            if isinstance(s.name, Cell) and self.book.computed is not None and self.book.value(s.name) == "":
                continue  # a series whose name is empty plots a slot nothing fills: left out
            chart.add_series(_series(s))
        chart.set_title({"name": _cell_ref(c.title), "name_font": {"size": 11}})
        chart.set_x_axis(dict(c.x_axis))
        chart.set_y_axis(dict(c.y_axis))
        chart.set_legend({"position": c.legend})
        chart.set_size({"width": c.width, "height": c.height})
        if c.gaps is not None:  # the plotted values are hidden helpers, #N/A where a point has none
            chart.show_hidden_data()
            self.book.gaps.append(c.gaps)
        self.ws.insert_chart(c.top - 1, 0, chart)
        self.last_row = max(self.last_row, c.end)
        self.last_col = max(self.last_col, self.columns_covering(c.width))

    def _wrap_long_lines(self) -> None:
        """A subtitle or note in column A longer than the printed width would be cut at the page's edge: it is
        merged across the printed columns and wrapped there, its row as tall as its lines (where the row holds
        nothing else)."""
        cols = range(self.last_col + 1)
        width = sum(self.widths.get(xl_col_to_name(c), DEFAULT_WIDTH) for c in cols)
        for row, text, style in self.run_on:
            size = float(FORMATS[style].get("font_size", FONT_SIZE))
            needed = text_height(text, width, size, FONT_SIZE)
            taken = (Cell(self.sheet.name, row, c) for c in cols[1:])
            if needed is None or any(c in self.written or c.abs in self.written for c in taken):
                continue
            self.ws.merge_range(row - 1, 0, row - 1, self.last_col, text, self.fmt(RUN_ON[style]))
            self.height(row, needed)

    def _thin_slots(self) -> dict[int, range]:
        """The slot rows of the sheet's thin tables (an empty one a hairline), by the table's header row."""
        return {t.header_row: range(t.first, t.end + 1) for t in self.sheet.thin or ()}

    def _kept_rows(self) -> Iterator[int]:
        """Where only thin tables' empty slots are hairlines: every other row, which keeps a line's height (a gap
        between blocks, a blank input slot) where it has none of its own."""
        if self.sheet.thin is not None:
            slots = {row for rows in self._thin_slots().values() for row in rows}
            yield from (row for row in range(1, self.last_row + 1) if row not in slots and row not in self.heights)

    def page_breaks(self) -> list[int]:
        """The first row of each printed page after the first, as the page setup below prints the sheet: A4, the
        margins set, one page wide (the scale that takes), rows of the heights set (15 points, or the sheet's
        empty row, where none is). An estimate: Excel and LibreOffice round the scale and break a little apart."""
        tall = A4_SHORT if self.sheet.landscape else A4_LONG
        scale = self.print_scale() / 100 if self.sheet.breaks_before else self.width_scale()
        page, default = (tall - 2 * MARGIN_END) / scale, self.sheet.empty_row or DEFAULT_ROW
        breaks, used = [], 0.0
        for row in range(1, self.last_row + 1):
            height = self.heights.get(row, default)
            if used + height > page or row in self.sheet.breaks_before:
                breaks.append(row)
                used = 0.0
            used += height
        return breaks

    def width_scale(self) -> float:
        """The scale at which the printed columns fill the page's width by Excel's widths (1 where they fit)."""
        wide = A4_LONG if self.sheet.landscape else A4_SHORT
        pixels = sum(column_pixels(self.widths.get(xl_col_to_name(c), DEFAULT_WIDTH)) for c in range(self.last_col + 1))
        return min(1.0, (wide - 2 * MARGIN_SIDE) / (pixels * 0.75))

    def print_scale(self) -> int:
        """The print scale (a whole percent) of a sheet with page breaks: its columns one page wide in Excel and
        in LibreOffice (PRINT_SLACK)."""
        return max(10, int(self.width_scale() * PRINT_SLACK * 100))

    def columns_covering(self, pixels: int) -> int:
        """The index of the column where ``pixels`` from column A's left edge end."""
        col, edge = 0, column_pixels(self.widths.get("A", DEFAULT_WIDTH))
        while edge < pixels:
            col += 1
            edge += column_pixels(self.widths.get(xl_col_to_name(col), DEFAULT_WIDTH))
        return col

    def finish(self) -> None:
        """Red text for errors, protection (inputs stay editable), one page wide when printed."""
        ws = self.ws
        ws.conditional_format(
            RED_TEXT_SPAN, {"type": "text", "criteria": "begins with", "value": "#", "format": self.fmt("error")}
        )
        self._wrap_long_lines()
        if self.sheet.empty_row is not None:  # every row that shows something gets its own height
            ws.set_default_row(self.sheet.empty_row)
            for row, size in self.shown.items():  # a line of the sheet's font: the height its other rows have
                self.height(row, ONE_LINE if size <= FONT_SIZE else size * 1.25 + 2.5)
            for row in self._kept_rows():
                self.height(row, ONE_LINE)
        for row, points in self.heights.items():
            ws.set_row(row - 1, points)
        ws.protect("", {"format_columns": True, "format_rows": True})
        if self.sheet.landscape:
            ws.set_landscape()
        ws.set_paper(A4)
        # the printed area is what the description holds: a long text spilling to the right of the
        # last column (an error's reason) is cut at its edge and never shrinks the page
        ws.print_area(0, 0, self.last_row - 1, self.last_col)
        if self.sheet.breaks_before:  # "fit to pages" overrides manual page breaks in Excel (XlsxWriter's docs)
            ws.set_print_scale(self.print_scale())
            ws.set_h_pagebreaks([row - 1 for row in self.sheet.breaks_before])  # xlsxwriter: the break under a row
        else:
            ws.fit_to_pages(1, 1 if self.sheet.one_page else 0)
        ends = {
            head: max((r for r in rows if r in self.shown), default=head) for head, rows in self._thin_slots().items()
        }
        titles = self.sheet.print_titles([] if self.sheet.one_page else self.page_breaks(), ends)
        if titles is not None:
            ws.repeat_rows(titles - 1)
        ws.freeze_panes(*self.sheet.frozen())
        ws.set_margins(left=MARGIN_SIDE / 72, right=MARGIN_SIDE / 72, top=MARGIN_END / 72, bottom=MARGIN_END / 72)
        if not self.sheet.landscape:
            ws.set_portrait()


def _write_input(ws: Any, row: int, col: int, value: str | float | None, fmt: Any) -> None:
    if value is None or value == "":
        ws.write_blank(row, col, None, fmt)
    elif isinstance(value, str):
        ws.write_string(row, col, value, fmt)
    else:
        ws.write_number(row, col, value, fmt)


def _list_options(rule: ListRule, source: str | list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {"validate": "list", "source": source}
    if rule.message:  # lenient: other values are read another way
        options.update(error_type="information", error_title=rule.title, error_message=rule.message)
    else:
        options.update(
            error_title="Not in the list", error_message=f"Pick {_article(rule.what)} {rule.what} from the list."
        )
    return options


def _article(noun: str) -> str:
    return "an" if noun[:1].lower() in "aeiou" else "a"


def _number_options(rule: NumberRule) -> dict[str, Any]:
    options: dict[str, Any] = {"validate": "integer" if rule.whole else "decimal", "ignore_blank": True}
    if rule.high is None:
        options.update(criteria=">=", value=rule.low, error_message=f"Enter a number >= {rule.low:g}.")
    else:
        options.update(
            criteria="between",
            minimum=rule.low,
            maximum=rule.high,
            error_message=f"Enter a number from {rule.low:g} to {rule.high:g}.",
        )
    return options


def _cell_ref(cell: Cell) -> list[Any]:
    return [cell.sheet, cell.row - 1, cell.col]


def _series(s: Series) -> dict[str, Any]:
    name = _cell_ref(s.name) if isinstance(s.name, Cell) else s.name
    return {"name": name, "categories": s.categories.chart_ref(), "values": s.values.chart_ref(), **s.options}


def column_pixels(width: float) -> int:
    """A column of ``width`` characters in pixels, as XlsxWriter and Excel size it (Arial 10)."""
    return 0 if width == 0 else int(width * 7 + 0.5) + 5


def write_lists(book: WorkbookWriter, lists: ListsSheet) -> None:
    """The hidden sheet the drop-down lists point at."""
    ws = book.wb.add_worksheet(lists.name)
    for col, (title, name) in enumerate(lists.columns):
        ws.write_string(lists.first - 2, col, title, book.formats["header"])
        for i, v in enumerate(book.choices[name]):
            ws.write_string(lists.first - 1 + i, col, cell_text(v))  # names from results files: never a formula
    ws.write_string(lists.first - 2, len(lists.columns) + 1, lists.note)
    ws.protect("")
    ws.hide()


def write_settings(book: WorkbookWriter, settings: SettingsSheet) -> None:
    """The hidden sheet of settings (xlwings.conf): not protected, so a user can add a module."""
    ws = book.wb.add_worksheet(settings.name)
    for row, (key, value) in enumerate(settings.settings):
        ws.write_string(row, 0, key)
        ws.write_string(row, 1, value)
    ws.write_string(0, 3, settings.note)
    ws.hide()


def write_workbook(
    target: Any,
    sheets: Sequence[Sheet],
    lists: ListsSheet,
    choices: Choices,
    computed: Computed | None,
    built: str,
    properties: Mapping[str, str],
    settings: SettingsSheet | None = None,
) -> int:
    """Write the described sheets to ``target`` (a path or a binary file); returns the number of formulas."""
    book = WorkbookWriter(target, choices, computed, built)
    book.wb.set_properties({**properties, "author": f"benchsheet {__version__}"})
    writers = [SheetWriter(book, sheet) for sheet in sheets]
    count = sum(w.write(lists) for w in writers)
    write_lists(book, lists)
    if settings is not None:
        write_settings(book, settings)
    if book.gaps:
        areas = ",".join(
            f"{quote_sheetname(g.first.sheet)}!{xl_range_abs(g.first.row - 1, g.first.col, g.last.row - 1, g.last.col)}"
            for g in book.gaps
        )
        book.wb.define_name(CHART_GAPS, f"={areas}")
    writers[0].ws.activate()
    book.wb.close()
    return count
