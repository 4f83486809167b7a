"""benchsheet's formulas that need no engine: a call of one of its functions with literal arguments.

A call such as ``=PERGPU("6.1-0052","gpt-oss-120b","Server")``, what a terminal user evaluates
most, is answered here from the catalogue, as the engine answers it, without starting the engine:
numpy and formulas' parser are more than half of a fresh ``benchsheet eval``. Anything else (a
reference, an operator, a nested call, an Excel function, an error literal, a missing argument, a
space) is the engine's. Nothing here imports numpy or formulas; ``tests/excelcalc/test_formula_text.py``
checks every answer against the engine's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchsheet.catalogue.calls import call
from benchsheet.catalogue.declare import Function
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data.store import get_table
from benchsheet.errors import BenchError
from excelcalc.formula_text import EXPONENT, MAX_FORMULA, MAX_TEXT, normalize_formula, tokenizer, too_long

__all__ = ["Failed", "answer", "failed", "literal_call"]

# a number as formulas' parser reads one (formulas.tokens.operand.Number), then by Python's literal syntax
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:E[+-][0-9]+)?", re.IGNORECASE)


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
