"""Excel's Statistical functions (Formulas > More Functions > Statistical, with the older names
Excel keeps under Compatibility: STDEV, VAR, MODE, RANK, POISSON...).

The functions of many values (AVERAGE, MAX, STDEV, COUNT...) read their arguments by Excel's rule
(``excelcalc.args``: in a range only numbers count, typed directly "5" and TRUE do); their
statistics are kept here once, so SUBTOTAL and AGGREGATE (``lib.math``) show the digits these
functions do. LARGE and SMALL read the array by that rule and leave ``k`` to formulas' own.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from excelcalc.args import SKIP, Rule, counted, direct, direct_strict, in_range, in_range_a, many, values
from excelcalc.backend import EMPTY, Array, XlError, error
from excelcalc.lib._common import FORMULAS, Entry, Wraps, formulas_own, total

__all__ = ["FUNCTIONS", "STATISTICS", "mode"]


def _average(v: list[float]) -> Any:
    return total(v) / len(v) if v else error("#DIV/0!")


def _squares(v: list[float]) -> float:
    mean = total(v) / len(v)
    return total([(x - mean) ** 2 for x in v])


def _variance(ddof: int) -> Callable[[list[float]], Any]:
    return lambda v: _squares(v) / (len(v) - ddof) if len(v) > ddof else error("#DIV/0!")


def _deviation(ddof: int) -> Callable[[list[float]], Any]:
    return lambda v: math.sqrt(_squares(v) / (len(v) - ddof)) if len(v) > ddof else error("#DIV/0!")


def _absolute_deviation(v: list[float], mean: float) -> float:
    return total([abs(x - mean) for x in v]) / len(v)


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
    "MIN": lambda v: min(v, default=0.0),
    "MAX": lambda v: max(v, default=0.0),
    "AVERAGE": _average,
    "MEDIAN": _or_num(lambda v: float(np.median(v))),
    "AVEDEV": _or_num(lambda v: _absolute_deviation(v, total(v) / len(v))),
    "DEVSQ": _or_num(_squares),
    "GEOMEAN": _positive(lambda v: math.exp(total([math.log(x) for x in v]) / len(v))),
    "HARMEAN": _positive(lambda v: len(v) / total([1 / x for x in v])),
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


_OWN: dict[str, Callable[..., Any]] = {
    **{name: many(name, f, in_range, direct) for name, f in STATISTICS.items()},
    **{name: many(name, STATISTICS[base], in_range_a, direct) for name, base in A_VARIANTS.items()},
    "MODE": many("MODE", mode, in_range, direct_strict),
    "COUNT": _counting("COUNT", counted(in_range), counted(direct)),
    "COUNTA": _counting("COUNTA", lambda v: SKIP if v is EMPTY else 1.0, lambda v: 1.0),
}
_OWN["MODE.SNGL"] = _OWN["MODE"]


def _ranked(name: str) -> Wraps:
    return Wraps(lambda table: _numbers_first(name, functools.partial(table.excel, name)))


FUNCTIONS: dict[str, Entry] = {
    **_OWN,
    **{f"_XLFN.{name}": f for name, f in _OWN.items() if "." in name},  # as files spell the newer names
    "LARGE": _ranked("LARGE"),
    "SMALL": _ranked("SMALL"),
    "COUNTBLANK": FORMULAS,
    "COUNTIF": FORMULAS,
    "COUNTIFS": FORMULAS,
    "MODE.MULT": FORMULAS,
    "_XLFN.MODE.MULT": FORMULAS,
    "POISSON": FORMULAS,
    "RANK": FORMULAS,
    # Excel 2010's names of the distributions and ranks (Microsoft's pages: each "replaces" an older
    # function of the same answers) and those older ones: formulas' own, checked against the
    # examples of Microsoft's pages (tests/excelcalc/lib/test_statistical.py)
    **formulas_own(
        "NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T RANK.EQ RANK.AVG "
        "PERCENTILE.INC PERCENTILE.EXC QUARTILE.INC QUARTILE.EXC CHISQ.DIST CHISQ.DIST.RT CHISQ.INV CHISQ.INV.RT "
        "F.DIST F.DIST.RT F.INV F.INV.RT BINOM.DIST POISSON.DIST EXPON.DIST GAMMA.DIST LOGNORM.DIST "
        "CONFIDENCE.NORM CONFIDENCE.T COVARIANCE.P COVARIANCE.S NORMDIST NORMINV NORMSDIST NORMSINV TDIST TINV "
        "CHIDIST CHIINV FDIST FINV BINOMDIST EXPONDIST GAMMADIST LOGNORMDIST CONFIDENCE COVAR PERCENTILE QUARTILE"
    ),
}
