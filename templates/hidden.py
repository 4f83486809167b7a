"""The workbook's hidden sheets, described as data: the drop-down choices (Lists) and xlwings' settings."""

from __future__ import annotations

from dataclasses import dataclass

from xlsxwriter.utility import quote_sheetname, xl_rowcol_to_cell

from benchsheet.templates.layout import Expr


@dataclass(frozen=True)
class SettingsSheet:
    """A hidden sheet of settings, one per row from A1 down: the key in column A, its value in B.

    The shape of xlwings' per-workbook configuration (the ``xlwings.conf`` sheet): its add-in reads
    A1 down to the last filled cell of A (``Config.bas``, ``GetConfigFromSheet``); the note goes to
    column D, outside the settings.
    """

    name: str
    settings: tuple[tuple[str, str], ...]
    note: str


@dataclass(frozen=True)
class ListsSheet:
    """The hidden sheet of drop-down choices: one column per named list, its header in row 1."""

    name: str
    columns: tuple[tuple[str, str], ...]  # (header, list name)
    note: str
    first: int = 2  # the Excel row of each list's first choice

    def ref(self, source: str, rows: int = 1000) -> Expr:
        """List ``source``'s column (``rows`` rows from its first choice) as a formula's range."""
        return Expr((self.span(source, rows)[1:],))

    def span(self, source: str, count: int) -> str:
        """The formula of the range holding ``count`` choices of list ``source``."""
        j = [name for _, name in self.columns].index(source)
        rows = (self.first - 1, self.first - 2 + max(count, 1))
        first, last = (xl_rowcol_to_cell(row, j, True, True) for row in rows)
        return f"={quote_sheetname(self.name)}!{first}:{last}"  # A2:A2 for one choice, not A2
