"""Excel's Math & Trig functions the engine computes itself, and its arithmetic operators; the
others of the group it takes from formulas as they are (``FORMULAS``), checked against Excel.

* ``+ - * / ^`` and unary ``-`` and ``%``: each operand read as Excel reads a number (``="$5"*1``
  is 5); ``^`` and POWER as Excel answers where Python has no real answer or overflows.
* ROUND, ROUNDUP, ROUNDDOWN of the number as Excel holds it (15 digits, in decimal).
* FLOOR.MATH, CEILING.MATH and their .PRECISE forms as Microsoft's pages state them.
* SUM, PRODUCT, SUMSQ, SUMPRODUCT read their arguments by Excel's rule (``excelcalc.args``).
* COMBIN (formulas has none), refusing one beyond Excel's largest number by its logarithm first.
* FACT as Excel multiplies (its last digits), #NUM! beyond 170.
* QUOTIENT and SERIESSUM (formulas has none).
* SUBTOTAL and AGGREGATE read the workbook beyond their arguments (hidden rows, nested subtotals:
  ``lib.sheets``); their statistics are those of SUM, VAR... themselves (``lib.statistical``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from excelcalc.args import direct, direct_strict, in_range, is_number, many, values
from excelcalc.backend import EMPTY, FunctionTable, Ranges, XlError, as_grid, elementwise, error
from excelcalc.lib._common import Entry, Wraps, cells, formulas_own, number, plain_number, total, whole_number
from excelcalc.lib.criteria import keeping_blanks, reshaping
from excelcalc.lib.sheets import area_of, current
from excelcalc.lib.statistical import STATISTICS as _STATISTICS
from excelcalc.lib.statistical import mode
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS", "OPERATORS"]


def power(x: float, y: float) -> Any:
    """``x^y`` and POWER as Excel: no real answer (``(-5)^0.5``) or too large (``5^1000``) is #NUM!,
    ``0^0`` #NUM!, 0 to a negative power #DIV/0! (Python gave a complex number and an overflow)."""
    if x == 0:
        return error("#NUM!") if y == 0 else (error("#DIV/0!") if y < 0 else 0.0)
    if x < 0 and not float(y).is_integer():
        root = 1 / y  # an odd root of a negative number is real: (-8)^(1/3) is -2
        if abs(root - round(root)) < 1e-9 and round(root) % 2:
            return -math.pow(-x, y)
        return error("#NUM!")
    try:
        return math.pow(x, y)
    except (OverflowError, ValueError):
        return error("#NUM!")


def _divide(x: float, y: float) -> Any:
    return x / y if y else error("#DIV/0!")


# Excel's arithmetic operators over numbers; each operand read by ``number`` (``="$5"*1`` is 5,
# ``="50%"*1`` is 0.5: formulas read text with Python's float and answered #VALUE!)
ARITHMETIC: dict[str, Callable[..., Any]] = {
    "+": lambda x, y: x + y,
    "-": lambda x, y: x - y,
    "*": lambda x, y: x * y,
    "/": _divide,
    "^": power,
    "U-": lambda x: -x,
    "%": lambda x: x / 100.0,
}


def excel_round(away: bool | None) -> Callable[[float, float], float]:
    """ROUND (None), ROUNDUP (True), ROUNDDOWN (False) of the number as Excel holds it, 15
    significant digits, in decimal: ``ROUND(2.675,2)`` is 2.68, and POI's 56315.xlsx (Excel-cached)
    rounds ``1*(0.001+0.5-0.4-0.05-0.001)`` (0.049999999999999975 in binary) to 0.1."""
    from decimal import ROUND_DOWN, ROUND_HALF_UP, ROUND_UP, Context, Decimal

    wide = Context(prec=1000)  # room for every digit of a double: ROUND(1E300,2) is 1E300
    mode = ROUND_HALF_UP if away is None else (ROUND_UP if away else ROUND_DOWN)

    def run(x: float, digits: float) -> float:
        if not math.isfinite(x):
            return x
        places = Decimal(1).scaleb(-max(-400, min(400, int(digits))))
        return float(Decimal(f"{x:.15g}").quantize(places, rounding=mode, context=wide))

    return run


def _digits15(x: float) -> float:
    """A result as Excel keeps it: 15 significant digits (7.7 rounded down to 0.2s is 7.6, not
    7.6000000000000005)."""
    return float(f"{x:.15g}") if math.isfinite(x) else x


def _multiples(x: float, significance: float) -> float:
    """``x`` in units of ``significance`` to the 15 significant digits Excel keeps: ``7.1/0.1`` is
    71 (70.99999999999999 in binary, and FLOOR(7.1,0.1) is 7.1 in Excel), ``0.4/0.0999999999999996``
    4.00000000000002 (CEILING.MATH goes up to 5 multiples in Excel), ``1E-12/1`` stays above 0."""
    q = x / significance
    return float(f"{q:.15g}") if math.isfinite(q) else q


def _rounded(q: float, direction: Callable[[float], int], significance: float) -> Any:
    """``direction`` (math.floor or math.ceil) of ``q`` multiples of ``significance``; #NUM! where
    ``q`` is beyond every number (a significance of 1E-300 and less)."""
    if not math.isfinite(q):
        return ReasonedError("#NUM!", "the number has more multiples of the significance than Excel can count")
    return direction(q) * significance + 0.0  # not -0.0


def floor_math(x: float, significance: float = 1.0, mode: float = 0.0) -> Any:
    """FLOOR.MATH (Microsoft's page: ``FLOOR.MATH(-8.1,2)`` is -10, ``FLOOR.MATH(-5.5,2,-1)`` is -4):
    down to a multiple of |significance|; a negative number goes away from 0, or toward 0 with a
    mode other than 0. formulas turned the sign of a negative number round (-23.5 gave 23)."""
    s = abs(significance)
    if s == 0:
        return 0.0
    q = _multiples(x, s)
    got = _rounded(-q, lambda v: -math.floor(v), s) if x < 0 and mode else _rounded(q, math.floor, s)
    return got if isinstance(got, ReasonedError) else _digits15(got)


def ceiling_math(x: float, significance: float = 1.0, mode: float = 0.0) -> Any:
    """CEILING.MATH (Microsoft's page: ``CEILING.MATH(-8.1,2)`` is -8, ``CEILING.MATH(-5.5,2,-1)``
    is -6): up to a multiple of |significance|; a negative number goes toward 0, or away from 0
    with a mode other than 0."""
    s = abs(significance)
    if s == 0:
        return 0.0
    q = _multiples(x, s)
    got = _rounded(q, math.floor, s) if x < 0 and mode else _rounded(q, math.ceil, s)
    return got if isinstance(got, ReasonedError) else _digits15(got)


def floor(x: float, significance: float) -> Any:
    """FLOOR (Microsoft's page: ``FLOOR(3.7,2)`` 2, ``FLOOR(-2.5,-2)`` -2, ``FLOOR(2.5,-2)`` #NUM!,
    ``FLOOR(1.58,0.1)`` 1.5, ``FLOOR(0.234,0.01)`` 0.23): down to a multiple of significance, a
    negative number with a positive significance away from 0; by a significance of 0 #DIV/0!
    (0 of 0: POI's FormulaEvalTestData, Excel-cached). The multiple as Excel multiplies it:
    ``FLOOR(-2.99999,-1.1)`` is -2.2000000000000002 there."""
    if x > 0 and significance < 0:
        return error("#NUM!")
    if significance == 0:
        return 0.0 if x == 0 else error("#DIV/0!")
    return _rounded(_multiples(x, significance), math.floor, significance)


def ceiling(x: float, significance: float) -> Any:
    """CEILING (Microsoft's page: ``CEILING(2.5,1)`` 3, ``CEILING(-2.5,-2)`` -4, ``CEILING(-2.5,2)``
    -2, ``CEILING(1.5,0.1)`` 1.5, ``CEILING(0.234,0.01)`` 0.24): up to a multiple of significance,
    away from 0 for a negative number and significance; a positive number with a negative
    significance #NUM!; a significance of 0 answers 0 (xlcalculator's CEILING.xlsx, Excel-cached)."""
    if x > 0 and significance < 0:
        return error("#NUM!")
    if significance == 0:
        return 0.0
    return _rounded(_multiples(x, significance), math.ceil, significance)


def mround(x: float, multiple: float) -> Any:
    """MROUND (Microsoft's page: ``MROUND(10,3)`` 9, ``MROUND(-10,-3)`` -9, ``MROUND(1.3,0.2)`` 1.4,
    ``MROUND(5,-2)`` #NUM!): to the nearest multiple, half away from 0, of the quotient as the
    machine holds it ("MROUND(6.05,0.1) returns 6.0 while MROUND(7.05,0.1) returns 7.1", the
    page's known limitation). formulas rounded half to even: MROUND(1.3,0.2) was 1.2."""
    if multiple == 0:
        return 0.0
    if (x > 0 > multiple) or (x < 0 < multiple):
        return error("#NUM!")
    q = x / multiple
    return _rounded(q, lambda v: math.floor(v + 0.5), multiple)


def trunc(x: float, digits: float = 0.0) -> float:
    """TRUNC (Microsoft's page: ``TRUNC(8.9)`` 8, ``TRUNC(-8.9)`` -8, ``TRUNC(0.45)`` 0) of the number
    as Excel holds it, 15 significant digits: ``TRUNC(-0.7999999999999998,1)`` is -0.8 in Excel
    (-0.7 in binary). It is ROUNDDOWN, with digits 0 when left out; formulas looped once per digit
    (``TRUNC(5,1E300)`` never returned)."""
    return _TOWARD_ZERO(x, digits)


def excel_int(x: float) -> float:
    """INT (Microsoft's page: ``INT(8.9)`` 8, ``INT(-8.9)`` -9): down to an integer; a number of 2^52
    and more is one already (formulas answered #VALUE! for ``INT(1E308)``, Excel 1E+308)."""
    return x if abs(x) >= 2.0**52 else float(math.floor(x))


_TOWARD_ZERO = excel_round(False)


def _precise(f: Callable[..., Any]) -> Callable[..., Any]:
    """FLOOR.PRECISE/CEILING.PRECISE: the .MATH function with mode 0 (sign of significance ignored)."""
    return lambda x, significance=1.0: f(x, significance, 0.0)


# ------------------------------------------------------------------------------ COMBIN


def combin(n: Any, k: Any) -> Any:
    """COMBIN(number, number_chosen) (Microsoft's COMBIN page): both truncated to integers;
    nonnumeric is #VALUE!; a negative one, or number < number_chosen, #NUM!. Too large for a
    number (COMBIN(1030,515)): #NUM!."""
    a, b = whole_number(n), whole_number(k)
    for v in (a, b):
        if isinstance(v, XlError):
            return v
    assert isinstance(a, float) and isinstance(b, float)
    if not (math.isfinite(a) and math.isfinite(b)):
        return error("#NUM!")
    ni, ki = int(a), int(b)
    if ni < 0 or ki < 0 or ni < ki:
        return error("#NUM!")
    # its logarithm first: COMBIN(1E9,5E8) is an integer of a billion bits, minutes to make
    if math.lgamma(ni + 1) - math.lgamma(ki + 1) - math.lgamma(ni - ki + 1) > LOG_LARGEST + 1:
        return _beyond(f"COMBIN({ni:,},{ki:,})")
    try:
        return float(math.comb(ni, ki))  # at most ~1024 bits now: quick
    except OverflowError:
        return _beyond(f"COMBIN({ni:,},{ki:,})")


LOG_LARGEST = math.log(sys.float_info.max)  # 709.78: the logarithm of Excel's largest number


def _beyond(what: str) -> ReasonedError:
    return ReasonedError("#NUM!", f"{what} is beyond Excel's largest number (about 1.8E+308)")


# ------------------------------------------------------------------------------ FACT

MAX_FACT = 170  # 171! is beyond 1.8E+308


def fact(n: float) -> Any:
    """FACT(number) (Microsoft's page: truncated to an integer; negative is #NUM!) as Excel computes
    it, a product of floating-point numbers from 1 up: Excel's FACT(170) is 7.257415615307994E+306,
    not the exact integer's 7.257415615307999E+306 (formulas made the 307-digit integer and
    answered #VALUE!); FACT(171) is beyond Excel's largest number, #NUM!."""
    if not math.isfinite(n) or n < 0:
        return error("#NUM!")
    if n >= MAX_FACT + 1:
        return _beyond(f"FACT({math.trunc(n):,})" if n < 1e15 else "FACT")
    out = 1.0
    for i in range(2, int(n) + 1):
        out *= i
    return out


# ---------------------------------------------------------------- SUM, PRODUCT, SUMPRODUCT

SUMS: dict[str, Callable[[list[float]], Any]] = {
    "SUM": total,
    "PRODUCT": lambda v: math.prod(v) if v else 0.0,
    "SUMSQ": lambda v: total([x * x for x in v]),
}


def sumproduct(*args: Any) -> Any:
    """SUMPRODUCT (Microsoft's page: "treats array entries that are not numeric as if they were
    zeros"; arrays of different dimensions are #VALUE!). Of single values only, each must be a
    number (FormulaEvalTestData: ``SUMPRODUCT(3,B10,C9)`` is 3*B10*C9, a text "4" is #VALUE!)."""
    grids = [as_grid(a) for a in args]
    if all(g.size == 1 for g in grids):
        got = values((0.0 if g.flat[0] is EMPTY else g.flat[0] for g in grids), direct_strict, direct_strict)
        return got if isinstance(got, XlError) else math.prod(got)
    if any(g.shape != grids[0].shape for g in grids):
        return error("#VALUE!")
    columns: list[list[float]] = []
    for g in grids:
        for v in g.flat:
            if isinstance(v, XlError):
                return v
        columns.append([float(v) if is_number(v) else 0.0 for v in g.flat])
    return total([math.prod(row) for row in zip(*columns, strict=True)])


# ------------------------------------------------------------------------ SUBTOTAL, AGGREGATE

STATISTICS = {**SUMS, **_STATISTICS}
# function number -> (name, the function over the numbers kept); 2 and 3 count cells instead. The
# statistics are those of SUM, VAR... themselves, so a SUBTOTAL shows the digits its function does
_BY_NUMBER: dict[int, tuple[str, Callable[[list[float]], Any]]] = {
    n: (name, STATISTICS.get(name, mode))
    for n, name in {
        1: "AVERAGE",
        4: "MAX",
        5: "MIN",
        6: "PRODUCT",
        7: "STDEV",
        8: "STDEVP",
        9: "SUM",
        10: "VAR",
        11: "VARP",
        12: "MEDIAN",
        13: "MODE.SNGL",
    }.items()
}


class _Rules:
    """Which cells a SUBTOTAL or AGGREGATE leaves out."""

    def __init__(self, name: str, hidden: bool, errors: bool, nested: bool) -> None:
        self.name, self.hidden, self.errors, self.nested = name, hidden, errors, nested


def _kept(refs: Sequence[Any], rules: _Rules) -> list[Any] | XlError:
    """The values of the reference arguments a SUBTOTAL/AGGREGATE reads, in order; an error value
    naming what it cannot read as Excel does."""
    sheets = current()
    out: list[Any] = []
    for ref in refs:
        area = area_of(ref)
        if area is None or sheets is None:
            return ReasonedError(
                "#VALUE!", f"{rules.name} of anything but ranges of the workbook is not computed by benchsheet"
            )
        s, r1, c1, _, _ = area
        for dr, row in enumerate(as_grid(ref)):
            if sheets.hidden(s, r1 + dr):
                if rules.hidden:
                    continue
                if sheets.filtered(s):
                    why = f"{rules.name} over rows a filter may hide is not computed by benchsheet (use 101-111)"
                    return ReasonedError("#VALUE!", why)
            for dc, v in enumerate(row):
                if rules.nested and sheets.subtotal(s, r1 + dr, c1 + dc):
                    continue
                if not (rules.errors and isinstance(v, XlError)):
                    out.append(v)
    return out


def _summarize(code: int, values: list[Any] | XlError) -> Any:
    """Function ``code`` (1-13 of AGGREGATE, 1-11 of SUBTOTAL) of the values kept; the first error
    among them is the answer, except for COUNT (2) and COUNTA (3), which count."""
    if isinstance(values, XlError):
        return values
    numbers: list[float] = []
    count = 0
    for v in values:
        if isinstance(v, XlError):
            if code not in (2, 3):
                return v
            count += 1
        elif v is not EMPTY and v is not None:
            count += 1
            if is_number(v):
                numbers.append(float(v))
    if code == 2:
        return float(len(numbers))
    if code == 3:
        return float(count)
    return _BY_NUMBER[code][1](numbers)


def _code(v: Any) -> int | XlError:
    """A function number or option: a number (truncated)."""
    x = plain_number(v, "a function number or option")
    if isinstance(x, XlError):
        return x
    return int(x) if math.isfinite(x) else error("#VALUE!")


def subtotal(function_num: Any, *refs: Any) -> Any:
    """SUBTOTAL(function_num, ref1, ...) (Microsoft's SUBTOTAL page): function 1-11 (AVERAGE,
    COUNT, COUNTA, MAX, MIN, PRODUCT, STDEV, STDEVP, SUM, VAR, VARP) of the references, leaving
    out cells that hold SUBTOTAL (or AGGREGATE) themselves; 101-111 also leave out hidden rows.
    "The SUBTOTAL function ignores any rows that are not included in the result of a filter, no
    matter which function_num value you use": a hidden row on a filtered sheet with 1-11 is not
    told apart from a row hidden by hand, so that case answers an error naming it."""
    code = _code(function_num)
    if isinstance(code, XlError):
        return code
    base = code - 100 if code > 100 else code
    if not 1 <= base <= 11 or not refs:
        return error("#VALUE!")
    return _summarize(base, _kept(refs, _Rules("SUBTOTAL", code > 100, False, True)))


_ARRAY_FORM: dict[int, str] = {
    14: "LARGE",
    15: "SMALL",
    16: "PERCENTILE.INC",
    17: "QUARTILE.INC",
    18: "PERCENTILE.EXC",
    19: "QUARTILE.EXC",
}


def aggregate(function_num: Any, options: Any, *args: Any) -> Any:
    """AGGREGATE(function_num, options, ref1, ...) and AGGREGATE(function_num, options, array, k)
    (Microsoft's AGGREGATE page): functions 1-13 of references, 14-19 of one array or reference
    and k; options 0-7 leave out nested SUBTOTAL/AGGREGATE cells (0-3), hidden rows (1, 3, 5, 7)
    and error values (2, 3, 6, 7)."""
    code, option = _code(function_num), _code(EMPTY if options is None else options)
    for v in (code, option):
        if isinstance(v, XlError):
            return v
    assert isinstance(code, int) and isinstance(option, int)
    if not 1 <= code <= 19 or not 0 <= option <= 7 or not args:
        return error("#VALUE!")
    rules = _Rules("AGGREGATE", option in (1, 3, 5, 7), option in (2, 3, 6, 7), option <= 3)
    if code <= 13:
        if any(not isinstance(a, Ranges) for a in args):
            return error("#VALUE!")
        return _summarize(code, _kept(args, rules))
    if len(args) != 2:
        return error("#VALUE!")
    data, k = args
    if isinstance(data, Ranges):
        values = _kept((data,), rules)
    else:  # a computed array: no rows to hide, no subtotal cells
        values = [v for v in as_grid(data).flat if not (rules.errors and isinstance(v, XlError))]
    return values if isinstance(values, XlError) else _ranked(code, values, plain_number(k))


def _ranked(code: int, values: list[Any], k: float | XlError) -> Any:
    """AGGREGATE 14-19 of the numbers kept (an error among them is the answer)."""
    if isinstance(k, XlError):
        return k
    numbers: list[float] = []
    for v in values:
        if isinstance(v, XlError):
            return v
        if is_number(v):
            numbers.append(float(v))
    numbers.sort()
    n = len(numbers)
    if code in (14, 15):
        if not float(k).is_integer():
            why = f"AGGREGATE's {_ARRAY_FORM[code]} with a k that is not whole is not computed"
            return ReasonedError("#VALUE!", why)
        if not 1 <= k <= n:
            return error("#NUM!")
        return numbers[n - int(k)] if code == 14 else numbers[int(k) - 1]
    p = k if code in (16, 18) else math.trunc(k) / 4
    if code in (17, 19) and not (0 <= math.trunc(k) <= 4):
        return error("#NUM!")
    return _percentile(numbers, p, exclusive=code in (18, 19))


def _percentile(xs: list[float], p: float, exclusive: bool) -> Any:
    """PERCENTILE.INC/.EXC of sorted numbers (Microsoft's pages: .INC interpolates between ranks
    over 0..n-1, .EXC over 1..n with p strictly between 1/(n+1) and n/(n+1))."""
    n = len(xs)
    if n == 0:
        return error("#NUM!")
    if exclusive:
        rank = p * (n + 1) - 1
        if not 0 < p < 1 or rank < 0 or rank > n - 1:
            return error("#NUM!")
    else:
        if not 0 <= p <= 1:
            return error("#NUM!")
        rank = p * (n - 1)
    low = math.floor(rank)
    high = min(low + 1, n - 1)
    return xs[low] + (rank - low) * (xs[high] - xs[low])


def quotient(numerator: float, denominator: float) -> Any:
    """QUOTIENT(numerator, denominator) (Microsoft's page: QUOTIENT(5,2) 2, QUOTIENT(4.5,3.1) 1,
    QUOTIENT(-10,3) -3): the integer part of the division; by 0 #DIV/0!."""
    if denominator == 0:
        return error("#DIV/0!")
    return float(math.trunc(numerator / denominator))


def seriessum(x: Any, n: Any, m: Any, coefficients: Any) -> Any:
    """SERIESSUM(x, n, m, coefficients) (Microsoft's page): a1*x^n + a2*x^(n+m) + ..., one term for
    each coefficient (an error among them the answer, text #VALUE!); a term Excel cannot raise #NUM!."""
    args = []
    for v in (x, n, m):
        got = plain_number(v, "SERIESSUM's x, n or m")
        if isinstance(got, XlError):
            return got
        args.append(got)
    base, first, step = args
    terms: list[float] = []
    for i, cell in enumerate(as_grid(coefficients).flat):
        a = as_grid(cell).flat[0]  # an array literal's computed entry is an array of its own
        if isinstance(a, XlError):
            return a
        if not is_number(a):
            return error("#VALUE!")
        if base == 0 and first + i * step == 0:
            return ReasonedError("#NUM!", "SERIESSUM of x = 0 to the power 0 is not computed by benchsheet")
        term = power(base, first + i * step)
        if isinstance(term, XlError):
            return term
        terms.append(float(a) * term)
    return total(terms)


def mod(n: float, d: float) -> Any:
    """MOD (Microsoft's page: ``MOD(3,2)`` 1, ``MOD(-3,2)`` 1, ``MOD(3,-2)`` -1, ``MOD(-3,-2)`` -1: the
    remainder has the divisor's sign; by 0 #DIV/0!), as formulas computes it, except a number of
    2^53 divisors or more: no whole count of divisors is held exactly, so the remainder has no
    digit, #NUM! (Excel: ``MOD(1E308,0.3)`` is #NUM!; formulas answered 0.0614)."""
    if d == 0:
        return error("#DIV/0!")
    if not abs(n / d) < 2.0**53:
        return ReasonedError("#NUM!", "MOD of a number of 2^53 divisors or more: the remainder has no digit")
    return n % d + 0.0


def _rand(table: FunctionTable) -> dict[str, Any]:
    """RAND() (Microsoft's page: "RAND has no arguments"): formulas passed arguments on to numpy's
    ``rand`` as an array's dimensions (``RAND(5,2,100000000)`` made a billion numbers)."""
    own = table.excel("RAND")

    def run(compiling: Any, *args: Any) -> Any:
        if args:
            return ReasonedError("#VALUE!", "RAND takes no arguments: RAND()")
        return own["function"](compiling)

    return {"extra_inputs": own["extra_inputs"], "function": run}


_ROUNDING = elementwise(floor_math, number), elementwise(ceiling_math, number)
_PRECISE = elementwise(_precise(floor_math), number), elementwise(_precise(ceiling_math), number)

FUNCTIONS: dict[str, Entry] = {
    **{name: many(name, f, in_range, direct) for name, f in SUMS.items()},
    "SUMPRODUCT": sumproduct,
    "POWER": elementwise(power, number),
    "ROUND": elementwise(excel_round(None), number),
    "ROUNDUP": elementwise(excel_round(True), number),
    "ROUNDDOWN": elementwise(excel_round(False), number),
    "FLOOR.MATH": _ROUNDING[0],
    "_XLFN.FLOOR.MATH": _ROUNDING[0],
    "CEILING.MATH": _ROUNDING[1],
    "_XLFN.CEILING.MATH": _ROUNDING[1],
    "FLOOR.PRECISE": _PRECISE[0],
    "_XLFN.FLOOR.PRECISE": _PRECISE[0],
    "CEILING.PRECISE": _PRECISE[1],
    "_XLFN.CEILING.PRECISE": _PRECISE[1],
    "ISO.CEILING": _PRECISE[1],  # Microsoft's ISO.CEILING page: CEILING.PRECISE's answers (formulas' own
    "_XLFN.ISO.CEILING": _PRECISE[1],  # answered ISO.CEILING(-4.3) = 5 where the page has -4)
    "FLOOR": elementwise(floor, number),
    "CEILING": elementwise(ceiling, number),
    "MROUND": elementwise(mround, number),
    "TRUNC": elementwise(trunc, number),
    "INT": elementwise(excel_int, number),
    "RAND": Wraps(_rand),
    "MOD": elementwise(mod, number),
    "SUMIF": keeping_blanks("SUMIF", 0, reshaping("SUMIF")),
    "SUMIFS": keeping_blanks("SUMIFS", 1),
    "COMBIN": cells(combin),
    "QUOTIENT": elementwise(quotient, number),
    "SERIESSUM": seriessum,
    "FACT": elementwise(fact, number),
    "SUBTOTAL": subtotal,
    "AGGREGATE": aggregate,
    "_XLFN.AGGREGATE": aggregate,
    **formulas_own(
        "ABS ACOS ACOSH ASIN ASINH ATAN ATAN2 ATANH COSH DECIMAL DEGREES EVEN EXP LN LOG"
        " LOG10 MDETERM MINVERSE MMULT ODD PI RADIANS SIGN SINH SQRT SUMX2MY2"
        " SUMX2PY2 SUMXMY2 TANH"
    ),
}

OPERATORS: dict[str, Entry] = {name: elementwise(f, number) for name, f in ARITHMETIC.items()}
