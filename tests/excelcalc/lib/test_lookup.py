"""Excel's Lookup & Reference functions (``excelcalc.lib.lookup``): OFFSET and INDIRECT of a text
made at run time, and the range operator between two references, which calc answered otherwise
before (issue 19). Each expected value is Excel's: from Microsoft's function pages or workbooks
Excel saved (tests/corpus: POI's FormulaEvalTestData, PhpSpreadsheet's issue 2778), cited beside
the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from excelcalc.formula import evaluate
from tests.excelcalc.lib.workbooks import book


def _grid() -> dict[str, Any]:
    """B2:F8 holding 10*row + column (B2 is 22), so each cell names itself."""
    return {f"{c}{r}": 10 * r + i + 2 for r in range(2, 9) for i, c in enumerate("BCDEF")}


def test_offset_as_microsoft_documents_it(tmp_path: Path) -> None:
    """Microsoft's OFFSET page: OFFSET(D3,3,-2,1,1) is the value of B6; SUM(OFFSET(D3:F5,3,-2,3,3))
    sums B6:D8; OFFSET(D3,-3,-3) is #REF! (off the sheet). Height and width left out or empty
    are the reference's (POI's FormulaEvalTestData, Excel's cached values)."""
    cells = _grid() | {
        "H1": "=OFFSET(D3,3,-2,1,1)",
        "H2": "=SUM(OFFSET(D3:F5,3,-2,3,3))",
        "H3": "=OFFSET(D3,-3,-3)",
        "H4": "=SUM(OFFSET(B2:C3,1,1,,))",
        "H5": "=COUNTA(OFFSET(B2,0,0,7,5))",
        "H6": "=AVERAGE(OFFSET(B2:B8,0,1))",
        "H7": "=INDEX(OFFSET(B2:F8,1,1),2,3)",
        "H8": "=MATCH(45,OFFSET(B2,2,0,1,5),0)",
        "H9": "=OFFSET(B2,-2,0)",
    }
    got = book(tmp_path, cells)
    assert (got["H1"], got["H2"], got["H3"]) == (62, 62 + 63 + 64 + 72 + 73 + 74 + 82 + 83 + 84, "#REF!")
    assert (got["H4"], got["H5"], got["H6"]) == (33 + 34 + 43 + 44, 35, 53)
    assert (got["H7"], got["H8"], got["H9"]) == (45, 4, "#REF!")


def test_offset_reads_formula_cells_computed_after_it_would_be(tmp_path: Path) -> None:
    """The cells OFFSET lands on are known only when it runs: a formula cell there is computed
    first (A1 reads A5, whose formula reads A3), a reference from a corner to an OFFSET or INDIRECT
    reads every cell between (PhpSpreadsheet's issue 2778, Excel's cached 63), and an OFFSET that
    lands on itself answers a circular-reference error, never a number."""
    cells: dict[str, Any] = {"A1": "=OFFSET(A2,3,0)*2", "A3": 4, "A5": "=A3+1", "B1": "=SUM(B2:OFFSET(B2,2,0))"}
    cells |= {"B2": 1, "B3": "=A5", "B4": 3, "C1": "=OFFSET(C2,-1,0)", "D1": '=SUM(A3:INDIRECT("A"&5))'}
    cells |= {"E1": "=F1", "F1": "=IFERROR(E1,0)+1", "G1": "=IFERROR(OFFSET(D1,0,2),5)"}  # E1, F1: a circle
    got = book(tmp_path, cells)
    assert (got["A1"], got["B1"], got["D1"]) == (10, 9, 9)
    assert got["C1"] == "#VALUE!" and "circular" in got["reasons"]["C1"]
    assert got["G1"] == "#VALUE!" and "circular" in got["reasons"]["G1"]


def test_indirect_of_a_cell_text_or_a_defined_name(tmp_path: Path) -> None:
    """INDIRECT of a text made at run time (a cell's text, ADDRESS) or of a defined name (PhpSpreadsheet's
    IndirectDefinedName.xlsx: INDIRECT("CURRENCY_EUR")); a text that names nothing is #REF!."""
    cells: dict[str, Any] = {"A1": 7, "A2": "A1", "B1": "=INDIRECT(A2)*2", "B2": "=INDIRECT(ADDRESS(1,1))"}
    cells |= {"B3": '=INDIRECT("Rate")', "B4": '=INDIRECT("no such")', "B5": "=SUM(INDIRECT(C1))", "C1": "A1:A1"}
    got = book(tmp_path, cells, Rate="S!$A$1")
    assert (got["B1"], got["B2"], got["B3"], got["B4"], got["B5"]) == (14, 7, 7, "#REF!", 7)


def test_offset_of_a_whole_column_moves_all_of_it(tmp_path: Path) -> None:
    """A whole column is read as the cells present, but OFFSET moves all of it: SUM(OFFSET(A:A,0,1))
    is the whole of column B (which is longer than A), OFFSET(A:A,1,0) runs over the sheet's edge
    (#REF!, Microsoft's OFFSET page). One cell's OFFSET of several cells is read by implicit
    intersection, as Excel does: none of B1:B2 is in row 5, so #VALUE! saying why."""
    cells: dict[str, Any] = {f"A{r}": r for r in range(1, 4)} | {f"B{r}": 10 * r for r in range(1, 7)}
    cells |= {"D1": "=SUM(OFFSET(A:A,0,1))", "D2": "=OFFSET(A:A,1,0)", "D5": "=OFFSET(A1,0,1,2,1)"}
    got = book(tmp_path, cells)
    assert (got["D1"], got["D2"], got["D5"]) == (210, "#REF!", "#VALUE!")
    assert "implicit intersection" in got["reasons"]["D5"]


def test_a_range_between_two_references_reads_every_cell_between(tmp_path: Path) -> None:
    """``(A1):(A5)`` and ``INDEX(...):INDEX(...)`` (references joined by the range operator) are
    every cell from one corner to the other (formulas kept the corners alone), also filled down:
    B5 reads A1:A5 although its corners hold what B3's do (each cell's own range, not an answer
    kept for equal corners)."""
    cells: dict[str, Any] = {f"A{r}": v for r, v in enumerate([1, 2, 3, 4, 3], start=1)}
    cells |= {f"B{r}": f"=SUM(($A$1):(A{r}))" for r in range(1, 6)}
    cells |= {"C1": "=SUM(INDEX(A1:A5,2):INDEX(A1:A5,4))"}
    got = book(tmp_path, cells)
    assert [got[f"B{r}"] for r in range(1, 6)] == [1, 3, 6, 10, 13]
    assert got["C1"] == 9


def test_indirect_of_a_name_relative_to_its_cell_names_the_case(tmp_path: Path) -> None:
    """A defined name with relative references (``S!A1`` without $) means another cell in each
    cell that uses it (Excel reads it from the active cell); INDIRECT of it answers an error naming
    it, never the value of the cell the name means from A1."""
    got = book(tmp_path, {"A1": 1, "A2": 2, "B2": '=INDIRECT("Here")'}, Here="S!A1")
    assert got["B2"] == "#VALUE!" and "relative" in got["reasons"]["B2"]


def test_hyperlink_shows_its_friendly_name_or_its_link() -> None:
    """tests/corpus poi/FormulaEvalTestData_Copy.xlsx, EverythingTests!D724 (Excel-cached):
    HYPERLINK("http://poi.apache.org") is "http://poi.apache.org"; Microsoft's HYPERLINK page: the
    cell shows friendly_name where one is given. It answered "#NAME? unknown function HYPERLINK"."""
    assert evaluate('=HYPERLINK("http://poi.apache.org")') == "http://poi.apache.org"
    assert evaluate('=HYPERLINK("http://poi.apache.org","POI")') == "POI"


# PhpSpreadsheet's tests/data/Calculation/LookupRef/MATCH.php (values Excel gives), match_type 1:
# expected position, lookup value, lookup array
MATCH_CASES = [
    (1, "2", "{2,3,4,3}"),
    (2, "2", "{2,0,4,3}"),
    (3, "2", "{2,0,0,3}"),
    (4, "4", "{2,0,0,3}"),
    (3, "TRUE", "{TRUE,TRUE,TRUE}"),
    ("#N/A", "TRUE", "{0,1,2}"),
    (4, "4.6", "{1,2,3,4,5}"),
    (4, "4", "{1,2,3,3.8,5}"),
]


def test_match_lands_where_excels_binary_search_lands() -> None:
    """MATCH of match_type 1 over values not in ascending order answers where Excel's binary search
    lands, as LOOKUP does (POI's model of it, which passes POI's Excel-cached FormulaEvalTestData):
    MATCH("b",{"c","a","d","b","e"}) looks at "d" then "c" and finds nothing (formulas scanned
    every value and answered 2, the position of "a")."""
    got = [evaluate(f"=MATCH({v},{a},1)") for _, v, a in MATCH_CASES]
    assert [g if isinstance(g, int) else str(g) for g in got] == [e for e, _, _ in MATCH_CASES]
    assert str(evaluate('=MATCH("b",{"c","a","d","b","e"})')) == "#N/A"
    assert evaluate('=MATCH("c",{"d","a","b","e","c","z"})') == 5
    assert evaluate('=MATCH("B",{"a","b","c"},1)') == 2  # text compared in any case


def _table(array: str, vertical: bool) -> str:
    """A two-line table of ``array``'s values and their positions: {a,1;b,2;...} (VLOOKUP) or {a,b,...;1,2,...}."""
    items = array.strip("{}").split(",")
    if vertical:
        return "{" + ";".join(f"{v},{i}" for i, v in enumerate(items, start=1)) + "}"
    return "{" + ",".join(items) + ";" + ",".join(str(i) for i in range(1, len(items) + 1)) + "}"


def test_vlookup_and_hlookup_land_where_match_does() -> None:
    """VLOOKUP and HLOOKUP of an approximate match search their first column (row) as MATCH of
    match_type 1 does (one binary search, Excel's), so the position they read is MATCH's: PhpSpreadsheet's
    MATCH data above, as tables of each value's position, and the unsorted text case (formulas scanned
    every value and answered 2, "a"'s row, where Excel's search looks at "d" and "c" only: #N/A).
    POI's FormulaEvalTestData (EverythingTests row 1472, Excel-cached): VLOOKUP(-1,$B$6:$H$12,4,TRUE) over
    a first column of a header, 0, 1, 2, 534, 9999999999, -9999999999 is #N/A (the search never reaches
    the last row), VLOOKUP(534,...,4) its row's "endsWithSpace "."""
    for vertical, name in ((True, "VLOOKUP"), (False, "HLOOKUP")):
        for expected, v, array in MATCH_CASES:
            for flag in ("", ",TRUE", ",1"):
                got = evaluate(f"={name}({v},{_table(array, vertical)},2{flag})")
                assert (got if isinstance(got, int | float) else str(got)) == expected, (name, v, array, flag)
    assert str(evaluate('=VLOOKUP("b",{"c",1;"a",2;"d",3;"b",4;"e",5},2)')) == "#N/A"
    assert str(evaluate('=HLOOKUP("b",{"c","a","d","b","e";1,2,3,4,5},2,TRUE)')) == "#N/A"
    assert evaluate('=VLOOKUP("c",{"d",1;"a",2;"b",3;"e",4;"c",5;"z",6},2)') == 5
    assert evaluate('=VLOOKUP("b",{"c",1;"a",2;"d",3;"b",4;"e",5},2,FALSE)') == 4  # exact: formulas' own
    first = '{"INTEGRAL","i";0,"a";1,"nospaces";2,"c";534,"endsWithSpace ";9999999999,"e";-9999999999,"f"}'
    assert str(evaluate(f"=VLOOKUP(-1,{first},2,TRUE)")) == "#N/A"
    assert evaluate(f"=VLOOKUP(534,{first},2)") == "endsWithSpace "


# the same file's match_type -1 cases: formulas' own search answers each as Excel does (left to it)
MATCH_DESCENDING = [
    (1, "2", "{2,0,0,3}"),
    (4, "2", "{3,3,4,5}"),
    (3, "4", "{5,8,4,2}"),
    (2, "4", "{8,8,3,2}"),
    ("#N/A", "6", "{3,5,6,8}"),
    (5, "6", '{TRUE,FALSE,"a","z",222222,2,99999999}'),
    ("#N/A", "6", '{TRUE,FALSE,"a","z",2,888}'),
]


def test_match_of_match_type_minus_1_as_excel_answers() -> None:
    got = [evaluate(f"=MATCH({v},{a},-1)") for _, v, a in MATCH_DESCENDING]
    assert [g if isinstance(g, int) else str(g) for g in got] == [e for e, _, _ in MATCH_DESCENDING]


def test_a_whole_row_or_column_given_to_one_value_is_the_cell_of_the_formula(tmp_path: Path) -> None:
    """Microsoft's "Implicit intersection operator: @" page: "If the value is a range, then return
    the cell on the same row or column as the formula". Issue 44 item 3 (Excel-saved workbooks):
    ``CEILING.MATH($A97,$47:$47)`` answered 0 where Excel reads row 47's cell of the formula's
    column, and DAYS360 of ``F:F`` read F1; a whole column is the formula's row's cell also below
    the cells present (empty: 0), a whole row its column's cell also right of them."""
    cells: dict[str, Any] = {"F1": 45000, "F2": 7, "G2": 3, "H2": 0.25, "A9": 7.3, "A10": 7.3}
    cells |= {"C6": "=ABS(F:F)", "C1": "=ABS(F:F)+1", "K5": "=ABS($2:$2)", "G7": "=ABS($2:$2)"}
    cells |= {"G9": "=_xlfn.CEILING.MATH($A9,$2:$2)", "G10": "=_xlfn.FLOOR.MATH($A10,$2:$2)"}
    cells |= {"H9": "=_xlfn.CEILING.PRECISE($A9,$2:$2)", "H10": "=_xlfn.FLOOR.PRECISE($A10,$2:$2)"}
    cells |= {"G11": "=_xlfn.ISO.CEILING($A9,$2:$2)", "C2": "=DAYS360(F:F,F:F+30)", "D1": "=DAYS360(F:F,45030)"}
    cells |= {"C12": "=_xlfn.NORM.S.DIST(F:F,TRUE)", "C13": "=QUOTIENT($F:$F,2)", "B2": "=DEC2BIN(F:F)"}
    got = book(tmp_path, cells)
    assert (got["C6"], got["C1"], got["K5"], got["G7"]) == (0, 45001, 0, 3)
    assert (got["G9"], got["G10"], got["H9"], got["H10"], got["G11"]) == (9, 6, 7.5, 7.25, 9)
    assert (got["C2"], got["D1"], got["C12"], got["C13"], got["B2"]) == (29, 29, 0.5, 0, "111")


def test_formulatext_answers_the_formula_as_the_formula_bar_shows_it(tmp_path: Path) -> None:
    """Microsoft's FORMULATEXT page: "Returns a formula as a string", what the formula bar shows (its
    example: A2 holds =TODAY(), FORMULATEXT(A2) is "=TODAY()"); a range or a whole column gives its
    upper-left cell's; a cell without a formula #N/A. A newer function shows without the _xlfn. the
    file holds. It answered "#NAME? FORMULATEXT is not computed by benchsheet" (issue 44 item 8)."""
    got = book(
        tmp_path,
        {
            "A2": "=TODAY()",
            "B2": 5,
            "D1": '=_xlfn.CONCAT("a","b")&" x"',
            "C2": "=_xlfn.FORMULATEXT(A2)",
            "C3": "=_xlfn.FORMULATEXT(B2)",
            "C4": "=_xlfn.FORMULATEXT(A2:B3)",
            "C5": "=_xlfn.FORMULATEXT(D1)",
            "C6": "=ISNA(_xlfn.FORMULATEXT(B9))",
            "C7": "=LEN(_xlfn.FORMULATEXT(C2))",
        },
    )
    assert got["C2"] == "=TODAY()" and got["C4"] == "=TODAY()"
    assert got["C5"] == '=CONCAT("a","b")&" x"'
    assert got["C3"] == "#N/A" and "B2" in got["reasons"]["C3"]
    assert got["C6"] is True and got["C7"] == len("=FORMULATEXT(A2)")


def test_index_of_an_error_answers_that_error_and_past_the_end_says_where() -> None:
    """Issue 42 item 8: INDEX over a table function that answered an error (one cell: its #N/A with
    the reason) gave a bare #REF!, as if the row were past a table's end; an error given as an
    argument is the answer, as for any Excel function. A position past the array's end is #REF!
    (Microsoft's INDEX page: "If row_num and column_num do not point to a cell within array, INDEX
    returns the #REF! error"), saying which position and how large the array is."""
    from excelcalc.values import ReasonedError

    assert str(evaluate('=INDEX(VLOOKUP("zz",{"a",1;"b",2},2,FALSE),3,1)')) == "#N/A"
    reasoned = evaluate('=INDEX(REPT("a",-1),2)')  # a function's reasoned error, as a table function's
    assert isinstance(reasoned, ReasonedError) and "REPT's number_times is negative" in reasoned.reason
    assert str(evaluate("=INDEX(NA(),2)")) == "#N/A"
    past = evaluate("=INDEX({1,2;3,4},1,5)")
    assert isinstance(past, ReasonedError) and str(past) == "#REF!", past
    assert "column 5" in past.reason and "2 columns" in past.reason, past.reason
    row = evaluate("=INDEX({1,2;3,4},3,1)")
    assert isinstance(row, ReasonedError) and "row 3" in row.reason and "2 rows" in row.reason, row
    assert evaluate("=INDEX({1,2;3,4},2,2)") == 4


def test_formulatext_of_an_array_formula_shows_it_as_the_formula_bar_does(tmp_path: Path) -> None:
    """An array formula entered with Ctrl+Shift+Enter shows in the formula bar in braces, in every
    cell of its range, and FORMULATEXT "Returns a formula as a string" as the formula bar shows it
    (Microsoft's FORMULATEXT page; Tushar Mehta's "FORMULATEXT function", Excel 2013: "FORMULATEXT
    shows an array formula enclosed in curly brackets { and } - just as it would appear in the formula
    bar"). A dynamic array of Excel 365 (its cell has cell metadata, cm) has its formula in its first
    cell only, without braces; the cells it spills into hold none (#N/A). It answered "#VALUE!
    FORMULATEXT of an array formula is not computed by benchsheet" (issue 44)."""
    import re
    import zipfile

    import openpyxl
    from openpyxl.worksheet.formula import ArrayFormula

    from excelcalc.workbook.calc import calc

    wb = openpyxl.Workbook()
    ws = wb.active
    for r in (1, 2, 3):
        ws[f"A{r}"] = r
    ws["B1"] = ArrayFormula("B1", "=SUM(A1:A3*2)")
    ws["C1"] = ArrayFormula("C1:C3", "=A1:A3*2")
    ws["D1"] = ArrayFormula("D1:D3", "=A1:A3*3")
    for ref, at in {"E1": "B1", "E2": "C2", "E3": "D1", "E4": "D2", "E5": "C1"}.items():
        ws[ref] = f"=_xlfn.FORMULATEXT({at})"
    path, out = tmp_path / "in.xlsx", tmp_path / "out.xlsx"
    wb.save(path)
    with zipfile.ZipFile(path) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    parts["xl/worksheets/sheet1.xml"] = re.sub(rb'<c r="D1"', b'<c r="D1" cm="1"', parts["xl/worksheets/sheet1.xml"])
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    calc(path, out)
    got = openpyxl.load_workbook(out, data_only=True).active
    assert [got[f"E{r}"].value for r in range(1, 6)] == [
        "{=SUM(A1:A3*2)}",
        "{=A1:A3*2}",
        "=A1:A3*3",
        "#N/A",
        "{=A1:A3*2}",
    ]
