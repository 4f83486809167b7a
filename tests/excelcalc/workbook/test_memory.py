"""Memory a calc holds, bounded by what the file holds (issue 30): 1M empty ``<f/>`` cells took 35 s
and 2.28 GB, 1M ``=""`` cells 1.17 GB, a 3 MB file of five 100 MiB parts 1.45 GB. What a calc
holds is measured on 20,000 cells by ``tracemalloc`` (its Python objects: bytes per cell, never the
clock), and a workbook beyond the caps is refused before it is computed, saying why."""

from __future__ import annotations

import os
import tracemalloc
import zipfile
from pathlib import Path

import openpyxl
import pytest

from benchsheet.cli import main
from excelcalc.workbook.calc import calc

CELLS = 20_000
TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/'
    'main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
    '<sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
BOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)


def column(path: Path, rows: int, content: str) -> Path:
    """A workbook of one sheet whose column A holds ``rows`` cells of ``content`` (``<f/>``,
    ``<f>""</f>``...), as a program other than Excel may write it."""
    cells = "".join(f'<row r="{r}"><c r="A{r}">{content}</c></row>' for r in range(1, rows + 1))
    sheet = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{cells}'
        "</sheetData></worksheet>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", BOOK_RELS)
        z.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


def held_per_cell(src: Path, out: Path) -> float:
    """The most memory a calc of ``src`` held (its Python objects, ``tracemalloc``'s peak), per cell."""
    calc(src, out)  # the engine's modules imported: the same for every file
    tracemalloc.start()
    try:
        calc(src, out)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak / CELLS


def test_an_empty_formula_is_no_formula(tmp_path: Path) -> None:
    """``<f/>`` (or ``<f></f>``) holds no formula: the cell is its value, as the file caches it. It
    sent the file to openpyxl, which made each the formula "=" (``#VALUE!``): 2,150 bytes a cell,
    1M cells 2.28 GB. Now 140."""
    src = column(tmp_path / "empty.xlsx", CELLS, "<f/><v>3</v>")
    report = calc(src, tmp_path / "out.xlsx")
    assert report.formulas == 0 and report.ok
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    assert got["A1"].value == 3 and got[f"A{CELLS}"].value == 3
    per_cell = held_per_cell(column(tmp_path / "bare.xlsx", CELLS, "<f/>"), tmp_path / "out.xlsx")
    assert per_cell < 400, f"{per_cell:.0f} bytes a cell: 1M cells would hold {per_cell:.0f} MB"


def test_one_formula_in_many_cells_holds_little_for_each(tmp_path: Path) -> None:
    """1M cells of ``=""`` held 1.17 GB: a text, an empty list and two keys a cell on top of its
    place. The text is shared, the references a tuple (the empty one shared), one key a cell: 760
    bytes a cell where it was 1,075, so 1M cells stay under 1 GB."""
    src = column(tmp_path / "blank.xlsx", CELLS, '<f>""</f>')
    report = calc(src, tmp_path / "out.xlsx")
    assert report.formulas == CELLS and report.ok
    per_cell = held_per_cell(src, tmp_path / "out.xlsx")
    assert per_cell < 900, f"{per_cell:.0f} bytes a cell: 1M cells would hold {per_cell:.0f} MB"


def test_the_values_of_a_large_sheet_hold_little_for_each(tmp_path: Path) -> None:
    """calc writes the formula cells: the other cells' values are not made again as its answers
    (530 bytes a cell of a number, now 280)."""
    per_cell = held_per_cell(column(tmp_path / "numbers.xlsx", CELLS, "<v>123456.5</v>"), tmp_path / "out.xlsx")
    assert per_cell < 400, f"{per_cell:.0f} bytes a cell: 1M cells would hold {per_cell:.0f} MB"


def test_more_formulas_than_the_cap_are_refused_as_they_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from excelcalc.workbook import book

    monkeypatch.setattr(book, "MAX_FORMULAS", CELLS - 1)
    src = column(tmp_path / "many.xlsx", CELLS, "<f>1+1</f>")
    assert main(["template", "calc", str(src), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert f"more than {CELLS - 1:,} formula cells" in err and "Split the workbook" in err, err
    assert not (tmp_path / "out.xlsx").exists()


def test_more_cells_than_the_cap_in_all_sheets_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each sheet under the cap of a sheet let ten sheets of 2M cells through."""
    from excelcalc.workbook import xlsxfile

    wb = openpyxl.Workbook()
    for name in ("A", "B"):
        ws = wb.create_sheet(name)
        for r in range(1, 11):
            ws[f"A{r}"] = r
    wb.save(tmp_path / "two.xlsx")
    monkeypatch.setattr(xlsxfile, "MAX_WORKBOOK_CELLS", 15)
    assert main(["template", "calc", str(tmp_path / "two.xlsx"), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "its sheets hold more than 15 cells in all" in err, err
    assert not (tmp_path / "out.xlsx").exists()


def test_a_small_file_of_five_large_parts_is_refused_before_it_is_unpacked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 3 MB file of five 100 MiB parts, each packed under the ratio of a zip bomb, unpacked to
    500 MiB held at once (1.45 GB): the parts' sizes in all are refused first."""
    src = column(tmp_path / "parts.xlsx", 3, "<v>1</v>")
    block = os.urandom(3_000) + bytes((1 << 20) - 3_000)  # packs about 180x: under the ratio refused
    with zipfile.ZipFile(src, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for n in range(5):
            with z.open(f"xl/media/image{n}.bin", "w") as part:
                for _ in range(100):
                    part.write(block)
    assert src.stat().st_size < 5 << 20
    assert main(["template", "calc", str(src), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "MiB once unpacked" in err and "Traceback" not in err, err
    assert not (tmp_path / "out.xlsx").exists()


def references(path: Path, rows: int, formula: str = "A{r}") -> Path:
    """``=A<r>`` (or ``formula``) in column B beside a number in column A, ``rows`` rows: each formula's
    input its own."""
    cells = "".join(
        f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}"><f>{formula.format(r=r)}</f></c></row>'
        for r in range(1, rows + 1)
    )
    sheet = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{cells}'
        "</sheetData></worksheet>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("xl/workbook.xml", WORKBOOK)
        z.writestr("xl/_rels/workbook.xml.rels", BOOK_RELS)
        z.writestr("xl/worksheets/sheet1.xml", sheet)
    return path


def test_a_memo_of_answers_never_asked_again_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: 1,000,000 ``=A<i>`` with their inputs were accepted and peaked at 1,317 MiB. The memo
    of pure formulas kept an answer for each though none repeats: it is dropped once it holds
    ``MEMO_TRIAL`` answers of which few were asked again (with the references freed as the answers
    are collected and the writer's one copy of the sheet, the peak RSS is now 1,021 MiB: hostile.CALC
    in a fresh process). Measured here with the trial at 1,000 formulas against a memo kept whole, on
    ``=A<i>*1``: a bare ``=A<i>`` now reads its cell without the memo (``Runner.value``)."""
    from excelcalc.workbook import runner

    src = references(tmp_path / "refs.xlsx", CELLS, "A{r}*1")
    report = calc(src, tmp_path / "out.xlsx")
    assert report.formulas == CELLS and report.ok
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    assert got["B7"].value == 7 and got[f"B{CELLS}"].value == CELLS
    monkeypatch.setattr(runner, "MEMO_TRIAL", 10**9)
    kept = held_per_cell(src, tmp_path / "out.xlsx")
    monkeypatch.setattr(runner, "MEMO_TRIAL", 1_000)
    dropped = held_per_cell(src, tmp_path / "out.xlsx")
    assert kept - dropped > 100, f"{kept:.0f} bytes a formula with the memo kept, {dropped:.0f} dropped"
