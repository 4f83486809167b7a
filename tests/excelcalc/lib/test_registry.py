"""The one registry of Excel's functions (``excelcalc.lib``): each category module declares what
it provides (``FUNCTIONS``, ``OPERATORS``), ``register`` installs them all, and every function
checked against Excel (``CHECKED``) belongs to exactly one category."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from excelcalc import formula, lib
from excelcalc.backend import FunctionTable
from excelcalc.lib import running
from excelcalc.lib._common import FORMULAS
from excelcalc.values import ReasonedError
from tests.excelcalc.lib.workbooks import book

# The names the engine installed over formulas' own functions before they were grouped by category
# (lib/excel.py, lib/more.py, lib/refs.py, lib/checked.py and args.py of commit 89b551a, recorded from
# its function table): the registry installs the same names, and the same operators.
_INSTALLED = (
    "ADDRESS AGGREGATE AND AVEDEV AVERAGE AVERAGEA BIN2DEC BIN2HEX BIN2OCT CEILING.MATH CEILING.PRECISE "
    "COLUMNS COMBIN CONCATENATE COUNT COUNTA DATE DATEDIF DAY DAYS DAYS360 DEC2BIN DEC2HEX DEC2OCT DEVSQ "
    "DOLLAR EDATE EOMONTH EXACT FIND FINDB FLOOR.MATH FLOOR.PRECISE FV GEOMEAN HARMEAN HEX2BIN HEX2DEC "
    "HEX2OCT INDEX INDIRECT ISNUMBER LARGE LEFT LEFTB LEN LENB LOOKUP LOWER MAX MAXA MEDIAN MID MIDB MIN "
    "MINA MODE MODE.SNGL MONTH OCT2BIN OCT2DEC OCT2HEX OFFSET OR POWER PRODUCT PROPER REPLACE REPT RIGHT "
    "RIGHTB ROUND ROUNDDOWN ROUNDUP ROWS SEARCH SEARCHB SINGLE SMALL STDEV STDEV.P STDEV.S STDEVA STDEVP "
    "STDEVPA SUBSTITUTE SUBTOTAL SUM SUMPRODUCT SUMSQ TEXT TRIM UPPER VALUE VAR VAR.P VAR.S VARA VARP "
    "VARPA WORKDAY XLOOKUP XOR YEAR YEARFRAC _XLFN.AGGREGATE _XLFN.CEILING.MATH _XLFN.CEILING.PRECISE "
    "_XLFN.DAYS _XLFN.FLOOR.MATH _XLFN.FLOOR.PRECISE _XLFN.MODE.SNGL _XLFN.SINGLE _XLFN.STDEV.P "
    "_XLFN.STDEV.S _XLFN.VAR.P _XLFN.VAR.S _XLFN.XLOOKUP _XLFN.XOR"
)
# installed since (issue 30): CONCAT and TEXTJOIN refuse a text longer than Excel holds before
# making it; NPV at a rate of -1 is #DIV/0!; FACT multiplies as Excel does; N(TRUE) is 1; ISO.CEILING is
# CEILING.PRECISE
INSTALLED = frozenset(_INSTALLED.split()) | {"TEXTJOIN", "_XLFN.TEXTJOIN", "_XLFN.CONCAT", "NPV", "FACT", "N"}
INSTALLED |= {"ISO.CEILING", "_XLFN.ISO.CEILING", "WORKDAY.INTL", "_XLFN.WORKDAY.INTL", "NETWORKDAYS"}
INSTALLED |= {"NETWORKDAYS.INTL", "_XLFN.NETWORKDAYS.INTL"}  # the engine's own: formulas' failed from a weekend
_COMPLEX = "COMPLEX IMSUM IMPRODUCT IMSUB IMDIV IMPOWER IMABS IMREAL IMAGINARY IMARGUMENT IMCONJUGATE IMSQRT IMEXP"
INSTALLED |= set(f"{_COMPLEX} IMLN IMLOG10 IMLOG2 IMSIN IMCOS".split())  # written with 15 digits (formulas: 17)
INSTALLED |= {"LINEST", "LOGEST", "TREND", "GROWTH"}  # formulas' statistics were in the wrong order
INSTALLED |= {"QUOTIENT", "SERIESSUM", "HYPERLINK"} | lib.NOT_COMPUTED  # formulas has none of them
INSTALLED |= {"MATCH", "VLOOKUP", "HLOOKUP"}  # match_type 1 / range_lookup TRUE by Excel's binary search
INSTALLED |= {"PERCENTRANK", "PERCENTRANK.INC", "PERCENTRANK.EXC", "_XLFN.PERCENTRANK.INC", "_XLFN.PERCENTRANK.EXC"}
INSTALLED |= {"POISSON", "POISSON.DIST", "_XLFN.POISSON.DIST"}  # x truncated (formulas: 0 for a fraction)
INSTALLED |= {
    "FIXED",
    "COUNTIF",
    "IPMT",
    "XNPV",
    "XIRR",
    "ACCRINT",
    "UNICHAR",
    "_XLFN.UNICHAR",
    "IRR",
    "SUMIF",
    "VDB",
    "PPMT",
}  # issues 41, 44 (VDB: periods from a part period start, as Excel counts them; PPMT: closed form)
INSTALLED |= {"FILTER", "_XLFN._XLWS.FILTER", "UNIQUE", "_XLFN.UNIQUE", "SEQUENCE", "_XLFN.SEQUENCE"}  # issue 41
# issue 44: multiples to Excel's 15 digits (FLOOR(7.1,0.1) was 7), TRUNC of the 15 digits without a loop
# per digit, MROUND half away from 0, INT of 1E308
INSTALLED |= {"FLOOR", "CEILING", "MROUND", "TRUNC", "INT", "MOD", "SUMIF"}  # SUMIF: sum_range of range's shape
INSTALLED |= {"EXPAND", "_XLFN.EXPAND", "RAND"}  # at most a sheet, 2,000,000 cells; RAND of no arguments
INSTALLED |= {"FORMULATEXT", "_XLFN.FORMULATEXT"}  # issue 44: the engine's own, reading the workbook's formulas
INSTALLED |= {"DATEVALUE", "TIMEVALUE"}  # issue 44: read as the engine reads a date or time text (text_serial)
# issue 44: the blank cells of their criteria ranges kept apart from the text "" (lib.criteria)
INSTALLED |= {"COUNTIFS", "SUMIFS", "MINIFS", "MAXIFS", "AVERAGEIF", "AVERAGEIFS"}
# issue 41: the week functions read a 1904 workbook's dates; NUMBERVALUE of "" and of spaces as Excel
INSTALLED |= {"WEEKDAY", "WEEKNUM", "ISOWEEKNUM", "_XLFN.ISOWEEKNUM", "NUMBERVALUE", "_XLFN.NUMBERVALUE"}
INSTALLED |= {"MAKEARRAY", "_XLFN.MAKEARRAY"}  # issue 41: its size bounded before any LAMBDA call
# issue 41 item 7: the reciprocal trigonometry bounded at 2^27, PERMUT and PERMUTATIONA without long products,
# COMBINA (formulas has none), ROMAN's FALSE form, ARABIC of spaces and signs (lib.mathtrig)
_MATHTRIG = "COT CSC SEC COTH CSCH SECH ACOT ACOTH PERMUT PERMUTATIONA"
INSTALLED |= {*_MATHTRIG.split(), *("_XLFN." + n for n in _MATHTRIG.split())}
INSTALLED |= {"SIN", "COS", "TAN"}  # issue 41: reduced by Excel's pi (pi to 64 bits) near a multiple of pi/2
INSTALLED |= {"COMBINA", "_XLFN.COMBINA", "ROMAN", "ARABIC", "_XLFN.ARABIC"}
_SHAPING = "TAKE DROP VSTACK HSTACK TOCOL TOROW CHOOSEROWS"  # issue 41 item 7: the engine's own (lib.arrays)
INSTALLED |= {*_SHAPING.split(), *("_XLFN." + n for n in _SHAPING.split())}
_TEXTPARTS = "TEXTBEFORE TEXTAFTER TEXTSPLIT"  # issue 41 item 7: the engine's own (lib.textparts)
INSTALLED |= {*_TEXTPARTS.split(), *("_XLFN." + n for n in _TEXTPARTS.split())}
_REGEX = "REGEXTEST REGEXEXTRACT REGEXREPLACE"  # issue 41 item 7: PCRE2's patterns and $1 (lib.regexes)
INSTALLED |= {*_REGEX.split(), *("_XLFN." + n for n in _REGEX.split())}
INSTALLED |= {"GCD", "LCM"}  # issue 41 item 7: arguments of 2^53 or more #NUM! as Excel (lib.mathtrig)
OPERATORS = frozenset({"+", "-", "*", "/", "^", "U-", "%", "&", "=", "<>", "<", ">", "<=", ">=", ":"})


def _providers() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for category in lib.CATEGORIES:
        for name in category.FUNCTIONS:
            found.setdefault(name, []).append(category.__name__.rpartition(".")[2])
    return found


def test_every_checked_function_belongs_to_exactly_one_category() -> None:
    providers = _providers()
    assert {name: where for name, where in providers.items() if len(where) > 1} == {}
    assert sorted(lib.CHECKED - set(providers)) == []


def test_a_function_checked_as_formulas_has_it_is_formulas_own() -> None:
    """A category's ``FORMULAS`` entries are functions formulas has, checked against Excel, that
    no category installs over."""
    table = formula.functions()
    as_is = {name for c in lib.CATEGORIES for name, entry in c.FUNCTIONS.items() if entry is FORMULAS}
    assert sorted(as_is - lib.CHECKED) == []
    # lib.running answers a read of a running range (COUNTIF($A$2:A9,A9) filled down), else formulas' own
    wrong = [
        name
        for name in sorted(as_is - set(running.RUNNING))
        if name not in table or table[name] is not table.excel(name)
    ]
    assert wrong == []


def test_the_registry_installs_the_names_and_operators_it_did_before() -> None:
    table = FunctionTable()
    lib.register(table)
    names = list(dict.keys(table))  # (table.excel imports modules: the table grows)
    installed = {name for name in names if dict.__getitem__(table, name) is not table.excel(name)}
    assert sorted(installed ^ INSTALLED) == []
    assert {op for c in lib.CATEGORIES for op in getattr(c, "OPERATORS", {})} == OPERATORS


def test_installing_again_corrects_formulas_own_functions_not_the_last_install(tmp_path: Path) -> None:
    """An add-in registered after the first formula rebuilds the table: each correction wraps
    formulas' own function again, not the one installed before (EDATE of a 1904 workbook moved its
    dates twice: a date near the end of Excel's calendar was #NUM!). Microsoft's "Date systems in
    Excel": 9999-12-31 is serial 2958465 - 1462 in the 1904 system; EDATE(date, 0) is the date."""
    formula.functions()
    formula.register({})

    def mac(wb: Any) -> None:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904

    got = book(tmp_path, {"A1": 2958465 - 1462 - 30, "B1": "=EDATE(A1,0)"}, mac)
    assert got["B1"] == 2958465 - 1462 - 30


def test_a_built_in_function_formulas_lacks_is_not_computed_not_unknown() -> None:
    """QUOTIENT, DSUM, SERIESSUM, HYPERLINK, ECMA.CEILING, PHONETIC... are Excel's own functions:
    they answered "#NAME? unknown function X" as a misspelt name does (issue 30). Those the engine
    does not compute answer as every Excel function not checked against Excel does."""
    table = formula.functions().load_all()
    assert sorted(n for n in lib.NOT_COMPUTED if table.excel(n) is not table.excel("NO.SUCH.FUNCTION")) == []
    for call, name in (("DSUM(1,1,1)", "DSUM"), ('PHONETIC("a")', "PHONETIC"), ("_xlfn.RANDARRAY(3)", "RANDARRAY")):
        got = formula.evaluate(f"=IF(FALSE,{call},1)")
        assert isinstance(got, ReasonedError) and got.text == f"#NAME? {name} is not computed by benchsheet"
    assert formula.evaluate("=ECMA.CEILING(1,1)").text == "#NAME? ECMA.CEILING is not computed by benchsheet"
    assert formula.evaluate("=NOSUCH(1)").text == "#NAME? unknown function NOSUCH"
