"""benchsheet's functions in the formula engine: the catalogue registered into ``excelcalc``.

The engine imports no part of benchsheet; benchsheet gives it its functions (``install``, done
when this module is imported). Each is called as the add-in calls it: plain arguments, the
loaded results table, a ``BenchError`` answered as a ``FunctionError`` (shown in a cell as the
add-in shows it: ``#N/A No entry '6.1-9999' in the loaded results``). ``evaluate``, ``calc`` and ``freeze`` are the
engine's with benchsheet's functions in it.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from benchsheet.catalogue.calls import call
from benchsheet.catalogue.declare import Function
from benchsheet.catalogue.functions import CATALOGUE
from benchsheet.data.store import get_table
from benchsheet.errors import BenchError
from excelcalc import formula
from excelcalc.backend import Array
from excelcalc.formula_text import normalize_formula, retyped, tokenizer
from excelcalc.lib import CHECKED
from excelcalc.values import FunctionError, ReasonedError, is_error, plain

if TYPE_CHECKING:
    from excelcalc.workbook.calc import CalcReport
    from excelcalc.workbook.cells import Computed

__all__ = ["ErrorValue", "calc", "compute", "evaluate", "freeze", "freeze_report", "install", "to_error"]


def to_error(err: BenchError) -> ReasonedError:
    return FunctionError(err.code, err.reason)


def _engine_function(fn: Function) -> Any:
    def run(*args: Any) -> Any:
        out = call(fn, get_table(), [plain(a) for a in args], to_error, is_error=is_error)
        if isinstance(out, list):
            return np.asarray(out, dtype=object).view(Array)
        return out

    run.__name__ = fn.name
    return run


def install() -> None:
    """Register the catalogue's functions in the engine (once per process)."""
    if not {fn.name for fn in CATALOGUE} <= formula.registered():
        formula.register({fn.name: _engine_function(fn) for fn in CATALOGUE})


class ErrorValue(ReasonedError):
    """An Excel error value as ``evaluate`` answers it: ``code`` (``"#N/A"``) and ``reason`` (why, in words);
    its repr shows both. It is the engine's error value (``str(err)`` is the code; equal to another error value
    of the same code), so it passes through formulas as an error."""

    @property
    def code(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"ErrorValue({self.code!r}, {self.reason!r})"


def evaluate(text: str) -> Any:
    """Compute one formula, benchsheet's functions included: plain Python (a number, text, bool, None, or
    rows of them), an error as an ``ErrorValue`` (alone or in a cell of the rows). A formula that is not
    text is a ``TypeError``. A formula typed as people often type it (texts in single or mail quotes, ``;``
    between arguments, a misspelt function) answers its error with what to type instead (``typing_error``)."""
    if not isinstance(text, str):
        raise TypeError(f"evaluate takes a formula as text, e.g. '=PI()', not {type(text).__name__}")
    value = formula.evaluate(text)
    if isinstance(value, ReasonedError):
        value = typing_error(text, value) or value
    return _reasoned(value)


_AS_GIVEN = "{code} as given: the formula makes or passes on this error (NA(), or {code} typed or in an argument)"
"""The reason of an error that comes with none: Excel's own error value, typed or made by NA()."""


def _reasoned(value: Any) -> Any:
    if isinstance(value, list):
        return [_reasoned(v) for v in value]
    if is_error(value):
        code = str.__str__(value)
        reason = getattr(value, "reason", "") or formula.BARE_REASONS.get(code) or _AS_GIVEN.format(code=code)
        return ErrorValue(code, reason)
    return value


_TYPED = {
    "single quotes": 'a text is written in double quotes ("6.1-0052"), not in single quotes',
    "“ ”": 'a text is written in straight double quotes ("), not in the quotes “ ” a mail program makes',
    "semicolon": "arguments are separated by commas (,), not by semicolons (;)",
}


def typing_error(text: str, answer: ReasonedError) -> ReasonedError | None:
    """What is wrong with a formula that could not be computed, and what to type instead; None when the
    formula is typed as Excel's formula bar takes it and its names are known."""
    fixed, changes = retyped(text.strip())
    if changes:
        why = "; ".join(_TYPED[c] for c in changes)
        return ReasonedError("#VALUE!", f"cannot read the formula: {why}: type {fixed}")
    if str(answer) != "#NAME?":
        return None
    # LAMBDA is an argument's function (MAP's): the engine's own reason says when it is not computed
    unknown = [n for n in _called(text) if n not in formula.functions() and n.removeprefix("_XLFN.") != "LAMBDA"]
    if not unknown:
        return None
    known = sorted({*formula.registered(), *(name.removeprefix("_XLFN.") for name in CHECKED)})
    close = {name: difflib.get_close_matches(name, known, n=3, cutoff=0.75) for name in unknown}
    for_name = len(unknown) > 1
    hints = [f"did you mean {' or '.join(c)}{f' for {n}' if for_name else ''}?" for n, c in close.items() if c]
    hint = " ".join(hints) or "`benchsheet functions` lists benchsheet's functions"
    return ReasonedError("#NAME?", f"unknown function {', '.join(unknown)}; {hint}")


def _called(text: str) -> list[str]:
    """The names of the functions a formula calls, in upper case, as the engine looks them up."""
    tokens = tokenizer()
    body = normalize_formula(text.strip() if text.strip().startswith("=") else "=" + text.strip())
    try:
        items = tokens.Tokenizer(body).items
    except (tokens.TokenizerError, IndexError):
        return []
    return list(dict.fromkeys(t.value[:-1].upper() for t in items if t.type == "FUNC" and t.subtype == "OPEN"))


def calc(src: Path, out: Path, *, force: bool = False) -> CalcReport:
    """Recompute a workbook, benchsheet's functions included (``excelcalc.workbook.calc.calc``)."""
    from excelcalc.workbook import calc as workbook

    return workbook.calc(src, out, force=force)


def freeze_report(src: Path, out: Path, *, force: bool = False) -> CalcReport:
    """A values-only copy, saying which cells hold errors (``excelcalc.workbook.calc.freeze_report``)."""
    from excelcalc.workbook import calc as workbook

    return workbook.freeze_report(src, out, force=force)


def freeze(src: Path, out: Path) -> None:
    """A values-only copy of a workbook, computed afresh with benchsheet's functions."""
    freeze_report(src, out)


def compute(path: Path, seconds: float | None = None) -> Computed:
    """Every formula of a workbook computed, benchsheet's functions included (not written)."""
    from excelcalc.workbook import compute as workbook

    return workbook.compute(path, seconds)


install()  # the workbook calculator is imported where it is used: eval needs the engine alone
