"""Today's approach to ``template calc`` before issue 13, kept only as the benchmark's baseline
(``calc_15k_baseline_s``): the whole workbook loaded into the ``formulas`` package's ExcelModel,
each formula cell compiled on its own. Not used by benchsheet; nothing in the product imports it.
The code below is ``templates/compute.py`` of commit ed2174c, unchanged."""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import re
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import formulas
import formulas.excel as fexcel
import schedula as sh
from formulas.tokens.operand import XlError

import benchsheet.catalogue.engine  # noqa: F401  (benchsheet's functions installed in the engine)
from excelcalc.formula import functions, mark_missing
from excelcalc.values import ReasonedError, plain

CellKey = tuple[str, str]  # (sheet name in upper case, "B5")

MAX_RANGE_CELLS = 20_000  # a precedent range larger than this is not searched for a reason

_KEY = re.compile(r"^'?\[(?P<book>[^\]]*)\](?P<sheet>.*?)'?!(?P<ref>\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)$")
_CELL = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")
_BOOK = re.compile(r"^'?(?P<dir>[^\[!]*)\[(?P<book>[^\]]*)\]")  # '../[other.xlsx]SHEET1'!A1
EXTERNAL = "external workbook references are not followed"
_EXTERNAL_KEY: CellKey = ("", "[external workbook]")  # the precedent every external reference stands for
# A function called through an add-in or marked as user-defined by the program
# that saved the file: _xludf.BEST(...), [1]!BEST(...), 'benchsheet.xlam'!BEST(...)
_UDF_PREFIX = re.compile(r"(?<![\w.])(?:_xludf\.|\[\d+\]!|'[^']*\.xla[mx]?'!)(?=[A-Za-z_][\w.]*\()", re.IGNORECASE)


class ErrorCode(str):
    """An Excel error with no reason to show: cached as a real error value."""

    __slots__ = ()


@dataclass
class Computed:
    """Every cell's answer, keyed by (SHEET, "B5") with the sheet name in upper case."""

    values: dict[CellKey, Any] = field(default_factory=dict)  # plain values of all cells
    formulas: dict[CellKey, str] = field(default_factory=dict)  # formula text of formula cells
    shown: dict[CellKey, float | int | bool | str] = field(default_factory=dict)  # cached value per formula cell
    errors: dict[CellKey, str] = field(default_factory=dict)  # error text per formula cell that has one
    sheet_names: dict[str, str] = field(default_factory=dict)  # SHEET -> the name as written in the file

    def where(self, key: CellKey) -> str:
        """``Sizing!B5``, ``'Read me'!B5``: a cell as Excel writes it."""
        name = self.sheet_names.get(key[0], key[0])
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            name = "'" + name.replace("'", "''") + "'"
        return f"{name}!{key[1]}"

    def shown_value(self, sheet: str, ref: str) -> float | int | bool | str | None:
        key = (sheet.upper(), ref.replace("$", "").upper())
        if key in self.shown:
            return self.shown[key]
        value = self.values.get(key)
        return None if value is None else to_shown(value)


def col_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def col_letters(n: int) -> str:
    out = ""
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def normalize_formula(text: str) -> str:
    """Drop add-in prefixes from function names, outside string literals."""
    parts = text.split('"')
    for i in range(0, len(parts), 2):
        parts[i] = _UDF_PREFIX.sub("", parts[i])
    return '"'.join(parts)


def book_of(name: str) -> str | None:
    """``'../[other.xlsx]SHEET1'!A1`` -> "../OTHER.XLSX"; None for a name with no book (a defined name)."""
    m = _BOOK.match(name)
    return (m.group("dir") + m.group("book")).replace("''", "'").upper() if m else None


def split_key(name: str) -> tuple[str, str] | None:
    """``'[book.xlsx]SIZING'!B5`` -> ("SIZING", "B5"); None for names that are no cell or range."""
    m = _KEY.match(name)
    if not m:
        return None
    return m.group("sheet").replace("''", "'").upper(), m.group("ref").replace("$", "")


def expand(ref: str) -> list[str]:
    """The cells of "B5" or "A1:C3" (empty when the range is too large to search)."""
    if ":" not in ref:
        return [ref]
    first, last = ref.split(":")
    m1, m2 = _CELL.match(first), _CELL.match(last)
    if not m1 or not m2:
        return []
    c1, c2 = sorted((col_number(m1.group(1)), col_number(m2.group(1))))
    r1, r2 = sorted((int(m1.group(2)), int(m2.group(2))))
    if (c2 - c1 + 1) * (r2 - r1 + 1) > MAX_RANGE_CELLS:
        return []
    return [f"{col_letters(c)}{r}" for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def unknown_functions(formula: str) -> list[str]:
    """Names of functions in ``formula`` that neither Excel's table nor the catalogue has."""
    try:
        tokens, _ = formulas.Parser().ast(formula)
    except Exception:
        return []
    known = functions()
    return sorted({t.name.upper() for t in tokens if type(t).__name__ == "Function" and t.name.upper() not in known})


def to_shown(value: Any) -> float | int | bool | str:
    """The value an .xlsx caches for an answer; an error with a reason becomes its text."""
    if isinstance(value, list):  # an array in one cell shows its first value, as in Excel
        value = value[0][0] if value and value[0] else None
    if isinstance(value, ReasonedError):
        return value.text
    if isinstance(value, XlError):
        return ErrorCode(str(value))
    if value is None:
        return ""
    if isinstance(value, bool | str):
        return str(value) if isinstance(value, str) else value
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return ErrorCode("#NUM!")
        return value
    return str(value)


class _Model(formulas.ExcelModel):  # type: ignore[misc]
    """formulas' ExcelModel that records formula texts, survives formulas it cannot parse, reads
    left-out arguments of benchsheet's functions as ``benchsheet eval`` does, and loads no book but
    the one it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: dict[str, str] = {}
        self.broken: dict[str, ReasonedError] = {}
        self.home = ""  # the loaded book, as formulas names it ("CLUSTER-SIZING.XLSX")

    def add_book(self, book: Any = None, context: Any = None, data_only: bool = False) -> Any:
        """Load the input; refuse every other book (``'../[other.xlsx]Sheet1'!A1``, a defined name
        pointing elsewhere): formulas then makes the cell ``#REF!`` and nothing is read."""
        if self.home:
            if not isinstance(book, str) or fexcel._encode_path(book).upper() != self.home:
                raise LookupError(f"{book}: {EXTERNAL}")
            return super().add_book(book, context, data_only)
        loaded, ctx = super().add_book(book, context, data_only)
        self.home = ctx["excel"]
        return loaded, ctx

    def is_external(self, name: str) -> bool:
        book = book_of(name)
        return book is not None and book != self.home

    def compile_cell(self, cell: Any, context: Any, references: Any, formula_references: Any) -> Any:
        try:
            return super().compile_cell(cell, context, references, formula_references)
        except Exception as exc:  # e.g. a data-table formula formulas cannot read
            return self._broken(cell.coordinate, context, f"cannot compute this formula ({_short(exc)})")

    def _compile_cell(self, crd: str, val: Any, context: Any, check_formula: bool, references: Any) -> Any:
        if check_formula and isinstance(val, str) and val.startswith("="):
            val = normalize_formula(val)
            try:  # left-out arguments of benchsheet's functions are "missing", as in benchsheet eval
                cell = formulas.ExcelModel._compile_cell(crd, mark_missing(val), context, check_formula, references)
            except Exception as exc:
                unknown = unknown_functions(val)
                if unknown:
                    return self._broken(crd, context, f"unknown function {', '.join(unknown)}", "#NAME?", val)
                return self._broken(crd, context, f"cannot read the formula {val[:80]!r} ({_short(exc)})", text=val)
            if any(self.is_external(str(name)) for name in cell.inputs or ()):
                return self._broken(crd, context, EXTERNAL, "#REF!", val)
            self.texts[cell.output] = val
            return cell
        return formulas.ExcelModel._compile_cell(crd, val, context, check_formula, references)

    def _broken(self, crd: str, context: Any, reason: str, code: str = "#VALUE!", text: str = "") -> Any:
        cell = formulas.ExcelModel._compile_cell(crd.split(":")[0], "=" + code, context, True, {})
        self.broken[cell.output] = ReasonedError(code, reason)
        self.texts[cell.output] = text or "=" + code
        return cell


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:160]


@contextlib.contextmanager
def _engine_settings() -> Iterator[None]:
    """While a workbook computes: nothing on stderr (no tqdm progress bar, no log lines from formulas:
    what it would log, a missing sheet or a refused external book, is the cell's reason), and formulas
    compiled as plain sub-dispatchers. formulas' default (a ``DispatchPipe``) pre-plans each formula for
    repeated calls; here each formula runs once, and planning it cost more than running it (a third of
    build time)."""
    import formulas.builder as fbuilder
    import tqdm  # type: ignore[import-untyped,unused-ignore]

    saved = fexcel.tqdm, fbuilder.AstBuilder.compile_class
    log = logging.getLogger("formulas")
    level = log.level
    fexcel.tqdm = types.SimpleNamespace(tqdm=functools.partial(tqdm.tqdm, disable=True))
    fbuilder.AstBuilder.compile_class = sh.SubDispatchFunction
    log.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        fexcel.tqdm, fbuilder.AstBuilder.compile_class = saved
        log.setLevel(level)


def compute(path: Path) -> Computed:
    """Load ``path`` into the formula engine and compute every formula cell."""
    functions()  # the catalogue is registered in formulas' function table
    with _engine_settings():
        model = _Model().loads(str(Path(path).resolve())).finish()
        solution = model.calculate()
    out = Computed()
    for data in model.books.values():
        book = data.get(fexcel.BOOK)
        for title in getattr(book, "sheetnames", ()):
            out.sheet_names[title.upper()] = title
    for name, value in solution.items():
        if isinstance(name, sh.Token) or model.is_external(str(name)):
            continue
        key = split_key(str(name))
        if key and ":" not in key[1]:
            out.values[key] = plain(value)
    for name, text in model.texts.items():
        key = split_key(name)
        if key is None:
            continue
        out.formulas[key] = text
        if name in model.broken:
            out.values[key] = model.broken[name]
        elif key not in out.values:
            out.values[key] = ReasonedError("#VALUE!", "not computed (a circular reference?)")
    precedents = _precedents(model)
    for key in out.formulas:
        value = out.values[key]
        if isinstance(value, list):
            value = value[0][0] if value and value[0] else None
        if isinstance(value, XlError) and not isinstance(value, ReasonedError):
            reason = _explain(key, str(value), out, precedents, set())
            if reason:
                value = ReasonedError(str(value), reason)
        shown = to_shown(value)
        out.shown[key] = shown
        if isinstance(value, XlError):
            out.errors[key] = shown if isinstance(shown, str) else str(value)
    return out


def _precedents(model: _Model) -> dict[CellKey, list[CellKey]]:
    """The cells each formula cell reads, through defined names; another book is ``_EXTERNAL_KEY``."""

    def cells_of(names: Any, seen: set[str]) -> Iterator[CellKey]:
        for inp in map(str, names or ()):
            k = split_key(inp)
            if model.is_external(inp):
                yield _EXTERNAL_KEY
            elif k:
                yield from ((k[0], ref) for ref in expand(k[1]))
            elif inp in model.cells and inp not in seen:  # a defined name: what it refers to
                seen.add(inp)
                yield from cells_of(getattr(model.cells[inp], "inputs", None), seen)

    out: dict[CellKey, list[CellKey]] = {}
    for name, cell in model.cells.items():
        key = split_key(str(name))
        inputs = getattr(cell, "inputs", None)
        if key is None or model.is_external(str(name)) or not inputs:
            continue
        out[key] = list(cells_of(inputs, set()))
    return out


def _explain(
    key: CellKey, code: str, out: Computed, precedents: dict[CellKey, list[CellKey]], seen: set[CellKey]
) -> str:
    """A reason for a plain error, found among the cell's precedents ('' if none)."""
    if key in seen:
        return ""
    seen.add(key)
    if code == "#NAME?" and key in out.formulas:
        unknown = unknown_functions(out.formulas[key])
        if unknown:
            return f"unknown function {', '.join(unknown)}"
    for p in precedents.get(key, []):
        if p == _EXTERNAL_KEY:
            return EXTERNAL
        if code == "#REF!" and p[0] not in out.sheet_names:
            return f"there is no sheet {p[0]}"  # formulas would have logged it; the reason is the cell's
        value = out.values.get(p)
        if isinstance(value, ReasonedError):
            return value.reason
        where = out.where(p)
        if p not in out.formulas and code == "#VALUE!" and isinstance(value, str) and not _numeric(value):
            return f"{where} holds the text {value[:40]!r} where a number is needed"
        if p not in out.formulas and isinstance(value, XlError):
            return f"{where} holds the error {value}"
        if p in out.formulas and isinstance(value, XlError):
            reason = _explain(p, str(value), out, precedents, seen)
            if reason:
                return reason
    return ""


def _numeric(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return False
    return True
