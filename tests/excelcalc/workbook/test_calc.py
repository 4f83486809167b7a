"""``template calc`` on the workbooks users make and Excel or LibreOffice save (issue 13), and the
``eval`` bullets of issue 11: one engine behind both, so they cannot disagree."""

from __future__ import annotations

import re
import resource
import time
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula

from benchsheet.catalogue.engine import evaluate
from benchsheet.cli import main
from benchsheet.data import store
from excelcalc.formula import format_value
from excelcalc.values import ReasonedError, is_error
from excelcalc.workbook.calc import calc, freeze
from excelcalc.workbook.compute import compute
from excelcalc.workbook.xlsxfile import read_package
from tests.libreoffice import SOFFICE, edit_in_libreoffice

ENTRY, BENCH, SCEN = "6.1-0052", "gpt-oss-120b", "Server"


def _cached(path: Path) -> dict[str, dict[str, Any]]:
    wb = openpyxl.load_workbook(path, data_only=True)
    # the cells present (iter_rows would walk the whole rectangle up to the last cell)
    return {ws.title: {c.coordinate: c.value for c in ws._cells.values()} for ws in wb.worksheets}


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace('"', '""') + '"'
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return repr(value)


# ------------------------------------------------------------ one engine: eval and calc agree


def test_a_generated_3000_formula_workbook_equals_eval_cell_by_cell(tmp_path: Path) -> None:
    """Every formula cell of calc equals ``benchsheet eval`` of the same formula with its inputs
    written in as literals."""
    rows = store.get_table().rows
    path = tmp_path / "many.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    texts: dict[str, str] = {}  # cell -> formula with the inputs as literals
    for i in range(1000):
        r = rows[(i * 7) % len(rows)]
        n = i + 1
        util = [0.6, 0.35, "x", 1.2, None][i % 5]
        ws.append([r.entry, r.benchmark, r.scenario, util])
        a, b, c = _literal(r.entry), _literal(r.benchmark), _literal(r.scenario)
        d = "" if util is None else _literal(util)  # an empty cell reads as nothing
        own = {
            "E": (f"=PERGPU(A{n},B{n},C{n})", f"=PERGPU({a},{b},{c})"),
            "F": (f"=COSTPERMTOK(3,PERGPU(A{n},B{n},C{n}),D{n})", f"=COSTPERMTOK(3,PERGPU({a},{b},{c}),{d or 0})"),
            "G": (
                f'=IF(ISNUMBER(D{n}),D{n}*2&"x",LEFT(A{n},3))',
                f'=IF(ISNUMBER({d or 0}),{d or 0}*2&"x",LEFT({a},3))',
            ),
        }
        if util is None:  # an empty cell: 0 for Excel's functions, "missing" for benchsheet's
            own["F"] = (own["F"][0], f"=COSTPERMTOK(3,PERGPU({a},{b},{c}),)")
            own["G"] = (own["G"][0], f'=IF(ISNUMBER(""),0,LEFT({a},3))')
        for col, (formula, literal) in own.items():
            ws[f"{col}{n}"] = formula
            texts[f"{col}{n}"] = literal
    wb.save(path)
    computed = compute(path)
    assert len(computed.formulas) == 3000
    for ref, literal in texts.items():
        want, got = evaluate(literal), computed.values[("RESULTS", ref)]
        if is_error(want):
            assert is_error(got) and str(got) == str(want), (ref, literal, got)
        else:
            assert format_value(got) == format_value(want), (ref, literal)


# ------------------------------------------------------------------ speed and memory


@pytest.mark.slow
def test_a_100000_long_chain_computes(tmp_path: Path) -> None:
    path = tmp_path / "chain.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = 1
    for n in range(2, 100_001):
        ws[f"A{n}"] = f"=A{n - 1}+1"
    wb.save(path)
    report = calc(path, tmp_path / "out.xlsx")
    assert report.ok and report.formulas == 99_999
    assert _cached(tmp_path / "out.xlsx")["Sheet"]["A100000"] == 100_000


def test_memory_follows_the_cells_present_not_the_address(tmp_path: Path) -> None:
    """One cell at XFD1048576 (the last of a sheet) and a whole-column sum: no sheet-sized work."""
    path = tmp_path / "corner.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = 2
    ws["A5"] = 3
    ws["XFD1048576"] = "=A1+1"
    ws["B1"] = "=SUM(A:A)"
    ws["C7"] = "=SUM(1:1)"
    wb.save(path)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    report = calc(path, tmp_path / "out.xlsx")
    assert time.perf_counter() - start < 5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200 * 1024  # KiB: under 200 MB more
    assert report.ok
    got = _cached(tmp_path / "out.xlsx")["Sheet"]
    assert (got["XFD1048576"], got["B1"], got["C7"]) == (3, 5, 7)


def test_a_formula_over_excels_limit_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = "=" + "+".join(["1"] * 20_000)  # 40 KB
    start = time.perf_counter()
    value = evaluate(long)
    assert isinstance(value, ReasonedError) and "8,192" in value.reason
    assert main(["eval", long]) == 1 and "8,192" in capsys.readouterr().err
    path = tmp_path / "long.xlsx"
    wb = openpyxl.Workbook()
    wb.active["A1"] = long
    wb.active["A2"] = "=1+1"
    wb.save(path)
    report = calc(path, tmp_path / "out.xlsx")
    assert time.perf_counter() - start < 10
    assert [e.where for e in report.errors] == ["Sheet!A1"] and "8,192" in report.errors[0].text
    assert _cached(tmp_path / "out.xlsx")["Sheet"]["A2"] == 2
    assert evaluate("=" + "1+" * 200 + "1") == 201 and len("=" + "1+" * 200 + "1") <= 8192


def test_a_workbook_that_would_take_too_long_is_refused_in_time(tmp_path: Path) -> None:
    from excelcalc.workbook.compute import ComputeError

    path = tmp_path / "slow.xlsx"
    wb = openpyxl.Workbook()
    for n in range(1, 3000):
        wb.active[f"A{n}"] = f"=ROW()*{n}"  # distinct formulas: each is read on its own
    wb.save(path)
    with pytest.raises(ComputeError, match="too long"):
        compute(path, seconds=0.01)


def test_a_text_over_excels_limit_is_refused_without_making_it(tmp_path: Path) -> None:
    start = time.perf_counter()
    for formula in ('=REPT("a",1000000000)', '=REPT("ab",20000)', '=REPT("a",32767)&"b"'):
        value = evaluate(formula)
        assert isinstance(value, ReasonedError) and str(value) == "#VALUE!" and "32,767" in value.reason, formula
    assert evaluate('=LEN(REPT("a",32767))') == 32767
    path = tmp_path / "rept.xlsx"
    wb = openpyxl.Workbook()
    wb.active["A1"] = '=REPT("a",1000000000)'
    wb.save(path)
    report = calc(path, tmp_path / "out.xlsx")
    assert "32,767" in report.errors[0].text
    assert time.perf_counter() - start < 10


# ---------------------------------------------------------------- issue 11: eval's messages


def test_eval_reads_1e3_as_excel_does() -> None:
    assert evaluate("=1E3") == 1000
    assert evaluate("=2.5e2+1") == 251
    assert evaluate("=1E+3") == 1000


def test_parse_reasons_are_text_not_a_python_tuple(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "=1+*"]) == 1
    err = capsys.readouterr().err
    assert "cannot evaluate '=1+*'" in err and "('" not in err and "%s" not in err


def test_eval_takes_a_formula_starting_with_minus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "-1+2"]) == 0
    assert capsys.readouterr().out.strip() == "1"
    assert main(["eval", "--", "-3"]) == 0
    assert capsys.readouterr().out.strip() == "-3"


def test_eval_exit_status_says_an_array_holds_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", '={1,2;3,"a"+1}']) == 1
    captured = capsys.readouterr()
    # each error cell with its reason, as a single answer shows it (the engine's ErrorValue, issue 42 item 10)
    assert captured.out.splitlines() == [
        "1\t2",
        "3\t#VALUE! an argument of the wrong type (text where a number is needed?)",
    ]
    assert "1 of the answer's cells is an error" in captured.err
    assert main(["eval", "={1,2;3,4}"]) == 0
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    assert "array holding at least one error" in " ".join(capsys.readouterr().out.split())


def test_eval_gives_reasons_for_excels_own_errors() -> None:
    for formula, code, words in (("=1/0", "#DIV/0!", "division by zero"), ('="a"+1', "#VALUE!", "wrong type")):
        value = evaluate(formula)
        assert isinstance(value, ReasonedError) and str(value) == code and words in value.reason


def test_text_with_thousands_separators_in_a_number_cell_is_a_number_as_in_excel(tmp_path: Path) -> None:
    """Excel (en-US) reads the text "1,000,000" as a number where one is needed (issue 21); a
    text that is no number is still explained."""
    path = tmp_path / "commas.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "1,000,000"
    ws["B1"] = "=A1*2"
    ws["A2"] = "2,50"
    ws["B2"] = "=A2*2"
    wb.save(path)
    c = compute(path)
    assert c.shown_value("Sheet", "B1") == 2_000_000
    assert c.errors[("SHEET", "B2")] == "#VALUE! Sheet!A2 holds the text '2,50' where a number is needed"


def test_a_blank_cell_where_a_number_is_required_is_named(tmp_path: Path) -> None:
    path = tmp_path / "blank.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A2"] = 1000.0
    ws["B1"] = "=COSTPERMTOK(A1,A2,0.5)"  # A1 left empty
    ws["C1"] = "=B1"  # passed on as it is
    ws["B2"] = "=COSTPERMTOK(A3,A2,A4)"  # two empty cells: which one the function missed is not guessed
    wb.save(path)
    c = compute(path)
    assert c.shown_value("Sheet", "B1") == "#VALUE! price_per_gpu_hour is required: Sheet!A1 is empty"
    assert c.shown_value("Sheet", "C1") == c.shown_value("Sheet", "B1")
    assert c.shown_value("Sheet", "B2") == "#VALUE! price_per_gpu_hour is required"


def test_text_where_a_number_is_required_is_named(tmp_path: Path) -> None:
    """Like a blank one (issue 32): the reason names the input cell holding the text."""
    path = tmp_path / "text.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["A3"] = "lots", 1000.0, "lots"
    ws["B1"] = "=COSTPERMTOK(A1,A2,0.5)"
    ws["C1"] = "=B1"  # passed on as it is
    ws["B2"] = "=COSTPERMTOK(A1,A2,A3)"  # two cells hold the text: which one the function read is not guessed
    wb.save(path)
    c = compute(path)
    said = "#VALUE! price_per_gpu_hour must be a number, not 'lots'"
    assert c.shown_value("Sheet", "B1") == f"{said}: Sheet!A1 holds it"
    assert c.shown_value("Sheet", "C1") == c.shown_value("Sheet", "B1")
    assert c.shown_value("Sheet", "B2") == said


def test_an_array_formulas_elements_name_their_text_or_blank_input(tmp_path: Path) -> None:
    """An array formula reads its inputs as ranges (issue 32): each element's reason names the one cell of
    them holding the text, or the one empty cell, as a one-cell formula's does."""
    from openpyxl.worksheet.formula import ArrayFormula

    path = tmp_path / "array.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["D1"] = 2.0, "lots", 0.5
    ws["B1"] = ArrayFormula("B1:B3", "=COSTPERMTOK(A1:A3,1000,D1:D3)")  # A3 empty; D2 and D3 empty too
    ws["C1"] = ArrayFormula("C1:C2", "=COSTPERMTOK(A1:A2,1000,0.5)")
    wb.save(path)
    c = compute(path)
    assert (
        c.shown_value("Sheet", "C1") == c.shown_value("Sheet", "B1") == pytest.approx(2.0 * 1e6 / (1000 * 3600) / 0.5)
    )
    assert c.shown_value("Sheet", "C2") == "#VALUE! price_per_gpu_hour must be a number, not 'lots': Sheet!A2 holds it"
    assert c.shown_value("Sheet", "B2") == c.shown_value("Sheet", "C2")  # the only cell holding 'lots'
    assert c.shown_value("Sheet", "B3") == "#VALUE! price_per_gpu_hour is required"  # A3, D2, D3 empty: not guessed


# ------------------------------------------------------------------ sheet names


def test_sheet_names_are_quoted_and_compared_as_excel_does(tmp_path: Path) -> None:
    path = tmp_path / "names.xlsx"
    wb = openpyxl.Workbook()
    first = wb.active
    first.title = "Straße"
    first["A1"] = 1
    wb.create_sheet("STRASSE")["A1"] = 100
    wb.create_sheet("Bob's")["A1"] = 7
    home = wb.create_sheet("Sum")
    home["A1"] = "=Straße!A1+STRASSE!A1"
    home["A2"] = "='Bob''s'!A1*2"
    home["A3"] = "=straße!A1"  # Excel compares sheet names without regard to case
    home["A4"] = "=bobs*3"  # a defined name for a cell of a quoted sheet
    from openpyxl.workbook.defined_name import DefinedName

    wb.defined_names["bobs"] = DefinedName("bobs", attr_text="'Bob''s'!$A$1")
    wb.save(path)
    out = tmp_path / "out.xlsx"
    assert calc(path, out).ok
    got = _cached(out)["Sum"]
    assert (got["A1"], got["A2"], got["A3"], got["A4"]) == (101, 14, 1, 21)


# ------------------------------------------------------------------ array formulas


def _array_book(path: Path, covered: bool = True) -> None:
    """Array formulas; ``covered``: each cell of their ranges is in the file, as Excel writes them
    (openpyxl writes the corner only)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    for n, v in enumerate((1, 2, 3), start=1):
        ws[f"A{n}"] = v
    ws["B1"] = ArrayFormula("B1:B3", "=A1:A3*2")
    ws["C1"] = ArrayFormula("C1:C12", f'=FAMILIES("{BENCH}","{SCEN}")')
    for ref in ("B2", "B3", *(f"C{n}" for n in range(2, 13))) if covered else ():
        ws[ref] = 0  # Excel writes each cell of the range with its cached value (stale here)
    ws["D1"] = "=SUM(B1:B3)"
    wb.save(path)


def _dynamic(path: Path) -> None:
    """Mark C1 as Excel 365 does for a spilled dynamic array (cell metadata cm="1")."""
    with zipfile.ZipFile(path) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    sheet, n = re.subn(r'<c r="C1"', '<c r="C1" cm="1"', sheet)
    assert n == 1
    parts["xl/worksheets/sheet1.xml"] = sheet.encode()
    parts["xl/metadata.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        b'<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        b'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">'
        b'<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" '
        b'pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" '
        b'clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>'
        b'<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">'
        b'<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>'
        b'<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


@pytest.mark.parametrize(
    ("dynamic", "covered"),
    [(False, True), (True, True), (False, False)],
    ids=["ctrl-shift-enter", "excel-365-spill", "range-cells-missing"],
)
def test_array_formulas_compute_over_their_range(tmp_path: Path, dynamic: bool, covered: bool) -> None:
    path = tmp_path / "arrays.xlsx"
    _array_book(path, covered)
    if dynamic:
        _dynamic(path)
    before = path.read_bytes()
    out = tmp_path / "out.xlsx"
    report = calc(path, out)
    assert path.read_bytes() == before  # calc to another file leaves the input alone
    got = _cached(out)["Sheet"]
    assert [got[f"B{n}"] for n in (1, 2, 3)] == [2, 4, 6]
    assert got["D1"] == 12
    families = evaluate(f'=FAMILIES("{BENCH}","{SCEN}")')
    assert isinstance(families, list)
    want = [row[0] for row in families][:12]
    want += ["#N/A"] * (12 - len(want))
    assert [got[f"C{n}"] for n in range(1, 13)] == want
    assert {e.where for e in report.errors} == {f"Sheet!C{n}" for n in range(len(families) + 1, 13)}
    with zipfile.ZipFile(out) as zf:
        xml = zf.read("xl/worksheets/sheet1.xml").decode()
        assert 't="array"' in xml and 'ref="C1:C12"' in xml
        if dynamic:
            assert 'cm="1"' in xml and zf.read("xl/metadata.xml")
    frozen = tmp_path / "frozen.xlsx"
    freeze(path, frozen)
    assert [_cached(frozen)["Sheet"][f"B{n}"] for n in (1, 2, 3)] == [2, 4, 6]
    with zipfile.ZipFile(frozen) as zf:
        xml = zf.read("xl/worksheets/sheet1.xml").decode()
        assert "<f" not in xml and "cm=" not in xml


def test_calc_in_place_of_an_array_workbook_exits_0_and_writes_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "arrays.xlsx"
    _array_book(path)
    families = evaluate(f'=FAMILIES("{BENCH}","{SCEN}")')
    errors = isinstance(families, list) and len(families) < 12  # #N/A beyond the families
    assert main(["template", "calc", str(path)]) == (1 if errors else 0)
    captured = capsys.readouterr()
    assert "computed 3 formulas" in captured.out and "please report" not in captured.err
    assert _cached(path)["Sheet"]["B3"] == 6


# ------------------------------------------------------------------ files LibreOffice saves


def test_libreoffice_declared_dimension_does_not_refuse(tmp_path: Path) -> None:
    path = tmp_path / "lo.xlsx"
    wb = openpyxl.Workbook()
    wb.active["A1"] = 5
    wb.active["B1"] = "=A1*2"
    wb.save(path)
    with zipfile.ZipFile(path) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    xml, n = re.subn(
        rb'<dimension ref="[^"]*"\s*/>', b'<dimension ref="A1:K1048576"/>', parts["xl/worksheets/sheet1.xml"]
    )
    assert n == 1
    parts["xl/worksheets/sheet1.xml"] = xml
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    read_package(path)
    assert calc(path, tmp_path / "out.xlsx").ok
    assert _cached(tmp_path / "out.xlsx")["Sheet"]["B1"] == 10


def _workload() -> dict[str, str]:
    from benchsheet.templates import sheets as S

    return {k: c.a1 for k, c in S.WORKLOAD.cells().items()}


def _edit(wb: Any) -> None:
    """The same edits in openpyxl and in LibreOffice: inputs changed, a row deleted, a sheet added."""
    from benchsheet.templates import sheets as S

    sizing = wb[S.SIZING]
    sizing[_workload()["target"]] = 2_500_000
    sizing[_workload()["headroom"]] = 0.3
    wb.create_sheet("Notes")["A1"] = "added in another program"


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
def test_a_template_saved_by_libreoffice_calcs_like_the_same_edits_in_openpyxl(
    tmp_path: Path, template_path: Path
) -> None:
    """Round trip through LibreOffice headless: open the template, edit inputs, delete a row (an
    empty one of Read me, above its formulas, which move up), add a sheet, save as .xlsx; then calc
    must give every value a calc of the same edits made with openpyxl gives."""
    from benchsheet.templates import sheets as S

    names = openpyxl.load_workbook(template_path).sheetnames
    sizing_index = names.index(S.SIZING)
    readme = openpyxl.load_workbook(template_path).worksheets[0]
    assert all(c.value is None for c in readme[3])  # the row deleted is empty
    target = _workload()["target"]
    headroom = _workload()["headroom"]
    edit_in_libreoffice(
        template_path,
        tmp_path / "lo.xlsx",
        f"""
sizing = sheets.getByIndex({sizing_index})
sizing.getCellRangeByName({target!r}).setValue(2500000)
sizing.getCellRangeByName({headroom!r}).setValue(0.3)
sheets.getByIndex(0).getRows().removeByIndex(2, 1)
sheets.insertNewByName("Notes", sheets.getCount())
sheets.getByName("Notes").getCellRangeByName("A1").setString("added in another program")
""",
        tmp_path,
    )
    lo = tmp_path / "lo.xlsx"
    with zipfile.ZipFile(lo) as zf:
        assert b"1048576" in zf.read("xl/worksheets/sheet1.xml")  # LibreOffice's declared size
    mine = tmp_path / "openpyxl.xlsx"
    wb = openpyxl.load_workbook(template_path)
    _edit(wb)
    wb.worksheets[0].delete_rows(3, 1)
    wb.save(mine)
    a, b = compute(lo), compute(mine)
    assert a.formulas.keys() == b.formulas.keys()
    assert len(a.formulas) > 400
    differ = {k: (a.shown[k], b.shown[k]) for k in a.shown if a.shown[k] != b.shown.get(k)}
    assert differ == {}
    assert calc(lo, tmp_path / "lo-calc.xlsx").formulas == len(a.formulas)


@pytest.fixture(scope="module")
def template_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from benchsheet.templates.builder import build

    path = tmp_path_factory.mktemp("lo") / "cluster-sizing.xlsx"
    build(path)
    return path


def test_the_quick_reader_reads_what_openpyxl_reads(tmp_path: Path, template_path: Path) -> None:
    """calc reads the sheets' XML itself (openpyxl's object per cell is most of a large calc's time);
    on the template, array formulas, odd sheet names and the generated sheet it reads the same cells,
    formulas, names and extents as openpyxl does."""
    from excelcalc.workbook.book import WorkbookCells
    from excelcalc.workbook.reading import read_openpyxl

    arrays = tmp_path / "arrays.xlsx"
    _array_book(arrays)
    names = tmp_path / "names.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Bob's"
    wb.active["A1"] = "=1E3"
    wb.active["A2"] = True
    wb.active["A3"] = 'text with "quotes" & <angles>\nand a line'
    wb.active["A4"] = 1.25
    wb.active["A5"] = "=NA()"
    from openpyxl.workbook.defined_name import DefinedName

    wb.defined_names["rate"] = DefinedName("rate", attr_text="'Bob''s'!$A$4")
    wb.save(names)
    shared = tmp_path / "shared.xlsx"  # a filled-down column as Excel writes it: one shared formula
    wb = openpyxl.Workbook()
    for n in range(1, 5):
        wb.active[f"A{n}"] = n
        wb.active[f"B{n}"] = f"=A{n}*2+$A$1"
    wb.save(shared)
    with zipfile.ZipFile(shared) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    xml = xml.replace("<f>A1*2+$A$1</f>", '<f t="shared" ref="B1:B4" si="0">A1*2+$A$1</f>')
    xml, n = re.subn(r"<f>A[234]\*2\+\$A\$1</f>", '<f t="shared" si="0"/>', xml)
    assert n == 3
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    with zipfile.ZipFile(shared, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    assert [c.shown_value("Sheet", f"B{n}") for n in range(1, 5) for c in [compute(shared)]] == [3, 5, 7, 9]
    for path in (template_path, arrays, names, shared):
        quick = WorkbookCells(path)
        slow = WorkbookCells.__new__(WorkbookCells)
        read_openpyxl(slow, path)
        assert quick.titles == slow.titles and quick.names == slow.names, path
        assert quick.values == slow.values and quick.extent == slow.extent, path
        assert [(f.pos, f.text, f.shape) for f in quick.formulas] == [(f.pos, f.text, f.shape) for f in slow.formulas]


# (attributes after r, content) of cells: the shapes Excel, openpyxl and LibreOffice write, and odd ones
CELL_SHAPES = [
    ("", "<v>5</v>"),
    ("", "<v> 7 </v>"),
    (' s="3"', "<v>1.5E3</v>"),
    ("", "<v></v>"),
    ("", "<v/>"),
    ("", ""),
    ("", None),
    (' t="n"', "<v>-2</v>"),
    (' t="s"', "<v>1</v>"),
    (' s="1" t="s"', "<v> 0</v>"),
    (' t="s"', "<v/>"),
    (' t="s"', "<v></v>"),
    (' t="s"', "<v>9</v>"),
    (' t="b"', "<v>1</v>"),
    (' t="b"', "<v></v>"),
    (' t="b"', "<v />"),
    (' t="e"', "<v>#N/A</v>"),
    (' t="e"', "<v></v>"),
    (' t="str"', "<v>a &amp; b\r\nc</v>"),
    (' t="str"', "<v></v>"),
    (' t="d"', "<v>2020-01-01</v>"),
    (' t="inlineStr"', "<is><t>x&lt;y</t></is>"),
    (' t="inlineStr"', '<is><t xml:space="preserve"> a\r\nb </t></is>'),
    (' t="inlineStr"', "<is><t></t></is>"),
    (' t="inlineStr"', ""),
    (' t="inlineStr"', "<v>3</v>"),
    ("", "<f>B1+1</f><v>6</v>"),
    ("", '<f>B1&amp;"x"</f><v />'),
    (' t="str"', '<f>"=x"</f><v>=x</v>'),
    ("", "<f>=B1</f>"),
    ("", "<f></f><v>1</v>"),
    ("", "<f/><v>1</v>"),
    ("", "<f />"),
    (' t="str"', "<f/><v>x</v>"),
    (' t="e"', "<f>NA()</f><v>#N/A</v>"),
]


@pytest.mark.parametrize(("attrs", "content"), CELL_SHAPES)
def test_the_quick_pattern_reads_a_cell_as_the_general_reader_does(attrs: str, content: str | None) -> None:
    """The reader takes the common shapes of a cell in one match (an empty ``<v></v>`` or ``<f></f>``
    too) and leaves the rest to its general path; both read each shape alike, down to what makes the
    file go to openpyxl (a type it does not know, a shared string that is not there)."""
    from excelcalc.workbook import reading as c
    from excelcalc.workbook.book import WorkbookCells
    from excelcalc.workbook.sheetxml import READ_CELLS

    def read(cell: str) -> object:
        book = WorkbookCells.__new__(WorkbookCells)
        book.clear()
        xml = f'<worksheet><sheetData><row r="1">{cell}<c r="B1"><v>5</v></c></row></sheetData></worksheet>'
        try:
            c.read_sheet(book, 0, xml.encode(), ["zero", "one"], "here")
        except Exception as exc:  # the kind of failure is compared
            return type(exc)
        return book.values, [(f.pos, f.text) for f in book.formulas], book.col_last, book.row_last

    end = "/>" if content is None else f">{content}</c>"
    quick = f'<c r="A1"{attrs}{end}'
    assert READ_CELLS.findall(quick.encode())[0][0], quick  # the quick shape, as the writer's (below)
    general = f'<c ph="1" r="A1"{attrs}{end}'  # an attribute before r: the general path
    assert not READ_CELLS.findall(general.encode())[0][0]
    assert read(quick) == read(general), quick


def test_a_sheets_extents_count_the_cells_of_either_path_and_prefixed_tags_are_read() -> None:
    """The quick path counts its cells' last row per column and last column per row in the sheet's
    own dicts, merged with what the general path counted at the end: a cell of either shape below or
    right of the others is the last (a whole-column range reads up to it). A prefixed
    ``<x:sheetData>`` ends at its own end tag, not at a plain one."""
    from excelcalc.workbook.book import WorkbookCells
    from excelcalc.workbook.reading import read_sheet

    def read(xml: str) -> Any:
        book = WorkbookCells.__new__(WorkbookCells)
        book.clear()
        read_sheet(book, 0, xml.encode(), [], "here")
        return book

    rows = (
        '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c></row><row r="9"><c t="n" r="A9"><v>5</v></c></row>'
        '<row r="3"><c r="A3"><v>1</v></c><c s="1" r="D3"/><c r="C3"/></row><row r="12"><c r="B12"/></row>'
    )
    book = read(f"<worksheet><sheetData>{rows}</sheetData></worksheet>")
    assert book.col_last == {(0, 1): 9, (0, 2): 12, (0, 3): 3, (0, 4): 3}
    assert book.row_last == {0: {1: 2, 9: 1, 3: 4, 12: 2}}
    prefixed = (
        '<x:worksheet xmlns:x="urn:x"><x:sheetData><x:row r="1"><x:c r="A1"><x:v>4</x:v></x:c></x:row>'
        "</x:sheetData></x:worksheet>"
    )
    assert read(prefixed).values == {(0, 1, 1): 4}


def test_reading_and_writing_find_the_same_cells(template_path: Path) -> None:
    """calc reads a sheet's cells and writes their values with one scanner (``sheetxml``), compiled
    for each side: both forms take the same cells, with the same spans, and the same ones by the
    quick alternative, on every cell shape above (as written, after another attribute, prefixed) and
    on every sheet of the template and the corpus."""
    import re

    from excelcalc.workbook.sheetxml import PATCH_CELLS, READ_CELLS
    from excelcalc.workbook.xlsxfile import XlsxError, read_package, sheet_parts
    from tests.excel_corpus import corpus_files

    read = re.compile(READ_CELLS.pattern.decode(), READ_CELLS.flags & ~re.ASCII)  # the same source, as text
    shapes = "".join(f'<c r="A1"{a}{"/>" if c is None else f">{c}</c>"}' for a, c in CELL_SHAPES)
    sheets = [shapes, shapes.replace("<c r=", '<c ph="1" r='), re.sub(r"<(/?)(c|f|v|is|t)\b", r"<\1x:\2", shapes)]
    for path in (template_path, *corpus_files()):
        try:
            parts = read_package(path)
        except XlsxError:
            continue  # a file refused before any cell is read
        sheets += [parts[part].decode("utf-8") for part in sheet_parts(parts).values()]
    found = []
    for xml in sheets:
        reading = [(m.span(), bool(m.group(1))) for m in read.finditer(xml)]
        writing = [(m.span(), m.group("qr") is not None) for m in PATCH_CELLS.finditer(xml)]
        assert reading == writing, xml[:200]
        found.append([quick for _, quick in reading])
    assert found[0] == [True] * len(CELL_SHAPES) and found[1] == found[2] == [False] * len(CELL_SHAPES)
    assert len(sheets) > 200


@pytest.mark.parametrize("strip", [False, True])
@pytest.mark.parametrize(("attrs", "content"), CELL_SHAPES)
def test_the_quick_pattern_writes_a_cell_as_the_general_writer_does(
    attrs: str, content: str | None, strip: bool
) -> None:
    """calc and freeze write the common shapes of a cell without the general path's searches; the
    cell they write is the one the general path writes, for every kind of value, with or without one."""
    from excelcalc.workbook.cells import ErrorCode
    from excelcalc.workbook.sheetxml import PATCH_CELLS
    from excelcalc.workbook.xlsxfile import patch_sheet

    end = "/>" if content is None else f">{content}</c>"
    quick, general = f'<c r="A1"{attrs}{end}', f'<c ph="1" r="A1"{attrs}{end}'
    taken = PATCH_CELLS.match(quick)
    assert taken is not None and taken.group("qr") == "A1", quick  # the writer also takes <v></v>, <f></f>
    answers: list[Any] = [None, 1.5, 7, float("inf"), True, "", "a<b & c", "=x", ErrorCode("#N/A"), "#N/A why"]
    for value in answers:
        values = {} if value is None else {"A1": value}
        sheet = '<worksheet><sheetData><row r="1">{}<c r="B1"><v>5</v></c></row></sheetData></worksheet>'
        fast = patch_sheet(sheet.format(quick), values, strip)
        slow = patch_sheet(sheet.format(general), values, strip)
        assert fast == (slow[0].replace(' ph="1"', ""), *slow[1:]), (quick, value)


def _shared_groups(path: Path) -> dict[tuple[int, str], list[tuple[int, int]]]:
    """The cells of each shared formula as Excel saved them: (sheet index, si) -> [(row, col)]. The
    sheets are scanned as calc reads them (``sheetxml``): a shared formula's cell has attributes on
    its ``<f>``, so it is one the general alternative takes, its attributes and body as groups."""
    import re

    from excelcalc.workbook.cells import col_number
    from excelcalc.workbook.sheetxml import READ_CELLS, sheet_data
    from excelcalc.workbook.xlsxfile import read_package, sheet_parts

    parts = read_package(path)
    groups: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for s, part in enumerate(sheet_parts(parts).values()):
        xml = parts[part]
        data = sheet_data(xml)
        for *_, attrs, body in READ_CELLS.findall(xml[data[1] : data[2]]) if data else []:
            f = re.search(rb"<f\b([^>]*)", body)
            ref = re.search(rb'\br="([A-Z]+)(\d+)"', attrs)
            si = re.search(rb'\bsi="(\d+)"', f.group(1)) if f else None
            if f and ref and si and b't="shared"' in f.group(1):
                where = (int(ref.group(2)), col_number(ref.group(1).decode()))
                groups.setdefault((s, si.group(1).decode()), []).append(where)
    return groups


def test_the_cells_excel_saved_as_one_shared_formula_are_one_shape() -> None:
    """Excel stores a filled-down formula once (a shared formula): every cell of it has the same
    formula relative to its own position. calc prepares a formula once per such shape (its text
    relative to the cell, ``relative``); on the corpus of workbooks Excel saved, each shared
    formula must be one shape (``relative`` reads the references of the shape once, not per cell)."""
    from excelcalc.workbook.book import WorkbookCells
    from excelcalc.workbook.references import relative
    from tests.excel_corpus import FILES

    groups_checked = 0
    for path in sorted(FILES.rglob("*.xlsx")):
        groups = _shared_groups(path)
        if not groups:
            continue
        try:
            book = WorkbookCells(path)
        except Exception:
            continue  # a file calc refuses is another test's
        texts = {f.pos: f.text for f in book.formulas}
        for (s, _si), cells in groups.items():
            # (openpyxl's Translator, which writes each cell's text from the master's, moves line breaks)
            shapes = {"".join(relative(texts[(s, r, c)], r, c).split()) for r, c in cells if (s, r, c) in texts}
            assert len(shapes) <= 1, f"{path.name}: {sorted(shapes)[:3]}"
            groups_checked += len(cells) > 1
    assert groups_checked > 100


def test_the_text_named_for_a_value_error_is_the_one_that_makes_it(tmp_path: Path) -> None:
    """Issue 42 item 8: the template's Fleet row ``=IF(A18="","",$B$11*E18)`` with text typed in the
    share E18 blamed A18, the benchmark's name, read first (a text compared, not used as a number). The
    cell named is the one whose text makes the error: with it read as a number the error goes; where
    no single text does, no cell is named."""
    path = tmp_path / "fleet.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"], ws["E1"], ws["F1"] = "gpt-oss-120b", 5, "lots", '=IF(A1="","",B1*E1)'
    ws["A2"], ws["E2"], ws["F2"] = "x", "y", "=A2*E2"
    wb.save(path)
    c = compute(path)
    assert c.errors[("SHEET", "F1")] == "#VALUE! Sheet!E1 holds the text 'lots' where a number is needed"
    assert "Sheet!A2" not in c.errors[("SHEET", "F2")] and "Sheet!E2" not in c.errors[("SHEET", "F2")]
