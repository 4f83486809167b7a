"""How Excel reads the arguments of its functions of many values (SUM, COUNT, MAX, STDEV, AND...).

Microsoft's pages (SUM, COUNT, AVERAGE, AVERAGEA, AND, MODE...) give one rule, kept here once:

* in a reference or an array argument (``A1:A9``, ``E15``, ``{1,"5",TRUE}``) only numbers count;
  text (even "5"), TRUE/FALSE and empty cells are ignored; an error is the answer;
* typed directly as an argument, TRUE is 1, a text that reads as a number is that number (``"5"``
  is 5), any other text #VALUE!; a left-out argument is 0;
* the ``...A`` variants (AVERAGEA, MAXA...) also count TRUE as 1, FALSE and text as 0 in a reference;
* COUNT counts what would be a number (direct TRUE and "5" too), COUNTA every value not empty;
* AND/OR/XOR read TRUE/FALSE and numbers (0 is FALSE), and text "TRUE"/"FALSE" typed directly.

The ``formulas`` package read a text "5" in a range as 5 (``SUM`` of a range holding "5" added it,
``ISNUMBER("5")`` was TRUE). Apache POI's FormulaEvalTestData, with Excel's cached answers, is in the
corpus (tests/corpus) and judges every rule; the exceptions it shows are cited where they are kept.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from excelcalc.backend import EMPTY, Array, Ranges, XlError, as_grid, cellwise, error
from excelcalc.textnum import text_number

Rule = Callable[[Any], Any]  # one value -> a number (or bool) it counts as, SKIP, or an error
SKIP: Any = object()


def is_number(v: Any) -> bool:
    return (type(v) is float or type(v) is int or isinstance(v, np.floating | np.integer)) and not isinstance(
        v, bool | np.bool_
    )


def in_range(v: Any) -> Any:
    """A value of a reference or array: numbers only."""
    if is_number(v):
        return float(v)
    return v if isinstance(v, XlError) else SKIP


def in_range_a(v: Any) -> Any:
    """A value of a reference or array for AVERAGEA, MAXA...: TRUE 1, FALSE and text 0, empty ignored."""
    if isinstance(v, XlError):
        return v
    if isinstance(v, bool | np.bool_):
        return float(v)
    if v is EMPTY:
        return SKIP
    return 0.0 if isinstance(v, str) else in_range(v)


def direct(v: Any) -> Any:
    """A value typed as an argument (or computed by another function): converted to a number."""
    if isinstance(v, XlError):
        return v
    if v is EMPTY:
        return 0.0
    if isinstance(v, bool | np.bool_):
        return float(v)
    if isinstance(v, str):
        n = text_number(v)
        return error("#VALUE!") if n is None else n
    return float(v) if is_number(v) else error("#VALUE!")


def direct_strict(v: Any) -> Any:
    """MODE's single values (a cell reference too): a number, or #VALUE! (FormulaEvalTestData:
    ``MODE(B9,2,D7)`` with D7 empty and ``MODE(B8,"1",2,3)`` are #VALUE!)."""
    if isinstance(v, XlError):
        return v
    return float(v) if is_number(v) else error("#VALUE!")


def _counted(rule: Rule) -> Rule:
    """COUNT's and COUNTA's rule: 1 for what ``rule`` keeps, nothing else (errors too)."""

    def one(v: Any) -> Any:
        got = rule(v)
        return SKIP if got is SKIP or isinstance(got, XlError) else 1.0

    return one


def in_range_logical(v: Any) -> Any:
    if isinstance(v, XlError):
        return v
    if isinstance(v, bool | np.bool_):
        return bool(v)
    return bool(v) if is_number(v) else SKIP


def direct_logical(v: Any) -> Any:
    if isinstance(v, str) and not isinstance(v, XlError) and v is not EMPTY:
        word = v.strip().upper()
        return word == "TRUE" if word in ("TRUE", "FALSE") else error("#VALUE!")
    return SKIP if v is EMPTY else in_range_logical(v)


def _single(arg: Any) -> bool:
    """An argument that is one value, not a reference or an array (``{"a"}`` is an array; formulas
    answers a function's single value as an array of no dimensions)."""
    return not isinstance(arg, Ranges) and (not isinstance(arg, np.ndarray) or arg.ndim == 0)


def values(args: Iterable[Any], ranged: Rule, single: Rule, cell_is_single: bool = False) -> list[Any] | XlError:
    """The values the arguments count as, in order (a range row by row); the first error met instead."""
    out: list[Any] = []
    items: Iterable[Any]
    for arg in args:
        if _single(arg) or (cell_is_single and isinstance(arg, Ranges) and as_grid(arg).size == 1):
            items, rule = [as_grid(arg).flat[0]] if isinstance(arg, Ranges | np.ndarray) else [arg], single
        else:
            items, rule = as_grid(arg).flat, ranged
        for v in items:
            got = rule(v)
            if got is SKIP:
                continue
            if isinstance(got, XlError):
                return got
            out.append(got)
    return out


def _aggregate(name: str, of: Callable[[list[float]], Any], ranged: Rule, single: Rule) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        got = values(args, ranged, single, cell_is_single=single is direct_strict)
        return got if isinstance(got, XlError) else of(got)

    run.__name__ = name
    return run


def _total(v: list[float]) -> float:
    """Left to right, as Excel adds (FormulaEvalTestData's AVERAGE of ±9999999999 and small
    numbers keeps Excel's rounding: pairwise or exact sums answer another last digit)."""
    out = 0.0
    for x in v:
        out += x
    return out


def _average(v: list[float]) -> Any:
    return _total(v) / len(v) if v else error("#DIV/0!")


def _squares(v: list[float]) -> float:
    mean = _total(v) / len(v)
    return _total([(x - mean) ** 2 for x in v])


def _variance(ddof: int) -> Callable[[list[float]], Any]:
    return lambda v: _squares(v) / (len(v) - ddof) if len(v) > ddof else error("#DIV/0!")


def _deviation(ddof: int) -> Callable[[list[float]], Any]:
    return lambda v: math.sqrt(_squares(v) / (len(v) - ddof)) if len(v) > ddof else error("#DIV/0!")


def _absolute_deviation(v: list[float], mean: float) -> float:
    return _total([abs(x - mean) for x in v]) / len(v)


def _or_num(f: Callable[[list[float]], Any]) -> Callable[[list[float]], Any]:
    """A statistic of no values is #NUM! (AVEDEV, DEVSQ, MEDIAN, GEOMEAN of text only)."""
    return lambda v: f(v) if v else error("#NUM!")


def _positive(f: Callable[[list[float]], Any]) -> Callable[[list[float]], Any]:
    return _or_num(lambda v: f(v) if min(v) > 0 else error("#NUM!"))


def mode(v: list[float]) -> Any:
    """The value repeated most often, the first met of those (#N/A when none repeats)."""
    counts: dict[float, int] = {}
    for x in v:
        counts[x] = counts.get(x, 0) + 1
    most = max(counts.values(), default=0)
    return next(x for x, n in counts.items() if n == most) if most > 1 else error("#N/A")


STATISTICS: dict[str, Callable[[list[float]], Any]] = {
    "SUM": _total,
    "PRODUCT": lambda v: math.prod(v) if v else 0.0,
    "SUMSQ": lambda v: _total([x * x for x in v]),
    "MIN": lambda v: min(v, default=0.0),
    "MAX": lambda v: max(v, default=0.0),
    "AVERAGE": _average,
    "MEDIAN": _or_num(lambda v: float(np.median(v))),
    "AVEDEV": _or_num(lambda v: _absolute_deviation(v, _total(v) / len(v))),
    "DEVSQ": _or_num(_squares),
    "GEOMEAN": _positive(lambda v: math.exp(_total([math.log(x) for x in v]) / len(v))),
    "HARMEAN": _positive(lambda v: len(v) / _total([1 / x for x in v])),
    "STDEV": _deviation(1),
    "STDEV.S": _deviation(1),
    "STDEVP": _deviation(0),
    "STDEV.P": _deviation(0),
    "VAR": _variance(1),
    "VAR.S": _variance(1),
    "VARP": _variance(0),
    "VAR.P": _variance(0),
}
A_VARIANTS = {"AVERAGEA": "AVERAGE", "MAXA": "MAX", "MINA": "MIN", "STDEVA": "STDEV", "STDEVPA": "STDEVP"}
A_VARIANTS |= {"VARA": "VAR", "VARPA": "VARP"}


def _logical(name: str, of: Callable[[list[bool]], bool]) -> Callable[..., Any]:
    """AND/OR/XOR: #VALUE! when no argument holds a logical value or a number."""

    def run(*args: Any) -> Any:
        got = values(args, in_range_logical, direct_logical)
        if isinstance(got, XlError):
            return got
        return of(got) if got else error("#VALUE!")

    run.__name__ = name
    return run


def _counting(name: str, ranged: Rule, single: Rule) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        got = values(args, ranged, single)
        return float(len(got)) if isinstance(got, list) else got

    run.__name__ = name
    return run


def _numbers_first(name: str, original: Callable[[], Callable[..., Any]]) -> Callable[..., Any]:
    """LARGE/SMALL: the array's numbers read by the rule above, ``k`` left to formulas' function
    (``original()``, loaded when first called: its module imports scipy)."""

    def run(array: Any, *rest: Any) -> Any:
        got = values([array], in_range, direct)
        if isinstance(got, XlError):
            return got
        return original()(np.asarray(got, dtype=object).reshape(1, -1).view(Array), *rest)

    run.__name__ = name
    return run


def sumproduct(*args: Any) -> Any:
    """SUMPRODUCT (Microsoft's page: "treats array entries that are not numeric as if they were
    zeros"; arrays of different dimensions are #VALUE!). Of single values only, each must be a
    number (FormulaEvalTestData: ``SUMPRODUCT(3,B10,C9)`` is 3*B10*C9, a text "4" is #VALUE!)."""
    grids = [as_grid(a) for a in args]
    if all(g.size == 1 for g in grids):
        got = values((0.0 if g.flat[0] is EMPTY else g.flat[0] for g in grids), direct_strict, direct_strict)
        return got if isinstance(got, XlError) else math.prod(got)
    if any(g.shape != grids[0].shape for g in grids):
        return error("#VALUE!")
    columns: list[list[float]] = []
    for g in grids:
        for v in g.flat:
            if isinstance(v, XlError):
                return v
        columns.append([float(v) if is_number(v) else 0.0 for v in g.flat])
    return _total([math.prod(row) for row in zip(*columns, strict=True)])


def isnumber(v: Any) -> Any:
    """ISNUMBER: TRUE for a number only (``ISNUMBER("5")`` is FALSE), cell by cell over a range."""
    grid = as_grid(v)
    out = cellwise(is_number, grid)
    return out if _single(v) is False else out.flat[0]


def register(table: Any) -> None:
    """Put the functions of many values into the engine's function table, under their names as
    files spell them (``STDEV.S`` is ``_xlfn.STDEV.S`` in a file)."""
    own: dict[str, Callable[..., Any]] = {}
    for name, f in STATISTICS.items():
        own[name] = _aggregate(name, f, in_range, direct)
    for name, base in A_VARIANTS.items():
        own[name] = _aggregate(name, STATISTICS[base], in_range_a, direct)
    own["MODE"] = own["MODE.SNGL"] = _aggregate("MODE", mode, in_range, direct_strict)
    own["COUNT"] = _counting("COUNT", _counted(in_range), _counted(direct))
    own["COUNTA"] = _counting("COUNTA", lambda v: SKIP if v is EMPTY else 1.0, lambda v: 1.0)
    own["AND"] = _logical("AND", all)
    own["OR"] = _logical("OR", any)
    own["XOR"] = _logical("XOR", lambda v: sum(v) % 2 == 1)
    own["ISNUMBER"] = isnumber
    own["SUMPRODUCT"] = sumproduct
    for name in ("LARGE", "SMALL"):
        own[name] = _numbers_first(name, functools.partial(table.excel, name))
    for name, f in own.items():
        table[name] = f
        if "." in name or name == "XOR":
            table[f"_XLFN.{name}"] = f
