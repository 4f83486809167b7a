"""What counts as a number, and as a result, wherever a value enters benchsheet.

One rule for every way in (official files, the user cache, the runs file, loadgen logs, cell
arguments): a number is written as Excel reads one, in ASCII digits. Python's ``float`` also
reads ``"1_000"``, full-width ``"１２"`` and Arabic-Indic ``"١٢"``; Excel reads none of them as a
number, so neither does benchsheet. A result is a finite number within the range a measurement
can have: a zero, a denormal (5e-324 passes "> 0") or an absurd value is no measurement.
"""

from __future__ import annotations

import re

from benchsheet.errors import MAX_RESULT, MIN_RESULT

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_WHOLE = re.compile(r"\d+", re.ASCII)


def number_text(text: str) -> float | None:
    """The number ``text`` spells as Excel would read it (ASCII digits, optional sign, point and exponent)."""
    t = text.strip()
    return float(t) if _NUMBER.fullmatch(t) else None


def whole_text(text: str) -> int | None:
    """A whole number in ASCII digits ("8"), else None ("٨" and "1_0" are not)."""
    t = text.strip()
    return int(t) if _WHOLE.fullmatch(t) else None


def is_result(value: object) -> bool:
    """A measurement: a finite int or float (not a bool) from ``MIN_RESULT`` to ``MAX_RESULT``."""
    # compared, not converted: a 400-digit int compares exactly, and NaN and infinities fail the range
    return isinstance(value, int | float) and not isinstance(value, bool) and MIN_RESULT <= value <= MAX_RESULT


RESULT_RANGE = f"a number > 0 (at least {MIN_RESULT:g}) and at most {MAX_RESULT:g}"


_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]+")


def one_line(text: str, limit: int = 200) -> str:
    """Text from outside (a server's status line, a header) safe to print: escape sequences and control
    characters removed, on one line, at most ``limit`` characters."""
    clean = " ".join(_CONTROLS.sub(" ", _ESCAPES.sub("", text)).split())
    return clean if len(clean) <= limit else clean[: limit - 3] + "..."
