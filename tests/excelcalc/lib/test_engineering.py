"""Excel's Engineering functions of complex numbers (``excelcalc.lib.engineering``): COMPLEX and the
IM functions, which answered "#NAME? ... is not computed by benchsheet" before (issue 30), and
whose formulas' forms wrote 17 digits ("4.999999999999999+12i" for IMDIV's example). No workbook
Excel saved in tests/corpus calls them: each expected value is the example of Microsoft's page of
the function, text Excel writes with 15 significant digits."""

from __future__ import annotations

import pytest

from excelcalc.formula import evaluate

EXAMPLES = {
    "COMPLEX(3,4)": "3+4i",
    'COMPLEX(3,4,"j")': "3+4j",
    "COMPLEX(0,1)": "i",
    "COMPLEX(1,0)": "1",
    'IMABS("5+12i")': 13,
    'IMAGINARY("3+4i")': 4,
    'IMAGINARY("0-j")': -1,
    "IMAGINARY(4)": 0,
    'IMREAL("6-9i")': 6,
    'IMCONJUGATE("3+4i")': "3-4i",
    'IMCOS("1+i")': "0.833730025131149-0.988897705762865i",
    'IMDIV("-238+240i","10+24i")': "5+12i",
    'IMEXP("1+i")': "1.46869393991589+2.28735528717884i",
    'IMLN("3+4i")': "1.6094379124341+0.927295218001612i",
    'IMLOG10("3+4i")': "0.698970004336019+0.402719196273373i",
    'IMLOG2("3+4i")': "2.32192809488736+1.33780421245098i",
    'IMPOWER("2+3i",3)': "-46+9.00000000000001i",
    'IMPRODUCT("3+4i","5-3i")': "27+11i",
    'IMPRODUCT("1+2i",30)': "30+60i",
    'IMSIN("4+3i")': "-7.61923172032141-6.548120040911i",
    'IMSQRT("1+i")': "1.09868411346781+0.455089860562227i",
    'IMSUB("13+4i","5+3i")': "8+i",
    'IMSUM("3+4i","5-3i")': "8+i",
}


def test_complex_numbers_as_microsoft_documents_them() -> None:
    assert {f: evaluate("=" + f) for f in EXAMPLES} == EXAMPLES
    assert evaluate('=IMARGUMENT("3+4i")') == pytest.approx(0.92729522, abs=5e-9)


def test_complex_numbers_that_are_not() -> None:
    """The pages: an inumber not of the form x+yi or x+yj is #NUM!; COMPLEX's suffix other than
    "i" or "j" is #VALUE!; IMDIV by 0 is #NUM!; i and j mixed is #VALUE!."""
    assert str(evaluate('=IMABS("abc")')) == "#NUM!"
    assert str(evaluate('=COMPLEX(1,2,"k")')) == "#VALUE!"
    assert str(evaluate('=IMDIV("1","0")')) == "#NUM!"
    assert str(evaluate('=IMSUM("3+4i","5-3j")')) == "#VALUE!"
    assert evaluate('=IMSUM("i","-i")') == "0"
    assert evaluate('=IMSQRT("-4")') == "1.22464679914735E-16+2i"  # polar form, as Excel writes tiny parts


# issue 41 item 7: functions of Excel-saved workbooks that calc answered "#NAME? ... is not computed".
# formula -> (the answer of its Microsoft page, support.microsoft.com/en-us/office/<name>-function, the
# decimals it shows)
ERF_EXAMPLES: dict[str, tuple[float, int]] = {
    "=ERF(0.745)": (0.70792892, 8),  # ERF page: "Error function integrated between 0 and 0.74500"
    "=ERF(1)": (0.84270079, 8),  # "Error function integrated between 0 and 1"
    "=ERF(0,1)": (0.84270079, 8),  # lower_limit 0, upper_limit 1
    "=_xlfn.ERF.PRECISE(0.745)": (0.70792892, 8),  # ERF.PRECISE page
    "=ERF.PRECISE(1)": (0.84270079, 8),
    "=ERFC(1)": (0.15729921, 8),  # ERFC page: "Complementary ERF function of 1"
    "=ERFC.PRECISE(1)": (0.15729921, 8),  # ERFC.PRECISE page
}


@pytest.mark.parametrize("formula", ERF_EXAMPLES)
def test_erf_as_microsoft_documents_them(formula: str) -> None:
    value, decimals = ERF_EXAMPLES[formula]
    assert round(evaluate(formula), decimals) == value


def test_erf_errors_and_bessel_not_computed() -> None:
    """ERF page: "If lower_limit is nonnumeric, ERF returns the #VALUE! error value". The BESSEL
    functions stay not computed: Microsoft's BESSELJ page shows BESSELJ(1.9,2) as 0.329925829, the exact
    value (scipy's, formulas' own) is 0.3299257277: Excel's approximation differs from the 7th digit."""
    assert str(evaluate('=ERF(1,"a")')) == "#VALUE!"
    assert "not computed" in evaluate("=BESSELJ(1.9,2)").reason
