"""Excel's Logical functions that workbooks use and calc refused (issue 44 item 8): IFS, SWITCH,
IFNA and XOR answered "#NAME? ... is not computed by benchsheet". Each expected value is from the
examples of Microsoft's function pages, cited beside the test, in a workbook as Excel saves them
(``_xlfn.`` before each name)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from excelcalc.formula import evaluate
from tests.excelcalc.lib.workbooks import book


def test_ifs_as_microsoft_documents_it(tmp_path: Path) -> None:
    """IFS's page, Example 1: scores 93, 89, 78, 68, 58 graded by
    ``IFS(A2>89,"A",A2>79,"B",A2>69,"C",A2>59,"D",TRUE,"F")`` are A, B, C, D, F; "If no TRUE
    conditions are found, this function returns #N/A"; a test that is no logical value #VALUE!."""
    scores = (93, 89, 78, 68, 58)
    cells: dict[str, Any] = {f"A{i}": s for i, s in enumerate(scores, 2)}
    cells |= {f"B{i}": f'=_xlfn.IFS(A{i}>89,"A",A{i}>79,"B",A{i}>69,"C",A{i}>59,"D",TRUE,"F")' for i in range(2, 7)}
    cells |= {"C1": '=_xlfn.IFS(A2>100,"A")', "C2": '=_xlfn.IFS("a",1)'}
    got = book(tmp_path, cells)
    assert [got[f"B{i}"] for i in range(2, 7)] == ["A", "B", "C", "D", "F"]
    assert (got["C1"], got["C2"]) == ("#N/A", "#VALUE!")


def test_switch_as_microsoft_documents_it(tmp_path: Path) -> None:
    """SWITCH's page: with A2 2, A3 99, A4 99, A5 2, A6 3: ``SWITCH(WEEKDAY(A2),1,"Sunday",2,
    "Monday",3,"Tuesday","No match")`` Monday (WEEKDAY(2) is 2: written as A2 here, WEEKDAY is not
    computed); A3 without a default #N/A; A4 with one "No match";
    ``SWITCH(A5,1,"Sunday",7,"Saturday","weekday")`` weekday; A6 Tuesday."""
    cells: dict[str, Any] = {"A2": 2, "A3": 99, "A4": 99, "A5": 2, "A6": 3}
    cells |= {
        "B2": '=_xlfn.SWITCH(A2,1,"Sunday",2,"Monday",3,"Tuesday","No match")',
        "B3": '=_xlfn.SWITCH(A3,1,"Sunday",2,"Monday",3,"Tuesday")',
        "B4": '=_xlfn.SWITCH(A4,1,"Sunday",2,"Monday",3,"Tuesday","No match")',
        "B5": '=_xlfn.SWITCH(A5,1,"Sunday",7,"Saturday","weekday")',
        "B6": '=_xlfn.SWITCH(A6,1,"Sunday",2,"Monday",3,"Tuesday","No match")',
    }
    got = book(tmp_path, cells)
    assert [got[f"B{i}"] for i in range(2, 7)] == ["Monday", "#N/A", "No match", "weekday", "Tuesday"]


def test_ifna_and_xor_as_microsoft_documents_them() -> None:
    """IFNA's page: "If value is the #N/A error value, IFNA returns value_if_na", any other value
    (another error too) as it is: ``IFNA(VLOOKUP("Seattle",...,0),"Not found")`` is "Not found".
    XOR's page: ``XOR(3>0,2<9)`` FALSE (both TRUE), ``XOR(3>12,4>6)`` FALSE (none TRUE)."""
    assert evaluate('=IFNA(VLOOKUP("Seattle",{"Atlanta",1;"Boston",2},2,0),"Not found")') == "Not found"
    assert evaluate('=_xlfn.IFNA(NA(),"x")') == "x" and evaluate('=IFNA(5,"x")') == 5
    assert str(evaluate('=IFNA(1/0,"x")')) == "#DIV/0!"
    assert evaluate("=XOR(3>0,2<9)") is False and evaluate("=_xlfn.XOR(3>12,4>6)") is False
    assert evaluate("=XOR(TRUE,FALSE,FALSE)") is True


def test_numbers_compared_here_answer_as_formulas_operators_do() -> None:
    """Issue 41 (an IF of four cells: its comparison was a sixth of its time): two numbers are compared
    by ``compare`` itself; every answer, over numbers, TRUE, text, an empty cell, a 0-d array and 1x1
    ranges, has the type, shape and value of formulas' operator's answer (its own path, ``name``
    not given)."""
    import numpy as np
    from formulas.functions.operators import OPERATORS

    from excelcalc.backend import EMPTY, make_range, range_parts
    from excelcalc.formula import functions
    from excelcalc.lib.logical import compare

    functions()

    def cell(v: Any) -> Any:
        grid = np.empty((1, 1), dtype=object)
        grid[0, 0] = v
        return make_range(range_parts("S0", 2, 4, 2, 4), grid)

    def plain(v: Any) -> Any:
        return v

    values = [5, 3, 2.5, -0.0, 0, 1e308, True, "5", EMPTY, np.asarray(5, dtype=object)]
    differ = []
    for name in ("=", "<>", "<", ">", "<=", ">="):
        formulas_own, here = compare(OPERATORS[name]), compare(OPERATORS[name], name)
        for a in values:
            for b in values:
                for wrap_a in (plain, cell):
                    for wrap_b in (plain, cell):
                        want, got = formulas_own(wrap_a(a), wrap_b(b)), here(wrap_a(a), wrap_b(b))
                        same = (type(want), want.shape, want.dtype, type(want.flat[0])) == (
                            type(got),
                            got.shape,
                            got.dtype,
                            type(got.flat[0]),
                        )
                        if not (same and want.flat[0] == got.flat[0]):
                            differ.append((name, a, b))
    assert not differ
