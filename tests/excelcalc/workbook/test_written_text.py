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
