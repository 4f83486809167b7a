"""A formula as text, before the engine reads it: Excel's limits, add-in prefixes, the tokenizer.

Excel's limits on a formula and its texts, add-in prefixes dropped from function names
(``_xludf.BEST(``), openpyxl's tokenizer (loaded alone, without the rest of openpyxl), how a
command line prints an answer, and text made safe to put in a cell. Nothing here imports numpy or
formulas: an add-in can read formulas (``benchsheet.catalogue.literal``) without starting the engine.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable
from typing import Any

__all__ = [
    "EXPONENT",
    "FUTURE_FUNCTIONS",
    "MAX_FORMULA",
    "MAX_TEXT",
    "cell_text",
    "errors_in",
    "normalize_formula",
    "shown",
    "tokenizer",
    "too_long",
]

MAX_FORMULA = 8192  # characters in a formula, as Excel allows
MAX_TEXT = 32767  # characters in a cell's text, as Excel allows
_UDF_PREFIX = re.compile(r"(?<![\w.])(?:_xludf\.|\[\d+\]!|'[^']*\.xla[mx]?'!)(?=[A-Za-z_][\w.]*\()", re.IGNORECASE)
EXPONENT = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)[eE](\d+)$")  # 1E3: Excel's own spelling of 1E+3
# Excel's functions newer than Excel 2007, which a file stores with the prefix _xlfn. (``_xlfn.XLOOKUP(``):
# Excel reads one stored without it as an unknown function, #NAME? (Microsoft's [MS-XLSX] 2.2.2, "Formulas";
# the list XlsxWriter keeps, checked against its code by tests/excelcalc/test_formula_text.py)
_FUTURE = """
ACOT ACOTH AGGREGATE ANCHORARRAY ARABIC ARRAYTOTEXT BASE BETA.DIST BETA.INV BINOM.DIST BINOM.DIST.RANGE BINOM.INV
BITAND BITLSHIFT BITOR BITRSHIFT BITXOR BYCOL BYROW CEILING.MATH CEILING.PRECISE CHISQ.DIST CHISQ.DIST.RT CHISQ.INV
CHISQ.INV.RT CHISQ.TEST CHOOSECOLS CHOOSEROWS COMBINA CONCAT CONFIDENCE.NORM CONFIDENCE.T COT COTH COVARIANCE.P
COVARIANCE.S CSC CSCH DAYS DECIMAL DROP ERF.PRECISE ERFC.PRECISE EXPAND EXPON.DIST F.DIST F.DIST.RT F.INV F.INV.RT
F.TEST FILTER FILTERXML FLOOR.MATH FLOOR.PRECISE FORECAST.ETS FORECAST.ETS.CONFINT FORECAST.ETS.SEASONALITY
FORECAST.ETS.STAT FORECAST.LINEAR FORMULATEXT GAMMA GAMMA.DIST GAMMA.INV GAMMALN.PRECISE GAUSS HSTACK HYPGEOM.DIST
IFNA IFS IMAGE IMCOSH IMCOT IMCSC IMCSCH IMSEC IMSECH IMSINH IMTAN ISFORMULA ISOMITTED ISOWEEKNUM LAMBDA LET
LOGNORM.DIST LOGNORM.INV MAKEARRAY MAP MAXIFS MINIFS MODE.MULT MODE.SNGL MUNIT NEGBINOM.DIST NORM.DIST NORM.INV
NORM.S.DIST NORM.S.INV NUMBERVALUE PDURATION PERCENTILE.EXC PERCENTILE.INC PERCENTRANK.EXC PERCENTRANK.INC
PERMUTATIONA PHI POISSON.DIST QUARTILE.EXC QUARTILE.INC QUERYSTRING RANDARRAY RANK.AVG RANK.EQ REDUCE RRI SCAN SEC
SECH SEQUENCE SHEET SHEETS SKEW.P SORT SORTBY STDEV.P STDEV.S SWITCH T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T
T.TEST TAKE TEXTAFTER TEXTBEFORE TEXTJOIN TEXTSPLIT TOCOL TOROW UNICHAR UNICODE UNIQUE VALUETOTEXT VAR.P VAR.S
VSTACK WEBSERVICE WEIBULL.DIST WRAPCOLS WRAPROWS XLOOKUP XMATCH XOR Z.TEST
"""
FUTURE_FUNCTIONS = frozenset(_FUTURE.split())
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # tab and CR too: OWASP's CSV-injection list


_SHEET = r"(?:'(?:[^']|'')*'|[\w.\[\]]+)!"  # a sheet as a reference names it: 'Bob''s'!, Sheet1!, [1]Sheet1!
_PLACE = r"\$?[A-Za-z]{1,3}\$?\d+|\$?[A-Za-z]{1,3}|\$?\d+"  # a cell, a column or a row: $A$1, A, 3
# a reference Excel deleted: the cells (Sheet1!#REF!), the sheet (#REF!A1), one corner of a range
_DELETED = re.compile(rf"(?<![\w.$'])(?:{_SHEET})?#REF!(?:{_PLACE})?(?![\w.$(])", re.IGNORECASE)
_DELETED_CORNER = re.compile(
    rf"(?<![\w.$'])(?:{_SHEET})?(?:{_PLACE}|#REF!):#REF!(?![\w.$(])|#REF!:(?:{_SHEET})?(?:{_PLACE}|#REF!)(?![\w.$(])",
    re.IGNORECASE,
)


def normalize_formula(text: str) -> str:
    """Drop add-in prefixes from function names (``_xludf.BEST(``), and write a reference Excel
    deleted (``Sheet1!#REF!``, ``#REF!$A$1:$B$9``, ``SUM(#REF!:#REF!)``) as the error ``#REF!`` it
    evaluates to (ECMA-376 Part 1, 18.17.7: ``#REF!``, "a cell reference ... is not valid"),
    outside string literals."""
    parts = text.split('"')
    for i in range(0, len(parts), 2):
        part = _UDF_PREFIX.sub("", parts[i])
        if "#REF!" in part.upper():
            part = _DELETED.sub("#REF!", part)
            while (shorter := _DELETED_CORNER.sub("#REF!", part)) != part:
                part = shorter
        parts[i] = part
    return '"'.join(parts)


def tokenizer() -> Any:
    """openpyxl's formula tokenizer module (``Tokenizer``, ``TokenizerError``). It imports nothing
    but ``re``; importing it through ``openpyxl`` loads all of openpyxl first (a quarter of a
    second of ``eval``), so where openpyxl is not loaded yet the module's own file is loaded alone."""
    loaded = sys.modules.get("openpyxl.formula.tokenizer") or sys.modules.get(_TOKENIZER)
    if loaded is not None:
        return loaded
    package = importlib.util.find_spec("openpyxl")
    folders = list(package.submodule_search_locations or ()) if package is not None else []
    spec = importlib.util.spec_from_file_location(_TOKENIZER, f"{folders[0]}/formula/tokenizer.py") if folders else None
    if spec is None or spec.loader is None:
        return importlib.import_module("openpyxl.formula.tokenizer")
    module = importlib.util.module_from_spec(spec)
    sys.modules[_TOKENIZER] = module
    spec.loader.exec_module(module)
    return module


_TOKENIZER = "excelcalc._openpyxl_tokenizer"


def too_long(n: int) -> tuple[str, str]:
    """The error code and reason of an answer whose text Excel could not hold."""
    return "#VALUE!", f"the text would have {n:,} characters; Excel allows {MAX_TEXT:,}"


def shown(value: Any, is_error: Callable[[Any], bool]) -> str:
    """How ``benchsheet eval`` prints a value: full precision, arrays as TSV rows, an error as its
    code and reason (``is_error`` knows the runtime's errors)."""
    if isinstance(value, list):
        return "\n".join("\t".join(shown(v, is_error) for v in row) for row in value)
    if is_error(value):
        text: str = getattr(value, "text", str(value))
        return text
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if value is None:
        return ""
    return str(value)


def errors_in(value: Any, is_error: Callable[[Any], bool]) -> int:
    """How many cells of an array answer are errors (0 for a single value)."""
    if not isinstance(value, list):
        return 0
    return sum(is_error(v) for row in value for v in (row if isinstance(row, list) else [row]))


def cell_text(text: str) -> str:
    """Text made safe to put in a cell: never read as a formula.

    A leading ``=``, ``+``, ``-`` or ``@`` would make a spreadsheet treat the
    text as a formula (CSV/formula injection); such text gets a leading
    apostrophe, the spreadsheet convention for "this is text".
    """
    return "'" + text if text.startswith(_FORMULA_STARTS) else text
