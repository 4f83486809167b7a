"""A formula as text, before the formula engine reads it; and the formulas that need no engine.

Excel's limits on a formula and its texts, add-in prefixes dropped from function names, and
openpyxl's tokenizer: shared by the engine (``engine.prepare``) and ``literal_call``. A call of
one of benchsheet's own functions with literal arguments (``=PERGPU("6.1-0052","gpt-oss-120b",
"Server")``, what a terminal user evaluates most) is answered here from the catalogue, as the
engine answers it, without starting the engine: numpy and formulas' parser are more than half of a
fresh ``benchsheet eval``. Anything else (a reference, an operator, a nested call, an Excel
function, an error literal, a missing argument, a space) is the engine's. Nothing here imports
numpy or formulas; ``tests/test_formula_text.py`` checks every answer against the engine's.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .catalogue import BY_NAME, Function, call
from .errors import BenchError
from .store import get_table

__all__ = [
    "MAX_FORMULA",
    "MAX_TEXT",
    "Failed",
    "answer",
    "errors_in",
    "failed",
    "literal_call",
    "normalize_formula",
    "shown",
    "tokenizer",
    "too_long",
]

MAX_FORMULA = 8192  # characters in a formula, as Excel allows
MAX_TEXT = 32767  # characters in a cell's text, as Excel allows
_UDF_PREFIX = re.compile(r"(?<![\w.])(?:_xludf\.|\[\d+\]!|'[^']*\.xla[mx]?'!)(?=[A-Za-z_][\w.]*\()", re.IGNORECASE)
EXPONENT = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)[eE](\d+)$")  # 1E3: Excel's own spelling of 1E+3
# a number as formulas' parser reads one (formulas.tokens.operand.Number), then by Python's literal syntax
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:E[+-][0-9]+)?", re.IGNORECASE)


def normalize_formula(text: str) -> str:
    """Drop add-in prefixes from function names (``_xludf.BEST(``), outside string literals."""
    parts = text.split('"')
    for i in range(0, len(parts), 2):
        parts[i] = _UDF_PREFIX.sub("", parts[i])
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


_TOKENIZER = "benchsheet._openpyxl_tokenizer"


@dataclass(frozen=True, slots=True)
class Failed:
    """An error answered without the engine: what its ``ReasonedError`` would say."""

    code: str
    reason: str

    @property
    def text(self) -> str:
        return f"{self.code} {self.reason}"


def failed(value: Any) -> bool:
    return isinstance(value, Failed)


def too_long(n: int) -> tuple[str, str]:
    """The error code and reason of an answer whose text Excel could not hold."""
    return "#VALUE!", f"the text would have {n:,} characters; Excel allows {MAX_TEXT:,}"


_NOT_LITERAL = object()


def literal_call(formula: str) -> tuple[Function, list[Any]] | None:
    """``formula`` as one of benchsheet's functions and its arguments, when it is nothing but a call
    of it with literal texts, numbers and booleans; None for anything else."""
    text = formula.strip()
    text = text if text.startswith("=") else "=" + text
    if len(text) > MAX_FORMULA or "\n" in text or "\r" in text:
        return None
    tokens = tokenizer()
    try:
        items = tokens.Tokenizer(normalize_formula(text)).items
    except (tokens.TokenizerError, IndexError):
        return None
    if len(items) < 2 or (items[0].type, items[0].subtype, items[-1].type) != ("FUNC", "OPEN", "FUNC"):
        return None
    fn = BY_NAME.get(items[0].value[:-1].upper())
    inner = items[1:-1]
    if fn is None or (len(inner) % 2 == 0 and inner):  # a trailing separator: an argument left out
        return None
    args: list[Any] = []
    for i, tok in enumerate(inner):
        if i % 2:
            if (tok.type, tok.subtype) != ("SEP", "ARG"):
                return None
            continue
        value = _literal(tok)
        if value is _NOT_LITERAL:
            return None
        args.append(value)
    return fn, args


def _literal(tok: Any) -> Any:
    """A literal operand as formulas' parser reads it (``formulas.tokens.operand``: a text with its
    doubled quotes single, a number or boolean by Python's literal syntax); ``_NOT_LITERAL`` else."""
    if tok.type != "OPERAND":
        return _NOT_LITERAL
    if tok.subtype == "TEXT":  # at most 8,190 characters (MAX_FORMULA), fewer than a cell may hold
        return tok.value[1:-1].replace('""', '"')
    if tok.subtype == "LOGICAL" and tok.value.upper() in ("TRUE", "FALSE"):
        return tok.value.upper() == "TRUE"
    number = EXPONENT.sub(r"\1E+\2", tok.value)
    if tok.subtype == "NUMBER" and _NUMBER.fullmatch(number):
        try:
            return ast.literal_eval(number)
        except (ValueError, SyntaxError):  # 007: not a number to Python, nor to formulas
            return _NOT_LITERAL
    return _NOT_LITERAL


def answer(fn: Function, args: Sequence[Any]) -> Any:
    """``fn`` of literal ``args`` as the engine answers the formula (``engine.evaluate``): a number,
    text or boolean, rows of them (a "table" answer), or ``Failed``. The engine holds rows as an
    array, and an array of one cell is that cell's value; no text may be longer than Excel allows."""
    out = call(fn, get_table(), args, _failure, is_error=failed)
    if not isinstance(out, list):
        return Failed(*too_long(len(out))) if isinstance(out, str) and len(out) > MAX_TEXT else out
    for v in (v for row in out for v in row):
        if isinstance(v, str) and len(v) > MAX_TEXT:
            return Failed(*too_long(len(v)))
    return out[0][0] if len(out) == 1 and len(out[0]) == 1 else out


def _failure(err: BenchError) -> Failed:
    return Failed(err.code, err.reason)


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
