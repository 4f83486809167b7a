"""Excel's functions, grouped as Excel groups them (the Formulas ribbon's groups), and the one
registry that installs them.

Each category module says in its ``FUNCTIONS`` (and ``OPERATORS``, where it computes operators)
what it provides, in one form (``_common.Entry``): the engine's own implementation, a correction
of formulas' own (``Wraps``), or formulas' own checked as it is (``FORMULAS``):

* ``math`` (Math & Trig, and the arithmetic operators; ``mathtrig`` those of issue 41), ``text``
  (Text, and ``&``; ``textparts`` TEXTBEFORE, TEXTAFTER and TEXTSPLIT; ``regexes`` the REGEX functions),
  ``datetime`` (Date & Time), ``lookup`` (Lookup & Reference, implicit intersection and ``:``),
  ``statistical`` (Statistical, with Compatibility's STDEV, VAR, MODE...), ``information``,
  ``engineering``, ``financial``, ``logical`` (Logical, and the comparison operators), ``arrays``
  (Excel 365's dynamic arrays: FILTER, SORT, SORTBY, UNIQUE, SEQUENCE).
* ``sheets``: the workbook as OFFSET, INDIRECT, SUBTOTAL... read it while a formula runs.
* ``excelcalc.args``: how Excel reads the arguments of its functions of many values.

``register(table)`` installs every category's functions into the engine's function table
(``excelcalc.formula.functions``) and its operators into formulas' (``backend.replace_operators``);
``CHECKED`` names the functions checked against Excel, the only Excel functions a formula may call.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from excelcalc.backend import FunctionTable, replace_criteria, replace_operators
from excelcalc.lib import (
    arrays,
    criteria,
    datetime,
    engineering,
    financial,
    information,
    logical,
    lookup,
    math,
    mathtrig,
    regexes,
    running,
    statistical,
    text,
    textparts,
)
from excelcalc.lib._common import FORMULAS, Entry, Wraps, lazy
from excelcalc.values import ReasonedError

__all__ = ["CATEGORIES", "CHECKED", "NOT_COMPUTED", "register"]

CATEGORIES: tuple[ModuleType, ...] = (
    math,
    mathtrig,
    text,
    textparts,
    regexes,
    datetime,
    lookup,
    statistical,
    information,
    engineering,
    financial,
    logical,
    arrays,
)

# issue 30, checked by tests/excelcalc/lib against the examples of Microsoft's pages (no corpus workbook
# calls them): Excel 2010's names of the statistics and the older ones they replace, ISERR, ISO.CEILING,
# the working days, complex numbers, regressions, QUOTIENT, SERIESSUM, HYPERLINK
_SINCE_ISSUE_30 = (
    "NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T STDEV.S STDEV.P "
    "VAR.S VAR.P MODE.SNGL RANK.EQ RANK.AVG PERCENTILE.INC PERCENTILE.EXC QUARTILE.INC QUARTILE.EXC "
    "CHISQ.DIST CHISQ.DIST.RT CHISQ.INV CHISQ.INV.RT F.DIST F.DIST.RT F.INV F.INV.RT BINOM.DIST "
    "POISSON.DIST EXPON.DIST GAMMA.DIST LOGNORM.DIST CONFIDENCE.NORM CONFIDENCE.T COVARIANCE.P "
    "COVARIANCE.S NORMDIST NORMINV NORMSDIST NORMSINV TDIST TINV CHIDIST CHIINV FDIST FINV BINOMDIST "
    "EXPONDIST GAMMADIST LOGNORMDIST CONFIDENCE COVAR PERCENTILE QUARTILE ISERR ISO.CEILING "
    "WORKDAY.INTL NETWORKDAYS NETWORKDAYS.INTL COMPLEX IMSUM IMPRODUCT IMSUB IMDIV IMPOWER IMABS IMREAL IMAGINARY "
    "IMARGUMENT IMCONJUGATE IMSQRT IMEXP IMLN IMLOG10 IMLOG2 IMSIN IMCOS LINEST LOGEST TREND GROWTH QUOTIENT "
    "SERIESSUM HYPERLINK CORREL PEARSON SLOPE INTERCEPT RSQ STEYX FORECAST FORECAST.LINEAR STANDARDIZE GAMMALN "
    "GAMMALN.PRECISE SKEW SKEW.P KURT BETA.DIST BETADIST BETA.INV BETAINV WEIBULL.DIST WEIBULL HYPGEOM.DIST "
    "HYPGEOMDIST NEGBINOM.DIST NEGBINOMDIST BINOM.INV CRITBINOM GAMMA.INV GAMMAINV LOGNORM.INV LOGINV "
    "PERCENTRANK.INC PERCENTRANK T.TEST TTEST CHISQ.TEST CHITEST Z.TEST ZTEST F.TEST FTEST FISHER FISHERINV PHI "
    "PERCENTRANK.EXC GAMMA GAUSS"
)

# issue 41, checked by tests/excelcalc/lib/test_financial.py against the examples of Microsoft's pages
_SINCE_ISSUE_41 = (
    "IPMT PPMT CUMIPMT CUMPRINC DB DDB SYD VDB EFFECT NOMINAL MIRR XNPV XIRR ACCRINT "
    "UNICODE _XLFN.UNICODE UNICHAR _XLFN.UNICHAR "
    "FILTER _XLFN._XLWS.FILTER SORT _XLFN._XLWS.SORT SORTBY _XLFN.SORTBY UNIQUE _XLFN.UNIQUE SEQUENCE _XLFN.SEQUENCE"
)
# issue 44, checked by tests/excelcalc/lib against the examples of Microsoft's pages: functions real
# workbooks use that calc refused
_SINCE_ISSUE_44 = (
    "IFS SWITCH IFNA XOR MINIFS MAXIFS FORMULATEXT _XLFN.FORMULATEXT DATEVALUE TIMEVALUE AVERAGEIF AVERAGEIFS"
)

# issue 41 item 7, checked by tests/excelcalc/lib/test_mathtrig.py, test_engineering.py and test_arrays.py against the
# examples of Microsoft's pages: functions of Excel-saved workbooks that calc refused
_WORKBOOKS_41 = (
    "COT COTH CSC CSCH SEC SECH ACOT ACOTH PERMUT PERMUTATIONA COMBINA ROMAN ARABIC ERF ERFC ERF.PRECISE ERFC.PRECISE "
    "TAKE DROP VSTACK HSTACK TOCOL TOROW CHOOSEROWS TEXTBEFORE TEXTAFTER GCD LCM TEXTSPLIT REGEXTEST REGEXEXTRACT "
    "REGEXREPLACE"
)

# issue 41, checked by tests/excelcalc/lib against the examples of Microsoft's pages: the functions a
# finance model uses that calc refused
_FINANCE_41 = (
    "WEEKDAY WEEKNUM ISOWEEKNUM _XLFN.ISOWEEKNUM PDURATION _XLFN.PDURATION RRI _XLFN.RRI FVSCHEDULE ISPMT "
    "DOLLARDE DOLLARFR PROPER NUMBERVALUE _XLFN.NUMBERVALUE ISEVEN ISODD STDEVA STDEVPA VARA VARPA"
)
# issue 41, the functions that take a LAMBDA (tests/excelcalc/lib/test_arrays.py, Microsoft's examples)
_LAMBDA_41 = "BYROW _XLFN.BYROW BYCOL _XLFN.BYCOL REDUCE _XLFN.REDUCE SCAN _XLFN.SCAN MAKEARRAY _XLFN.MAKEARRAY"

# Excel's functions the engine computes and has checked against Excel: those the corpus of
# workbooks Excel saved exercises (tests/corpus; its test judges every cell), and those the
# test suite checks with Microsoft's documented answers. The formula engine knows ~400 more;
# a formula calling one of them answers "#NAME? F is not computed by benchsheet", never a
# number that was not checked. Add a function here with a corpus workbook or test that uses it,
# and to its category's FUNCTIONS (``FORMULAS`` where formulas' own is checked as it is).
CHECKED = frozenset(
    {
        "ABS",
        "ACOS",
        "ACOSH",
        "ADDRESS",
        "AND",
        "ASIN",
        "ASINH",
        "ATAN",
        "ATAN2",
        "ATANH",
        "AVEDEV",
        "AVERAGE",
        "AVERAGEA",
        "BIN2DEC",
        "BIN2HEX",
        "BIN2OCT",
        "CEILING",
        "CHAR",
        "CHOOSE",
        "CLEAN",
        "CODE",
        "COMBIN",
        "COLUMN",
        "COLUMNS",
        "CONCATENATE",
        "CONVERT",
        "COS",
        "COSH",
        "COUNT",
        "COUNTA",
        "COUNTBLANK",
        "COUNTIF",
        "COUNTIFS",
        "DATE",
        "DATEDIF",
        "DAY",
        "DAYS360",
        "DEC2BIN",
        "DEC2HEX",
        "DEC2OCT",
        "DECIMAL",
        "DEGREES",
        "DEVSQ",
        "DOLLAR",
        "EDATE",
        "EOMONTH",
        "ERROR.TYPE",
        "EVEN",
        "EXACT",
        "EXP",
        "EXPAND",
        "FACT",
        "FALSE",
        "FIND",
        "FIXED",
        "FLOOR",
        "FV",
        "HEX2BIN",
        "HEX2DEC",
        "HEX2OCT",
        "HLOOKUP",
        "HOUR",
        "IF",
        "IFERROR",
        "INDEX",
        "INDIRECT",
        "INT",
        "IRR",
        "ISBLANK",
        "ISERROR",
        "ISLOGICAL",
        "ISNA",
        "ISNONTEXT",
        "ISNUMBER",
        "ISREF",
        "ISTEXT",
        "LARGE",
        "LEFT",
        "LEN",
        "LN",
        "LOG",
        "LOG10",
        "LOOKUP",
        "LOWER",
        "MAP",
        "MATCH",
        "MAX",
        "MAXA",
        "MDETERM",
        "MEDIAN",
        "MID",
        "MIN",
        "MINA",
        "MINUTE",
        "MINVERSE",
        "MMULT",
        "MOD",
        "MODE",
        "MONTH",
        "MROUND",
        "N",
        "NA",
        "NOT",
        "NOW",
        "NPER",
        "NPV",
        "OFFSET",
        "OCT2BIN",
        "OCT2DEC",
        "OCT2HEX",
        "ODD",
        "OR",
        "PI",
        "PMT",
        "POISSON",
        "POWER",
        "PRODUCT",
        "PV",
        "RADIANS",
        "RAND",
        "RANK",
        "RATE",
        "REPLACE",
        "REPT",
        "RIGHT",
        "ROUND",
        "ROUNDDOWN",
        "ROUNDUP",
        "ROW",
        "ROWS",
        "SEARCH",
        "SECOND",
        "SIGN",
        "SIN",
        "SINH",
        "SLN",
        "SMALL",
        "SQRT",
        "STDEV",
        "SUBSTITUTE",
        "SUBTOTAL",
        "SUM",
        "SUMIF",
        "SUMIFS",
        "SUMPRODUCT",
        "SUMSQ",
        "SUMX2MY2",
        "SUMX2PY2",
        "SUMXMY2",
        "T",
        "TAN",
        "TANH",
        "TEXT",
        "TIME",
        "TODAY",
        "TRANSPOSE",
        "TRIM",
        "TRUE",
        "TRUNC",
        "TYPE",
        "UPPER",
        "VALUE",
        "VAR",
        "VARP",
        "VLOOKUP",
        "WORKDAY",
        "YEAR",
        "YEARFRAC",
        "CEILING.MATH",
        "_XLFN.CEILING.MATH",
        "CEILING.PRECISE",
        "_XLFN.CEILING.PRECISE",
        "FLOOR.MATH",
        "_XLFN.FLOOR.MATH",
        "FLOOR.PRECISE",
        "_XLFN.FLOOR.PRECISE",
        "MODE.MULT",
        "_XLFN.MODE.MULT",
        "TEXTJOIN",
        "_XLFN.TEXTJOIN",
        "_XLFN.AGGREGATE",
        "_XLFN.CHOOSECOLS",
        "_XLFN.CONCAT",
        "_XLFN.DAYS",
        "_XLFN.XLOOKUP",
        "_XLFN.XMATCH",
        *_SINCE_ISSUE_30.split(),
        *_SINCE_ISSUE_41.split(),
        *_SINCE_ISSUE_44.split(),
        *_FINANCE_41.split(),
        *_LAMBDA_41.split(),
        *_WORKBOOKS_41.split(),
    }
)


# Excel's built-in functions formulas does not know at all (a formula calling one answered "unknown
# function", as for a name no one defined): the table knows them as functions not computed, so such a
# formula answers "#NAME? F is not computed by benchsheet" like any Excel function not in CHECKED.
_NEWER = "BASE ENCODEURL FIELDVALUE FILTERXML IMAGE RANDARRAY SHEET SHEETS"
NOT_COMPUTED = frozenset(
    (
        "CALL CELL CUBEKPIMEMBER CUBEMEMBER CUBEMEMBERPROPERTY CUBERANKEDMEMBER CUBESET CUBESETCOUNT CUBEVALUE "
        "DAVERAGE DCOUNT DCOUNTA DGET DMAX DMIN DPRODUCT DSTDEV DSTDEVP DSUM DVAR DVARP ECMA.CEILING EUROCONVERT "
        "GETPIVOTDATA INFO JIS PHONETIC REGISTER.ID RTD "
        f"{_NEWER} {' '.join('_XLFN.' + n for n in _NEWER.split())} "
        "STOCKHISTORY _XLFN.STOCKHISTORY WEBSERVICE _XLFN.WEBSERVICE"
    ).split()
)


def _not_computed(name: str) -> Any:
    def run(*args: Any) -> Any:
        return ReasonedError("#NAME?", f"{name.removeprefix('_XLFN.')} is not computed by benchsheet")

    run.__name__ = name
    return run


def _made(entry: Entry, table: FunctionTable) -> Any:
    return entry.make(table) if isinstance(entry, Wraps) else entry


def register(table: FunctionTable) -> None:
    """Install every category's functions into ``table`` (formulas' own kept inside it, read with
    ``table.excel``) and its operators into formulas' operators."""
    installed: set[str] = set()
    replace_criteria(criteria.matches, criteria.summed)
    for category in CATEGORIES:
        for name, entry in category.FUNCTIONS.items():
            if entry is not FORMULAS:
                table[name] = _made(entry, table)
                installed.add(name)
        operators: dict[str, Entry] = getattr(category, "OPERATORS", {})
        replace_operators({name: _made(entry, table) for name, entry in operators.items()})
    for name in running.RUNNING:  # answered from a range read by many from its first row, where it is one
        table[name] = running.over(name, table[name] if name in installed else lazy(table, name))
    for name in NOT_COMPUTED:  # none of them in formulas 1.3 (checked by tests/excelcalc/lib/test_registry.py)
        table[name] = _not_computed(name)
