"""What a formula writes as a constant: array constants (``{1,-2}``) and the ``#REF!`` Excel leaves
where a reference was deleted. Each expected value is Excel's: ECMA-376's grammar of a formula,
workbooks Excel saved (tests/corpus) or Microsoft's pages, cited beside the test."""

from __future__ import annotations

from excelcalc.formula import evaluate


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
