"""The whole template, as Excel would run it: every benchsheet call through xlwings' own call path.

Two workbooks: the template as built, and the same template after the edits a finance user makes
(prices in currency and accounting cells, utilization typed as 60%, a round typed as the number
6.0, a locale date where a round goes, an error upstream, text in a number cell). Each is computed
with ``template calc``. Then every call of a catalogue function in every formula, nested ones too,
is answered twice:

* as Excel would: xlwings' real ``call_udf`` (tests/xlwings_windows.py), each argument typed as
  Excel delivers it: a bare cell reference is a worksheet range whose value is what pywin32 gives
  for the cell's calc'd value under the cell's number format (tests/excel.py: a currency cell is a
  Decimal, a date cell a datetime, a number a float, an error a VT_ERROR integer); a literal is
  what VBA passes for it (text, a Double, a Boolean, "missing" when left out); a nested expression
  is its value, as VBA passes a value;
* as ``template calc`` does: the formula engine's function of the same name (``benchsheet.catalogue.engine``),
  on the same inputs as calc's engine holds them (references: the calc'd values, an error with a
  reason as calc's ``ReasonedError``; nested expressions: the engine's value).

Every answer must be the same, with an error compared by its text (``#N/A reason``: in Excel an
error from benchsheet is that text, xlwings cannot return error values). Where Excel and calc
legitimately differ, ``legit_difference`` says why and the test asserts that exact difference.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from formulas.tokens.operand import XlError
from openpyxl.formula import Tokenizer
from openpyxl.formula.tokenizer import Token
from openpyxl.styles.numbers import is_date_format
from openpyxl.utils.cell import get_column_letter, range_boundaries
from openpyxl.utils.datetime import to_excel

from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data import store
from benchsheet.errors import CLASSIC_TEXT_LIMIT, shortened, vt_error
from benchsheet.templates import builder as B
from benchsheet.templates import sheets as S
from excelcalc.formula import functions
from excelcalc.values import ReasonedError, plain
from excelcalc.workbook.calc import calc
from excelcalc.workbook.compute import Computed, compute
from tests.excel import ACCOUNTING_FORMAT, CURRENCY_FORMAT, DATE_FORMAT, PERCENT_FORMAT, Cell, com_value, literal
from tests.xlwings_windows import MISSING, ComRange, Windows, windows

__all__ = ["windows"]  # the fixture, used by name

CHECKS = "Checks"  # a sheet the edits add: calls with a round argument (the template has none)
DAY = 46028.0  # 6 January 2026: "6.1" typed where the locale's short date is d.m


def sizing(i: int, key: str) -> str:
    """A cell of the i-th candidate row of Sizing, found through the sheet's description."""
    return str(S.SIZING_TABLE.row(i)[key].a1)


def quote(i: int, key: str) -> str:
    return str(S.QUOTES_TABLE.row(i)[key].a1)


BENCH, SCEN = (S.WORKLOAD[k].ref(CHECKS) for k in ("benchmark", "scenario"))  # Sizing!$B$5, Sizing!$B$6
UTIL = S.WORKLOAD["utilization"].ref(CHECKS)
ERRING_PRICE = S.QUOTES_TABLE.row(1)["price"].ref(CHECKS)

# The user's edits: (sheet, cell) -> (value, number format or None to keep the cell's own)
EDITS: dict[tuple[str, str], tuple[Any, str | None]] = {
    # prices in currency cells (the template's own "$#,##0.00") and one in an Accounting cell
    (S.SIZING, S.WORKLOAD["price"].a1): (3.65, None),
    (S.SIZING, sizing(1, "price_override")): (4.25, None),
    (S.QUOTES, S.BASELINE["price"].a1): (2.95, None),
    (S.QUOTES, quote(0, "price")): (3.6, None),
    (S.QUOTES, quote(2, "price")): (3.4, ACCOUNTING_FORMAT),
    # utilization typed as 60% (Excel stores 0.6 and formats it as a percentage)
    (S.SIZING, S.WORKLOAD["utilization"].a1): (0.6, PERCENT_FORMAT),
    # an error upstream: a candidate cell holding #N/A, and a quoted price that is a formula that errs
    (S.SIZING, sizing(3, "candidate")): ("#N/A", None),
    (S.QUOTES, quote(1, "price")): ("=1/0", None),
    # text in number cells: accelerators per node, and a quoted price
    (S.SIZING, sizing(0, "gpus_per_node")): ("eight", None),
    (S.QUOTES, quote(3, "accelerator")): ("MI355X", None),
    (S.QUOTES, quote(3, "price")): ("call vendor", None),
    # the round checks, on a sheet of their own
    (CHECKS, "A1"): (6.0, "General"),  # a round typed as the number 6.0: Excel stores 6
    (CHECKS, "A2"): (DAY, DATE_FORMAT),  # a locale date in a round cell
    (CHECKS, "A3"): (5.1, "0.0"),  # another round typed as a number
    (CHECKS, "A4"): ("#N/A", None),  # an error cell
    (CHECKS, "A5"): ("lots", "#,##0"),  # text in a number cell
    (CHECKS, "A6"): (3.6, CURRENCY_FORMAT),  # a price
    (CHECKS, "B1"): (f'=BEST("B200",{BENCH},{SCEN},"available",8,A1)', None),
    (CHECKS, "B2"): ('=BEST("B200","gpt-oss-120b","Server","available",8,A2)', None),
    (CHECKS, "B3"): ('=HEADLINE("deepseek-r1","Server",A3,A1)', None),
    (CHECKS, "B4"): ('=HEADLINE("deepseek-r1","Server",5.1,6.0)', None),
    (CHECKS, "B5"): (f'=COSTPERMTOK(A6,BEST("B200",{BENCH},{SCEN},"available",8,A1),{UTIL})', None),
    (CHECKS, "B6"): ('=GPUSNEEDED(A5,BEST("B200","gpt-oss-120b","Server"),0.6)', None),
    (CHECKS, "B7"): ('=PERGPU(A4,"gpt-oss-120b","Server")', None),
    (CHECKS, "B8"): (f"=COSTPERMTOK({ERRING_PRICE},1000)", None),
    (CHECKS, "B9"): ("=COSTPERMTOK(A6*1,B1,60%)", None),
    (CHECKS, "B10"): ('=BREAKEVEN("B200",A2,"gpt-oss-120b","Server")', None),
    (CHECKS, "B11"): ('=MEDIANPERGPU("B300","gpt-oss-120b","Server",,,A1)', None),
    (CHECKS, "B12"): ('=INDEX(RESULTS("gpt-oss-120b","Server","B300","any",,A1),2,7)', None),
    (CHECKS, "B13"): ('=BESTENTRY("B300","gpt-oss-120b","Server","available",A1)', None),
    (CHECKS, "B14"): ('=SPREAD("B200","gpt-oss-120b","Server",8,"available",A1)', None),
    (CHECKS, "B15"): ('=BREAKEVENPRICE(A6,"B200","B300","gpt-oss-120b","Server","available",8,A3)', None),
}


# ---------------------------------------------------------------- workbooks


@dataclass
class Book:
    """A calc'd workbook: formulas and number formats as written, values as calc's engine has them."""

    path: Path
    source: Any  # openpyxl: formulas and number formats
    shown: Any  # openpyxl, data_only: the values calc wrote into the file
    computed: Computed  # calc's engine values of every cell, before they were written

    def engine_value(self, sheet: str, ref: str) -> Any:
        """The cell as calc's engine holds it: a number (a date is its serial number), text, a Boolean,
        None, an error (``ReasonedError`` when benchsheet gave the reason)."""
        value = self.computed.values.get((sheet.upper(), ref))
        if value is None and (sheet.upper(), ref) not in self.computed.values:  # an input no formula reads
            written = self.shown[sheet][ref]
            value = XlError(written.value) if written.data_type == "e" else written.value
        if isinstance(value, list):  # an array in one cell (IFERROR(INDEX(t,2,1),t) broadcasts): its top-left,
            value = value[0][0] if value and value[0] else None  # which the cell shows and a reference reads
        return value

    def cell(self, sheet: str, ref: str) -> Cell:
        """The cell as Excel holds it (tests/excel.py's model): its value and its number format.

        The value is calc's, with one translation: an error benchsheet answered with a reason is, in
        Excel, the text the add-in returned (``#N/A Unknown entry ...``), since xlwings cannot return
        error values; every other error (``=1/0``, a typed ``#N/A``, ``IF`` passing one on) is a
        real error value. An array in one cell shows its top-left value, as in Excel without spilling.
        """
        fmt = self.source[sheet][ref].number_format
        value = self.engine_value(sheet, ref)
        if isinstance(value, list):
            value = value[0][0] if value and value[0] else None
        if isinstance(value, ReasonedError):
            return Cell(value.text, fmt)
        if isinstance(value, XlError):
            return Cell(None, fmt, error=str(value))
        if isinstance(value, dt.datetime | dt.date | dt.time):
            value = float(to_excel(value))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            value = float(value)  # Excel stores every number as a double
        return Cell(value, fmt)


def load(path: Path) -> Book:
    return Book(path, openpyxl.load_workbook(path), openpyxl.load_workbook(path, data_only=True), compute(path))


def split_ref(ref: str, sheet: str) -> tuple[str, str]:
    if "!" in ref:
        where, ref = ref.rsplit("!", 1)
        sheet = where.strip("'").replace("''", "'")
    return sheet, ref.replace("$", "")


def cells_of(ref: str) -> list[list[str]]:
    """A reference as rows of cell names ("B5" -> [["B5"]])."""
    min_col, min_row, max_col, max_row = range_boundaries(ref)
    assert None not in (min_col, min_row, max_col, max_row), ref

    return [
        [f"{get_column_letter(c)}{r}" for c in range(min_col or 0, (max_col or 0) + 1)]
        for r in range(min_row or 0, (max_row or 0) + 1)
    ]


# ------------------------------------------------------------ calls in formulas


@dataclass
class Arg:
    tokens: list[Token]

    @property
    def kind(self) -> str:
        """missing, ref, literal, call (a catalogue call and nothing else) or expr."""
        t = self.tokens
        if not t:
            return "missing"
        if len(t) == 1 and t[0].type == Token.OPERAND:
            return "ref" if t[0].subtype == Token.RANGE else "literal"
        if t[0].type == Token.FUNC and function_name(t[0]) in BY_NAME and closes_at_end(t):
            return "call"
        return "expr"

    @property
    def text(self) -> str:
        return "".join(tok.value for tok in self.tokens)


@dataclass
class Call:
    sheet: str
    ref: str  # the formula's cell
    name: str
    args: list[Arg] = field(default_factory=list)

    @property
    def text(self) -> str:
        return f"{self.name}({','.join(a.text for a in self.args)})"


def function_name(tok: Token) -> str:
    return str(tok.value)[:-1].upper().removeprefix("_XLUDF.")


def closes_at_end(tokens: list[Token]) -> bool:
    """The tokens are one function call: its closing parenthesis is the last token."""
    depth = 0
    for i, tok in enumerate(tokens):
        if tok.type in (Token.FUNC, Token.PAREN):
            depth += 1 if tok.subtype == Token.OPEN else -1
            if depth == 0:
                return i == len(tokens) - 1
    return False


def calls_in(formula: str, sheet: str, ref: str) -> list[Call]:
    """Every catalogue call in the formula, nested ones included, outermost first."""
    tokens = [t for t in Tokenizer(formula).items if t.type != Token.WSPACE]
    out: list[Call] = []
    for start, tok in enumerate(tokens):
        if tok.type != Token.FUNC or tok.subtype != Token.OPEN or function_name(tok) not in BY_NAME:
            continue
        call = Call(sheet, ref, function_name(tok))
        depth, current = 0, Arg([])
        for t in tokens[start + 1 :]:
            if t.type in (Token.FUNC, Token.PAREN):
                if t.subtype == Token.CLOSE and depth == 0:
                    break
                depth += 1 if t.subtype == Token.OPEN else -1
            if t.type == Token.SEP and t.subtype == Token.ARG and depth == 0:
                call.args.append(current)
                current = Arg([])
                continue
            current.tokens.append(t)
        if current.tokens or call.args:  # NAME() has no arguments, NAME(x) one, NAME(x,) two
            call.args.append(current)
        out.append(call)
    return out


def every_call(book: Book) -> list[Call]:
    out = []
    for ws in book.source.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.data_type == "f":
                    out.extend(calls_in(formula_text(c.value), ws.title, c.coordinate))
    return out


def formula_text(value: Any) -> str:
    """A formula cell's text; an array formula's (the template reads a table's answer with one) too."""
    return value if isinstance(value, str) else str(value.text)


# ------------------------------------------------------------ the two answers


def engine_arg(book: Book, call: Call, arg: Arg) -> Any:
    """The argument as calc's engine hands it to the function."""
    kind = arg.kind
    if kind == "missing":
        return None  # a left-out argument: engine.mark_missing makes it "missing", as in Excel
    if kind == "ref":
        sheet, ref = split_ref(arg.text, call.sheet)
        grid = [[book.engine_value(sheet, r) for r in row] for row in cells_of(ref)]
        return grid[0][0] if len(grid) == 1 and len(grid[0]) == 1 else grid
    if kind == "call":
        return engine_answer(book, calls_in("=" + arg.text, call.sheet, call.ref)[0])
    return evaluate("=" + substituted(book, call.sheet, arg.tokens))


def substituted(book: Book, sheet: str, tokens: list[Token]) -> str:
    """An expression with each cell reference replaced by its calc'd value, as a formula literal."""
    parts = []
    for tok in tokens:
        if tok.type == Token.OPERAND and tok.subtype == Token.RANGE:
            value = book.engine_value(*split_ref(tok.value, sheet))
            assert not isinstance(value, XlError), f"{tok.value}: an error inside a nested expression"
            parts.append(literal(value))
        else:
            parts.append(tok.value)
    return "".join(parts)


def engine_answer(book: Book, call: Call) -> Any:
    """What calc's engine answers for the call: the engine's function on calc's inputs."""
    args = [engine_arg(book, call, a) for a in call.args]
    return plain(functions()[call.name](*args))


def vba_value(value: Any) -> Any:
    """A value (of a nested expression) as VBA passes it to the wrapper: a Variant, so numbers are
    Doubles, and an error from benchsheet is the text the add-in put in its place."""
    if isinstance(value, list):
        return tuple(tuple(vba_value(v) for v in row) for row in value)
    if isinstance(value, ReasonedError):
        return value.text
    if isinstance(value, XlError):
        return vt_error(str(value))  # a real Excel error value: VT_ERROR
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


def vba_literal(tok: Token) -> Any:
    """A constant typed in the formula, as the VBA wrapper receives it."""
    if tok.subtype == Token.TEXT:
        return tok.value[1:-1].replace('""', '"')
    if tok.subtype == Token.NUMBER:
        return float(tok.value)
    if tok.subtype == Token.LOGICAL:
        return tok.value.upper() == "TRUE"
    assert tok.subtype == Token.ERROR, tok
    return vt_error(tok.value.upper())


def excel_arg(book: Book, call: Call, arg: Arg) -> Any:
    kind = arg.kind
    if kind == "missing":
        return MISSING
    if kind == "ref":
        sheet, ref = split_ref(arg.text, call.sheet)
        return ComRange(tuple(tuple(com_value(book.cell(sheet, r)) for r in row) for row in cells_of(ref)))
    if kind == "literal":
        return vba_literal(arg.tokens[0])
    return vba_value(engine_arg(book, call, arg))  # Excel computes it, the wrapper gets its value


def excel_answer(windows: Windows, book: Book, call: Call) -> Any:
    """What the cell's VBA function returns: xlwings' call_udf, all arguments in ``Array(...)``."""
    args = [excel_arg(book, call, a) for a in call.args]
    args += [MISSING] * (len(BY_NAME[call.name].args) - len(args))  # the wrapper passes every parameter
    return windows.call(call.name, *args)


def shown(value: Any) -> Any:
    """An answer as compared: 1x1 arrays as their value, errors as their text, numbers as floats."""
    if isinstance(value, list | tuple):
        rows = [[shown(v) for v in row] for row in value]
        return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows
    if isinstance(value, ReasonedError):
        return value.text
    if isinstance(value, XlError):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def date_args(book: Book, call: Call) -> list[tuple[str, dt.datetime]]:
    """The call's arguments that are date-formatted cells holding a number."""
    out = []
    for spec, arg in zip(BY_NAME[call.name].args, call.args, strict=False):
        if arg.kind == "ref":
            c = book.cell(*split_ref(arg.text, call.sheet))
            if isinstance(c.value, float) and is_date_format(c.number_format):
                out.append((spec.name, com_value(c)))
    return out


def legit_difference(book: Book, call: Call, excel: Any, engine: Any) -> str | None:
    """Why Excel's answer may differ from calc's here (None: it may not)."""
    dates = date_args(book, call)
    if dates:
        # A date cell: Range.Value hands xlwings a datetime (Excel's VT_DATE), and benchsheet answers
        # that a date is no round/ID/number. calc's engine (formulas) reads the same cell as its
        # serial number, 46028, and answers for that number. Excel is the one users see; calc has no
        # number formats to tell a date from a number.
        name, day = dates[0]
        assert isinstance(excel, str) and excel.startswith(f"#VALUE! {name} is a date ({day:%Y-%m-%d})"), excel
        assert excel != engine
        return "date"
    if isinstance(engine, str) and len(engine) > CLASSIC_TEXT_LIMIT:
        # classic Excel shows at most 255 characters of a UDF's text: the add-in shortens it, calc need not
        assert excel == shortened(engine, CLASSIC_TEXT_LIMIT), excel
        return "255 characters"
    return None


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Book]]:
    """The template as built, and after the user's edits; each computed with ``template calc``."""
    home = tmp_path_factory.mktemp("workbook-home")
    folder = tmp_path_factory.mktemp("workbook")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BENCHSHEET_HOME", str(home))
        store.set_table(None)
        built = folder / "template.xlsx"
        B.build(built)
        edited = folder / "edited.xlsx"
        shutil.copy(built, edited)
        wb = openpyxl.load_workbook(edited)
        if CHECKS not in wb.sheetnames:
            wb.create_sheet(CHECKS)
        for (sheet, ref), (value, fmt) in EDITS.items():
            wb[sheet][ref] = value
            if fmt is not None:
                wb[sheet][ref].number_format = fmt
        wb.save(edited)
        books = {}
        for name, src in (("template", built), ("edited", edited)):
            out = folder / f"{name}-calc.xlsx"
            report = calc(src, out)
            assert report.formulas > 400
            books[name] = load(out)
        store.set_table(None)
        yield books


# --------------------------------------------------------------------- tests


@pytest.mark.parametrize("which", ["template", "edited"])
def test_every_call_answers_in_excel_as_calc_computes_it(
    windows: Windows, workbooks: dict[str, Book], which: str
) -> None:
    book = workbooks[which]
    calls = every_call(book)
    differences: dict[str, list[str]] = {}
    for call in calls:
        excel, engine = shown(excel_answer(windows, book, call)), shown(engine_answer(book, call))
        if excel == engine or (
            isinstance(excel, float) and isinstance(engine, float) and math.isclose(excel, engine, rel_tol=1e-12)
        ):
            continue
        why = legit_difference(book, call, excel, engine)
        assert why is not None, f"{call.sheet}!{call.ref} {call.text}: Excel {excel!r}, calc {engine!r}"
        differences.setdefault(why, []).append(f"{call.sheet}!{call.ref}")

    # every call was found: as many as the formula texts name catalogue functions
    pattern = re.compile(r"(?<![\w.])(?:" + "|".join(BY_NAME) + r")\(", re.IGNORECASE)
    texts = [
        formula_text(c.value)
        for ws in book.source.worksheets
        for row in ws.iter_rows()
        for c in row
        if c.data_type == "f"
    ]
    assert len(calls) == sum(len(pattern.findall(t)) for t in texts) > 200  # issue 32: array formulas
    assert {"COSTPERMTOK", "BREAKEVENPRICE", "CITE", "FAMILIES", "DATAINFO"} <= {c.name for c in calls}
    if which == "template":
        assert differences == {}
    else:
        assert differences == {"date": [f"{CHECKS}!B2", f"{CHECKS}!B10"]}


def test_whole_call_cells_are_what_calc_cached(workbooks: dict[str, Book]) -> None:
    """Where a cell's formula is one call, the engine's answer on the inputs above is calc's value
    for the cell and what calc wrote into the file: the comparison above is against calc itself."""
    for book in workbooks.values():
        checked = 0
        for ws in book.source.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if c.data_type != "f" or not isinstance(c.value, str):
                        continue
                    calls = calls_in(c.value, ws.title, c.coordinate)
                    if len(calls) != 1 or "=" + calls[0].text != c.value.replace(" ", ""):
                        continue
                    if any(a.kind == "missing" for a in calls[0].args):
                        continue  # calc cannot compute these yet: see the test below
                    where = f"{ws.title}!{c.coordinate}"
                    answer = engine_answer(book, calls[0])
                    assert shown(answer) == shown(book.engine_value(ws.title, c.coordinate)), where
                    top = answer[0][0] if isinstance(answer, list) else answer
                    cached = book.shown[ws.title][c.coordinate].value
                    if type(top) is XlError:
                        # an error with no reason (passed on from an input): calc names its cause in
                        # the file ("#N/A Checks!A4 holds the error #N/A"); Excel shows what the
                        # add-in returned, "#N/A"
                        assert cached == str(top) or cached.startswith(f"{top} "), where
                    else:
                        want = shown(top)
                        assert cached == (float(want) if isinstance(cached, float) else want), where
                    checked += 1
        assert checked >= 4  # Read me's DATAINFO fields, at least


def test_calc_computes_a_left_out_argument_beside_a_reference(workbooks: dict[str, Book]) -> None:
    """``=MEDIANPERGPU("B300","gpt-oss-120b","Server",,,A1)``: Excel passes "missing" and answers;
    so does calc (the ``BENCHSHEET.MISSING()`` in the gap once stopped a formula that also had cell
    inputs: '#VALUE! not computed (a circular reference?)')."""
    book = workbooks["edited"]
    for ref in ("B11", "B12"):
        assert isinstance(book.engine_value(CHECKS, ref), float), ref


def test_the_edits_reach_functions_as_excel_types_them(windows: Windows, workbooks: dict[str, Book]) -> None:
    """The edited cells arrive as Excel sends them, and the answers are the ones a user expects."""
    from decimal import Decimal

    book = workbooks["edited"]
    by_cell = {(c.sheet, c.ref, c.name): c for c in every_call(book)}

    def answer(sheet: str, ref: str, name: str) -> Any:
        return shown(excel_answer(windows, book, by_cell[(sheet, ref, name)]))

    assert isinstance(com_value(book.cell(S.SIZING, S.WORKLOAD["price"].a1)), Decimal)  # a currency cell
    assert isinstance(com_value(book.cell(S.QUOTES, quote(2, "price"))), Decimal)  # an Accounting cell
    assert com_value(book.cell(S.SIZING, S.WORKLOAD["utilization"].a1)) == 0.6  # 60%
    for i in range(3):  # cost per million tokens from currency prices: numbers
        assert isinstance(answer(S.SIZING, sizing(i, "cost_per_mtok"), "COSTPERMTOK"), float)
    assert isinstance(answer(S.QUOTES, quote(2, "cost_per_mtok"), "COSTPERMTOK"), float)
    assert isinstance(answer(S.QUOTES, quote(0, "ceiling"), "BREAKEVENPRICE"), float)
    assert isinstance(answer(CHECKS, "B1", "BEST"), float)  # round 6.0 typed as a number
    assert isinstance(answer(CHECKS, "B3", "HEADLINE"), float)
    assert answer(CHECKS, "B3", "HEADLINE") == answer(CHECKS, "B4", "HEADLINE")
    assert isinstance(answer(CHECKS, "B5", "COSTPERMTOK"), float)
    assert answer(CHECKS, "B2", "BEST") == '#VALUE! round is a date (2026-01-06); type the round as text, e.g. "6.1"'
    assert answer(CHECKS, "B6", "GPUSNEEDED") == "#VALUE! target_tokens_per_sec must be a number, not 'lots'"
    assert answer(CHECKS, "B7", "PERGPU") == "#N/A"  # an error upstream is passed on
    assert answer(CHECKS, "B8", "COSTPERMTOK") == "#DIV/0!"
    assert answer(S.SIZING, sizing(3, "entry"), "GPUS") == "#N/A"
    assert answer(S.SIZING, sizing(0, "gpus"), "GPUSNEEDED") == "#VALUE! gpus_per_node must be a number, not 'eight'"
    assert answer(S.QUOTES, quote(3, "cost_per_mtok"), "COSTPERMTOK") == (
        "#VALUE! price_per_gpu_hour must be a number, not 'call vendor'"
    )
