"""Excel's Financial functions the engine computes itself; the others of the group it takes from
formulas as they are (``FORMULAS``), checked against Excel.

* FV with its terms in the order Excel computes them (Excel's last digits).
* NPV added left to right over the values Excel counts; at a rate of -1 it divides by zero, as in
  Excel (formulas answered inf). IRR by Newton's steps from the guess, as Excel finds it.
* FV beyond Excel's largest number is #NUM! (formulas' overflow was #VALUE!).
* IPMT of a period outside 1 to nper, XNPV and XIRR of dates before the first or of as many
  dates as values are #NUM!, as Microsoft's pages state (formulas answered a number, or #VALUE!).
* PPMT from its closed form, not PMT minus IPMT (whose difference kept only rounding).
* VDB switching to straight line counts its periods from start_period, as Excel does, and reaches
  the end of the life (formulas prorated another period there, and divided by 0 at the end).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.args import direct, in_range
from excelcalc.args import values as many_values
from excelcalc.backend import EMPTY, FunctionTable, Ranges, XlError, as_grid, elementwise, error
from excelcalc.lib._common import Entry, Wraps, formulas_own, lazy, number, plain_number, scalar, total
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS"]


def fv(rate: float, nper: float, pmt: float, pv: float = 0.0, kind: float = 0.0) -> float | XlError:
    """FV (Microsoft's page), its terms in the order Excel computes them: POI's FormulaEvalTestData
    (Excel-cached) has ``FV(2.95,13,13000,-17406.78521481564,1)`` = 333891.23010253906 to the last
    digit; formulas answered 333891.2279 (the cancellation of terms near 6E11 shows the order)."""
    if rate == 0:
        return -(pv + pmt * nper)
    try:
        growth = (1 + rate) ** nper
        got = -(pv * growth + pmt * (1 + rate * (1 if kind else 0)) / rate * (growth - 1))
    except OverflowError:  # FV(1,1E6,1): Excel's #NUM!
        return error("#NUM!")
    if isinstance(got, complex) or not math.isfinite(got):  # (-0.5)^0.5: no real number
        return error("#NUM!")
    return float(got)


def npv(table: FunctionTable) -> Callable[..., Any]:
    """NPV(rate, value1, ...) (Microsoft's NPV page): each value divided by (1 + rate)^i, i counting
    the values "in the order of value1, value2, ...", added left to right as Excel adds (``total``),
    the values read by Excel's rule for functions of many values (``args.values``: in a range or
    array only numbers count, "Empty cells, logical values, or text representations of numbers ...
    are ignored"; typed directly, TRUE is 1 and "2" is 2). formulas added with numpy, whose pairwise
    sum and powers answered other last digits for a value near 0, and did not count TRUE typed
    directly. At a rate of -1 that is a division by zero, #DIV/0! in Excel (formulas answered inf).
    A rate of several values goes to formulas."""
    original = lazy(table, "NPV")

    def run(rate: Any, *values: Any) -> Any:
        r = plain_number(rate, "NPV's rate")
        if isinstance(r, ReasonedError) and isinstance(scalar(rate), np.ndarray):
            return original(rate, *values)
        if isinstance(r, XlError):
            return r
        if r == -1:
            return ReasonedError("#DIV/0!", "NPV's rate is -1: each value is divided by (1 + rate)^i, 0")
        got = many_values(values, in_range, direct)
        if isinstance(got, XlError):
            return got
        try:
            out = total([v / (1 + r) ** (i + 1) for i, v in enumerate(got)])
        except (OverflowError, ZeroDivisionError):
            return error("#NUM!")
        return out if isinstance(out, float) and math.isfinite(out) else error("#NUM!")

    run.__name__ = "NPV"
    return run


IRR_STEPS = 20  # Microsoft's IRR page: "If IRR can't find a result that works after 20 tries, #NUM!"
IRR_ACCURACY = 1e-7  # the page: "until the result is accurate within 0.00001 percent"


def irr(values: Any, guess: Any = None) -> Any:
    """IRR(values, [guess]) as Microsoft's IRR page describes it: "Starting with guess, IRR cycles
    through the calculation until the result is accurate within 0.00001 percent. If IRR can't find
    a result that works after 20 tries, the #NUM! error value is returned" (Newton's method, as
    Apache POI's Irr, which passes Excel's cached answers, computes it); "If IRR gives the #NUM!
    error value, or if the result is not close to what you expected, try again with a different
    value for guess": of several roots the one Newton's steps reach from guess (default 0.1).
    formulas took numpy's root, whatever the guess: IRR({-100;230;-132},0.25) was 0.1, not 0.2."""
    got = many_values([values], in_range, in_range)
    if isinstance(got, XlError):
        return got
    g = plain_number(EMPTY if guess is None else guess, "IRR's guess")
    if isinstance(g, XlError):
        return g
    g = 0.1 if guess is None or scalar(guess) is EMPTY else g
    if not (any(v > 0 for v in got) and any(v < 0 for v in got)):
        return ReasonedError("#NUM!", "IRR needs at least one positive and one negative value")
    x0 = float(g)
    for _ in range(IRR_STEPS):
        value, slope, factor = 0.0, 0.0, 1 + x0
        try:
            for k, v in enumerate(got):
                denominator = factor**k
                value += v / denominator
                slope -= k * v / (denominator * factor)
            x1 = x0 - value / slope
        except (OverflowError, ZeroDivisionError):
            break
        if not math.isfinite(x1):
            break
        if abs(x1 - x0) <= IRR_ACCURACY:
            return x1
        x0 = x1
    return ReasonedError("#NUM!", f"IRR found no rate within {IRR_STEPS} tries from the guess {float(g):g}")


def ipmt(table: FunctionTable) -> Callable[..., Any]:
    """IPMT(rate, per, nper, pv, [fv], [type]) (Microsoft's IPMT page: per "must be in the range 1
    to nper"): a period outside it is #NUM! (formulas answered IPMT(0.1,0,3,8000) -1019.72 and
    IPMT(0.1,4,3,8000) 0, where PPMT is #NUM!); the rest as formulas computes it."""
    original = lazy(table, "IPMT")

    def run(rate: Any, per: Any, nper: Any, *rest: Any) -> Any:
        if not any(isinstance(a, Ranges | np.ndarray) and as_grid(a).size > 1 for a in (per, nper)):
            p, n = plain_number(per, "IPMT's per"), plain_number(nper, "IPMT's nper")
            if isinstance(p, float) and isinstance(n, float) and not 1 <= p <= n:
                return ReasonedError("#NUM!", f"IPMT's period {p:g} is outside 1 to nper ({n:g})")
        return original(rate, per, nper, *rest)

    run.__name__ = "IPMT"
    return run


def ppmt(table: FunctionTable) -> Callable[..., Any]:
    """PPMT(rate, per, nper, pv, [fv], [type]) from its closed form, as Excel computes it: the principal
    of period per is -rate (pv + fv) (1 + rate)^(per - 1) / ((1 + rate)^nper - 1) (per - 2 for type 1,
    whose first period is the whole payment). formulas took PMT minus IPMT, two numbers near PMT whose
    difference keeps only their rounding where the principal is far smaller than the payment: a loan
    repaid to 0 (pv + fv = 0) answered 7.1E-14 where Excel answers 0, and at high rates the early
    principal lost its digits. Excel's answers recorded by ExcelFinancialFunctions (4,552 of them)
    agree with the closed form to 1e-9. A rate of 0 or of -1 and below, per outside 1 to nper, a type
    other than 0 or 1 and arrays go to formulas as before."""
    original = lazy(table, "PPMT")

    def run(*args: Any) -> Any:
        if not 4 <= len(args) <= 6 or any(isinstance(a, Ranges | np.ndarray) and as_grid(a).size > 1 for a in args):
            return original(*args)
        got = [plain_number(a, "PPMT's argument") for a in args]
        if any(not isinstance(g, float) for g in got):
            return original(*args)
        rate, per, nper, pv = got[:4]
        fv, kind = [*got[4:], 0.0, 0.0][:2]
        if rate == 0 or rate <= -1 or kind not in (0, 1) or not 1 <= per <= nper:
            return original(*args)
        try:
            growth = (1 + rate) ** nper
            if kind and per == 1:
                out = -rate * (pv * growth + fv) / ((growth - 1) * (1 + rate))
            else:
                out = -rate * (pv + fv) * (1 + rate) ** (per - 2 if kind else per - 1) / (growth - 1)
        except (OverflowError, ZeroDivisionError):
            return original(*args)
        return out + 0.0 if isinstance(out, float) and math.isfinite(out) else original(*args)

    run.__name__ = "PPMT"
    return run


XIRR_WIDTH = 2.0**-26  # XIRR halves its bracket until it is narrower, and answers its midpoint
XIRR_WIDEST = 1e10  # the highest rate XIRR's bracket reaches for


def _xnpv(rate: float, values: list[float], days: list[int]) -> float:
    """XNPV's sum, the values in their order (as Excel adds), each discounted (d - d0)/365 years."""
    out = 0.0
    for v, d in zip(values, days, strict=True):
        out += v / (1 + rate) ** ((d - days[0]) / 365)
    return out


def _xirr_bracket(f: Callable[[float], float], guess: float) -> tuple[float, float] | None:
    """Two rates with XNPV of other signs, as Excel's XIRR finds them: from a guess g >= 0, 0 to g
    (g 0: 1E-5), then g to 2g, 2g to 4g...; from a guess below 0, g to 0; below both, halving the
    distance to -1 (1 + rate halved) until the sign changes."""
    if guess <= -1:
        return None
    if guess >= 0:
        lo, hi = 0.0, guess if guess > 0 else 1e-5
        while hi <= XIRR_WIDEST:
            if f(lo) * f(hi) <= 0:
                return lo, hi
            lo, hi = hi, 2 * hi
        hi = 0.0
    else:
        if f(guess) * f(0.0) <= 0:
            return guess, 0.0
        hi = guess
    for _ in range(1100):  # (1 + rate) halved down to the smallest number
        lo = -1 + (1 + hi) / 2
        if lo <= -1:
            return None
        if f(lo) * f(hi) <= 0:
            return lo, hi
        hi = lo
    return None


def xirr_rate(values: list[float], days: list[int], guess: float) -> float | None:
    """XIRR as Excel computes it: bisection of the bracket ``_xirr_bracket`` finds until it is
    narrower than 2^-26, its midpoint the answer (None where no bracket is found). Excel's XIRR
    answers sit on that grid: Microsoft's XIRR page 0.373362535 (the root is 0.3733625335), and
    the answers ExcelFinancialFunctions recorded from Excel to 13 digits, which differ by the guess
    (0.01563509255648 from 0.15, 0.015635099262 from 0.5, 0.01563509277344 from 0)."""

    def f(rate: float) -> float:
        return _xnpv(rate, values, days)

    try:
        found = _xirr_bracket(f, guess)
        if found is None:
            return None
        lo, hi = found
        at_lo = f(lo)
        while hi - lo >= XIRR_WIDTH:
            mid = (lo + hi) / 2
            at_mid = f(mid)
            if at_mid * at_lo > 0:
                lo, at_lo = mid, at_mid
            else:
                hi = mid
    except (OverflowError, ZeroDivisionError):
        return None
    out = (lo + hi) / 2
    return out if math.isfinite(out) else None


def _own_xnpv_xirr(name: str, args: tuple[Any, ...], values: np.ndarray, dates: np.ndarray) -> float | XlError | None:
    """XNPV or XIRR of plain numbers computed here (None: formulas computes it, as before)."""
    if not values.size or any(not isinstance(v, int | float) or isinstance(v, bool) for v in values):
        return None
    try:  # a date typed as text ("1998/1/1") is read as Excel reads it
        days = [math.floor(number(d)) for d in dates if not isinstance(d, bool)]
    except (TypeError, ValueError):
        return None
    if len(days) != values.size:
        return None
    if any(d < days[0] for d in days):
        return ReasonedError("#NUM!", f"{name}: a date precedes the first date")
    if any(not 0 <= d <= 2958465 for d in days):
        return None
    flows = [float(v) for v in values]
    if isinstance(scalar(args[0] if name == "XNPV" else args[2] if len(args) > 2 else 0.1), bool):
        return None  # a rate or guess TRUE: formulas' answer (#VALUE! from a cell), as before
    if name == "XNPV":
        rate = plain_number(args[0], "XNPV's rate")
        if not isinstance(rate, float) or rate <= 0:
            return None
        try:
            out = _xnpv(rate, flows, days)
        except (OverflowError, ZeroDivisionError):
            return None
        return out if math.isfinite(out) else None
    guess = plain_number(args[2], "XIRR's guess") if len(args) > 2 and scalar(args[2]) is not EMPTY else 0.1
    if not isinstance(guess, float) or not (any(v > 0 for v in flows) and any(v < 0 for v in flows)):
        return None
    return xirr_rate(flows, days, guess)


def dated(name: str) -> Callable[[FunctionTable], Callable[..., Any]]:
    """XNPV(rate, values, dates) and XIRR(values, dates, [guess]) (Microsoft's pages: "If any number
    in dates precedes the starting date, XNPV returns the #NUM! error value", "If values and dates
    contain a different number of values", #NUM!; XIRR's page the same): those #NUM!; of plain
    numbers XNPV added in the values' order and XIRR by Excel's bisection (``xirr_rate``); the rest
    as formulas computes it (formulas discounted a date before the first backwards, answered
    #VALUE! for the count, sorted the values by date before adding them and found XIRR by
    Newton's method, other last digits than Excel's)."""

    def make(table: FunctionTable) -> Callable[..., Any]:
        original = lazy(table, name)
        at = 1 if name == "XNPV" else 0

        def run(*args: Any) -> Any:
            if len(args) < at + 2:
                return original(*args)
            values, dates = (as_grid(a).ravel() for a in args[at : at + 2])
            if any(isinstance(v, XlError) for v in (*values, *dates)):
                return original(*args)  # the error is the answer
            if values.size != dates.size:
                return ReasonedError("#NUM!", f"{name} has {values.size} values and {dates.size} dates")
            days = [d for d in dates if isinstance(d, int | float) and not isinstance(d, bool)]
            if len(days) == dates.size and days and any(math.trunc(d) < math.trunc(days[0]) for d in days):
                return ReasonedError("#NUM!", f"{name}: a date precedes the first date")
            got = _own_xnpv_xirr(name, args, values, dates)
            return original(*args) if got is None else got

        run.__name__ = name
        return run

    return make


def _declining(cost: float, salvage: float, life: float, period: int, factor: float) -> float:
    """DDB's amount of whole period ``period`` (1, 2, ...) of an asset worth ``cost``, never below salvage."""
    rate = factor / life
    if rate >= 1:
        rate, before = 1.0, (cost if period == 1 else 0.0)
    else:
        before = cost * (1 - rate) ** (period - 1)
    after = cost * (1 - rate) ** period
    return max(before - salvage if after < salvage else before - after, 0.0)


def _switching(cost: float, salvage: float, life: float, left: float, span: float, factor: float) -> float:
    """Depreciation of an asset worth ``cost`` over ``span`` periods from now (a last part period its
    share), ``left`` periods of its life left: each whole period declining balance, or straight line
    over the life left once that is more (and from then on)."""
    out, remaining, line, switched = 0.0, cost - salvage, 0.0, False
    last = math.ceil(span)
    for i in range(1, last + 1):
        if switched:
            term = line
        else:
            term = _declining(cost, salvage, life, i, factor)
            line = remaining / (left - (i - 1))
            if line > term:
                term, switched = line, True
            else:
                remaining -= term
        out += term * (span + 1 - last) if i == last else term
    return out


def vdb(table: FunctionTable) -> Callable[..., Any]:
    """VDB(cost, salvage, life, start_period, end_period, [factor], [no_switch]) switching to straight
    line (no_switch FALSE, the default) as Excel computes it: periods counted from start_period, so a
    part period at the start is its share of the first period and the next periods are whole ones
    from there (VDB(100,10,13,0,1,1) is 0.1479 more than VDB(...,0,0.5,1) + VDB(...,0.5,1,1), the figure
    ExcelFinancialFunctions, which is checked against Excel, documents for Excel), and an end_period at
    the end of the life a number (formulas divided by the life left, 0, and answered #VALUE!; Excel's
    answers recorded by ExcelFinancialFunctions' tests, 1,273 of them, agree). formulas prorated the
    straight line of the whole period instead. Arguments outside cost >= salvage >= 0, 0 <= start <=
    end <= life, factor > 0, and no_switch TRUE, go to formulas as before."""
    original = lazy(table, "VDB")

    def run(*args: Any) -> Any:
        if not 5 <= len(args) <= 7 or any(isinstance(a, Ranges | np.ndarray) and as_grid(a).size > 1 for a in args):
            return original(*args)
        got = [plain_number(a, "VDB's argument") for a in args]
        if any(not isinstance(g, float) for g in got):
            return original(*args)
        cost, salvage, life, start, end = got[:5]
        factor = got[5] if len(args) > 5 and scalar(args[5]) is not EMPTY else 2.0
        no_switch = len(args) > 6 and got[6] != 0
        if no_switch or not (0 <= salvage <= cost and 0 <= start <= end <= life and life > 0 and factor > 0):
            return original(*args)
        part = start - math.floor(start)
        worth = cost - _switching(cost, salvage, life, life, part, factor) if part else cost
        worth -= _switching(worth, salvage, life, life - part, math.floor(start), factor)
        return _switching(worth, salvage, life, life - start, end - start, factor)

    run.__name__ = "VDB"
    return run


def accrint(table: FunctionTable) -> Callable[..., Any]:
    """ACCRINT(issue, first_interest, settlement, rate, par, frequency, [basis], [calc_method]) as
    formulas computes it, but with a settlement before the first interest date the interest accrued
    since the issue whatever calc_method says: Microsoft's ACCRINT page, its second example
    (``ACCRINT(DATE(2008,3,5),39691,39569,0.1,1000,2,0,FALSE)`` is 15.555555556, 56 days of
    30/360 from the issue; formulas answered 31.11, counting from the first interest date back)."""
    original = lazy(table, "ACCRINT")

    def run(*args: Any) -> Any:
        if len(args) == 8:
            first, settlement, method = (plain_number(a, "ACCRINT's argument") for a in (args[1], args[2], args[7]))
            if isinstance(first, float) and isinstance(settlement, float) and method == 0 and settlement <= first:
                return original(*args[:7], True)
        return original(*args)

    run.__name__ = "ACCRINT"
    return run


FUNCTIONS: dict[str, Entry] = {
    "FV": elementwise(fv, number),
    "NPV": Wraps(npv),
    "IRR": irr,
    **formulas_own("NPER PMT PV RATE SLN"),
    # issue 41: checked against Microsoft's pages (tests/excelcalc/lib/test_financial.py)
    "IPMT": Wraps(ipmt),
    "ACCRINT": Wraps(accrint),
    "XNPV": Wraps(dated("XNPV")),
    "XIRR": Wraps(dated("XIRR")),
    "VDB": Wraps(vdb),
    "PPMT": Wraps(ppmt),
    **formulas_own("CUMIPMT CUMPRINC DB DDB SYD EFFECT NOMINAL MIRR"),
    **formulas_own("PDURATION _XLFN.PDURATION RRI _XLFN.RRI FVSCHEDULE ISPMT DOLLARDE DOLLARFR"),
}
