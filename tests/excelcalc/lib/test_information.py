"""Excel's Information functions (``excelcalc.lib.information``) checked against Microsoft's pages."""

from __future__ import annotations

from excelcalc.formula import evaluate


def test_iseven_and_isodd_as_microsoft_documents_them() -> None:
    """Microsoft's ISEVEN page: ISEVEN(-1) FALSE, ISEVEN(2.5) TRUE ("If number is not an integer, it
    is truncated"), ISEVEN(5) FALSE, ISEVEN(0) TRUE, ISEVEN of 12/23/2011 (40900) TRUE; its ISODD page:
    ISODD(-1) TRUE, ISODD(2.5) FALSE, ISODD(5) TRUE; "If number is nonnumeric", #VALUE!. They answered
    "#NAME? ... is not computed by benchsheet" (issue 41)."""
    assert [evaluate(f"=ISEVEN({n})") for n in ("-1", "2.5", "5", "0", "DATE(2011,12,23)")] == [
        False,
        True,
        False,
        True,
        True,
    ]
    assert [evaluate(f"=ISODD({n})") for n in ("-1", "2.5", "5")] == [True, False, True]
    assert str(evaluate('=ISEVEN("x")')) == "#VALUE!"
