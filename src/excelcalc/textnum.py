"""Text that Excel (en-US) reads as a number, read the same way by every shell and the engine.

Excel converts text to a number wherever a number is needed (``="$5"*1`` is 5), and VALUE
does it on purpose: "Text can be in any of the constant number, date, or time formats
recognized by Microsoft Excel" (Microsoft's VALUE page: ``VALUE("$1,000")`` is 1000,
``VALUE("16:48:00")-VALUE("12:00:00")`` is 0.2). Read here, for the en-US locale: a sign,
a dollar sign, thousands commas in groups of three, a decimal point, an exponent, a trailing
percent sign (``"50%"`` is 0.5), a negative number in parentheses (``"($5)"`` is -5), and a
time of day (``"12:30"``, ``"4:48 PM"``) as its fraction of a day. A decimal comma (``"2,50"``)
is no en-US number: it is not read as 250. Dates are left to the engine's date reader.
"""

from __future__ import annotations

import math
import re

_NUMBER = re.compile(
    r"""^(?P<open>\()?\s*(?P<sign1>[+-])?\s*(?P<cur1>\$)?\s*(?P<sign2>[+-])?\s*
    (?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d*)?|\d+(?:\.\d*)?|\.\d+)(?P<exp>[eE][+-]?\d+)?
    \s*(?P<cur2>\$)?\s*(?P<pct>%)?\s*(?P<close>\))?$""",
    re.VERBOSE | re.ASCII,  # ASCII digits only: Excel reads no "１２" or "١٢" as a number
)
_TIME = re.compile(r"^(?P<h>\d{1,2}):(?P<m>\d{1,2})(?::(?P<s>\d{1,2}(?:\.\d*)?))?\s*(?P<ampm>[AaPp][Mm]?)?$", re.ASCII)


def text_number(text: str) -> float | None:
    """The number Excel (en-US) reads in ``text``, or None when it reads none (or no date:
    dates are the engine's)."""
    s = text.strip()
    m = _NUMBER.match(s)
    if m is not None:
        return _number(m)
    t = _TIME.match(s)
    if t is not None:
        return _time(t)
    return None


def text_time(text: str) -> float | None:
    """The fraction of a day Excel (en-US) reads in ``text`` written as a time of day alone
    (``"18:45"``, ``"6:45 PM"``), or None for any other text (a number, a date)."""
    t = _TIME.match(text.strip())
    return None if t is None else _time(t)


def _number(m: re.Match[str]) -> float | None:
    if bool(m.group("open")) != bool(m.group("close")):
        return None
    signs = [g for g in (m.group("sign1"), m.group("sign2")) if g]
    if len(signs) > 1 or (m.group("cur1") and m.group("cur2")):
        return None
    if m.group("open") and signs:  # "(-5)" is no number
        return None
    value = float(m.group("digits").replace(",", "") + (m.group("exp") or ""))
    if m.group("pct"):
        value /= 100
    if m.group("open") or signs == ["-"]:
        value = -value
    return value if math.isfinite(value) else None


def _time(t: re.Match[str]) -> float | None:
    h, minutes = int(t.group("h")), int(t.group("m"))
    seconds = float(t.group("s") or 0)
    ampm = (t.group("ampm") or "").upper()[:1]
    if ampm:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ampm == "P" else 0)
    if minutes > 59 or seconds >= 60 or h > 23:
        return None
    return (h * 3600 + minutes * 60 + seconds) / 86400
