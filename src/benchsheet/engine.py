"""The formula engine: Excel formulas with benchsheet's functions, without Excel.

Built on the ``formulas`` package, which parses and computes Excel formulas
and has real Excel error values. The catalogue's functions are registered in
it under their names; a failure is a ``ReasonedError``, a real Excel error
value (``#N/A``, ``#VALUE!``) that also carries the reason.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import Array, get_functions
from formulas.tokens.operand import XlError

from .catalogue import CATALOGUE, Function, call
from .errors import BenchError
from .names import cell_text
from .store import get_table


class ReasonedError(XlError):  # type: ignore[misc]
    """An Excel error value with the reason behind it; equal to the plain code."""

    reason: str

    def __new__(cls, code: str, reason: str) -> ReasonedError:
        obj: ReasonedError = super().__new__(cls, code)
        obj.reason = reason
        return obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, XlError) and str.__eq__(self, other)

    def __hash__(self) -> int:
        return str.__hash__(self)

    @property
    def text(self) -> str:
        return f"{self} {self.reason}"


def to_error(err: BenchError) -> ReasonedError:
    return ReasonedError(err.code, err.reason)


def plain(value: Any) -> Any:
    """A value from the engine as plain Python: scalars, None, or rows of cells."""
    if hasattr(value, "value") and not isinstance(value, np.ndarray | str):
        value = value.value  # a formulas Ranges object
    if isinstance(value, np.ndarray):
        if value.size == 1:
            return plain(value.reshape(-1)[0])
        grid = value if value.ndim == 2 else value.reshape(1, -1)
        return [[plain(v) for v in row] for row in grid.tolist()]
    if isinstance(value, XlError):
        return value
    if isinstance(value, str) and type(value) is not str:  # schedula's EMPTY token
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def _safe(value: Any) -> Any:
    """Text that would read as a formula gets the apostrophe: the engine's answers end up in files."""
    return cell_text(value) if type(value) is str else value


def _engine_function(fn: Function) -> Any:
    def run(*args: Any) -> Any:
        out = call(fn, get_table(), [plain(a) for a in args], to_error, is_error=lambda v: isinstance(v, XlError))
        if isinstance(out, list):
            return np.asarray([[_safe(v) for v in row] for row in out], dtype=object).view(Array)
        return _safe(out)

    run.__name__ = fn.name
    return run


MISSING_FN = "BENCHSHEET.MISSING"


@cache
def functions() -> dict[str, Any]:
    """formulas' function table with the catalogue registered (once per process)."""
    logging.getLogger("schedula").setLevel(logging.CRITICAL)  # errors are values here
    table = get_functions()
    for fn in CATALOGUE:
        table[fn.name] = _engine_function(fn)
    table[MISSING_FN] = lambda: sh.EMPTY
    return dict(table)


def mark_missing(formula: str) -> str:
    """Make left-out arguments of benchsheet's functions (``BEST("B200",x,y,,8)``) explicit.

    The engine reads a left-out argument as 0, Excel passes a UDF "missing";
    a call of ``BENCHSHEET.MISSING()`` in its place keeps the difference.
    Excel's own functions keep their own rule (``SUM(1,,2)`` is 3).
    """
    names = {fn.name for fn in CATALOGUE}
    out: list[str] = []
    calls: list[bool] = []  # for each open parenthesis: is it a call of a catalogue function?
    word: list[str] = []
    in_string = False
    prev = ""
    for ch in formula:
        if ch == '"':
            in_string = not in_string
        elif not in_string:
            if ch == "(":
                calls.append("".join(word).upper().rsplit("!", 1)[-1].removeprefix("_XLUDF.") in names)
            elif ch in ",)" and prev in ("(", ",") and (ch, prev) != (")", "(") and calls and calls[-1]:
                out.append(MISSING_FN + "()")
            if ch == ")" and calls:
                calls.pop()
        out.append(ch)
        if not in_string:
            word = [*word, ch] if (ch.isalnum() or ch in "._!") else []
            if not ch.isspace():
                prev = ch if ch in "(," else "x"
    return "".join(out)


def evaluate(formula: str) -> Any:
    """Compute one formula; the answer is plain Python or a ReasonedError."""
    import formulas

    text = formula.strip()
    if not text.startswith("="):
        text = "=" + text
    known = functions()
    try:
        tokens, builder = formulas.Parser().ast(mark_missing(text))
        unknown = sorted(
            {t.name.upper() for t in tokens if type(t).__name__ == "Function" and t.name.upper() not in known}
        )
        if unknown:
            return ReasonedError("#NAME?", f"unknown function {', '.join(unknown)}")
        compiled = builder.compile()
        if compiled.inputs:
            names = ", ".join(compiled.inputs)
            return ReasonedError("#REF!", f"eval has no cells to refer to ({names})")
        return plain(compiled())
    except Exception as exc:  # the engine's own parse and name errors
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        code = "#NAME?" if "not" in message.lower() and "function" in message.lower() else "#VALUE!"
        return ReasonedError(code, f"cannot evaluate {formula.strip()!r}: {message[:200]}")


def format_value(value: Any) -> str:
    """How ``benchsheet eval`` prints a value: full precision, arrays as TSV rows."""
    if isinstance(value, list):
        return "\n".join("\t".join(format_value(v) for v in row) for row in value)
    if isinstance(value, ReasonedError):
        return value.text
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if value is None:
        return ""
    return str(value)


def is_error(value: Any) -> bool:
    if isinstance(value, list):
        return False
    return isinstance(value, XlError)
