"""Workbooks from outside: refused before loading when they could hurt, and no imported text becomes a formula."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest
from defusedxml import EntitiesForbidden
from openpyxl.worksheet.cell_range import CellRange

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.templates.builder import build
from tests import robustness

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>"""


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("safety") / "cluster-sizing.xlsx"
    build(path)
    return path


def _variant(src: Path, dst: Path, change: dict[str, bytes], compress: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", compress) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, change.pop(info.filename, zin.read(info)))
        for name, data in change.items():
            zout.writestr(name, data)
    return dst


def _refused(path: Path, capsys: pytest.CaptureFixture[str], reason: str) -> None:
    robustness.tried("hostile workbooks for calc and freeze (entities, zip bomb, huge sheet, not a zip)")
    before = path.read_bytes()
    for args in (["template", "calc", str(path)], ["freeze", str(path), str(path.with_name("frozen.xlsx"))]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert str(path) in err and reason in err and "Traceback" not in err, err
    assert path.read_bytes() == before and not path.with_name("frozen.xlsx").exists()
    robustness.held("hostile workbooks for calc and freeze (entities, zip bomb, huge sheet, not a zip)")


def test_billion_laughs_is_refused(template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _variant(template, tmp_path / "laughs.xlsx", {"xl/worksheets/sheet2.xml": BILLION_LAUGHS})
    _refused(bad, capsys, "declares XML entities")
    # and openpyxl itself parses through defusedxml
    assert openpyxl.DEFUSEDXML
    with pytest.raises(ValueError) as exc:
        openpyxl.load_workbook(bad)
    assert isinstance(exc.value.__cause__ or exc.value.__context__, EntitiesForbidden)


def test_zip_bomb_is_refused(template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _variant(template, tmp_path / "bomb.xlsx", {"xl/media/padding.bin": bytes(20 << 20)})
    _refused(bad, capsys, "its packed size")


def test_a_declared_size_is_not_trusted_the_cells_present_are_counted(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """LibreOffice declares <dimension ref="A1:K1048576">: the declared size proves nothing, so a
    workbook declaring the whole sheet computes; the cap counts the cells a sheet really holds."""
    from excelcalc.workbook import xlsxfile

    with zipfile.ZipFile(template) as zf:
        xml = zf.read("xl/worksheets/sheet2.xml")
    huge = re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', xml)
    assert huge != xml
    declared = _variant(template, tmp_path / "declared.xlsx", {"xl/worksheets/sheet2.xml": huge})
    assert main(["template", "calc", str(declared)]) == 0
    capsys.readouterr()
    cells = len(re.findall(rb"<c[ >/]", xml))
    monkeypatch.setattr(xlsxfile, "MAX_CELLS", cells - 1)  # a sheet holding more cells than the cap
    _refused(_variant(template, tmp_path / "many.xlsx", {}), capsys, "cells")


def test_not_a_workbook_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "text.xlsx"
    bad.write_text("hello")
    _refused(bad, capsys, "not a zip file")


def test_macros_are_carried_not_run(template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = b"VBA project bytes that must come out unchanged"
    xlsm = _variant(template, tmp_path / "with-macros.xlsm", {"xl/vbaProject.bin": payload})
    assert main(["template", "calc", str(xlsm)]) == 0
    with zipfile.ZipFile(xlsm) as zf:
        assert zf.read("xl/vbaProject.bin") == payload


def test_formula_like_names_never_become_formulas(shared: Path, tmp_path: Path) -> None:
    rows = json.loads((shared / "v6.1/summary.json").read_bytes())
    planted = '=HYPERLINK("http://evil.example","click")'
    for row in rows.values():
        if row["Platform"] == "HPE_XD690_B300_SXM_270GBx8_TRT":  # 6.1-0052, the B300 gpt-oss-120b leader
            row["SystemName"] = planted
            row["framework"] = "@SUM(1)"
    source = tmp_path / "summary.json"
    source.write_text(json.dumps(rows))
    assert main(["refresh", str(source)]) == 0
    store.set_table(None)
    out = tmp_path / "planted.xlsx"
    build(out)
    book = openpyxl.load_workbook(out)  # formulas as written
    values = openpyxl.load_workbook(out, data_only=True)  # the cached values beside them
    seen = 0
    for ws in book.worksheets:
        arrays = {c for ref in ws.array_formulae.values() for c in CellRange(ref).cells}  # one formula's cells
        for row in ws.iter_rows():
            for cell in row:
                cached = values[ws.title][cell.coordinate].value
                of_array = (cell.row, cell.column) in arrays  # its text is the array formula's answer
                if isinstance(cell.value, str) and "evil.example" in cell.value and not of_array:
                    pytest.fail(f"{ws.title}!{cell.coordinate} holds the planted text as a formula")
                if isinstance(cached, str) and "evil.example" in cached:
                    seen += 1
                    if of_array or (isinstance(cell.value, str) and cell.value.startswith("=")):
                        # a formula's cached value is typed text (t="str"), as the add-in returns it (issue 19)
                        assert not cached.startswith(("+", "-", "@")) and (
                            not cached.startswith("=") or cached == planted
                        ), (ws.title, cell.coordinate, cached)
                    else:  # a plain cell, which a user may edit: never a formula
                        assert not cached.startswith(("=", "+", "-", "@")), (ws.title, cell.coordinate, cached)
    assert seen, "the planted system name should appear (Compare, Sources)"
    robustness.tried("cells showing a planted formula-like system name", seen)
    robustness.held("cells showing a planted formula-like system name", seen)
    with zipfile.ZipFile(out) as zf:
        for name in zf.namelist():
            if name.startswith("xl/worksheets/"):
                assert b"<f>HYPERLINK" not in zf.read(name)


SECRET = "TOP-SECRET-payroll-7731"
EXTERNAL_LINK = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"
 xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><externalBook r:id="rId1">
<sheetNames><sheetName val="Sheet1"/></sheetNames></externalBook></externalLink>"""
EXTERNAL_LINK_RELS = b"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1"
 Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLinkPath"
 Target="secret.xlsx" TargetMode="External"/></Relationships>"""


def _linking_workbook(folder: Path) -> tuple[Path, dict[str, str]]:
    """A workbook whose cells reach for secret.xlsx beside it and one folder up, by path, through an
    Excel external link ([1]) and through a defined name; and the formulas, by cell."""
    from openpyxl.workbook.defined_name import DefinedName

    for where in (folder, folder.parent):
        secret = openpyxl.Workbook()
        secret.active.title = "Sheet1"
        secret.active["A1"] = SECRET
        secret.save(where / "secret.xlsx")
    cells = {
        "B1": "='[secret.xlsx]Sheet1'!A1",
        "B2": "='../[secret.xlsx]Sheet1'!A1",
        "B3": "=[1]Sheet1!A1",
        "B4": "=LEAK",
        "B5": '=B1&" and more"',
    }
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    ws["A1"] = "mine"
    for ref, text in cells.items():
        ws[ref] = text
    ws["C1"] = '=A1&"!"'  # an ordinary formula still computes
    wb.defined_names["LEAK"] = DefinedName("LEAK", attr_text="'[secret.xlsx]Sheet1'!$A$1")
    plain = folder / "plain.xlsx"
    wb.save(plain)
    with zipfile.ZipFile(plain) as zf:
        book = zf.read("xl/workbook.xml").replace(
            b"</sheets>", b'</sheets><externalReferences><externalReference r:id="rIdLink"/></externalReferences>'
        )
        rels = zf.read("xl/_rels/workbook.xml.rels").replace(
            b"</Relationships>",
            b'<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            b'relationships/externalLink" Target="externalLinks/externalLink1.xml"/></Relationships>',
        )
        types = zf.read("[Content_Types].xml").replace(
            b"</Types>",
            b'<Override PartName="/xl/externalLinks/externalLink1.xml" ContentType="application/'
            b'vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/></Types>',
        )
    assert b"xmlns:r=" in book
    path = _variant(
        plain,
        folder / "linking.xlsx",
        {
            "xl/workbook.xml": book,
            "xl/_rels/workbook.xml.rels": rels,
            "[Content_Types].xml": types,
            "xl/externalLinks/externalLink1.xml": EXTERNAL_LINK,
            "xl/externalLinks/_rels/externalLink1.xml.rels": EXTERNAL_LINK_RELS,
        },
    )
    plain.unlink()
    return path, cells


def test_external_workbook_links_are_not_followed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    kind = "workbooks reaching other local files (path, ../path, [1] link, defined name)"
    folder = tmp_path / "in"
    folder.mkdir()
    path, cells = _linking_workbook(folder)
    out, frozen = folder / "out.xlsx", folder / "frozen.xlsx"
    reason = "#REF! external workbook references are not followed"
    robustness.tried(kind, len(cells))
    # a real process, so that anything formulas logs would reach stderr (pytest captures logging in-process)
    done = subprocess.run(
        [sys.executable, "-m", "benchsheet.cli", "template", "calc", str(path), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert SECRET not in done.stdout + done.stderr
    assert "loading" not in done.stderr.lower() and "Traceback" not in done.stderr, done.stderr
    assert f"{reason}\n      in Sheet1!B1, Sheet1!B2, Sheet1!B3, Sheet1!B4, Sheet1!B5\n" in done.stderr
    with caplog.at_level(logging.DEBUG):
        assert main(["freeze", str(path), str(frozen)]) == 1
    assert SECRET not in "".join(capsys.readouterr())
    assert not [r for r in caplog.records if r.name.startswith("formulas")], caplog.text
    for written in (out, frozen):
        with zipfile.ZipFile(written) as zf:
            for name in zf.namelist():
                assert SECRET.encode() not in zf.read(name), f"{written.name}: {name}"
        shown = openpyxl.load_workbook(written, data_only=True)["Sheet1"]
        assert shown["C1"].value == "mine!"
        for ref in cells:  # Excel's error value in the cell; the reason is on stderr (issue 19)
            assert shown[ref].value == reason.split()[0], ref
    assert openpyxl.load_workbook(out)["Sheet1"]["B2"].value == cells["B2"]  # the formula stays as written
    robustness.held(kind, len(cells))


def test_cells_are_counted_as_the_pattern_finds_them() -> None:
    """The cap's count takes a shortcut where no tag is prefixed; it finds what the pattern finds:
    every ``<c>`` however its name ends, never ``<col>`` or ``<cfRule>``, and prefixed tags too."""
    from excelcalc.workbook import sheetxml

    xml = (
        b'<sheetData><row r="1"><c r="A1"/><c r="B1">x</c><c>y</c><c\tr="C1"/><c\nr="D1"/><c\rr="E1"/>'
        b'<c\x0br="G1"/><c\x0cr="H1"/><col min="1"/><cfRule type="x"/><cc/></row></sheetData>'
    )
    prefixed = xml.replace(b"<c", b"<x:c").replace(b"</c", b"</x:c") + b'<c r="F1"/>'
    for sheet in (xml, prefixed, b"", b"<c"):
        assert sheetxml.cells_present(sheet) == len(sheetxml._CELL_TAG.findall(sheet)), sheet
    assert sheetxml.cells_present(xml) == 8 and sheetxml.cells_present(prefixed) == 9
