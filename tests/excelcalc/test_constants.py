"""What a formula writes as a constant: array constants (``{1,-2}``) and the ``#REF!`` Excel leaves
where a reference was deleted. Each expected value is Excel's: ECMA-376's grammar of a formula,
workbooks Excel saved (tests/corpus) or Microsoft's pages, cited beside the test."""

from __future__ import annotations

from pathlib import Path

from excelcalc.formula import evaluate
from tests import excel_corpus as ec
from tests.excelcalc.lib.workbooks import book


def test_negative_numbers_in_an_array_constant() -> None:
    """ECMA-376 Part 1, 18.17.2 (Constants): "Any numerical-constant in an array-constant can be
    preceded immediately by a prefix-operator". ``SUM({1,-2})`` answered 1 and ``MIN({3,-8})`` 3
    (issue 44): the negated cells were dropped; Excel answers -1 and -8."""
    assert evaluate("=SUM({1,-2})") == -1
    assert evaluate("=MIN({3,-8})") == -8
    assert evaluate("=MAX({-3,-8})") == -3
    assert evaluate("=SUM({1,-2;-3,4})") == 0
    assert evaluate("=SUM({-2})") == -2
    assert evaluate("=SUM({1;-2;+3})") == 2
    assert evaluate("=AVERAGE({-1,-2,-3})") == -2
    assert evaluate("={1,-2;-3,4}") == [[1, -2], [-3, 4]]
    assert evaluate("={-1;-2}") == [[-1], [-2]]
    assert evaluate("=INDEX({5,-6,7},2)") == -6
    assert evaluate("=COUNT({1,-2,-3})") == 3


def test_a_deleted_reference_is_ref_as_excel_saved_it(tmp_path: Path) -> None:
    """Every cell of the corpus whose formula holds Excel's ``#REF!`` (a reference Excel deleted:
    ``SUM(#REF!:#REF!)`` in PhpSpreadsheet's issue.3453.xlsx, ``'1'!#REF!`` in POI's
    customIndexedColors.xlsx, ``VLOOKUP(#REF!,...)`` under IFERROR in dataValidationTableRange.xlsx)
    has Excel's cached value; ``SUM(#REF!:#REF!)`` was "cannot read the formula" (#VALUE!)."""
    found = 0
    for name in ("phpspreadsheet/issue.3453.xlsx", "poi/customIndexedColors.xlsx", "poi/dataValidationTableRange.xlsx"):
        path = ec.FILES / name
        differ = {d.cell for d in ec.run_calc(path, tmp_path / path.name).differences or ()}
        for c in ec.excel_values(path):
            if "#REF!" in c.formula:
                found += 1
                assert f"{c.sheet}!{c.ref}" not in differ, (name, c.formula)
    assert found == 4


def test_a_reference_to_a_deleted_sheet_or_cell_is_ref(tmp_path: Path) -> None:
    """ECMA-376 Part 1, 18.17.2.3 (cell references) and 18.17.7 (error values): Excel writes a
    reference whose sheet was deleted as ``#REF!A1`` and one whose cells were deleted as
    ``Sheet1!#REF!``; evaluated, it is the #REF! error (issue 44 item 6: VLOOKUP over
    ``#REF!$A$1:$B$10`` answered #VALUE! "not a valid formula", 19,486 cells of workbooks Excel
    saved). IFERROR catches it as any error; the reason names the deleted reference."""
    cells = {
        "A1": "abc",
        "B1": "=VLOOKUP(A1,#REF!$A$1:$B$10,2,FALSE)",
        "B2": "=IFERROR(VLOOKUP(A1,#REF!$A$1:$B$10,2,FALSE),7)",
        "B3": "=#REF!A1+1",
        "B4": "=SUM(S!A1:#REF!)",
        "B5": "=SUM(S!$A:#REF!)",
        "B6": "=VLOOKUP(A1,S!#REF!,2,FALSE)",
        "B7": "=IFERROR('S'!#REF!,5)",
        "B8": "=ISERROR(#REF!$B$2)",
        "B9": "=SUM(#REF!A1:B3)",
        "B10": '=IF(A1="abc",#REF!,1)',
    }
    got = book(tmp_path, cells)
    for ref in ("B1", "B3", "B4", "B5", "B6", "B9", "B10"):
        assert got[ref] == "#REF!", (ref, got["reasons"].get(ref))
        assert "deleted" in got["reasons"][ref], (ref, got["reasons"][ref])
    assert (got["B2"], got["B7"], got["B8"]) == (7, 5, True)
    assert str(evaluate("=#REF!A1")) == "#REF!" and evaluate("=IFERROR(Sheet1!#REF!,2)") == 2


def test_a_name_standing_for_a_deleted_reference_is_ref(tmp_path: Path) -> None:
    """A defined name whose cells or sheet Excel deleted stands for ``S!#REF!`` or
    ``#REF!$A$1:$B$3`` in the file: evaluated, #REF!, which IFERROR catches (it answered #REF!
    "external workbook references are not followed" and "not a valid formula")."""
    cells = {
        "A1": 1,
        "B1": "=Gone*2",
        "B2": "=IFERROR(Gone,5)",
        "B3": "=SUM(Gone2)",
        "B4": "=IFERROR(VLOOKUP(A1,Gone2,2,0),7)",
    }
    got = book(tmp_path, cells, Gone="S!#REF!", Gone2="#REF!$A$1:$B$3")
    assert (got["B1"], got["B2"], got["B3"], got["B4"]) == ("#REF!", 5, "#REF!", 7)
    assert "deleted" in got["reasons"]["B1"]
