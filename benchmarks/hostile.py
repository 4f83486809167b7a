"""The hostile workbooks issue 30 keeps, each computed by ``template calc`` in a fresh process: the
largest peak memory among them (``hostile_peak_mb``), and how a running total grows with its rows
(``running_total_s``, ``running_total_growth``). See benchmarks/README.md.

Each workbook is written here as raw sheet XML (openpyxl would take minutes for a million cells),
as a program other than Excel may write it. A case the calculator refuses is measured too: it must
be refused early, so its memory is part of the figure.
"""

from __future__ import annotations

import json
import os
import statistics
import zipfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

KEYS = ("running_total_s", "running_total_growth", "hostile_peak_mb")

# the calc alone is timed (from the call to its return: the import is the same for every size)
CALC = """
import json, sys, time
from pathlib import Path
from benchsheet.catalogue.engine import calc
from excelcalc.errors import WorkbookError
t0 = time.perf_counter()
try:
    report = calc(Path(sys.argv[1]), Path(sys.argv[2]))
    outcome = f"computed {report.formulas:,} formulas"
except WorkbookError as exc:
    outcome = "refused: " + str(exc).split(": refused: ")[-1][:120]
print(json.dumps({"s": time.perf_counter() - t0, "outcome": outcome}))
"""

_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
    'main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
    '<sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_BOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)


def workbook(path: Path, rows: Iterable[str], extra: Callable[[zipfile.ZipFile], None] | None = None) -> Path:
    """A workbook of one sheet "S" whose ``<sheetData>`` holds ``rows`` (each a ``<row>`` element, made
    as it is written: a million are never held at once)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _TYPES)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", _BOOK_RELS)
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(
                b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
            )
            for row in rows:
                sheet.write(row.encode())
            sheet.write(b"</sheetData></worksheet>")
        if extra is not None:
            extra(z)
    return path


def column(path: Path, n: int, content: str) -> Path:
    """``n`` cells of ``content`` in column A: ``<f/>``, ``<f>""</f>``..."""
    return workbook(path, (f'<row r="{r}"><c r="A{r}">{content}</c></row>' for r in range(1, n + 1)))


def running_total(path: Path, n: int) -> Path:
    """``=A2+SUM($A$2:A2)`` filled down ``n`` rows, beside numbers (every 7th a text, as a real column)."""

    def row(r: int) -> str:
        a = f'<c r="A{r}" t="inlineStr"><is><t>n/a</t></is></c>' if r % 7 == 0 else f'<c r="A{r}"><v>{r}</v></c>'
        return f'<row r="{r}">{a}<c r="B{r}"><f>A{r}+SUM($A$2:A{r})</f></c></row>'

    return workbook(path, (row(r) for r in range(2, n + 2)))


def references(path: Path, n: int) -> Path:
    """``=A<i>`` beside a number in each of ``n`` rows: each formula's input its own (issue 41: 1,000,000
    of them were accepted and peaked at 1,317 MiB)."""
    return workbook(
        path, (f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}"><f>A{r}</f></c></row>' for r in range(1, n + 1))
    )


def long_text(path: Path, n: int) -> Path:
    """``SUMPRODUCT(LEN(ROW(A2:An)&REPT("a",32000)))``, An holding a value: it grew to 23.6 GB."""
    cells = [
        f'<row r="1"><c r="B1"><f>SUMPRODUCT(LEN(ROW(A2:A{n})&amp;REPT("a",32000)))</f></c></row>',
        f'<row r="{n}"><c r="A{n}"><v>1</v></c></row>',
    ]
    return workbook(path, cells)


def overflow(path: Path, _n: int) -> Path:
    """Numbers past Excel's largest, and numbers too large to compute in time."""
    formulas = ["SUM(1E308,1E308)", 'IFERROR(SUM(1E308,1E308),"caught")', "COMBIN(1E9,5E8)", "FACT(170)"]
    return workbook(path, [f'<row r="{i}"><c r="A{i}"><f>{f}</f></c></row>' for i, f in enumerate(formulas, 1)])


def past_last_row(path: Path, _n: int) -> Path:
    """An array formula over A1:A1999999, past the sheet's last row (it wrote 2M rows: 2.3 GB)."""
    return workbook(path, ['<row r="1"><c r="B1"><f t="array" ref="B1:B1999999">ROW(A1:A1999999)</f></c></row>'])


def large_parts(path: Path, n: int) -> Path:
    """Five parts of ``n // 10,000`` MiB each (100 MiB for 1M), each packed under the zip-bomb ratio."""
    block = os.urandom(3_000) + bytes((1 << 20) - 3_000)

    def parts(z: zipfile.ZipFile) -> None:
        for k in range(5):
            with z.open(f"xl/media/image{k}.bin", "w", force_zip64=True) as part:
                for _ in range(max(1, n // 10_000)):
                    part.write(block)

    return workbook(path, ['<row r="1"><c r="A1"><v>1</v></c></row>'], parts)


CASES: dict[str, Callable[[Path, int], Path]] = {
    "empty <f/> cells": lambda p, n: column(p, n, "<f/>"),
    '="" cells': lambda p, n: column(p, n, '<f>""</f>'),
    "=A<i> formulas beside their inputs": references,
    "long texts (SUMPRODUCT of LEN of & over the rows)": long_text,
    "overflow, COMBIN, FACT": overflow,
    "array formula past the last row": past_last_row,
    "five large parts": large_parts,
}


@dataclass(frozen=True)
class Scale:
    cells: int  # the 1M of the cases' names
    running: tuple[int, int]  # rows of the running total, and 4x as many
    turns: int  # calcs of each running total, taking turns


FULL = Scale(1_000_000, (25_000, 100_000), 3)
QUICK = Scale(2_000, (200, 800), 1)


class Child(Protocol):
    wall_ms: float
    maxrss_mib: float
    stdout: str


RunChild = Callable[[str, dict[str, str], Sequence[str], Path | None], Child]


def measure(scale: Scale, run_child: RunChild, env: dict[str, str], tmp: Path, notes: list[str]) -> dict[str, Any]:
    """Each case in a fresh process (its peak RSS from ``os.wait4``), then the running totals in turns."""
    out = tmp / "hostile-out.xlsx"

    def calc(src: Path) -> tuple[dict[str, Any], float]:
        child = run_child(CALC, env, [str(src), str(out)], tmp)
        return json.loads(child.stdout.strip().splitlines()[-1]), child.maxrss_mib

    cases: dict[str, dict[str, Any]] = {}
    for name, make in CASES.items():
        src = make(tmp / "hostile.xlsx", scale.cells)
        got, rss = calc(src)
        cases[name] = {"s": got["s"], "peak_mb": rss, "outcome": got["outcome"]}
        src.unlink()
    small = running_total(tmp / "running-small.xlsx", scale.running[0])
    large = running_total(tmp / "running-large.xlsx", scale.running[1])
    calc(small)  # unmeasured: byte code written, files in the OS cache
    few, many = [], []
    for _ in range(scale.turns):
        few.append(calc(small)[0]["s"])
        got, rss = calc(large)
        many.append(got["s"])
        cases[f"running total, {scale.running[1]:,} rows"] = {"s": got["s"], "peak_mb": rss, "outcome": got["outcome"]}
    peak = max(cases, key=lambda k: cases[k]["peak_mb"])
    notes.append(
        f"hostile: {len(cases)} workbooks ({scale.cells:,} cells or rows; five parts of "
        f"{max(1, scale.cells // 10_000)} MiB), each calc'd in a fresh process (peak RSS by os.wait4); the largest, "
        f"{cases[peak]['peak_mb']:.0f} MiB, is {peak!r}; "
        + "; ".join(f"{k}: {v['s']:.1f} s, {v['peak_mb']:.0f} MiB, {v['outcome']}" for k, v in cases.items())
    )
    notes.append(
        f"running total: =A2+SUM($A$2:A2) filled down {scale.running[0]:,} and {scale.running[1]:,} rows, "
        f"{scale.turns} calcs of each in turns, timed from the call to its return"
    )
    return {
        "hostile": cases,
        "running_total_s": statistics.median(many),
        "running_total_growth": statistics.median(many) / statistics.median(few),
        "hostile_peak_mb": cases[peak]["peak_mb"],
    }
