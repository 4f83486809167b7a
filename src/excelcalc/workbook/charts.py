"""Keep a chart's title true to its data, whichever program saved the file.

A chart title linked to a cell (``<c:tx><c:strRef>``) is refreshed with the other chart caches.
LibreOffice saves such a title as fixed text (``<c:tx><c:rich>``), so after an edit there and a
calc it would still name the old workload. The cell it came from is found again by its formula:
a title like "Per-GPU throughput by family: gpt-oss-120b Server, available" is an instance of
``="Per-GPU throughput by family: "&B5&" "&B6&", "&B7``, whose top-level text pieces it holds in
order. The title is linked to that cell again (its font kept), so calc writes the cell's new
value, and Excel keeps it live.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from excelcalc.workbook.cells import quote_sheet

MIN_LITERAL = 8  # characters of fixed text a formula must give a title to be taken as its source
_P = r"(?:[A-Za-z_][\w.-]*:)?"
_MAIN_TITLE = re.compile(
    rf"<(?P<p>{_P})title>(?P<body>(?:(?!</(?P=p)title>).)*?)</(?P=p)title>",
    re.DOTALL,
)
_RICH = re.compile(rf"<(?P<p>{_P})tx>\s*<(?P=p)rich>(?P<rich>.*?)</(?P=p)rich>\s*</(?P=p)tx>", re.DOTALL)
_PARAGRAPH = re.compile(rf"<({_P})p>(.*?)</\1p>", re.DOTALL)
_RUN_TEXT = re.compile(rf"<({_P})t(?:\s[^>]*)?>(.*?)</\1t>", re.DOTALL)
_BODY_PR = re.compile(rf"<{_P}bodyPr\b[^>]*?(?:/>|>.*?</{_P}bodyPr>)", re.DOTALL)
_LST_STYLE = re.compile(rf"<{_P}lstStyle\b[^>]*?(?:/>|>.*?</{_P}lstStyle>)", re.DOTALL)
_P_PR = re.compile(rf"<{_P}pPr\b[^>]*?(?:/>|>.*?</{_P}pPr>)", re.DOTALL)
_STRING = re.compile(r'"((?:[^"]|"")*)"')


@dataclass(frozen=True)
class TitleSource:
    """A formula cell a fixed title may have come from: where, and the title's pattern."""

    sheet: str  # as written in the file
    ref: str  # "A16"
    pattern: re.Pattern[str]
    literal: int  # characters of fixed text in the pattern


def _pattern(formula: str) -> tuple[re.Pattern[str], int] | None:
    """The texts a concatenation of fixed text and other parts can give, as a pattern.

    Only the formula's top level counts: text inside a function call (``IF(B8="","any size",...)``)
    is one variable part, like a reference."""
    text = formula[1:] if formula.startswith("=") else formula
    parts: list[str] = []
    literal, calls, i = 0, 0, 0
    stack: list[bool] = []  # True: a function call's parenthesis, False: grouping

    def variable() -> None:
        if not parts or parts[-1] != "(.*?)":
            parts.append("(.*?)")

    while i < len(text):
        ch = text[i]
        if ch == '"':
            m = _STRING.match(text, i)
            if m is None:
                return None
            if calls:
                variable()
            else:
                value = m.group(1).replace('""', '"')
                parts.append(re.escape(value))
                literal += len(value)
            i = m.end()
            continue
        if ch == "(":
            call = i > 0 and (text[i - 1].isalnum() or text[i - 1] in "._")
            stack.append(call)
            calls += call
        elif ch == ")":
            if not stack:
                return None
            calls -= stack.pop()
        elif calls == 0 and ch in ",+-*/^<>=%;":
            return None  # not a concatenation of texts
        if calls or ch not in "&() \t\n":
            variable()
        i += 1
    if literal < MIN_LITERAL:
        return None
    return re.compile("".join(parts), re.DOTALL), literal


def title_sources(formulas: Iterable[tuple[str, str, str]]) -> list[TitleSource]:
    """The formula cells (sheet, "A16", formula) that build a text from fixed pieces."""
    out: list[TitleSource] = []
    seen: dict[str, tuple[re.Pattern[str], int] | None] = {}
    for sheet, ref, formula in formulas:
        if '"' not in formula or "&" not in formula:
            continue
        if formula not in seen:
            seen[formula] = _pattern(formula)
        found = seen[formula]
        if found is not None:
            out.append(TitleSource(sheet, ref, *found))
    return out


def _title_text(rich: str) -> str:
    paragraphs = [
        "".join(html.unescape(t.group(2)) for t in _RUN_TEXT.finditer(p.group(2))) for p in _PARAGRAPH.finditer(rich)
    ]
    return "\n".join(paragraphs)


def source_of(title: str, sources: Iterable[TitleSource], sheets: set[str]) -> TitleSource | None:
    """The one cell ``title`` is an instance of; on the chart's own sheets first. None if unsure."""
    matches = [s for s in sources if s.pattern.fullmatch(title)]
    if not matches:
        return None
    best = max(((s.sheet in sheets), s.literal) for s in matches)
    chosen = [s for s in matches if ((s.sheet in sheets), s.literal) == best]
    return chosen[0] if len(chosen) == 1 else None


def relink_title(xml: str, sources: Iterable[TitleSource], sheets: set[str]) -> str:
    """A chart whose main title is fixed text that one formula cell made gets its link back."""
    plot = xml.find("plotArea>")
    m = _MAIN_TITLE.search(xml, 0, plot if plot >= 0 else len(xml))
    if m is None:
        return xml
    p, body = m.group("p"), m.group("body")
    rich = _RICH.search(body)
    if rich is None:
        return xml
    source = source_of(_title_text(rich.group("rich")), sources, sheets)
    if source is None:
        return xml
    ref = f"{quote_sheet(source.sheet)}!${''.join(c for c in source.ref if c.isalpha())}$"
    ref += "".join(c for c in source.ref if c.isdigit())
    link = f"<{p}tx><{p}strRef><{p}f>{html.escape(ref, quote=False)}</{p}f></{p}strRef></{p}tx>"
    body = body[: rich.start()] + link + body[rich.end() :]
    if f"<{p}txPr>" not in body:  # the title's font, as the fixed text had it
        inner = rich.group("rich")
        para = _PARAGRAPH.search(inner)
        found = [r.search(inner) for r in (_BODY_PR, _LST_STYLE)]
        a = "a:" if "<a:" in inner else ""
        ppr = _P_PR.search(para.group(2)) if para else None
        txpr = "".join(f.group(0) for f in found if f) + f"<{a}p>{ppr.group(0) if ppr else ''}</{a}p>"
        end = body.find(f"<{p}extLst>")
        at = end if end >= 0 else len(body)
        body = body[:at] + f"<{p}txPr>{txpr}</{p}txPr>" + body[at:]
    return xml[: m.start("body")] + body + xml[m.end("body") :]


def sources_of(formulas: Mapping[str, Mapping[str, str]], names: Mapping[str, str]) -> list[TitleSource]:
    """``title_sources`` of formulas by sheet key and "A16", with sheet names as written."""
    return title_sources((names.get(key, key), ref, f) for key, cells in formulas.items() for ref, f in cells.items())


# ------------------------------------------------- rows a chart plots

_SERIES_F = re.compile(
    rf"(<(?P<p>{_P})(?P<part>cat|val|xVal|yVal)>\s*<(?P=p)(?:str|num)Ref>\s*<(?P=p)f>)(?P<f>[^<]*)(</(?P=p)f>)",
    re.DOTALL,
)
_COLUMN = re.compile(
    r"^(?P<sheet>(?:'(?:[^']|'')+'|[^!']+))!\$?(?P<col>[A-Z]{1,3})\$?(?P<r1>\d+):\$?(?P=col)\$?(?P<r2>\d+)$"
)
Holds = Callable[[str, str], tuple[str | None, bool]]  # (sheet, "A5") -> (its formula or None, a value not "")
MAX_TABLE_ROWS = 10_000


def _shape(formula: str | None) -> str | None:
    """A formula with its numbers masked: the cells of a filled-down column have one shape."""
    return None if formula is None else re.sub(r"\d+", "#", formula)


def fit_rows(xml: str, holds: Holds) -> str:
    """A chart over table columns plots the rows that hold something, not the table's unused slots.

    Where every category and value range of the chart is one column over the same rows, the
    rows are taken as far down as the same formula is filled (a table trimmed before), then
    trimmed back past the last row holding a value: trailing formulas answering "" are unused
    slots. Plain cells are never trimmed (a user may fill them later)."""
    found = [_COLUMN.match(html.unescape(m.group("f")).strip()) for m in _SERIES_F.finditer(xml)]
    columns = [c for c in found if c is not None]
    if not columns or len(columns) != len(found):
        return xml
    r1, r2 = int(columns[0].group("r1")), int(columns[0].group("r2"))
    if any((int(c.group("r1")), int(c.group("r2"))) != (r1, r2) for c in columns) or r2 <= r1:
        return xml
    cells = [(_unquote(c.group("sheet")), c.group("col")) for c in columns]

    def row(r: int) -> list[tuple[str | None, bool]]:
        return [holds(sheet, f"{col}{r}") for sheet, col in cells]

    last = r2
    while last - r1 < MAX_TABLE_ROWS:
        here, below = row(last), row(last + 1)
        if not all(f is not None and _shape(f) == _shape(g) for (f, _), (g, _) in zip(here, below, strict=True)):
            break
        last += 1
    used = max((r for r in range(r1, last + 1) if any(value for _, value in row(r))), default=r1)
    if used == r2 or any(f is None for r in range(used + 1, last + 1) for f, _ in row(r)):
        return xml  # nothing to trim, or a plain cell among the rows to leave out

    def one(m: re.Match[str]) -> str:
        c = _COLUMN.match(html.unescape(m.group("f")).strip())
        assert c is not None
        ref = f"{c.group('sheet')}!${c.group('col')}${r1}:${c.group('col')}${used}"
        return m.group(1) + html.escape(ref, quote=False) + m.group(5)

    return _SERIES_F.sub(one, xml)


def _unquote(sheet: str) -> str:
    return sheet[1:-1].replace("''", "'") if sheet.startswith("'") else sheet


# ------------------------------------------------- the value axis of a bar chart

_BAR_CHART = re.compile(rf"<({_P})barChart>.*?</\1barChart>", re.DOTALL)
_VAL_CACHE = re.compile(rf"<({_P})val>.*?</\1val>", re.DOTALL)
_POINT = re.compile(rf"<({_P})pt\b[^>]*>\s*<\1v>([^<]*)</\1v>")
_VAL_AX_SCALING = re.compile(
    rf"(?P<head><(?P<p>{_P})valAx>(?:(?!</(?P=p)valAx>).)*?<(?P=p)scaling>)(?P<body>.*?)(?P<tail></(?P=p)scaling>)",
    re.DOTALL,
)
_MIN = re.compile(rf'<{_P}min\s+val="(?P<v>[^"]*)"\s*/>')
_MIN_AFTER = re.compile(rf"<{_P}(?:orientation|max)\b[^>]*/>")


_VAL_AX = re.compile(r"<(?:\w+:)?valAx>")
_OTHER_PLOT = re.compile(
    r"<(?:\w+:)?(?:line|line3D|area|area3D|scatter|bubble|radar|stock|pie|pie3D|doughnut|ofPie|surface|surface3D)Chart>"
)


def plotted_values(xml: str) -> list[float]:
    """The numbers a chart's bar series plot, as their caches hold them."""
    out: list[float] = []
    for bars in _BAR_CHART.finditer(xml):
        for val in _VAL_CACHE.finditer(bars.group(0)):
            for pt in _POINT.finditer(val.group(0)):
                try:
                    out.append(float(pt.group(2)))
                except ValueError:
                    continue
    return out


def fit_value_axis(xml: str) -> str:
    """A bar chart's value axis starts at 0 where every bar it plots is >= 0, and is left to the
    program (Excel, LibreOffice: a round step below the lowest bar) where one is negative.

    Auto-scaling alone may start below 0 with no bar there (wasted width, and bars that do not
    start at the axis); an axis fixed at 0 would cut off a real loss. Only a minimum of 0 is
    set or cleared, so a minimum a user chose elsewhere is kept. Call it after the caches hold
    the new values."""
    values = plotted_values(xml)
    if not values or len(_VAL_AX.findall(xml)) != 1 or _OTHER_PLOT.search(xml):
        return xml  # a chart of several kinds or value axes: which axis is the bars' is the file's to say
    m = _VAL_AX_SCALING.search(xml)
    if m is None:
        return xml
    body, p = m.group("body"), m.group("p")
    found = _MIN.search(body)
    if found is not None:
        try:
            if float(found.group("v")) != 0:
                return xml  # the user's own minimum
        except ValueError:
            return xml
        body = body[: found.start()] + body[found.end() :]
    if min(values) >= 0:
        at = max((e.end() for e in _MIN_AFTER.finditer(body)), default=0)
        body = body[:at] + f'<{p}min val="0"/>' + body[at:]
    return xml[: m.start("body")] + body + xml[m.end("body") :]
