"""Excel's Text functions the engine computes itself, and its ``&`` operator; the others of the
group it takes from formulas as they are (``FORMULAS``), checked against Excel.

* TEXT with number formats of up to four sections; VALUE of text as Excel (en-US) reads it.
* DOLLAR (formulas has none), FIXED and TEXT of the number as Excel holds it (15 digits).
* REPT refuses a text longer than Excel's 32,767 characters before making it.
* The text arguments of the text functions (LEFT, LEN, FIND...) and of ``&``: a number written as
  Excel writes it (15 significant digits: ``0.1+0.2`` is "0.3"), TRUE/FALSE in capitals.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import lru_cache
from typing import Any

import numpy as np

from excelcalc.args import is_number
from excelcalc.backend import (
    COMPILING,
    EMPTY,
    Array,
    FunctionTable,
    Ranges,
    XlError,
    as_grid,
    cellwise,
    error,
    replace_empty,
    wrap_ufunc,
)
from excelcalc.formula_text import MAX_TEXT, too_long
from excelcalc.lib._common import Entry, Wraps, cells, formulas_own, lazy, number, scalar, whole_number
from excelcalc.lib.datetime import date_text, is_date_section
from excelcalc.lib.sheets import current
from excelcalc.textnum import text_number
from excelcalc.values import ReasonedError, plain

__all__ = ["FUNCTIONS", "OPERATORS", "as_text"]


# ------------------------------------------------------------------------ numbers as text


def as_text(v: Any) -> Any:
    """A value where Excel needs text: a number as Excel writes it, at most 15 significant digits
    (``0.1+0.2`` is "0.3"; formulas wrote Python's 17); TRUE/FALSE in capitals; other values as
    they are. A number Excel writes in a form of its own (1E+20, 1E-05 as "0.00001") answers an
    error naming it."""
    if isinstance(v, bool | np.bool_):
        return "TRUE" if v else "FALSE"
    if not is_number(v):
        return v
    text = "%.15g" % (float(v) or 0.0)  # -0.0 is "0"
    if "e" in text or not math.isfinite(float(v)):
        return ReasonedError("#VALUE!", f"the number {text.upper()} as text is not computed by benchsheet")
    return text


def _texts(v: Any) -> Any:
    """``as_text`` over an argument: a single value, or each cell of a range or array."""
    if isinstance(v, Ranges | np.ndarray):
        grid = as_grid(v)
        return cellwise(as_text, grid) if grid.size else v
    return as_text(v)


def textual(original: Callable[..., Any], positions: frozenset[int] | None) -> Callable[..., Any]:
    """``original`` with its text arguments (at ``positions``; None: all) written as Excel writes
    numbers as text."""

    def run(*args: Any) -> Any:
        if any(a is COMPILING for a in args):  # ``in`` compares arrays: LEN({"ab";"c"}) failed
            return original(*args)
        return original(*(_texts(a) if positions is None or i in positions else a for i, a in enumerate(args)))

    run.__name__ = getattr(original, "__name__", "textual")
    return run


# Excel's text functions: the positions (from 0) of their text arguments (Microsoft's pages)
TEXT_ARGUMENTS: dict[str, frozenset[int] | None] = {
    "CONCATENATE": None,
    "EXACT": frozenset({0, 1}),
    "FIND": frozenset({0, 1}),
    "FINDB": frozenset({0, 1}),
    "LEFT": frozenset({0}),
    "LEFTB": frozenset({0}),
    "LEN": frozenset({0}),
    "LENB": frozenset({0}),
    "LOWER": frozenset({0}),
    "MID": frozenset({0}),
    "MIDB": frozenset({0}),
    "PROPER": frozenset({0}),
    "REPLACE": frozenset({0, 3}),
    "REPT": frozenset({0}),
    "RIGHT": frozenset({0}),
    "RIGHTB": frozenset({0}),
    "SEARCH": frozenset({0, 1}),
    "SEARCHB": frozenset({0, 1}),
    "SUBSTITUTE": frozenset({0, 1, 2}),
    "TRIM": frozenset({0}),
    "UPPER": frozenset({0}),
}


def _joined(x: Any, y: Any) -> Any:
    x, y = as_text(x), as_text(y)
    if isinstance(x, XlError):
        return x
    if isinstance(y, XlError):
        return y
    if len(x) + len(y) > MAX_TEXT:
        return too_long_text(len(x) + len(y))
    return x + y


# ------------------------------------------------------------------- texts of 32,767 at most


@lru_cache(maxsize=1024)
def too_long_text(n: int) -> ReasonedError:
    """The #VALUE! of a text of ``n`` characters, more than Excel holds (one value for many cells)."""
    return ReasonedError(*too_long(n))


def _cells(v: Any) -> list[Any]:
    """The values of an argument: a range's or an array's cells, or the one value."""
    if isinstance(v, Ranges | np.ndarray):
        return as_grid(v).ravel().tolist()
    return [v]


def _longest(v: Any) -> int:
    """The longest text among an argument's values (a number written as text: at most 20)."""
    return max((len(x) if type(x) is str else 20 for x in _cells(v) if not isinstance(x, XlError)), default=0)


MAX_ARRAY_TEXT = 50_000_000  # characters of text in one array answer (50 MB and more): never more


def _cells_of(args: tuple[Any, ...]) -> int:
    """How many cells an answer computed cell by cell over ``args`` has (their shapes broadcast)."""
    rows = cols = 1
    for a in args:
        if isinstance(a, Ranges | np.ndarray):
            grid = as_grid(a)
            rows, cols = max(rows, grid.shape[0]), max(cols, grid.shape[1])
    return rows * cols


def too_much_text(args: tuple[Any, ...], longest: int) -> ReasonedError | None:
    """An array answer of texts of up to ``longest`` characters each that would hold more than
    ``MAX_ARRAY_TEXT`` in all (``ROW(A2:A1000000)&REPT("a",32000)`` grew to 23.6 GB): refused
    before it is made, with the reason. Reckoned from the longest text times the cells (an
    array of texts of many lengths may be refused a little before it reaches the limit)."""
    cells = _cells_of(args)
    if cells < 2 or cells * longest <= MAX_ARRAY_TEXT:
        return None
    why = (
        f"an array of {cells:,} texts of up to {longest:,} characters ({cells * longest:,} in all) "
        f"is more than benchsheet makes in one array ({MAX_ARRAY_TEXT:,})"
    )
    return ReasonedError("#VALUE!", why)


def _text_of(v: Any) -> str:
    """One value as text ("" for an error or a blank)."""
    if isinstance(v, XlError) or v is EMPTY or v is None:
        return ""
    shown = as_text(v)
    return str(shown) if isinstance(shown, str) and not isinstance(shown, XlError) else ""


def _text_length(v: Any) -> int:
    return len(_text_of(v))


def bounded(
    original: Callable[..., Any], bound: Callable[..., int], length: Callable[..., int], name: str
) -> Callable[..., Any]:
    """``original``, a text function computed cell by cell over arrays, refusing as Excel does a
    text of more than 32,767 characters before it is made (``SUBSTITUTE(REPT("a",32767),"a",
    REPT("b",32767))`` would make a gigabyte). ``bound(*args)``, the most characters any of its
    answers can have, is reckoned from whole arguments; only when it is over Excel's limit is each
    cell's ``length(*values)`` (the exact length of its answer) reckoned before making it."""

    def one(*values: Any) -> Any:
        n = length(*values)
        if n > MAX_TEXT:
            return too_long_text(n)
        return scalar(original(*values))

    each = wrap_ufunc(one, input_parser=lambda *a: a, check_nan=False, **_BLANK_IS_EMPTY_TEXT)

    def run(*args: Any) -> Any:
        if any(a is COMPILING for a in args):
            return original(*args)
        most = bound(*args)
        refused = too_much_text(args, min(most, MAX_TEXT))
        if refused is not None:
            return refused
        return original(*args) if most <= MAX_TEXT else each(*args)

    run.__name__ = name
    return run


def _substitute_bound(text: Any, old: Any, new: Any, instance: Any = None) -> int:
    longest, longest_new = _longest(text), _longest(new)
    if instance is not None:
        return longest + longest_new
    return longest * max(1, longest_new)  # each character replaced at most once


def _substitute_length(text: Any, old: Any, new: Any, instance: Any = None) -> int:
    t, o, n = _text_of(text), _text_of(old), _text_of(new)
    found = t.count(o) if o else 0
    if instance is not None:
        try:
            found = 1 if 1 <= number(instance) <= found else 0
        except (TypeError, ValueError):
            return 0  # SUBSTITUTE answers #VALUE!
    return len(t) + found * (len(n) - len(o))


def _replace_bound(old: Any, start: Any, count: Any, new: Any) -> int:
    return _longest(old) + _longest(new)


def _replace_length(old: Any, start: Any, count: Any, new: Any) -> int:
    try:
        i = int(number(start or 0)) - 1
        j = i + int(number(count or 0))
    except (TypeError, ValueError):
        return 0
    t = _text_length(old)
    return max(0, min(i, t)) + _text_length(new) + max(0, t - j) if 0 <= i <= j else 0


def _concatenate_bound(*args: Any) -> int:
    return sum(_longest(a) for a in args)


def _concatenate_length(*values: Any) -> int:
    return sum(_text_length(v) for v in values)


def joined(original: Callable[..., Any], name: str) -> Callable[..., Any]:
    """CONCAT or TEXTJOIN (of all their arguments' cells) refusing a text longer than Excel holds
    before making it (``CONCAT(A:A)`` made 8,000,000 characters): the texts it joins, and
    TEXTJOIN's delimiter between them, counted first."""
    textjoin = name.endswith("TEXTJOIN")

    def run(*args: Any) -> Any:
        if any(a is COMPILING for a in args):
            return original(*args)
        parts = args[2:] if textjoin else args
        lengths = [_text_length(v) for a in parts for v in _cells(a) if v is not EMPTY]
        n = sum(lengths)
        if textjoin and len(args) > 2:
            skip = bool(plain_bool(args[1]))
            kept = sum(1 for x in lengths if x) if skip else len(lengths)
            delimiter = _cells(args[0])[0] if _cells(args[0]) else ""
            n += max(0, kept - 1) * _text_length(delimiter)
        if n > MAX_TEXT:
            return too_long_text(n)
        return original(*args)

    run.__name__ = name
    return run


def plain_bool(v: Any) -> bool:
    """TEXTJOIN's ignore_empty as a truth value (an error or a text: False, the count is a floor)."""
    one = scalar(v)
    return bool(one) if isinstance(one, bool | int | float) and not isinstance(one, XlError) else False


# ------------------------------------------------------------------------------------ TEXT

_LITERAL = r'(?:"[^"]*"|\\.|[$\-+()/: ]|_.)'


_SIMPLE_SECTION = re.compile(
    rf"^(?P<pre>{_LITERAL}*)(?P<int>[0#?,]*)(?:\.(?P<frac>[0#?]*))?(?P<scale>,*)(?P<post>(?:{_LITERAL}|%)*)$"
)


_SECTIONS = re.compile(r'((?:"[^"]*"|\\.|[^;"\\])*)(;|$)')


def _sections(code: str) -> list[str]:
    out = [m.group(1) for m in _SECTIONS.finditer(code) if m.group(0) or m.start() < len(code)]
    return out[:4] or [""]


def _literal(text: str) -> str:
    return re.sub(r'"([^"]*)"|\\(.)|_(.)', lambda m: m.group(1) or m.group(2) or (" " if m.group(3) else ""), text)


def _number_text(value: float, section: str) -> str | ReasonedError | None:
    """``value`` (already made positive for a negative section) formatted by a section of digit
    placeholders (0 # ?), thousands commas, a decimal point, percent and literal text; None for
    any other section; a text longer than Excel holds #VALUE!."""
    m = _SIMPLE_SECTION.match(section)
    if m is None or not re.search(r"[0#?]", m.group("int") + (m.group("frac") or "")):
        return None
    int_code = m.group("int")
    scale = len(int_code) - len(int_code.rstrip(",")) + len(m.group("scale"))  # trailing commas: 1000s
    int_code = int_code.rstrip(",")
    grouped = "," in int_code
    int_places = int_code.replace(",", "")
    frac_places = m.group("frac") or ""
    percent = (m.group("pre") + m.group("post")).count("%")
    n = held(abs(value)).scaleb(2 * percent - 3 * scale)  # 15 digits, then scaled exactly
    digits = max(n.adjusted() + 1, 0) + len(frac_places) + 1  # those of the text, and one to round
    if digits > MAX_TEXT:  # TEXT(3E30,"0%%%...") answered Python's decimal.InvalidOperation
        return ReasonedError(*too_long(digits))
    wide = Context(prec=max(digits, _WIDE.prec))
    rounded = n.quantize(Decimal(1).scaleb(-len(frac_places)), rounding=ROUND_HALF_UP, context=wide)
    whole, _, frac = f"{rounded:f}".partition(".")
    whole = whole.lstrip("0")
    pad = [("0" if p == "0" else " " if p == "?" else "") for p in int_places[: max(0, len(int_places) - len(whole))]]
    chars = [*pad, *whole]
    if grouped:
        out = []
        for k, ch in enumerate(chars):
            left = len(chars) - k
            out.append(ch)
            if left > 1 and (left - 1) % 3 == 0 and ch:
                out.append(" " if ch == " " else ",")
        chars = out
    frac_chars = list(frac)
    for k in range(len(frac_places) - 1, -1, -1):
        if frac_places[k] == "0" or frac_chars[k] != "0":
            break
        frac_chars[k] = " " if frac_places[k] == "?" else ""
    body = "".join(chars) + ("." + "".join(frac_chars) if m.group("frac") is not None else "")
    sign = "-" if value < 0 and float(rounded) != 0 else ""
    return sign + _literal(m.group("pre")).replace("%", "") + body + _literal(m.group("post")).replace("%", "%")


def text(original: Callable[..., Any]) -> Callable[..., Any]:
    """TEXT(value, format_text) for number formats of up to four sections (Microsoft's "Number format
    codes" page: "positive; negative; zero; text"): a negative number in the second section is
    shown without its minus (``TEXT(-1,"0.0;(0.0)")`` is "(1.0)"), and the ``?`` placeholder pads
    with a space. formulas added a minus to the second section and printed ``?`` as is. A format
    with ``?`` this cannot read answers #VALUE! naming TEXT, never a different text."""

    def one(value: Any, format_code: Any) -> Any:
        if isinstance(value, XlError):
            return value
        if isinstance(format_code, XlError):
            return format_code
        code = "" if format_code is EMPTY else str(format_code)
        dated = _as_date(value, code)
        if dated is not None:
            return dated
        if isinstance(value, bool) or "[" in code:
            return _call(original, value, format_code)
        try:
            x = number(value) if value is not EMPTY else 0.0
        except (TypeError, ValueError):
            return _call(original, value, format_code)
        sections = _sections(code)
        section, shown = sections[0], x
        if x < 0 and len(sections) > 1:
            section, shown = sections[1], -x
        elif x == 0 and len(sections) > 2:
            section = sections[2]
        out = _number_text(shown, section)
        if out is not None:
            return out
        if "?" in section:
            return ReasonedError("#VALUE!", f"TEXT's format {code[:40]!r} is not computed by benchsheet")
        return _call(original, shown if section is not sections[0] else value, section)

    def run(value: Any, format_code: Any) -> Any:
        v, c = scalar(value), scalar(format_code)
        if isinstance(v, np.ndarray) or isinstance(c, np.ndarray):
            return np.vectorize(one, otypes=[object])(as_grid(value), as_grid(format_code)).view(Array)
        return one(v, c)

    run.__name__ = "TEXT"
    return run


def _as_date(value: Any, code: str) -> Any:
    """TEXT of a number by a date or time section (``datetime.date_text``, in the workbook's date
    system), or None where the section the number takes shows no date. formulas answered #VALUE!
    for a time just before midnight (even ``TEXT(x,"yyyy")``), for serials 0 and 60 and for [h],
    and counted from 1900 in a 1904 workbook."""
    sections = _sections(code)
    if isinstance(value, bool) or not any(is_date_section(s) for s in sections):
        return None
    date1904 = bool(getattr(current(), "date1904", False))
    try:
        x = number(value) if value is not EMPTY else 0.0
    except (TypeError, ValueError):
        if date1904:
            why = "TEXT of a date written as text in a 1904 workbook is not computed by benchsheet"
            return ReasonedError("#VALUE!", why)
        return None
    section = sections[0]
    if x < 0 and len(sections) > 1:
        section = sections[1]
    elif x == 0 and len(sections) > 2:
        section = sections[2]
    if not is_date_section(section):
        return None
    return date_text(x, section, date1904)


def _call(original: Callable[..., Any], *args: Any) -> Any:
    return scalar(original(*args))


# ------------------------------------------------------------------------------------ VALUE


def value(original: Callable[..., Any]) -> Callable[..., Any]:
    """VALUE(text): a number as Excel reads it (``textnum``: ``VALUE("$1,000")`` is 1000 and a time
    of day is its fraction, ``VALUE("12:30")`` 0.520833..., where formulas added January 1 of the
    current year); dates as formulas reads them."""

    def one(v: Any) -> Any:
        if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY:
            n = text_number(v)
            if n is not None:
                return n
        return _call(original, v)

    def run(v: Any) -> Any:
        x = scalar(v)
        if isinstance(x, np.ndarray):
            return cellwise(one, x)
        return one(x)

    run.__name__ = "VALUE"
    return run


# ------------------------------------------------------------------------------------ DOLLAR


MAX_DOLLAR = 1e15  # beyond 15 digits Excel shows digits it does not keep: not computed here
MAX_DECIMALS = 127  # FIXED's and DOLLAR's decimals (Microsoft's FIXED page: "can be as large as 127")
_WIDE = Context(prec=440)  # 1E308 and 127 decimals (436 digits): every digit kept while rounding


def held(x: float) -> Decimal:
    """``x`` as Excel holds it, in decimal: its 15 significant digits (Microsoft's FIXED page:
    "Numbers in Microsoft Excel can never have more than 15 significant digits"), so 2.675 is
    2.675 (its double is 2.67499999999999982236431605997495353221893310546875) and 0.1+0.2 is 0.3."""
    return Decimal(f"{x:.15g}")


def rounded_to(x: float, places: int) -> Decimal:
    """``|x|`` as Excel holds it rounded half away from zero to ``places`` decimals (negative:
    left of the decimal point, as ROUND): 2.675 to 2 is 2.68, 1E23 to 0 is 1E23 exactly."""
    exact = abs(held(x))
    if places >= 0:
        return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=_WIDE)
    unit = Decimal(1).scaleb(-places)
    return (exact / unit).quantize(Decimal(1), rounding=ROUND_HALF_UP, context=_WIDE) * unit


def _amount(value: Any, decimals: Any) -> tuple[float, int] | XlError:
    """DOLLAR's and FIXED's number and decimals (a blank is 0, text that reads as a number that
    number); decimals beyond 127 #VALUE!; an error among them as it is."""
    x, d = whole_number(value), whole_number(EMPTY if decimals is None else decimals)
    for v in (x, d):
        if isinstance(v, XlError):
            return v
    assert isinstance(x, float) and isinstance(d, float)
    if not math.isfinite(x) or not math.isfinite(d) or d > MAX_DECIMALS:
        return error("#VALUE!")
    return x, int(d)


def dollar(value: Any, decimals: Any = 2.0) -> Any:
    """DOLLAR(number, [decimals]) (Microsoft's DOLLAR page): the number rounded to ``decimals``
    (default 2; negative rounds left of the decimal point) in the format ``$#,##0.00_);($#,##0.00)``:
    a negative number in parentheses. Excel's cached values add: a blank cell is $0.00, TRUE in a
    cell $1.00, text that reads as a number ("1", "$1.00") that number, other text #VALUE!."""
    got = _amount(value, decimals)
    if isinstance(got, XlError):
        return got
    x, places = got
    if abs(x) >= MAX_DOLLAR:
        return ReasonedError("#VALUE!", "DOLLAR of a number of more than 15 digits is not computed by benchsheet")
    shown_value = rounded_to(x, places)
    if x < 0 and shown_value == 0:
        return ReasonedError("#VALUE!", "DOLLAR of a negative number that rounds to 0 is not computed by benchsheet")
    shown = f"${shown_value:,.{max(places, 0)}f}"
    return f"({shown})" if x < 0 else shown


def fixed(original: Callable[..., Any]) -> Callable[..., Any]:
    """FIXED(number, [decimals], [no_commas]) (Microsoft's FIXED page): the number as Excel holds it,
    15 significant digits, rounded to ``decimals`` (default 2, at most 127, negative left of the
    decimal point) and written with thousands commas unless no_commas is TRUE; digits past the 15th
    are zeros (``FIXED(1E23,0)`` is "100,000,000,000,000,000,000,000"). formulas rounded the binary
    double (``FIXED(2.675,2)`` "2.67", Excel "2.68") and wrote its 17 digits. A negative number
    that rounds to 0 goes to formulas as before."""

    def one(value: Any, decimals: Any = 2.0, no_commas: Any = False) -> Any:
        got = _amount(value, decimals)
        if isinstance(got, XlError):
            return got
        if isinstance(no_commas, XlError):
            return no_commas
        x, places = got
        shown = rounded_to(x, places)
        if x < 0 and shown == 0:
            return _call(original, value, decimals, no_commas)
        grouping = "" if plain_bool(no_commas) else ","
        return ("-" if x < 0 else "") + f"{shown:{grouping}.{max(places, 0)}f}"

    run = cells(one)
    run.__name__ = "FIXED"
    return run


# ------------------------------------------------------------------------------------ SEARCH


def _pattern(find_text: str) -> re.Pattern[str]:
    """SEARCH's find_text as a pattern (Microsoft's SEARCH page: "the question mark (?) matches any
    single character; an asterisk (*) matches any sequence of characters. If you want to find an
    actual question mark or asterisk, type a tilde (~) before the character"); ``~~`` is a tilde,
    a tilde before any other character is itself."""
    out, i = [], 0
    while i < len(find_text):
        ch = find_text[i]
        if ch == "~" and i + 1 < len(find_text) and find_text[i + 1] in "*?~":
            out.append(re.escape(find_text[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "*" else "." if ch == "?" else re.escape(ch))
        i += 1
    return re.compile("".join(out), re.IGNORECASE | re.DOTALL)


def search(original: Callable[..., Any]) -> Callable[..., Any]:
    """SEARCH(find_text, within_text, [start_num]) with Excel's wildcards and the tilde before them
    (``_pattern``); formulas looked for ``*``, ``?`` and ``~`` as they are (SEARCH("~*","a*b") was
    #VALUE!, Excel 2). Without them, and for arrays, formulas' own."""

    def run(find_text: Any, within_text: Any, start_num: Any = None) -> Any:
        find, within = scalar(find_text), scalar(within_text)
        if not isinstance(find, str) or isinstance(find, XlError) or not any(ch in find for ch in "*?~"):
            return (
                original(find_text, within_text) if start_num is None else original(find_text, within_text, start_num)
            )
        if isinstance(within, XlError):
            return within
        if isinstance(within, np.ndarray) or isinstance(scalar(start_num), np.ndarray):
            return (
                original(find_text, within_text) if start_num is None else original(find_text, within_text, start_num)
            )
        text = "" if within is EMPTY else str(within)
        start = whole_number(1.0 if start_num is None else scalar(start_num))
        if isinstance(start, XlError):
            return start
        if not 1 <= start <= len(text) + 1:
            return error("#VALUE!")
        found = _pattern(find).search(text, int(start) - 1)
        return found.start() + 1 if found is not None else error("#VALUE!")

    run.__name__ = "SEARCH"
    return run


# ------------------------------------------------------------------------------------ UNICHAR


def unichar(original: Callable[..., Any]) -> Callable[..., Any]:
    """UNICHAR(number) as formulas computes it, but of a surrogate (U+D800 to U+DFFF, half of a
    character) #N/A: Microsoft's UNICHAR page, "If numbers are partial surrogates and data types
    aren't valid, UNICHAR returns the #N/A error value" (formulas answered the half character,
    which no file can hold)."""

    def one(number: Any) -> Any:
        n = scalar(number)
        if is_number(n) and 0xD800 <= math.trunc(float(n)) <= 0xDFFF:
            return ReasonedError("#N/A", f"UNICHAR({math.trunc(float(n))}) is half of a character (a surrogate)")
        return original(number)

    one.__name__ = "UNICHAR"
    return one


# ------------------------------------------------------------------------------------ REPT


def _bounded_rept(excel_rept: Callable[[], Any]) -> Any:
    """REPT that refuses, as Excel does, a text longer than 32,767 characters before making it
    (``REPT("a",1000000000)`` would need a gigabyte), and a negative number_times (Excel's #VALUE!;
    formulas answered "")."""

    def bounded(text: Any, times: Any) -> Any:
        once = scalar(times)
        if is_number(once) and float(once) <= -1:  # truncated, as number_times is: -0.5 is 0
            return ReasonedError("#VALUE!", f"REPT's number_times is negative ({float(once):g})")

        def values(v: Any) -> list[Any]:
            v = plain(v)
            return [x for row in v for x in row] if isinstance(v, list) else [v]

        width = max((len(str(t)) for t in values(text) if not isinstance(t, XlError)), default=0)
        count = 0.0
        for n in values(times):
            if isinstance(n, int | float) and not isinstance(n, bool):
                count = max(count, float(n))
        if width and count * width > MAX_TEXT:
            return ReasonedError(*too_long(int(min(count * width, 1e18))))
        refused = too_much_text((text, times), int(count * width))
        return refused if refused is not None else excel_rept()(text, times)

    bounded.__name__ = "REPT"
    return bounded


def _rept(table: FunctionTable) -> Callable[..., Any]:
    return textual(_bounded_rept(lambda: table.excel("REPT")), TEXT_ARGUMENTS["REPT"])


def numbervalue(original: Callable[..., Any]) -> Callable[..., Any]:
    """NUMBERVALUE(text, [decimal_separator], [group_separator]) as formulas computes it, but as
    Microsoft's NUMBERVALUE page states: "If an empty string ("") is specified as the Text argument,
    the result is 0" and "Empty spaces in the Text argument are ignored, even in the middle of the
    argument" (" 3 000 " is 3000); formulas answered #VALUE! for both."""

    def one(text: Any) -> Any:
        if isinstance(text, str) and not isinstance(text, XlError) and text is not EMPTY:
            return re.sub(r"\s+", "", text)
        return text

    def run(text: Any, *separators: Any) -> Any:
        t = scalar(text)
        if isinstance(t, np.ndarray):
            return original(cellwise(one, as_grid(text)), *separators)
        t = one(t)
        if t == "" and not isinstance(t, XlError) and t is not EMPTY:
            return 0.0
        return original(t, *separators)

    run.__name__ = "NUMBERVALUE"
    return run


def _with_text(name: str) -> Wraps:
    """formulas' own ``name`` reading its text arguments as Excel writes numbers as text; those that
    make a longer text than their arguments refuse one longer than Excel holds before making it."""
    limits = _LENGTHS.get(name)
    if limits is None:
        return Wraps(lambda table: textual(table.excel(name), TEXT_ARGUMENTS[name]))
    bound, length = limits
    return Wraps(lambda table: textual(bounded(table.excel(name), bound, length, name), TEXT_ARGUMENTS[name]))


_LENGTHS: dict[str, tuple[Callable[..., int], Callable[..., int]]] = {
    "CONCATENATE": (_concatenate_bound, _concatenate_length),
    "SUBSTITUTE": (_substitute_bound, _substitute_length),
    "REPLACE": (_replace_bound, _replace_length),
}


def _joining(name: str) -> Wraps:
    return Wraps(lambda table: joined(table.excel(name), name))


FUNCTIONS: dict[str, Entry] = {
    "TEXT": Wraps(lambda table: text(table.excel("TEXT"))),
    "VALUE": Wraps(lambda table: value(table.excel("VALUE"))),
    "DOLLAR": cells(dollar),
    **{name: _with_text(name) for name in TEXT_ARGUMENTS},
    "REPT": Wraps(_rept),
    "SEARCH": Wraps(lambda table: textual(search(table.excel("SEARCH")), TEXT_ARGUMENTS["SEARCH"])),
    "UNICHAR": Wraps(lambda table: unichar(lazy(table, "UNICHAR"))),
    "_XLFN.UNICHAR": Wraps(lambda table: unichar(lazy(table, "_XLFN.UNICHAR"))),
    **formulas_own("UNICODE _XLFN.UNICODE"),
    "FIXED": Wraps(lambda table: fixed(lazy(table, "FIXED"))),
    **formulas_own("CHAR CLEAN CODE T"),
    "NUMBERVALUE": Wraps(lambda table: numbervalue(lazy(table, "NUMBERVALUE"))),
    "_XLFN.NUMBERVALUE": Wraps(lambda table: numbervalue(lazy(table, "_XLFN.NUMBERVALUE"))),
    **{name: _joining(name) for name in ("TEXTJOIN", "_XLFN.TEXTJOIN", "_XLFN.CONCAT")},
}

_BLANK_IS_EMPTY_TEXT = {"args_parser": lambda *a: (replace_empty(v, "") for v in a)}
_JOIN = wrap_ufunc(_joined, input_parser=lambda *a: a, **_BLANK_IS_EMPTY_TEXT)


def _join(x: Any, y: Any) -> Any:
    """``&``: cell by cell over arrays (``_joined``), an array of more text than benchsheet makes
    refused before it is made (``too_much_text``)."""
    if isinstance(x, Ranges | np.ndarray) or isinstance(y, Ranges | np.ndarray):
        refused = too_much_text((x, y), min(_longest(x) + _longest(y), MAX_TEXT))
        if refused is not None:
            return refused
    return _JOIN(x, y)


OPERATORS: dict[str, Entry] = {"&": _join}
