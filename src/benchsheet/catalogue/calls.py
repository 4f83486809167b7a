"""The single way into the catalogue: ``call`` answers one call of a ``Function``.

The shell passes the loaded table and raw cell values; ``call`` converts them to the argument
kinds (``convert``), maps a range in the first argument cell by cell, and turns every failure into
an error value made by the shell's ``on_error``. ``named_like`` dresses a shell's function as a
catalogue entry for xlwings' decorators.
"""

from __future__ import annotations

import datetime as dt
import inspect
import math
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from benchsheet.catalogue.declare import Arg, Function, Value
from benchsheet.data.table import Table
from benchsheet.errors import BenchError, bad_value
from excelcalc.textnum import text_number


def named_like(fn: Function, body: Callable[..., Any], module: str) -> Callable[..., Any]:
    """``body`` dressed as ``fn`` for a shell's decorators (xlwings, xlwings Lite): its name, help, module
    and a signature with the catalogue's arguments, optional ones defaulting to None ("left out"). No
    annotations: ``call`` converts the raw cell values itself."""
    body.__name__ = body.__qualname__ = fn.name
    body.__doc__ = fn.help
    body.__module__ = module
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [inspect.Parameter(a.name, kind, default=None if a.optional else inspect.Parameter.empty) for a in fn.args]
    body.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    body.__annotations__ = {}
    return body


# --------------------------------------------------------------- conversion


def convert(arg: Arg, value: Value) -> Any:
    """A raw cell value as the argument's kind, or a #VALUE! error saying why.

    Values arrive as Excel hands them over (tests/excel.py has the model): a number is a float, a
    currency cell a ``Decimal``, a date or time cell a ``datetime``, an empty cell None.
    """
    if type(value) is str and arg.kind == "text":  # the common case, first
        value = value.strip()
        if value and len(value) <= 200:
            return value
    if isinstance(value, str):
        value = value.strip()
        if value == "":
            value = None
    if value is None:
        if arg.optional:
            return None
        raise bad_value(f"{arg.name} is required")
    if arg.kind == "bool":
        return _flag(arg, value)
    if isinstance(value, bool):
        raise bad_value(f"{arg.name} must not be TRUE/FALSE")
    if isinstance(value, dt.date | dt.time):
        raise bad_value(_date_reason(arg, value))
    if isinstance(value, Decimal):  # a currency or accounting cell
        value = float(value)
    if isinstance(value, int | float) and not math.isfinite(value):
        raise bad_value(f"{arg.name} must be a finite number")
    kind = arg.kind
    if kind == "text":
        if not isinstance(value, str):
            raise bad_value(f"{arg.name} must be text, not the number {value:g}")
        if len(value) > 200:
            raise bad_value(f"{arg.name} is too long ({len(value)} characters)")
        return value
    if kind == "round":
        return round_text(value) if isinstance(value, int | float) else value
    if kind == "spec":
        return float(value) if isinstance(value, int | float) else value
    number = _number(arg, value)
    if kind == "int":
        if number != int(number):
            raise bad_value(f"{arg.name} must be a whole number, not {number:g}")
        return int(number)
    return number


def round_text(number: float) -> str:
    """A round typed as a number: 6 -> "6.0", 5.1 -> "5.1"; binary noise (6.1000000001) is dropped."""
    text = f"{number:.4f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _date_reason(arg: Arg, value: dt.date | dt.time) -> str:
    shown = value.strftime("%H:%M" if isinstance(value, dt.time) else "%Y-%m-%d")
    if arg.kind == "round":
        return f'{arg.name} is a date ({shown}); type the round as text, e.g. "6.1"'
    if arg.kind in ("text", "spec"):
        return f"{arg.name} is a date ({shown}); type it as text"
    return f"{arg.name} is a date ({shown}), not a number; format the cell as a number"


_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?", re.ASCII)


def _number(arg: Arg, value: Any) -> float:
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        if value.startswith("INVALID run "):  # an answer from a run whose loadgen log says INVALID
            raise bad_value(
                f"{arg.name} comes from an INVALID run ({value.split(':')[0].removeprefix('INVALID run ')})"
            )
        number = text_number(value)  # as Excel (en-US) reads text: "$5", "50%", "1,000,000"
        if number is None and "," in value and not _THOUSANDS.search(value):  # "2,50" is not 250
            raise bad_value(
                f"{arg.name} is the text {value[:40]!r}: type it as a number (a comma only groups thousands)"
            )
        if number is None:
            raise bad_value(f"{arg.name} must be a number, not {value[:40]!r}")
        if math.isfinite(number):
            return number
    raise bad_value(f"{arg.name} must be a number")


def _flag(arg: Arg, value: Any) -> bool:
    """TRUE/FALSE, 1/0 or the text "TRUE"/"FALSE", as Excel reads a logical argument."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal) and value in (0, 1):  # 1/0, also from a currency cell
        return bool(value)
    if isinstance(value, str) and value.upper() in ("TRUE", "FALSE"):
        return value.upper() == "TRUE"
    raise bad_value(f"{arg.name} must be TRUE or FALSE")


class _Passed(Exception):
    """An error value among the inputs, passed on unchanged as Excel does."""

    def __init__(self, value: Any) -> None:
        self.value = value


_RANGES = (list, tuple)
_NUMBERS = frozenset({int, float})  # exactly these: TRUE is an int too, and not a number here


def _convert_all(specs: Sequence[Arg], values: Sequence[Any], is_error: Callable[[Any], bool] | None) -> list[Any]:
    """Each value as its argument's kind; arguments left out at the end are None (their default)."""
    out: list[Any] = []
    for spec, value in zip(specs, values):  # noqa: B905 (fewer values than arguments: the rest are left out)
        if spec.kind == "cells":
            out.append(_cells(spec, value))
            continue
        if is_error is not None and is_error(value):
            raise _Passed(value)
        if type(value) is str and spec.kind == "text" and 0 < len(value) <= 200 and not value[0].isspace():
            out.append(value.rstrip())  # the common case, first: the text a cell holds
            continue
        if type(value) in _NUMBERS and spec.kind == "number" and math.isfinite(value):
            out.append(float(value))  # and a number where one is wanted (what convert() answers)
            continue
        if isinstance(value, _RANGES):
            raise bad_value(f"{spec.name} must be one cell, not a range")
        out.append(convert(spec, value))
    if len(values) < len(specs):
        for spec in specs[len(values) :]:
            if not spec.optional:
                raise bad_value(f"{spec.name} is required")
            out.append(None)
    return out


def _cells(spec: Arg, value: Any) -> list[list[Any]] | None:
    """A range as rows of cells (one cell: one row of one); a left-out optional one None."""
    if isinstance(value, _RANGES):
        return [list(row) if isinstance(row, _RANGES) else [row] for row in value]
    if (value is None or value == "") and spec.optional:
        return None
    return [[value]]


def call(
    fn: Function,
    table: Table,
    args: Sequence[Any],
    on_error: Callable[[BenchError], Any],
    is_error: Callable[[Any], bool] | None = None,
) -> Any:
    """Answer one call of ``fn`` on ``table``; a 2-D list in the first argument maps cell by cell.

    ``is_error`` recognises the runtime's own error values among the inputs;
    they are passed on unchanged, as Excel does. Every failure, even a defect,
    answers with ``on_error(...)``: nothing escapes into the cell.
    """
    if len(args) > len(fn.args):
        return on_error(bad_value(f"{fn.name} takes at most {len(fn.args)} arguments"))
    if not (fn.vectorized and args and isinstance(args[0], _RANGES)):
        return _answer(fn, table, args, None, on_error, is_error)
    try:  # the other arguments are the same for every cell: convert them once
        rest: list[Any] | Any = _convert_all(fn.args[1:], args[1:], is_error)
    except BenchError as err:
        rest = _Passed(on_error(err))
    except _Passed as passed:
        rest = passed
    memo: dict[tuple[type, Any], Any] = {}  # a column repeats its IDs: answer each once

    def one(cell: Any) -> Any:
        try:
            key = (type(cell), cell)  # 1, 1.0 and TRUE are equal in Python but not as arguments
            return memo[key]
        except KeyError:
            value = memo[key] = _answer(fn, table, (cell,), rest, on_error, is_error)
            return value
        except TypeError:  # an unhashable cell
            return _answer(fn, table, (cell,), rest, on_error, is_error)

    return [[one(cell) for cell in _row(line)] for line in args[0]]


def _row(line: Any) -> Sequence[Any]:
    return line if isinstance(line, _RANGES) else (line,)


def invalid_runs_named(fn: Function, table: Table, values: Sequence[Any]) -> list[str]:
    """The INVALID private runs among the arguments: the only way such a run enters an answer (a family
    look-up selects closed-division rows, never your own runs)."""
    if not table.invalid_runs or not fn.flags_invalid or fn.returns == "table":
        return []
    named = {
        v.strip().lower()
        for a, v in zip(fn.args, values, strict=False)
        if a.kind in ("text", "spec") and isinstance(v, str)
    }
    return sorted(named & table.invalid_runs)


def _answer(
    fn: Function,
    table: Table,
    args: Sequence[Any],
    rest: list[Any] | _Passed | None,
    on_error: Callable[[BenchError], Any],
    is_error: Callable[[Any], bool] | None,
) -> Any:
    """One answer; ``rest`` holds the already converted arguments after the first."""
    try:
        if rest is None:
            converted = _convert_all(fn.args, args, is_error)
        elif isinstance(rest, _Passed):  # the cell's own argument is judged first, as in a one-cell call
            _convert_all(fn.args[:1], args, is_error)
            return rest.value
        else:  # one cell of a range in the first argument
            converted = [*_convert_all(fn.args[:1], args, is_error), *rest]
        value = fn.answer(table, converted)
        if type(value) is float and not math.isfinite(value):
            raise BenchError("#NUM!", "the answer is too large to be a number; check the inputs' units")
        invalid = invalid_runs_named(fn, table, converted) if table.invalid_runs else ()
        return f"INVALID run {', '.join(invalid)}: {value}" if invalid else value
    except _Passed as passed:
        return passed.value
    except BenchError as err:
        return on_error(err)
    except Exception as exc:  # a defect must still answer in the cell, never crash it
        return on_error(bad_value(f"benchsheet could not answer ({type(exc).__name__}: {exc})"))
