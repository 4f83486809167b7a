"""Excel tables, structured references and 3-D references, rewritten as ordinary A1 references.

A formula may name a table's parts instead of cells (``DeptSales[[#This Row],[Sales Amount]]``,
``Table1[#Totals]``, ``[@Qty]``), a cell on every sheet from one to another
(``SUM(Jan:Mar!B2)``), or a name of its own workbook as ``[0]!Rate``. Each is rewritten here into
the A1 references it stands for (``Sheet1!$C$2:$C$7``, ``Sheet1!$C5``, ``Jan!B2,Feb!B2,Mar!B2``,
``Rate``) before the formula reaches the engine, so the engine, the order of the cells and the
dependency graph only ever see ordinary references. The tables come from the package
(``xl/tables/tableN.xml``, related to the sheet that holds them), as Microsoft's "Using
structured references with Excel tables" page describes them: a header row unless
``headerRowCount="0"``, ``totalsRowCount`` totals rows (``totalsRowShown`` only says whether one
was ever shown), the columns named as their headers (``_x000a_`` is a line break).

What cannot be rewritten as Excel reads it raises ``NotComputed`` with an error naming it;
what Excel itself answers with an error (``[#Totals]`` of a table without a totals row: #REF!,
``[@Qty]`` in a row outside the table: #VALUE!) becomes that error in the formula.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from excelcalc.formula_text import tokenizer
from excelcalc.values import ReasonedError
from excelcalc.workbook.cells import col_letters, col_number, quote_sheet, sheet_key

__all__ = ["ExcelTable", "NotComputed", "openpyxl_tables", "read_tables", "rewrite"]

_NS_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_NS_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")  # an OOXML string's escaped character (_x000a_: line feed)
_AREA = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+):\$?([A-Za-z]{1,3})\$?(\d+)$")
# something a rewrite may concern: a bracket, a sheet range (Jan:Mar!, 'Jan 1:Mar 1'!)
_MAY = re.compile(r"\[|[\w.]:[\w.]+!|:(?:[^'\"]|'')*'!")  # '' is a quote in a sheet name: 'Q''1:Q''2'!A1
_STRUCTURED = re.compile(r"^(?P<table>[^\[\]!:'\"]*)\[(?P<spec>.*)\]$", re.S)
_THREE_D = re.compile(r"^(?:'(?P<q>(?:[^']|'')*:(?:[^']|'')*)'|(?P<a>[^'!:\[\]]+):(?P<b>[^'!:\[\]]+))!(?P<ref>[^!]+)$")
_ITEMS = ("#ALL", "#DATA", "#HEADERS", "#TOTALS", "#THIS ROW")
# Microsoft's "Create a 3-D reference to the same cell range on multiple worksheets": the functions
# that take one (each sheet's cells are one more argument, so the rewrite keeps their answer)
THREE_D_FUNCTIONS = frozenset(
    "SUM AVERAGE AVERAGEA COUNT COUNTA MAX MAXA MIN MINA PRODUCT STDEV STDEVA STDEVP STDEVPA "  # noqa: SIM905
    "STDEV.S STDEV.P VAR VARA VARP VARPA VAR.S VAR.P".split()
)


class NotComputed(Exception):
    """A reference that is not rewritten as Excel reads it: the cell answers ``error``."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.error = ReasonedError(code, reason)


@dataclass(frozen=True)
class ExcelTable:
    """One Excel table: its name, where it is, its header and totals rows and its columns."""

    name: str
    sheet: int
    r1: int
    c1: int
    r2: int
    c2: int
    headers: int  # header rows (0 or 1)
    totals: int  # totals rows (0 or 1)
    columns: tuple[str, ...]

    def column(self, name: str) -> int:
        """The sheet column of the table column ``name`` (compared as Excel does, case aside)."""
        wanted = name.casefold()
        for i, have in enumerate(self.columns):
            if have.casefold() == wanted:
                return self.c1 + i
        raise NotComputed("#REF!", f"the table {self.name} has no column {name!r}")

    def holds(self, sheet: int, row: int, col: int) -> bool:
        return sheet == self.sheet and self.r1 <= row <= self.r2 and self.c1 <= col <= self.c2


class SheetsAndTables(Protocol):
    """What the rewriting reads of a workbook: its sheets' names, their index by ``sheet_key``, its tables."""

    titles: list[str]
    by_key: dict[str, int]
    tables: dict[str, ExcelTable]


def read_tables(parts: Mapping[str, bytes], sheets: Mapping[str, str], titles: Sequence[str]) -> dict[str, ExcelTable]:
    """Every table of the package, by its name and its display name in upper case. ``sheets``:
    sheet name -> its part (``xlsxfile.sheet_parts``); ``titles``: the sheets in workbook order."""
    from defusedxml import ElementTree

    index = {title: i for i, title in enumerate(titles)}
    out: dict[str, ExcelTable] = {}
    for title, part in sheets.items():
        folder, name = posixpath.split(part)
        rels = parts.get(posixpath.join(folder, "_rels", name + ".rels"))
        if rels is None or title not in index:
            continue
        for rel in ElementTree.fromstring(rels).iter(f"{_NS_PKG}Relationship"):
            target = rel.get("Target", "")
            if not rel.get("Type", "").endswith("/table") or rel.get("TargetMode") == "External":
                continue
            path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
            try:
                table = _table(ElementTree.fromstring(parts[path]), index[title]) if path in parts else None
            except ElementTree.ParseError:  # a damaged table part: its references answer #REF! naming it
                table = None
            if table is not None:
                out[table.name.upper()] = table
    return out


def _table(xml: Any, sheet: int) -> ExcelTable | None:
    """A table part's ``<table>`` as an ExcelTable."""
    columns = (c.get("name", "") for c in xml.iter(f"{_NS_MAIN}tableColumn"))
    counts = (xml.get("headerRowCount") or "1", xml.get("totalsRowCount") or "0")
    return _made(xml.get("displayName") or xml.get("name"), sheet, xml.get("ref") or "", counts, columns)


def openpyxl_tables(worksheets: Sequence[Any]) -> dict[str, ExcelTable]:
    """Every table of a workbook openpyxl read (its ``ws.tables``), as ``read_tables`` gives them."""
    out: dict[str, ExcelTable] = {}
    for s, ws in enumerate(worksheets):
        for t in getattr(ws, "tables", {}).values():
            counts = (str(1 if t.headerRowCount is None else t.headerRowCount), str(t.totalsRowCount or 0))
            columns = (str(c.name or "") for c in t.tableColumns)
            table = _made(t.displayName or t.name, s, str(t.ref or ""), counts, columns)
            if table is not None:
                out[table.name.upper()] = table
    return out


def _made(name: str | None, sheet: int, ref: str, counts: tuple[str, str], columns: Iterable[str]) -> ExcelTable | None:
    """An ExcelTable, or None without a name or a range, or with a count of header or totals rows the
    format does not allow (its references then answer #REF! naming the table)."""
    area = _AREA.match(ref)
    headers, totals = counts
    if area is None or not name or not (headers.isdigit() and totals.isdigit()):
        return None
    c1, c2 = sorted((col_number(area.group(1)), col_number(area.group(3))))
    r1, r2 = sorted((int(area.group(2)), int(area.group(4))))
    names = tuple(_ESCAPED.sub(_char, c) for c in columns)
    return ExcelTable(name, sheet, r1, c1, r2, c2, min(int(headers), 1), min(int(totals), 1), names)


def _char(m: re.Match[str]) -> str:
    return chr(int(m.group(1), 16))


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[tuple[str, str, str], ...] | None:
    """(type, subtype, value) of each token of a formula (None: the engine says why it cannot read it)."""
    tokens = tokenizer()
    try:
        return tuple((t.type, t.subtype, t.value) for t in tokens.Tokenizer(text).items)
    except (tokens.TokenizerError, IndexError):
        return None


def rewrite(text: str, book: SheetsAndTables, home: int, row: int, col: int, in_name: bool = False) -> str:
    """The formula ``text`` of the cell at (home, row, col) with its structured, 3-D and ``[0]!``
    references written as A1 references; unchanged when it has none. ``in_name``: the text a
    defined name stands for (read in this cell), where a reference to the cell's own row of a
    table raises NotComputed: a formula naming it is prepared once for all its cells."""
    may = ("[" in text or ("!" in text and ":" in text)) and _MAY.search(text)  # each part of _MAY has those
    items = _tokens(text if text.startswith("=") else "=" + text) if may else None
    if items is None:
        return text
    out: list[str] = []
    calls: list[str] = []  # the functions (or parentheses: "(") open at each token
    for i, (kind, sub, value) in enumerate(items):
        if kind in ("FUNC", "PAREN") and sub == "OPEN":
            calls.append(value[:-1].upper().removeprefix("_XLFN.") if kind == "FUNC" else "(")
        elif kind in ("FUNC", "PAREN") and sub == "CLOSE" and calls:
            calls.pop()
        elif kind == "OPERAND" and sub == "RANGE":

            def argument(i: int = i) -> str | None:
                return calls[-1] if calls and _whole_argument(items, i) else None

            value = _operand(value, book, (home, row, col), argument, in_name)
        out.append(value)
    joined = "=" + "".join(out)
    return joined if joined != "=" + "".join(v for _, _, v in items) else text


def _whole_argument(items: Sequence[tuple[str, str, str]], i: int) -> bool:
    """Whether the token ``i`` is a whole argument of the function call around it."""
    before = next((t for t in reversed(items[:i]) if t[0] != "WHITE-SPACE"), None)
    after = next((t for t in items[i + 1 :] if t[0] != "WHITE-SPACE"), None)
    opens = before is not None and ((before[0], before[1]) in (("FUNC", "OPEN"), ("SEP", "ARG")))
    closes = after is not None and ((after[0], after[1]) in (("FUNC", "CLOSE"), ("SEP", "ARG")))
    return opens and closes


Cell = tuple[int, int, int]  # (sheet index, row, column) of the formula


def _operand(value: str, book: SheetsAndTables, cell: Cell, argument: Callable[[], str | None], in_name: bool) -> str:
    """One reference of a formula, rewritten."""
    if value.startswith("[0]!"):  # Excel's own spelling of a name of this workbook
        return value[4:]
    three_d = _THREE_D.match(value)
    if three_d is not None:
        return _sheets(three_d, book, argument())
    if "[" not in value:
        return value
    parts = _split_range(value)
    if len(parts) == 2:  # Table1[[#This Row],[a]]:Table1[[#This Row],[b]]
        first, last = (_structured(p, book, cell, in_name) for p in parts)
        if first.startswith("#") or last.startswith("#"):
            return first if first.startswith("#") else last
        (sheet, start), (other, end) = (p.rsplit("!", 1) for p in (first, last))
        if sheet != other:
            raise NotComputed("#REF!", f"{value} joins two sheets' tables, which is no range")
        return f"{sheet}!{start}:{end}"
    return _structured(value, book, cell, in_name)


def _split_range(value: str) -> list[str]:
    """``a:b`` split at a colon outside brackets (a structured reference's own colons stay)."""
    depth = 0
    for i, ch in enumerate(value):
        depth += (ch == "[") - (ch == "]")
        if ch == ":" and depth == 0:
            return [value[:i], value[i + 1 :]]
    return [value]


def _sheets(m: re.Match[str], book: SheetsAndTables, function: str | None) -> str:
    """A 3-D reference as one reference per sheet, in workbook order: an argument of the functions
    that take one (``SUM(Jan:Mar!B2)`` is ``SUM(Jan!B2,Feb!B2,Mar!B2)``)."""
    if m.group("q") is not None:
        first, _, last = m.group("q").replace("''", "'").partition(":")
    else:
        first, last = m.group("a"), m.group("b")
    ends = []
    for name in (first, last):
        if "[" in name or "]" in name:
            return m.group(0)  # another workbook's: the engine says it is not followed
        found = book.by_key.get(sheet_key(name))
        if found is None:
            raise NotComputed("#REF!", f"there is no sheet {name.upper()}")
        ends.append(found)
    if function is None or function not in THREE_D_FUNCTIONS:
        where = f"in {function}" if function not in (None, "(") else "outside a function's argument"
        raise NotComputed(
            "#VALUE!",
            f"a reference across sheets ({m.group(0)}) {where} is not computed by benchsheet "
            "(only as an argument of SUM, AVERAGE, COUNT, COUNTA, MAX, MIN, PRODUCT, STDEV, VAR)",
        )
    lo, hi = sorted(ends)
    return ",".join(f"{quote_sheet(book.titles[s])}!{m.group('ref')}" for s in range(lo, hi + 1))


def _structured(value: str, book: SheetsAndTables, cell: Cell, in_name: bool) -> str:
    """A structured reference as the A1 range it stands for (an error code where Excel answers one)."""
    m = _STRUCTURED.match(value)
    if m is None:
        return value  # not a table's (an external workbook's [1]!Name): the engine says what it is
    home, row, col = cell
    name = m.group("table")
    if name:
        table = book.tables.get(name.upper())
        if table is None:
            raise NotComputed("#REF!", f"there is no table {name}")
    else:
        found = None if in_name else next((t for t in book.tables.values() if t.holds(home, row, col)), None)
        if found is None:
            raise NotComputed("#REF!", f"{value} names no table and the formula is not inside one")
        table = found
    items, columns = _specifiers(m.group("spec"), value)
    if "#THIS ROW" in items and in_name:
        raise NotComputed("#VALUE!", f"a defined name reading its cell's row of a table ({value}) is not computed")
    rows = _rows(table, items, row)
    if isinstance(rows, str):
        return rows
    first, last = (table.column(columns[0]), table.column(columns[1])) if columns else (table.c1, table.c2)
    if first > last:
        first, last = last, first
    sheet = quote_sheet(book.titles[table.sheet]) + "!"
    if "#THIS ROW" in items:
        start, end = f"${col_letters(first)}{row}", f"${col_letters(last)}{row}"
    else:
        start, end = f"${col_letters(first)}${rows[0]}", f"${col_letters(last)}${rows[1]}"
    return sheet + start if start == end else f"{sheet}{start}:{end}"


def _rows(table: ExcelTable, items: frozenset[str], row: int) -> tuple[int, int] | str:
    """The first and last row the items ([#Data] if none) stand for, or the error Excel answers."""
    data = (table.r1 + table.headers, table.r2 - table.totals)
    if "#THIS ROW" in items:
        if len(items) > 1:
            raise NotComputed("#REF!", "[#This Row] cannot be combined with other items")
        return (row, row) if data[0] <= row <= data[1] else "#VALUE!"
    if "#ALL" in items:
        return table.r1, table.r2
    wanted = items or frozenset({"#DATA"})
    if wanted == {"#HEADERS", "#TOTALS"}:
        raise NotComputed("#REF!", "[#Headers] and [#Totals] of a table are not one range")
    if ("#HEADERS" in wanted and not table.headers) or ("#TOTALS" in wanted and not table.totals):
        return "#REF!"
    first = table.r1 if "#HEADERS" in wanted else data[0]
    last = table.r2 if "#TOTALS" in wanted else data[1]
    if "#DATA" not in wanted:  # [#Headers] or [#Totals] alone
        first, last = (table.r1, table.r1) if "#HEADERS" in wanted else (table.r2, table.r2)
    return (first, last) if first <= last else "#REF!"


def _specifiers(spec: str, value: str) -> tuple[frozenset[str], tuple[str, str] | None]:
    """The items (``#ALL``...) and the first and last column a structured reference's brackets hold."""
    if spec.startswith("@"):  # [@Qty], [@[Unit price]], [@] (Excel's short form of [#This Row])
        rest = spec[1:]
        if rest and not rest.startswith("["):
            return frozenset({"#THIS ROW"}), (_unescape(rest), _unescape(rest))
        inner, columns = _specifiers(rest, value)
        return inner | {"#THIS ROW"}, columns
    parts = _bracketed(spec, value) if spec.startswith("[") else [spec] if spec else []
    items: set[str] = set()
    names: list[str | None] = []  # column names as written, None for the colon between two
    for part in parts:
        if part is not None and part.startswith("#"):  # an item (a column's own # is written '#)
            item = " ".join(part.upper().split())
            if item not in _ITEMS:
                raise NotComputed("#REF!", f"{value}: unknown item [{part}]")
            items.add(item)
        else:
            names.append(part)
    if names and names[0] is not None and (len(names) == 1 or (len(names) == 3 and names[1] is None)):
        last = names[-1]
        if last is not None:
            return frozenset(items), (_unescape(names[0]), _unescape(last))
    if names:
        raise NotComputed("#REF!", f"the columns of {value} are not one range, which is not computed")
    return frozenset(items), None


def _bracketed(spec: str, value: str) -> list[str | None]:
    """``[#Headers],[Q1]:[Q4]`` -> ["#Headers", "Q1", None, "Q4"] (as written; None: the colon)."""
    out: list[str | None] = []
    i = 0
    while i < len(spec):
        ch = spec[i]
        if ch in " ,":
            i += 1
        elif ch == ":":
            out.append(None)
            i += 1
        elif ch == "[":
            j = i + 1
            while j < len(spec) and spec[j] != "]":
                j += 2 if spec[j] == "'" else 1
            if j >= len(spec):
                raise NotComputed("#REF!", f"cannot read the structured reference {value}")
            out.append(spec[i + 1 : j])
            i = j + 1
        else:
            raise NotComputed("#REF!", f"cannot read the structured reference {value}")
    return out


def _unescape(name: str) -> str:
    """A column name as a formula writes it (``'#``, ``'[``, ``']``, ``''``) as the table names it."""
    return re.sub(r"'(.)", r"\1", name, flags=re.S)
