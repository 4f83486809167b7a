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
