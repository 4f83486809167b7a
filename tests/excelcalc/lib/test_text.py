"""Excel's Text functions (``excelcalc.lib.text``): DOLLAR, which calc and eval answered as an
error before (issue 19); each expected value is from Microsoft's function page."""

from __future__ import annotations

from excelcalc.formula import evaluate


def test_dollar_as_microsoft_documents_it() -> None:
    """Microsoft's DOLLAR page: DOLLAR(1234.567,2) "$1,234.57", DOLLAR(1234.567,-2) "$1,200",
    DOLLAR(-1234.567,-2) "($1,200)", DOLLAR(-0.123,4) "($0.1230)", DOLLAR(99.888) "$99.89". It
    answered #NAME? (formulas has none)."""
    examples = {
        "=DOLLAR(1234.567,2)": "$1,234.57",
        "=DOLLAR(1234.567,-2)": "$1,200",
        "=DOLLAR(-1234.567,-2)": "($1,200)",
        "=DOLLAR(-0.123,4)": "($0.1230)",
        "=DOLLAR(99.888)": "$99.89",
    }
    assert {f: evaluate(f) for f in examples} == examples
