"""Excel 365's dynamic-array functions (``excelcalc.lib.arrays``) and LET (``formula_text.written_out``),
issue 41 item 5: they answered "#NAME? ... is not computed" (SEQUENCE, FILTER, SORT, SORTBY, UNIQUE)
and LET a misleading "#REF! eval has no cells to refer to (x, x)". Each expected value is from
Microsoft's function page (support.microsoft.com/en-us/excel/<name>-function), quoted beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from excelcalc.formula import evaluate
from tests.excelcalc.lib.workbooks import book


def _rows(v: Any) -> Any:
    return v if isinstance(v, list) else str(v)


def test_sequence_as_microsoft_documents_it() -> None:
    """SEQUENCE page: "we created an array that's 4 rows tall by 5 columns wide with =SEQUENCE(4,5)"
    (1 to 20 row by row); columns, start and step "default to 1"; an empty array is #CALC!, more rows
    than Excel's sheet (1,048,576: "Excel specifications and limits") #VALUE!."""
    assert _rows(evaluate("=SEQUENCE(4,5)")) == [[float(5 * r + c + 1) for c in range(5)] for r in range(4)]
    assert _rows(evaluate("=SEQUENCE(3)")) == [[1.0], [2.0], [3.0]]
    assert _rows(evaluate("=SEQUENCE(2,3,10,-1)")) == [[10.0, 9.0, 8.0], [7.0, 6.0, 5.0]]
    assert evaluate("=SUM(SEQUENCE(10))") == 55
    assert str(evaluate("=SEQUENCE(0)")) == "#CALC!"
    assert str(evaluate("=SEQUENCE(1048577)")) == "#VALUE!"
    assert "more than benchsheet makes" in evaluate("=SEQUENCE(1000000,10)").reason  # refused, never made


def test_filter_as_microsoft_documents_it() -> None:
    """FILTER page: the rows whose include is TRUE; "If the dataset might return an empty value, use the
    3rd argument ([if_empty]). Otherwise, a #CALC! error will result" (formulas answered #VALUE!)."""
    assert _rows(evaluate("=FILTER({1;2;3},{TRUE;FALSE;TRUE})")) == [[1], [3]]
    assert _rows(evaluate('=FILTER({"a",1;"b",2;"c",3},{1;0;1})')) == [["a", 1], ["c", 3]]
    assert str(evaluate("=FILTER({1;2;3},{FALSE;FALSE;FALSE})")) == "#CALC!"
    assert evaluate('=FILTER({1;2;3},{FALSE;FALSE;FALSE},"none")') == "none"


def test_sort_and_sortby_as_microsoft_documents_them() -> None:
    """SORT page: sort_index "a number indicating the row or column to sort by", sort_order "1 for
    ascending order (default), -1 for descending order"; SORTBY page: the array sorted by the values
    of by_array1."""
    assert _rows(evaluate("=SORT({3;1;2})")) == [[1], [2], [3]]
    assert _rows(evaluate('=SORT({"b",2;"a",1;"c",3},2,-1)')) == [["c", 3], ["b", 2], ["a", 1]]
    assert _rows(evaluate('=SORTBY({"x";"y";"z"},{3;1;2})')) == [["y"], ["z"], ["x"]]
    assert _rows(evaluate('=SORTBY({"x";"y";"z"},{3;1;2},-1)')) == [["x"], ["z"], ["y"]]


def test_unique_as_microsoft_documents_it() -> None:
    """UNIQUE page: the distinct rows (columns with by_col TRUE), "exactly_once ... TRUE will return
    all distinct rows or columns that occur exactly once". Texts are compared regardless of case, as
    Excel compares them everywhere (Microsoft's "Comparison operators": "a" = "A" is TRUE); formulas
    kept "a" and "A" apart."""
    assert _rows(evaluate("=UNIQUE({1;1;2;3;3})")) == [[1], [2], [3]]
    assert evaluate("=UNIQUE({1;1;2;3;3},FALSE,TRUE)") == 2  # one value: eval shows it as one
    assert _rows(evaluate("=UNIQUE({1,1,2},TRUE)")) == [[1, 2]]
    assert _rows(evaluate('=UNIQUE({"a";"A";"b"})')) == [["a"], ["b"]]
    assert evaluate("=ROWS(UNIQUE({1;2;2;3}))") == 3


def test_let_as_microsoft_documents_it(tmp_path: Path) -> None:
    """LET page: "=LET(x, 1, x + 1)" is 2; names are assigned in order, each value may use those
    before; in a file Excel writes LET as _xlfn.LET and its names with _xlpm. (Microsoft's
    [MS-XLSX] future functions). A LET of too few arguments says what LET takes."""
    assert evaluate("=LET(x, 1, x + 1)") == 2
    assert evaluate("=LET(x, 5, y, x*2, SUM(x, y))") == 15
    assert evaluate("=LET(x, 1, LET(x, 10, x + 1) + x)") == 12  # an inner LET's name hides the outer one
    assert _rows(evaluate('=LET(c,"b",FILTER({"a";"b";"b"},{"a";"b";"b"}=c))')) == [["b"], ["b"]]
    assert "LET takes names" in evaluate("=LET(x, 1)").reason
    got = book(tmp_path, {"A1": 4, "B1": "=_xlfn.LET(_xlpm.x,A1*2,_xlpm.x+1)"})
    assert got["B1"] == 9


def test_map_with_lambda_as_microsoft_documents_it(tmp_path: Path) -> None:
    """MAP page, example 1 "Square numbers above a certain value": =MAP(A1:C2, LAMBDA(a, IF(a>4,a*a,a)))
    of 1 2 3 / 4 5 6 is 1 2 3 / 4 25 36. LAMBDA's parameters are names, not references (eval answered
    "#REF! eval has no cells to refer to (a, a)"); in a file Excel writes them _xlpm.a ([MS-XLSX]
    future functions). What is not computed says so: a LAMBDA called where it is written, a LET name
    called as a function."""
    assert _rows(evaluate("=MAP({1,2,3;4,5,6},LAMBDA(a,IF(a>4,a*a,a)))")) == [[1, 2, 3], [4, 25, 36]]
    assert _rows(evaluate("=LET(f,LAMBDA(x,x+1),MAP({1,2},f))")) == [[2, 3]]
    cells = {"A1": 1, "B1": 2, "C1": 3, "A2": 4, "B2": 5, "C2": 6}
    mapped = "=_xlfn.MAP(A1:C2,_xlfn.LAMBDA(_xlpm.a,IF(_xlpm.a>4,_xlpm.a*_xlpm.a,_xlpm.a)))"
    got = book(tmp_path, {**cells, "E1": mapped})
    assert got["E1"] == 1
    called = evaluate("=LAMBDA(x,y,x+y)(1,2)")
    assert str(called) == "#NAME?" and "pass it to MAP" in called.reason
    assert "f(...)" in evaluate("=LET(f,LAMBDA(x,x+1),f(2))").reason
    assert str(evaluate("=SUM(A1)")) == "#REF!"  # a reference is still one


def test_lambda_helpers_as_microsoft_documents_them() -> None:
    """The examples of Microsoft's pages on the sample 1 2 3 / 4 5 6 (BYROW: "=BYROW(A1:C2,
    LAMBDA(array, MAX(array)))" is 3;6, SUMSQ 14;77; BYCOL: MAX 4 5 6, SUMSQ 17 29 45; REDUCE:
    "=REDUCE(, A1:C2, LAMBDA(a,b,a+b^2))" sums the squares, 91; SCAN: "=SCAN(1, A1:C2,
    LAMBDA(a,b,a*b))" the factorials, "=SCAN("",A1:C2,LAMBDA(a,b,a&b))" of a..f the running text;
    MAKEARRAY: "=MAKEARRAY(3, 3, LAMBDA(r,c, r*c))" the products). They answered "not computed".
    MAKEARRAY's size is bounded before any call (1E9 x 1E9 never returned)."""
    data = "{1,2,3;4,5,6}"
    assert _rows(evaluate(f"=BYROW({data},LAMBDA(array,MAX(array)))")) == [[3], [6]]
    assert _rows(evaluate(f"=BYROW({data},LAMBDA(array,SUMSQ(array)))")) == [[14], [77]]
    assert _rows(evaluate(f"=BYCOL({data},LAMBDA(array,MAX(array)))")) == [[4, 5, 6]]
    assert _rows(evaluate(f"=BYCOL({data},LAMBDA(array,SUMSQ(array)))")) == [[17, 29, 45]]
    assert evaluate(f"=REDUCE(,{data},LAMBDA(a,b,a+b^2))") == 91
    assert _rows(evaluate(f"=SCAN(1,{data},LAMBDA(a,b,a*b))")) == [[1, 2, 6], [24, 120, 720]]
    text = '=SCAN("",{"a","b","c";"d","e","f"},LAMBDA(a,b,a&b))'
    assert _rows(evaluate(text)) == [["a", "ab", "abc"], ["abcd", "abcde", "abcdef"]]
    assert _rows(evaluate("=MAKEARRAY(3,3,LAMBDA(r,c,r*c))")) == [[1, 2, 3], [2, 4, 6], [3, 6, 9]]
    assert "more than benchsheet makes" in evaluate("=MAKEARRAY(1E9,1E9,LAMBDA(r,c,r*c))").reason
    assert "at least 1 row" in evaluate("=MAKEARRAY(0,2,LAMBDA(r,c,r*c))").reason


# issue 41 item 7: functions of Excel-saved workbooks that calc answered "#NAME? ... is not computed".
# Microsoft's pages' data: A2:C4 holding 1 to 9 row by row.
NINE = "{1,2,3;4,5,6;7,8,9}"


def test_take_and_drop_as_microsoft_documents_them() -> None:
    """TAKE page: "=TAKE(A2:C4,2)" the first two rows, "=TAKE(A2:C4,,2)" the first two columns,
    "=TAKE(A2:C4,-2)" the last two rows, "=TAKE(A2:C4,2,3)" the first two rows and three columns; "Excel
    returns a #CALC! error to indicate an empty array when either rows or columns is 0". DROP page:
    "=DROP(A2:C4,2)" 7 8 9, "=DROP(A2:C4,,2)" 3 6 9, "=DROP(A2:C4,-2)" 1 2 3, "=DROP(A2:C4,2,2)" 9.
    formulas answered TAKE(A2:C4,,2) and TAKE(A2:C4,0) #VALUE!, DROP of every row an empty row."""
    assert _rows(evaluate(f"=TAKE({NINE},2)")) == [[1, 2, 3], [4, 5, 6]]
    assert _rows(evaluate(f"=TAKE({NINE},,2)")) == [[1, 2], [4, 5], [7, 8]]
    assert _rows(evaluate(f"=TAKE({NINE},-2)")) == [[4, 5, 6], [7, 8, 9]]
    assert _rows(evaluate(f"=_xlfn.TAKE({NINE},2,3)")) == [[1, 2, 3], [4, 5, 6]]
    assert _rows(evaluate(f"=TAKE({NINE},5)")) == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert str(evaluate(f"=TAKE({NINE},0)")) == "#CALC!"
    assert _rows(evaluate(f"=DROP({NINE},2)")) == [[7, 8, 9]]
    assert _rows(evaluate(f"=DROP({NINE},,2)")) == [[3], [6], [9]]
    assert _rows(evaluate(f"=DROP({NINE},-2)")) == [[1, 2, 3]]
    assert evaluate(f"=_xlfn.DROP({NINE},2,2)") == 9
    assert str(evaluate(f"=DROP({NINE},3)")) == "#CALC!"


def test_vstack_and_hstack_as_microsoft_documents_them() -> None:
    """VSTACK page: the arrays appended row-wise, "Columns: The maximum of the column count from each of
    the array arguments"; "If an array has fewer columns than the maximum width of the selected arrays,
    Excel returns a #N/A error in the additional columns" (=VSTACK(A2:C3,E2:F4), 2x3 over 3x2). HSTACK
    page the same across; "Excel returns a #NUM when array is too large"."""
    assert _rows(evaluate('=VSTACK({"A","B","C";"D","E","F"},{"AA","BB","CC";"DD","EE","FF"})')) == [
        ["A", "B", "C"],
        ["D", "E", "F"],
        ["AA", "BB", "CC"],
        ["DD", "EE", "FF"],
    ]
    got = _rows(evaluate("=VSTACK({1,2,3;4,5,6},{1,2;3,4;5,6})"))
    assert [[str(v) for v in row] for row in got] == [
        ["1", "2", "3"],
        ["4", "5", "6"],
        ["1", "2", "#N/A"],
        ["3", "4", "#N/A"],
        ["5", "6", "#N/A"],
    ]
    assert _rows(evaluate('=_xlfn.HSTACK({"A","B";"C","D"},{"AA","BB";"CC","DD"})')) == [
        ["A", "B", "AA", "BB"],
        ["C", "D", "CC", "DD"],
    ]
    assert str(evaluate("=HSTACK({1;2},{5;6;7})")[2][0]) == "#N/A"
    assert evaluate("=SUM(VSTACK(1,2,3))") == 6
    assert "larger than benchsheet makes" in evaluate("=VSTACK(SEQUENCE(1000000),SEQUENCE(100000))").reason


def test_tocol_torow_and_chooserows_as_microsoft_documents_them() -> None:
    """TOCOL page: "scan_by_column ... By default, the array is scanned by row"; ignore "0 Keep all values
    (default) 1 Ignore blanks 2 Ignore errors 3 Ignore blanks and errors". TOROW the same as a row.
    CHOOSEROWS page: "=CHOOSEROWS(A2:B7,{1,3},5,1)" rows 1, 3, 5 and 1 again; "=CHOOSEROWS(A2:B7,-1,-2)"
    the last two, last first; "If the absolute value of any of row_num arguments is zero or exceeds the
    number of rows in array, CHOOSEROWS returns a #VALUE! error"."""
    assert _rows(evaluate("=TOCOL({1,2;3,4})")) == [[1], [2], [3], [4]]
    assert _rows(evaluate("=_xlfn.TOCOL({1,2;3,4},0,TRUE)")) == [[1], [3], [2], [4]]
    assert _rows(evaluate("=TOCOL({1,#N/A;3,4},2)")) == [[1], [3], [4]]
    assert _rows(evaluate("=TOROW({1,2;3,4})")) == [[1, 2, 3, 4]]
    assert _rows(evaluate("=TOROW({1,2;3,4},,TRUE)")) == [[1, 3, 2, 4]]
    assert str(evaluate("=TOCOL({1,2},4)")) == "#VALUE!"
    six = "{1,2;3,4;5,6;7,8;9,10;11,12}"
    assert _rows(evaluate(f"=CHOOSEROWS({six},{{1,3}},5,1)")) == [[1, 2], [5, 6], [9, 10], [1, 2]]
    assert _rows(evaluate(f"=_xlfn.CHOOSEROWS({six},-1,-2)")) == [[11, 12], [9, 10]]
    assert [str(evaluate(f"=CHOOSEROWS({six},{n})")) for n in (0, 7, -7)] == ["#VALUE!"] * 3


def test_take_of_a_range_with_blanks_in_a_workbook(tmp_path: Path) -> None:
    """In a workbook (the newer functions written with their _xlfn. prefix, as Excel writes them), TAKE
    of a range reads its cells; TOCOL's ignore 1 leaves blanks out ("1 Ignore blanks")."""
    cells: dict[str, Any] = {"A1": 1, "B1": 2, "A2": 3, "C1": "=SUM(_xlfn.TAKE(A1:B3,2))"}
    cells["C2"] = "=ROWS(_xlfn.TOCOL(A1:B3,1))"
    got = book(tmp_path, cells)
    assert (got["C1"], got["C2"]) == (6, 3)
