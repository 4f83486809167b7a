"""The loaded results and every table function as pandas DataFrames, for notebooks.

::

    import benchsheet
    from benchsheet import frames

    benchsheet.results()                       # the loaded table: one row per result, typed columns, + per_gpu
    frames.RATIOS("Vera Rubin", "GB300")       # a table function, with the arguments it takes in Excel
    frames.GAINS("gpt-oss-120b", "Server", new_round="6.1")   # by name too; left out = its default
    benchsheet.frame("HISTORY", "GB300", "deepseek-r1", "Server")   # the same, by the function's name

A table function's DataFrame has the header and rows of its cell answer: the first row of the
answer names the columns, in snake_case as ``results()`` names its own (``column_name``: "candidate
per-GPU" is ``candidate_per_gpu``, "$/GPU-hour" ``usd_per_gpu_hour``; the headings as the cells show them
are in ``df.attrs["headings"]``; ``HEADERLESS`` names the columns of the tables without a header row), the
rest are the rows, in order, each value as the cell holds it. A column of whole numbers is ``int64``, of
numbers ``float64`` (a blank cell among them NaN), of TRUE/FALSE ``bool``, of texts ``string``; a
mixed one stays ``object``.
An answer of one value is a one-cell frame. A failure raises ``FrameError`` with the Excel error
code and the reason the cell would show; so does an answer with an error in one of its cells (which row
it is, and its reason), so a frame never holds an error object as data.

pandas is imported here only: ``import benchsheet`` and the worksheet functions never import this
module (xlwings Lite has no pandas).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from benchsheet.analysis.pergpu import per_gpu_value
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.declare import Function
from benchsheet.catalogue.functions import BY_NAME, CATALOGUE
from benchsheet.data.store import get_table
from benchsheet.data.table import COLUMNS
from benchsheet.errors import BenchError, BenchsheetError

__all__ = ["HEADERLESS", "TABLE_FUNCTIONS", "FrameError", "column_name", "frame", "results"]

TABLE_FUNCTIONS: tuple[str, ...] = tuple(fn.name for fn in CATALOGUE if fn.returns == "table")
"""The catalogue functions that answer a table: each is ``frames.NAME(...)``."""
HEADERLESS: dict[str, tuple[str, ...]] = {
    "FAMILIES": ("family",),
    "CITE": ("line",),
    "LATENCYBOUNDS": ("p99_ttft_ms", "p99_tpot_ms"),
}
"""The table functions whose answer has no header row, and the columns their frames get."""


class FrameError(BenchsheetError):
    """A table function that answers an error: the Excel error code and its reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code} {reason}")
        self.code, self.reason = code, reason


def results() -> pd.DataFrame:
    """The loaded results, one row per official result (and your own runs): the table's columns, typed, and
    ``per_gpu`` (the result per accelerator, NaN where it has no meaning, as PERGPU answers #N/A)."""
    table = get_table()
    cells = [[_plain(getattr(r, c)) for c in COLUMNS] for r in table.rows]
    df = pd.DataFrame(cells, columns=list(COLUMNS))
    df["per_gpu"] = pd.Series([per_gpu_value(r) for r in table.rows], dtype="float64")
    return _typed(df)


def _plain(value: Any) -> Any:
    """A value of a row as a plain str, int, float or bool (``id_source`` is a StrEnum)."""
    return str(value) if isinstance(value, str) else value


def frame(name: str | None = None, *args: Any, **kwargs: Any) -> pd.DataFrame:
    """``frame()``: the loaded results (``results()``); ``frame("RATIOS", ...)``: that table function's answer."""
    if name is None:
        if args or kwargs:
            raise TypeError("frame() without a function's name takes no arguments")
        return results()
    fn = BY_NAME.get(name.strip().upper())
    if fn is None:
        raise FrameError("#NAME?", f"no function {name}; the table functions are {', '.join(TABLE_FUNCTIONS)}")
    if fn.returns != "table":
        raise FrameError(
            "#VALUE!",
            f"{fn.name} answers {'a number' if fn.returns == 'number' else 'a text'}, not a table: use "
            f"benchsheet.evaluate('{fn.example}')",
        )
    answer = call(fn, get_table(), _positional(fn, args, kwargs), _failed)
    if isinstance(answer, FrameError):
        raise answer
    if isinstance(answer, list):  # a cell of the answer is an error: raised, never held as data in a frame
        for i, row in enumerate(answer):
            for v in row if isinstance(row, list) else [row]:
                if isinstance(v, FrameError):
                    raise FrameError(v.code, f"row {i + 1} of {fn.name}'s answer: {v.reason}")
    return _frame(fn, answer)


def _positional(fn: Function, args: Sequence[Any], kwargs: dict[str, Any]) -> list[Any]:
    """The arguments in the catalogue's order; one left out is None (its default, as an empty cell)."""
    names = [a.name for a in fn.args]
    if len(args) > len(names):
        raise TypeError(f"{fn.name} takes at most {len(names)} arguments ({', '.join(names)})")
    values = [*args, *[None] * (len(names) - len(args))]
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"{fn.name} has no argument {key!r}; its arguments are {', '.join(names)}")
        at = names.index(key)
        if at < len(args):
            raise TypeError(f"{fn.name} got {key!r} twice")
        values[at] = value
    while values and values[-1] is None:
        values.pop()
    return [_cells(v) for v in values]


def _cells(value: Any) -> Any:
    """A pandas or numpy argument as the range Excel would hand over: a Series or 1-D array a column of cells,
    a DataFrame or 2-D array its rows (without the headings), each value a plain Python one."""
    if isinstance(value, pd.DataFrame):
        value = value.to_numpy()
    if isinstance(value, pd.Series | pd.Index):
        value = value.to_numpy()
    if isinstance(value, np.ndarray):
        if value.ndim > 2:
            raise TypeError(f"a range has rows and columns; this array has {value.ndim} dimensions")
        rows = value.reshape(-1, 1) if value.ndim < 2 else value
        return [[v.item() if isinstance(v, np.generic) else v for v in row] for row in rows.tolist()]
    return value


def _failed(err: BenchError) -> FrameError:
    return FrameError(err.code, err.reason)


def _frame(fn: Function, answer: Any) -> pd.DataFrame:
    if not isinstance(answer, list):  # one value
        return _typed(pd.DataFrame([[answer]], columns=["value"]))
    if fn.name in HEADERLESS:
        return _typed(pd.DataFrame(answer, columns=list(HEADERLESS[fn.name])))
    header, rows = answer[0], answer[1:]
    names: list[str] = []
    for heading in header:
        name = column_name(heading)
        names.append(name if name not in names else f"{name}_{sum(n.startswith(name) for n in names) + 1}")
    df = _typed(pd.DataFrame(rows, columns=names))
    df.attrs["headings"] = list(header)
    return df


def column_name(heading: str) -> str:
    """A heading of a table function's answer as a column name in ``results()``' convention: snake_case,
    "$" as usd, "/" as per, "%" as pct ("candidate per-GPU" -> ``candidate_per_gpu``)."""
    words = str(heading).replace("$", " usd ").replace("/", " per ").replace("%", " pct ")
    return re.sub(r"[^0-9A-Za-z]+", "_", words).strip("_").lower() or "value"


def _typed(df: pd.DataFrame) -> pd.DataFrame:
    """Each column as the type all its values share: int64, float64 (a blank cell among numbers is NaN), bool or
    string; object where they differ."""
    columns = {i: _column(df.iloc[:, i].tolist()) for i in range(df.shape[1])}
    out = pd.DataFrame(columns, index=pd.RangeIndex(len(df)))
    out.columns = pd.Index(list(df.columns))
    return out


def _column(values: list[Any]) -> pd.Series:  # a Series of any one dtype
    kinds = {type(v) for v in values}
    if kinds == {str}:
        return pd.Series(values, dtype="string")
    if kinds == {int}:
        return pd.Series(values, dtype="int64")
    if kinds & {int, float} and kinds <= {int, float, str} and all(v == "" for v in values if type(v) is str):
        return pd.Series([math.nan if v == "" else v for v in values], dtype="float64")
    if kinds == {bool}:
        return pd.Series(values, dtype="bool")
    return pd.Series(values, dtype=object)


def _table_function(fn: Function) -> Callable[..., pd.DataFrame]:
    def table_function(*args: Any, **kwargs: Any) -> pd.DataFrame:
        return frame(fn.name, *args, **kwargs)

    table_function.__name__ = table_function.__qualname__ = fn.name
    table_function.__doc__ = f"{fn.signature}: {fn.help}\n\nExample (in Excel): {fn.example}"
    return table_function


def __getattr__(name: str) -> Callable[..., pd.DataFrame]:
    """``frames.RESULTS``, ``frames.RATIOS``, ...: each table function of the catalogue."""
    if name in TABLE_FUNCTIONS:
        made = globals()[name] = _table_function(BY_NAME[name])
        return made
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *TABLE_FUNCTIONS})
