"""Excel's Engineering functions the engine computes itself, where the ``formulas`` package answers
otherwise than Excel, each as Microsoft's function reference states it and checked against the
values Excel cached in the corpus (tests/corpus); CONVERT is formulas' own (``FORMULAS``).

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
from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.backend import XlError, error
from excelcalc.lib._common import Entry, cells, formulas_own

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


FUNCTIONS: dict[str, Entry] = {**_conversions(), **formulas_own("CONVERT")}
