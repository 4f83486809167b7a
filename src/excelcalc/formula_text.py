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
    "retyped",
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


_MAIL_QUOTES = {"“": "”", "„": "“", "”": "”"}  # opening -> closing: English “…”, German „…“, and ”…” as some apps write
_SINGLE_QUOTES = {"'": "'", "‘": "’", "’": "’"}


def retyped(formula: str) -> tuple[str, tuple[str, ...]]:
    """``formula`` as Excel's formula bar takes it where it was typed as people often type it, and what was changed.

    Outside Excel's texts (in straight double quotes): a text in single quotes (``'6.1-0052'``, ``‘…’``) or in the
    quotes a mail program makes (``“6.1-0052”``, ``„…“``) is written in straight double quotes, its own double quotes
    doubled, as Excel writes a text in a formula; a ``;`` between arguments, as Excel in many languages separates them,
    becomes ``,`` (in an array constant ``;`` separates rows, as in Excel, and stays). A name in single quotes followed
    by ``!`` is a sheet's name (``'My sheet'!A1``) and stays. The changes: "single quotes", "“ ”", "semicolon"."""
    out: list[str] = []
    changed: dict[str, None] = {}
    braces = 0
    i, n = 0, len(formula)
    while i < n:
        ch = formula[i]
        if ch == '"':  # Excel's own text: to its closing quote ("" inside stays)
            end = formula.find('"', i + 1)
            while end != -1 and formula[end + 1 : end + 2] == '"':
                end = formula.find('"', end + 2)
            end = n - 1 if end == -1 else end
            out.append(formula[i : end + 1])
            i = end + 1
            continue
        close = _MAIL_QUOTES.get(ch) or _SINGLE_QUOTES.get(ch)
        if close is not None:
            end = formula.find(close, i + 1)
            if ch == "'":  # '' inside is one quote, as in a sheet's name
                while end != -1 and formula[end + 1 : end + 2] == "'":
                    end = formula.find("'", end + 2)
            if end != -1 and not formula[end + 1 :].lstrip().startswith("!"):
                text = formula[i + 1 : end].replace("''", "'") if ch == "'" else formula[i + 1 : end]
                out.append('"' + text.replace('"', '""') + '"')
                changed["single quotes" if ch in _SINGLE_QUOTES else "“ ”"] = None
                i = end + 1
                continue
        if ch == "{":
            braces += 1
        elif ch == "}":
            braces = max(braces - 1, 0)
        elif ch == ";" and not braces:
            ch = ","
            changed["semicolon"] = None
        out.append(ch)
        i += 1
    return "".join(out), tuple(changed)


_LET = ("LET(", "_XLFN.LET(")
MAX_LETS = 64  # LET calls in one formula, written out one by one


def _name(tokens: list[Any]) -> str | None:
    """A LET argument that is a name (``x``, or ``_xlpm.x`` as Excel writes it in a file), upper-cased."""
    if len(tokens) != 1 or tokens[0].type != "OPERAND" or tokens[0].subtype != "RANGE" or "!" in tokens[0].value:
        return None
    name: str = tokens[0].value.upper().removeprefix("_XLPM.")
    return name if name and (name[0].isalpha() or name[0] == "_") else None


def _written(part: list[Any], meaning: dict[str, str]) -> str:
    return "".join(meaning.get(_name([t]) or "", t.value) for t in part)


def _let_at(items: list[Any]) -> int | None:
    """The innermost (or last) LET call's opening token: no LET inside it."""
    starts = [i for i, t in enumerate(items) if t.type == "FUNC" and t.subtype == "OPEN" and t.value.upper() in _LET]
    return starts[-1] if starts else None


def written_out(text: str) -> tuple[str, str | None]:
    """``LET(name1, value1, [name2, value2, ...], calculation)`` (Microsoft's LET page) written out:
    the calculation with each name replaced by its value, in parentheses (a value may use the names
    before it; an inner LET is written out first, so its names hide the outer ones). Excel's
    functions answer the same for the same arguments, so the formula answers as LET does (a volatile
    RAND() named once is drawn once per use here). Also why a LET cannot be written out, or None."""
    if "LET(" not in text.upper():
        return text, None  # most formulas: not tokenized twice
    tokens = tokenizer()
    for _ in range(MAX_LETS):
        try:
            items = tokens.Tokenizer(text).items
        except (tokens.TokenizerError, IndexError):
            return text, None  # the engine says what it cannot read
        start = _let_at(items)
        if start is None:
            return text, None
        args: list[list[Any]] = [[]]
        depth, end = 0, None
        for i in range(start + 1, len(items)):
            t = items[i]
            if t.subtype == "CLOSE" and depth == 0:
                end = i
                break
            depth += 1 if t.subtype == "OPEN" else -1 if t.subtype == "CLOSE" else 0
            if depth == 0 and t.type == "SEP" and t.subtype == "ARG":
                args.append([])
            elif t.type != "WHITE-SPACE":
                args[-1].append(t)
        names = [_name(a) for a in args[0:-1:2]]
        if end is None or len(args) < 3 or len(args) % 2 == 0 or None in names:
            return text, "LET takes names, each with its value, then a calculation: LET(x, 1, x + 1)"
        called = [t.value[:-1] for t in args[-1] if t.type == "FUNC" and t.value[:-1].upper() in names]
        if called:
            why = f"a LET name called as a function ({called[0]}(...)) is not computed by benchsheet"
            return text, why + ": pass the LAMBDA to MAP, as LET(f, LAMBDA(x, x+1), MAP(A1:A3, f))"
        meaning: dict[str, str] = {}
        for name, value in zip(names, args[1:-1:2], strict=True):
            meaning[str(name)] = "(" + _written(value, meaning) + ")"
        whole = "(" + _written(args[-1], meaning) + ")"
        text = "=" + "".join(t.value for t in items[:start]) + whole + "".join(t.value for t in items[end + 1 :])
    return text, f"more than {MAX_LETS} LET calls in one formula"
