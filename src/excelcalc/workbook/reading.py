"""Reading a workbook's package into ``WorkbookCells``: the sheets' XML to values and formulas.

``read_xml`` reads the cells present straight from each sheet's XML (shared and array formulas,
shared strings, inline text, defined names, hidden rows, filters, tables); a workbook it does not
know (a cell without its address, a date cell, a shared formula before its master) raises
``Unusual`` and is read by ``read_openpyxl`` instead, through openpyxl, to the same cells. A cell
or ``<sheetData>`` left open is refused, never skipped. The cells are found by ``sheetxml``, the
scanner the package writer uses too.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from excelcalc.backend import LARGEST, load_workbook, read_string_table
from excelcalc.workbook.cells import ComputeError, col_number
from excelcalc.workbook.sheetxml import READ_CELLS, TAG, cells_present, opens_sheet_data, sheet_data
from excelcalc.workbook.tables import openpyxl_tables, read_tables

if TYPE_CHECKING:
    from excelcalc.workbook.book import WorkbookCells

__all__ = ["Unusual", "read_openpyxl", "read_sheet", "read_xml"]


NS_STRICT = "http://purl.oclc.org/ooxml/spreadsheetml/main"  # ISO/IEC 29500-1 Strict's main namespace


class Unusual(Exception):
    """A workbook the quick reader leaves to openpyxl (a cell without its address, a date cell...)."""


_X_TAG = TAG.encode()
_X_ATTR = re.compile(rb'([\w:]+)="([^"]*)"')
_X_F = re.compile(rb"<" + _X_TAG + rb"f\b([^>]*?)(?:/>|>(.*?)</" + _X_TAG + rb"f>)", re.S)
_X_V = re.compile(rb"<" + _X_TAG + rb"v>(.*?)</" + _X_TAG + rb"v>", re.S)
_X_T = re.compile(rb"<" + _X_TAG + rb"t(?:\s[^>]*)?>(.*?)</" + _X_TAG + rb"t>", re.S)
_X_RPH = re.compile(rb"<" + _X_TAG + rb"rPh\b.*?</" + _X_TAG + rb"rPh>", re.S)
_X_REF = re.compile(r"^([A-Z]{1,3})(\d+)$")
# ECMA-376 Part 1, 22.9.2.19 (ST_Xstring): _xHHHH_ in a text is the character HHHH (_x005F_ an underscore),
# decoded in shared strings by their reader and here in inline ones
_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def _xml_text(raw: bytes) -> str:
    """The text of an element's content. The decoded text is searched for "&" and "\\r": ``in`` on
    bytes first tries its operand as an integer (300 ns a test, 8x a test on str; two per cell)."""
    text = raw.decode("utf-8")
    return html.unescape(text).replace("\r\n", "\n") if "&" in text or "\r" in text else text


def read_xml(book: WorkbookCells, path: Path, parts: dict[str, bytes] | None = None) -> None:
    """Read the cells present straight from the sheets' XML (openpyxl builds an object per cell,
    most of a calc's time on a large sheet). Anything unusual raises ``Unusual``."""
    from defusedxml import ElementTree

    from excelcalc.workbook.xlsxfile import NS_MAIN, read_package, sheet_parts

    parts = read_package(path) if parts is None else parts
    workbook = ElementTree.fromstring(parts["xl/workbook.xml"])
    if workbook.tag == f"{{{NS_STRICT}}}workbook" or workbook.get("conformance") == "strict":
        raise ComputeError(
            "refused: the workbook is saved as Strict Open XML Spreadsheet (ISO/IEC 29500 Strict), "
            "which benchsheet does not read; in Excel, File > Save As 'Excel Workbook (*.xlsx)' and compute that"
        )
    every = [sh_.get("name", "") for sh_ in workbook.iter(f"{{{NS_MAIN}}}sheet")]
    twice = sorted({name for name in every if every.count(name) > 1})
    if twice:  # the sheets read by name: the first one's cells were lost without a word
        raise ComputeError(
            f"refused: two sheets are named {twice[0]!r}; Excel allows each name once, so a reference "
            "to it is ambiguous (the file is damaged). Rename one"
        )
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
        read_sheet(book, s, parts[part], strings, f"{path}: sheet {name!r} ({part})")
    book.tables = read_tables(parts, worksheets, book.titles)
    book.count_extents()


def read_openpyxl(book: WorkbookCells, path: Path) -> None:
    """Read the workbook with openpyxl (through formulas' reader: dates stay serial numbers)."""
    from excelcalc.workbook.xlsxfile import require_defused_openpyxl

    book.clear()
    require_defused_openpyxl(path)
    wb = load_workbook(str(path))
    book.date1904 = getattr(wb, "epoch", None) is not None and wb.epoch.year == 1904
    book.titles = [ws.title for ws in wb.worksheets]
    for dn in _defined_names(wb):
        book.names[(dn[0], dn[1].upper())] = dn[2]
    for s, ws in enumerate(wb.worksheets):
        for (row, col), cell in ws._cells.items():
            book.add(s, row, col, cell.data_type, cell.value)
        book.hidden_rows |= {(s, r) for r, dim in ws.row_dimensions.items() if dim.hidden}
        if ws.auto_filter.ref or ws.tables:
            book.filtered.add(s)
        book.extent.append((0, 0))
    book.tables = openpyxl_tables(wb.worksheets)
    book.count_extents()


_X_HIDDEN_ROW = re.compile(rb"<" + _X_TAG + rb'row\b(?=[^>]*\bhidden="(?:1|true)")[^>]*?\br="(\d+)"')
_X_FILTER = re.compile(rb"<" + _X_TAG + rb"(?:autoFilter|tablePart)\b")
_SHARED_TEXTS = 10_000  # distinct formula texts of a sheet kept to share (1M of ="": 58 MB less)
_X_BROKEN = re.compile(rb"<" + _X_TAG + rb"(?:c[\s>/]|/?row\b|/?sheetData\b)")


def read_sheet(book: WorkbookCells, s: int, xml: bytes, strings: list[str], where: str) -> None:
    """The cells of one sheet. A ``<c>`` or ``<sheetData>`` left open (its end tag missing) is
    refused, never skipped."""
    from excelcalc.workbook.xlsxfile import XlsxError

    data = sheet_data(xml)
    if data is None and opens_sheet_data(xml):
        raise XlsxError(f"{where}: refused: its <sheetData> is not closed (no </sheetData>): the sheet is damaged")
    if b'hidden="' in xml:  # what each pattern needs: finding that it is absent is 15x faster
        book.hidden_rows |= {(s, int(r)) for r in _X_HIDDEN_ROW.findall(xml)}
    if (b"autoFilter" in xml or b"tablePart" in xml) and _X_FILTER.search(xml):
        book.filtered.add(s)
    # one cell's groups at a time: the list of every cell's groups was 400 bytes a cell (1M empty
    # <f/> cells: 400 MB), for 1 ms less on 15,000 cells
    cells = (m.groups(b"") for m in READ_CELLS.finditer(xml, data[1], data[2])) if data else iter(())
    read = _read_cells(book, s, cells, strings, where)
    if data is not None and read != cells_present(xml[data[0] : data[3]]):
        raise XlsxError(f"{where}: refused: a cell is not closed (no </c>): the sheet is damaged")


def _read_cells(book: WorkbookCells, s: int, cells: Iterator[tuple[bytes, ...]], strings: list[str], where: str) -> int:
    """The cells ``sheetxml.READ_CELLS`` finds in sheet ``s``, in the file's order; how many. A cell of the quick
    shape is read here as ``_read_cell`` reads it (an empty ``<f></f>`` or ``<v></v>`` too) and stored
    with ``WorkbookCells.put``, its place counted in this sheet's own dicts (a key of one int, not a
    tuple per cell), which are merged into the book's at the end: 10 ms less on 30,000 cells."""
    shared: dict[bytes, tuple[str, str]] = {}  # si -> (formula, its cell)
    columns: dict[bytes, int] = {}
    col_last: dict[int, int] = {}  # column -> last row holding a cell
    row_last: dict[int, int] = {}  # row -> last column holding a cell
    put, formula_cell = book.put, book.formula_cell
    read = 0
    texts: dict[bytes, str] = {}  # a formula written the same way in many cells: one text for them all
    for letters, digits, kind, f, _f_end, v, v_end, text, _, attrs, body in cells:  # empty: not in the cell
        read += 1
        if not letters:  # a shape the quick pattern leaves to the general one
            _read_cell(book, s, attrs, body, strings, shared, where)
            continue
        col = columns.get(letters) or columns.setdefault(letters, col_number(letters.decode()))
        row = int(digits)
        if row > col_last.get(col, 0):
            col_last[col] = row
        if col > row_last.get(row, 0):
            row_last[row] = col
        if f:  # a formula's text (never empty): its cell as ``put`` makes it, without the checks of other values
            formula = texts.get(f)
            if formula is None:
                formula = "=" + _xml_text(f)
                if len(texts) < _SHARED_TEXTS:
                    texts[f] = formula
            formula_cell((s, row, col), formula)
        elif kind == b"inlineStr":  # an empty <f></f> is no formula: the cell is its value (_formula_value)
            put((s, row, col), "s", _unescaped(_xml_text(text)))
        else:  # an empty <v></v> as _read_cell reads it: not as a missing <v>
            try:
                data_type, value = _plain_value(kind or b"n", v or (b"" if v_end else None), strings)
            except DamagedValue as exc:
                raise refuse(exc, book, s, (letters + digits).decode()) from None
            put((s, row, col), data_type, value)
    last = book.col_last
    for at, n in col_last.items():  # the general cells of this sheet are in the book's already
        if n > last.get((s, at), 0):
            last[(s, at)] = n
    rows = book.row_last.get(s)
    if rows is None:  # no cell of the general shape: this sheet's dict is the book's, not a copy
        book.row_last[s] = row_last
    else:
        for at, n in row_last.items():
            if n > rows.get(at, 0):
                rows[at] = n
    return read


def _read_cell(
    book: WorkbookCells,
    s: int,
    attrs: bytes,
    body: bytes,
    strings: list[str],
    shared: dict[bytes, tuple[str, str]],
    where: str,
) -> None:
    """One cell of any shape (attributes in any order, prefixed tags, shared or array formulas...)."""
    from excelcalc.workbook.xlsxfile import XlsxError

    fields = dict(_X_ATTR.findall(attrs))
    ref = _X_REF.match(fields.get(b"r", b"").decode())
    if ref is None:
        raise Unusual("a cell without its address")
    if b"<" in body and _X_BROKEN.search(body):
        raise XlsxError(f"{where}: refused: the cell {ref.group(0)} is not closed (no </c>): the sheet is damaged")
    row, col = int(ref.group(2)), col_number(ref.group(1))
    f = _X_F.search(body) if b"<" in body else None
    formula = _formula_value(f, ref.group(0), shared) if f is not None else None
    if isinstance(formula, _ArrayFormula) and b"cm" in fields:  # Excel 365's cell metadata: it spills
        formula = _ArrayFormula(formula.ref, formula.text, spills=True)
    if formula is not None:
        book.add(s, row, col, "f", formula)
    else:
        try:
            book.add(s, row, col, *_cell_value(fields.get(b"t", b"n"), body, strings))
        except DamagedValue as exc:
            raise refuse(exc, book, s, ref.group(0)) from None


def _formula_value(f: re.Match[bytes], here: str, shared: dict[bytes, tuple[str, str]]) -> Any:
    """The formula of a cell (its text, or an ``_ArrayFormula``); a shared formula's master is kept.
    None for an empty ``<f/>`` (or ``<f></f>``) of no other kind: no formula, the cell is its value.
    It went to openpyxl, which reads it as the formula "=" (1M such cells: 35 s and 2.28 GB, every
    one ``#VALUE!``)."""
    fattrs = dict(_X_ATTR.findall(f.group(1)))
    text = _xml_text(f.group(2) or b"")
    ftype = fattrs.get(b"t", b"normal")
    if ftype == b"shared":
        si = fattrs.get(b"si", b"")
        if text:
            shared[si] = ("=" + text, here)
            return "=" + text
        if si not in shared:
            raise Unusual("a shared formula before its master")
        from openpyxl.formula.translate import Translator

        master, origin = shared[si]
        return Translator(master, origin=origin).translate_formula(here)
    if ftype == b"array" and b"ref" in fattrs:
        return _ArrayFormula(fattrs[b"ref"].decode(), "=" + text)
    if ftype == b"normal":
        return "=" + text if text else None
    raise Unusual("a data table")


def _unescaped(text: str) -> str:
    """An inline string's text with its ``_xHHHH_`` escapes decoded (``_ESCAPE``)."""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text) if "_x" in text else text


def _cell_value(kind: bytes, body: bytes, strings: list[str]) -> tuple[str, Any]:
    """(data type, value) of a cell without a formula, as openpyxl would give them."""
    if kind == b"inlineStr":
        return "s", _unescaped("".join(_xml_text(t) for t in _X_T.findall(_X_RPH.sub(b"", body))))
    v = _X_V.search(body)
    return _plain_value(kind, v.group(1) if v else None, strings)


def _plain_value(kind: bytes, v: bytes | None, strings: list[str]) -> tuple[str, Any]:
    """(data type, value) of a cell of type ``kind`` whose ``<v>`` holds ``v`` (None: no ``<v>``)."""
    if kind == b"s":
        if v is None:
            return "s", None
        if not v.strip().lstrip(b"-").isdigit():
            raise DamagedValue(f"names the shared string {_shown(v)!r}, which is no index")
        index = int(v)
        if not 0 <= index < len(strings):  # -1 read the last string: a damaged file, never a wrong text
            raise DamagedValue(f"names shared string {index:,}, which the file does not have (it has {len(strings):,})")
        return "s", strings[index]
    if kind == b"n":
        raw = v.strip() if v is not None else b""
        if not raw:
            return "n", None
        if len(raw) <= 15 and raw.isdigit():
            return "n", int(raw)
        return "n", _double(raw)
    if kind == b"b":
        return "b", (v.strip() in (b"1", b"true")) if v is not None else None
    if kind == b"e":
        return "e", _xml_text(v) if v is not None else None
    if kind == b"str":
        return "s", _xml_text(v) if v is not None else None
    raise Unusual(f"a cell of type {kind.decode(errors='replace')}")


class DamagedValue(ValueError):
    """A cell's ``<v>`` its type cannot hold (Excel writes doubles and string indices): the file is
    damaged. ``why`` says what the cell holds; the reader names the cell (``refuse``)."""


def _shown(raw: bytes) -> str:
    shown = raw.decode(errors="replace")
    return shown if len(shown) <= 12 else shown[:8] + "..." + shown[-3:]


def _double(raw: bytes) -> float:
    """A cached ``<v>`` as the double Excel holds: a 400-digit value answered Python's
    OverflowError in the formula reading it, a 5,001-digit one Python's digit limit; one that is
    no number (``abc``, ``nan``) openpyxl's "Unable to read workbook", naming no cell."""
    try:
        x = float(raw)
    except ValueError:
        x = math.nan
    if math.isfinite(x):
        return x
    try:
        exact = Decimal(raw.decode(errors="replace"))
    except ArithmeticError:
        exact = Decimal("NaN")
    if not exact.is_finite():
        raise DamagedValue(f"is a number cell holding {_shown(raw)!r}, which is no number")
    digits = exact.adjusted() + 1
    raise DamagedValue(f"holds the number {_shown(raw)} ({digits:,} digits), past Excel's largest, {LARGEST}")


def refuse(exc: DamagedValue, book: WorkbookCells, s: int, cell: str) -> ComputeError:
    """The refusal of a damaged cell, naming it."""
    return ComputeError(f"refused: {book.titles[s]}!{cell} {exc}: the file is damaged; nothing was written")


@dataclass(frozen=True)
class _ArrayFormula:
    """An array formula as the quick reader finds it (openpyxl's ArrayFormula has the same fields),
    and whether it is a dynamic array Excel 365 spills (its cell has cell metadata, ``cm``) rather
    than one entered with Ctrl+Shift+Enter."""

    ref: str
    text: str
    spills: bool = False


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
