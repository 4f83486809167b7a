"""Row heights for wrapped text, the same for the template's writer and for calc.

Neither Excel nor LibreOffice makes a row taller for wrapped text when it opens a file, so the
height is written: the template's writer sets it for the texts it writes, and calc sets it again
for the rows whose wrapped formula answers it computed (a GAINS row whose pairing is now one line,
or two), reading the fonts, wrap formats and column widths from the file itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from defusedxml import ElementTree

from excelcalc.workbook.cells import col_number

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
COLUMN_PADDING = 0.71  # what Excel adds to a column's width in characters when it stores it
ONE_LINE = 12.75  # points: a row of one line of the default font (17 pixels, Excel's default row)


def wrapped_lines(text: str, per_line: float) -> int:
    """Lines a paragraph takes when wrapped at spaces into lines of ``per_line`` characters."""
    lines, used = 1, 0.0
    for word in text.split(" "):
        need = float(len(word) + (1 if used else 0))
        if used and used + need > per_line:
            lines, used = lines + 1, 0.0
            need = float(len(word))
        while need > per_line:  # a word longer than a line breaks anywhere
            lines, need = lines + 1, need - per_line
        used += need
    return lines


def text_height(text: str, width: float, size: float, base_size: float) -> float | None:
    """Points a wrapped ``text`` needs in a column ``width`` characters (of the ``base_size``
    font) wide, in a font of ``size``; None for one line (the default height does)."""
    per_line = max(1.0, width * base_size / size)
    lines = sum(wrapped_lines(part, per_line) for part in text.split("\n"))
    return lines * size * 1.3 + 2 if lines > 1 else None


@dataclass(frozen=True)
class Styles:
    """What a cell style (its ``s`` index) means for a row's height: wrapped, and its font size."""

    wrap: frozenset[int]
    size: tuple[float, ...]  # by style index
    base: float  # the workbook's default font size

    @staticmethod
    def read(xml: bytes | None) -> Styles:
        if not xml:
            return Styles(frozenset(), (), 11.0)
        root = ElementTree.fromstring(xml)
        listed = root.find(f"{NS}fonts")
        fonts = [_size(f) for f in (listed.iter(f"{NS}font") if listed is not None else ())] or [11.0]
        xfs = root.find(f"{NS}cellXfs")
        wrap, sizes = set(), []
        for i, xf in enumerate(xfs.iter(f"{NS}xf") if xfs is not None else ()):
            font = int(xf.get("fontId", "0") or 0)
            sizes.append(fonts[font] if font < len(fonts) else fonts[0])
            alignment = xf.find(f"{NS}alignment")
            if alignment is not None and alignment.get("wrapText") in ("1", "true"):
                wrap.add(i)
        return Styles(frozenset(wrap), tuple(sizes), fonts[0])


def _size(font: Any) -> float:
    sz = font.find(f"{NS}sz")
    try:
        return float(sz.get("val")) if sz is not None else 11.0
    except (TypeError, ValueError):
        return 11.0


_COLS = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?col\b([^>]*)/?>")
_FORMAT = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?sheetFormatPr\b([^>]*)/?>")
_ROW = re.compile(r"<(?P<p>(?:[A-Za-z_][\w.-]*:)?)row\b(?P<attrs>[^>]*?)(?P<end>/?>)")
_CELL = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?c\b([^>]*?)(?:/>|>)")
_ATTR = re.compile(r'([\w:]+)="([^"]*)"')
_REF = re.compile(r"^([A-Z]{1,3})(\d+)$")
_MERGED = re.compile(r'<(?:[A-Za-z_][\w.-]*:)?mergeCell\b[^>]*?\sref="\$?([A-Z]{1,3})\$?(\d+):\$?([A-Z]{1,3})\$?(\d+)"')


def refit_rows(xml: str, values: Mapping[str, object], styles: Styles) -> str:
    """Set the height of each row holding a wrapped formula answer of ``values`` ("B5" -> value)
    to what its texts need (the default height where one line does, or where none is left). On a
    sheet whose default row is thinner than a line (empty slots as hairlines), one line is written."""
    if not styles.wrap:  # no cell style wraps: no row height depends on its text
        return xml
    fmt = _FORMAT.search(xml)
    fattrs = dict(_ATTR.findall(fmt.group(1))) if fmt else {}
    thin = float(fattrs.get("defaultRowHeight") or ONE_LINE) < ONE_LINE - 0.5
    default_width = float(fattrs.get("defaultColWidth") or float(fattrs.get("baseColWidth") or 8) + COLUMN_PADDING)
    widths: dict[int, float] = {}
    for m in _COLS.finditer(xml):
        a = dict(_ATTR.findall(m.group(1)))
        try:
            hidden = a.get("hidden") in ("1", "true")  # shows nothing, so needs no height
            for c in range(int(a["min"]), int(a["max"]) + 1):
                widths[c] = 0.0 if hidden else float(a.get("width", default_width))
        except (KeyError, ValueError):
            continue
    spans: dict[tuple[int, int], float] = {}  # a merged cell's first (row, column): the width its text wraps in
    for m in _MERGED.finditer(xml):
        c1, r1, c2, r2 = col_number(m.group(1)), int(m.group(2)), col_number(m.group(3)), int(m.group(4))
        width = sum(widths.get(c, default_width) for c in range(c1, c2 + 1)) if r1 == r2 else 0.0  # rows: not fitted
        spans[(r1, c1)] = width + COLUMN_PADDING * (c2 - c1)  # the columns' padding is room for text once merged
    needed: dict[int, float | None] = {}
    for m in _CELL.finditer(xml):
        a = dict(_ATTR.findall(m.group(1)))
        ref = _REF.match(a.get("r", ""))
        if ref is None or ref.group(0) not in values or not a.get("s", "").isdigit():
            continue
        style = int(a["s"])
        row, col = int(ref.group(2)), col_number(ref.group(1))
        span = spans.get((row, col))
        if style not in styles.wrap or (widths.get(col) if span is None else span) == 0:
            continue
        value = values[ref.group(0)]
        size = styles.size[style] if style < len(styles.size) else styles.base
        width = max(1.0, (widths.get(col, default_width) if span is None else span) - COLUMN_PADDING)
        height = text_height(value, width, size, styles.base) if isinstance(value, str) and value else None
        if height is None and thin and isinstance(value, str) and value:
            height = ONE_LINE
        have = needed.get(row)
        needed[row] = height if have is None else max(have, height or 0.0)
    if not needed:
        return xml

    def one(m: re.Match[str]) -> str:
        attrs = m.group("attrs")
        r = re.search(r'\sr="(\d+)"', attrs)
        if r is None or int(r.group(1)) not in needed:
            return m.group(0)
        attrs = re.sub(r'\s(?:ht|customHeight)="[^"]*"', "", attrs)
        height = needed[int(r.group(1))]
        if height is not None:
            attrs += f' ht="{height:g}" customHeight="1"'
        return f"<{m.group('p')}row{attrs}{m.group('end')}"

    return _ROW.sub(one, xml)
