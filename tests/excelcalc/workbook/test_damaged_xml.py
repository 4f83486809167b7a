"""A workbook whose XML is damaged is refused naming the part, the sheet and the cell, in the product's words
(issue 42 item 8: "Unable to read workbook" named no cell; a damaged sheet was read through openpyxl, whose
parser's words ("mismatched tag: line 1, column 439") were the reason, a damaged styles part answered
"(please report this)", and some damage was not seen at all: the cells after it were lost and calc said 0)."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from benchsheet.cli import main

SHEET = "xl/worksheets/sheet1.xml"
REPAIR = "open it in Excel (which offers to repair it) or LibreOffice and save it again"


def _book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws["A1"], ws["A2"], ws["B1"], ws["B2"] = 2, "=A1*3", "text", 7
    wb.create_sheet("Other")["A1"] = "=Data!A2+1"
    wb.save(path)
    return path


def _damaged(tmp_path: Path, part: str, change: Callable[[bytes], bytes]) -> Path:
    src = _book(tmp_path / "good.xlsx")
    out = tmp_path / "damaged.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info, change(data) if info.filename == part else data)
    return out


def _refused(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    out = path.with_name("out.xlsx")
    assert main(["template", "calc", str(path), "--out", str(out)]) == 2
    assert not out.exists()
    err = capsys.readouterr().err
    for words in ("Unable to read workbook", "please report this", "Traceback", "not well-formed", "mismatched"):
        assert words not in err, err
    assert REPAIR in err, err
    return err


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.replace(b"</row>", b"</rowx>", 1), "near cell B1"),  # a tag misspelt after row 1's cells
        (lambda d: d.replace(b'<c r="B2"', b"<c r=B2", 1), "near cell A2"),  # an attribute without quotes
        (lambda d: d.replace(b"<v>7</v>", b"<v>7\x01</v>", 1), "near cell B2"),  # a control character
        (lambda d: d[: d.index(b'<c r="B2"') + 12], "near cell B2"),  # cut short in the middle of a cell
    ],
)
def test_a_damaged_sheet_names_its_sheet_part_and_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[bytes], bytes], where: str
) -> None:
    err = _refused(_damaged(tmp_path, SHEET, change), capsys)
    assert f"sheet 'Data' ({SHEET}) is damaged" in err and where in err, err


def test_a_sheet_that_is_no_xml_at_all_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(_damaged(tmp_path, SHEET, lambda d: b"\x00\x01 not a sheet"), capsys)
    assert f"sheet 'Data' ({SHEET}) is damaged" in err, err


def test_a_sheet_the_quick_reader_leaves_to_openpyxl_is_named_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cell without its address sends the workbook to openpyxl, whose words were the reason."""
    err = _refused(
        _damaged(tmp_path, SHEET, lambda d: d.replace(b'<c r="B1"', b"<c", 1).replace(b"</row>", b"</rowx>", 1)),
        capsys,
    )
    assert f"sheet 'Data' ({SHEET}) is damaged" in err, err


@pytest.mark.parametrize(
    ("part", "named"),
    [
        ("xl/workbook.xml", "the workbook's list of sheets (xl/workbook.xml) is damaged"),
        ("xl/styles.xml", "the styles (xl/styles.xml) are damaged"),
    ],
)
def test_a_damaged_part_that_is_no_sheet_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], part: str, named: str
) -> None:
    err = _refused(_damaged(tmp_path, part, lambda d: d[: len(d) // 2]), capsys)
    assert named in err, err


@pytest.mark.parametrize(
    ("part", "change"),
    [
        ("xl/comments/comment1.xml", lambda d: d[: len(d) // 2]),
        ("xl/worksheets/_rels/sheet1.xml.rels", lambda d: d[: len(d) // 2]),
    ],
)
def test_a_damaged_part_only_openpyxl_reads_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], part: str, change: Callable[[bytes], bytes]
) -> None:
    """A cell without its address sends the workbook to openpyxl, which reads a sheet's comments and links:
    their damage answered its parser's words ("unclosed token: line 1, column 84")."""
    from openpyxl.comments import Comment

    src = _book(tmp_path / "good.xlsx")
    wb = openpyxl.load_workbook(src)
    wb["Data"]["B1"].comment = Comment("checked", "me")
    wb.save(src)
    changes: dict[str, Callable[[bytes], bytes]] = {part: change, SHEET: lambda d: d.replace(b'<c r="B1"', b"<c", 1)}
    out = tmp_path / "damaged.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info, changes[info.filename](data) if info.filename in changes else data)
    err = _refused(out, capsys)
    assert f"the part {part} is damaged" in err, err
