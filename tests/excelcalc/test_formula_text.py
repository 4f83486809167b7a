"""``benchsheet eval`` of a call of benchsheet's own function with literal arguments answers from the
catalogue without starting the formula engine (formula_text.literal_call/answer): every such answer
is checked here against the engine's own answer to the same formula, on the real table."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchsheet.catalogue.declare import Arg, Function, Returns
from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import CATALOGUE
from benchsheet.catalogue.literal import answer, failed, literal_call
from benchsheet.cli import main
from benchsheet.data.store import get_table
from excelcalc.backend import Program
from excelcalc.formula import _checked, error_cells, format_value, functions, prepare, program
from excelcalc.formula_text import FUTURE_FUNCTIONS, MAX_FORMULA, MAX_TEXT, errors_in, shown
from excelcalc.values import is_error

ENTRY = '"6.1-0052"'

# literal arguments as a user types them, per argument name or kind: real values, near misses, wrong types
_BY_NAME: dict[str, list[str]] = {
    "benchmark": ['"gpt-oss-120b"', '"deepseek-r1"', '"llama2-70b-99"', '"GPT-OSS-120B"', '"nope"', '""', "5"],
    "scenario": ['"Server"', '"Offline"', '"Interactive"', '"server"', '"x"', "TRUE"],
    "availability": ['"available"', '"preview"', '"any"', '"x"', "1"],
    "field": ['"system"', '"rounds"', '"result"', '"submitter"', '"x"', "2"],
    "part": ['"1"', "2", '"all"', "0", '"x"'],
}
_BY_KIND: dict[str, list[str]] = {
    "text": ['"B200"', '"B300"', '"GB300"', '"Blackwell"', '"Vera Rubin"', '"x"', '"say ""hi"""', "3", "FALSE"],
    "spec": ['"B200"', '"B300"', '"GB300"', '"6.1-0052"', '"nope"', "8"],
    "round": ['"6.1"', '"5.1"', '"6.0"', "6.1", '"9.9"', "TRUE"],
    "int": ["8", "1", "0", "72", "1E3", '"8"', "TRUE", "2.5", "1e+2"],
    "number": ["5", "0.5", "1E3", "1.5e-3", "0", '"5"', "TRUE", ".25", "00.5"],
    "bool": ["TRUE", "FALSE", "true", "1", '"x"'],
    "cells": ['"6.1-0052"', '"Sizing row 18"', '"gpt-oss-120b"', '"Server"', "7"],
}


def _entries() -> list[str]:
    ids = sorted({r.entry for r in get_table().rows})
    return [f'"{e}"' for e in (ids[0], ids[len(ids) // 2], ids[-1], "5.1-0061", "6.1-0052")] + ['"6.1-9999"', '""']


def _pool(fn: Function, i: int, entries: list[str]) -> list[str]:
    arg = fn.args[i] if i < len(fn.args) else fn.args[-1]
    if "entry" in arg.name:
        return entries
    return _BY_NAME.get(arg.name) or _BY_KIND.get(arg.kind, _BY_KIND["text"])


def _formulas() -> list[str]:
    rng = random.Random(19)
    entries = _entries()
    out: list[str] = []
    for fn in CATALOGUE:
        out.append(fn.example)
        for n in range(20):
            count = n % (len(fn.args) + 2)  # none, some, all, and one argument too many
            name = fn.name.lower() if n % 7 == 3 else fn.name
            out.append(f"={name}({','.join(rng.choice(_pool(fn, i, entries)) for i in range(count))})")
    return out


def _as_printed(value: Any, errors: Any) -> tuple[str, bool, int, Any]:
    return shown(value, errors), errors(value), errors_in(value, errors), _kinds(value, errors)


def _engine(formula: str) -> tuple[str, bool, int, Any]:
    value = evaluate(formula)
    return format_value(value), is_error(value), error_cells(value), _kinds(value, is_error)


def _kinds(value: Any, errors: Any) -> Any:
    """The answer's shape and the type of each value (an error of either runtime as "error")."""
    if isinstance(value, list):
        return [_kinds(v, errors) for v in value]
    return "error" if errors(value) else type(value).__name__


def test_every_catalogue_name_is_the_catalogue_function_in_the_engine() -> None:
    """What the literal path calls is what the engine calls under that name (no Excel override of it)."""
    table = functions()
    for fn in CATALOGUE:
        assert table[fn.name].__qualname__ == "_engine_function.<locals>.run" and table[fn.name].__name__ == fn.name


def test_literal_calls_answer_as_the_engine_does() -> None:
    judged = 0
    for formula in _formulas():
        literal = literal_call(formula)
        if literal is None:  # a nested call; a lower-case true, which openpyxl reads as a name: the engine's
            continue
        assert _as_printed(answer(*literal), failed) == _engine(formula), formula
        judged += 1
    assert judged > 20 * len(CATALOGUE)


@pytest.mark.parametrize(
    "formula",
    [
        '=_xludf.PERGPU("6.1-0052","gpt-oss-120b","Server")',  # an add-in prefix, as files write it
        "PERGPU(" + ENTRY + ',"gpt-oss-120b","Server")',  # without "="
        '=CITE("6.1-0052","gpt-oss-120b","Server")',  # an array answer
        '=CITE("6.1-0052","gpt-oss-120b","Server",2)',  # one line of it
        '=ENTRY("6.1-0052","say ""hi""")',
        '=PERGPU("' + "x" * 8000 + '","gpt-oss-120b","Server")',  # a long text (a formula has at most 8,192)
        '=HEADLINES("5.1","6.1")',
        '=FAMILIES("deepseek-r1","Interactive","available",8)',  # a table of one cell: that cell
    ],
)
def test_literal_call_shapes(formula: str) -> None:
    literal = literal_call(formula)
    assert literal is not None
    assert _as_printed(answer(*literal), failed) == _engine(formula)


def test_an_answer_longer_than_excel_allows_is_the_engines_error() -> None:
    """No catalogue function answers such a text from literal arguments today; one that did would get
    the engine's own error (its ``_checked`` of the same value), as a single value or in a table."""

    def long_text(n: int) -> str:
        return "x" * n

    def long_table(n: int) -> list[list[str]]:
        return [["short", "x" * n]]

    cases: list[tuple[Callable[[int], Any], Returns]] = [(long_text, "text"), (long_table, "table")]
    for impl, returns in cases:
        fn = Function(impl.__name__.upper(), (Arg("n", "int", "characters"),), "help", "=X(1)", impl, returns)
        got = answer(fn, [MAX_TEXT + 5])
        engine_says = _checked(np.asarray(impl(MAX_TEXT + 5), dtype=object))
        assert failed(got) and got.text == engine_says.text
        assert answer(fn, [MAX_TEXT]) == impl(MAX_TEXT)


def test_literals_are_what_formulas_parser_makes_of_them() -> None:
    """Numbers, booleans and texts as the engine's parser reads them (its constants), type and value."""
    formula = '=GPUS(5,1.5,1E3,.25,00.5,1.5e-3,2E+2,TRUE,FALSE,"a""b","")'
    literal = literal_call(formula)
    assert literal is not None
    prog = program(prepare(formula).text)
    assert isinstance(prog, Program)
    parsed = [prog.constants[k] for k in prog.constants]  # in the order the parser met them
    assert [(type(v), v) for v in literal[1]] == [(type(v), v) for v in parsed]


@pytest.mark.parametrize(
    "formula",
    [
        '=PERGPU(A1,"gpt-oss-120b","Server")',  # a reference
        '=PERGPU("6.1-0052","gpt-oss-120b","Server")*2',  # an operator
        '=-PERGPU("6.1-0052","gpt-oss-120b","Server")',
        '=PERGPU("6.1-0052","gpt-oss-120b","Server")%',
        '=COSTPERMTOK(5,PERGPU("6.1-0052","gpt-oss-120b","Server"),0.5)',  # a nested call
        "=SUM(1,2)",  # an Excel function
        '=NOPE("x")',
        '=PERGPU(#N/A,"gpt-oss-120b","Server")',  # an error literal
        '=PERGPU("6.1-0052",,"Server")',  # an argument left out
        '=PERGPU("6.1-0052","gpt-oss-120b",)',
        '=PERGPU( "6.1-0052","gpt-oss-120b","Server")',  # a space
        '= PERGPU("6.1-0052","gpt-oss-120b","Server")',
        "=GPUS(007)",  # not a number to formulas' parser (nor to Python)
        "=GPUS(5.)",
        '=GPUS("a\nb")',  # a line break in a text
        "=GPUS({1,2})",  # an array literal
        '=GPUS("6.1-0052"',  # unclosed
        '=PERGPU("' + "x" * MAX_FORMULA + '","gpt-oss-120b","Server")',  # longer than a formula may be
    ],
)
def test_everything_else_is_the_engines(formula: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert literal_call(formula) is None
    status = main(["eval", formula])
    out, err = capsys.readouterr()
    text, error, errors, _ = _engine(formula)
    assert status == (1 if error or errors else 0)
    assert (err if error else out).rstrip("\n") == text


def test_the_newer_functions_are_those_xlsxwriter_prefixes() -> None:
    """The functions a file stores as ``_xlfn.NAME(`` are those XlsxWriter writes so (its
    ``use_future_functions``, from Microsoft's [MS-XLSX] list): checked against its own code."""
    import xlsxwriter.worksheet

    sheet = xlsxwriter.worksheet.Worksheet()
    prefixed = {name for name in FUTURE_FUNCTIONS if sheet._prepare_formula(f"{name}(1)", True).startswith("_xl")}
    assert prefixed == FUTURE_FUNCTIONS
    assert sheet._prepare_formula("SUM(1)+VLOOKUP(1,A1:B2,2)", True) == "SUM(1)+VLOOKUP(1,A1:B2,2)"


def test_a_newer_function_stored_without_its_prefix_is_name(tmp_path: Path) -> None:
    """Excel reads ``=XLOOKUP(...)`` stored without ``_xlfn.`` (openpyxl stores a formula as typed)
    as an unknown function: #NAME? (XlsxWriter's and EPPlus's documentation of future functions);
    calc computed it (issue 41 item 6). The reason says what to store; ``eval``, which reads a
    formula as the formula bar does, keeps accepting it."""
    from tests.excelcalc.lib.workbooks import book

    cells = {"A1": 1, "B1": "=XLOOKUP(A1,{1,2},{10,20})", "B2": "=_xlfn.XLOOKUP(A1,{1,2},{10,20})"}
    cells |= {"B3": "=IFS(A1=1,5)", "B4": "=_xlfn.IFS(A1=1,5)", "B5": "=SUM(A1,2)"}
    got = book(tmp_path, cells)
    assert (got["B1"], got["B2"], got["B3"], got["B4"], got["B5"]) == ("#NAME?", 10, "#NAME?", 5, 3)
    assert "_xlfn.XLOOKUP(" in got["reasons"]["B1"] and "prefix" in got["reasons"]["B1"]
    assert evaluate("=XLOOKUP(1,{1,2},{10,20})") == 10 and evaluate("=IFS(TRUE,5)") == 5
