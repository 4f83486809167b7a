"""Excel's Statistical functions (``excelcalc.lib.statistical``): Excel 2010's names of the
distributions, ranks, percentiles and deviations (NORM.DIST, T.DIST, STDEV.S...), the older names
they replace, and the other statistics of pairs, shapes and tests (CORREL, SKEW, T.TEST...), which
answered "#NAME? ... is not computed by benchsheet" before (issue 30).
No workbook Excel saved in tests/corpus calls them: each expected value is the example of
Microsoft's page of the function ("Formula / Description / Result"), to the digits it shows."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from openpyxl.worksheet.formula import ArrayFormula

from excelcalc.formula import evaluate
from excelcalc.values import ReasonedError
from tests.excelcalc.lib.workbooks import book

_TEN = "{1345,1301,1368,1322,1310,1370,1318,1350,1303,1299}"  # the STDEV.S/STDEV.P/VAR.S/VAR.P pages' data
_RANKED = "{7,3.5,3.5,1,2}"  # the RANK.EQ page's data

# formula (as Microsoft's page writes it) -> its Result column
EXAMPLES = {
    "NORM.DIST(42,40,1.5,TRUE)": 0.9087888,
    "NORM.DIST(42,40,1.5,FALSE)": 0.10934,
    "NORM.INV(0.908789,40,1.5)": 42.000002,
    "NORM.S.DIST(1.333333,TRUE)": 0.908788726,
    "NORM.S.DIST(1.333333,FALSE)": 0.164010148,
    "NORM.S.INV(0.908789)": 1.3333347,
    "T.DIST(60,1,TRUE)": 0.99469533,
    "T.DIST(8,3,FALSE)": 0.00073691,
    "T.DIST.2T(1.959999998,60)": 0.054644930,
    "T.DIST.RT(1.959999998,60)": 0.027322465,
    "T.INV(0.75,2)": 0.8164966,
    "T.INV.2T(0.546449,60)": 0.606533,
    "CHISQ.DIST(0.5,1,TRUE)": 0.52049988,
    "CHISQ.DIST(2,3,FALSE)": 0.20755375,
    "CHISQ.DIST.RT(18.307,10)": 0.0500006,
    "CHISQ.INV(0.93,1)": 3.283020287,
    "CHISQ.INV(0.6,2)": 1.832581464,
    "CHISQ.INV.RT(0.050001,10)": 18.306973,
    "F.DIST(15.2069,6,4,TRUE)": 0.99,
    "F.DIST(15.2069,6,4,FALSE)": 0.0012238,
    "F.DIST.RT(15.2069,6,4)": 0.01,
    "F.INV(0.01,6,4)": 0.10930991,
    "F.INV.RT(0.01,6,4)": 15.20686,
    "BINOM.DIST(6,10,0.5,FALSE)": 0.2050781,
    "POISSON.DIST(2,5,TRUE)": 0.124652,
    "POISSON.DIST(2,5,FALSE)": 0.084224,
    "EXPON.DIST(0.2,10,TRUE)": 0.86466472,
    "EXPON.DIST(0.2,10,FALSE)": 1.35335283,
    "GAMMA.DIST(10.00001131,9,2,FALSE)": 0.032639,
    "GAMMA.DIST(10.00001131,9,2,TRUE)": 0.068094,
    "LOGNORM.DIST(4,3.5,1.2,TRUE)": 0.0390836,
    "LOGNORM.DIST(4,3.5,1.2,FALSE)": 0.0176176,
    "CONFIDENCE.NORM(0.05,2.5,50)": 0.692952,
    "CONFIDENCE.T(0.05,1,50)": 0.284196855,
    "COVARIANCE.P({3,2,4,5,6},{9,7,12,15,17})": 5.2,
    "COVARIANCE.S({2,4,8},{5,11,12})": 9.666666667,
    "PERCENTILE.INC({1,3,2,4},0.3)": 1.9,
    "PERCENTILE.EXC({1,2,3,6,6,6,7,8,9},0.25)": 2.5,
    "QUARTILE.INC({1,2,4,7,8,9,10,12},1)": 3.5,
    "QUARTILE.EXC({6,7,15,36,39,40,41,42,43,47,49},1)": 15,
    "QUARTILE.EXC({6,7,15,36,39,40,41,42,43,47,49},3)": 43,
    f"RANK.EQ(7,{_RANKED},1)": 5,
    f"RANK.EQ(2,{_RANKED})": 4,
    f"RANK.EQ(3.5,{_RANKED},1)": 3,
    "RANK.AVG(94,{89,88,92,101,94,97,95})": 4,
    "MODE.SNGL({5.6,4,4,3,2,4})": 4,
    f"STDEV.S({_TEN})": 27.46391572,
    f"STDEV.P({_TEN})": 26.05455814,
    f"VAR.S({_TEN})": 754.2666667,
    f"VAR.P({_TEN})": 678.84,
    # the older names (Compatibility), their pages' examples
    "NORMDIST(42,40,1.5,TRUE)": 0.9087888,
    "NORMINV(0.908789,40,1.5)": 42.000002,
    "NORMSDIST(1.333333)": 0.908789,
    "NORMSINV(0.908789)": 1.3333347,
    "TDIST(1.959999998,60,2)": 0.054644930,
    "TDIST(1.959999998,60,1)": 0.027322465,
    "TINV(0.546449,60)": 0.606533,
    "CHIDIST(18.307,10)": 0.0500006,
    "CHIINV(0.050001,10)": 18.306973,
    "FDIST(15.2069,6,4)": 0.01,
    "FINV(0.01,6,4)": 15.20686,
    "BINOMDIST(6,10,0.5,FALSE)": 0.2050781,
    "EXPONDIST(0.2,10,TRUE)": 0.86466472,
    "GAMMADIST(10.00001131,9,2,FALSE)": 0.032639,
    "LOGNORMDIST(4,3.5,1.2)": 0.0390836,
    "CONFIDENCE(0.05,2.5,50)": 0.692952,
    "COVAR({3,2,4,5,6},{9,7,12,15,17})": 5.2,
    "PERCENTILE({1,3,2,4},0.3)": 1.9,
    "QUARTILE({1,2,4,7,8,9,10,12},1)": 3.5,
    # the statistics of pairs, shapes, tests and the other distributions
    "CORREL({3,2,4,5,6},{9,7,12,15,17})": 0.997054486,
    "PEARSON({9,7,5,3,1},{10,6,1,5,3})": 0.699379,
    "SLOPE({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})": 0.305556,
    "INTERCEPT({2,3,9,1,8},{6,5,11,7,5})": 0.0483871,
    "RSQ({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})": 0.05795,
    "STEYX({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})": 3.305719,
    "FORECAST(30,{6,7,9,15,21},{20,28,31,38,40})": 10.607253,
    "FORECAST.LINEAR(30,{6,7,9,15,21},{20,28,31,38,40})": 10.607253,
    "STANDARDIZE(42,40,1.5)": 1.33333333,
    "GAMMALN(4)": 1.7917595,
    "GAMMALN.PRECISE(4)": 1.7917595,
    "SKEW({3,4,5,2,3,4,5,6,4,7})": 0.359543,
    "SKEW.P({3,4,5,2,3,4,5,6,4,7})": 0.303193,
    "KURT({3,4,5,2,3,4,5,6,4,7})": -0.151799637,
    "BETA.DIST(2,8,10,TRUE,1,3)": 0.6854706,
    "BETA.DIST(2,8,10,FALSE,1,3)": 1.4837646,
    "BETADIST(2,8,10,1,3)": 0.6854706,
    "BETA.INV(0.685470581,8,10,1,3)": 2,
    "BETAINV(0.685470581,8,10,1,3)": 2,
    "WEIBULL.DIST(105,20,100,TRUE)": 0.929581,
    "WEIBULL.DIST(105,20,100,FALSE)": 0.035589,
    "WEIBULL(105,20,100,TRUE)": 0.929581,
    "HYPGEOM.DIST(1,4,8,20,TRUE)": 0.4654,
    "HYPGEOM.DIST(1,4,8,20,FALSE)": 0.3633,
    "HYPGEOMDIST(1,4,8,20)": 0.3633,
    "NEGBINOM.DIST(10,5,0.25,TRUE)": 0.3135141,
    "NEGBINOM.DIST(10,5,0.25,FALSE)": 0.0550487,
    "NEGBINOMDIST(10,5,0.25)": 0.0550487,
    "BINOM.INV(6,0.5,0.75)": 4,
    "CRITBINOM(6,0.5,0.75)": 4,
    "GAMMA.INV(0.068094,9,2)": 10.0000112,
    "GAMMAINV(0.068094,9,2)": 10.0000112,
    "LOGNORM.INV(0.039084,3.5,1.2)": 4.0000252,
    "LOGINV(0.039084,3.5,1.2)": 4.0000252,
    "PERCENTRANK.INC({13,12,11,8,4,3,2,1,1,1},2)": 0.333,
    "PERCENTRANK.INC({13,12,11,8,4,3,2,1,1,1},5)": 0.583,
    "PERCENTRANK({13,12,11,8,4,3,2,1,1,1},8)": 0.666,
    "PERCENTRANK.EXC({1,2,3,6,6,6,7,8,9},7)": 0.7,
    "PERCENTRANK.EXC({1,2,3,6,6,6,7,8,9},5.43)": 0.381,
    "PERCENTRANK.EXC({1,2,3,6,6,6,7,8,9},5.43,1)": 0.3,
    "T.TEST({3,4,5,8,9,1,2,4,5},{6,19,3,2,14,4,5,17,1},2,1)": 0.196016,
    "TTEST({3,4,5,8,9,1,2,4,5},{6,19,3,2,14,4,5,17,1},2,1)": 0.196016,
    "CHISQ.TEST({58,11,10;35,25,23},{45.35,17.56,16.09;47.65,18.44,16.91})": 0.0003082,
    "CHITEST({58,11,10;35,25,23},{45.35,17.56,16.09;47.65,18.44,16.91})": 0.0003082,
    "Z.TEST({3,6,7,8,6,5,4,2,1,9},4)": 0.090574,
    "Z.TEST({3,6,7,8,6,5,4,2,1,9},6)": 0.863043,
    "ZTEST({3,6,7,8,6,5,4,2,1,9},4)": 0.090574,
    "F.TEST({6,7,9,15,21},{20,28,31,38,40})": 0.64831785,
    "FTEST({6,7,9,15,21},{20,28,31,38,40})": 0.64831785,
    "FISHER(0.75)": 0.9729551,
    "FISHERINV(0.972955)": 0.75,
    "PHI(0.75)": 0.301137432,
    "GAMMA(2.5)": 1.329,
    "GAMMA(-3.75)": 0.268,
    "GAUSS(2)": 0.47725,
    # PhpSpreadsheet's GAMMA and GAUSS data (Excel's answers to 12-13 decimals): formulas' own gives them
    "GAMMA(0.1)": 9.513507698669,
    "GAUSS(-5)": -0.4999997133484,
    "GAUSS(0.1)": 0.039827837277,
    "GAUSS(2.5)": 0.4937903346742,
}


def _shown(expected: float) -> int:
    """The decimals Microsoft's page shows of a result."""
    text = repr(float(expected))
    return len(text.partition(".")[2].rstrip("0")) if "e" not in text else 10


@pytest.mark.parametrize("call", list(EXAMPLES))
def test_as_microsoft_documents_it(call: str) -> None:
    expected = EXAMPLES[call]
    name = call.partition("(")[0]
    newer = "." in name or name in ("PHI", "GAMMA", "GAUSS")
    for written in (call, "_xlfn." + call) if newer else (call,):  # as Excel writes newer names in a file
        got = evaluate("=" + written)
        assert not isinstance(got, ReasonedError), got.text
        assert round(float(got), _shown(expected)) == pytest.approx(expected, abs=1e-12)


def test_errors_as_microsoft_documents_them() -> None:
    """PERCENTILE.EXC's page: k of 0, 0.01 (outside 1/(n+1)..n/(n+1)) and 2 are #NUM!; NORM.DIST's
    page: a standard deviation of 0 or less is #NUM!."""
    for call in ("PERCENTILE.EXC({1,2,3,6,6,6,7,8,9},0)", "PERCENTILE.EXC({1,2,3,6,6,6,7,8,9},0.01)"):
        assert str(evaluate("=" + call)) == "#NUM!"
    assert str(evaluate("=PERCENTILE.EXC({1,2,3,6,6,6,7,8,9},2)")) == "#NUM!"
    assert str(evaluate("=NORM.DIST(1,0,0,TRUE)")) == "#NUM!"
    for call in ("GAMMA(0)", "GAMMA(-2)", "_xlfn.GAMMA(-2)"):  # GAMMA's page: 0 and negative integers
        assert str(evaluate("=" + call)) == "#NUM!"


_RANKS = "{13,12,11,8,4,3,2,1,1,1}"  # the PERCENTRANK.INC and PERCENTRANK pages' data


def test_percentrank_as_microsoft_documents_it() -> None:
    """Microsoft's PERCENTRANK.INC and PERCENTRANK pages: the share of the other values below x
    (2: 3/(3+6) = 0.333), cut to 3 digits, not rounded (4: 5/9 is 0.555, 8: 6/9 is 0.666); x between
    two values is interpolated between their ranks (5: a quarter of the way from 4's to 8's, 0.583).
    PERCENTRANK.EXC's page: 7 is 0.7 and 5.43 is 0.381 (the rank (values below + 1)/(n + 1),
    interpolated), cut to 0.3 by significance 1. The pages' remarks: significance below 1 and an
    empty array are #NUM!; an x outside the values is #N/A (PhpSpreadsheet's PERCENTRANK data:
    PERCENTRANK({1,2,3,4},5)). Before: PERCENTRANK.EXC was "#NAME? not computed"."""
    for name in ("PERCENTRANK.INC", "PERCENTRANK", "_xlfn.PERCENTRANK.INC"):
        got = [evaluate(f"={name}({_RANKS},{x})") for x in (2, 4, 8, 5, 13)]
        assert got == [0.333, 0.555, 0.666, 0.583, 1.0]
        assert evaluate(f"={name}({_RANKS},5,1)") == 0.5 and evaluate(f"={name}({_RANKS},5,5)") == 0.58333
    for name in ("PERCENTRANK.EXC", "_xlfn.PERCENTRANK.EXC"):
        got = [evaluate(f"={name}({{1,2,3,6,6,6,7,8,9}},{x})") for x in ("7", "5.43", "5.43,1", "1", "9")]
        assert got == [0.7, 0.381, 0.3, 0.1, 0.9]
    for call in ("PERCENTRANK.INC({1,2,3},2,0)", "PERCENTRANK.EXC({1,2,3},2,0.5)", 'PERCENTRANK({"a"},2)'):
        assert str(evaluate("=" + call)) == "#NUM!", call
    for call in ("PERCENTRANK.INC({1,2,3,4},5)", "PERCENTRANK.EXC({1,2,3},0.5)", "PERCENTRANK({1,2,3},3.01)"):
        assert str(evaluate("=" + call)) == "#N/A", call
    assert str(evaluate("=PERCENTRANK.INC({1,2,NA()},2)")) == "#N/A"  # an error among the values


def test_percentrank_of_a_repeated_value_is_refused() -> None:
    """The pages define the rank by the values below and above x, but Excel ranks a repeated value
    otherwise (users found PERCENTRANK(A,x) = 1 - (RANK(x,A)-1)/(n-1) there, not the page's count):
    no Excel-saved cell shows which, so x on a repeated value or just above one answers an error saying
    so (just below one is the .EXC page's 5.43, checked above)."""
    for call in (f"PERCENTRANK.INC({_RANKS},1)", f"PERCENTRANK({_RANKS},1.5)", "PERCENTRANK.EXC({1,2,6,6,7},6)"):
        got = evaluate("=" + call)
        assert isinstance(got, ReasonedError) and "repeated" in got.text, call


# Excel-cached cells of tests/corpus where the last digits tell how Excel sums: POI's FormulaEvalTestData
# (EverythingTests: F8, G8, F9, G9, F10 hold 1, 1.001, 9999999999, 2.3456, 1E-05) -> Excel's value
_EXCEL_DIGITS = {
    "VARP(TRUE,FALSE,TRUE)": 0.2222222222222222,  # K1456
    "VAR(TRUE,FALSE,TRUE)": 0.33333333333333337,  # K1448
    "STDEV(TRUE,FALSE,TRUE)": 0.5773502691896258,  # K1288
    "VAR(1E-05,1)": 0.49999000004999994,  # I1448, VAR(F10,F8)
    "VARP(1E-05,1)": 0.24999500002499997,  # I1456
    "VAR(1,1.001,9999999999,2.3456,1E-05)": 1.9999999991653392e19,  # J1448, VAR(F8:G10)
    "VARP(1,1.001,9999999999,2.3456,1E-05)": 1.5999999993322713e19,  # J1456
    "STDEV(1,1.001,9999999999,2.3456,1E-05)": 4472135954.066401,  # J1288
}


_NUMBER = {"VAR": 10, "VARP": 11, "STDEV": 7}  # SUBTOTAL's and AGGREGATE's


def test_variance_sums_as_excel_does(tmp_path: Path) -> None:
    """Excel's VAR and STDEV take the sum of squares less the square of the sum over n, over n - 1;
    VARP and STDEVP n times the sum of squares less the square of the sum, over n squared: of the 37
    VAR/VARP/STDEV cells Excel cached in tests/corpus (POI's FormulaEvalTestData and 48539,
    PhpSpreadsheet's Stock Portfolio) these give all 37 to the last digit, the mean-then-squared-deviations
    sum 29 (Kahan, pairwise or exact sums 27, Welford's 30). The newer names, SUBTOTAL and AGGREGATE
    show the same digits (one implementation); DEVSQ keeps the squared deviations, which give its 11 cells."""
    cells: dict[str, Any] = {}
    for row, (call, _) in enumerate(_EXCEL_DIGITS.items(), start=1):
        name, _, args = call.partition("(")
        numbers = [float(a) for a in args.rstrip(")").split(",") if a not in ("TRUE", "FALSE")]
        cells |= {f"{'ABCDE'[i]}{row}": x for i, x in enumerate(numbers)}
        cells[f"G{row}"] = f"=SUBTOTAL({_NUMBER[name]},A{row}:E{row})"
        cells[f"H{row}"] = f"=_xlfn.AGGREGATE({_NUMBER[name]},6,A{row}:E{row})"
    got = book(tmp_path, cells)
    for row, (call, expected) in enumerate(_EXCEL_DIGITS.items(), start=1):
        assert evaluate("=" + call) == expected, call
        name, _, args = call.partition("(")
        newer = {"VAR": "VAR.S", "VARP": "VAR.P", "STDEV": "STDEV.S"}[name]
        assert evaluate(f"=_xlfn.{newer}({args}") == expected, newer
        if "TRUE" not in args:
            assert got[f"G{row}"] == expected and got[f"H{row}"] == expected, call
    assert evaluate('=DEVSQ("1","2",2)') == 0.6666666666666666  # I392 (the other sum: 0.6666666666666661)


def test_variance_of_the_corpus_cells_to_the_digit(tmp_path: Path) -> None:
    """The workbooks themselves: every VAR, VARP and STDEV cell calc writes equals Excel's cached value
    exactly (the corpus test compares to 9 significant digits)."""
    from excelcalc.workbook.calc import calc
    from tests import excel_corpus as ec

    found = 0
    for name in ("poi/FormulaEvalTestData_Copy.xlsx", "poi/48539.xlsx", "phpspreadsheet/Stock Portfolio.xlsx"):
        path = ec.FILES / name
        calc(path, tmp_path / path.name)
        ours = ec.written_values(tmp_path / path.name)
        for c in ec.excel_values(path):
            if re.search(r"\b(VARP?|STDEV)\(", c.formula) and isinstance(c.value, float):
                found += 1
                assert ours[(c.sheet, c.ref)] == c.value, (name, c.ref, c.formula)
    assert found == 37


def test_iserr_and_iso_ceiling_as_microsoft_documents_them() -> None:
    """ISERR's page: TRUE for any error but #N/A. ISO.CEILING's page: ISO.CEILING(4.3) 5,
    ISO.CEILING(-4.3) -4, ISO.CEILING(4.3,2) 6, ISO.CEILING(4.3,-2) 6, ISO.CEILING(-4.3,2) -4,
    ISO.CEILING(-4.3,-2) -4 (formulas' own answered 5 for -4.3)."""
    assert (evaluate("=ISERR(NA())"), evaluate("=ISERR(1/0)"), evaluate("=ISERR(1)")) == (False, True, False)
    got = [evaluate(f"=ISO.CEILING({a})") for a in ("4.3", "-4.3", "4.3,2", "4.3,-2", "-4.3,2", "-4.3,-2")]
    assert got == [5, -4, 6, 6, -4, -4]


# ------------------------------------------------------------------------ LINEST, LOGEST, TREND, GROWTH

# LINEST's example 3 (office buildings): floor space, offices, entrances, age, value
_BUILDINGS = """
2310 2 2 20 142000
2333 2 2 12 144000
2356 3 1.5 33 151000
2379 3 2 43 150000
2402 2 3 53 139000
2425 4 2 23 169000
2448 2 1.5 99 126000
2471 2 2 34 142900
2494 3 3 23 163000
2517 4 4 55 169000
2540 2 3 22 149000
"""
_UNITS = "{33100;47300;69000;102000;150000;220000}"  # LOGEST's and GROWTH's example: months 11-16
NA = "#N/A"


def _as_shown(got: Any, expected: list[list[Any]]) -> list[list[Any]]:
    """``got`` rounded to the decimals each expected number of Microsoft's page shows."""
    rows: list[list[Any]] = np.asarray(got, dtype=object).tolist()
    return [
        [v if isinstance(e, str) else round(float(v), _shown(e)) for v, e in zip(r, row, strict=True)]
        for r, row in zip(rows, expected, strict=True)
    ]


def test_linest_as_microsoft_documents_it(tmp_path: Path) -> None:
    """LINEST's page, example 3 (multiple regression, stats TRUE, an array formula of 5 rows) and
    example 2 (SUM(LINEST(...)*{9,1}) 11000). formulas' own answered the standard errors in reverse
    order and F 367.8 for 459.75 (it counted b as a variable)."""
    cells: dict[str, Any] = {}
    for i, line in enumerate(_BUILDINGS.split("\n")[1:-1], start=1):
        cells |= {f"{col}{i}": float(v) for col, v in zip("ABCDE", line.split(), strict=True)}
    cells["G1"] = ArrayFormula("G1:K5", "=LINEST(E1:E11,A1:D11,TRUE,TRUE)")
    cells["G7"] = "=SUM(LINEST({3100;4500;4400;5400;7500;8100},{1;2;3;4;5;6})*{9,1})"
    got = book(tmp_path, cells)
    table = [[got[f"{c}{r}"] for c in "GHIJK"] for r in range(1, 6)]
    expected: list[list[Any]] = [
        [-234.2371645, 2553.21066, 12529.76817, 27.64138737, 52317.83051],
        [13.26801148, 530.6691519, 400.0668382, 5.429374042, 12237.3616],
        [0.996747993, 970.5784629, NA, NA, NA],
        [459.7536742, 6, NA, NA, NA],
        [1732393319, 5652135.316, NA, NA, NA],
    ]
    assert _as_shown(table, expected) == expected
    assert got["G7"] == 11000


def test_logest_trend_growth_as_microsoft_documents_them() -> None:
    """LOGEST's page (stats TRUE), TREND's (months 1-12 of costs, predicted for 13-17) and GROWTH's
    (months 11-16 of units, fitted and predicted for 17-18)."""
    expected: list[list[Any]] = [
        [1.463275628, 495.3047702],
        [0.002633403, 0.035834282],
        [0.99980862, 0.011016315],
        [20896.8011, 4],
        [2.53601883, 0.000485437],
    ]
    assert _as_shown(evaluate(f"=LOGEST({_UNITS},{{11;12;13;14;15;16}},TRUE,TRUE)"), expected) == expected
    costs = "{133890;135000;135790;137300;138130;139100;139900;141120;141890;143230;144000;145290}"
    trend = evaluate(f"=TREND({costs},{{1;2;3;4;5;6;7;8;9;10;11;12}},{{13;14;15;16;17}})")
    assert [round(float(v)) for v in np.asarray(trend).flat] == [146172, 147190, 148208, 149226, 150244]
    growth = evaluate(f"=GROWTH({_UNITS},{{11;12;13;14;15;16}},{{17;18}})")
    assert [round(float(v), 4) for v in np.asarray(growth).flat] == [320196.7184, 468536.0542]
    fitted = evaluate(f"=GROWTH({_UNITS},{{11;12;13;14;15;16}})")
    assert round(float(np.asarray(fitted).flat[0]), 5) == 32618.20377
    assert np.asarray(evaluate("=LINEST({1,2,3})")).tolist() == [[1.0, 0.0]]  # an exact line, exact


def test_linest_reads_a_const_left_empty_as_true_and_a_typed_0_as_false() -> None:
    """Excel reads a const left empty (,,) as TRUE (LINEST's example 1: slope 2, intercept 1) and a typed
    0 as FALSE (a line through the origin); x's that do not vary are refused."""
    assert np.asarray(evaluate("=LINEST({1;9;5;7},{0;4;2;3},,FALSE)")).tolist() == [[2.0, 1.0]]
    assert np.asarray(evaluate("=LINEST({1;9;5;7},{0;4;2;3},TRUE,FALSE)")).tolist() == [[2.0, 1.0]]
    through_origin = np.asarray(evaluate("=LINEST({1;9;5;7},{0;4;2;3},0,FALSE)")).tolist()
    assert through_origin == np.asarray(evaluate("=LINEST({1;9;5;7},{0;4;2;3},FALSE,FALSE)")).tolist()
    assert through_origin[0][1] == 0 and round(through_origin[0][0], 12) == round(67 / 29, 12)
    assert float(evaluate("=TREND({2;4;6},,{4})")) == 8.0  # known_x's left empty: 1, 2, 3
    assert isinstance(evaluate("=LINEST({1;2;3},{1;1;1})"), ReasonedError)


@pytest.mark.parametrize("name", ["POISSON.DIST", "POISSON", "_xlfn.POISSON.DIST"])
def test_poisson_truncates_x(name: str) -> None:
    """Microsoft's POISSON.DIST page: "If x is not an integer, it is truncated." (formulas answered 0 for
    20/15 events; a held-out workbook Excel saved, benchmarks/unseen, caches 0.270670566473225)."""
    assert evaluate(f"={name}(20/15,2,FALSE)") == pytest.approx(2 * math.exp(-2), rel=1e-12)
    assert evaluate(f"={name}(2.9,5,TRUE)") == pytest.approx(evaluate(f"={name}(2,5,TRUE)"), rel=1e-15)


def test_poisson_truncates_x_read_from_a_cell(tmp_path: Path) -> None:
    """The held-out workbook's shape: x is a cell holding =20/15 (a reference reaches the function as a range)."""
    got = book(tmp_path, {"F6": "=20/15", "G6": 2, "B58": "=_xlfn.POISSON.DIST(F6,G6,0)"})
    assert got["B58"] == pytest.approx(2 * math.exp(-2), rel=1e-12)


def test_minifs_and_maxifs_as_microsoft_documents_them(tmp_path: Path) -> None:
    """MINIFS's and MAXIFS's pages (issue 44 item 8: "#NAME? ... is not computed"): grades 89, 93, 96,
    85, 91, 88 weighted 1, 2, 2, 3, 1, 1: ``MINIFS(A2:A7,B2:B7,1)`` 88, ``MAXIFS(A2:A7,B2:B7,1)`` 91;
    ranges not aligned but of one shape (MAXIFS's Example 2) 10; two criteria (MINIFS's Example 3) 13;
    no cell meeting the criteria 0."""
    cells: dict[str, Any] = {}
    for i, (grade, weight) in enumerate(((89, 1), (93, 2), (96, 2), (85, 3), (91, 1), (88, 1)), 2):
        cells |= {f"A{i}": grade, f"B{i}": weight}
    for i, (w, g, level) in enumerate(((10, "b", 100), (11, "a", 100), (12, "a", 200), (13, "b", 300)), 2):
        cells |= {f"D{i}": w, f"E{i}": g, f"G{i}": level}
    cells |= {"D6": 14, "E6": "b", "G6": 300, "D7": 15, "E7": "b", "G7": 400}
    for i, (w, g) in enumerate(((10, "b"), (1, "a"), (100, "a"), (1, "b"), (1, "a"), (1, "a")), 2):
        cells |= {f"H{i}": w, f"I{i}": g}
    cells |= {"K1": "=_xlfn.MINIFS(A2:A7,B2:B7,1)", "K2": "=_xlfn.MAXIFS(A2:A7,B2:B7,1)"}
    cells |= {"K3": '=_xlfn.MAXIFS(H2:H5,I3:I6,"a")', "K4": '=_xlfn.MINIFS(D2:D7,E2:E7,"b",G2:G7,">100")'}
    cells |= {"K5": "=_xlfn.MINIFS(A2:A7,B2:B7,9)", "K6": "=_xlfn.MAXIFS(A2:A7,B2:B7,9)"}
    got = book(tmp_path, cells)
    assert [got[f"K{i}"] for i in range(1, 7)] == [88, 91, 10, 13, 0, 0]


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ('=COUNT("2024-01-10")', 1.0),  # was 0
        ('=COUNT("1/10/2024 12:00","5",TRUE,"abc")', 3.0),
        ('=COUNT({"2024-01-10"})', 0.0),  # in an array only numbers count
        ('=SUM("2024-01-10",1)', 45302.0),  # was #VALUE!
        ('=AVERAGE("2024-01-10","2024-01-12")', 45302.0),
    ],
)
def test_a_date_typed_as_text_counts_as_its_serial_number(formula: str, expected: float) -> None:
    """Microsoft's COUNT page: "Arguments that are numbers, dates, or a text representation of numbers
    (for example, a number enclosed in quotation marks, such as "1") are counted"; "Calculation operators
    and precedence": Excel converts a date typed as text where a number is needed (="6/1/2001"-"5/1/2001"
    is 31). "2024-01-10" is 45301, as "2024-01-10"+0 already was (issue 44 item 7)."""
    assert evaluate(formula) == expected


def test_the_a_variants_of_stdev_and_var_as_microsoft_documents_them() -> None:
    """Microsoft's STDEVA, STDEVPA, VARA and VARPA pages: the breaking strengths of ten tools, 1345 to
    1299: 27.46391572, 26.05455814, 754.2666667 and 678.84; "Arguments that contain TRUE evaluate as 1;
    arguments that contain text or FALSE evaluate as 0" ({1,"a",TRUE} is 1, 0, 1). They answered
    "#NAME? ... is not computed by benchsheet" (issue 41)."""
    data = "{1345,1301,1368,1322,1310,1370,1318,1350,1303,1299}"
    shown = {"STDEVA": (27.46391572, 8), "STDEVPA": (26.05455814, 8), "VARA": (754.2666667, 7), "VARPA": (678.84, 2)}
    for name, (value, decimals) in shown.items():
        assert round(evaluate(f"={name}({data})"), decimals) == value, name
    assert evaluate('=VARA({1,"a",TRUE})') == pytest.approx(1 / 3)
