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
from benchsheet.errors import BenchError, bad_value, too_large
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
    """Answer one call of ``fn`` on ``table``; ranges in a scalar function's arguments answer a block.

    A scalar function (one that answers a single value) is lifted over ranges as Excel lifts its own
    scalar functions in an array formula (``lifted``). ``is_error`` recognises the runtime's own error
    values among the inputs; they are passed on unchanged, as Excel does. Every failure, even a defect,
    answers with ``on_error(...)``: nothing escapes into the cell.
    """
    if len(args) > len(fn.args):
        return on_error(bad_value(f"{fn.name} takes at most {len(fn.args)} arguments"))
    for a in args:  # the common call, every argument one value, pays for no more than this loop
        if isinstance(a, _RANGES):
            break
    else:
        return _answer(fn, table, args, on_error, is_error)
    if fn.liftable and any(_lifts(s, a) for s, a in zip(fn.args, args, strict=False)):
        if fn.vectorized or _given(fn, args):
            return lifted(fn, table, args, on_error, is_error)
        args = [_single(a) for a in args]  # a shell that hands every argument as rows (ndim=2): one cell each
    return _answer(fn, table, args, on_error, is_error)


def _single(value: Any) -> Any:
    """One cell handed as rows of one cell: the cell; anything else as it is."""
    if isinstance(value, _RANGES) and len(value) == 1:
        line = value[0]
        if isinstance(line, _RANGES) and len(line) == 1:
            return line[0]
        if not isinstance(line, _RANGES):
            return line
    return value


def _given(fn: Function, args: Sequence[Any]) -> bool:
    """The argument that makes ``fn`` answer one value (``scalar_with``) is given: not left out, not blank."""
    k = [a.name for a in fn.args].index(fn.scalar_with)
    return k < len(args) and _single(args[k]) not in (None, "")


def _lifts(spec: Arg, value: Any) -> bool:
    """A range where a scalar function takes one value (a ``cells`` argument takes the range itself)."""
    return isinstance(value, _RANGES) and spec.kind != "cells"


def _grid(value: Any) -> list[Sequence[Any]]:
    """A range as rows of cells; a flat list is a column (as the first argument always read it)."""
    return [line if isinstance(line, _RANGES) else (line,) for line in value]


def lifted(
    fn: Function,
    table: Table,
    args: Sequence[Any],
    on_error: Callable[[BenchError], Any],
    is_error: Callable[[Any], bool] | None,
) -> list[list[Any]]:
    """Ranges in a scalar function's arguments answered as Excel answers its own scalar functions in an
    array formula: ranges of the same size element by element, a single row or column (or one cell)
    repeated along the other, and #N/A where a range is too small for the answer's row or column. Each
    element is exactly what the scalar call with that element's values answers (its error and reason
    included); equal elements are answered once."""
    grids = {i: _grid(a) for i, (s, a) in enumerate(zip(fn.args, args, strict=False)) if _lifts(s, a)}
    sizes = {i: (len(g), max((len(line) for line in g), default=0)) for i, g in grids.items()}
    rows = max(r for r, _ in sizes.values())
    cols = max(c for _, c in sizes.values())
    memo: dict[tuple[tuple[type, Any], ...], Any] = {}  # a column repeats its IDs: answer each once (by the
    # lifted arguments' values: the others are the same for every element)

    def too_small(k: int, count: int, what: str, total: int) -> Any:
        name = fn.args[k].name
        reason = f"{name} has {count} {what}, the answer {total}: make the ranges the same size, or {name} one cell"
        return on_error(BenchError("#N/A", reason))

    lifting = tuple(grids)

    def element(i: int, j: int) -> Any:
        picked = []
        for k in lifting:
            r, c = sizes[k]
            if r != 1 and i >= r:
                return too_small(k, r, "rows", rows)
            line = grids[k][0 if r == 1 else i]
            at = 0 if c == 1 else j
            if at >= len(line):
                return too_small(k, c, "columns", cols)
            picked.append(line[at])
        try:
            key = tuple((type(v), v) for v in picked)  # 1, 1.0 and TRUE are equal in Python but not as arguments
            return memo[key]
        except KeyError:
            value = memo[key] = one(picked)
            return value
        except TypeError:  # an unhashable value
            return one(picked)

    def one(picked: list[Any]) -> Any:
        values = list(args)
        for k, v in zip(lifting, picked, strict=True):
            values[k] = v
        value = _answer(fn, table, values, on_error, is_error)
        if isinstance(value, list):  # a blank scalar_with in a range: that element would be a whole table
            return on_error(bad_value(f"{fn.scalar_with} is blank: {fn.name} answers one value only with it"))
        return value

    if len(lifting) == 1:  # the usual call, one column or row of IDs: no other range to pair with
        k = lifting[0]
        single: dict[tuple[type, Any], Any] = {}

        def cell(v: Any) -> Any:
            try:
                key = (type(v), v)
                return single[key]
            except KeyError:
                value = single[key] = one([v])
                return value
            except TypeError:
                return one([v])

        return [
            [cell(line[j]) if j < len(line) else too_small(k, cols, "columns", cols) for j in range(cols)]
            for line in grids[k]
        ]
    return [[element(i, j) for j in range(cols)] for i in range(rows)]


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


def _finite_cells(rows: list[Any], on_error: Callable[[BenchError], Any]) -> list[Any]:
    """A table's rows with every number that is not finite (inf, nan: Excel has neither) as ``#NUM!``,
    its reason naming the column where the first row is headings; the rows themselves where none is."""
    bad = [
        (i, j)
        for i, row in enumerate(rows)
        if type(row) is list
        for j, v in enumerate(row)
        if type(v) is float and not math.isfinite(v)
    ]
    if not bad:
        return rows
    head = rows[0] if type(rows[0]) is list and all(type(h) is str for h in rows[0]) else None
    out = [list(row) if type(row) is list else row for row in rows]
    for i, j in bad:
        where = f"{head[j]}: " if head is not None and j < len(head) and head[j] else ""
        out[i][j] = on_error(too_large(where))
    return out


def _answer(
    fn: Function,
    table: Table,
    args: Sequence[Any],
    on_error: Callable[[BenchError], Any],
    is_error: Callable[[Any], bool] | None,
) -> Any:
    """One answer of one cell's values."""
    try:
        converted = _convert_all(fn.args, args, is_error)
        value = fn.answer(table, converted)
        if type(value) is float and not math.isfinite(value):
            raise too_large()
        if type(value) is list:
            value = _finite_cells(value, on_error)
        invalid = invalid_runs_named(fn, table, converted) if table.invalid_runs else ()
        return f"INVALID run {', '.join(invalid)}: {value}" if invalid else value
    except _Passed as passed:
        return passed.value
    except BenchError as err:
        return on_error(err)
    except Exception as exc:  # a defect must still answer in the cell, never crash it
        return on_error(bad_value(f"benchsheet could not answer ({type(exc).__name__}: {exc})"))
