"""``template calc`` and ``freeze`` on workbooks from outside (issue 19): nothing of the user's is lost,
one formula never sinks the file, and every step is bounded."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest

from benchsheet.cli import main
from excelcalc.workbook.xlsxfile import rewrite
from tests import robustness

FILES = "files a write must not lose or replace (temporary files, edited workbooks, devices, links)"


def _book(path: Path, cells: dict[str, object]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for ref, value in cells.items():
        ws[ref] = value
    wb.save(path)
    return path


VBA_TYPE = b'<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>'


def _with_macros(src: Path, dst: Path) -> Path:
    """``src`` as Excel saves a macro-enabled workbook (its content type, a VBA project), named ``dst``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                    b"application/vnd.ms-excel.sheet.macroEnabled.main+xml",
                ).replace(b"</Types>", VBA_TYPE + b"</Types>")
            zout.writestr(info, data)
        zout.writestr("xl/vbaProject.bin", b"VBA")
    return dst


# ------------------------------------------------------------------ nothing of the user's lost


def test_calc_in_place_never_drops_the_macros_of_a_workbook_named_xlsx(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(FILES)
    path = _with_macros(_book(tmp_path / "plain.xlsx", {"A1": 2, "B1": "=A1*3"}), tmp_path / "book.xlsx")
    before = path.read_bytes()
    assert main(["template", "calc", str(path)]) == 2
    err = capsys.readouterr().err
    assert "macros" in err and "--out book.xlsm" in err and "Traceback" not in err, err
    assert path.read_bytes() == before  # refused before anything was written
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "book.xlsm")]) == 0
    with zipfile.ZipFile(tmp_path / "book.xlsm") as zf:
        assert zf.read("xl/vbaProject.bin") == b"VBA"
    robustness.held(FILES)


@pytest.mark.parametrize("owner", ["~$book.xlsx", ".~lock.book.xlsx#"])
def test_a_workbook_open_in_an_office_program_is_not_replaced_unforced(
    owner: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Excel keeps ``~$name`` (LibreOffice ``.~lock.name#``) beside a file it has open; its next save
    writes its own copy over whatever calc wrote."""
    robustness.tried(FILES)
    path = _book(tmp_path / "book.xlsx", {"A1": 2, "B1": "=A1*3"})
    (tmp_path / owner).write_bytes(b"owner")
    before = path.read_bytes()
    for args in (["template", "calc", str(path)], ["freeze", str(tmp_path / "x.xlsx"), str(path)]):
        if args[0] == "freeze":
            path.with_name("x.xlsx").write_bytes(before)
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "is open in" in err and "--force" in err and "Traceback" not in err, err
        assert path.read_bytes() == before
    assert main(["template", "calc", str(path), "--force"]) == 0
    assert "warning:" in capsys.readouterr().out and openpyxl.load_workbook(path, data_only=True)["S"]["B1"].value == 6
    robustness.held(FILES)


def test_no_cell_text_longer_than_excel_allows_is_ever_written(tmp_path: Path) -> None:
    robustness.tried(FILES)
    path = _book(tmp_path / "long.xlsx", {"A1": "=1", "A2": "=2"})
    reason = "#VALUE! " + "why " * 9000  # 36,008 characters
    rewrite(path, tmp_path / "out.xlsx", {"S": {"A1": reason, "A2": "x" * 40_000}})
    ws = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    a1, a2 = ws["A1"].value, ws["A2"].value
    assert isinstance(a1, str) and len(a1) <= 32_767 and a1.startswith("#VALUE! why why")
    assert isinstance(a2, str) and len(a2) <= 32_767 and a2.startswith("#VALUE! the text would have 40,000")
    robustness.held(FILES)


KILLED_WHILE_WRITING = """
import os, signal, sys
from pathlib import Path
from benchsheet.cli import main
real = os.fsync
def fsync(fd):  # the moment of a SIGTERM from outside (kill, timeout): the temporary file is there
    os.kill(os.getpid(), signal.SIGTERM)
    real(fd)
os.fsync = fsync
sys.exit(main(["template", "calc", sys.argv[1]]))
"""


def test_a_terminated_calc_leaves_no_temporary_file(tmp_path: Path) -> None:
    robustness.tried(FILES)
    path = _book(tmp_path / "book.xlsx", {"A1": 2, "B1": "=A1*3"})
    before = path.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", KILLED_WHILE_WRITING, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert sorted(os.listdir(tmp_path)) == ["book.xlsx"] and path.read_bytes() == before
    robustness.held(FILES)


# ------------------------------------------------------------------ one formula never sinks the file


def _computed(path: Path) -> dict[str, object]:
    from excelcalc.workbook.compute import compute

    c = compute(path)  # a cell's value, or the reason of its error (Excel's own stored as the bare code)
    return {ref: c.errors.get(key, v) for key, v in c.shown.items() for ref in (key[1],)}


def test_one_odd_formula_never_sinks_the_workbook(tmp_path: Path) -> None:
    """INDIRECT of a literal (formulas reads it as a reference), MODE.MULT (a list), a range with its
    sheet named at both corners: each computes, and so does every other cell."""
    path = _book(
        tmp_path / "odd.xlsx",
        {
            "A1": 5,
            "A2": 7,
            "B1": '=INDIRECT("A1")',
            "B2": "=A1*2",
            "B3": '=SUM(INDIRECT("A1:A2"))',
            "B4": "=_xlfn.MODE.MULT(1,2,2,3,3)",  # as Excel stores it (without _xlfn., #NAME?)
            "B5": "=SUM(S!A1:S!A2)",
            "B6": '=INDIRECT("Nowhere!A1")',
        },
    )
    from excelcalc.workbook.compute import compute

    computed = compute(path)
    got = {ref: v for (_, ref), v in computed.shown.items()}
    assert (got["B1"], got["B2"], got["B3"], got["B4"], got["B5"]) == (5, 10, 12, 2, 12), got
    assert got["B6"] == "#REF!"  # Excel's own error value in the cell, its reason in the report
    assert {ref: e.upper() for (_, ref), e in computed.errors.items()} == {"B6": "#REF! THERE IS NO SHEET NOWHERE"}


def _names(path: Path, names: dict[str, str], cells: dict[str, object]) -> Path:
    from openpyxl.workbook.defined_name import DefinedName

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for name, text in names.items():
        wb.defined_names[name] = DefinedName(name, attr_text=text)
    for ref, value in cells.items():
        ws[ref] = value
    wb.save(path)
    return path


def test_defined_names_sixteen_deep_compute_and_a_circle_says_so(tmp_path: Path) -> None:
    # names Excel allows (L0 or F39 would be cell references, which a name cannot look like)
    chain = {f"Level_{i}": f"Level_{i + 1}+1" for i in range(15)} | {"Level_15": "S!$A$1"}
    got = _computed(
        _names(
            tmp_path / "deep.xlsx",
            chain | {"Circle_1": "Circle_2", "Circle_2": "Circle_1"},
            {"A1": 5, "B1": "=Level_0", "B2": "=Circle_1"},
        )
    )
    assert got["B1"] == 20
    assert got["B2"] == "#NAME? defined names refer to each other in a circle, or more than 64 levels deep"


def test_defined_names_that_fan_out_are_bounded(tmp_path: Path) -> None:
    """F39 stands for 2^39 copies of F0: refused for the cell, in bounded time, the rest computed."""
    fan = {"Fan_0": "1"} | {f"Fan_{i}": f"Fan_{i - 1}+Fan_{i - 1}" for i in range(1, 40)}
    start = time.monotonic()
    got = _computed(_names(tmp_path / "fan.xlsx", fan, {"B1": "=Fan_39", "B2": "=Fan_5"}))
    assert time.monotonic() - start < 60
    assert str(got["B1"]).startswith("#VALUE! its defined names stand for a formula of more than 100,000 characters")
    assert got["B2"] == 32


def test_a_cell_left_open_is_refused_never_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _book(tmp_path / "ok.xlsx", {"A1": 5, "B1": "=A1*2", "C1": 3})
    with zipfile.ZipFile(src) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    for n, broken in enumerate(
        (sheet.replace(b"<v>5</v></c>", b"<v>5</v>"), sheet.replace(b"<v>3</v></c>", b"<v>3</v>"))
    ):
        path = tmp_path / f"broken{n}.xlsx"
        with zipfile.ZipFile(path, "w") as zf:
            for name, data in parts.items():
                zf.writestr(name, broken if name == "xl/worksheets/sheet1.xml" else data)
        assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 2
        err = capsys.readouterr().err
        assert "is not closed (no </c>)" in err and "Traceback" not in err, err
        assert not (tmp_path / "out.xlsx").exists()


def test_a_sheet_data_left_open_is_refused_never_read_as_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sheet whose ``<sheetData>`` has no end tag was read as a sheet without cells: its formulas
    kept their old cached values and calc said nothing (exit 0)."""
    src = _book(tmp_path / "ok.xlsx", {"A1": 5, "B1": "=A1*2"})
    with zipfile.ZipFile(src) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    path = tmp_path / "broken.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data.replace(b"</sheetData>", b"") if name == "xl/worksheets/sheet1.xml" else data)
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "<sheetData> is not closed" in err and "Traceback" not in err, err
    assert not (tmp_path / "out.xlsx").exists()


# ------------------------------------------------------------------ bounded


LONG_FORMULA = """
import json, signal, sys
from pathlib import Path

from excelcalc import formula
from excelcalc.workbook.compute import ComputeError, compute

STEPS, DUE = 10**8, 10**5  # the formula's work (many seconds of it), and the step at which its deadline comes
steps = 0
timer = []


def spin(_):
    global steps
    timer.append(signal.getitimer(signal.ITIMER_REAL)[0])  # the deadline's timer, as the formula starts
    for steps in range(1, STEPS + 1):
        if steps == DUE and timer[0] > 0:  # the clock advanced by count: the deadline's timer runs out now
            signal.setitimer(signal.ITIMER_REAL, 1e-6)
    return steps


formula.register({"SPIN": spin})
try:
    compute(Path(sys.argv[1]), seconds=float(sys.argv[2]))
    outcome = "computed"
except ComputeError as exc:
    outcome = str(exc)
print(json.dumps({"outcome": outcome, "steps": steps, "timer": timer}))
"""


def test_the_deadline_holds_inside_one_long_formula(tmp_path: Path) -> None:
    """One formula that runs for long (an add-in function of 100 million steps, many seconds of work)
    is stopped at the deadline, inside the formula, not after it has finished. No outcome depends on
    the machine's speed: the deadline (300 s, its timer set as computing starts) is brought forward
    by count, when the formula has taken 100,000 steps; the formula stops there, far from its end.
    In a fresh process: the function registered there stays there."""
    path = _book(tmp_path / "slow.xlsx", {"A1": 1, "B1": "=SPIN(A1)"})
    run = subprocess.run(
        [sys.executable, "-c", LONG_FORMULA, str(path), "300"], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout.splitlines()[-1])
    assert got["outcome"].startswith("refused: computing it takes too long (more than 300 s"), got
    assert len(got["timer"]) == 1 and 0 < got["timer"][0] <= 300, got  # the timer ran as the formula started
    assert 10**5 <= got["steps"] < 10**7, got  # stopped inside the formula, at its deadline


def test_an_array_formula_stored_as_its_corner_is_written_in_linear_time() -> None:
    """openpyxl writes an array formula's corner cell only; the 150,000 cells of its range the file
    lacks are added in one pass (one splice per row was quadratic: 100k rows 16 s, 1M past 25 min)."""
    from excelcalc.workbook.xlsxfile import patch_sheet

    rows = 150_000
    xml = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        f'<row r="1"><c r="A1"><f t="array" ref="A1:A{rows}">ROW(A1:A{rows})</f><v>0</v></c></row>'
        f'<row r="{rows + 1}"><c r="A{rows + 1}"><v>7</v></c></row></sheetData></worksheet>'
    )
    start = time.monotonic()
    out, written, _ = patch_sheet(xml, {f"A{n}": n for n in range(1, rows + 1)})
    assert time.monotonic() - start < 15
    assert written == rows
    numbers = [int(n) for n in re.findall(r'<row r="(\d+)"', out)]
    assert numbers == list(range(1, rows + 2))  # every row once, in order, the sheet's own last row kept
    assert f'<c r="A{rows}"><v>{rows}</v></c>' in out


def test_an_array_formula_over_the_whole_sheet_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1 KB file whose array formula covers A1:XFD1048576 (17 billion cells) is refused before any
    cell of it is made, naming the limit; nothing is written."""
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    wb.active["A1"] = ArrayFormula("A1:XFD1048576", "=1")
    path = tmp_path / "huge.xlsx"
    wb.save(path)
    before = path.read_bytes()
    start = time.monotonic()
    assert main(["template", "calc", str(path)]) == 2
    err = capsys.readouterr().err
    assert time.monotonic() - start < 30
    assert "more than 2,000,000 cells" in err and "17,179,869,184" in err and len(err.strip().splitlines()) == 1, err
    assert path.read_bytes() == before


def test_a_vba_function_in_the_branch_not_taken_is_no_error(tmp_path: Path) -> None:
    """Excel computes ``=IF(A1>0,A1*2,MyMacro(A1))`` without the macro when A1 > 0; the function no
    table has answers #NAME? with its name only where it is reached."""
    path = _book(
        tmp_path / "vba.xlsx",
        {"A1": 5, "B1": "=IF(A1>0,A1*2,MyMacro(A1))", "B2": "=IF(A1<0,1,MyMacro(A1))", "B3": "=IFERROR(MyMacro(1),7)"},
    )
    got = _computed(path)
    assert (got["B1"], got["B3"]) == (10, 7)
    assert got["B2"] == "#NAME? unknown function MYMACRO"


def test_an_array_formula_past_the_last_row_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An array formula over A1:A1999999 (fewer cells than the limit) wrote rows past 1,048,576,
    which Excel cannot open (issue 30): such a file is damaged, refused in one line; nothing written."""
    from openpyxl.worksheet.formula import ArrayFormula

    wb = openpyxl.Workbook()
    wb.active["A1"] = ArrayFormula("A1:A1999999", "=ROW()")
    path = tmp_path / "past.xlsx"
    wb.save(path)
    before = path.read_bytes()
    assert main(["template", "calc", str(path)]) == 2
    err = capsys.readouterr().err
    assert "A1:A1999999" in err and "1,048,576" in err and len(err.strip().splitlines()) == 1, err
    assert path.read_bytes() == before


def _with_shared_strings(src: Path, dst: Path, index: str) -> Path:
    """``src`` (openpyxl writes texts inline) with a shared-string table of two texts, A1 naming
    the string ``index``, as another writer would save it."""
    strings = (
        b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
        b'spreadsheetml/2006/main" count="2" uniqueCount="2"><si><t>first</t></si><si><t>last</t></si></sst>'
    )
    kind = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
    rel = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="' + kind + b'"/></Types>'
                )
            elif info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdSS" Type="' + rel + b'" Target="sharedStrings.xml"/></Relationships>',
                )
            elif info.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(
                    rb'<c r="A1" t="inlineStr"><is><t>[^<]*</t></is></c>',
                    b'<c r="A1" t="s"><v>' + index.encode() + b"</v></c>",
                    data,
                )
            zout.writestr(info, data)
        zout.writestr("xl/sharedStrings.xml", strings)
    return dst


@pytest.mark.parametrize("index", ["-1", "2"])
def test_a_shared_string_the_file_does_not_have_is_refused(
    index: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A shared-string index of -1 read the last string (issue 30): the file is damaged, refused."""
    plain = _book(tmp_path / "plain.xlsx", {"A1": "x", "B1": "=LEN(A1)"})
    good = _with_shared_strings(plain, tmp_path / "good.xlsx", "0")
    assert main(["template", "calc", str(good), "--out", str(tmp_path / "good-out.xlsx")]) == 0
    assert openpyxl.load_workbook(tmp_path / "good-out.xlsx", data_only=True)["S"]["B1"].value == 5
    capsys.readouterr()
    path = _with_shared_strings(plain, tmp_path / "bad.xlsx", index)
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert f"shared string {index}" in err and "damaged" in err and len(err.strip().splitlines()) == 1, err


def test_two_sheets_of_the_same_name_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two sheets named alike: the first sheet's formulas were neither computed nor listed, and calc
    exited 0 (issue 30). Excel cannot make such a file: it is refused with the name."""
    wb = openpyxl.Workbook()
    wb.active.title = "Dup"
    wb.active["A1"] = "=1+1"
    wb.create_sheet("Other")["A1"] = "=2+2"
    wb.save(tmp_path / "two.xlsx")
    path = tmp_path / "dup.xlsx"
    with zipfile.ZipFile(tmp_path / "two.xlsx") as zin, zipfile.ZipFile(path, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(
                info, data.replace(b'name="Other"', b'name="Dup"') if info.filename == "xl/workbook.xml" else data
            )
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "two sheets are named 'Dup'" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out.xlsx").exists()


def _damaged(src: Path, dst: Path, how: str) -> Path:
    """``src`` with its sheet part damaged as ``how`` says: its deflate stream, the encrypted flag
    of its central directory entry, or its method made Deflate64 (9)."""
    data = bytearray(src.read_bytes())
    with zipfile.ZipFile(src) as zf:
        info = zf.getinfo("xl/worksheets/sheet1.xml")
    central = data.index(b"PK\x01\x02")  # the central directory's entries, to the sheet's
    while data[central + 46 : central + 46 + len(info.filename)] != info.filename.encode():
        central = data.index(b"PK\x01\x02", central + 4)
    if how == "deflate":
        local = info.header_offset
        start = local + 30 + int.from_bytes(data[local + 26 : local + 28], "little")
        start += int.from_bytes(data[local + 28 : local + 30], "little")
        data[start : start + 8] = b"\xff" * 8  # an invalid block type
    elif how == "encrypted":
        data[central + 8] |= 0x1
    else:
        data[central + 10 : central + 12] = (9).to_bytes(2, "little")
    dst.write_bytes(bytes(data))
    return dst


@pytest.mark.parametrize(
    ("how", "says"),
    [("deflate", "is damaged"), ("encrypted", "is encrypted"), ("deflate64", "Deflate64")],
)
def test_a_part_that_cannot_be_unpacked_is_refused_saying_why(
    how: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A corrupt deflate stream ("error: error:"), an encrypted zip entry and a Deflate64 entry were
    "(please report this)" (issue 30): input a user can cause says what is wrong with the file."""
    path = _damaged(_book(tmp_path / "in.xlsx", {"A1": 2, "B1": "=A1*3"}), tmp_path / f"{how}.xlsx", how)
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "xl/worksheets/sheet1.xml" in err and says in err and "please report" not in err, err
    assert len(err.strip().splitlines()) == 1, err


STRICT = {  # ISO/IEC 29500-1:2016 (Strict) namespaces for Transitional's (ECMA-376 Part 1, 8.1 and Annex A)
    b"http://schemas.openxmlformats.org/spreadsheetml/2006/main": b"http://purl.oclc.org/ooxml/spreadsheetml/main",
    b"http://schemas.openxmlformats.org/officeDocument/2006/relationships": (
        b"http://purl.oclc.org/ooxml/officeDocument/relationships"
    ),
}


def test_a_strict_open_xml_workbook_is_refused_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Excel's "Strict Open XML Spreadsheet" names its parts in ISO 29500 Strict's namespaces
    (``conformance="strict"``): calc found no sheet in them, printed "computed 0 formulas", exited 0
    and wrote Excel's cached values back, as if it had recomputed (issue 44 item 5). It refuses the
    file, says why and what to do, exits 2 and writes nothing."""
    src = _book(tmp_path / "ok.xlsx", {"A1": 5, "B1": "=A1*2"})
    path = tmp_path / "strict.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            for old, new in STRICT.items():
                data = data.replace(old, new)
            if info.filename == "xl/workbook.xml":
                data = data.replace(b"<workbook ", b'<workbook conformance="strict" ', 1)
            zout.writestr(info, data)
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "Strict Open XML" in err and "Save As" in err and "Traceback" not in err, err
    assert not (tmp_path / "out.xlsx").exists()


def test_a_zip_holding_one_part_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ECMA-376 Part 2 (Open Packaging Conventions), 9.1.1.1.1: a package shall not hold two parts
    of equivalent names (compared without case), and a consumer shall treat one that does as
    invalid. A zip holding the sheet twice was computed from its last copy without a word
    (issue 41 item 3): which copy Excel shows is not known, so the file is refused, exit 2."""
    import warnings

    src = _book(tmp_path / "ok.xlsx", {"A1": 5, "B1": "=A1*2"})
    path = tmp_path / "twice.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w") as zout, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it is asked to write
        for info in zin.infolist():
            zout.writestr(info, zin.read(info))
        sheet = zin.read("xl/worksheets/sheet1.xml")
        zout.writestr("XL/worksheets/sheet1.xml", sheet.replace(b"<v>5</v>", b"<v>6</v>"))
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "twice" in err and "sheet1.xml" in err.lower() and "Traceback" not in err, err
    assert not (tmp_path / "out.xlsx").exists()


def test_the_formula_length_limit_is_on_the_formula_as_typed(tmp_path: Path) -> None:
    """Issue 42 item 8: ``=SUM(S1:S2000!A1)``, 16 characters, over 2,000 sheets was refused as "the
    formula has 20,895 characters": the limit of 8,192 (Microsoft's "Excel specifications and
    limits": "Length of formula contents") is on the formula as typed, not as calc writes its 3-D
    reference out, one reference per sheet. A formula typed longer is still refused."""
    import openpyxl

    from excelcalc.workbook.compute import compute

    path = tmp_path / "sheets.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Sum"
    for k in range(1, 2001):
        wb.create_sheet(f"S{k}")["A1"] = k
    wb["Sum"]["A1"] = "=SUM(S1:S2000!A1)"
    wb["Sum"]["A2"] = '=LEN("' + "a" * 8200 + '")'
    wb.save(path)
    c = compute(path)
    assert c.shown_value("Sum", "A1") == 2000 * 2001 / 2, c.errors
    assert "8,192" in c.errors[("SUM", "A2")]
