"""Excel's Engineering functions the engine computes itself, where the ``formulas`` package answers
otherwise than Excel, each as Microsoft's function reference states it and checked against the
values Excel cached in the corpus (tests/corpus); CONVERT is formulas' own (``FORMULAS``).

* COMPLEX and the IM functions of complex numbers written as text ("3+4i"): parts written with
  15 significant digits as Excel writes them (formulas wrote 17, and "2j" for IMSQRT("-4")),
  powers and roots in polar form as Excel computes them (IMPOWER("2+3i",3) "-46+9.00000000000001i").

* BIN2DEC, BIN2HEX, BIN2OCT, DEC2BIN, DEC2HEX, DEC2OCT, HEX2BIN, HEX2DEC, HEX2OCT, OCT2BIN,
  OCT2DEC, OCT2HEX ("DEC2BIN function" and its siblings, support.microsoft.com): a number of at
  most 10 digits of its base, the most significant bit its sign (two's complement); a decimal
  number is truncated and must fit the target's 10 digits; ``places`` is truncated, nonnumeric
  gives #VALUE!, zero or negative #NUM!, fewer than the digits needed #NUM!, and a negative
  number ignores it (10 digits). Excel's cached values add: places must be 1 to 10, and a bad
  places is the answer before a bad number.
  formulas answers #VALUE! for every places error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.backend import EMPTY, Ranges, XlError, as_grid, error
from excelcalc.lib._common import Entry, cells, formulas_own
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS"]

_DIGITS = "0123456789ABCDEF"


_BITS = {2: 10, 8: 30, 16: 40}  # ten digits of each base


def _from_base(text: Any, base: int) -> int | XlError:
    """A number written in ``base`` (at most 10 digits, two's complement) as an int."""
    if isinstance(text, XlError):
        return text
    if isinstance(text, bool):
        return error("#VALUE!")
    if text is None:
        text = ""
    if isinstance(text, float):
        if not text.is_integer():
            return error("#NUM!")
        text = str(int(text))
    elif isinstance(text, int):
        text = str(text)
    digits = str(text).strip().upper()
    if len(digits) > 10 or any(ch not in _DIGITS[:base] for ch in digits):
        return error("#NUM!")
    n = int(digits, base) if digits else 0
    bits = _BITS[base]
    return n - (1 << bits) if len(digits) == 10 and n >> (bits - 1) else n


def _places(places: Any) -> int | XlError | None:
    if places is None:
        return None
    if isinstance(places, XlError):
        return places
    if isinstance(places, bool) or not isinstance(places, int | float):
        try:
            places = float(str(places))
        except ValueError:
            return error("#VALUE!")
    if not math.isfinite(places):
        return error("#NUM!")
    p = int(places)
    return p if 0 < p <= 10 else error("#NUM!")


def _to_base(n: int, base: int, places: Any) -> str | XlError:
    bits = _BITS[base]
    if not -(1 << (bits - 1)) <= n < (1 << (bits - 1)):
        return error("#NUM!")
    p = _places(places)
    if isinstance(p, XlError):
        return p
    if n < 0:
        n += 1 << bits
        p = None  # a negative number is always ten digits
    text = np.base_repr(n, base)
    if p is not None:
        if p < len(text):
            return error("#NUM!")
        text = text.zfill(p)
    return text


def _decimal(number: Any) -> int | XlError:
    if isinstance(number, XlError):
        return number
    if isinstance(number, bool):
        return error("#VALUE!")
    if number is None:
        return 0
    if isinstance(number, str):
        try:
            number = float(number)
        except ValueError:
            return error("#VALUE!")
    if not math.isfinite(number) or abs(number) >= 1 << 53:
        return error("#NUM!")
    return int(number)


def _converter(source: int, target: int) -> Callable[..., Any]:
    def convert(number: Any, places: Any = None) -> Any:
        p = _places(places)  # a bad places is Excel's answer before a bad number
        if isinstance(p, XlError):
            return p
        n = _decimal(number) if source == 10 else _from_base(number, source)
        if isinstance(n, XlError):
            return n
        if target == 10:
            return float(n)
        return _to_base(n, target, places)

    return convert


_NAMES = {2: "BIN", 8: "OCT", 10: "DEC", 16: "HEX"}


def _conversions() -> dict[str, Entry]:
    """BIN2DEC, DEC2HEX... (each base to each other): Excel's name -> the engine's implementation."""
    table: dict[str, Entry] = {}
    for source in _NAMES:
        for target in _NAMES:
            if source != target:
                fn = _converter(source, target)
                fn.__name__ = f"{_NAMES[source]}2{_NAMES[target]}"
                table[fn.__name__] = cells(fn)
    return table


# ------------------------------------------------------------------------ complex numbers

_UNUM = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_REAL = re.compile(rf"[+-]?{_UNUM}")
_IMAGINARY = re.compile(rf"(?P<sign>[+-]?)(?P<n>{_UNUM})?(?P<suffix>[ij])")
_BOTH = re.compile(rf"(?P<re>[+-]?{_UNUM})(?P<sign>[+-])(?P<n>{_UNUM})?(?P<suffix>[ij])")

Complex = tuple[float, float, str]  # real, imaginary, suffix ("" where the text had none)


def _complex(v: Any) -> Complex | XlError:
    """An inumber argument (Microsoft's pages: "a complex number in the form x + yi or x + yj", or
    a number) as (real, imaginary, suffix); a text of no such form #NUM!, TRUE/FALSE #VALUE!."""
    if isinstance(v, XlError):
        return v
    if v is None or v is EMPTY:
        return 0.0, 0.0, ""
    if isinstance(v, bool | np.bool_):
        return error("#VALUE!")
    if not isinstance(v, str):
        return float(v), 0.0, ""
    if _REAL.fullmatch(v):
        return float(v), 0.0, ""
    m = _IMAGINARY.fullmatch(v)
    if m:
        return 0.0, float(m["sign"] + (m["n"] or "1")), m["suffix"]
    m = _BOTH.fullmatch(v)
    if m:
        return float(m["re"]), float(m["sign"] + (m["n"] or "1")), m["suffix"]
    return error("#NUM!")


def _number_text(x: float) -> str:
    """A part of a complex number as Excel writes it: 15 significant digits, 1E-20 style."""
    text = "%.15g" % (x or 0.0)
    mantissa, e, exponent = text.partition("e")
    return mantissa + (f"E{exponent[0]}{exponent[1:].lstrip('0')}" if e else "")


def complex_text(real: float, imaginary: float, suffix: str = "i") -> Any:
    """Excel's text of a complex number: "3+4i", "8+i", "-i", "5" (a part of 0 left out)."""
    if not (math.isfinite(real) and math.isfinite(imaginary)):
        return error("#NUM!")
    suffix = suffix or "i"
    r, i = _number_text(real), _number_text(imaginary)
    if i == "0":
        return r
    part = {"1": "", "-1": "-"}.get(i, i) + suffix
    if r == "0":
        return part
    return r + ("" if part.startswith("-") else "+") + part


def _suffix(*numbers: Complex) -> str | XlError:
    """The suffix of the answer: the arguments' (i or j); both in one call #VALUE!."""
    found = {n[2] for n in numbers} - {""}
    return error("#VALUE!") if len(found) > 1 else (found.pop() if found else "i")


def _of_complex(fn: Callable[[float, float], tuple[float, float] | XlError]) -> Callable[..., Any]:
    """An IM function of one inumber answering a complex number, cell by cell."""

    def one(v: Any) -> Any:
        z = _complex(v)
        if isinstance(z, XlError):
            return z
        out = fn(z[0], z[1])
        return out if isinstance(out, XlError) else complex_text(out[0], out[1], z[2])

    one.__name__ = fn.__name__
    return cells(one)


def _of_complex_number(fn: Callable[[float, float], Any]) -> Callable[..., Any]:
    """An IM function of one inumber answering a number, cell by cell."""

    def one(v: Any) -> Any:
        z = _complex(v)
        return z if isinstance(z, XlError) else fn(z[0], z[1])

    one.__name__ = fn.__name__
    return cells(one)


def _polar(a: float, b: float) -> tuple[float, float]:
    return math.hypot(a, b), math.atan2(b, a)


def _sqrt(a: float, b: float) -> tuple[float, float]:
    r, t = _polar(a, b)
    return math.sqrt(r) * math.cos(t / 2), math.sqrt(r) * math.sin(t / 2)


def _ln(a: float, b: float, base: float = math.e) -> tuple[float, float] | XlError:
    if a == 0 and b == 0:
        return error("#NUM!")
    r, t = _polar(a, b)
    scale = 1.0 if base == math.e else math.log(base)
    return math.log(r) / scale, t / scale


def _exp(a: float, b: float) -> tuple[float, float] | XlError:
    if a > 709:
        return error("#NUM!")
    return math.exp(a) * math.cos(b), math.exp(a) * math.sin(b)


def _argument(a: float, b: float) -> Any:
    return error("#DIV/0!") if a == 0 and b == 0 else math.atan2(b, a)


def _cosh_sinh(b: float) -> tuple[float, float] | XlError:
    return (math.cosh(b), math.sinh(b)) if abs(b) <= 709 else error("#NUM!")


def _sin(a: float, b: float) -> tuple[float, float] | XlError:
    h = _cosh_sinh(b)
    return h if isinstance(h, XlError) else (math.sin(a) * h[0], math.cos(a) * h[1])


def _cos(a: float, b: float) -> tuple[float, float] | XlError:
    h = _cosh_sinh(b)
    return h if isinstance(h, XlError) else (math.cos(a) * h[0], -math.sin(a) * h[1])


def complex_(real_num: Any, i_num: Any, suffix: Any = "i") -> Any:
    """COMPLEX(real_num, i_num, [suffix]): suffix "i" or "j" (lower case; blank is "i"), another
    #VALUE!; a part that is no number #VALUE!."""
    for v in (real_num, i_num, suffix):
        if isinstance(v, XlError):
            return v
    if suffix is EMPTY or suffix is None or suffix == "":
        suffix = "i"
    if suffix not in ("i", "j"):
        return error("#VALUE!")
    parts = []
    for v in (real_num, i_num):
        if isinstance(v, bool | np.bool_):
            return error("#VALUE!")
        if isinstance(v, str):
            return ReasonedError("#VALUE!", "COMPLEX of a part written as text is not computed by benchsheet")
        parts.append(0.0 if v is EMPTY or v is None else float(v))
    return complex_text(parts[0], parts[1], str(suffix))


def _numbers(args: tuple[Any, ...]) -> list[Complex] | XlError:
    """The inumbers of IMSUM/IMPRODUCT's arguments (ranges and arrays cell by cell, blank cells left out)."""
    out: list[Complex] = []
    for arg in args:
        for v in as_grid(arg).flat:
            if v is EMPTY and isinstance(arg, Ranges | np.ndarray):
                continue
            z = _complex(v)
            if isinstance(z, XlError):
                return z
            out.append(z)
    return out


def imsum(*args: Any) -> Any:
    """IMSUM(inumber1, ...): the sum, parts added left to right."""
    zs = _numbers(args)
    if isinstance(zs, XlError):
        return zs
    suffix = _suffix(*zs)
    if isinstance(suffix, XlError):
        return suffix
    a = b = 0.0
    for z in zs:
        a, b = a + z[0], b + z[1]
    return complex_text(a, b, suffix)


def improduct(*args: Any) -> Any:
    """IMPRODUCT(inumber1, ...): the product, (a+bi)(c+di) = (ac-bd) + (ad+bc)i left to right."""
    zs = _numbers(args)
    if isinstance(zs, XlError):
        return zs
    suffix = _suffix(*zs)
    if isinstance(suffix, XlError):
        return suffix
    a, b = 1.0, 0.0
    for c, d, _ in zs:
        a, b = a * c - b * d, a * d + b * c
    return complex_text(a, b, suffix)


def _two(fn: Callable[[float, float, float, float], tuple[float, float] | XlError]) -> Callable[..., Any]:
    def one(x: Any, y: Any) -> Any:
        z, w = _complex(x), _complex(y)
        for v in (z, w):
            if isinstance(v, XlError):
                return v
        assert not isinstance(z, XlError) and not isinstance(w, XlError)
        suffix = _suffix(z, w)
        if isinstance(suffix, XlError):
            return suffix
        out = fn(z[0], z[1], w[0], w[1])
        return out if isinstance(out, XlError) else complex_text(out[0], out[1], suffix)

    one.__name__ = fn.__name__
    return cells(one)


def _divide(a: float, b: float, c: float, d: float) -> tuple[float, float] | XlError:
    n = c * c + d * d
    return error("#NUM!") if n == 0 else ((a * c + b * d) / n, (b * c - a * d) / n)


def impower(inumber: Any, number: Any) -> Any:
    """IMPOWER(inumber, number): in polar form, r^n (cos n t + i sin n t) (Microsoft's example
    IMPOWER("2+3i",3) is "-46+9.00000000000001i": the polar form's digits)."""

    def one(v: Any, n: Any) -> Any:
        z = _complex(v)
        if isinstance(z, XlError):
            return z
        if isinstance(n, XlError):
            return n
        if isinstance(n, str | bool | np.bool_):
            return error("#VALUE!")
        p = 0.0 if n is EMPTY or n is None else float(n)
        r, t = _polar(z[0], z[1])
        if r == 0:
            return error("#NUM!") if p <= 0 else "0"
        try:
            size = r**p
        except OverflowError:
            return error("#NUM!")
        return complex_text(size * math.cos(p * t), size * math.sin(p * t), z[2])

    return cells(one)(inumber, number)


_COMPLEX: dict[str, Callable[..., Any]] = {
    "COMPLEX": cells(complex_),
    "IMSUM": imsum,
    "IMPRODUCT": improduct,
    "IMSUB": _two(lambda a, b, c, d: (a - c, b - d)),
    "IMDIV": _two(_divide),
    "IMPOWER": impower,
    "IMABS": _of_complex_number(math.hypot),
    "IMREAL": _of_complex_number(lambda a, b: a),
    "IMAGINARY": _of_complex_number(lambda a, b: b),
    "IMARGUMENT": _of_complex_number(_argument),
    "IMCONJUGATE": _of_complex(lambda a, b: (a, -b)),
    "IMSQRT": _of_complex(_sqrt),
    "IMEXP": _of_complex(_exp),
    "IMLN": _of_complex(_ln),
    "IMLOG10": _of_complex(lambda a, b: _ln(a, b, 10.0)),
    "IMLOG2": _of_complex(lambda a, b: _ln(a, b, 2.0)),
    "IMSIN": _of_complex(_sin),
    "IMCOS": _of_complex(_cos),
}

# issue 41 item 7: formulas' own (scipy.special), checked against Microsoft's pages. BESSELI/J/K/Y are not:
# Excel's answers are approximations that the pages show differing from the exact values in the 7th to 10th
# digit (BESSELJ(1.9,2): the page 0.329925829, exact 0.3299257277), so no exact computation matches Excel
_ERF = "ERF ERFC ERF.PRECISE ERFC.PRECISE"
FUNCTIONS: dict[str, Entry] = {**_conversions(), **formulas_own(f"CONVERT {_ERF}"), **_COMPLEX}
