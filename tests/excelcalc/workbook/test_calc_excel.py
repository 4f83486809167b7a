"""``template calc`` and ``eval`` compute Excel's own functions as Excel does (issue 19, "Wrong
numbers"; issue 21, "Text numbers"). Each expected value is Excel's, from Microsoft's function
pages or from a file Excel saved, cited beside the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.worksheet.formula import ArrayFormula

from benchsheet.catalogue.engine import evaluate
from excelcalc.workbook.calc import calc


def _calc(tmp_path: Path, cells: dict[str, Any], sheet: str = "S", **names: str) -> dict[str, Any]:
    """Build a one-sheet workbook of ``cells`` ("A1": value or formula), calc it, and read back
    every cell's cached value."""
    path = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    for ref, value in cells.items():
        ws[ref] = value
    for name, text in names.items():
        wb.defined_names[name] = openpyxl.workbook.defined_name.DefinedName(name, attr_text=text)
    wb.save(path)
    calc(path, tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)[sheet]
    return {c.coordinate: c.value for c in got._cells.values()}


# ------------------------------------------------- double negation, INDEX of a whole column


def test_double_negation_makes_a_number_as_excel_does(tmp_path: Path) -> None:
    """``--TRUE`` is 1 (formulas' parser read ``--`` as ``+``); ``+TRUE`` stays TRUE."""
    assert evaluate("=--TRUE") == 1 and evaluate("=+TRUE") is True
    assert evaluate('=- -"5"') == 5 and evaluate("=2^--2%") == pytest.approx(2**0.02)
    cells: dict[str, Any] = {f"A{n}": 8 if n % 3 else 7 for n in range(2, 21)}
    cells["B1"] = "=SUMPRODUCT(--(A2:A20=8))"
    cells["B2"] = "=SUMPRODUCT(--ISNUMBER(A2:A20))"
    got = _calc(tmp_path, cells)
    assert got["B1"] == sum(1 for n in range(2, 21) if n % 3) == 13
    assert got["B2"] == 19


def test_index_with_row_or_column_0_is_the_whole_column_or_row(tmp_path: Path) -> None:
    """Microsoft's INDEX page: "If you set row_num or column_num to 0 (zero), INDEX returns the
    array of values for the entire column or row"."""
    cells: dict[str, Any] = {"A1": 1, "B1": 1, "A2": 2, "B2": 2, "A3": 3, "B3": 3}
    cells |= {"D1": "=SUM(INDEX(A1:B3,0,2))", "D2": "=ROWS(INDEX(A1:B3,0,2))", "D3": "=SUM(INDEX(A1:B3,2,0))"}
    cells |= {"D4": "=INDEX(A1:B3,4,1)", "D5": "=INDEX(A1:A3,2)", "D6": "=COLUMNS(INDEX(A1:B3,1,0))"}
    got = _calc(tmp_path, cells)
    assert (got["D1"], got["D2"], got["D3"], got["D4"], got["D5"], got["D6"]) == (6, 3, 4, "#REF!", 2, 2)
    assert evaluate("=ROWS(INDEX({1,2;3,4},0,2))") == 2 and evaluate("=SUM(INDEX({1,2;3,4},0,2))") == 6


# ------------------------------------------------------------------ blank cells in ranges


def test_blank_cells_in_a_range_are_blank_not_the_text_empty(tmp_path: Path) -> None:
    """Microsoft's pages: COUNTA "does not count empty cells" but counts a formula's "" text;
    COUNTBLANK counts empty cells and "" answers; TEXTJOIN with ignore_empty TRUE skips empty
    cells. A blank cell is 0 in arithmetic (``SUMPRODUCT(A1:A3*1)`` with A3 blank: 3)."""
    cells: dict[str, Any] = {"A1": 1, "A2": 2, "A4": '=""', "C2": "x", "D2": 40, "C3": "y", "D3": 5}
    cells |= {
        "B1": "=SUMPRODUCT(A1:A3*1)",
        "B2": '=SUMPRODUCT((C2:C10="x")*(D2:D10))',
        "B3": "=COUNTA(C1:C10)",
        "B4": "=COUNTBLANK(C1:C10)",
        "B5": "=_xlfn.CONCAT(C1:C4,D3)",  # newer functions as Excel stores them (without _xlfn.: #NAME?)
        "B6": '=_xlfn.TEXTJOIN("",FALSE,C1:C4,D3)',
        "B7": '=_xlfn.TEXTJOIN("-",TRUE,C1:C4,D3)',
        "B8": '=_xlfn.TEXTJOIN("-",FALSE,C1:C4,D3)',
        "B9": "=COUNTA(A1:A4)",
        "B10": "=COUNTBLANK(A1:A4)",
    }
    got = _calc(tmp_path, cells)
    want = {"B1": 3, "B2": 40, "B3": 2, "B4": 8, "B5": "xy5", "B6": "xy5", "B7": "x-y-5", "B8": "-x-y--5"}
    assert {k: got[k] for k in want} == want
    assert (got["B9"], got["B10"]) == (3, 2)


# ------------------------------------------------------------- defined names beside cells


def test_a_defined_name_beside_a_cell_reference(tmp_path: Path) -> None:
    """``=A1*Rate`` answered ``#NAME? unknown name _BSREF0`` (an internal placeholder)."""
    cells: dict[str, Any] = {"A1": 4, "B1": 0.5, "D1": "IAD", "E1": "Dulles", "D2": "SFO", "E2": "San Francisco"}
    cells |= {"C1": "=A1*Rate", "C2": "=VLOOKUP(A2,AirportCode,2,FALSE)", "A2": "SFO", "C3": "=Rate*A1+Rate"}
    got = _calc(tmp_path, cells, Rate="S!$B$1", AirportCode="S!$D$1:$E$2")
    assert (got["C1"], got["C2"], got["C3"]) == (2, "San Francisco", 2.5)


# ------------------------------------------------------------------- implicit intersection


def test_an_ordinary_formula_reads_a_range_by_implicit_intersection(tmp_path: Path) -> None:
    """Microsoft's "Implicit intersection operator: @" page: in an ordinary (not array) formula a
    range where one value is needed is the cell in the formula's row; outside the range, #VALUE!.
    ``=Price*Qty`` filled down gives 10, 40, 90; an array formula keeps the whole range."""
    cells: dict[str, Any] = {"A2": 10, "A3": 20, "A4": 30, "B2": 1, "B3": 2, "B4": 3}
    cells |= {f"C{n}": "=Price*Qty" for n in (2, 3, 4, 5)}
    cells |= {"D3": "=ROUND(A2:A4/3,1)", "E1": "=SUM(A2:A4)", "E2": "=SUMPRODUCT(Price*Qty)", "E3": "=A2:A4"}
    cells["F2"] = ArrayFormula("F2:F4", "=Price*Qty")
    got = _calc(tmp_path, cells, Price="S!$A$2:$A$4", Qty="S!$B$2:$B$4")
    assert [got[f"C{n}"] for n in (2, 3, 4, 5)] == [10, 40, 90, "#VALUE!"]
    assert [got[f"F{n}"] for n in (2, 3, 4)] == [10, 40, 90]
    assert (got["D3"], got["E1"], got["E2"], got["E3"]) == (6.7, 60, 140, 20)


def test_implicit_intersection_of_a_row_and_of_function_arguments(tmp_path: Path) -> None:
    """As Excel cached it in POI's FormulaEvalTestData (tests/corpus): a one-row range where one
    value is needed is the cell of the formula's column (``=A7:J7*B15`` in column J, ``=COS(H12:L12)``),
    in an operator or in any argument that takes one value (ATAN2's, COUNTIF's criteria); a
    formula outside the range's columns, or a range of several rows and columns, is #VALUE!;
    T of a range reads its top-left cell; an array formula keeps the whole range."""
    cells: dict[str, Any] = {"A1": 1, "B1": 2, "C1": 3, "D1": 4, "E1": "x", "F2": 2, "F3": 9}
    cells |= {"C5": "=A1:D1*10", "C6": "=COS(A1:D1)", "G6": "=COS(A1:D1)", "B7": "=-A1:D1", "B8": "=ABS(A1:B2)"}
    cells |= {"B9": "=ATAN2(A1:D1,A1:D1)", "H2": "=COUNTIF(A1:D1,F1:F9)", "H3": "=COUNTIF(A1:D1,F1:F9)"}
    cells |= {"E10": "=T(A1:E1)", "E11": "=UPPER(A1:E1)", "D12": "=A1:D1<>B1:E1"}
    cells["A14"] = ArrayFormula("A14:D14", "=A1:D1*10")
    got = _calc(tmp_path, cells)
    assert (got["C5"], got["C6"], got["G6"]) == (30, pytest.approx(-0.9899924966), "#VALUE!")
    assert (got["B7"], got["B8"]) == (-2, "#VALUE!")
    assert (got["B9"], got["H2"], got["H3"]) == (pytest.approx(0.7853981634), 1, 0)
    assert (got["E10"], got["E11"], got["D12"]) == (None, "X", False)
    assert [got[f"{c}14"] for c in "ABCD"] == [10, 20, 30, 40]


def test_a_name_with_relative_references_reads_relative_to_its_cell(tmp_path: Path) -> None:
    """A name saved as ``S!$A1`` (column fixed, row relative to A1) is the cell of the formula's
    own row: "Left" in row 3 is A3. Filled down, each row reads its own cell."""
    cells: dict[str, Any] = {"A1": 1.5, "A2": 2.5, "A3": 4, "B2": 10}
    cells |= {f"C{n}": "=Left*2" for n in (1, 2, 3)}
    cells |= {"D2": "=SUM(Above)", "E3": "=Corner"}
    got = _calc(tmp_path, cells, Left="S!$A1", Above="S!$A$1:$A1", Corner="S!XFA1")
    assert [got[f"C{n}"] for n in (1, 2, 3)] == [3, 5, 8]
    assert got["D2"] == 4 and got["E3"] == 4  # SUM(A1:A2); XFA1 from E3 wraps round to A3


# ------------------------------------------ text, booleans and blanks: in a range, or typed

ARGUMENTS = {  # Microsoft's SUM/COUNT/COUNTA/AVERAGEA/AND pages; Excel's answers in POI's FormulaEvalTestData
    '=SUM(1,"2",TRUE)': 4,  # typed: "2" is 2, TRUE is 1
    '=SUM({1,"2",TRUE})': 1,  # an array constant is read as a range: numbers only
    '=ISNUMBER("5")': False,
    '=COUNT(2, "A",  "",#REF!, #DIV/0!)': 1,
    '=COUNTA(2, "A",  "",#REF!, #DIV/0!)': 5,
    '=AND("1",1)': "#VALUE!",
    '=MODE("1",2,2)': "#VALUE!",
    "=LARGE(TRUE,1)": 1,
    '=LARGE("2.3",1)': 2.3,
    '=AVERAGE({"a"})': "#DIV/0!",
    "=MIN(1,,2)": 0,
    "=SUMPRODUCT(3,2)": 6,  # single values are multiplied; a text one is #VALUE!
    '=SUMPRODUCT("4",2)': "#VALUE!",
    "=SUMPRODUCT(2,{1,2})": "#VALUE!",  # arrays of different sizes
    '=SUMPRODUCT({1,"a"},{3,4})': 3,  # text in an array is 0
}


def test_text_and_booleans_count_in_a_range_as_excel_reads_them(tmp_path: Path) -> None:
    """In a reference or an array only numbers count (a text "5", TRUE and blanks are ignored);
    typed as an argument "5" is 5 and TRUE 1; AVERAGEA counts TRUE as 1 and text as 0; COUNTA
    counts every value; MODE of an empty cell is #VALUE! (FormulaEvalTestData's MODE(B9,2,D7))."""
    for formula, want in ARGUMENTS.items():
        got = evaluate(formula)
        assert (str(got) if isinstance(want, str) else got) == want, formula
    cells: dict[str, Any] = {"A1": "5", "A2": 3, "A3": True, "A5": "x"}
    sums = {"B1": "=SUM(A1:A5)", "B2": "=COUNT(A1:A5)", "B3": "=COUNTA(A1:A5)", "B4": "=AVERAGEA(A1:A5)"}
    sums |= {"B5": "=MAX(A1:A5)", "B6": "=MIN(A1,A3:A5)", "B7": "=PRODUCT(A1,A4)", "B8": "=ISNUMBER(A1)"}
    sums |= {"B9": "=SUM(A1,2)", "B10": "=STDEV(A1:A5)", "B11": "=AND(A1:A5)", "B12": "=MODE(A2,A2,A4)"}
    got = _calc(tmp_path, cells | sums)
    assert [got[f"B{n}"] for n in range(1, 8)] == [3, 1, 4, 1, 3, 0, 0]
    assert [got[f"B{n}"] for n in range(8, 13)] == [False, 2, "#DIV/0!", True, "#VALUE!"]


ONE_BY_ONE = {  # Excel's cached answers in the corpus (file cited), or Microsoft's page
    "=ROUND(1*(0.001+0.5-0.4-0.05-0.001),1)": 0.1,  # POI 56315.xlsx: 15 digits, then rounded
    "=ROUND(2.675,2)": 2.68,
    "=ROUND(1E300,2)": 1e300,
    "=DATE(1900,1,22222)": 22222,  # FormulaEvalTestData I320: days added to the month's first
    '=YEAR("7/5/1800")': "#VALUE!",  # xlcalculator YEAR.xlsx: no date before 1900 in a text
    '=ADDRESS(2,3,3,TRUE,"[Book1]Sheet1")': "[Book1]Sheet1!$C2",  # FormulaEvalTestData F128
    '=ADDRESS(2,3,3,TRUE,"Sheet 1")': "'Sheet 1'!$C2",
    "=FV(2.95,13,13000,-17406.785214815642,1)": 333891.23010253906,  # FormulaEvalTestData H20, every digit
    "=FV(0.06/12, 10, -200, -500, 1)": pytest.approx(2581.40337406),  # Microsoft's FV page
    '=LEN("a\nb")': 3,  # dataValidationTableRange.xlsx: a line break in a literal is kept
    "=LOOKUP(4.19,{4.14,4.19,5.17,5.77,6.39},{1,2,3,4,5})": 2,  # Microsoft's LOOKUP page
    "=LOOKUP(2,1/({1,0,1,0}=1),{10,20,30,40})": 30,  # the last match, errors stepped over
    '=LOOKUP("DOUBLE",{"DOUBLE","BLANK","STRING","REF","AREA"},{1,2,3,4,5})': 1,  # E872: binary search
}


def test_rounding_dates_addresses_and_comparisons_with_blanks_as_excel(tmp_path: Path) -> None:
    """Each wrong value the corpus showed, one by one; an empty cell compared with FALSE is FALSE
    (FormulaEvalTestData N35); a reference a function answers is intersected like a range
    (``INDEX(B14:C15,D7,2)`` with D7 empty, E736), and so is an intersection of ranges at the top
    level (POI's Intersection-52111: a 2x2 intersection in one cell is #VALUE!)."""
    for formula, want in ONE_BY_ONE.items():
        got = evaluate(formula)
        assert (str(got) if isinstance(want, str) else got) == want, formula
    cells: dict[str, Any] = {f"A{r}": r for r in range(1, 4)} | {f"B{r}": 10 * r for r in range(1, 4)}
    cells |= {"C1": "=FALSE=D9", "C2": "=INDEX(A1:B3,0,2)", "C5": "=INDEX(A1:B3,D9,2)", "C6": "=SUM(INDEX(A1:B3,0,2))"}
    cells |= {"D1": "=A1:B3 B1:B2", "D3": "=A1:B3 B1:B2", "E2": "=A1:B3 A1:B2"}
    cells |= {"F1": -17406.785214815642, "F2": "=FV(2.95,13,13000,F1,1)"}  # the whole double, as Excel reads it
    got = _calc(tmp_path, cells)
    assert got["F2"] == 333891.23010253906
    assert (got["C1"], got["C2"], got["C5"], got["C6"]) == (True, 20, "#VALUE!", 60)
    assert (got["D1"], got["D3"], got["E2"]) == (10, "#VALUE!", "#VALUE!")


# ------------------------------------------------------------------------------- functions

ROUNDING = {  # Microsoft's FLOOR.MATH, CEILING.MATH, FLOOR.PRECISE and CEILING.PRECISE pages' examples
    "=FLOOR.MATH(24.3,5)": 20,
    "=FLOOR.MATH(6.7)": 6,
    "=FLOOR.MATH(-8.1,2)": -10,
    "=FLOOR.MATH(-5.5,2,-1)": -4,
    "=CEILING.MATH(24.3,5)": 25,
    "=CEILING.MATH(6.7)": 7,
    "=CEILING.MATH(-8.1,2)": -8,
    "=CEILING.MATH(-5.5,2,-1)": -6,
    "=FLOOR.PRECISE(-3.2,-1)": -4,
    "=CEILING.PRECISE(-4.3)": -4,
    "=FLOOR.MATH(-23.5)": -24,
    "=FLOOR.MATH(7.7,0.2)": 7.6,
}


def test_floor_and_ceiling_math_keep_the_sign(tmp_path: Path) -> None:
    for formula, want in ROUNDING.items():
        assert evaluate(formula) == want, formula
    got = _calc(tmp_path, {"A1": -23.5, "B1": "=_xlfn.FLOOR.MATH(A1)", "B2": "=_xlfn.CEILING.MATH(A1,2,1)"})
    assert (got["B1"], got["B2"]) == (-24, -24)


TEXTS = {  # Microsoft's TEXT and "Number format codes" pages: sections, ? pads with a space
    '=TEXT(1234.567,"$#,##0.00")': "$1,234.57",
    '=TEXT(0.285,"0.0%")': "28.5%",
    '=TEXT(12200000,"0.0,,")': "12.2",
    '=TEXT(-1,"0.0;(0.0)")': "(1.0)",
    '=TEXT(-1,"  0.0;-  0.0")': "-  1.0",
    '=TEXT(1234,"?,???")': "1,234",
    '=TEXT(5.5,"??.??")': " 5.5 ",
    '=TEXT(7,"00000")': "00007",
    '=TEXT(0,"0;-0;""zero""")': "zero",
}


def test_text_sections_and_question_mark_placeholders(tmp_path: Path) -> None:
    for formula, want in TEXTS.items():
        assert evaluate(formula) == want, formula
    assert "TEXT" in str(getattr(evaluate('=TEXT(0.5,"# ?/?")'), "reason", ""))  # an error naming TEXT
    got = _calc(tmp_path, {"A1": -1, "B1": '=TEXT(A1,"0.0;(0.0)")', "B2": '=TEXT(A1*-1234,"?,???")'})
    assert (got["B1"], got["B2"]) == ("(1.0)", "1,234")


# ------------------------------------------------------------------------ numbers as text


def test_text_numbers_are_read_as_excel_en_us_reads_them(tmp_path: Path) -> None:
    """Microsoft's VALUE page: ``VALUE("$1,000")`` is 1000 and ``VALUE("16:48:00")-VALUE("12:00:00")``
    is 0.2 (a time alone is a fraction of a day); Excel converts text to numbers wherever one is
    needed, so ``="$5"*1`` is 5 and ``="50%"*1`` 0.5. A decimal comma is no en-US number."""
    for formula, want in {
        '="$5"*1': 5,
        '="$5.00"+0': 5,
        '="50%"*1': 0.5,
        '="1,000,000"*1': 1_000_000,
        '=-"($5)"': 5,
        '=VALUE("$1,000")': 1000,
        '=VALUE("12:30")': 12.5 / 24,
    }.items():
        assert evaluate(formula) == pytest.approx(want), formula
    assert evaluate('=VALUE("16:48:00")-VALUE("12:00:00")') == pytest.approx(0.2)
    assert str(evaluate('="2,50"*1')) == "#VALUE!"
    # the catalogue reads its arguments the same way, in eval, calc and the add-in's shells
    assert evaluate('=COSTPERMTOK("$5",1000,"50%")') == evaluate("=COSTPERMTOK(5,1000,0.5)")
    cells = {
        "A1": "$5",
        "A2": "50%",
        "B1": "=A1*A2",
        "B2": "=COSTPERMTOK(A1,1000,A2)",
        "B3": "=COSTPERMTOK(5,1000,0.5)",
    }
    got = _calc(tmp_path, cells)
    assert got["B1"] == 2.5 and got["B2"] == pytest.approx(got["B3"])


def test_powers_without_a_real_answer_are_num_errors() -> None:
    """Excel answers #NUM! where a power has no real answer or is too large (Microsoft's POWER
    and "#NUM! error" pages); Python gave a complex number and an overflow (#VALUE!)."""
    for formula in ("=(-5)^0.5", "=5^1000", "=POWER(-5,0.5)", "=0^0"):
        assert str(evaluate(formula)) == "#NUM!", formula
    assert evaluate('=IFERROR((-5)^0.5,"none")') == "none" and evaluate("=2^0.5") == pytest.approx(2**0.5)


def test_a_text_answer_is_the_add_ins_text_without_an_apostrophe(tmp_path: Path) -> None:
    """``=ENTRY(...)="-10% power cap run"`` is TRUE in Excel: the add-in returns the text as it is
    (tests/benchsheet/catalogue/test_excel_inputs.py runs the xlwings UDF itself), so calc and eval must too."""
    from dataclasses import replace

    from benchsheet.data import store
    from benchsheet.data.table import Table

    table = store.get_table()
    entry = table.rows[0].entry
    rows = tuple(replace(r, system="-10% power cap run") if r.entry == entry else r for r in table.rows)
    store.set_table(Table(rows, table.sources, table.origin))
    assert evaluate(f'=ENTRY("{entry}","system")') == "-10% power cap run"
    got = _calc(tmp_path, {"A1": f'=ENTRY("{entry}","system")', "A2": '=A1="-10% power cap run"'})
    assert (got["A1"], got["A2"]) == ("-10% power cap run", True)


def test_cell_values_keep_15_significant_digits_not_15_decimals(tmp_path: Path) -> None:
    cells: dict[str, Any] = {"A1": 3.3e-16, "A2": 1.23456789012e-10, "A3": 1e-20}
    cells |= {"B1": "=A1*1E16", "B2": "=A2*1", "B3": "=1/A3"}
    got = _calc(tmp_path, cells)
    assert got["B1"] == pytest.approx(3.3) and got["B2"] == 1.23456789012e-10 and got["B3"] == pytest.approx(1e20)


# ------------------------------------------------------------------------ the file itself


def test_sheets_whose_names_differ_only_by_case_are_refused_with_the_reason(tmp_path: Path) -> None:
    """Excel refuses such names ("That name is already taken"), but a file can hold them: calc
    refuses it, naming both sheets, and writes nothing."""
    import zipfile

    from excelcalc.workbook.calc import CalcError

    path = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "Data"
    wb.active["A1"] = 1
    wb.create_sheet("Other")["A1"] = "=Data!A1+1"
    wb.save(path)
    with zipfile.ZipFile(path) as zf:  # a file openpyxl would not write: "Other" renamed "DATA"
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b'name="Other"', b'name="DATA"')
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    with pytest.raises(CalcError, match="'Data' and 'DATA' differ only by case"):
        calc(path, tmp_path / "out.xlsx")
    assert not (tmp_path / "out.xlsx").exists()


def test_a_sheet_saved_as_utf16_is_read_and_written(tmp_path: Path) -> None:
    """ECMA-376 allows UTF-8 or UTF-16 XML parts; a UTF-16 sheet was read as empty."""
    import zipfile

    from excelcalc.workbook.calc import freeze

    path = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "S"
    wb.active["A1"] = 20
    wb.active["B1"] = "=A1*2"
    wb.save(path)
    with zipfile.ZipFile(path) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode("utf-8").replace("encoding='UTF-8'", "encoding='UTF-16'")
    sheet = sheet.replace('encoding="UTF-8"', 'encoding="UTF-16"')
    parts["xl/worksheets/sheet1.xml"] = sheet.encode("utf-16")  # with its byte-order mark
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    report = calc(path, tmp_path / "out.xlsx")
    assert report.formulas == 1 and report.ok
    assert openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]["B1"].value == 40
    freeze(path, tmp_path / "frozen.xlsx")
    assert openpyxl.load_workbook(tmp_path / "frozen.xlsx")["S"]["B1"].value == 40


def test_a_chart_of_more_than_10000_points_gets_the_new_values(tmp_path: Path) -> None:
    import re
    import zipfile

    from openpyxl.chart import LineChart, Reference

    path = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    for n in range(1, 12_002):
        ws[f"A{n}"] = "=ROW()*2"
    chart = LineChart()
    chart.add_data(Reference(ws, min_col=1, min_row=1, max_row=12_001))
    ws.add_chart(chart, "C1")
    wb.save(path)
    calc(path, tmp_path / "out.xlsx")
    with zipfile.ZipFile(tmp_path / "out.xlsx") as zf:
        xml = zf.read(next(n for n in zf.namelist() if n.startswith("xl/charts/chart"))).decode()
    assert re.search(r'<(c:)?ptCount val="12001"/>', xml)
    assert re.search(r'<(c:)?pt idx="12000"><(c:)?v>24002(\.0)?</(c:)?v>', xml)


def test_excels_own_errors_are_stored_as_error_values_with_reasons_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program reading the cached values sees ``#DIV/0!`` as an error value (``t="e"``), as Excel
    stores it; the reason goes to stderr, and exit status 1 says some cells hold errors. An error of
    benchsheet's own functions stays the text the add-in shows in classic Excel."""
    import zipfile

    from benchsheet.cli import main

    path = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws["A1"] = 0
    ws["B1"] = "=1/A1"
    ws["B2"] = '=PERGPU("6.1-9999","gpt-oss-120b","Server")'
    ws["B3"] = "=1+1"
    wb.save(path)
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "out.xlsx")]) == 1
    err = capsys.readouterr().err
    assert "S!B1" in err and "division by zero" in err
    with zipfile.ZipFile(tmp_path / "out.xlsx") as zf:
        sheet = zf.read("xl/worksheets/sheet1.xml").decode()
    assert '<c r="B1" t="e"><f>1/A1</f><v>#DIV/0!</v></c>' in sheet
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    assert got["B1"].value == "#DIV/0!" and str(got["B2"].value).startswith("#N/A ") and got["B3"].value == 2


def test_xlookup_returns_the_whole_matching_row_of_several_columns(tmp_path: Path) -> None:
    """Microsoft's XLOOKUP page, example 2: a return_array of several columns gives the matching
    row's cells (formulas answered the array's first cell)."""
    assert evaluate("=SUM(XLOOKUP(3,{1;2;3},{10,11;20,21;30,31}))") == 61
    assert evaluate('=XLOOKUP(5,{1;2;3},{10,11;20,21;30,31},"none")') == "none"
    cells: dict[str, Any] = {"A1": 1, "A2": 2, "A3": 3, "B1": 10, "C1": 11, "B2": 20, "C2": 21, "B3": 30, "C3": 31}
    cells["E1"] = ArrayFormula("E1:F1", "=_xlfn.XLOOKUP(2,A1:A3,B1:C3)")
    got = _calc(tmp_path, cells)
    assert (got["E1"], got["F1"]) == (20, 21)


def test_date_functions_of_a_1904_workbook_answer_an_error_not_a_date_4_years_off(tmp_path: Path) -> None:
    """Microsoft's "Date systems in Excel": in the 1904 system serial 0 is January 1, 1904, so the
    same date is 1,462 lower. Computing with 1900 serials gave every date 4 years off. (YEAR and the
    other date functions of excelcalc.lib.datetime.IN_1904, TEXT among them, read the 1904 system:
    tests/excelcalc/lib/.)"""
    path = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "S"
    ws["A1"] = 100
    ws["B1"] = '=VALUE("4/10/1904")'
    ws["B2"] = "=A1+1"
    ws["B3"] = '=TEXT(A1,"yyyy-mm-dd")'
    wb.save(path)
    report = calc(path, tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["S"]
    assert got["B1"].value == "#VALUE!" and got["B2"].value == 101 and got["B3"].value == "1904-04-10"
    assert "1904 date system" in next(e.text for e in report.errors if e.where == "S!B1")


def test_a_number_as_text_is_what_excel_writes() -> None:
    """Where a number becomes text (``&``, LEN, LEFT, SEARCH...), Excel writes at most 15
    significant digits: ``0.1+0.2&""`` is "0.3" and LEN(0.1+0.2) 3, where formulas wrote Python's
    17 digits ("0.30000000000000004", 19). A number Excel would write in its own exponent or
    decimal form (1E-05 becomes "0.00001" in POI's FormulaEvalTestData, SEARCH(B8,C8)) answers an
    error naming the case, never another text."""
    from excelcalc.values import ReasonedError

    assert evaluate('=0.1+0.2&""') == "0.3" and evaluate("=LEN(0.1+0.2)") == 3
    assert evaluate('=1/3&"x"') == "0.333333333333333x" and evaluate("=LEFT(1/3,4)") == "0.33"
    assert evaluate('=5&"x"') == "5x" and evaluate('=TRUE&"x"') == "TRUEx" and evaluate('=-0.5&""') == "-0.5"
    assert evaluate('=SEARCH(3,"x0.1+0.3")') == 8 and evaluate("=FIND(0.3,0.1+0.2)") == 1
    for formula in ('=SEARCH(0.00001,"a0.00001")', '=1E+20&""', "=LEN(1E-20)"):
        value = evaluate(formula)
        assert isinstance(value, ReasonedError) and "as text" in value.reason, (formula, value)
