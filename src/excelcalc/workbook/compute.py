"""Compute every formula of an .xlsx file with benchsheet's functions, without Excel.

One engine with ``benchsheet eval`` (``benchsheet.engine``): each formula is
prepared there (its references replaced by placeholders) and parsed once per
shape, so a filled-down column of 5,000 formulas is parsed once and run 5,000
times. This module reads the cells that exist (never the declared sheet size),
resolves each reference relative to its cell, orders the formula cells by their
dependencies (no recursion: a 100,000-long chain computes) and runs them over a
plain value map. On top of that it

* never lets one bad formula stop the whole workbook: a formula that cannot be
  parsed answers ``#VALUE!``/``#NAME?`` with the reason, the rest computes;
* computes array formulas (Ctrl+Shift+Enter and Excel 365's spilled ones) over
  the range the file gives them;
* turns each answer into the value an .xlsx file caches next to its formula,
  and an error into the text the xlwings add-in shows in Excel
  (``#N/A Unknown entry 6.1-9999``);
* explains plain Excel errors that carry no reason (``=B5*(1+B7)`` with text in
  B7) from the cell's precedents, which were computed before it.
"""

from __future__ import annotations

import bisect
import functools
import html
import re
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from excelcalc.backend import (
    EMPTY,
    XlError,
    error,
    load_workbook,
    make_range,
    quiet_numpy,
    range_parts,
    read_string_table,
    reshape_as_excel,
)
from excelcalc.formula import BARE_REASONS, PLACEHOLDER, as_written, functions, prepare, program, run
from excelcalc.formula_text import normalize_formula
from excelcalc.lib import sheets as excel_refs
from excelcalc.lib.datetime import IN_1904
from excelcalc.lib.sheets import FULL
from excelcalc.textnum import text_number
from excelcalc.values import ReasonedError, plain
from excelcalc.workbook import dynamic
from excelcalc.workbook.cells import CELL as _CELL
from excelcalc.workbook.cells import (
    MAX_COL,
    MAX_ROW,
    CellKey,
    Computed,
    ErrorCode,
    col_letters,
    col_number,
    quote_sheet,
    sheet_key,
    to_shown,
)
from excelcalc.workbook.tables import NotComputed, Table, openpyxl_tables, read_tables, rewrite

__all__ = [
    "EXTERNAL",
    "CellKey",
    "ComputeError",
    "Computed",
    "ErrorCode",
    "col_letters",
    "col_number",
    "compute",
    "normalize_formula",
    "sheet_key",
    "to_shown",
]

MAX_RANGE_CELLS = 20_000  # a precedent range larger than this is not searched for a reason
MAX_RANGE = 4_000_000  # cells of one range a formula may read (after trimming to the cells present)
MAX_EDGES = 20_000_000  # dependencies between formula cells: beyond, the workbook is refused
MAX_ARRAY_CELLS = 2_000_000  # cells of array formulas' ranges (as many as a sheet may hold)
MAX_SECONDS = 600.0  # a workbook that takes longer is refused, nothing written (bounded time)
EXTERNAL = "external workbook references are not followed"
_COLS = re.compile(r"^(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})$")
_ROWS = re.compile(r"^(\$?)(\d+):(\$?)(\d+)$")
_ERROR_CODES = {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"}


# functions that read or make dates: in a workbook of the 1904 date system (serial 0 is 1904-01-01,
# Microsoft's "Date systems in Excel" page) they answer an error rather than a date 1,462 days off,
# except those that read the workbook's date system (excel_refs.IN_1904, YEARFRAC)
DATE_FUNCTIONS = frozenset(
    f"{p}{name}"
    for p in ("", "_XLFN.")
    for name in [
        "DATE",
        "DATEVALUE",
        "DATEDIF",
        "DAY",
        "DAYS",
        "DAYS360",
        "EDATE",
        "EOMONTH",
        "MONTH",
        "YEAR",
        "WEEKDAY",
        "WEEKNUM",
        "ISOWEEKNUM",
        "NETWORKDAYS",
        "NETWORKDAYS.INTL",
        "WORKDAY",
        "WORKDAY.INTL",
        "TODAY",
        "NOW",
        "TEXT",
        "VALUE",
    ]
) - frozenset(IN_1904)


class ComputeError(Exception):
    """The workbook cannot be computed at all (too many dependencies): nothing is written."""


Ref = tuple[int, int, int, int, int]  # (sheet index, r1, c1, r2, c2)
Pos = tuple[int, int, int]  # (sheet index, row, column)


@dataclass(slots=True)
class _Formula:
    pos: Pos
    text: str  # as written
    shape: tuple[int, int] = (1, 1)  # rows, columns of an array formula's range
    prog: Any = None
    refs: list[Ref] = field(default_factory=list)
    problem: ReasonedError | None = None  # a reason known before running (unknown sheet, external)
    array: bool = False  # an array formula (Ctrl+Shift+Enter, or a spilled one): no implicit intersection


class _Book:
    """The cells of a workbook that exist, by sheet index, row and column."""

    def __init__(self, path: Path, parts: dict[str, bytes] | None = None) -> None:
        self.titles: list[str] = []
        self.values: dict[Pos, Any] = {}
        self.formulas: list[_Formula] = []
        self.extent: list[tuple[int, int]] = []  # (last row, last column) holding a cell, per sheet
        self.col_last: dict[tuple[int, int], int] = {}  # (sheet, column) -> last row holding a cell
        self.row_last: dict[tuple[int, int], int] = {}  # (sheet, row) -> last column holding a cell
        self.names: dict[tuple[int | None, str], str] = {}
        self.tables: dict[str, Table] = {}  # Excel tables by name (upper case), for structured references
        self.array_cells = 0  # cells of array formulas' ranges
        self.date1904 = False  # the workbook counts days from 1904 (Excel for Mac's old default)
        self.hidden_rows: set[tuple[int, int]] = set()  # (sheet, row) of rows hidden (SUBTOTAL 101-111)
        self.filtered: set[int] = set()  # sheets with a filter or a table, which may hide rows
        try:
            _read_xml(self, path, parts)
        except (_Unusual, IndexError, ValueError, KeyError):  # what the quick reader does not know: openpyxl
            self._openpyxl(path)
        self.by_key = {sheet_key(t): i for i, t in enumerate(self.titles)}
        if len(self.by_key) < len(self.titles):  # Excel refuses such names; a file can still hold them
            seen: dict[str, str] = {}
            for t in self.titles:
                if sheet_key(t) in seen:
                    raise ComputeError(
                        f"refused: the sheets {seen[sheet_key(t)]!r} and {t!r} differ only by case; Excel reads "
                        "them as one name, so a reference to either is ambiguous. Rename one"
                    )
                seen[sheet_key(t)] = t

    def _reset(self) -> None:
        self.titles, self.values, self.formulas, self.extent = [], {}, [], []
        self.col_last, self.row_last, self.names, self.tables = {}, {}, {}, {}
        self.array_cells = 0
        self.hidden_rows, self.filtered = set(), set()

    def _openpyxl(self, path: Path) -> None:
        """Read the workbook with openpyxl (through formulas' reader: dates stay serial numbers)."""
        from excelcalc.workbook.xlsxfile import require_defused_openpyxl

        self._reset()
        require_defused_openpyxl(path)
        wb = load_workbook(str(path))
        self.date1904 = getattr(wb, "epoch", None) is not None and wb.epoch.year == 1904
        self.titles = [ws.title for ws in wb.worksheets]
        for dn in _defined_names(wb):
            self.names[(dn[0], dn[1].upper())] = dn[2]
        for s, ws in enumerate(wb.worksheets):
            for (row, col), cell in ws._cells.items():
                self.add(s, row, col, cell.data_type, cell.value)
            self.hidden_rows |= {(s, r) for r, dim in ws.row_dimensions.items() if dim.hidden}
            if ws.auto_filter.ref or ws.tables:
                self.filtered.add(s)
            self.extent.append((0, 0))
        self.tables = openpyxl_tables(wb.worksheets)
        self._extents()

    def add(self, s: int, row: int, col: int, data_type: str, value: Any) -> None:
        """One cell present in the file (a value of None: a cell with a style only)."""
        if row > self.col_last.get((s, col), 0):
            self.col_last[(s, col)] = row
        if col > self.row_last.get((s, row), 0):
            self.row_last[(s, row)] = col
        self.put((s, row, col), data_type, value)

    def put(self, pos: Pos, data_type: str, value: Any) -> None:
        """The content of a cell whose place ``col_last`` and ``row_last`` already count (``add``,
        ``_read_cells``)."""
        if value is None:
            return
        if data_type == "f":
            self._formula(pos, value)
        elif data_type == "e" and isinstance(value, str) and value.upper() in _ERROR_CODES:
            self.values[pos] = error(value.upper())
        else:  # a number as the file holds it: Excel computes with the whole double it saved (POI's
            self.values[pos] = value  # FormulaEvalTestData: FV of -17406.785214815642 to the last digit)

    def _extents(self) -> None:
        extent = [(0, 0)] * len(self.titles)
        for (s, col), row in self.col_last.items():
            r, c = extent[s]
            extent[s] = (max(r, row), max(c, col))
        self.extent = extent

    def _formula(self, pos: Pos, value: Any) -> None:
        if isinstance(value, str):
            self.formulas.append(_Formula(pos, value[1:] if value.startswith("==") else value))
            return
        text = getattr(value, "text", None)
        ref = getattr(value, "ref", None)
        if type(value).__name__ in ("ArrayFormula", "_ArrayFormula") and isinstance(text, str) and isinstance(ref, str):
            r = _area(ref)
            shape = (r[2] - r[0] + 1, r[3] - r[1] + 1) if r else (1, 1)
            self.array_cells += shape[0] * shape[1]
            if self.array_cells > MAX_ARRAY_CELLS:  # each cell of the range is computed and written
                where = f"{quote_sheet(self.titles[pos[0]])}!{col_letters(pos[2])}{pos[1]}"
                raise ComputeError(
                    f"refused: its array formulas cover more than {MAX_ARRAY_CELLS:,} cells "
                    f"(the one at {where} covers {shape[0] * shape[1]:,}); nothing was written"
                )
            self.formulas.append(_Formula(pos, text, shape, array=True))
            return
        f = _Formula(pos, "=" + type(value).__name__)
        f.problem = ReasonedError("#VALUE!", "a data table (What-If Analysis) is not computed outside Excel")
        self.formulas.append(f)

    def trimmed(self, ref: Ref) -> tuple[int, int]:
        """The last row and column of a range that can hold a cell: a whole column (A:A) or row (1:1)
        reads the cells that exist, so memory follows the cells, never the sheet's size."""
        s, r1, c1, r2, c2 = ref
        last_r, last_c = self.extent[s]
        if r2 - r1 + 1 >= MAX_ROW:
            if c2 - c1 < 1024:
                last_r = max((self.col_last.get((s, c), 0) for c in range(c1, c2 + 1)), default=0)
            r2 = max(r1, min(r2, last_r))
        if c2 - c1 + 1 >= MAX_COL:
            if r2 - r1 < 1024:
                last_c = max((self.row_last.get((s, r), 0) for r in range(r1, r2 + 1)), default=0)
            c2 = max(c1, min(c2, last_c))
        return r2, c2

    def name(self, sheet: int, text: str) -> str | None:
        key = text.upper()
        found = self.names.get((sheet, key))
        return found if found is not None else self.names.get((None, key))


class _Unusual(Exception):
    """A workbook the quick reader leaves to openpyxl (a cell without its address, a date cell...)."""


_X_TAG = rb"(?:[A-Za-z_][\w.-]*:)?"
_X_SHEETDATA = re.compile(rb"<" + _X_TAG + rb"sheetData\b[^>]*?(/>|>)")
_X_SHEETDATA_END = re.compile(rb"</" + _X_TAG + rb"sheetData>")
_X_CELL = re.compile(rb"<" + _X_TAG + rb"c\b([^>]*?)(?:/>|>(.*?)</" + _X_TAG + rb"c>)", re.S)
# the common shapes of a cell in one match: r, t and its <f>, <v> or inline text; the same span as
# _X_CELL (nothing in it can end a cell early); anything else is left to _X_CELL, tried second
_X_QUICK_CELL = (
    rb'<c r="([A-Z]{1,3})([0-9]+)"(?: s="[0-9]+")?(?: t="([A-Za-z]+)")?(?:/>|>(?:<f>([^<]+)</f>)?'
    rb'(?:<v>([^<]+)</v>|<v ?/>)?(?:<is><t(?: xml:space="preserve")?>([^<]*)</t></is>)?</c>)'
)
_X_CELLS = re.compile(_X_QUICK_CELL + rb"|" + _X_CELL.pattern, re.S)
_X_ATTR = re.compile(rb'([\w:]+)="([^"]*)"')
_X_F = re.compile(rb"<" + _X_TAG + rb"f\b([^>]*?)(?:/>|>(.*?)</" + _X_TAG + rb"f>)", re.S)
_X_V = re.compile(rb"<" + _X_TAG + rb"v>(.*?)</" + _X_TAG + rb"v>", re.S)
_X_T = re.compile(rb"<" + _X_TAG + rb"t(?:\s[^>]*)?>(.*?)</" + _X_TAG + rb"t>", re.S)
_X_RPH = re.compile(rb"<" + _X_TAG + rb"rPh\b.*?</" + _X_TAG + rb"rPh>", re.S)
_X_REF = re.compile(r"^([A-Z]{1,3})(\d+)$")


def _xml_text(raw: bytes) -> str:
    """The text of an element's content. The decoded text is searched for "&" and "\\r": ``in`` on
    bytes first tries its operand as an integer (300 ns a test, 8x a test on str; two per cell)."""
    text = raw.decode("utf-8")
    return html.unescape(text).replace("\r\n", "\n") if "&" in text or "\r" in text else text


def _read_xml(book: _Book, path: Path, parts: dict[str, bytes] | None = None) -> None:
    """Read the cells present straight from the sheets' XML (openpyxl builds an object per cell,
    most of a calc's time on a large sheet). Anything unusual raises ``_Unusual``."""
    from defusedxml import ElementTree

    from excelcalc.workbook.xlsxfile import NS_MAIN, read_package, sheet_parts

    parts = read_package(path) if parts is None else parts
    workbook = ElementTree.fromstring(parts["xl/workbook.xml"])
    every = [sh_.get("name", "") for sh_ in workbook.iter(f"{{{NS_MAIN}}}sheet")]
    props = workbook.find(f"{{{NS_MAIN}}}workbookPr")
    book.date1904 = props is not None and props.get("date1904") in ("1", "true")
    worksheets = sheet_parts(parts)
    book.titles = list(worksheets)
    index = {name: i for i, name in enumerate(book.titles)}
    for dn in workbook.iter(f"{{{NS_MAIN}}}definedName"):
        if dn.get("hidden") in ("1", "true") or not dn.text or not dn.get("name"):
            continue
        if str(dn.get("name")).lower().startswith("_xlnm."):  # print area, print titles: not for formulas
            continue
        local = dn.get("localSheetId")
        if local is None:
            book.names[(None, str(dn.get("name")).upper())] = dn.text
        elif local.isdigit() and int(local) < len(every) and every[int(local)] in index:
            book.names[(index[every[int(local)]], str(dn.get("name")).upper())] = dn.text
    strings = _shared_strings(parts)
    for s, (name, part) in enumerate(worksheets.items()):
        _read_sheet(book, s, parts[part], strings, f"{path}: sheet {name!r} ({part})")
    book.tables = read_tables(parts, worksheets, book.titles)
    book._extents()


_X_HIDDEN_ROW = re.compile(rb"<" + _X_TAG + rb'row\b(?=[^>]*\bhidden="(?:1|true)")[^>]*?\br="(\d+)"')
_X_FILTER = re.compile(rb"<" + _X_TAG + rb"(?:autoFilter|tablePart)\b")
_X_BROKEN = re.compile(rb"<" + _X_TAG + rb"(?:c[\s>/]|/?row\b|/?sheetData\b)")


def _sheet_data(xml: bytes) -> tuple[bytes, bytes] | None:
    """The sheet's first whole ``<sheetData>`` element and its content: the first start tag that
    is empty or has an end tag after it (one lazy ``.*?`` to the end tag took 55 ms on 30,000 cells)."""
    at = 0
    while (start := _X_SHEETDATA.search(xml, at)) is not None:
        if start.group(1) == b"/>":
            return start.group(0), b""
        end = _sheet_data_end(xml, start.end())
        if end is not None:
            return xml[start.start() : end[1]], xml[start.end() : end[0]]
        at = start.start() + 1
    return None


def _sheet_data_end(xml: bytes, at: int) -> tuple[int, int] | None:
    """The span of the first ``</sheetData>`` end tag from ``at``. Without a prefixed name in the
    sheet (x:sheetData), the pattern can only match the plain tag: found by ``find``, 10 ms less on
    30,000 cells (the pattern tries every "</" of the sheet)."""
    if b":sheetData" in xml:
        end = _X_SHEETDATA_END.search(xml, at)
        return end.span() if end is not None else None
    i = xml.find(b"</sheetData>", at)
    return (i, i + len(b"</sheetData>")) if i >= 0 else None


def _read_sheet(book: _Book, s: int, xml: bytes, strings: list[str], where: str) -> None:
    """The cells of one sheet. A ``<c>`` or ``<sheetData>`` left open (its end tag missing) is
    refused, never skipped."""
    from excelcalc.workbook.xlsxfile import XlsxError, cells_present

    data = _sheet_data(xml)
    if data is None and _X_SHEETDATA.search(xml):
        raise XlsxError(f"{where}: refused: its <sheetData> is not closed (no </sheetData>): the sheet is damaged")
    if b'hidden="' in xml:  # what each pattern needs: finding that it is absent is 15x faster
        book.hidden_rows |= {(s, int(r)) for r in _X_HIDDEN_ROW.findall(xml)}
    if (b"autoFilter" in xml or b"tablePart" in xml) and _X_FILTER.search(xml):
        book.filtered.add(s)
    cells = _X_CELLS.findall(data[1]) if data else []
    _read_cells(book, s, cells, strings, where)
    if data is not None and len(cells) != cells_present(data[0]):
        raise XlsxError(f"{where}: refused: a cell is not closed (no </c>): the sheet is damaged")


def _read_cells(book: _Book, s: int, cells: list[tuple[bytes, ...]], strings: list[str], where: str) -> None:
    """The cells ``_X_CELLS`` found in sheet ``s``, in the file's order. A cell of a quick shape is
    stored with ``_Book.put``, its place counted in this sheet's own dicts (a key of one int, not a
    tuple per cell), which are merged into the book's at the end: 10 ms less on 30,000 cells."""
    shared: dict[bytes, tuple[str, str]] = {}  # si -> (formula, its cell)
    columns: dict[bytes, int] = {}
    col_last: dict[int, int] = {}  # column -> last row holding a cell
    row_last: dict[int, int] = {}  # row -> last column holding a cell
    put = book.put
    for letters, digits, kind, f, v, text, attrs, body in cells:  # an empty group: not in the cell
        if not letters:  # a shape the quick pattern leaves to the general one
            _read_cell(book, s, attrs, body, strings, shared, where)
            continue
        col = columns.get(letters) or columns.setdefault(letters, col_number(letters.decode()))
        row = int(digits)
        if row > col_last.get(col, 0):
            col_last[col] = row
        if col > row_last.get(row, 0):
            row_last[row] = col
        if f:
            put((s, row, col), "f", "=" + _xml_text(f))
        elif kind == b"inlineStr":
            put((s, row, col), "s", _xml_text(text))
        else:
            data_type, value = _plain_value(kind or b"n", v or None, strings)
            put((s, row, col), data_type, value)
    for last, found in ((book.col_last, col_last), (book.row_last, row_last)):
        for at, n in found.items():  # the general cells of this sheet are in the book's already
            if n > last.get((s, at), 0):
                last[(s, at)] = n


def _read_cell(
    book: _Book, s: int, attrs: bytes, body: bytes, strings: list[str], shared: dict[bytes, tuple[str, str]], where: str
) -> None:
    """One cell of any shape (attributes in any order, prefixed tags, shared or array formulas...)."""
    from excelcalc.workbook.xlsxfile import XlsxError

    fields = dict(_X_ATTR.findall(attrs))
    ref = _X_REF.match(fields.get(b"r", b"").decode())
    if ref is None:
        raise _Unusual("a cell without its address")
    if b"<" in body and _X_BROKEN.search(body):
        raise XlsxError(f"{where}: refused: the cell {ref.group(0)} is not closed (no </c>): the sheet is damaged")
    row, col = int(ref.group(2)), col_number(ref.group(1))
    f = _X_F.search(body) if b"<" in body else None
    if f is not None:
        book.add(s, row, col, "f", _formula_value(f, ref.group(0), shared))
    else:
        book.add(s, row, col, *_cell_value(fields.get(b"t", b"n"), body, strings))


def _formula_value(f: re.Match[bytes], here: str, shared: dict[bytes, tuple[str, str]]) -> Any:
    """The formula of a cell (its text, or an ``_ArrayFormula``); a shared formula's master is kept."""
    fattrs = dict(_X_ATTR.findall(f.group(1)))
    text = _xml_text(f.group(2) or b"")
    ftype = fattrs.get(b"t", b"normal")
    if ftype == b"shared":
        si = fattrs.get(b"si", b"")
        if text:
            shared[si] = ("=" + text, here)
            return "=" + text
        if si not in shared:
            raise _Unusual("a shared formula before its master")
        from openpyxl.formula.translate import Translator

        master, origin = shared[si]
        return Translator(master, origin=origin).translate_formula(here)
    if ftype == b"array" and b"ref" in fattrs:
        return _ArrayFormula(fattrs[b"ref"].decode(), "=" + text)
    if ftype == b"normal" and text:
        return "=" + text
    raise _Unusual("a data table or an empty formula")


def _cell_value(kind: bytes, body: bytes, strings: list[str]) -> tuple[str, Any]:
    """(data type, value) of a cell without a formula, as openpyxl would give them."""
    if kind == b"inlineStr":
        return "s", "".join(_xml_text(t) for t in _X_T.findall(_X_RPH.sub(b"", body)))
    v = _X_V.search(body)
    return _plain_value(kind, v.group(1) if v else None, strings)


def _plain_value(kind: bytes, v: bytes | None, strings: list[str]) -> tuple[str, Any]:
    """(data type, value) of a cell of type ``kind`` whose ``<v>`` holds ``v`` (None: no ``<v>``)."""
    if kind == b"s":
        return "s", strings[int(v)] if v is not None else None
    if kind == b"n":
        raw = v.strip() if v is not None else b""
        if not raw:
            return "n", None
        return "n", float(raw) if b"." in raw or b"E" in raw or b"e" in raw else int(raw)
    if kind == b"b":
        return "b", (v.strip() in (b"1", b"true")) if v is not None else None
    if kind == b"e":
        return "e", _xml_text(v) if v is not None else None
    if kind == b"str":
        return "s", _xml_text(v) if v is not None else None
    raise _Unusual(f"a cell of type {kind.decode(errors='replace')}")


@dataclass(frozen=True)
class _ArrayFormula:
    """An array formula as the quick reader finds it (openpyxl's ArrayFormula has the same fields)."""

    ref: str
    text: str


def _shared_strings(parts: dict[str, bytes]) -> list[str]:
    from excelcalc.workbook.xlsxfile import shared_strings_part

    name = shared_strings_part(parts)
    if name is None:
        return []
    return read_string_table(parts[name])


def _defined_names(wb: Any) -> Iterator[tuple[int | None, str, str]]:
    """(sheet index or None for the workbook, name, what it stands for) of every defined name."""
    names = wb.defined_names
    for dn in names.values() if isinstance(names, dict) else getattr(names, "definedName", ()):
        if dn.value and not dn.hidden:
            yield None, dn.name, str(dn.value)
    for s, ws in enumerate(wb.worksheets):
        for dn in getattr(ws, "defined_names", {}).values():
            if dn.value:
                yield s, dn.name, str(dn.value)


def _area(ref: str) -> tuple[int, int, int, int] | None:
    """ "B2:C9" -> (2, 2, 9, 3): rows and columns, first and last."""
    first, _, last = ref.replace("$", "").partition(":")
    m1, m2 = _CELL.match(first), _CELL.match(last or first)
    if not m1 or not m2:
        return None
    r1, r2 = sorted((int(m1.group(4)), int(m2.group(4))))
    c1, c2 = sorted((col_number(m1.group(2)), col_number(m2.group(2))))
    return r1, c1, r2, c2


_SHEET_PREFIX = re.compile(r"^(?:'(?P<q>(?:[^']|'')*)'|(?P<s>[^'!]*))!(?P<ref>[^!]*)$")


_TWICE = re.compile(r"^(?P<sheet>'(?:[^']|'')*'|[^'!:]+)!(?P<a>[^!:]+):(?P=sheet)!(?P<b>[^!:]+)$")


def _one_sheet(text: str) -> str:
    """``S!A1:S!A2`` (both corners named with their sheet, as some programs write it) as ``S!A1:A2``."""
    m = _TWICE.match(text) if text.count("!") == 2 else None
    return f"{m.group('sheet')}!{m.group('a')}:{m.group('b')}" if m else text


def _resolve(book: _Book, home: int, text: str) -> Ref | ReasonedError:
    """A reference as written in a formula of sheet ``home`` -> (sheet, r1, c1, r2, c2)."""
    sheet = home
    text = _one_sheet(text)
    ref = text
    m = _SHEET_PREFIX.match(text)
    if m:
        name = m.group("q").replace("''", "'") if m.group("q") is not None else m.group("s")
        ref = m.group("ref")
        if "[" in name or "]" in name:
            return ReasonedError("#REF!", EXTERNAL)
        if ":" in name:
            return ReasonedError("#REF!", f"references across sheets ({name}) are not computed outside Excel")
        found = book.by_key.get(sheet_key(name))
        if found is None:
            return ReasonedError("#REF!", f"there is no sheet {name.upper()}")
        sheet = found
    elif text.startswith("[") or "!" in text:
        return ReasonedError("#REF!", EXTERNAL)
    first, colon, last = ref.partition(":")
    m1, m2 = _CELL.match(first), _CELL.match(last) if colon else None
    if m1 and (m2 or not colon):
        r1, c1 = int(m1.group(4)), col_number(m1.group(2))
        r2, c2 = (int(m2.group(4)), col_number(m2.group(2))) if m2 else (r1, c1)
    elif mc := _COLS.match(ref):
        r1, r2, c1, c2 = 1, MAX_ROW, col_number(mc.group(2)), col_number(mc.group(4))
    elif mr := _ROWS.match(ref):
        r1, r2, c1, c2 = int(mr.group(2)), int(mr.group(4)), 1, MAX_COL
    else:
        if ref.upper() in _ERROR_CODES or ref.upper() == "#REF!":
            return ReasonedError(ref.upper(), "the formula refers to a deleted cell")
        return ReasonedError("#NAME?", f"unknown name {ref}")
    r1, r2 = sorted((r1, r2))
    c1, c2 = sorted((c1, c2))
    if not (r1 >= 1 and r2 <= MAX_ROW and c1 >= 1 and c2 <= MAX_COL):
        return ReasonedError("#REF!", f"{text} is outside the sheet")
    return sheet, r1, c1, r2, c2


# A cell reference outside string literals, as a filled-down formula repeats it with other numbers
_A1 = re.compile(r"(?<![A-Za-z0-9_.\\$])(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})(?![A-Za-z0-9_(!.\\$])")
_REL = re.compile(r"\x00(\$?)(-?\d+)\x01(\$?)(-?\d+)\x00")


def _relative(text: str, row: int, col: int) -> str:
    """``text`` with each cell reference relative to (row, col), as R1C1 does (outside strings)."""
    found = _cell_references(_masked(text))
    if not found:
        return text
    out, last = [], 0
    for start, digits, end, number, col_fixed, row_fixed in found:
        c = f"${number}" if col_fixed else number - col
        r = f"${int(text[digits:end])}" if row_fixed else int(text[digits:end]) - row
        out.append(f"{text[last:start]}\x00{c}\x01{r}\x00")
        last = end
    out.append(text[last:])
    return "".join(out)


_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")
_DIGITS_AS_ZERO_ASCII = bytes.maketrans(b"123456789", b"000000000")


def _masked(text: str) -> str:
    """``text`` with every digit 0 (str.translate looks each character up in a dict: 1.5 us for a
    formula of 50 characters; bytes.translate 0.3 us)."""
    if text.isascii():
        return text.encode("ascii").translate(_DIGITS_AS_ZERO_ASCII).decode("ascii")
    return text.translate(_DIGITS_AS_ZERO)


@functools.lru_cache(maxsize=4096)
def _cell_references(masked: str) -> tuple[tuple[int, int, int, int, bool, bool], ...]:
    """Where ``_A1`` finds cell references outside strings in a formula whose digits are all 0:
    (start, start of the row digits, end, column number, $column, $row) of each. ``_A1`` reads a
    digit only as "a digit", so every formula of one shape but other rows (a filled-down column)
    has the same masked text: searched once, not once per cell."""
    found, at = [], 0
    for i, part in enumerate(masked.split('"')):
        if i % 2 == 0:
            for m in _A1.finditer(part):
                found.append(
                    (
                        at + m.start(),
                        at + m.start(4),
                        at + m.end(),
                        col_number(m.group(2)),
                        bool(m.group(1)),
                        bool(m.group(3)),
                    )
                )
        at += len(part) + 1
    return tuple(found)


def _at(meaning: str | None, row: int, col: int) -> str | None:
    """What a defined name stands for in the cell at (row, col): a file keeps a name's relative
    references (``Sheet1!B1`` without $) relative to A1, so in row 5 it reads five rows lower, and
    past the sheet's edge it wraps round as Excel's references do (PhpSpreadsheet#3673 reads them so)."""
    if meaning is None or (row, col) == (1, 1):
        return meaning

    def one(m: re.Match[str]) -> str:
        c = col_number(m.group(2)) if m.group(1) else (col_number(m.group(2)) + col - 2) % MAX_COL + 1
        r = int(m.group(4)) if m.group(3) else (int(m.group(4)) + row - 2) % MAX_ROW + 1
        return f"{m.group(1)}{col_letters(c)}{m.group(3)}{r}"

    parts = meaning.split('"')
    for i in range(0, len(parts), 2):
        parts[i] = _A1.sub(one, parts[i])
    return '"'.join(parts)


def _absolute(text: str, row: int, col: int) -> str:
    """The inverse of ``_relative`` for the cell at (row, col)."""

    def one(m: re.Match[str]) -> str:
        c = int(m.group(2)) if m.group(1) else int(m.group(2)) + col
        r = int(m.group(4)) if m.group(3) else int(m.group(4)) + row
        return f"{m.group(1)}{col_letters(c)}{m.group(3)}{r}"

    return _REL.sub(one, text)


@dataclass(frozen=True)
class _Shape:
    """What a formula shape prepares to: the same for every cell that shares it."""

    prog: Any  # Program or the ReasonedError of a formula that cannot be read
    refs: tuple[str, ...]  # references, relative (``_relative``)
    order: tuple[int | str, ...]  # the program's references: a placeholder's number, or a literal reference
    fast: tuple[_Offsets, ...] | None = None  # the references as numbers, when all are cells or ranges
    own: tuple[int, ...] | None = None  # ``order`` when every reference is one written in the formula


# sheet, then (absolute?, column or offset, absolute?, row or offset) of both corners
_Offsets = tuple[int, tuple[bool, int, bool, int], tuple[bool, int, bool, int]]
_FAST = re.compile(
    r"^(?P<prefix>(?:'(?:[^'\x00]|'')*'|[^'!\x00]*)!)?\x00(\$?)(-?\d+)\x01(\$?)(-?\d+)\x00"
    r"(?::\x00(\$?)(-?\d+)\x01(\$?)(-?\d+)\x00)?$"
)


def _offsets(book: _Book, home: int, rel: str) -> _Offsets | None:
    """A relative reference (``_relative``) as numbers; None for anything but a cell or range of a
    sheet of this book."""
    m = _FAST.match(rel)
    if not m:
        return None
    sheet = home
    if m.group("prefix"):
        found = _resolve(book, home, m.group("prefix") + "A1")
        if isinstance(found, ReasonedError):
            return None
        sheet = found[0]
    g = m.groups()
    first = (g[1] == "$", int(g[2]), g[3] == "$", int(g[4]))
    second = (g[5] == "$", int(g[6]), g[7] == "$", int(g[8])) if g[6] is not None else first
    return sheet, first, second


def _place(offsets: _Offsets, row: int, col: int) -> Ref | None:
    """The reference of ``_offsets`` for the cell at (row, col); None when it leaves the sheet."""
    sheet, first, second = offsets
    if second is first:  # a cell (``_offsets`` gives its one corner twice)
        ac, c, ar, r = first
        c = c if ac else c + col
        r = r if ar else r + row
        return (sheet, r, c, r, c) if 1 <= c <= MAX_COL and 1 <= r <= MAX_ROW else None
    (ac1, c1, ar1, r1), (ac2, c2, ar2, r2) = first, second
    c1 = c1 if ac1 else c1 + col
    r1 = r1 if ar1 else r1 + row
    c2 = c2 if ac2 else c2 + col
    r2 = r2 if ar2 else r2 + row
    if c1 > c2:
        c1, c2 = c2, c1
    if r1 > r2:
        r1, r2 = r2, r1
    if c1 < 1 or r1 < 1 or c2 > MAX_COL or r2 > MAX_ROW:
        return None
    return sheet, r1, c1, r2, c2


def _prepare(book: _Book, f: _Formula, shapes: dict[tuple[int, str], _Shape | None]) -> None:
    """Resolve the formula's references and find its program: parsed once per shape (a filled-down
    column is one shape), the references of each cell its own."""
    if f.problem is not None:
        return
    home, row, col = f.pos
    try:  # structured, 3-D and [0]! references as the A1 references they stand for
        text = rewrite(f.text, book, home, row, col)
    except NotComputed as exc:
        f.problem = exc.error
        return
    key = (home, ("{" if f.array else "") + _relative(text, row, col)) if "\x00" not in text else None
    shape = shapes.get(key) if key is not None else None
    if shape is None:
        shape = _new_shape(book, f, text, key, shapes)
        if shape is None:
            return
    if isinstance(shape.prog, ReasonedError):
        f.problem = as_written(shape.prog, f.text)
        return
    if book.date1904 and (dated := DATE_FUNCTIONS.intersection(shape.prog.functions)):
        f.problem = ReasonedError(
            "#VALUE!",
            f"{min(dated).removeprefix('_XLFN.')} in a workbook of the 1904 date system is not computed by "
            "benchsheet (its dates would be 4 years off)",
        )
        return
    placed: list[Ref | None] = [_place(o, row, col) for o in shape.fast] if shape.fast is not None else [None]
    if None in placed:
        placed = []
        for rel in shape.refs:
            r = _resolve(book, home, _absolute(rel, row, col))
            if isinstance(r, ReasonedError):
                f.problem = r
                return
            placed.append(r)
    if shape.own is not None:  # no reference from a literal text (INDIRECT("A1")): all placed
        f.prog, f.refs = shape.prog, [p for i in shape.own if (p := placed[i]) is not None]
        return
    refs: list[Ref] = []
    for i in shape.order:
        got = placed[i] if isinstance(i, int) else dynamic.resolve_text(book, home, i)  # INDIRECT("A1"), read as A1
        if isinstance(got, ReasonedError) or got is None:
            f.problem = got or ReasonedError("#REF!", "a reference outside the sheet")
            return
        refs.append(got)
    f.prog = shape.prog
    f.refs = refs


def _new_shape(
    book: _Book, f: _Formula, text: str, key: tuple[int, str] | None, shapes: dict[tuple[int, str], _Shape | None]
) -> _Shape | None:
    """Prepare and parse the formula ``text`` of ``f`` (as rewritten by ``tables.rewrite``); None
    when it cannot be (``f.problem`` says why)."""
    home, row, col = f.pos

    def meaning(name: str) -> str | None:
        found = _at(book.name(home, name), row, col)
        return None if found is None else rewrite(found, book, home, row, col, in_name=True)

    try:
        prepared = prepare(text, meaning, intersect=not f.array)
    except NotComputed as exc:  # a defined name standing for a reference that is not computed
        f.problem = exc.error
        return None
    if prepared.problem is not None:
        f.problem = prepared.problem
        return None
    prog = program(prepared.text)
    order: tuple[int | str, ...] = ()
    if not isinstance(prog, ReasonedError):
        order = tuple(_reference_order(name) for name in prog.references)
    rels = tuple(_relative(t, row, col) for t in prepared.refs)
    fast = [_offsets(book, home, rel) for rel in rels]
    own = tuple(i for i in order if isinstance(i, int))
    shape = _Shape(
        prog,
        rels,
        order,
        None if None in fast else tuple(o for o in fast if o is not None),
        own if own == order else None,
    )
    # the shortcut holds when every cell reference the pattern finds is one the engine reads
    if key is not None and key not in shapes:
        found = sum(1 for part in text.split('"')[::2] for _ in _A1.finditer(part))
        inside = sum(1 for t in prepared.refs for _ in _A1.finditer(t))
        ok = found == inside and not _A1.search(
            prepared.text.split('"', 1)[0] if '"' not in prepared.text else "".join(prepared.text.split('"')[::2])
        )
        shapes[key] = shape if ok else None
    return shape


def _reference_order(name: str) -> int | str:
    """Where a reference of a program comes from: the n-th reference of the prepared formula
    (``_BSREF3``), or a reference formulas read from a literal text itself (``INDIRECT("H47:I48")``)."""
    digits = name[len(PLACEHOLDER) :]
    return int(digits) if name.startswith(PLACEHOLDER) and digits.isdigit() else name


class _Producers:
    """Which formula produces each cell (an array formula produces its whole range)."""

    def __init__(self, book: _Book) -> None:
        self.at: dict[Pos, int] = {}
        columns: dict[tuple[int, int], list[int]] = {}
        for i, f in enumerate(book.formulas):
            s, row, col = f.pos
            if f.shape == (1, 1):  # most formulas: one cell
                self.at.setdefault(f.pos, i)
                columns.setdefault((s, col), []).append(row)
                continue
            for r in range(row, row + f.shape[0]):
                for c in range(col, col + f.shape[1]):
                    self.at.setdefault((s, r, c), i)
                    columns.setdefault((s, c), []).append(r)
        self.columns = {k: sorted(set(v)) for k, v in columns.items()}
        self.by_sheet: dict[int, list[int]] = {}
        for s, c in self.columns:
            self.by_sheet.setdefault(s, []).append(c)
        for cols in self.by_sheet.values():
            cols.sort()

    def within(self, ref: Ref) -> Iterator[int]:
        """The formulas producing cells of ``ref`` (for references made at run time)."""
        s, r1, c1, r2, c2 = ref
        if (r1, c1) == (r2, c2):
            i = self.at.get((s, r1, c1))
            if i is not None:
                yield i
            return
        cols = self.by_sheet.get(s, [])
        for c in cols[bisect.bisect_left(cols, c1) : bisect.bisect_right(cols, c2)]:
            rows = self.columns[(s, c)]
            for r in rows[bisect.bisect_left(rows, r1) : bisect.bisect_right(rows, r2)]:
                yield self.at[(s, r, c)]


def _order(book: _Book, producers: _Producers) -> tuple[list[int], set[int]]:
    """Formula indices in an order where each comes after what it reads; the set is those on
    or behind a circular reference (never computed)."""
    n = len(book.formulas)
    graph = _Graph(producers, n)
    at = producers.at
    for i, f in enumerate(book.formulas):
        seen: set[int] = set()
        for ref in f.refs:
            j = at.get(ref[:3]) if ref[1] == ref[3] and ref[2] == ref[4] else graph.range_node(ref)
            if j is not None and j not in seen:
                seen.add(j)
                graph.link(j, i)
    return _sorted(graph.succ, n)


class _Graph:
    """Which node waits for which: the formulas (0 .. n-1), one node per range a formula reads, shared
    by all its readers, and one per span of a column's formula cells (a segment tree: a range is
    the few spans that cover its rows). So a table column read from each of its 7,274 rows is
    7,274 dependencies on one node, not 7,274 squared, and a running total ``SUM($C$2:C9)`` filled
    down a column of formulas about 13 per row, not one per row above it."""

    def __init__(self, producers: _Producers, n: int) -> None:
        self.producers = producers
        self.succ: list[list[int]] = [[] for _ in range(n)]
        self.ranges: dict[Ref, int] = {}
        self.spans: dict[tuple[int, int, int, int], int] = {}  # (sheet, column, first, end) -> node
        self.edges = 0

    def link(self, before: int, after: int) -> None:
        self.succ[before].append(after)
        self.edges += 1
        if self.edges > MAX_EDGES:
            raise ComputeError(
                f"refused: its formulas depend on each other more than {MAX_EDGES:,} times "
                "(ranges over many formula cells); it would take too long to compute"
            )

    def _node(self) -> int:
        self.succ.append([])
        return len(self.succ) - 1

    def range_node(self, ref: Ref) -> int:
        """The node of a range: after every formula cell inside it."""
        j = self.ranges.get(ref)
        if j is None:
            j = self.ranges[ref] = self._node()
            s, r1, c1, r2, c2 = ref
            cols = self.producers.by_sheet.get(s, [])
            for c in cols[bisect.bisect_left(cols, c1) : bisect.bisect_right(cols, c2)]:
                rows = self.producers.columns[(s, c)]
                first, end = bisect.bisect_left(rows, r1), bisect.bisect_right(rows, r2)
                for k in self._cover((s, c), 0, len(rows), first, end):
                    self.link(k, j)
        return j

    def _cover(self, col: tuple[int, int], lo: int, hi: int, first: int, end: int) -> Iterator[int]:
        """The spans of the segment tree over the column's formula cells lo..hi that cover first..end."""
        if end <= lo or hi <= first:
            return
        if first <= lo and hi <= end:
            yield self._span(col, lo, hi)
            return
        mid = (lo + hi) // 2
        yield from self._cover(col, lo, mid, first, end)
        yield from self._cover(col, mid, hi, first, end)

    def _span(self, col: tuple[int, int], lo: int, hi: int) -> int:
        """The node after the column's formula cells lo..hi (by their order in the column)."""
        s, c = col
        if hi - lo == 1:
            return self.producers.at[(s, self.producers.columns[col][lo], c)]
        j = self.spans.get((s, c, lo, hi))
        if j is None:
            mid = (lo + hi) // 2
            left, right = self._span(col, lo, mid), self._span(col, mid, hi)
            j = self.spans[(s, c, lo, hi)] = self._node()
            self.link(left, j)
            self.link(right, j)
        return j


def _sorted(succ: list[list[int]], n: int) -> tuple[list[int], set[int]]:
    """The nodes of the graph ``succ`` in dependency order, the first ``n`` (the formulas) only; and
    the formulas left waiting (on or behind a circular reference)."""
    indeg = [0] * len(succ)
    for targets in succ:
        for j in targets:
            indeg[j] += 1
    queue = deque(i for i in range(len(succ)) if indeg[i] == 0)
    order: list[int] = []
    while queue:
        i = queue.popleft()
        if i < n:
            order.append(i)
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                queue.append(j)
    return order, {i for i in range(n) if indeg[i] > 0}


class _Runner:
    def __init__(self, book: _Book) -> None:
        self.book = book
        self.cache: dict[Ref, Any] = {}  # a range read by several formulas, built once
        self.memo: dict[tuple[Any, ...], Any] = {}
        self.sheet_ids = [f"S{s}" for s in range(len(book.titles))]  # formulas' names of the sheets
        # how many formulas still read each range: built once, kept until its last reader ran
        # (running totals, SUM($B$2:B9) filled down, read each range once: never kept)
        self.readers: dict[Ref, int] = {}
        for f in book.formulas:
            for r in f.refs:
                if r[1:3] != r[3:5]:
                    self.readers[r] = self.readers.get(r, 0) + 1

    def ranges(self, ref: Ref) -> Any:
        s, r1, c1, r2, c2 = ref
        if r1 == r2 and c1 == c2:
            return make_range(
                range_parts(self.sheet_ids[s], r1, c1, r1, c1), _one(self.book.values.get((s, r1, c1), EMPTY))
            )
        left = self.readers.get(ref, 1) - 1
        self.readers[ref] = left
        found = self.cache.pop(ref, None) if left <= 0 else self.cache.get(ref)
        if found is not None:
            return found
        r2, c2 = self.book.trimmed(ref)
        rows, cols = r2 - r1 + 1, c2 - c1 + 1
        if rows * cols > MAX_RANGE:
            raise _TooLarge(rows * cols)
        out = _blank((rows, cols))
        values = self.book.values
        if rows * cols <= len(values):
            for r in range(r1, r2 + 1):
                for c in range(c1, c2 + 1):
                    v = values.get((s, r, c), EMPTY)
                    if v is not EMPTY:
                        out[r - r1, c - c1] = v
        else:
            for (vs, r, c), v in values.items():
                if vs == s and r1 <= r <= r2 and c1 <= c <= c2:
                    out[r - r1, c - c1] = v
        parts = range_parts(f"S{s}", r1, c1, r2, c2)
        if (r2, c2) != ref[3:]:
            parts[FULL] = ref[3:]  # a whole column read as the cells present: OFFSET(A:A,...) moves all of it
        rng = make_range(parts, out)
        if left > 0:
            self.cache[ref] = rng
        return rng

    def value(self, f: _Formula) -> Any:
        s, row, col = f.pos
        memo_key: tuple[Any, ...] | None = None
        if f.shape == (1, 1) and f.prog is not None and f.prog.pure:
            # a formula that does not read its own position answers the same for the same inputs: a
            # filled-down column repeating its IDs is answered once per distinct row. A range is the
            # same input wherever it is read: its formula cells were all computed before its readers
            # (``_order``), so ``SUMIF(T[Key],[@Key],T[Amount])`` runs once per distinct key
            memo_key = _inputs(self.book.values, f)
            try:
                return self.memo[memo_key]
            except KeyError:
                pass
            except TypeError:  # an unhashable value
                memo_key = None
        try:
            refs = [self.ranges(r) for r in f.refs]
        except _TooLarge as big:
            return ReasonedError(
                "#VALUE!", f"a range of {big.cells:,} cells is more than benchsheet reads ({MAX_RANGE:,})"
            )
        here = None
        if f.prog.uses_cell:
            parts = range_parts(f"S{s}", row, col, row + f.shape[0] - 1, col + f.shape[1] - 1)
            here = make_range(parts, _blank(f.shape))
        value = run(f.prog, refs, here)
        if memo_key is not None:
            self.memo[memo_key] = value
        return value


def _inputs(values: dict[Pos, Any], f: _Formula) -> tuple[Any, ...]:
    """What a formula's answer depends on, as the key of its memo: its program, and per reference
    the type, value and reason of its cell, or the range itself (``_RangeInput``)."""
    key: list[Any] = [id(f.prog)]
    for s, r1, c1, r2, c2 in f.refs:
        if r1 == r2 and c1 == c2:
            v = values.get((s, r1, c1), EMPTY)
            key += (type(v), v, v.reason if isinstance(v, ReasonedError) else None)
        else:
            key += (_RangeInput, (s, r1, c1, r2, c2), None)
    return tuple(key)


class _RangeInput:
    """Marks a range a formula reads, in the key of its memo."""


class _TooLarge(Exception):
    def __init__(self, cells: int) -> None:
        self.cells = cells


def _blank(shape: tuple[int, int]) -> np.ndarray[Any, Any]:
    """Empty cells of a range. Not ``np.full``: numpy makes a copy of the EMPTY token that is the plain
    text "empty", which formulas then read as text (a blank cell in ``SUMPRODUCT(A1:A3*1)`` was
    #VALUE!, CONCAT wrote "empty", COUNTA counted blanks)."""
    out = np.empty(shape, dtype=object)
    out.fill(EMPTY)
    return out


def _one(v: Any) -> np.ndarray[Any, Any]:
    out = np.empty((1, 1), dtype=object)
    out[0, 0] = v
    return out


def compute(path: Path, seconds: float | None = None, parts: dict[str, bytes] | None = None) -> Computed:
    """Read ``path`` and compute every formula cell. Raises ComputeError for a workbook refused,
    also one that would take longer than ``seconds`` (default ``MAX_SECONDS``), checked inside a
    long formula too. ``parts``: the package ``read_package(path)`` gave, if read already."""
    functions()  # the catalogue is registered in the engine's function table
    with _Deadline(MAX_SECONDS if seconds is None else seconds) as deadline:
        book = _Book(Path(path), parts)
        shapes: dict[tuple[int, str], _Shape | None] = {}
        for f in book.formulas:
            try:
                _prepare(book, f, shapes)
            except Exception as exc:  # the engine's own failure on odd input: this cell says so
                f.problem = _failed(exc)
            deadline.check()
        producers = _Producers(book)
        order, circular = _order(book, producers)
        results, reasons = _run_all(book, producers, order, deadline, circular)
        return _collect(book, results, reasons, circular)


def _failed(exc: Exception) -> ReasonedError:
    return ReasonedError("#VALUE!", f"cannot compute this formula ({type(exc).__name__}: {str(exc)[:120]})")


def _run_all(
    book: _Book, producers: _Producers, order: list[int], deadline: _Deadline, circular: set[int]
) -> tuple[dict[int, Any], dict[int, str]]:
    """Every formula's answer in ``order`` (by index), and the reasons found for plain errors. A
    reference made at run time (OFFSET) may need a formula later in the order: computed first
    (``dynamic.run_on_demand``)."""
    runner = _Runner(book)
    reasons: dict[int, str] = {}
    results: dict[int, Any] = {}
    sheets = dynamic.BookSheets(book, producers, runner, results)

    def one(i: int) -> None:
        sheets.running(book.formulas[i].pos, book.formulas[i].array)
        _run_one(book, producers, runner, i, results, reasons)

    def reads(i: int) -> Iterator[int]:
        return (j for ref in book.formulas[i].refs for j in producers.within(ref))

    def in_circle(i: int) -> None:
        why = "not computed (a circular reference, through OFFSET or INDIRECT?)"
        results[i] = _store(book, book.formulas[i], ReasonedError("#VALUE!", why))

    token = excel_refs.use(sheets)
    try:
        with quiet_numpy():
            for i in order:
                if i not in results:
                    dynamic.run_on_demand(i, results, one, reads, in_circle, deadline.check, circular)
    finally:
        excel_refs.reset(token)
    return results, reasons


def _run_one(
    book: _Book, producers: _Producers, runner: _Runner, i: int, results: dict[int, Any], reasons: dict[int, str]
) -> None:
    """Formula ``i``'s answer into ``results`` (and the value map), a reason for a plain error into ``reasons``."""
    f = book.formulas[i]
    try:
        value = f.problem if f.problem is not None else runner.value(f)
        results[i] = value = _store(book, f, value)
        if isinstance(value, ReasonedError) and value.reason.endswith(REQUIRED) and f.problem is None:
            results[i] = value = book.values[f.pos] = _name_blank(book, producers, f, value)
    except Exception as exc:  # one formula never sinks the file: its cell says what failed
        results[i] = value = _store(book, f, _failed(exc))
    if (isinstance(value, XlError) and not isinstance(value, ReasonedError)) or isinstance(value, list):
        reason = _explain(book, producers, f, value, reasons)
        if reason:
            reasons[i] = reason


def _collect(book: _Book, results: dict[int, Any], reasons: dict[int, str], circular: set[int]) -> Computed:
    """The answers as ``Computed``: every cell's value, and each formula cell's cached value."""
    keys = [sheet_key(t) for t in book.titles]
    out = Computed(
        values={(keys[s], f"{col_letters(c)}{r}"): v for (s, r, c), v in book.values.items()},
        sheet_names=dict(zip(keys, book.titles, strict=True)),
    )
    for i, f in enumerate(book.formulas):
        s, row, col = f.pos
        key = (keys[s], f"{col_letters(col)}{row}")
        out.formulas[key] = f.text
        if i in circular:
            results[i] = _store(book, f, ReasonedError("#VALUE!", "not computed (a circular reference?)"))
        if f.shape == (1, 1):  # most formula cells: the key made once, the answer shown at once
            out.values[key] = v = results[i]
            if not isinstance(v, XlError | list):
                out.shown[key] = to_shown(v)  # a number or text: no error to report
            else:
                _show(out, key, v, reasons.get(i))
            continue
        out.arrays[key] = f"{key[1]}:{col_letters(col + f.shape[1] - 1)}{row + f.shape[0] - 1}"
        for r in range(row, row + f.shape[0]):
            for c in range(col, col + f.shape[1]):
                _show(out, (keys[s], f"{col_letters(c)}{r}"), book.values.get((s, r, c)), reasons.get(i))
    return out


def _show(out: Computed, key: CellKey, v: Any, reason: str | None) -> None:
    """A formula cell's cached value (and its error for the report) into ``out``; ``reason``: one
    found for a plain error."""
    if isinstance(v, list):
        v = v[0][0] if v and v[0] else None
    if isinstance(v, XlError):
        if reason and not isinstance(v, ReasonedError):
            v = ReasonedError(str(v), reason)
        out.errors[key] = v.text if isinstance(v, ReasonedError) else _bare(v)
    out.shown[key] = to_shown(v)


TOO_LONG = (
    "refused: computing it takes too long (more than {seconds:g} s: many long or distinct formulas?); "
    "nothing was written. Excel computes it; or split the workbook"
)


class _OutOfTime(BaseException):
    """Raised by the timer inside whatever runs when the time is up (not an ``Exception``: no
    formula's own error handling may take it for a cell's failure)."""


class _Deadline:
    """The time a workbook may take, for every step: checked between formulas and, where the
    process can take a timer signal (the main thread, no other timer set), inside a long one."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds
        self.before: Any = None

    def check(self) -> None:
        if time.monotonic() > self.end:
            raise ComputeError(TOO_LONG.format(seconds=self.seconds))

    def __enter__(self) -> _Deadline:
        import signal
        import threading

        if (
            hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL)[0] == 0
        ):
            self.before = signal.signal(signal.SIGALRM, self._alarm)
            signal.setitimer(signal.ITIMER_REAL, max(self.seconds, 0.001))
        return self

    @staticmethod
    def _alarm(_signum: int, _frame: object) -> None:
        raise _OutOfTime

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if self.before is not None:
            import signal

            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.before)
        if kind is _OutOfTime:
            raise ComputeError(TOO_LONG.format(seconds=self.seconds)) from None


def _bare(code: XlError) -> str:
    """An Excel error with nothing more specific known, as the report lists it."""
    reason = BARE_REASONS.get(str(code))
    return f"{code} {reason}" if reason else str(code)


def _store(book: _Book, f: _Formula, value: Any) -> Any:
    """Put a formula's answer into the value map (an array formula's over its range); the answer
    as plain Python."""
    s, row, col = f.pos
    if f.shape == (1, 1):
        answer = v = plain(value)
        if isinstance(v, list):
            v = v[0][0] if v and v[0] else EMPTY
        book.values[f.pos] = EMPTY if v is None else v
        return answer
    grid = reshape_as_excel(value, f.shape)
    for dr in range(f.shape[0]):
        for dc in range(f.shape[1]):
            v = plain(grid[dr, dc])
            book.values[(s, row + dr, col + dc)] = EMPTY if v is None else v
    return plain(grid)


def _explain(book: _Book, producers: _Producers, f: _Formula, value: Any, reasons: dict[int, str]) -> str:
    """A reason for a plain error, from the cell's precedents (computed before it; '' if none)."""
    v = value
    if isinstance(v, list):
        v = v[0][0] if v and v[0] else None
    if not isinstance(v, XlError) or isinstance(v, ReasonedError):
        return ""
    code = str(v)
    for ref in f.refs:
        s, r1, c1, r2, c2 = ref
        if (r2 - r1 + 1) * (c2 - c1 + 1) > MAX_RANGE_CELLS:
            continue
        for r in range(r1, r2 + 1):
            for c in range(c1, c2 + 1):
                p = book.values.get((s, r, c))
                if isinstance(p, ReasonedError):
                    return p.reason
                made = producers.at.get((s, r, c))
                where = f"{quote_sheet(book.titles[s])}!{col_letters(c)}{r}"
                if made is None:
                    if code == "#VALUE!" and isinstance(p, str) and not isinstance(p, XlError) and not _numeric(p):
                        return f"{where} holds the text {p[:40]!r} where a number is needed"
                    if isinstance(p, XlError):
                        return f"{where} holds the error {p}"
                elif isinstance(p, XlError) and reasons.get(made):
                    return reasons[made]
    return ""


REQUIRED = " is required"  # the reason a function gives for an argument it did not get


def _name_blank(book: _Book, producers: _Producers, f: _Formula, value: ReasonedError) -> ReasonedError:
    """``price_per_gpu_hour is required`` made here (not passed on) names the empty cell it read,
    when the formula reads exactly one empty input cell."""
    empty: list[str] = []
    for s, r1, c1, r2, c2 in f.refs:
        if (r1, c1) != (r2, c2):
            continue
        held = book.values.get((s, r1, c1))
        if isinstance(held, ReasonedError) and held.reason == value.reason:
            return value  # passed on from the cell that has it
        if (held is None or held is EMPTY or held == "") and producers.at.get((s, r1, c1)) is None:
            where = f"{quote_sheet(book.titles[s])}!{col_letters(c1)}{r1}"
            if where not in empty:
                empty.append(where)
    if len(empty) != 1:
        return value
    return type(value)(str(value), f"{value.reason}: {empty[0]} is empty")  # an AddinError stays one


def _numeric(text: str) -> bool:
    """Text the engine reads as a number ("5", " 1.5e3", "$1,000", "50%")."""
    return text_number(text) is not None
