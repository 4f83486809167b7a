"""One worksheet as the template describes it: its title, column widths, blocks, and how it prints and scrolls."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from openpyxl.utils.cell import column_index_from_string, get_column_letter

from benchsheet.templates.layout import Block, Cell, Put, TableBlock, Text, Use


@dataclass(frozen=True)
class Sheet:
    """One worksheet, described once: its title, column widths, blocks and charts."""

    name: str
    title: str
    subtitle: str
    widths: tuple[tuple[str, float], ...]  # ("B:C", 14): columns and width in characters
    blocks: tuple[Block, ...]
    purpose: str = ""  # what the sheet answers, for the Read me
    landscape: bool = True
    one_page: bool = True
    empty_row: float | None = None  # points: a row with nothing in it (a hairline: empty slots take no page)
    thin: tuple[TableBlock, ...] | None = None  # with empty_row, the tables whose empty slots alone are hairlines
    repeat_row: int | None = None  # a row printed atop every page (a long table's column headers)
    breaks_before: tuple[int, ...] = ()  # rows that start a printed page (a chart that must print whole)

    def heading(self) -> Iterator[Put]:
        """The title in A1 and what the sheet is for in A2."""
        yield Put(Cell(self.name, 1, 0), Text(self.title, "title"))
        yield Put(Cell(self.name, 2, 0), Text(self.subtitle, "subtitle"))

    def uses(self) -> Iterator[Use]:
        for b in self.blocks:
            yield from b.uses()

    def _tables(self) -> list[TableBlock]:
        """The tables a reader sees (from column A): hidden helper tables beside them are left out."""
        return [b for b in self.blocks if isinstance(b, TableBlock) and b.left == 0]

    def print_titles(self, breaks: Sequence[int], ends: Mapping[int, int] | None = None) -> int | None:
        """The row printed atop every page: ``repeat_row``, else the header row of the first table a page break
        cuts (``breaks``: the first row of each page after the first), so its rows on the next page keep their
        column headers; None where no break cuts a table. ``ends``: a table's last row that prints something, by
        its header row (a thin table's empty slots after it print nothing: a break among them cuts nothing)."""
        if self.repeat_row is not None or self.one_page:
            return self.repeat_row
        end = (ends or {}).get
        cut = (
            t
            for t in self._tables()
            for b in breaks
            if t.header_row < b <= end(t.header_row, t.end) and t.slots >= REPEATED_SLOTS
        )
        return next((t.header_row for t in cut), None)

    def frozen(self) -> tuple[int, int]:
        """(rows, columns) frozen while scrolling: column A (the labels) and the title and subtitle, or down to
        the first table's header row where it is near the top (a taller frozen block would fill the screen)."""
        heads = [t.header_row for t in self._tables() if t.header_row <= FREEZE_ROWS]
        return (heads[0] if heads else 2), 1


REPEATED_SLOTS = 20
"""The rows a table needs for its header to repeat atop the next page: a shorter one is read with its header,
and the page breaks are an estimate (a repeated header over a chart would say what is not there)."""
FREEZE_ROWS = 20
"""The most rows a sheet freezes above its scrolling part: a screen shows about 35."""


def columns_of(widths: Sequence[tuple[str, float]]) -> Iterator[tuple[str, float]]:
    """Expand ("B:C", 14) into ("B", 14), ("C", 14)."""
    for cols, width in widths:
        first, _, last = cols.partition(":")
        for i in range(column_index_from_string(first), column_index_from_string(last or first) + 1):
            yield get_column_letter(i), width
