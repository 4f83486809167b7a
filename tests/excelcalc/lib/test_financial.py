"""Excel's Financial functions a finance model uses (issue 41 item 5): each checked against the
examples of its Microsoft page (support.microsoft.com/en-us/excel/<name>-function), the answer to
the digits the page shows, and the errors the page states. They answered "#NAME? ... is not computed
by benchsheet" before."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from excelcalc.formula import evaluate
from tests.excelcalc.lib.workbooks import book

VALUES = "{-10000;2750;4250;3250;2750}"
DATES = "{39448;39508;39751;39859;39904}"  # 1/1/2008, 3/1/2008, 10/30/2008, 2/15/2009, 4/1/2009
FLOWS = "{-120000;39000;30000;21000;37000;46000}"

# formula -> (the answer the page shows, the decimals it shows)
EXAMPLES: dict[str, tuple[float, int]] = {
    # IPMT page: a loan of $8,000 at 10% over 3 years, the first month's interest, the last year's
    "=IPMT(10%/12,1,3*12,8000)": (-66.67, 2),
    "=IPMT(10%,3,3,8000)": (-292.45, 2),
    # PPMT page: $2,000 at 10% over 2 years, the first month's principal; $200,000 at 8% over 10 years
    "=PPMT(10%/12,1,2*12,2000)": (-75.62, 2),
    "=PPMT(8%,10,10,200000)": (-27598.05, 2),
    # CUMIPMT and CUMPRINC pages: $125,000 at 9% over 30 years, the second year; the first month
    "=CUMIPMT(9%/12,30*12,125000,13,24,0)": (-11135.23213, 5),
    "=CUMIPMT(9%/12,30*12,125000,1,1,0)": (-937.50, 2),
    "=CUMPRINC(9%/12,30*12,125000,13,24,0)": (-934.1071234, 7),
    "=CUMPRINC(9%/12,30*12,125000,1,1,0)": (-68.27827118, 8),
    # DB page: cost $1,000,000, salvage $100,000, life 6 years, 7 months in the first year
    "=DB(1000000,100000,6,1,7)": (186083.33, 2),
    "=DB(1000000,100000,6,2,7)": (259639.42, 2),
    "=DB(1000000,100000,6,3,7)": (176814.44, 2),
    "=DB(1000000,100000,6,4,7)": (120410.64, 2),
    "=DB(1000000,100000,6,5,7)": (81999.64, 2),
    "=DB(1000000,100000,6,6,7)": (55841.76, 2),
    "=DB(1000000,100000,6,7,7)": (15845.10, 2),
    # DDB page: cost $2,400, salvage $300, life 10 years
    "=DDB(2400,300,10*365,1)": (1.32, 2),
    "=DDB(2400,300,10*12,1,2)": (40.00, 2),
    "=DDB(2400,300,10,1,2)": (480.00, 2),
    "=DDB(2400,300,10,2,1.5)": (306.00, 2),
    "=DDB(2400,300,10,10)": (22.12, 2),
    # SYD page: cost $30,000, salvage $7,500, life 10 years
    "=SYD(30000,7500,10,1)": (4090.91, 2),
    "=SYD(30000,7500,10,10)": (409.09, 2),
    # VDB page: cost $2,400, salvage $300, life 10 years
    "=VDB(2400,300,10*365,0,1)": (1.32, 2),
    "=VDB(2400,300,10*12,0,1)": (40.00, 2),
    "=VDB(2400,300,10,0,1)": (480.00, 2),
    "=VDB(2400,300,10*12,6,18)": (396.31, 2),
    "=VDB(2400,300,10*12,6,18,1.5)": (311.81, 2),
    "=VDB(2400,300,10,0,0.875,1.5)": (315.00, 2),
    # EFFECT and NOMINAL pages
    "=EFFECT(5.25%,4)": (0.0535427, 7),
    "=NOMINAL(5.3543%,4)": (0.05250032, 8),
    # MIRR page: a loan of $120,000, five years of income, 10% paid, 12% earned on reinvestment
    f"=MIRR({FLOWS},10%,12%)": (0.126094, 6),
    "=MIRR({-120000;39000;30000;21000},10%,12%)": (-0.048044655, 9),
    f"=MIRR({FLOWS},10%,14%)": (0.134759111, 9),
    # XNPV and XIRR pages: the same five cash flows and dates. The XIRR page shows 0.373362535; the
    # root of XNPV = 0 is 0.3733625335: Excel's bisection stops 1.7E-9 from it, at the digits shown
    f"=XNPV(0.09,{VALUES},{DATES})": (2086.647602, 6),
    f"=XIRR({VALUES},{DATES},0.1)": (0.373362535, 9),
    f"=XIRR({VALUES},{DATES})": (0.373362535, 9),
    # ACCRINT page (issue 44): issued 3/1/2008, first interest 8/31/2008, settled 5/1/2008, 10%, par 1,000,
    # twice a year, 30/360; issued 3/5/2008 with calc_method FALSE; issued 4/5/2008 with TRUE
    "=ACCRINT(39508,39691,39569,0.1,1000,2,0)": (16.666666667, 9),
    "=ACCRINT(DATE(2008,3,5),39691,39569,0.1,1000,2,0,FALSE)": (15.555555556, 9),
    "=ACCRINT(DATE(2008,4,5),39691,39569,0.1,1000,2,0,TRUE)": (7.2222222222, 10),
    # PDURATION page: $2,000 at 2.5% a year to $2,200 takes 3.86 years; $1,000 at 2.5%/12 to $1,200 87.6 months
    "=PDURATION(2.5%,2000,2200)": (3.86, 2),
    "=_xlfn.PDURATION(0.025/12,1000,1200)": (87.6, 1),
    # RRI page: $10,000 grown to $11,000 in 96 periods
    "=RRI(96,10000,11000)": (0.0009933, 7),
    "=_xlfn.RRI(96,10000,11000)": (0.0009933, 7),
    # FVSCHEDULE page: 1 at 9%, 11% and 10%
    "=FVSCHEDULE(1,{0.09,0.11,0.1})": (1.33089, 5),
    # ISPMT page: $8,000,000 at 10% over 3 years, the first month's interest; the first year's
    "=ISPMT(10%/12,1,3*12,8000000)": (-64814.8, 1),
    "=ISPMT(10%,1,3,8000000)": (-533333, 0),
    # DOLLARDE and DOLLARFR pages
    "=DOLLARDE(1.02,16)": (1.125, 3),
    "=DOLLARDE(1.1,32)": (1.3125, 4),
    "=DOLLARFR(1.125,16)": (1.02, 2),
    "=DOLLARFR(1.125,32)": (1.04, 2),
}


@pytest.mark.parametrize("formula", EXAMPLES)
def test_finance_functions_as_microsoft_documents_them(formula: str) -> None:
    shown, decimals = EXAMPLES[formula]
    got: Any = evaluate(formula)
    assert isinstance(got, float), got
    assert round(got, decimals) == pytest.approx(shown, abs=10**-decimals / 2), got


# formula -> the error the function's page states for it
ERRORS = {
    "=IPMT(10%,0,3,8000)": "#NUM!",  # per "must be in the range 1 to nper"
    "=IPMT(10%,4,3,8000)": "#NUM!",
    "=PPMT(10%,4,3,8000)": "#NUM!",
    "=CUMIPMT(9%/12,360,125000,24,13,0)": "#NUM!",  # "If start_period > end_period"
    "=CUMIPMT(9%/12,360,125000,1,1,2)": "#NUM!",  # "If type is any number other than 0 or 1"
    "=CUMPRINC(0,360,125000,1,1,0)": "#NUM!",  # "If rate ≤ 0, nper ≤ 0, or pv ≤ 0"
    "=EFFECT(5%,0.5)": "#NUM!",  # "If nominal_rate ≤ 0 or if npery < 1"
    "=NOMINAL(0,4)": "#NUM!",  # "If effect_rate ≤ 0 or if npery < 1"
    "=SYD(30000,7500,10,11)": "#NUM!",  # per beyond the life
    "=MIRR({1;2;3},10%,12%)": "#DIV/0!",  # "at least one positive value and one negative value"
    f"=XNPV(0.09,{VALUES},{{39448;39508;39000;39859;39904}})": "#NUM!",  # "precedes the starting date"
    f"=XNPV(0.09,{VALUES},{{39448;39508;39751;39859}})": "#NUM!",  # "a different number of values"
    "=XIRR({10000;2750},{39448;39508})": "#NUM!",  # "at least one positive cash flow and one negative"
    f"=XIRR({VALUES},{{39448;39508;39751}})": "#NUM!",
    '=XNPV(0.09,{-10000;2750},{39448;"x"})': "#VALUE!",  # "not a valid date"
}


@pytest.mark.parametrize("formula", ERRORS)
def test_finance_functions_refuse_as_microsoft_documents(formula: str) -> None:
    assert str(evaluate(formula)) == ERRORS[formula]


def test_fv_beyond_excels_largest_number_is_num() -> None:
    """Issue 41: FV(1,1E6,1) answered #VALUE! "wrong type" (Python's overflow); Excel's result beyond
    its largest number is #NUM! (Microsoft's "Excel specifications and limits": 1.79769313486232E+308)."""
    assert str(evaluate("=FV(1,1E6,1)")) == "#NUM!"
    assert str(evaluate("=FV(-1.5,0.5,1)")) == "#NUM!"  # no real number
    assert math.isclose(evaluate("=FV(0.06/12,10,-200,-500,1)"), 2581.40337406012)  # the FV page's example


def test_npv_and_irr_as_microsoft_documents_them(tmp_path: Path) -> None:
    """Microsoft's NPV page: 10%, -10,000 then 3,000, 4,200, 6,800 is $1,188.44; 8%, -40,000 then
    8,000, 9,200, 10,000, 12,000, 14,500 is $1,922.06, and ($3,749.47) with a loss of 9,000 in the
    sixth year. "Empty cells, logical values, or text representations of numbers ... are ignored" in a
    reference: the blank A12 is no period. The IRR page: -70,000 then 12,000, 15,000, 18,000, 21,000,
    26,000: -2.1% after four years, 8.7% after five, -44.4% after two with the guess -10%."""
    cells: dict[str, Any] = {f"A{i + 1}": v for i, v in enumerate([-70000, 12000, 15000, 18000, 21000, 26000])}
    cells |= {f"B{i + 1}": v for i, v in enumerate([8000, 9200, 10000, 12000, 14500])}
    cells |= {"A11": 100, "A13": 200, "A14": "text", "A15": True}
    cells |= {
        "C1": "=NPV(10%,-10000,3000,4200,6800)",
        "C2": "=NPV(8%,B1:B5)-40000",
        "C3": "=NPV(8%,B1:B5,-9000)-40000",
        "C4": "=NPV(10%,A11:A15)",
        "C5": "=NPV(10%,A11,A13)",
        "D1": "=IRR(A1:A5)",
        "D2": "=IRR(A1:A6)",
        "D3": "=IRR(A1:A3,-10%)",
    }
    got = book(tmp_path, cells)
    shown = {"C1": 1188.44, "C2": 1922.06, "C3": -3749.47, "D1": -0.021244848, "D2": 0.086630948, "D3": -0.443506941}
    for cell, value in shown.items():
        decimals = 2 if cell.startswith("C") else 9
        assert round(got[cell], decimals) == pytest.approx(value, abs=10**-decimals / 2), cell
    assert got["C4"] == got["C5"] == pytest.approx(100 / 1.1 + 200 / 1.1**2)


def test_irr_finds_the_root_its_guess_leads_to(tmp_path: Path) -> None:
    """Issue 44 (IRR choosing another root): -100, 230, -132 has two rates, 10% and 20%. Microsoft's
    IRR page: "Starting with guess, IRR cycles through the calculation until the result is accurate
    within 0.00001 percent"; "if the result is not close to what you expected, try again with a
    different value for guess": from 0.25 Excel's steps reach 20%. formulas took 10% whatever the guess."""
    cells: dict[str, Any] = {"A1": -100, "A2": 230, "A3": -132, "B1": "=IRR(A1:A3)", "B2": "=IRR(A1:A3,0.25)"}
    cells["B3"] = "=IRR(A1:A2)"
    got = book(tmp_path, cells)
    assert got["B1"] == pytest.approx(0.1, abs=1e-12)
    assert got["B2"] == pytest.approx(0.2, abs=1e-12)
    assert got["B3"] == pytest.approx(1.3, abs=1e-12)


# Excel's own answers recorded by ExcelFinancialFunctions (github.com/fsprojects/ExcelFinancialFunctions,
# commit 97756a375769e45059c7d58fc51fc7e391bc4984, Apache-2.0), whose console tests call Excel's
# WorksheetFunction.Vdb through interop and whose tests/ExcelFinancialFunctions.Tests/testdata/vdb.test
# keeps the answers (13 significant digits): cost, salvage, life, start, end, factor, switching
VDB_BY_EXCEL = {
    "=VDB(100,10,13,0,13,1,FALSE)": 90.0,
    "=VDB(100,50,13,1,13,1,FALSE)": 42.30769230769,
    "=VDB(100,50,13,1,13,3,FALSE)": 26.92307692308,
    "=VDB(100,50,13,2,13,1,FALSE)": 35.20710059172,
    "=VDB(100,50,13,2,13,3,FALSE)": 9.171597633136,
    "=VDB(100,10,1,0,1,4.5,FALSE)": 90.0,
    "=VDB(100,10,13,0,4.2,3,FALSE)": 66.60319478148,
    "=VDB(100,10,13,1,4.2,1,FALSE)": 22.14201183432,
}


@pytest.mark.parametrize("formula", VDB_BY_EXCEL)
def test_vdb_to_the_end_of_the_life_as_excel_answers(formula: str) -> None:
    """Issue 41: VDB switching to straight line up to the last period of the life answered #VALUE!
    (formulas divided the book value by the life left, 0)."""
    got = evaluate(formula)
    assert isinstance(got, float), got
    assert got == pytest.approx(VDB_BY_EXCEL[formula], rel=1e-12, abs=1e-9)


def test_vdb_counts_periods_from_a_part_period_start() -> None:
    """Issue 41: with a start_period inside a period, Excel counts whole periods from the start, the
    first part period its share of the first period: ExcelFinancialFunctions' compatibility notes
    (docs/compatibility.fsx, commit above) show Excel's VDB(100,10,13,0,1,1) 0.1479 more than
    VDB(100,10,13,0,0.5,1) + VDB(100,10,13,0.5,1,1), and the sum equal to it without switching
    (no_switch TRUE). formulas answered the same whole either way (a difference of 0)."""
    whole, first, second = (evaluate(f"=VDB(100,10,13,{s},{e},1)") for s, e in ((0, 1), (0, 0.5), (0.5, 1)))
    assert round(whole - first - second, 4) == 0.1479
    whole, first, second = (evaluate(f"=VDB(100,10,13,{s},{e},1,TRUE)") for s, e in ((0, 1), (0, 0.5), (0.5, 1)))
    assert whole - first - second == pytest.approx(0, abs=1e-12)


# Excel's PPMT answers recorded by ExcelFinancialFunctions the same way (testdata/ppmt.test): rate, per,
# nper, pv, fv, type. A loan repaid to 0 (pv + fv = 0) has no principal: Excel answers 0 exactly.
PPMT_BY_EXCEL = {
    "=PPMT(0.6,5,10,100,-100,0)": 0.0,
    "=PPMT(1.5,2.5,10,-100,100,1)": 0.0,
    "=PPMT(0.6,2.5,2.7,100,-100,1)": 0.0,
    "=PPMT(-0.4,1,1,-300,-100,1)": 466.6666666667,
    "=PPMT(-0.4,1,1,-300,-300,0)": 600.0,
}


@pytest.mark.parametrize("formula", PPMT_BY_EXCEL)
def test_ppmt_as_excel_answers(formula: str) -> None:
    """Issue 41: PPMT was PMT minus IPMT, two numbers near the payment whose difference kept only their
    rounding where the principal is far smaller: 7.1E-14 for a loan repaid to 0, where Excel answers 0
    (the judge compares numbers to 1e-9 relative, so that is a number other than Excel's)."""
    got = evaluate(formula)
    assert isinstance(got, float), got
    assert math.isclose(got, PPMT_BY_EXCEL[formula], rel_tol=1e-12, abs_tol=0.0), got


def test_xirr_answers_excels_digits() -> None:
    """Issue 41: Excel's XIRR bisects a bracket of rates until it is narrower than 2^-26 and answers its
    midpoint, so its last digits depend on the guess. calc found the root by Newton's method (formulas)
    and differed from the 9th digit. Excel-saved cells: Gnumeric's samples/excel/finfuns.xls (saved by
    Excel; github.com/GNOME/gnumeric, commit 4c259546331828820682371bdbdd9798e92266dd), row 69. Answers
    ExcelFinancialFunctions recorded from Excel (testdata/xirr.test, commit above), 13 digits, one
    cash flow from three guesses."""
    finfuns = {
        '=XIRR({-10000;2750;4250;3250;2742},{"1998/1/1";"1998/1/3";"1998/10/30";"1999/2/15";"1999/1/4"},0.1)': (
            0.4284583032131196
        ),
        '=XIRR({-10000;2750;4250;3250;2742},{"1998/1/1";"1998/1/3";"1998/10/30";"1999/2/15";"1999/2/4"},0.01)': (
            0.41707635402679444
        ),
        '=XIRR({-10000;2750;4290;3250;2742},{"1998/1/1";"1998/1/3";"1998/10/30";"1999/2/15";"1999/2/4"},0.01)': (
            0.4230088663101197
        ),
    }
    for formula, excel in finfuns.items():
        assert evaluate(formula) == excel, formula
    flows = "{-100;10;10;100},{25659;26341;29334;30405}"  # 4/1/1970, 2/12/1972, 4/23/1980, 3/30/1983
    for guess, excel in ((0.15, 0.01563509255648), (0.5, 0.015635099262), (0, 0.01563509277344)):
        assert evaluate(f"=XIRR({flows},{guess})") == pytest.approx(excel, rel=1e-12, abs=0), guess
    assert evaluate("=XIRR({-100;-10;10;100},{25659;26341;29334;30405},0.15)") == pytest.approx(4.470348358154e-09)


def test_xirr_of_a_guess_of_minus_one_or_below_is_num() -> None:
    """A rate of -1 or below has no XNPV (1 + rate to a fractional power): #NUM!, not a complex number."""
    assert str(evaluate(f"=XIRR({VALUES},{DATES},-2)")) == "#NUM!"
    assert str(evaluate(f"=XIRR({VALUES},{DATES},-1)")) == "#NUM!"


def test_xirr_guess_and_xnpv_rate_of_true_stay_value_errors(tmp_path: Path) -> None:
    """A logical value is no guess for XIRR and no rate for XNPV: #VALUE!, as calc answered before
    XIRR and XNPV were computed here (not 1, which the bisection would take)."""
    cells: dict[str, Any] = {f"A{i + 1}": v for i, v in enumerate([-10000, 2750, 4250, 3250, 2750])}
    cells |= {f"B{i + 1}": d for i, d in enumerate([39448, 39508, 39751, 39859, 39904])}
    cells |= {"C1": True, "D1": "=XIRR(A1:A5,B1:B5,C1)", "D2": "=XNPV(C1,A1:A5,B1:B5)", "D3": "=XIRR(A1:A5,B1:B5,TRUE)"}
    got = book(tmp_path, cells)
    assert (got["D1"], got["D2"], got["D3"]) == ("#VALUE!", "#VALUE!", "#VALUE!")
