"""Excel's Math & Trig functions of issue 41 that calc refused (Excel-saved workbooks call them): the
reciprocal and hyperbolic trigonometric functions, PERMUT, PERMUTATIONA, COMBINA, ROMAN, ARABIC, GCD and LCM,
each as its Microsoft page states it, arguments bounded as the page bounds them.

* COT, CSC, SEC, COTH, CSCH and SECH: "The absolute value of Number must be less than 2^27" (#NUM!),
  at 0 a reciprocal of 0 is #DIV/0!; formulas' own answered a number past the bound.
* PERMUT and PERMUTATIONA: formulas multiplied Python integers (``PERMUTATIONA(1E9,1E9)`` never
  returned); these answer #NUM! past Excel's largest number before any long product.
* COMBINA (formulas has none): COMBIN(number + number_chosen - 1, number_chosen).
* ROMAN's form TRUE is the classic form 0, FALSE the simplified form 4 (formulas: both classic).
* ARABIC ignores leading and trailing spaces, reads a negative numeral and refuses more than 255
  characters, as its page states (formulas refused the first two and read the third).
* GCD and LCM: numbers truncated, ranges and arrays read cell by cell, a GCD argument of 2^53 or more
  and an LCM of 2^53 or more #NUM! as their pages state (formulas' own answered a number past 2^53).
* SIN, COS and TAN near a multiple of pi/2 reduce their argument by Excel's pi, pi to 64 bits
  (``PI_64``): COS(PI()/2) is 6.1257422745431E-17 in Excel, 6.123233995736766E-17 in formulas.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from excelcalc.backend import EMPTY, Ranges, XlError, as_grid, elementwise, error
from excelcalc.lib._common import Entry, Wraps, cells, lazy, number, scalar
from excelcalc.lib.math import LOG_LARGEST, combin
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS"]

_BOUND = 2.0**27  # "The absolute value of Number must be less than 2^27" (COT, CSC, SEC, COTH, CSCH, SECH pages)
_LARGEST = 1.7976931348623157e308


def _bounded(name: str, f: Callable[[float], float], zero: bool) -> Callable[[float], Any]:
    """``f`` of a number whose absolute value is below 2^27 (else #NUM! with the reason); 1/0 at 0
    where ``zero`` (the reciprocal of sin or tan: #DIV/0!)."""

    def run(x: float) -> Any:
        if not abs(x) < _BOUND:
            return ReasonedError("#NUM!", f"{name} of a number of absolute value 2^27 or more (Excel's bound)")
        if zero and x == 0:
            return error("#DIV/0!")
        return f(x)

    run.__name__ = name
    return run


PI_64 = Fraction(0xC90FDAA22168C235, 2**62)  # pi rounded to 64 bits (an x87 long double), Excel's pi
_NEAR = 1e-6  # arguments this close to a multiple of pi/2 are reduced by PI_64 (elsewhere the same digits)


def _quarter(x: float) -> tuple[int, float] | None:
    """x as k pi/2 + r with Excel's pi, where x is within ``_NEAR`` of a multiple k (not 0) of pi/2."""
    k = round(x / (math.pi / 2))
    if k == 0 or not abs(x) < _BOUND or abs(x - k * (math.pi / 2)) >= _NEAR:
        return None
    return k % 4, float(Fraction(x) - k * PI_64 / 2)


def excel_sin(x: float) -> float:
    """SIN as Excel computes it: Gnumeric's samples/excel/trig.xls (saved by Excel) has SIN(PI())
    1.22514845490862E-16 and SIN(2*PI()) -2.45029690981724E-16, sin of the argument's distance to
    PI_64's multiple (formulas: 1.2246467991473532E-16, the distance to pi itself)."""
    near = _quarter(x)
    if near is None:
        return math.sin(x)
    k, r = near
    return (math.sin(r), math.cos(r), -math.sin(r), -math.cos(r))[k]


def excel_cos(x: float) -> float:
    """COS as Excel computes it (trig.xls: COS(PI()/2) 6.1257422745431E-17, COS(3/2*PI())
    -1.83772268236293E-16)."""
    near = _quarter(x)
    if near is None:
        return math.cos(x)
    k, r = near
    return (math.cos(r), -math.sin(r), -math.cos(r), math.sin(r))[k]


def excel_tan(x: float) -> float:
    """TAN as Excel computes it (trig.xls: TAN(PI()/2) 1.6324552277619072E+16, TAN(PI())
    -1.22514845490862E-16)."""
    near = _quarter(x)
    if near is None:
        return math.tan(x)
    k, r = near
    return math.tan(r) if k % 2 == 0 else -1 / math.tan(r)


def _sech(x: float) -> float:
    return 0.0 if abs(x) > 710 else 1 / math.cosh(x)


def _csch(x: float) -> float:
    return 0.0 if abs(x) > 710 else 1 / math.sinh(x)


def acot(x: float) -> float:
    """ACOT (Microsoft's page: "the principal value of the arccotangent ... in the range 0 to pi")."""
    return math.pi / 2 - math.atan(x)


def acoth(x: float) -> Any:
    """ACOTH (Microsoft's page: "The absolute value of Number must be greater than 1", else #NUM!)."""
    if not abs(x) > 1:
        return ReasonedError("#NUM!", "ACOTH of a number of absolute value 1 or less")
    return 0.5 * math.log((x + 1) / (x - 1))


# ------------------------------------------------------------------------------ PERMUT, PERMUTATIONA, COMBINA


def _beyond(what: str) -> ReasonedError:
    return ReasonedError("#NUM!", f"{what} is beyond Excel's largest number (about 1.8E+308)")


def permut(n: float, k: float) -> Any:
    """PERMUT(number, number_chosen) (Microsoft's page): both truncated; "If number <= 0 or if
    number_chosen < 0" or "number < number_chosen", #NUM!. n!/(n-k)! multiplied in floats: k! alone
    passes Excel's largest number from k = 171, so at most 170 factors are multiplied."""
    ni, ki = math.trunc(n), math.trunc(k)
    if ni <= 0 or ki < 0 or ni < ki:
        return ReasonedError("#NUM!", "PERMUT needs number > 0, number_chosen >= 0 and number >= number_chosen")
    if ki > 170:
        return _beyond(f"PERMUT({ni:,},{ki:,})")
    out = 1.0
    for i in range(ki):
        out *= ni - i
        if not out <= _LARGEST:
            return _beyond(f"PERMUT({ni:,},{ki:,})")
    return out


def permutationa(n: float, k: float) -> Any:
    """PERMUTATIONA(number, number_chosen) (Microsoft's page): number ** number_chosen, both truncated;
    "If number < 0, or if number_chosen < 0", #NUM!; past Excel's largest number #NUM!."""
    ni, ki = math.trunc(n), math.trunc(k)
    if ni < 0 or ki < 0:
        return ReasonedError("#NUM!", "PERMUTATIONA needs number >= 0 and number_chosen >= 0")
    if ni > 1 and ki * math.log(ni) > LOG_LARGEST + 1:
        return _beyond(f"PERMUTATIONA({ni:,},{ki:,})")
    try:
        out = float(ni) ** ki
    except OverflowError:
        return _beyond(f"PERMUTATIONA({ni:,},{ki:,})")
    return out if out <= _LARGEST else _beyond(f"PERMUTATIONA({ni:,},{ki:,})")


def combina(n: Any, k: Any) -> Any:
    """COMBINA(number, number_chosen) (Microsoft's page): both truncated; number "must be greater than
    or equal to 0, and greater than or equal to Number_chosen", number_chosen "greater than or equal
    to 0", else #NUM!; COMBIN(number + number_chosen - 1, number_chosen) (one way to choose nothing)."""
    a, b = (scalar(v) for v in (n, k))
    for v in (a, b):
        if isinstance(v, XlError):
            return v
    try:
        x, y = (0.0 if v is None or v is EMPTY else number(v) for v in (a, b))
    except (TypeError, ValueError):
        return error("#VALUE!")
    if not (math.isfinite(x) and math.isfinite(y)):
        return error("#NUM!")
    ni, ki = math.trunc(x), math.trunc(y)
    if ni < 0 or ki < 0 or ni < ki:
        return ReasonedError("#NUM!", "COMBINA needs number >= 0, number_chosen >= 0 and number >= number_chosen")
    if ki == 0:
        return 1.0
    return combin(float(ni + ki - 1), float(ki))


# ------------------------------------------------------------------------------ ROMAN, ARABIC


def roman(original: Callable[..., Any]) -> Callable[..., Any]:
    """ROMAN(number, [form]) as formulas computes it, with Microsoft's forms TRUE ("Classic", 0) and
    FALSE ("Simplified", 4): formulas wrote FALSE's numerals classic (ROMAN(499,FALSE) is "ID")."""

    def run(value: Any, form: Any = None) -> Any:
        if form is None:
            return original(value)
        f = scalar(form)
        if isinstance(f, bool | np.bool_):
            form = 0.0 if f else 4.0
        return original(value, form)

    run.__name__ = "ROMAN"
    return run


_NUMERALS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def arabic(text: Any) -> Any:
    """ARABIC(text) (Microsoft's page): "" is 0; "The maximum length of the argument is 255
    characters"; case ignored; "Insert the negative sign before the Roman text, such as "-MMXI""; "Leading
    and trailing spaces are ignored"; numbers, dates and other text #VALUE!. A numeral smaller than the
    one after it is subtracted ("mxmvii" is 1997, as the page has it)."""
    if isinstance(text, XlError):
        return text
    if text is None or text is EMPTY:
        text = ""
    if not isinstance(text, str) or isinstance(text, bool):
        return ReasonedError("#VALUE!", "ARABIC takes a Roman numeral as text")
    if len(text) > 255:
        return ReasonedError("#VALUE!", "ARABIC takes at most 255 characters")
    body = text.strip(" ").upper()
    sign = -1.0 if body.startswith("-") else 1.0
    body = body.removeprefix("-")
    if any(c not in _NUMERALS for c in body) or (sign < 0 and not body):
        return ReasonedError("#VALUE!", f"{text!r} is no Roman numeral")
    values = [_NUMERALS[c] for c in body]
    total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return sign * total


# ------------------------------------------------------------------------------ GCD, LCM

_EXACT = 2**53  # GCD page: "If a parameter to GCD is >=2^53, GCD returns the #NUM! error value"; LCM page:
# "If LCM(a,b) >=2^53, LCM returns the #NUM! error value"
_MAX_ARGUMENTS = 255  # both pages: "1 to 255 values"


def _whole_numbers(name: str, args: tuple[Any, ...]) -> list[int] | XlError:
    """The arguments of GCD or LCM as whole numbers (each truncated), ranges and arrays cell by cell;
    the pages' errors: a nonnumeric argument #VALUE!, a negative one #NUM!."""
    if not args:
        return ReasonedError("#VALUE!", f"{name} takes at least one number")
    if len(args) > _MAX_ARGUMENTS:
        return ReasonedError("#VALUE!", f"{name} takes at most {_MAX_ARGUMENTS} arguments")
    values: list[float] = []
    for arg in args:
        if isinstance(arg, Ranges | np.ndarray):  # a range or an array: its numbers, each cell
            for v in as_grid(arg).flat:
                if isinstance(v, XlError):
                    return v
                if v is None or v is EMPTY:
                    if name == "LCM":  # blank as 0 would make the LCM 0, skipped it would not: no one checked
                        return ReasonedError("#VALUE!", "LCM of a blank cell is not computed by benchsheet")
                    v = 0.0  # GCD(x, 0) is x: blank read as 0 or skipped answers the same
                if isinstance(v, str | bool | np.bool_):
                    return ReasonedError("#VALUE!", f"{name} of a range or array holding {v!r}: it takes numbers")
                values.append(float(v))
            continue
        v = scalar(arg)
        if isinstance(v, XlError):
            return v
        try:
            values.append(0.0 if v is None or v is EMPTY else number(v))
        except (TypeError, ValueError):
            return ReasonedError("#VALUE!", f"{name} of {v!r}: it takes numbers")
    out: list[int] = []
    for x in values:
        if not math.isfinite(x):
            return error("#NUM!")
        if x < 0:
            return ReasonedError("#NUM!", f"{name} of a negative number")
        out.append(math.trunc(x))
    return out


def gcd(*args: Any) -> Any:
    """GCD(number1, [number2], ...) (Microsoft's page): "the largest integer that divides both number1
    and number2 without a remainder"; "If any value is not an integer, it is truncated"."""
    found = _whole_numbers("GCD", args)
    if isinstance(found, XlError):
        return found
    if any(n >= _EXACT for n in found):
        return ReasonedError("#NUM!", "GCD of a number of 2^53 or more (Excel's bound)")
    return float(math.gcd(*found))


def lcm(*args: Any) -> Any:
    """LCM(number1, [number2], ...) (Microsoft's page): "the smallest positive integer that is a
    multiple of all integer arguments"; "If value is not an integer, it is truncated"; a 0 among them
    makes it 0; from 2^53 on #NUM!, checked after each argument (no long product of Python integers)."""
    found = _whole_numbers("LCM", args)
    if isinstance(found, XlError):
        return found
    out = 1
    for n in found:
        out = math.lcm(out, n)
        if out >= _EXACT:
            return ReasonedError("#NUM!", "LCM of 2^53 or more (Excel's bound)")
    return float(out)


_TRIG: dict[str, Callable[..., Any]] = {
    "SIN": excel_sin,
    "COS": excel_cos,
    "TAN": excel_tan,
    "COT": _bounded("COT", lambda x: 1 / math.tan(x), True),
    "CSC": _bounded("CSC", lambda x: 1 / math.sin(x), True),
    "SEC": _bounded("SEC", lambda x: 1 / math.cos(x), False),
    "COTH": _bounded("COTH", lambda x: 1 / math.tanh(x), True),
    "CSCH": _bounded("CSCH", _csch, True),
    "SECH": _bounded("SECH", _sech, False),
    "ACOT": acot,
    "ACOTH": acoth,
    "PERMUT": permut,
    "PERMUTATIONA": permutationa,
}

FUNCTIONS: dict[str, Entry] = {
    **{name: elementwise(f, number) for name, f in _TRIG.items()},
    **{f"_XLFN.{name}": elementwise(f, number) for name, f in _TRIG.items() if name not in ("SIN", "COS", "TAN")},
    "COMBINA": cells(combina),
    "_XLFN.COMBINA": cells(combina),
    "ROMAN": Wraps(lambda table: roman(lazy(table, "ROMAN"))),
    "ARABIC": cells(arabic),
    "_XLFN.ARABIC": cells(arabic),
    "GCD": gcd,
    "LCM": lcm,
}
