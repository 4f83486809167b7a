"""Excel 365's REGEXTEST, REGEXEXTRACT and REGEXREPLACE (Text group, issue 41 item 7), the engine's own:
formulas' own wrote ``$1`` of a replacement literally, tested a pattern at the text's start only and
answered REGEXTEST of an array FALSE throughout. Each as Microsoft's page states it
(support.microsoft.com/en-us/office/regextest-function, regexextract-function, regexreplace-function),
its arguments cell by cell over arrays and ranges.

Excel matches with PCRE2 ("All regular expressions for this function, as well as REGEXEXTRACT and
REGEXREPLACE use the PCRE2 'flavor' of regex"); the engine with the ``regex`` package, whose patterns
mostly read the same. Where they differ the pattern is rewritten to PCRE2's meaning (``\\Z``, ``\\v``,
``\\h``, ``\\N``, ``\\x{..}``, ``\\g{n}``, ``\\k<name>``, a ``{`` that is no quantifier, ``^`` after a
final newline), or refused with its reason where no one checked it (an escape of another letter, a
flag group inside the pattern, ``\\w``, ``\\d``, ``\\s``, ``\\b`` or a POSIX class of non-ASCII text,
whose PCRE2 meaning depends on options Excel does not state). A replacement reads PCRE2's ``$n``,
``${n}``, ``${name}``, ``$name`` and ``$$``. A match that runs longer than ``TIMEOUT`` seconds (a
pattern that backtracks without end) answers #VALUE! with the reason, as PCRE2's match limit stops it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import regex

from excelcalc.backend import Array, XlError
from excelcalc.formula_text import MAX_TEXT
from excelcalc.lib._common import Entry, cells, number
from excelcalc.lib.text import as_text
from excelcalc.values import ReasonedError, plain

__all__ = ["FUNCTIONS", "TIMEOUT"]

TIMEOUT = 1.0  # seconds one match may take (a pattern such as (a+)+$ backtracks without end)

# PCRE2's \h and \v, as the characters they stand for (pcre2pattern: "Generic character types")
_H = "\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000"
_V = "\\n\\x0b\\f\\r\\x85\\u2028\\u2029"
_SAME_ESCAPES = set("AzGKRXtnrfa")  # escapes of a letter that mean the same in PCRE2 and regex
_CLASSES = set("dDwWsSbB")  # ASCII-only or Unicode, as PCRE2's options decide: checked of ASCII text only
_QUANTIFIER = regex.compile(r"\{\d+(?:,\d*)?\}")
_FLAGS = regex.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])")
_NAME = regex.compile(r"[A-Za-z_]\w*")
_VERBS = ("(*SKIP)", "(*FAIL)", "(*F)", "(*PRUNE)")


@dataclass(frozen=True)
class _Pattern:
    rx: Any  # the compiled regex.Pattern
    classy: bool  # uses \w, \d, \s, \b or a POSIX class: of ASCII text only


class _Refused(Exception):
    """A pattern, or part of one, whose PCRE2 meaning the engine does not reproduce."""


def _escape(p: str, i: int, in_class: bool) -> tuple[str, int, bool]:
    """The escape at ``p[i]`` (a backslash) in regex's syntax, where it ends, and whether it is one of
    the classes whose meaning depends on PCRE2's options."""
    if i + 1 >= len(p):
        raise _Refused("a pattern ending in a backslash")
    c = p[i + 1]
    if not c.isalnum():
        return p[i : i + 2], i + 2, False
    if c in _CLASSES and not (in_class and c in "bB"):
        return p[i : i + 2], i + 2, True
    if in_class and c == "b":  # a backspace in a class, in both
        return "\\b", i + 2, False
    if c in _SAME_ESCAPES and not in_class:
        return p[i : i + 2], i + 2, False
    if c in "tnrfa":
        return p[i : i + 2], i + 2, False
    if c == "x":
        m = regex.match(r"\\x\{([0-9A-Fa-f]+)\}", p[i:]) or regex.match(r"\\x[0-9A-Fa-f]{2}", p[i:])
        if m is None:
            raise _Refused("\\x not followed by two hexadecimal digits or {...}")
        if m.lastindex:
            code = int(m.group(1), 16)
            if code > 0x10FFFF:
                raise _Refused(f"\\x{{{m.group(1)}}} beyond Unicode")
            return regex.escape(chr(code)), i + m.end(), False
        return m.group(0), i + m.end(), False
    if c in "pP":
        m = regex.match(r"\\[pP](?:\{\^?[\w &=.-]+\}|[A-Za-z])", p[i:])
        if m is None:
            raise _Refused("\\p without a property")
        return m.group(0), i + m.end(), False
    if c in "hv":
        return (_H if c == "h" else _V) if in_class else f"[{_H if c == 'h' else _V}]", i + 2, False
    if c in "HV" and not in_class:
        return f"[^{_H if c == 'H' else _V}]", i + 2, False
    if in_class:
        raise _Refused(f"\\{c} in a character class")
    if c == "Z":  # PCRE2: at the end, or before a newline that ends the text (regex: at the end only)
        return "(?=\\n?\\Z)", i + 2, False
    if c == "N" and p[i + 2 : i + 3] != "{":
        return "[^\\n]", i + 2, False
    if c.isdigit() and c != "0" and not p[i + 2 : i + 3].isdigit():
        return f"(?:\\{c})", i + 2, False
    m = regex.match(
        r"\\g(?:\{(\d+)\}|(\d+)|\{([A-Za-z_]\w*)\})|\\k(?:<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)'|\{([A-Za-z_]\w*)\})", p[i:]
    )
    if m is not None:
        n, name = m.group(1) or m.group(2), next((g for g in m.groups()[2:] if g), None)
        return (f"(?:\\{n})" if n else f"(?P={name})"), i + m.end(), False
    raise _Refused(f"\\{c}")


def _translated(p: str) -> tuple[str, bool]:
    """A PCRE2 pattern in regex's syntax, and whether it uses a class of PCRE2's options; _Refused
    where the engine does not reproduce its meaning."""
    out: list[str] = []
    classy = False
    i = 0
    while i < len(p):
        c = p[i]
        if c == "\\":
            part, i, is_class = _escape(p, i, False)
            out.append(part)
            classy |= is_class
        elif c == "[":
            j = i + 1
            out.append("[")
            if p[j : j + 1] == "^":
                out.append("^")
                j += 1
            if p[j : j + 1] == "]":
                out.append("\\]")
                j += 1
            while j < len(p) and p[j] != "]":
                if p[j] == "\\":
                    part, j, is_class = _escape(p, j, True)
                    out.append(part)
                    classy |= is_class
                elif p[j] == "[":
                    m = regex.match(r"\[:\^?[a-z]+:\]", p[j:])
                    if m is not None:
                        out.append(m.group(0))
                        classy = True
                        j += m.end()
                    else:
                        out.append("\\[")
                        j += 1
                else:
                    out.append(p[j])
                    j += 1
            if j >= len(p):
                raise _Refused("a character class without its ]")
            out.append("]")
            i = j + 1
        elif c == "{":
            m = _QUANTIFIER.match(p, i)
            if m is not None:
                out.append(m.group(0))
                i = m.end()
            elif regex.match(r"\{,\d+\}", p[i:]):
                raise _Refused("{,n} (a quantifier in PCRE2 10.43 and later, literal text before)")
            else:  # literal in PCRE2 (regex would read {e<=1} as a fuzzy match)
                out.append("\\{")
                i += 1
        elif c == "^":  # PCRE2's ^ never matches after a newline that ends the text
            out.append("(?:^(?!(?<=\\n)\\Z))")
            i += 1
        elif p.startswith("(?R)", i):  # recursion of the whole pattern, in both
            out.append("(?R)")
            i += 4
        elif p.startswith("(?", i) and (m := _FLAGS.match(p, i)) is not None:
            letters = m.group(1) + (m.group(2) or "")
            if set(letters) - set("imsx"):
                raise _Refused(f"the option group {m.group(0)}")
            if m.group(3) == ")" and i > 0:
                raise _Refused(f"the option group {m.group(0)} inside the pattern")
            out.append(m.group(0))
            i = m.end()
        elif p.startswith("(*", i):
            verb = next((v for v in _VERBS if p.startswith(v, i)), None)
            if verb is None:
                raise _Refused(f"the verb {p[i : p.find(')', i) + 1] or p[i:]}")
            out.append(verb)
            i += len(verb)
        else:
            out.append(c)
            i += 1
    return "".join(out), classy


@lru_cache(maxsize=256)
def _compiled(pattern: str, fold: bool) -> _Pattern | ReasonedError:
    if len(pattern) > MAX_TEXT:
        return ReasonedError("#VALUE!", f"a pattern of more than Excel's {MAX_TEXT:,} characters")
    try:
        text, classy = _translated(pattern)
    except _Refused as why:
        return ReasonedError("#VALUE!", f"the pattern {pattern!r}: {why} is not computed by benchsheet")
    try:
        return _Pattern(regex.compile(text, regex.V0 | (regex.IGNORECASE if fold else 0)), classy)
    except (regex.error, OverflowError, RecursionError) as why:
        return ReasonedError("#VALUE!", f"the pattern {pattern!r} is no regular expression: {why}")


def _text(v: Any) -> Any:
    if v is None:
        return ""
    t = as_text(v)
    if isinstance(t, str) and not isinstance(t, XlError) and len(t) > MAX_TEXT:
        return ReasonedError("#VALUE!", f"a text of more than Excel's {MAX_TEXT:,} characters")
    return t


def _choice(v: Any, what: str, allowed: tuple[int, ...]) -> int | XlError:
    if isinstance(v, XlError):
        return v
    try:
        n = number(0 if v is None else v)
    except (TypeError, ValueError):
        return ReasonedError("#VALUE!", f"{what} is a number")
    if n not in allowed:
        return ReasonedError("#VALUE!", f"{what} is one of {', '.join(map(str, allowed))}")
    return int(n)


def _prepared(name: str, text: Any, pattern: Any, case: Any) -> tuple[str, _Pattern] | XlError:
    """The text and the compiled pattern of a call, or the error it answers."""
    t, p = _text(text), _text(pattern)
    for v in (t, p):
        if isinstance(v, XlError):
            return v
    fold = _choice(case, f"{name}'s case_sensitivity", (0, 1))
    if isinstance(fold, XlError):
        return fold
    compiled = _compiled(p, bool(fold))
    if isinstance(compiled, XlError):
        return compiled
    if compiled.classy and not t.isascii():
        return ReasonedError(
            "#VALUE!",
            f"{name} of non-ASCII text with \\w, \\d, \\s, \\b or a POSIX class is not computed by benchsheet "
            "(ASCII-only or Unicode, as PCRE2's options decide)",
        )
    return t, compiled


def _timed_out(name: str) -> ReasonedError:
    return ReasonedError(
        "#VALUE!", f"{name} stopped after {TIMEOUT:g} s: the pattern backtracks without end on this text"
    )


def _matches(rx: Any, text: str) -> list[Any]:
    return list(rx.finditer(text, timeout=TIMEOUT))


def _regextest(text: Any, pattern: Any, case: Any = None) -> Any:
    """REGEXTEST(text, pattern, [case_sensitivity]): "check whether any part of supplied text matches a
    regular expression"."""
    got = _prepared("REGEXTEST", text, pattern, case)
    if isinstance(got, XlError):
        return got
    t, p = got
    try:
        return p.rx.search(t, timeout=TIMEOUT) is not None
    except TimeoutError:
        return _timed_out("REGEXTEST")


def _regexextract(text: Any, pattern: Any, mode: Any = None, case: Any = None) -> Any:
    """REGEXEXTRACT(text, pattern, [return_mode], [case_sensitivity]): return_mode "0: Return the first
    string that matches the pattern", "1: Return all strings that match the pattern as an array" (a
    column), "2: Return capturing groups from the first match as an array" (a row); always text; no
    match #N/A."""
    got = _prepared("REGEXEXTRACT", text, pattern, case)
    if isinstance(got, XlError):
        return got
    t, p = got
    how = _choice(mode, "REGEXEXTRACT's return_mode", (0, 1, 2))
    if isinstance(how, XlError):
        return how
    try:
        found = _matches(p.rx, t) if how == 1 else [m for m in [p.rx.search(t, timeout=TIMEOUT)] if m is not None]
    except TimeoutError:
        return _timed_out("REGEXEXTRACT")
    if not found:
        return ReasonedError("#N/A", f"REGEXEXTRACT: no match of {p.rx.pattern!r} in the text")
    if how == 0:
        return found[0].group(0)
    if how == 1:
        return np.asarray([[m.group(0)] for m in found], dtype=object).view(Array)
    if p.rx.groups == 0:
        return ReasonedError("#VALUE!", "REGEXEXTRACT's return_mode 2 of a pattern without capturing groups")
    return np.asarray([[g or "" for g in found[0].groups()]], dtype=object).view(Array)


def _replacement(template: str, rx: Any) -> list[str | int] | ReasonedError:
    """A PCRE2 replacement as its literal parts (str) and group numbers (int): ``$$`` a dollar, ``$n`` and
    ``${n}`` group n (``$0`` the match), ``$name`` and ``${name}`` a named group."""
    parts: list[str | int] = []
    i = 0
    while i < len(template):
        j = template.find("$", i)
        if j < 0:
            parts.append(template[i:])
            break
        parts.append(template[i:j])
        rest = template[j + 1 :]
        m = regex.match(r"\$|(\d+)|\{(\d+|[A-Za-z_]\w*)\}|([A-Za-z_]\w*)", rest)
        if m is None:
            return ReasonedError("#VALUE!", f"the replacement {template!r}: a $ not followed by $, a number or a name")
        ref = m.group(1) or m.group(2) or m.group(3)
        if ref is None:
            parts.append("$")
        elif ref.isdigit():
            if int(ref) > rx.groups:
                return ReasonedError("#VALUE!", f"the replacement {template!r} names group {ref}: the pattern has none")
            parts.append(int(ref))
        else:
            if ref not in rx.groupindex:
                return ReasonedError(
                    "#VALUE!", f"the replacement {template!r} names group {ref!r}: the pattern has none"
                )
            parts.append(int(rx.groupindex[ref]))
        i = j + 1 + m.end()
    return parts


def _regexreplace(text: Any, pattern: Any, replacement: Any, occurrence: Any = None, case: Any = None) -> Any:
    """REGEXREPLACE(text, pattern, replacement, [occurrence], [case_sensitivity]): occurrence "By default
    ... 0, which replaces all instances. A negative number replaces that instance, searching from the
    end"; a group that took no part in the match is empty text."""
    got = _prepared("REGEXREPLACE", text, pattern, case)
    if isinstance(got, XlError):
        return got
    t, p = got
    r = _text(replacement)
    if isinstance(r, XlError):
        return r
    if isinstance(occurrence, XlError):
        return occurrence
    try:
        n = int(number(0 if occurrence is None else occurrence))
    except (TypeError, ValueError, OverflowError):
        return ReasonedError("#VALUE!", "REGEXREPLACE's occurrence is a number")
    parts = _replacement(r, p.rx)
    if isinstance(parts, XlError):
        return parts
    try:
        found = _matches(p.rx, t)
    except TimeoutError:
        return _timed_out("REGEXREPLACE")
    if n:
        found = [found[n - 1]] if 0 < n <= len(found) else [found[n]] if 0 < -n <= len(found) else []
    out: list[str] = []
    size, at = 0, 0
    for m in found:
        pieces = [t[at : m.start()], *(q if isinstance(q, str) else (m.group(q) or "") for q in parts)]
        size += sum(len(q) for q in pieces)
        if size > MAX_TEXT:
            return ReasonedError("#VALUE!", f"REGEXREPLACE makes a text of more than Excel's {MAX_TEXT:,} characters")
        out.extend(pieces)
        at = m.end()
    out.append(t[at:])
    return "".join(out)


def _first(f: Any) -> Any:
    """``f`` cell by cell over its array arguments (``_common.cells``: Excel lifts them); an array answered
    in a cell of such an array is its first value (Excel makes no array of arrays), one answered alone
    spills."""
    each = cells(lambda *args: v.flat[0] if isinstance(v := f(*args), np.ndarray) else v)

    def run(*args: Any) -> Any:
        if any(isinstance(plain(a), list) for a in args):
            return each(*args)
        v = f(*(plain(a) for a in args))
        return v.flat[0] if isinstance(v, np.ndarray) and v.size == 1 else v

    run.__name__ = f.__name__.lstrip("_").upper()
    return run


regextest, regexextract, regexreplace = _first(_regextest), _first(_regexextract), _first(_regexreplace)

FUNCTIONS: dict[str, Entry] = {
    "REGEXTEST": regextest,
    "_XLFN.REGEXTEST": regextest,
    "REGEXEXTRACT": regexextract,
    "_XLFN.REGEXEXTRACT": regexextract,
    "REGEXREPLACE": regexreplace,
    "_XLFN.REGEXREPLACE": regexreplace,
}
