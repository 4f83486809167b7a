"""The formula engine: Excel formulas with benchsheet's functions, without Excel.

Built on the ``formulas`` package, which parses and computes Excel formulas
and has real Excel error values. The catalogue's functions are registered in
it under their names; a failure is a ``ReasonedError``, a real Excel error
value (``#N/A``, ``#VALUE!``) that also carries the reason.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np
import schedula as sh

from .catalogue import CATALOGUE, Function, call
from .errors import BenchError
from .excel_functions import CHECKED
from .excel_functions import overrides as excel_overrides
from .formula_adapter import Array, Program, ProgramError, XlError, compile_program, get_functions
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
    table["REPT"] = _bounded_rept(table["REPT"])
    table.update(excel_overrides())
    return dict(table)


def _bounded_rept(rept: Any) -> Any:
    """REPT that refuses, as Excel does, a text longer than 32,767 characters before making it
    (``REPT("a",1000000000)`` would need a gigabyte)."""

    def bounded(text: Any, times: Any) -> Any:
        def values(v: Any) -> list[Any]:
            v = plain(v)
            return [x for row in v for x in row] if isinstance(v, list) else [v]

        width = max((len(str(t)) for t in values(text) if not isinstance(t, XlError)), default=0)
        count = 0.0
        for n in values(times):
            if isinstance(n, int | float) and not isinstance(n, bool):
                count = max(count, float(n))
        if width and count * width > MAX_TEXT:
            return _too_long(int(min(count * width, 1e18)))
        return rept(text, times)

    bounded.__name__ = "REPT"
    return bounded


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


MAX_FORMULA = 8192  # characters in a formula, as Excel allows
MAX_TEXT = 32767  # characters in a cell's text, as Excel allows
PLACEHOLDER = "_BSREF"  # a reference of a prepared formula: _BSREF0, _BSREF1...
_UDF_PREFIX = re.compile(r"(?<![\w.])(?:_xludf\.|\[\d+\]!|'[^']*\.xla[mx]?'!)(?=[A-Za-z_][\w.]*\()", re.IGNORECASE)
_EXPONENT = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)[eE](\d+)$")  # 1E3: Excel's own spelling of 1E+3


def normalize_formula(text: str) -> str:
    """Drop add-in prefixes from function names (``_xludf.BEST(``), outside string literals."""
    parts = text.split('"')
    for i in range(0, len(parts), 2):
        parts[i] = _UDF_PREFIX.sub("", parts[i])
    return '"'.join(parts)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A formula ready for the engine: each reference replaced by a placeholder.

    ``text`` is the same for every cell of a filled-down column once its references are
    resolved relative to the cell, so it is parsed once (``program``)."""

    text: str  # "=PERGPU(_BSREF0,_BSREF1,_BSREF2)"
    refs: tuple[str, ...]  # the references as written, in placeholder order: ("A2", "'Bob''s'!$B$5")
    problem: ReasonedError | None = None  # why it cannot be computed at all


def prepare(formula: str, names: Callable[[str], str | None] | None = None) -> Prepared:
    """Replace each reference (``A2``, ``Sheet2!$B$5:C9``, a defined name) of ``formula`` by a
    placeholder. ``names`` gives the text a defined name stands for (None: not defined)."""
    from openpyxl.formula.tokenizer import Tokenizer, TokenizerError

    text = formula.strip()
    if not text.startswith("="):
        text = "=" + text
    if len(text) > MAX_FORMULA:
        return Prepared(
            text,
            (),
            ReasonedError("#VALUE!", f"the formula has {len(text):,} characters; Excel allows {MAX_FORMULA:,}"),
        )
    text = normalize_formula(text)
    for _ in range(16):  # defined names standing for other names, at most this deep
        try:
            items = Tokenizer(text).items
        except (TokenizerError, IndexError) as exc:
            return Prepared(text, (), ReasonedError("#VALUE!", f"cannot read the formula {text[:80]!r} ({exc})"))
        substituted = False
        out: list[str] = []
        refs: list[str] = []
        for tok in items:
            value = tok.value
            if tok.type == "OPERAND" and tok.subtype == "RANGE":
                meaning = names(value) if names is not None else None
                if meaning is not None:
                    out.append("(" + meaning.removeprefix("=") + ")")
                    substituted = True
                    continue
                out.append(f"{PLACEHOLDER}{len(refs)}")
                refs.append(value)
                continue
            if tok.type == "OPERAND" and tok.subtype == "NUMBER":
                value = _EXPONENT.sub(r"\1E+\2", value)
            elif tok.type == "OPERAND" and tok.subtype == "TEXT" and len(value) - 2 > MAX_TEXT:
                return Prepared(
                    text,
                    (),
                    ReasonedError("#VALUE!", f"a text in the formula is longer than Excel's {MAX_TEXT:,} characters"),
                )
            out.append(value)
        if not substituted:
            return Prepared(mark_missing("=" + "".join(out)), tuple(refs))
        text = "=" + "".join(out)
    return Prepared(text, (), ReasonedError("#NAME?", "defined names refer to each other too deeply"))


_TEXT = "\x00formula\x00"  # stands for the formula as written in a reason from ``program``


def as_written(err: ReasonedError, formula: str) -> ReasonedError:
    """A reason from ``program`` naming the formula as the user wrote it."""
    if _TEXT not in err.reason:
        return err
    return ReasonedError(str(err), err.reason.replace(_TEXT, repr(formula.strip()[:80])))


@lru_cache(maxsize=4096)
def program(text: str) -> Program | ReasonedError:
    """The prepared formula ``text`` parsed once (shared by every cell of the same shape)."""
    known = functions()
    try:
        prog = compile_program(text)
    except ProgramError as exc:
        why = (
            " (not a valid formula)"
            if exc.reason.lower().startswith("not a valid formula")
            else f" ({exc.reason[:160]})"
        )
        return ReasonedError(exc.code, "cannot read the formula " + _TEXT + why)
    unknown = [name for name in prog.functions if name not in known]
    if unknown:
        return ReasonedError("#NAME?", f"unknown function {', '.join(unknown)}")
    unchecked = [name for name in prog.functions if name not in CHECKED and name not in _OWN]
    if unchecked:
        shown = ", ".join(name.removeprefix("_XLFN.").removeprefix("_XLWS.") for name in unchecked)
        return ReasonedError("#NAME?", f"{shown} is not computed by benchsheet")
    return prog


# benchsheet's own functions, and the engine's constructor of an array literal ({1,2})
_OWN = frozenset({fn.name for fn in CATALOGUE} | {MISSING_FN, "ARRAY"})


def run(prog: Program, refs: Sequence[Any], cell: Any = None) -> Any:
    """One value of ``prog``: an engine value (number, text, bool, error, array) or a ReasonedError."""
    try:
        value = prog.run(refs, cell)
    except ProgramError as exc:
        return ReasonedError(exc.code, exc.reason)
    except RecursionError:
        return ReasonedError("#VALUE!", "the formula is nested too deeply")
    except MemoryError:
        return ReasonedError("#VALUE!", "the formula needs more memory than there is")
    except Exception as exc:  # the engine's own failure on odd input: the cell says so, the rest computes
        return ReasonedError("#VALUE!", f"cannot compute this formula ({type(exc).__name__}: {str(exc)[:120]})")
    return _checked(value)


def _checked(value: Any) -> Any:
    """Excel's limits on an answer: a text of at most 32,767 characters."""
    if isinstance(value, str) and not isinstance(value, XlError) and len(value) > MAX_TEXT:
        return _too_long(len(value))
    if isinstance(value, np.ndarray) and value.dtype == object:
        for v in value.flat:
            if isinstance(v, str) and not isinstance(v, XlError) and len(v) > MAX_TEXT:
                return _too_long(len(v))
    return value


def _too_long(n: int) -> ReasonedError:
    return ReasonedError("#VALUE!", f"the text would have {n:,} characters; Excel allows {MAX_TEXT:,}")


BARE_REASONS = {  # why Excel's own errors arise, for an answer with nothing more specific
    "#DIV/0!": "division by zero",
    "#NUM!": "a number out of range (too large, or no answer exists)",
    "#VALUE!": "an argument of the wrong type (text where a number is needed?)",
    "#NULL!": "the ranges do not intersect",
}


def evaluate(formula: str) -> Any:
    """Compute one formula; the answer is plain Python or a ReasonedError."""
    prepared = prepare(formula)
    if prepared.problem is not None:
        return prepared.problem
    if prepared.refs:
        return ReasonedError("#REF!", f"eval has no cells to refer to ({', '.join(prepared.refs)})")
    prog = program(prepared.text)
    if isinstance(prog, ReasonedError):
        reason = prog.reason.replace("cannot read the formula " + _TEXT, "cannot evaluate " + _TEXT)
        return as_written(ReasonedError(str(prog), reason), formula)
    value = plain(run(prog, ()))
    if isinstance(value, XlError) and not isinstance(value, ReasonedError) and str(value) in BARE_REASONS:
        return ReasonedError(str(value), BARE_REASONS[str(value)])
    return value


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


def error_cells(value: Any) -> int:
    """How many cells of an array answer are errors (0 for a single value)."""
    if not isinstance(value, list):
        return 0
    return sum(isinstance(v, XlError) for row in value for v in (row if isinstance(row, list) else [row]))


def is_error(value: Any) -> bool:
    if isinstance(value, list):
        return False
    return isinstance(value, XlError)
