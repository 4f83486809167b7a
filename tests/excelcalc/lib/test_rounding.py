"""Excel's rounding functions: FLOOR, CEILING and their .MATH/.PRECISE forms, ISO.CEILING, TRUNC,
INT, ROUND and MROUND (issue 44 item 2). Each expected value is Excel's: Microsoft's function pages,
workbooks Excel saved (tests/corpus), or the rules those pages publish, fed random numbers."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from excelcalc.formula import evaluate
from excelcalc.workbook.calc import calc
from tests import excel_corpus as ec

# Microsoft's pages (FLOOR, CEILING, MROUND, TRUNC, INT, ROUND), their Example tables
PAGES: dict[str, Any] = {
    "=FLOOR(3.7,2)": 2,
    "=FLOOR(-2.5,-2)": -2,
    "=FLOOR(2.5,-2)": "#NUM!",
    "=FLOOR(1.58,0.1)": 1.5,
    "=FLOOR(0.234,0.01)": 0.23,
    "=CEILING(2.5,1)": 3,
    "=CEILING(-2.5,-2)": -4,
    "=CEILING(-2.5,2)": -2,
    "=CEILING(1.5,0.1)": 1.5,
    "=CEILING(0.234,0.01)": 0.24,
    "=MROUND(10,3)": 9,
    "=MROUND(-10,-3)": -9,
    "=MROUND(1.3,0.2)": 1.4,
    "=MROUND(5,-2)": "#NUM!",
    "=MROUND(6.05,0.1)": 6.0,  # the page's "known limitation": the quotient as the machine holds it
    "=MROUND(7.05,0.1)": 7.1,
    "=TRUNC(8.9)": 8,
    "=TRUNC(-8.9)": -8,
    "=TRUNC(0.45)": 0,
    "=INT(8.9)": 8,
    "=INT(-8.9)": -9,
    "=ROUND(2.15,1)": 2.2,
    "=ROUND(2.149,1)": 2.1,
    "=ROUND(-1.475,2)": -1.48,
    "=ROUND(21.5,-1)": 20,
    "=ROUND(626.3,-3)": 1000,
    "=ROUND(1.98,-1)": 0,
    "=ROUND(-50.55,-2)": -100,
}

# issue 44's cells, Excel's values beside them (Excel-saved workbooks the tests do not read)
ISSUE_44: dict[str, Any] = {
    "=FLOOR(7.1,0.1)": 7.1,
    "=CEILING.MATH(1E-12,1)": 1,
    "=CEILING.MATH(0.4,0.0999999999999996)": 0.499999999999998,
    "=TRUNC(-0.7999999999999998,1)": -0.8,
}


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, str):
        return str(got) == want
    return isinstance(got, float | int) and math.isclose(got, want, rel_tol=1e-15, abs_tol=1e-300)


def test_rounding_as_microsoft_documents_it_and_as_excel_answered_issue_44() -> None:
    """FLOOR(7.1,0.1) was 7, CEILING.MATH(1E-12,1) 0, CEILING.MATH(0.4,0.0999999999999996)
    0.399999999999998 and TRUNC(-0.7999999999999998,1) -0.7; MROUND(1.3,0.2) 1.2 (half to even)."""
    for formula, want in (PAGES | ISSUE_44).items():
        assert _same(evaluate(formula), want), (formula, evaluate(formula), want)


def test_rounding_cells_of_workbooks_excel_saved_to_the_digit(tmp_path: Path) -> None:
    """Every FLOOR, CEILING, TRUNC, INT, MROUND, MOD, ROUND, ROUNDUP and ROUNDDOWN cell of the corpus
    equals Excel's cached value exactly: ``CEILING(2.99999,1.1)`` is 3.3000000000000003 there, the
    multiple as the machine multiplies it (not rounded to 15 digits)."""
    found = 0
    names = (
        "poi/FormulaEvalTestData_Copy.xlsx",
        "xlcalculator/CEILING.xlsx",
        "poi/48539.xlsx",
        "xlcalculator/INT.xlsx",
    )
    for name in (*names, "xlcalculator/ROUNDDOWN.xlsx"):
        path = ec.FILES / name
        calc(path, tmp_path / path.name)
        ours = ec.written_values(tmp_path / path.name)
        for c in ec.excel_values(path):
            if re.search(r"\b(FLOOR|CEILING|TRUNC|MROUND|MOD|INT|ROUND|ROUNDUP|ROUNDDOWN)\(", c.formula):
                found += 1
                assert ours[(c.sheet, c.ref)] == c.value, (name, c.ref, c.formula)
    assert found >= 40


# ------------------------------------------------------------- the published rules, random numbers
# Microsoft's pages: FLOOR.MATH/FLOOR round down to a multiple of significance, CEILING.MATH/CEILING
# up; TRUNC removes the fraction beyond num_digits, ROUND goes to the nearest (half away from 0),
# MROUND to the nearest multiple. "If number is an exact multiple of significance, no rounding occurs"
# (Microsoft's WorksheetFunction.Floor page). Excel holds 15 significant digits ("Floating-point
# arithmetic may give inaccurate results in Excel", Microsoft): a number is a multiple when its 15
# digits are one, as 7.1 of 0.1, and a few units in the last binary place do not change that.

SIGNIFICANCES = ("1", "2", "0.1", "0.01", "0.2", "0.25", "5", "0.001", "0.0999999999999996", "3", "1.1", "1E-12")


def _literal(x: float) -> str:
    return repr(x).upper()


def _ulps(x: float, n: int) -> float:
    """``x`` moved ``n`` units in the last place (negative: down); never below Excel's smallest
    number, 2.2251E-308 (Microsoft's "Excel specifications and limits"): 0 stays 0."""
    for _ in range(abs(n) if x else 0):
        x = math.nextafter(x, math.inf if n > 0 else -math.inf)
    return x


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-14, abs_tol=0.0) or a == b


def _tolerance(*values: float) -> float:
    return 1e-14 * max(abs(v) for v in values)


@st.composite
def numbers(draw: st.DrawFn) -> float:
    """Negatives, tiny and huge magnitudes, near-integers and near-decimals (a few ulps off)."""
    kind = draw(st.sampled_from(("any", "tiny", "huge", "near")))
    sign = draw(st.sampled_from((1.0, -1.0)))
    if kind == "any":  # no subnormal: Excel's smallest positive number is 2.2251E-308 (Microsoft's limits)
        return draw(st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False))
    if kind in ("tiny", "huge"):
        power = draw(st.integers(5, 300) if kind == "tiny" else st.integers(15, 300))
        return sign * draw(st.floats(1.0, 9.999)) * 10.0 ** (-power if kind == "tiny" else power)
    whole = draw(st.integers(-(10**6), 10**6))
    places = draw(st.integers(0, 4))
    return _ulps(float(Decimal(whole).scaleb(-places)), draw(st.integers(-3, 3)))


@st.composite
def multiples(draw: st.DrawFn) -> tuple[float, str, float]:
    """A significance and a number that is a whole multiple of it in 15 digits, a few ulps off."""
    s = draw(st.sampled_from(SIGNIFICANCES))
    k = draw(st.integers(-(10**7), 10**7))
    exact = float(Decimal(k) * Decimal(s))
    return _ulps(exact, draw(st.integers(-2, 2))), s, exact


@settings(max_examples=150, deadline=None, derandomize=True)
@given(numbers(), st.sampled_from(SIGNIFICANCES))
def test_floor_and_ceiling_keep_microsofts_rules(x: float, significance: str) -> None:
    s = float(significance)
    if abs(x / s) >= 1e14:  # beyond 15 digits every number is a multiple: the rules hold as below
        return
    for name in ("FLOOR.MATH", "FLOOR", "CEILING.MATH", "CEILING", "FLOOR.PRECISE", "CEILING.PRECISE", "ISO.CEILING"):
        got = evaluate(f"={name}({_literal(x)},{significance})")
        assert isinstance(got, float | int), (name, x, s, got)
        q, tol = got / s, _tolerance(x, got)
        assert abs(q - round(q)) <= 1e-9 * max(1.0, abs(q)), (name, x, s, got)  # a multiple
        if name.startswith("FLOOR"):
            assert got <= x + tol and x - got < s + tol, (name, x, s, got)  # the one at or below
        else:
            assert got >= x - tol and got - x < s + tol, (name, x, s, got)  # the one at or above


@settings(max_examples=150, deadline=None, derandomize=True)
@given(multiples())
def test_a_multiple_in_15_digits_is_not_rounded(case: tuple[float, str, float]) -> None:
    """FLOOR(7.1,0.1) is 7.1: 7.1 is 71 tenths in 15 digits (70.99999999999999 in binary)."""
    x, significance, exact = case
    for name in ("FLOOR.MATH", "FLOOR", "CEILING.MATH", "CEILING", "MROUND"):
        if name == "MROUND" and x < 0:
            continue  # MROUND's number and multiple share their sign
        got = evaluate(f"={name}({_literal(x)},{significance})")
        assert isinstance(got, float | int) and _close(got, exact), (name, x, significance, got)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(numbers(), st.integers(-5, 6))
def test_trunc_round_and_mround_keep_microsofts_rules(x: float, digits: int) -> None:
    """TRUNC toward 0, ROUNDUP away from 0, ROUND to the nearest, each to a whole number of 10^-digits;
    a number whose 15 digits end there is kept (TRUNC(-0.7999999999999998,1) is -0.8); MROUND to the
    nearest multiple."""
    unit = 10.0**-digits
    if abs(x / unit) >= 1e14:
        return
    x15 = float(f"{x:.15g}")
    trunc, rounded = evaluate(f"=TRUNC({_literal(x)},{digits})"), evaluate(f"=ROUND({_literal(x)},{digits})")
    assert trunc == evaluate(f"=ROUNDDOWN({_literal(x)},{digits})")
    up = evaluate(f"=ROUNDUP({_literal(x)},{digits})")  # away from 0: at or beyond the number, less than a unit
    for got in (trunc, rounded, up):
        assert isinstance(got, float | int), (x, digits, got)
        assert abs(got / unit - round(got / unit)) <= 1e-9 * max(1.0, abs(got / unit)), (x, digits, got)
    tol = _tolerance(x, unit)
    assert trunc * x >= 0 and abs(trunc) <= abs(x15) + tol and abs(x15) - abs(trunc) < unit + tol, (x, digits, trunc)
    assert abs(rounded - x15) <= unit / 2 + tol, (x, digits, rounded)
    assert up * x >= 0 and abs(up) >= abs(x15) - tol and abs(up) - abs(x15) < unit + tol, (x, digits, up)
    if (units := Decimal(f"{x:.15g}").scaleb(digits)) == units.to_integral_value():
        assert _close(trunc, x15) and _close(rounded, x15) and _close(up, x15), (x, digits, trunc, rounded, up)
    m = float(SIGNIFICANCES[abs(digits) % len(SIGNIFICANCES)])
    got = evaluate(f"=MROUND({_literal(x)},{_literal(m if x >= 0 else -m)})")
    if abs(x / m) < 1e14:
        assert isinstance(got, float | int) and abs(got - x) <= m / 2 + _tolerance(x, m), (x, m, got)
    assert str(evaluate(f"=MROUND({_literal(abs(x) or 1.0)},{_literal(-m)})")) == "#NUM!"
