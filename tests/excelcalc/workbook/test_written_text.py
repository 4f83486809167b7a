"""Texts calc writes into a sheet as Excel writes them (issue 30): a control character XML cannot
hold as its escape ``_x0007_`` (it was dropped: ``CHAR(7)&"7"&CHAR(7)`` was written "7"), a
carriage return as ``_x000D_`` (an XML reader reads a raw one as a line feed), and a text that
reads as such an escape with its underscore escaped (``_x005F_``), ECMA-376 Part 1, 22.9.2.19."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl

from excelcalc.workbook.calc import calc


def test_control_characters_and_carriage_returns_are_written_escaped(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws["A1"] = '=CHAR(7)&"7"&CHAR(7)'
    ws["A2"] = '="a"&CHAR(13)&"b"&CHAR(10)&"c"'
    ws["A3"] = '="_x0041_"'
    ws["A4"] = "=LEN(A1)"
    wb.save(tmp_path / "in.xlsx")
    calc(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    with zipfile.ZipFile(tmp_path / "out.xlsx") as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode("utf-8")
    cached = dict(re.findall(r'<c r="(A\d)"[^>]*>.*?<v>(.*?)</v>', xml, re.DOTALL))
    assert cached["A1"] == "_x0007_7_x0007_"
    assert cached["A2"] == "a_x000D_b\nc"
    assert cached["A3"] == "_x005F_x0041_"
    assert cached["A4"] == "3"


def test_inline_strings_are_read_with_their_escapes_decoded(tmp_path: Path) -> None:
    """ECMA-376 Part 1, 22.9.2.19 (ST_Xstring): ``_xHHHH_`` in a cell's text is the character
    HHHH, and ``_x005F_`` an underscore that keeps a following escape literal; shared strings were
    read so, inline strings (``t="inlineStr"``, as XlsxWriter's constant_memory writes every text)
    kept them: LEN of "a" CR "bc" was 10, CODE of the CR 95 (issue 41 item 2). The workbook is
    XlsxWriter's own, read as Excel reads it."""
    import xlsxwriter

    path = tmp_path / "in.xlsx"
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = wb.add_worksheet("S")
    ws.write_string("A1", "a\rbc")  # constant_memory: each row written whole, in order
    ws.write_formula("B1", "=LEN(A1)")
    ws.write_formula("C1", "=CODE(MID(A1,2,1))")
    ws.write_formula("D1", '=A1="a"&CHAR(13)&"bc"')
    ws.write_string("A2", "x_x000D_y")  # a text that reads as an escape: written x_x005F_x000D_y
    ws.write_formula("B2", "=LEN(A2)")
    wb.close()
    with zipfile.ZipFile(path) as z:
        assert b'<c r="A1" t="inlineStr"><is><t>a_x000D_bc</t>' in z.read("xl/worksheets/sheet1.xml")
    calc(path, tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    assert (got["B1"].value, got["C1"].value, got["D1"].value, got["B2"].value) == (4, 13, True, 9)
