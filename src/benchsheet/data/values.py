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

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""Characters a terminal acts on or that reorder what it shows: C0 (ESC, BEL, tab, newline...), DEL, C1
(CSI), and the invisible and bidirectional format characters (U+202E RIGHT-TO-LEFT OVERRIDE). No name in
the official files holds one."""
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


def control_in(text: str) -> str | None:
    """Why ``text`` is refused as a name (it holds a ``CONTROL`` character), or None."""
    m = CONTROL.search(text)
    if m is None:
        return None
    return f"holds the control character U+{ord(m.group()):04X}; refused (it would reach a terminal raw)"


def escaped(text: str, keep: str = "") -> str:
    """``text`` with each ``CONTROL`` character (but those in ``keep``) written as Python writes it
    (``\\x1b``, ``\\u202e``): what benchsheet prints of text from outside."""
    return CONTROL.sub(lambda m: m.group() if m.group() in keep else m.group().encode("unicode_escape").decode(), text)
