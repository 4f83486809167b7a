"""calc reads the references Excel writes beyond A1 as Excel does (issue 19): structured
references to Excel tables (``Sales[[#This Row],[Qty]]``, ``[@Qty]``, ``Sales[#Totals]``...),
3-D references across sheets (``SUM(Jan:Mar!B2)``) and ``[0]!Name``, the workbook's own name.

First on files Excel saved (the corpus, with Excel's cached values), then on small workbooks for
the cases those files do not hold, each expected value from Microsoft's "Using structured
references with Excel tables" and "Create a 3-D reference" pages."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.table import Table

from excelcalc.workbook.calc import calc
from excelcalc.workbook.compute import compute
from tests import excel_corpus as ec

# cells of corpus files Excel saved whose formulas are structured, 3-D or [0]! references (cells that
# also call a function benchsheet does not compute yet, such as SUBTOTAL, are left to the corpus test)
CORPUS_CELLS = {
    "phpspreadsheet/TableFormulae.xlsx": ["Sheet1!E2", "Sheet1!E3", "Sheet1!E7"],
    "phpspreadsheet/tableTest.xlsx": ["Worksheet!G2", "Worksheet!G9"],
    "poi/DataTableCities.xlsx": ["Formula!D3", "Formula!D7"],
    "poi/StructuredReferences.xlsx": ["Formulas!A1", "Formulas!A2", "Table!A2", "Table!A7"],
    "poi/bug66215.xlsx": ["Tabelle2!E4"],
    "poi/evaluate_formula_with_structured_table_references.xlsx": ["Tabelle1!C3"],
    "poi/table-sample.xlsx": ["Tabelle1!F5"],
    "poi/dataValidationTableRange.xlsx": ["County Ranking!D9", "County Ranking!L9", "xdropdown!V3"],
    "poi/55906-MultiSheetRefs.xlsx": ["Sheet1!A3", "Sheet1!B3", "Sheet1!C3", "Sheet1!D3", "Sheet1!H3", "Sheet1!I6"],
    "poi/FormulaSheetRange.xlsx": ["test!D11", "test!D12"],
    "poi/48703.xlsx": ["Sheet1!B2"],
    "poi/56737.xlsx": ["Uses!D2", "Uses!D3", "Uses!C5", "Uses!D5"],  # D2: Defines!NR_To_A1, a sheet's own name
}


@pytest.mark.parametrize("name", sorted(CORPUS_CELLS))
def test_corpus_cells_equal_excels(tmp_path: Path, name: str) -> None:
    path = ec.FILES / name
    calc(path, tmp_path / path.name)
    ours = ec.written_values(tmp_path / path.name)
    excel = {(c.sheet, c.ref): c.value for c in ec.excel_values(path)}
    for where in CORPUS_CELLS[name]:
        sheet, ref = where.split("!")
        assert ec.same(excel[(sheet, ref)], ours[(sheet, ref)]), (where, excel[(sheet, ref)], ours[(sheet, ref)])


def _book(path: Path) -> None:
    """Data: the table Sales (A1:E6, a header row and a totals row) and Plain (G1:H3, no totals);
    Report reads them; Jan, Feb, Mar, 'Q 1', 'Q 2' for 3-D references."""
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "Data"
    data.append(["Region", "Qty", "Unit price", "Odd [#] 'name", "Total"])
    rows = [("East", 2, 10, 1), ("West", 3, 20, 2), ("East", 4, 30, 3), ("North", 5, 40, 4)]
    totals = [
        "=Sales[[#This Row],[Qty]]*Sales[[#This Row],[Unit price]]",
        "=[@Qty]*[@[Unit price]]",
        "=Sales[@Qty]*Sales[@[Unit price]]",
        "=sales[[#this row],[QTY]]*SALES[[#This Row],[unit PRICE]]",
    ]
    for (region, qty, price, odd), total in zip(rows, totals, strict=True):
        data.append([region, qty, price, odd, total])
    data.append(["Total", "=SUM([Qty])", "=SUM(Sales[Unit price])", "=SUM(Sales[Odd '[#'] ''name])", "=SUM([Total])"])
    data.add_table(Table(displayName="Sales", ref="A1:E6", totalsRowCount=1))
    data["G1"], data["H1"], data["G2"], data["H2"], data["G3"], data["H3"] = "k", "v", "a", 1, "b", 2
    data.add_table(Table(displayName="Plain", ref="G1:H3"))
    data["J4"] = "=SUM(Sales[[#This Row],[Qty]]:Sales[[#This Row],[Unit price]])"  # beside the table, row 4
    for r in (2, 3, 4, 5, 8, 9):  # filled down beside the table, past its last row
        data[f"K{r}"] = '=IFERROR(Sales[@Qty]*10,"outside")'
    report = wb.create_sheet("Report")
    for i, formula in enumerate(REPORT, start=1):
        report[f"A{i}"] = formula
    report["Z1"] = 1.5
    for n, title in enumerate(["Jan", "Feb", "Mar", "Q 1", "Q 2"], start=1):
        ws = wb.create_sheet(title)
        ws["B2"], ws["B3"] = n, 10 * n
    wb.defined_names["Qtys"] = DefinedName("Qtys", attr_text="Sales[Qty]")
    wb.defined_names["TotalQty"] = DefinedName("TotalQty", attr_text="Sales[[#Totals],[Qty]]")
    wb.defined_names["Rate"] = DefinedName("Rate", attr_text="Report!$Z$1")
    wb.save(path)


REPORT = [
    "=SUM(Sales[Qty])",
    "=COUNTA(Sales[#All])",
    "=Sales[[#Totals],[Total]]",
    "=INDEX(Sales[#Headers],1,3)",
    "=ROWS(Sales[#Data])",
    "=ROWS(Sales[[#Headers],[#Data],[Qty]])",
    "=SUM(Sales[[#Data],[#Totals],[Qty]])",
    "=SUM(sales[QTY])",
    "=SUM(Sales[])",
    "=SUM(Sales[[Qty]:[Unit price]])",
    "=SUM(Qtys)",
    "=TotalQty*2",
    '=IFERROR(Sales[@Qty],"outside")',
    '=IFERROR(Plain[#Totals],"no totals")',
    "=SUM(Plain[v])+COLUMNS(Plain[])",
    "=SUM(Jan:Mar!B2)",
    "=AVERAGE('Jan:Mar'!B2:B3)",
    "=COUNT(Jan:Mar!B2:B3)",
    "=MAX(Jan:Mar!B2)+MIN(Mar:Jan!B3)",
    "=SUM('Q 1:Q 2'!B2,1)",
    "=[0]!Rate*2",
    "=SUM(Nope[x])",
    "=Jan:Mar!B2",
    "=SUM(Sales[Price])",
]
EXPECTED = [14, 30, 400, "Unit price", 4, 5, 28, 14, 524, 114, 14, 28, "outside", "no totals", 5, 6, 11, 6, 13, 10, 3]


def test_structured_and_3d_references_compute_as_in_excel(tmp_path: Path) -> None:
    _book(tmp_path / "in.xlsx")
    calc(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)
    assert [wb["Data"][f"E{r}"].value for r in range(2, 7)] == [20, 60, 120, 200, 400]
    assert [wb["Data"][f"{c}6"].value for c in "BCD"] == [14, 100, 10] and wb["Data"]["J4"].value == 34
    assert [wb["Data"][f"K{r}"].value for r in (2, 3, 4, 5, 8, 9)] == [20, 30, 40, 50, "outside", "outside"]
    got = [wb["Report"][f"A{i}"].value for i in range(1, len(EXPECTED) + 1)]
    assert got == EXPECTED


def test_what_is_not_computed_answers_an_error_naming_it(tmp_path: Path) -> None:
    _book(tmp_path / "in.xlsx")
    c = compute(tmp_path / "in.xlsx")
    errors = {ref: text for (sheet, ref), text in c.errors.items() if sheet == "REPORT"}
    assert errors["A22"] == "#REF! there is no table Nope"
    assert errors["A23"].startswith("#VALUE! a reference across sheets (Jan:Mar!B2) outside a function's argument")
    assert errors["A24"] == "#REF! the table Sales has no column 'Price'"


def _fan_out(path: Path, rows: int, structured: bool) -> None:
    """A table whose rows read whole columns of formulas (the total, a sum per key): each of
    2 x ``rows`` formulas depends on ``rows`` formula cells."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "T"
    ws.append(["Key", "Base", "Amount", "Total", "PerKey", "Share"])
    last = rows + 1
    for r in range(2, last + 1):
        if structured:
            formulas = ["=[@Base]*2", "=SUM([Amount])", "=SUMIF([Key],[@Key],[Amount])", "=[@Amount]/[@Total]"]
        else:
            column = f"$C$2:$C${last}"
            formulas = [f"=B{r}*2", f"=SUM({column})", f"=SUMIF($A$2:$A${last},A{r},{column})", f"=C{r}/D{r}"]
        ws.append([f"k{r % 7}", r, *formulas])
    ws.add_table(Table(displayName="Fan", ref=f"A1:F{last}"))
    wb.save(path)


@pytest.mark.parametrize("structured", [True, False])
def test_a_column_read_from_every_row_is_one_dependency_per_range(tmp_path: Path, structured: bool) -> None:
    """7,274 rows (the issue's workbook): 14,548 formulas that each read a column of 7,274
    formulas were 106 million cell-to-cell dependencies, refused; counted per range they compute,
    and a formula reading the same ranges and values as another is answered once."""
    rows = 7274
    _fan_out(tmp_path / "in.xlsx", rows, structured)
    start = time.monotonic()
    c = compute(tmp_path / "in.xlsx")
    assert time.monotonic() - start < 60
    total = sum(2 * r for r in range(2, rows + 2))
    values: dict[str, Any] = {ref: v for (sheet, ref), v in c.values.items() if sheet == "T"}
    assert values["D2"] == total and values["F2"] == pytest.approx(4 / total) and values["C9"] == 18
    per_key = sum(2 * r for r in range(2, rows + 2) if r % 7 == 2 % 7)
    assert values["E2"] == pytest.approx(per_key) and values["E3"] != values["E2"]
    assert not c.errors


def test_tables_are_read_also_where_openpyxl_reads_the_cells(tmp_path: Path) -> None:
    """A sheet the quick reader leaves to openpyxl (a cell without its address, valid in the format:
    it is the next cell of its row) keeps its tables: the same answers."""
    import zipfile

    _book(tmp_path / "in.xlsx")
    with zipfile.ZipFile(tmp_path / "in.xlsx") as src, zipfile.ZipFile(tmp_path / "odd.xlsx", "w") as out:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                assert b'<c r="A1"' in data
                data = data.replace(b'<c r="A1"', b"<c", 1)
            out.writestr(item, data)
    calc(tmp_path / "odd.xlsx", tmp_path / "out.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)
    assert [wb["Report"][f"A{i}"].value for i in range(1, len(EXPECTED) + 1)] == EXPECTED


def test_a_defined_name_for_a_row_of_a_table_or_across_sheets_answers_why(tmp_path: Path) -> None:
    """A defined name standing for ``Sales[@Qty]`` or ``Jan:Mar!B2`` would be read at its first cell
    and copied to the others: not computed, and said so."""
    _book(tmp_path / "in.xlsx")
    wb = openpyxl.load_workbook(tmp_path / "in.xlsx")
    wb.defined_names["RowQty"] = DefinedName("RowQty", attr_text="Sales[@Qty]")
    wb.defined_names["Quarter"] = DefinedName("Quarter", attr_text="Jan:Mar!$B$2")
    wb["Data"]["J2"], wb["Data"]["J3"] = "=RowQty*2", "=SUM(Quarter)"
    wb.save(tmp_path / "in.xlsx")
    errors = {ref: text for (sheet, ref), text in compute(tmp_path / "in.xlsx").errors.items() if sheet == "DATA"}
    assert errors["J2"].startswith("#VALUE! a defined name reading its cell's row of a table (Sales[@Qty])")
    assert errors["J3"].startswith("#VALUE! a reference across sheets (Jan:Mar!$B$2) outside a function's argument")


def test_a_damaged_table_part_answers_ref_for_its_references_only(tmp_path: Path) -> None:
    """A table part that is no XML (or counts its totals rows as "x") never sinks the workbook: the
    references to that table answer #REF! naming it, every other cell computes."""
    import zipfile

    _book(tmp_path / "in.xlsx")
    with zipfile.ZipFile(tmp_path / "in.xlsx") as src, zipfile.ZipFile(tmp_path / "bad.xlsx", "w") as out:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/tables/table1.xml":
                data = data[: len(data) // 2]
            elif item.filename == "xl/tables/table2.xml":
                data = data.replace(b"<table ", b'<table totalsRowCount="x" ', 1)
            out.writestr(item, data)
    c = compute(tmp_path / "bad.xlsx")
    report = {ref: v for (sheet, ref), v in c.values.items() if sheet == "REPORT"}
    assert c.errors[("REPORT", "A1")] == "#REF! there is no table Sales"
    assert c.errors[("REPORT", "A15")] == "#REF! there is no table Plain"
    assert report["A16"] == 6 and report["A21"] == 3


def test_a_running_total_down_a_column_of_formulas_is_a_few_dependencies_per_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``SUM($B$1:B9)`` filled down beside a column of formulas read every formula above it: 1,500
    rows were 1.1 million dependencies (7,274 rows 26 million, refused). The column's formula cells
    form a segment tree, so each range is the few spans that cover it: under the limit set here
    to 1,000,000, and in the same order."""
    from excelcalc.workbook import graph

    monkeypatch.setattr(graph, "MAX_EDGES", 1_000_000)
    rows = 1500
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "T"
    for r in range(1, rows + 1):
        ws.append([r, f"=A{r}*2", f"=SUM($B$1:B{r})"])
    wb.save(tmp_path / "in.xlsx")
    values = compute(tmp_path / "in.xlsx").values
    assert [values[("T", f"C{r}")] for r in (1, 2, 750, rows)] == [r * (r + 1) for r in (1, 2, 750, rows)]


def test_a_3d_reference_between_sheet_names_holding_quotes(tmp_path: Path) -> None:
    """``SUM('Q''1:Q''2'!A1)`` (sheets Q'1 and Q'2, the quote doubled as Excel writes it) was
    ``#REF! references across sheets``: the 3-D reference was not recognised."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Main"
    for i, title in enumerate(("Q'1", "Q'2", "Q 3"), start=1):
        wb.create_sheet(title)["A1"] = i * 10
    ws["A1"] = "=SUM('Q''1:Q''2'!A1)"
    ws["A2"] = "=SUM('Q''2:Q 3'!A1)"
    ws["A3"] = "=SUM('Q''1:Q 3'!A1)"
    wb.save(tmp_path / "in.xlsx")
    calc(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)["Main"]
    assert [got[c].value for c in ("A1", "A2", "A3")] == [30, 50, 60]


def test_a_name_of_one_sheet_is_read_with_its_sheet_name(tmp_path: Path) -> None:
    """Microsoft's "Define and use names in formulas" page: a name whose scope is one worksheet is
    known there without qualification, and elsewhere as ``Sheet1!Name`` (its sheet's name first).
    ``Sheet2!SheetDefinedName`` answered "#NAME? unknown name" (issue 44 item 8, 688 cells of
    Excel-saved workbooks); the sheet's own name wins over the workbook's, and unqualified on
    another sheet, or qualified with a sheet that has no such name, it stays #NAME? as in Excel."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    two, mine = wb.create_sheet("Sheet2"), wb.create_sheet("My Sheet")
    ws["A1"], two["A1"], mine["A1"] = 1, 5, 7
    two.defined_names["Local"] = DefinedName("Local", attr_text="Sheet2!$A$1")
    mine.defined_names["Local"] = DefinedName("Local", attr_text="'My Sheet'!$A$1")
    wb.defined_names["Glob"] = DefinedName("Glob", attr_text="S!$A$1")
    ws["B1"], ws["B2"], ws["B3"], ws["B4"] = "=Sheet2!Local*2", "='My Sheet'!Local+1", "=Local", "=S!Local"
    two["B1"], two["B2"], two["B3"], mine["B1"] = "=Local+1", "=Sheet2!local", "='My Sheet'!LOCAL", "=Local+Glob"
    wb.save(tmp_path / "in.xlsx")
    report = calc(tmp_path / "in.xlsx", tmp_path / "out.xlsx")
    got = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)
    assert [got["S"][c].value for c in ("B1", "B2", "B3", "B4")] == [10, 8, "#NAME?", "#NAME?"]
    assert [got["Sheet2"][c].value for c in ("B1", "B2", "B3")] == [6, 5, 7]
    assert got["My Sheet"]["B1"].value == 8
    assert {e.where: e.text for e in report.errors}["S!B3"] == "#NAME? unknown name Local"


def test_the_spill_operator_reads_the_whole_spilled_range(tmp_path: Path) -> None:
    """Microsoft's "Spilled range operator" page: ``D1#`` (``_xlfn.ANCHORARRAY(D1)`` in the file, as
    Excel saves it) is the whole range the formula in D1 spilled into, and a cell that spilled nothing
    gives #REF!. calc read it as D1 alone: ``SUM(_xlfn.ANCHORARRAY(D1))`` answered 1, not 6 (issue 44)."""
    from openpyxl.worksheet.formula import ArrayFormula

    from tests.excelcalc.lib.workbooks import book

    def spilled(wb: Any) -> None:
        wb.active["D1"] = ArrayFormula("D1:D3", "=_xlfn.SEQUENCE(3)")
        wb.create_sheet("T")["A1"] = ArrayFormula("A1:B2", "={1,2;3,4}")

    got = book(
        tmp_path,
        {
            "E1": "=SUM(_xlfn.ANCHORARRAY(D1))",
            "E2": "=ROWS(_xlfn.ANCHORARRAY($D$1))",
            "E3": "=SUM(_xlfn.ANCHORARRAY(T!A1))*2",
            "E4": "=SUM(_xlfn.ANCHORARRAY(F1))",
            "F1": 5,
        },
        spilled,
    )
    assert (got["E1"], got["E2"], got["E3"]) == (6, 3, 20)
    assert got["E4"] == "#REF!" and "F1" in got["reasons"]["E4"] and "spill" in got["reasons"]["E4"]
