"""Excel's Statistical functions (Formulas > More Functions > Statistical, with the older names
Excel keeps under Compatibility: STDEV, VAR, MODE, RANK, POISSON...).

The functions of many values (AVERAGE, MAX, STDEV, COUNT...) read their arguments by Excel's rule
(``excelcalc.args``: in a range only numbers count, typed directly "5" and TRUE do); their
statistics are kept here once, so SUBTOTAL and AGGREGATE (``lib.math``) show the digits these
functions do. LARGE and SMALL read the array by that rule and leave ``k`` to formulas' own.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable
from decimal import ROUND_DOWN, Decimal
from typing import Any

import numpy as np

from excelcalc.args import SKIP, Rule, counted, direct, direct_strict, in_range, in_range_a, is_number, many, values
from excelcalc.backend import EMPTY, Array, Ranges, XlError, as_grid, error
from excelcalc.lib._common import FORMULAS, Entry, Wraps, formulas_own, plain_number, scalar, total
from excelcalc.lib.criteria import keeping_blanks, reshaping
from excelcalc.values import ReasonedError

__all__ = ["FUNCTIONS", "STATISTICS", "mode"]


def _average(v: list[float]) -> Any:
    return total(v) / len(v) if v else error("#DIV/0!")


def _squares(v: list[float]) -> float:
    mean = total(v) / len(v)
    return total([(x - mean) ** 2 for x in v])


def _excel_variance(v: list[float], ddof: int) -> float:
    """The variance as Excel sums it, from the sum of squares and the square of the sum (not the
    squared deviations from the mean, DEVSQ's): of a sample (``ddof`` 1) the sum of squares less the
    square of the sum over n, over n - 1; of a population n times the sum of squares less the square
    of the sum, over n squared. Of the 37 VAR, VARP and STDEV cells Excel cached in tests/corpus these
    give all 37 to the last digit, the squared deviations 29. Never below 0 (a rounding of equal values)."""
    n, s, sq = len(v), total(v), total([x * x for x in v])
    got = (sq - s * s / n) / (n - 1) if ddof else (n * sq - s * s) / (n * n)
    return max(got, 0.0)


def _variance(ddof: int) -> Callable[[list[float]], Any]:
    return lambda v: _excel_variance(v, ddof) if len(v) > ddof else error("#DIV/0!")


def _deviation(ddof: int) -> Callable[[list[float]], Any]:
    return lambda v: math.sqrt(_excel_variance(v, ddof)) if len(v) > ddof else error("#DIV/0!")


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


def _cut(x: float, digits: int) -> float:
    """``x`` cut (not rounded) to ``digits`` decimals, as PERCENTRANK shows it: read to Excel's 15
    significant digits first, so 0.381 computed as 0.38099999999999995 stays 0.381."""
    shown = Decimal(f"{x:.15g}")
    return float(shown if digits >= 15 else shown.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_DOWN))


def _percent_rank(name: str, exclusive: bool) -> Callable[..., Any]:
    """PERCENTRANK.INC (and PERCENTRANK) and PERCENTRANK.EXC as Microsoft's pages define them: of the
    array's numbers (text, logical values and empty cells skipped), x's rank is the values below it
    over n - 1 (.EXC: those below plus 1 over n + 1); an x between two values is interpolated between
    their ranks (a repeated value above x ranked by the values below it: the .EXC page's 5.43, between
    3 and 6, 6, 6, is 0.381); the answer cut to ``significance`` decimals (3). Empty array or
    significance below 1 #NUM!, x outside the values #N/A. x on a repeated value, or just above one,
    is refused: Excel ranks it otherwise than the pages say, and no Excel-saved cell shows how."""

    def run(array: Any, x: Any, significance: Any = None) -> Any:
        got = values([array], in_range, in_range)
        if isinstance(got, XlError):
            return got
        at = plain_number(x, f"{name}'s x")
        if isinstance(at, XlError):
            return at
        digits = 3.0 if significance is None or scalar(significance) is EMPTY else plain_number(significance)
        if isinstance(digits, XlError):
            return digits
        if not got or digits < 1:
            return error("#NUM!")
        data = sorted(got)
        n = len(data)
        if at < data[0] or at > data[-1]:
            return error("#N/A")
        below = bisect.bisect_left(data, at)
        near = data[below] if data[below] == at else data[below - 1]
        if bisect.bisect_right(data, near) - bisect.bisect_left(data, near) > 1:
            return ReasonedError(
                "#NUM!", f"{name} of x on or just above a repeated value is not computed by benchsheet"
            )
        if n == 1 and not exclusive:
            return ReasonedError("#NUM!", f"{name} of an array of one value is not computed by benchsheet")

        def rank(k: int) -> float:
            return (k + 1) / (n + 1) if exclusive else k / (n - 1)

        if data[below] == at:
            return _cut(rank(below), int(digits))
        low, high = data[below - 1], data[below]
        return _cut(rank(below - 1) + (at - low) / (high - low) * (rank(below) - rank(below - 1)), int(digits))

    run.__name__ = name
    return run


def _whole(v: Any) -> Any:
    """A number cut to its whole part (each number of a range or an array); anything else as it is."""
    if isinstance(v, Ranges):
        v = v.value
    if isinstance(v, np.ndarray):
        return np.vectorize(_whole, otypes=[object])(v).view(Array) if v.size else v
    if isinstance(v, int | float | np.number) and not isinstance(v, bool | np.bool_) and math.isfinite(v):
        return float(math.trunc(float(v)))
    return v


def _poisson(name: str) -> Wraps:
    """POISSON.DIST and POISSON: "If x is not an integer, it is truncated" (Microsoft's page); formulas' own
    answered 0 for a fraction of an event. formulas' function is loaded at the first call (it imports scipy)."""

    def make(table: Any) -> Callable[..., Any]:
        def run(x: Any, mean: Any, cumulative: Any) -> Any:
            return table.excel(name)(_whole(x), mean, cumulative)

        run.__name__ = name
        return run

    return Wraps(make)


def _ranked(name: str) -> Wraps:
    return Wraps(lambda table: _numbers_first(name, functools.partial(table.excel, name)))


FUNCTIONS: dict[str, Entry] = {
    **_OWN,
    **{f"_XLFN.{name}": f for name, f in _OWN.items() if "." in name},  # as files spell the newer names
    "LARGE": _ranked("LARGE"),
    "SMALL": _ranked("SMALL"),
    **{
        f"{prefix}{name}": _percent_rank(name, name.endswith("EXC"))
        for name in ("PERCENTRANK", "PERCENTRANK.INC", "PERCENTRANK.EXC")
        for prefix in ("", "_XLFN.")
        if not prefix or "." in name
    },
    "COUNTBLANK": FORMULAS,
    # their criteria as Excel's (lib.criteria), the blank cells of their criteria ranges blank
    "COUNTIF": keeping_blanks("COUNTIF", 0),
    "COUNTIFS": keeping_blanks("COUNTIFS", 0),
    "MINIFS": keeping_blanks("MINIFS", 1),  # Microsoft's pages' examples (issue 44)
    "MAXIFS": keeping_blanks("MAXIFS", 1),
    "AVERAGEIF": keeping_blanks("AVERAGEIF", 0, reshaping("AVERAGEIF")),
    "AVERAGEIFS": keeping_blanks("AVERAGEIFS", 1),
    "MODE.MULT": FORMULAS,
    "_XLFN.MODE.MULT": FORMULAS,
    "POISSON": _poisson("POISSON"),
    "POISSON.DIST": _poisson("POISSON.DIST"),
    "_XLFN.POISSON.DIST": _poisson("_XLFN.POISSON.DIST"),
    "RANK": FORMULAS,
    # Excel 2010's names of the distributions and ranks (Microsoft's pages: each "replaces" an older
    # function of the same answers) and those older ones: formulas' own, checked against the
    # examples of Microsoft's pages (tests/excelcalc/lib/test_statistical.py)
    **formulas_own(
        "NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T RANK.EQ RANK.AVG "
        "PERCENTILE.INC PERCENTILE.EXC QUARTILE.INC QUARTILE.EXC CHISQ.DIST CHISQ.DIST.RT CHISQ.INV CHISQ.INV.RT "
        "F.DIST F.DIST.RT F.INV F.INV.RT BINOM.DIST EXPON.DIST GAMMA.DIST LOGNORM.DIST "
        "CONFIDENCE.NORM CONFIDENCE.T COVARIANCE.P COVARIANCE.S NORMDIST NORMINV NORMSDIST NORMSINV TDIST TINV "
        "CHIDIST CHIINV FDIST FINV BINOMDIST EXPONDIST GAMMADIST LOGNORMDIST CONFIDENCE COVAR PERCENTILE QUARTILE"
    ),
    # the other statistics of pairs, shapes, tests and distributions
    **formulas_own(
        "CORREL PEARSON SLOPE INTERCEPT RSQ STEYX FORECAST FORECAST.LINEAR STANDARDIZE GAMMALN GAMMALN.PRECISE "
        "SKEW SKEW.P KURT BETA.DIST BETADIST BETA.INV BETAINV WEIBULL.DIST WEIBULL HYPGEOM.DIST HYPGEOMDIST "
        "NEGBINOM.DIST NEGBINOMDIST BINOM.INV CRITBINOM GAMMA.INV GAMMAINV LOGNORM.INV LOGINV "
        "T.TEST TTEST CHISQ.TEST CHITEST Z.TEST ZTEST F.TEST FTEST FISHER FISHERINV PHI GAMMA GAUSS"
    ),
}


# ---------------------------------------------------------------- LINEST, LOGEST, TREND, GROWTH


def _not_computed(name: str, what: str) -> ReasonedError:
    return ReasonedError("#VALUE!", f"{name} {what} is not computed by benchsheet")


def _grid_numbers(name: str, v: Any) -> np.ndarray | XlError:
    """A LINEST argument's cells as a float grid; an error among them is the answer, text or a
    blank #VALUE! (Microsoft's pages: the arguments are numbers)."""
    grid = as_grid(v)
    out = np.empty(grid.shape, dtype=float)
    for idx, x in np.ndenumerate(grid):
        if isinstance(x, XlError):
            return x
        if not is_number(x):
            return error("#VALUE!")
        out[idx] = float(x)
    return out


def _flag(name: str, v: Any, default: bool) -> bool | XlError:
    """const or stats: omitted or left empty (``,,``, marked by ``formula.mark_missing``) is ``default``, as
    Excel reads an empty const as TRUE (Microsoft's LINEST example 1); a typed 0 is FALSE."""
    v = scalar(v)
    if v is None or v is EMPTY:
        return default
    if isinstance(v, XlError):
        return v
    if isinstance(v, str):
        return error("#VALUE!")
    return bool(v)


def _design(name: str, y: np.ndarray, x: Any, n: int) -> np.ndarray | XlError:
    """known_x's as n rows of observations, one column a variable: one row or column of y reads
    x's columns (rows, when y is a row) as its variables; no x is 1, 2, 3..."""
    if x is None or x is EMPTY:
        return np.arange(1.0, n + 1).reshape(n, 1)
    grid = _grid_numbers(name, x)
    if isinstance(grid, XlError):
        return grid
    if grid.shape == y.shape:
        return grid.reshape(n, 1)
    if y.shape[1] == 1 and grid.shape[0] == n:
        return grid
    if y.shape[0] == 1 and grid.shape[1] == n:
        return grid.T
    return error("#REF!")


class _Fit:
    """A least squares fit of y on the columns of x (and an intercept b unless ``with_b`` is False),
    on data centred on its means with an intercept, so an exact line comes out exact."""

    def __init__(self, x: np.ndarray, y: np.ndarray, with_b: bool) -> None:
        self.x, self.y, self.with_b = x, y, with_b
        self.n, self.k = x.shape
        self.x_mean = x.mean(axis=0) if with_b else np.zeros(self.k)
        self.y_mean = float(y.mean()) if with_b else 0.0
        xc, yc = x - self.x_mean, y - self.y_mean
        self.gram = np.linalg.inv(xc.T @ xc)
        if self.k == 1:
            self.m = np.array([float(xc[:, 0] @ yc) / float(xc[:, 0] @ xc[:, 0])])
        else:
            q, r = np.linalg.qr(xc)
            self.m = np.linalg.solve(r, q.T @ yc)
        self.b = self.y_mean - float(self.x_mean @ self.m) if with_b else 0.0

    def at(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x @ self.m + self.b, dtype=float)


def _fit(name: str, known_y: Any, known_x: Any, const: Any, log: bool) -> _Fit | XlError:
    """The least squares fit of y (ln y with ``log``, LOGEST and GROWTH) on known_x's."""
    y = _grid_numbers(name, known_y)
    if isinstance(y, XlError):
        return y
    if y.shape[0] != 1 and y.shape[1] != 1:
        return _not_computed(name, "of known_y's of several rows and columns")
    if log:
        if (y <= 0).any():
            return error("#NUM!")
        y = np.log(y)
    n = y.size
    x = _design(name, y, known_x, n)
    if isinstance(x, XlError):
        return x
    with_b = _flag(name, const, True)
    if isinstance(with_b, XlError):
        return with_b
    centred = x - x.mean(axis=0) if with_b else x
    if n < 1 or np.linalg.matrix_rank(centred) < x.shape[1]:
        return _not_computed(name, "of x's that depend on each other (collinear) or do not vary")
    return _Fit(x, y.reshape(n), with_b)


def _regression(name: str, log: bool) -> Callable[..., Any]:
    """LINEST and LOGEST (Microsoft's pages): {m_k, ..., m_1, b}, and with stats their standard
    errors (b's #N/A without b), r2 and the standard error of y, F and the degrees of freedom, the
    regression and residual sums of squares, the rest of the 5 rows #N/A; LOGEST's m and b are
    e to the fitted ones, its statistics those of ln y."""

    def run(known_y: Any, known_x: Any = None, const: Any = None, stats: Any = None) -> Any:
        fit = _fit(name, known_y, known_x, const, log)
        if isinstance(fit, XlError):
            return fit
        shown = [float(m) for m in fit.m[::-1]] + [fit.b]
        if log:
            shown = [math.exp(c) for c in shown]
        want = _flag(name, stats, False)
        if isinstance(want, XlError):
            return want
        if not want:
            return np.asarray([shown], dtype=object).view(Array)
        na = error("#N/A")
        df = fit.n - fit.k - (1 if fit.with_b else 0)
        resid = fit.y - fit.at(fit.x)
        ss_resid = float(resid @ resid)
        if df <= 0 or ss_resid == 0:
            return _not_computed(name, "statistics of a fit through every point")
        ss_total = float(((fit.y - fit.y_mean) ** 2).sum())
        ss_reg = ss_total - ss_resid
        sey2 = ss_resid / df
        se = [math.sqrt(sey2 * g) for g in np.diag(fit.gram)[::-1]]
        se_b: Any = na
        if fit.with_b:
            se_b = math.sqrt(sey2 * (1 / fit.n + float(fit.x_mean @ fit.gram @ fit.x_mean)))
        rows = [shown, [*se, se_b], [ss_reg / ss_total, math.sqrt(sey2)], [ss_reg / fit.k / sey2, float(df)]]
        rows.append([ss_reg, ss_resid])
        out = [[*row, *([na] * (fit.k + 1 - len(row)))] for row in rows]
        return np.asarray(out, dtype=object).view(Array)

    run.__name__ = name
    return run


def _prediction(name: str, log: bool) -> Callable[..., Any]:
    """TREND and GROWTH (Microsoft's pages): the fitted y (e to it, GROWTH) at new_x's, by default
    at known_x's; of one variable in new_x's shape, of several one per row (column, y a row)."""

    def run(known_y: Any, known_x: Any = None, new_x: Any = None, const: Any = None) -> Any:
        fit = _fit(name, known_y, known_x, const, log)
        if isinstance(fit, XlError):
            return fit
        row_y = as_grid(known_y).shape[0] == 1
        if new_x is None or new_x is EMPTY:
            x = fit.x
            shape = as_grid(known_y if known_x is None or known_x is EMPTY else known_x).shape
            if fit.k > 1:
                shape = (1, fit.n) if row_y else (fit.n, 1)
        else:
            grid = _grid_numbers(name, new_x)
            if isinstance(grid, XlError):
                return grid
            if fit.k == 1:
                x, shape = grid.reshape(-1, 1), grid.shape
            elif not row_y and grid.shape[1] == fit.k:
                x, shape = grid, (grid.shape[0], 1)
            elif row_y and grid.shape[0] == fit.k:
                x, shape = grid.T, (1, grid.shape[1])
            else:
                return error("#REF!")
        got = fit.at(x)
        if log:
            got = np.exp(got)
        return np.asarray(got, dtype=object).reshape(shape).view(Array)

    run.__name__ = name
    return run


_REGRESSIONS: dict[str, Callable[..., Any]] = {
    "LINEST": _regression("LINEST", False),
    "LOGEST": _regression("LOGEST", True),
    "TREND": _prediction("TREND", False),
    "GROWTH": _prediction("GROWTH", True),
}
FUNCTIONS |= _REGRESSIONS
