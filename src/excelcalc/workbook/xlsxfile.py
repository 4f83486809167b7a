"""Write computed values into an existing .xlsx file, leaving everything else as it was.

openpyxl can keep a workbook's formulas or its values, never both, and it
drops parts it does not model. So the values are written into the sheet XML
directly: each formula cell's ``<v>`` (and ``t`` type) is replaced in place,
the ``<f>`` formula, the styles, validations, protection, charts and every
other part stay byte for byte (the cells are found by ``sheetxml``, the scanner
the calculator reads them with). ``freeze`` removes the ``<f>`` elements too.
Chart caches are refreshed from the same values, and the workbook no longer
asks for a full recalculation on load (which, without the add-in, would turn
every add-in function into ``#NAME?``). The new file is written next to
the target and renamed over it, so a failure never leaves half a file.
"""

from __future__ import annotations

import bisect
import html
import io
import math
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from defusedxml import ElementTree

from excelcalc.errors import WorkbookError
from excelcalc.files import write_atomic
from excelcalc.formula_text import cell_text
from excelcalc.workbook.cells import MAX_TEXT, CellKey, Computed, ErrorCode, col_letters, col_number, sheet_key
from excelcalc.workbook.rows import Styles, refit_rows
from excelcalc.workbook.sheetxml import PATCH_CELLS, cells_present, sheet_data_text

if TYPE_CHECKING:  # charts.py itself is imported where a workbook has charts (_patch_charts)
    from excelcalc.workbook.charts import Holds, TitleSource

Shown = float | int | bool | str
Lookup = Callable[[str, str], Shown | None]  # (sheet name as written, "B5") -> value
T = TypeVar("T")

# every part is held at once, and the sheets again as text while written: 512 MiB let a 3 MB file of
# five 100 MiB parts (each under MAX_RATIO) take 1.45 GB. A sheet of MAX_CELLS cells is about 80 MiB
MAX_UNCOMPRESSED = 256 * 1024 * 1024
MAX_RATIO = 200  # a part that unpacks to more than 200x its packed size is a zip bomb, not a sheet
MAX_CELLS = 2_000_000  # cells a sheet may hold (the cells present: a declared <dimension> is not trusted)
# cells all sheets may hold together: a calc holds 300-700 bytes for each (a value, a formula), so
# this keeps it under 1 GB; each sheet under MAX_CELLS let ten sheets of 2M cells through
MAX_WORKBOOK_CELLS = 2_000_000
NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
CALC_CHAIN = "xl/calcChain.xml"
# zlib's level for the parts written: 5 packs a sheet's XML as small as the default 6 (19.2% and 19.3% of
# 32 MB: 200,000 formulas beside 600,000 inputs; 18.4% both of 1.7 MB) in a third of the time (0.45 s, 1.2 s)
COMPRESS_LEVEL = 5

_ATTR_R = re.compile(r'\sr="([A-Za-z]{1,3}\d+)"')
_ATTR_T = re.compile(r'\st="[^"]*"')
_ATTR_CM = re.compile(r'\scm="[^"]*"')
_FORMULA = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?f(?:\s[^>]*)?(?:/>|>.*?</(?:[A-Za-z_][\w.-]*:)?f>)", re.DOTALL)
# characters XML cannot hold, and a carriage return (an XML reader reads it as a line feed): written as
# Excel writes them, _x0007_, _x000D_ (ECMA-376 Part 1, 22.9.2.19 ST_Xstring); a text that reads as
# such an escape keeps its underscore as _x005F_
_ESCAPED_CHARS = re.compile("[\x00-\x08\x0b\x0c\r\x0e-\x1f\ufffe\uffff]")
_LIKE_ESCAPE = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")
_FULL_CALC = re.compile(r'\sfullCalcOnLoad="(?:1|true)"')


class XlsxError(WorkbookError):
    """A file that is no usable .xlsx workbook."""


def _one_of_each(path: Path, infos: list[zipfile.ZipInfo]) -> None:
    """Refuse a zip holding a part twice (ECMA-376 Part 2, 9.1.1.1.1: part names are unique, compared
    without case): which copy Excel shows is not known, and the last one was read without a word."""
    seen: set[str] = set()
    for i in infos:
        name = i.filename.lstrip("/").lower()
        if name in seen:
            raise XlsxError(
                f"{path}: refused: the file holds the part {i.filename} twice (a package holds each part "
                "once: the file is damaged); nothing was written"
            )
        seen.add(name)


def read_package(path: Path) -> dict[str, bytes]:
    """All parts of an .xlsx file, in their order, after the checks that make it safe to load.

    A workbook from outside is refused, with the file and the reason, when it is
    no zip, unpacks to too much (in all, or one part far beyond its packed size),
    declares XML entities (entity expansion: "billion laughs"), or declares or
    holds more cells than a sheet of this kind needs; and when an XML part is no
    well-formed XML, naming the part, its sheet and the cell (``_damage``): read
    on, a regular expression would have lost the cells after the damage, and
    openpyxl answered its parser's words. Macros are carried along as bytes and
    never run.
    """
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            _one_of_each(path, infos)
            if sum(i.file_size for i in infos) > MAX_UNCOMPRESSED:
                raise XlsxError(f"{path}: refused: more than {MAX_UNCOMPRESSED >> 20} MiB once unpacked")
            for i in infos:
                if i.file_size > 1 << 20 and i.file_size > MAX_RATIO * max(i.compress_size, 1):
                    raise XlsxError(
                        f"{path}: refused: {i.filename} unpacks {i.file_size // max(i.compress_size, 1)}x "
                        "its packed size (a zip bomb?)"
                    )
            parts = {i.filename: _utf8(_unpacked(zf, i, path)) for i in infos}
    except zipfile.BadZipFile:
        raise XlsxError(f"{path} is not an .xlsx workbook (not a zip file)") from None
    if "xl/workbook.xml" not in parts:
        raise XlsxError(f"{path} is not an .xlsx workbook (no xl/workbook.xml)")
    cells = 0
    for name, data in parts.items():
        if name.endswith((".xml", ".rels", ".vml")) and (b"<!DOCTYPE" in data or b"<!ENTITY" in data):
            raise XlsxError(f"{path}: refused: {name} declares XML entities (an entity-expansion attack?)")
        if (name in _PART_ROLES or _SHEET_PART.fullmatch(name)) and not _well_formed(data):
            raise XlsxError(f"{path}: refused: {_damage(parts, name)}")  # (a damaged table: its references #REF!)
        if name.startswith("xl/worksheets/") and name.endswith(".xml"):
            present = cells_present(data)
            if present > MAX_CELLS:
                raise XlsxError(f"{path}: refused: {name} has more than {MAX_CELLS:,} cells")
            cells += present
            if cells > MAX_WORKBOOK_CELLS:
                raise XlsxError(
                    f"{path}: refused: its sheets hold more than {MAX_WORKBOOK_CELLS:,} cells in all (computing "
                    "them would take more than 1 GB of memory); nothing was written. Split the workbook"
                )
    return parts


def _unpacked(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: Path) -> bytes:
    """One part's bytes; a part that cannot be unpacked refuses the file saying why (it was a
    traceback "please report this": a damaged deflate stream, a password, Deflate64)."""
    try:
        return zf.read(info)
    except (zlib.error, EOFError, zipfile.BadZipFile) as exc:
        why = f"is damaged and cannot be unpacked ({str(exc)[:80]})"
    except NotImplementedError:  # before RuntimeError, its base
        why = f"is packed by a method zip readers here do not have (method {info.compress_type}; Deflate64 is 9)"
    except RuntimeError:  # zipfile's "File ... is encrypted, password required"
        if not info.flag_bits & 0x1:
            raise
        why = "is encrypted (a workbook saved with a password: save a copy without one)"
    raise XlsxError(f"{path}: refused: its part {info.filename} {why}; nothing was written")


_UTF16 = (b"\xff\xfe", b"\xfe\xff")
_DECLARED = re.compile(rb"""^(<\?xml[^>]*?encoding=)(["'])[Uu][Tt][Ff]-?16(?:[LlBb][Ee])?\2""")


REPAIR = (
    "open it in Excel (which offers to repair it) or LibreOffice and save it again, or compute a copy saved "
    "before the damage"
)
"""What to do with a damaged file, said wherever one is refused."""
_PART_ROLES = {
    "xl/workbook.xml": "the workbook's list of sheets (xl/workbook.xml) is",
    "xl/_rels/workbook.xml.rels": "the workbook's links to its sheets (xl/_rels/workbook.xml.rels) are",
    "xl/styles.xml": "the styles (xl/styles.xml) are",
    "xl/sharedStrings.xml": "the shared texts (xl/sharedStrings.xml) are",
    "[Content_Types].xml": "the list of the file's parts ([Content_Types].xml) is",
}
_SHEET_PART = re.compile(r"xl/worksheets/[^/]+\.xml")
"""A worksheet's part: with the parts in ``_PART_ROLES``, those read before any cell is (checked whole)."""
_CELL_TAG = re.compile(rb'<(?:[A-Za-z_][\w.-]*:)?c\s[^<>]*?\br="([A-Z]{1,3}[0-9]+)"')
_XML_ERRORS = {  # expat's errors (xml.parsers.expat.errors) as a person reads them
    "mismatched tag": "it has a closing tag that does not match the element it closes",
    "not well-formed (invalid token)": "it holds characters XML does not allow there",
    "unclosed token": "it ends in the middle of a tag (cut short)",
    "no element found": "it ends before its elements are closed (cut short, or empty)",
    "syntax error": "it is no XML",
    "undefined entity": "it names an undefined entity (&...;)",
    "junk after document element": "it holds text after its last element",
}


def damaged_part(parts: Mapping[str, bytes]) -> str | None:
    """The first XML part of the package that is no XML, in words (``_damage``); None when every one parses.
    ``read_package`` checks the parts read before any cell; this, every part, once a reader failed."""
    for name, data in parts.items():
        if name.endswith((".xml", ".rels")) and not _well_formed(data):  # VML as Excel writes it is not XML
            return _damage(parts, name)
    return None


def _well_formed(data: bytes) -> bool:
    """``data`` parses as XML (expat with no handlers: about 0.15 s for a sheet of 600,000 cells)."""
    from xml.parsers import expat

    try:
        expat.ParserCreate().Parse(data, True)
    except expat.ExpatError:
        return False
    return True


def _damage(parts: Mapping[str, bytes], name: str) -> str:
    """Where and how the part ``name`` is no XML, in words: its sheet and the cell the damage is in or after,
    what is wrong there (its line and column), and what to do. Read again with handlers, only once damaged."""
    from xml.parsers import expat

    stack: list[tuple[str, str]] = []  # the open elements: (local name, r attribute)
    last = [""]  # the last cell started

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = tag.rpartition(":")[2]
        stack.append((local, attrs.get("r", "")))
        if local == "c":
            last[0] = attrs.get("r", "")

    parser = expat.ParserCreate()
    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _: stack.pop()
    try:
        parser.Parse(parts[name], True)
        error, line, column = "syntax error", 1, 0  # not reached: the part was found damaged
    except expat.ExpatError as exc:
        error, line, column = expat.errors.messages[exc.code], exc.lineno, exc.offset
    cut = _CELL_TAG.match(parts[name], max(parser.ErrorByteIndex, 0))  # a cell's own tag is what is damaged
    found = _XML_ERRORS.get(error, f"it holds what XML does not allow ({error})")
    if error == "mismatched tag" and stack:
        tag, ref = stack[-1]
        found = f"the cell {ref} is not closed (no </c>)" if tag == "c" and ref else f"its <{tag}> is not closed"
        found += "" if tag == "c" and ref else f" (no </{tag}>)"
    at = f"line {line:,}, column {column + 1:,}"
    if not _SHEET_PART.fullmatch(name):
        return f"{_PART_ROLES.get(name, f'the part {name} is')} damaged: {found} ({at}); {REPAIR}"
    try:
        sheet = next((f"the sheet {s!r} ({name})" for s, p in sheet_parts(parts).items() if p == name), None)
    except (SyntaxError, KeyError):  # the list of sheets is damaged too
        sheet = None
    cell = cut.group(1).decode() if cut else next((ref for tag, ref in reversed(stack) if tag == "c" and ref), last[0])
    near = f" near cell {cell}" if cell else ""
    return f"{sheet or f'the sheet part {name}'} is damaged{near}: {found} ({at}); {REPAIR}"


def _utf8(data: bytes) -> bytes:
    """An XML part saved as UTF-16 (valid in the format; it starts with a byte-order mark) as
    UTF-8, which every reader here and the file written expect (it was read as empty)."""
    if not data.startswith(_UTF16):
        return data
    try:
        text = data.decode("utf-16")
    except UnicodeDecodeError:
        return data
    return _DECLARED.sub(rb"\1\2UTF-8\2", text.encode("utf-8"))


def require_defused_openpyxl(path: Path) -> None:
    """Refuse to let openpyxl parse ``path`` unless it parses through defusedxml."""
    import openpyxl

    if not openpyxl.DEFUSEDXML:
        raise XlsxError(f"{path}: refused: openpyxl is not parsing through defusedxml (OPENPYXL_DEFUSEDXML)")


def sheet_parts(parts: Mapping[str, bytes]) -> dict[str, str]:
    """Sheet name as written -> the part holding its XML (worksheets only)."""
    workbook = ElementTree.fromstring(parts["xl/workbook.xml"])
    rels = ElementTree.fromstring(parts.get("xl/_rels/workbook.xml.rels", b"<Relationships/>"))
    targets = {
        r.get("Id"): _resolve("xl/workbook.xml", r.get("Target", ""))
        for r in rels.iter(f"{{{NS_PKG_REL}}}Relationship")
    }
    out: dict[str, str] = {}
    for sheet in workbook.iter(f"{{{NS_MAIN}}}sheet"):
        target = targets.get(sheet.get(f"{{{NS_REL}}}id"))
        if target and target in parts and "worksheets/" in target:
            out[sheet.get("name", "")] = target
    return out


def shared_strings_part(parts: Mapping[str, bytes]) -> str | None:
    """The part holding the workbook's shared strings, if any."""
    return workbook_part(parts, "sharedStrings")


def workbook_part(parts: Mapping[str, bytes], kind: str) -> str | None:
    """The part the workbook relates to as ``kind`` ("sharedStrings", "styles"), if any."""
    rels = ElementTree.fromstring(parts.get("xl/_rels/workbook.xml.rels", b"<Relationships/>"))
    for r in rels.iter(f"{{{NS_PKG_REL}}}Relationship"):
        if r.get("Type", "").endswith(f"/{kind}"):
            target = _resolve("xl/workbook.xml", r.get("Target", ""))
            return target if target in parts else None
    return None


def _resolve(base: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


def _text(value: str) -> str:
    if "_" in value:
        value = _LIKE_ESCAPE.sub("_x005F_", value)
    value = _ESCAPED_CHARS.sub(lambda m: f"_x{ord(m.group()):04X}_", value)
    return html.escape(value, quote=False)  # not xml.sax: it imports urllib, http, ssl


_ERROR_TEXT = re.compile(r"^#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|GETTING_DATA) ")


def within_excel(value: Shown) -> Shown:
    """A text as a cell can hold it: at most 32,767 characters (Excel cannot open a file with
    more). An error's reason is shortened; any other text that long is never cut (that would be a
    wrong value): the cell says why instead."""
    if not isinstance(value, str) or len(value) <= MAX_TEXT:
        return value
    if _ERROR_TEXT.match(value):
        return value[: MAX_TEXT - 1] + "\u2026"
    return f"#VALUE! the text would have {len(value):,} characters; Excel allows {MAX_TEXT:,}"


def _typed(value: Shown, formula: bool) -> tuple[str | None, str]:
    """(t attribute, element content) of a cached value."""
    if (type(value) is float and math.isfinite(value)) or type(value) is int:
        return None, f"<v>{value!r}</v>"  # the most common answers, the way the last branch writes them
    value = within_excel(value)
    if isinstance(value, ErrorCode):
        return "e", f"<v>{_text(str(value))}</v>"
    if isinstance(value, bool):
        return "b", f"<v>{int(value)}</v>"
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return "e", "<v>#NUM!</v>"
        return None, f"<v>{value!r}</v>"
    if formula:
        return "str", f"<v>{_text(value)}</v>"
    return "inlineStr", f'<is><t xml:space="preserve">{_text(value)}</t></is>'


_JOINED = 8192  # pieces of a patched sheet joined into one string at a time


def patch_sheet(xml: str, values: Mapping[str, Shown], strip_formulas: bool = False) -> tuple[str, int, set[str]]:
    """Replace the cached value of each formula cell found in ``values`` (by "B5"); also answers
    the cells whose content changed (so only their rows are refitted)."""
    if values and not strip_formulas:  # (freeze strips every formula, also of cells without a value here)
        in_order = _patch_in_order(xml, values)
        if in_order is not None:
            return in_order
    count = 0
    seen: set[str] = set()
    changed: set[str] = set()
    pieces: list[str] = []
    chunks: list[str] = []  # the pieces joined every _JOINED
    done = 0  # the sheet up to here is in pieces: only the cells that change are cut out and joined
    for m in PATCH_CELLS.finditer(xml):
        ref = m.group("qr")  # the quick shape: its attributes but t, and its <f>, are groups
        if ref is not None and ref in values:
            out = _new_cell("", m.group("qa"), m.group("qf"), values[ref], strip_formulas)
        elif ref is not None and (not strip_formulas or m.group("qf") is None):
            continue  # an input, or a cell this run has no value for: as it was, without a call
        else:
            ref, out = _patched(m, values, strip_formulas)
        if ref is not None and ref in values:
            count += 1
            seen.add(ref)
        if out != m.group(0):  # also blank before and after: a program that saved the file
            if ref is not None:  # (openpyxl, LibreOffice) may have dropped the text its height was for
                changed.add(ref)
            pieces += (xml[done : m.start()], out)
            done = m.end()
            if len(pieces) >= _JOINED:  # joined as it goes: 2M small strings held for 1M cells were 120 MB
                chunks.append("".join(pieces))
                pieces.clear()
    if chunks or pieces:  # one copy of the sheet made (1M cells: 70 MB), not two (a join, then its concatenation)
        chunks += ("".join(pieces), xml[done:])
        xml = "".join(chunks)
        del chunks, pieces
    missing: dict[str, Shown] = {}
    if len(seen) < len(values):  # seen holds cells of values only: when it holds them all, none is missing
        missing = {r: v for r, v in values.items() if r not in seen and not (v == "" and not isinstance(v, ErrorCode))}
    if missing:  # cells of an array formula's range the file does not hold (a writer left them out)
        patched = _insert_cells(xml, missing)
        count += len(missing) if patched != xml else 0
        if patched != xml:
            changed.update(missing)
        xml = patched
    return xml, count, changed


def _patch_in_order(xml: str, values: Mapping[str, Shown]) -> tuple[str, int, set[str]] | None:
    """``patch_sheet`` of a sheet whose cells ``values`` names in the order the sheet holds them (the
    calculator names a sheet's formula cells in the order it read them), each of the quick shape: each
    is found by its start tag after the one before, and the cells between them (its inputs, most of a
    sheet) are skipped rather than matched one by one (200,000 formulas beside 600,000 inputs: 1.1 s
    to 0.45 s). None where a cell is not found so (not in the sheet, out of order, another shape):
    the whole sheet is then scanned."""
    changed: set[str] = set()
    pieces: list[str] = []
    chunks: list[str] = []  # the pieces joined every _JOINED, as patch_sheet joins them
    done = at = 0
    find, match = xml.find, PATCH_CELLS.match
    isfinite = math.isfinite
    for ref, value in values.items():
        i = find(f'<c r="{ref}"', at)
        m = match(xml, i) if i >= 0 else None
        if m is None:
            return None
        found, attrs, formula = m.group("qr", "qa", "qf")
        if found != ref:
            return None
        if type(value) is int or (type(value) is float and isfinite(value)):  # a number: as _new_cell writes it
            out = f"<c{attrs}>{formula or ''}<v>{value!r}</v></c>"
        else:
            out = _new_cell("", attrs, formula, value, False)
        at = m.end()
        if len(out) != at - i or not xml.startswith(out, i):  # (as patch_sheet: blank before and after too)
            changed.add(ref)
            pieces += (xml[done:i], out)
            done = at
            if len(pieces) >= _JOINED:
                chunks.append("".join(pieces))
                pieces.clear()
    if chunks or pieces:
        chunks += ("".join(pieces), xml[done:])
        xml = "".join(chunks)
    return xml, len(values), changed


def _patched(m: re.Match[str], values: Mapping[str, Shown], strip_formulas: bool) -> tuple[str | None, str]:
    """(its reference, the cell as it is to be written) of a cell ``PATCH_CELLS`` found that the quick
    path of ``patch_sheet`` does not write."""
    if m.group("qr") is not None:  # a formula to strip from a cell without a value, as below
        return m.group("qr"), m.string[m.start() : m.start("qf")] + m.string[m.end("qf") : m.end()]
    attrs, p, body = m.group("attrs"), m.group("p"), m.group("body") or ""
    found = _ATTR_R.search(attrs)
    ref = found.group(1).upper() if found is not None else None
    if ref is None or ref not in values:
        if not strip_formulas or _FORMULA.search(body) is None:
            return ref, m.group(0)  # a cell this run has no value for (an input, a cell of an array's range)
        # a cell of a shared or array formula's range without its own value: keep what it caches
        return ref, f"<{p}c{attrs}>{_FORMULA.sub('', body)}</{p}c>"
    formula = _FORMULA.search(body)
    return ref, _new_cell(p, _ATTR_T.sub("", attrs), formula.group(0) if formula else None, values[ref], strip_formulas)


def _new_cell(p: str, attrs: str, formula: str | None, value: Shown, strip_formulas: bool) -> str:
    """A cell holding ``value``: ``attrs`` are its attributes but ``t``, ``formula`` its ``<f>``
    element (None: none), which ``strip_formulas`` leaves out."""
    if strip_formulas and value == "" and not isinstance(value, ErrorCode):
        return f"<{p}c{attrs}/>"  # an empty text answer: a blank cell, keeping its style
    if strip_formulas and type(value) is str:
        value = cell_text(value)  # a frozen text cell a user may edit: never read as a formula
    kind, content = _typed(value, formula=formula is not None and not strip_formulas)
    if strip_formulas:
        attrs = _ATTR_CM.sub("", attrs)  # dynamic-array metadata of a formula no longer there
    if kind:
        attrs += f' t="{kind}"'
    keep = "" if strip_formulas or formula is None else formula
    if p:  # a prefixed sheet (x:c, x:v): keep its prefix on what we write
        content = re.sub(r"<(/?)(v|is|t)\b", rf"<\1{p}\2", content)
    return f"<{p}c{attrs}>{keep}{content}</{p}c>"


_ROW = re.compile(r"<(?P<p>(?:[A-Za-z_][\w.-]*:)?)row\b(?P<attrs>[^>]*?)(?:/>|>(?P<body>.*?)</(?P=p)row>)", re.DOTALL)
_ATTR_ROW_R = re.compile(r'\sr="(\d+)"')
_REF_PARTS = re.compile(r"^([A-Z]{1,3})(\d+)$")


def _insert_cells(xml: str, cells: Mapping[str, Shown]) -> str:
    """Add value cells (by "B5") to a sheet, each in its row and in column order."""
    by_row: dict[int, list[tuple[int, str]]] = {}
    for ref, value in cells.items():
        m = _REF_PARTS.match(ref)
        if m is None:
            continue
        kind, content = _typed(value, formula=False)
        t = f' t="{kind}"' if kind else ""
        by_row.setdefault(int(m.group(2)), []).append((col_number(m.group(1)), f'<c r="{ref}"{t}>{content}</c>'))
    data = sheet_data_text(xml)
    if data is None or not xml.startswith("<sheetData", data[0]):
        return xml  # no sheetData, or a prefixed one: left as it was
    start, end = data[0], data[3]
    body = xml[data[1] : data[2]]

    def merge(row: int, attrs: str, inner: str) -> str:
        new = sorted(by_row.pop(row))
        parts: list[tuple[int, str]] = []
        for c in PATCH_CELLS.finditer(inner):
            r = c.group("qr")
            if r is None:  # a cell of another shape: its r attribute, wherever it is
                found = _ATTR_R.search(c.group("attrs"))
                r = found.group(1).upper() if found else None
            at = _REF_PARTS.match(r) if r else None
            parts.append((col_number(at.group(1)) if at else 0, c.group(0)))
        merged = sorted(parts + new, key=lambda x: x[0])
        return f"<row{attrs}>{''.join(text for _, text in merged)}</row>"

    def one_row(m: re.Match[str]) -> str:
        if m.group("p"):
            return m.group(0)
        r = _ATTR_ROW_R.search(m.group("attrs"))
        if r is None or int(r.group(1)) not in by_row:
            return m.group(0)
        return merge(int(r.group(1)), m.group("attrs"), m.group("body") or "")

    body = _ROW.sub(one_row, body)
    if by_row:
        body = _add_rows(body, by_row)
    return xml[:start] + f"<sheetData>{body}</sheetData>" + xml[end:]


def _add_rows(body: str, by_row: dict[int, list[tuple[int, str]]]) -> str:
    """Rows the sheet does not have, each before the first row with a higher number: the sheet is
    cut once at those places and joined once (a splice per row was quadratic: 1M rows ran for hours)."""
    rows = [(int(r.group(1)), m.start()) for m in _ROW.finditer(body) if (r := _ATTR_ROW_R.search(m.group("attrs")))]
    numbers = [n for n, _ in rows]  # in the sheet's order, which is ascending
    pieces: list[str] = []
    done = 0
    for row in sorted(by_row):
        k = bisect.bisect_right(numbers, row)
        at = rows[k][1] if k < len(rows) else len(body)
        pieces.append(body[done:at])
        done = at
        pieces.append(f'<row r="{row}">{"".join(text for _, text in sorted(by_row[row]))}</row>')
    pieces.append(body[done:])
    return "".join(pieces)


_SERIES_REF = re.compile(
    r"<(?P<p>(?:[A-Za-z_][\w.-]*:)?)(?P<kind>num|str)Ref>\s*<(?P=p)f>(?P<f>[^<]*)</(?P=p)f>"
    r"(?P<cache>.*?)</(?P=p)(?P=kind)Ref>",
    re.DOTALL,
)
MAX_POINTS = 1_048_576  # cached points of one chart series (a whole column; charts of more are left empty)
_FORMAT_CODE = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?formatCode>[^<]*</(?:[A-Za-z_][\w.-]*:)?formatCode>")
_RANGE = re.compile(r"^(?:'(?P<q>(?:[^']|'')+)'|(?P<s>[^!']+))!\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$")


def patch_chart(xml: str, lookup: Lookup, titles: list[TitleSource] | None = None, holds: Holds | None = None) -> str:
    """Refresh the cached series data of a chart from the computed cells.

    With ``titles`` (the formula cells a title may come from), a title saved as fixed text is
    linked again to the cell that made it (``charts.relink_title``), and so refreshed too; with
    ``holds`` (what a cell holds), a chart over a table plots its used rows (``charts.fit_rows``)."""
    from excelcalc.workbook import charts

    if holds is not None:
        xml = charts.fit_rows(xml, holds)
    if titles:
        sheets = {_sheet_of(r) for r in re.findall(r"<(?:[A-Za-z_][\w.-]*:)?f>([^<]*)</", xml)} - {""}
        xml = charts.relink_title(xml, titles, sheets)

    def one(m: re.Match[str]) -> str:
        ref = _RANGE.match(m.group("f").strip().replace("&apos;", "'"))
        if not ref:
            return m.group(0)
        sheet = ref.group("q").replace("''", "'") if ref.group("q") else ref.group("s")
        c1, r1 = col_number(ref.group(3)), int(ref.group(4))
        c2, r2 = (col_number(ref.group(5)), int(ref.group(6))) if ref.group(5) else (c1, r1)
        cells = [f"{col_letters(c)}{r}" for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
        p, kind = m.group("p"), m.group("kind")
        if len(cells) > MAX_POINTS:  # too many to write: no cached points rather than stale ones
            cells = []
        points = []
        for i, cell in enumerate(cells):
            v = lookup(sheet, cell)
            if kind == "num":
                if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
                    points.append(f'<{p}pt idx="{i}"><{p}v>{v!r}</{p}v></{p}pt>')
            elif v is not None and v != "":
                text = str(v) if not isinstance(v, float) else f"{v:g}"
                points.append(f'<{p}pt idx="{i}"><{p}v>{_text(text)}</{p}v></{p}pt>')
        fmt = _FORMAT_CODE.search(m.group("cache"))
        head = (fmt.group(0) if fmt else f"<{p}formatCode>General</{p}formatCode>") if kind == "num" else ""
        cache = f'<{p}{kind}Cache>{head}<{p}ptCount val="{len(cells)}"/>{"".join(points)}</{p}{kind}Cache>'
        return f"<{p}{kind}Ref><{p}f>{m.group('f')}</{p}f>{cache}</{p}{kind}Ref>"

    return charts.fit_value_axis(_SERIES_REF.sub(one, xml))  # bars from 0 where none is negative


def _sheet_of(ref: str) -> str:
    m = _RANGE.match(ref.strip().replace("&apos;", "'"))
    if not m:
        return ""
    return m.group("q").replace("''", "'") if m.group("q") else m.group("s")


def formula_texts(c: Computed) -> dict[str, dict[str, str]]:
    """The formulas of a computed workbook as ``rewrite`` takes them: by SHEET, then "B5"."""
    return _by_sheet(c.formulas)


def cached_values(c: Computed) -> dict[str, dict[str, Shown]]:
    """The computed answers of formula cells as ``rewrite`` takes them: by SHEET, then "B5"."""
    return _by_sheet(c.shown)


def _by_sheet(cells: Mapping[CellKey, T]) -> dict[str, dict[str, T]]:
    """(SHEET, "B5") -> value as SHEET -> "B5" -> value, in the same order. The cells come sheet by
    sheet: the sheet's dict is looked up where the sheet changes, not per cell."""
    out: dict[str, dict[str, T]] = {}
    sheet, refs = None, {}
    for (name, ref), value in cells.items():
        if name != sheet:
            sheet, refs = name, out.setdefault(name, {})
        refs[ref] = value
    return out


MACRO_WORKBOOK = b"application/vnd.ms-excel.sheet.macroEnabled.main+xml"
PLAIN_WORKBOOK = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
_VBA_PART = re.compile(r"^xl/(?:_rels/)?vba[^/]*\.bin(?:\.rels)?$", re.IGNORECASE)


def has_macros(parts: Mapping[str, bytes]) -> bool:
    return any(_VBA_PART.match(name) for name in parts)


def without_macros(parts: Mapping[str, bytes]) -> dict[str, bytes]:
    """The package as a plain .xlsx: the VBA project, its relationships and content types taken out."""
    out = {name: data for name, data in parts.items() if not _VBA_PART.match(name)}
    types = parts["[Content_Types].xml"].replace(MACRO_WORKBOOK, PLAIN_WORKBOOK)
    out["[Content_Types].xml"] = re.sub(rb"<(?:Default|Override)\b[^>]*vbaProject[^>]*/>", b"", types)
    rels = "xl/_rels/workbook.xml.rels"
    if rels in parts:
        out[rels] = re.sub(rb"<Relationship\b[^>]*vba[^>]*\.bin\"[^>]*/>", b"", parts[rels])
    return out


def rewrite(
    src: Path,
    out: Path,
    values: Mapping[str, Mapping[str, Shown]],
    strip_formulas: bool = False,
    drop_macros: bool = False,
    replace: bool = True,
    formulas: Mapping[str, Mapping[str, str]] | None = None,
    refit: bool = True,
    parts: Mapping[str, bytes] | None = None,
) -> int:
    """Write ``src`` with new cached values (by ``sheet_key`` of the sheet name, then "B5") to ``out``.

    Returns how many cells were written. ``strip_formulas`` keeps only the values;
    ``drop_macros`` leaves the VBA project out (a .xlsx cannot hold one); without ``replace`` an
    existing ``out`` is refused. ``formulas`` (same keys) let a chart title saved as fixed text
    find its cell again, and a chart over a table plot the rows in use. With ``refit`` the rows of
    wrapped answers that changed get the height their new text needs (the template's writer, which
    sized every row for the values it wrote, passes False). ``parts``: the package
    ``read_package(src)`` gave, if read already.
    """
    parts = read_package(src) if parts is None else parts
    names = sheet_parts(parts)
    count = 0
    new: dict[str, bytes] = {}
    styles_part = workbook_part(parts, "styles")
    styles = Styles.read(parts[styles_part] if styles_part else None)
    for name, part in names.items():
        sheet_values = values.get(sheet_key(name))
        if not sheet_values and not strip_formulas:
            continue
        xml, n, changed = patch_sheet(parts[part].decode("utf-8"), sheet_values or {}, strip_formulas)
        if refit and changed and sheet_values and styles.wrap:  # wrapped answers that changed: rows as tall
            xml = refit_rows(xml, {ref: sheet_values[ref] for ref in changed if ref in sheet_values}, styles)
        new[part] = xml.encode("utf-8")
        del xml  # its text is not kept beside its bytes while the package is written
        count += n
    new.update(_patch_charts(parts, names, values, formulas))
    new["xl/workbook.xml"] = _FULL_CALC.sub("", parts["xl/workbook.xml"].decode("utf-8")).encode("utf-8")
    drop: set[str] = set()
    if strip_formulas and CALC_CHAIN in parts:  # a calc chain naming cells without formulas is "corrupt"
        drop.add(CALC_CHAIN)
        new["[Content_Types].xml"] = re.sub(
            rb'<Override[^>]*PartName="/xl/calcChain.xml"[^>]*/>', b"", parts["[Content_Types].xml"]
        )
        new["xl/_rels/workbook.xml.rels"] = re.sub(
            rb'<Relationship[^>]*Target="[^"]*calcChain.xml"[^>]*/>', b"", parts["xl/_rels/workbook.xml.rels"]
        )
    final = {k: new.get(k, v) for k, v in parts.items() if k not in drop}
    write_package(out, without_macros(final) if drop_macros else final, replace)
    return count


def _patch_charts(
    parts: Mapping[str, bytes],
    names: Mapping[str, str],
    values: Mapping[str, Mapping[str, Shown]],
    formulas: Mapping[str, Mapping[str, str]] | None,
) -> dict[str, bytes]:
    """Each chart part with its caches refreshed from ``values`` (``patch_chart``), by part name.

    charts.py is imported here, where a workbook has charts, not at the top: its patterns cost
    every calc's start a few milliseconds, and most workbooks computed have no chart."""
    charts = [p for p in parts if p.startswith("xl/charts/") and p.endswith(".xml") and "/_rels/" not in p]
    if not charts:
        return {}
    from excelcalc.workbook.charts import sources_of

    by_key = {sheet_key(name): name for name in names}
    titles = sources_of(formulas, by_key) if formulas else None

    def lookup(sheet: str, cell: str) -> Shown | None:
        return values.get(sheet_key(sheet), {}).get(cell) if sheet_key(sheet) in by_key else None

    def holds(sheet: str, cell: str) -> tuple[str | None, bool]:
        key = sheet_key(sheet)
        formula = formulas.get(key, {}).get(cell) if formulas else None
        value = values.get(key, {}).get(cell) if formula is not None else None
        return formula, value is not None and value != ""

    return {
        part: patch_chart(parts[part].decode("utf-8"), lookup, titles, holds if formulas else None).encode("utf-8")
        for part in charts
    }


def write_package(out: Path, parts: Mapping[str, bytes], replace: bool = True) -> None:
    """Zip ``parts`` and write the file atomically (a temporary file renamed over ``out``)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    write_atomic(Path(out), buffer.getvalue(), replace=replace)
