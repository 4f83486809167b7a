"""Contract tests of ``excelcalc.backend``: one per private name of ``formulas`` and ``schedula`` (and
openpyxl, through formulas' workbook reader) that the backend uses. An upgrade that moves one fails
here, by name, instead of in a user's workbook; pyproject.toml pins the range these pass on."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import schedula as sh
from openpyxl.worksheet.formula import ArrayFormula

import benchsheet.catalogue.engine  # noqa: F401  (registers benchsheet's functions: PERGPU below)
from excelcalc import backend as fa
from excelcalc.formula import functions


def test_parser_ast_gives_tokens_and_a_builder() -> None:
    from formulas import Parser

    tokens, builder = Parser().ast("=SUM(A1,2)")
    assert [type(t).__name__ for t in tokens if type(t).__name__ in ("Function", "Range", "Number")] == [
        "Function",
        "Range",
        "Number",
    ]
    builder.finish()
    assert builder.get_node_id(builder[-1]) == "SUM(A1, 2)"


def test_builder_dsp_function_nodes_hold_function_inputs_outputs_and_index() -> None:
    from formulas import Parser

    _, builder = Parser().ast("=1+A1")
    builder.finish()
    (node,) = builder.dsp.function_nodes.values()
    assert callable(node["function"]) and node["inputs"] == ["1", "A1"] and node["outputs"] == ["(1 + A1)"]
    assert isinstance(node["index"], tuple)
    assert builder.dsp.default_values["1"]["value"] == 1
    assert "A1" in builder.dsp.data_nodes and "A1" not in builder.dsp.default_values


def test_a_function_of_no_arguments_reads_start() -> None:
    from formulas import Parser

    _, builder = Parser().ast("=PI()")
    (node,) = builder.dsp.function_nodes.values()
    assert node["inputs"] == [sh.START]
    assert fa.compile_program("=PI()").run((), None) == pytest.approx(np.pi)


def test_cell_token_reaches_row_and_column() -> None:
    from formulas.cell import CELL

    prog = fa.compile_program("=ROW()*100+COLUMN()")
    assert CELL in {i for step in prog.steps for i in step.inputs}
    here = fa.make_range(fa.range_parts("S0", 7, 3, 7, 3), np.full((1, 1), fa.EMPTY, dtype=object))
    assert np.ravel(prog.run((), here))[0] == 703


def test_compiling_token_is_an_input_of_impure_functions() -> None:
    from formulas.functions import COMPILING

    prog = fa.compile_program("=RAND()")
    assert COMPILING in {i for step in prog.steps for i in step.inputs}
    assert 0 <= float(np.ravel(prog.run((), None))[0]) < 1


def test_replace_empty_makes_an_empty_cell_zero() -> None:
    from formulas.functions import replace_empty

    assert replace_empty(sh.EMPTY) == 0
    assert replace_empty(np.asarray([[sh.EMPTY, 1]], dtype=object)).tolist() == [[0, 1]]


def test_get_functions_is_a_mutable_table_of_excel_functions() -> None:
    from formulas.functions import get_functions

    table = get_functions()
    assert callable(table["REPT"]) and "IF" in table and "SUM" in table
    assert "PERGPU" in functions()  # benchsheet's functions registered in the same table


def test_index_and_single_are_entries_with_the_formulas_state_as_extra_inputs() -> None:
    """INDEX and implicit intersection (``_XLFN.SINGLE``) read the formula's state: formulas' table
    holds each as ``{"function", "extra_inputs"}``, called with COMPILING (and the formula's CELL)
    first; the engine's corrections of them (``lib.lookup``) take the same. (formulas 1.3.1 held
    INDEX as a plain function.)"""
    from formulas.cell import CELL
    from formulas.functions import COMPILING

    table = functions()
    index, single = table.excel("INDEX"), table.excel("_XLFN.SINGLE")
    assert isinstance(index, dict) and callable(index["function"]) and list(index["extra_inputs"]) == [COMPILING]
    assert isinstance(single, dict) and callable(single["function"])
    assert list(single["extra_inputs"]) == [COMPILING, CELL]


def test_array_is_an_ndarray_view() -> None:
    from formulas.functions import Array

    assert isinstance(np.asarray([[1]], dtype=object).view(Array), np.ndarray)


def test_ranges_hold_ranges_values_and_a_cached_value() -> None:
    from formulas.ranges import Ranges

    assert set(Ranges.__slots__) == {"ranges", "values", "_value"}
    parts = fa.range_parts("S0", 2, 1, 3, 2)
    assert Ranges().push("S0!A2:B3").ranges[0]["name"] == parts["name"]
    for key in ("r1", "r2", "n1", "n2", "c1", "c2", "sheet_id"):
        assert Ranges().push("S0!A2:B3").ranges[0][key] == parts[key], key
    value = np.asarray([[1, 2], [3, 4]], dtype=object)
    rng = fa.make_range(parts, value)
    assert rng.value is value
    prog = fa.compile_program("=SUM(_BSREF0)")
    assert prog.references == ("_BSREF0",) and prog.run((rng,), None) == 10


def test_reshape_array_as_excel() -> None:
    from formulas.ranges import _reshape_array_as_excel

    out = _reshape_array_as_excel(np.asarray([[1], [2]], dtype=object), (3, 1))
    assert out[:2, 0].tolist() == [1, 2] and str(out[2, 0]) == "#N/A"


def test_error_values() -> None:
    from formulas.tokens.operand import Error, XlError

    assert isinstance(Error.errors["#DIV/0!"], XlError) and str(Error.errors["#DIV/0!"]) == "#DIV/0!"
    assert str(fa.error("#N/A")) == "#N/A" and fa.error("#N/A") is Error.errors["#N/A"]


def test_formula_error_carries_a_template_and_the_formula() -> None:
    from formulas import Parser
    from formulas.errors import FormulaError

    with pytest.raises(FormulaError) as exc:
        Parser().ast("=1+*")
    assert fa.parse_message(exc.value).startswith("Not a valid formula")
    assert "%s" not in fa.parse_message(exc.value)


def test_xlreader_keeps_formulas_and_reads_dates_as_serial_numbers(tmp_path: Path) -> None:
    path = tmp_path / "d.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = datetime.date(2026, 1, 2)
    ws["B1"] = "=A1+1"
    ws["C1"] = ArrayFormula("C1:C2", "=A1:A2*2")
    wb.save(path)
    got = fa.load_workbook(str(path)).active
    assert got["A1"].value == 46024  # the serial number Excel stores
    assert got["B1"].value == "=A1+1" and got["B1"].data_type == "f"
    assert type(got["C1"].value).__name__ == "ArrayFormula" and got["C1"].value.ref == "C1:C2"


def test_openpyxl_worksheet_cells_are_the_cells_present(tmp_path: Path) -> None:
    path = tmp_path / "c.xlsx"
    wb = openpyxl.Workbook()
    wb.active["XFD1048576"] = 1
    wb.active["A1"] = 2
    wb.save(path)
    ws = fa.load_workbook(str(path)).active
    assert set(ws._cells) == {(1, 1), (1048576, 16384)}


def test_range_parts_spell_columns_as_formulas_does() -> None:
    """``range_parts`` names columns without importing openpyxl; formulas' own parser agrees for
    every column, from A to XFD, and each answer is a dictionary of its own."""
    from formulas.ranges import Ranges
    from openpyxl.utils import get_column_letter

    assert [fa.column_letters(c) for c in range(1, 16385)] == [get_column_letter(c) for c in range(1, 16385)]
    for c in (1, 26, 27, 52, 702, 703, 16383):  # (formulas names a range ending at XFD a row range)
        parts = fa.range_parts("S0", 3, c, 9, c)
        want = Ranges().push(f"S0!{get_column_letter(c)}3:{get_column_letter(c)}9").ranges[0]
        assert {k: parts[k] for k in ("r1", "r2", "n1", "n2", "c1", "c2", "name")} == {
            k: want[k] for k in ("r1", "r2", "n1", "n2", "c1", "c2", "name")
        }
    fa.range_parts("S0", 1, 1, 1, 1)["name"] = "changed"
    assert fa.range_parts("S0", 1, 1, 1, 1)["name"] == "S0!A1"


# What cells pass to formulas' functions: numbers, text, booleans, blanks, errors, as single values,
# 0-d and 1x1 arrays, 1x1 ranges
_ONE_VALUES = [0, 1, -2.5, 12.5, "", "x", "TRUE", "3", True, False, fa.EMPTY, fa.error("#N/A"), fa.error("#DIV/0!")]


def _shapes(v: object) -> list[object]:
    one = np.empty((1, 1), dtype=object)
    one[0, 0] = v
    zero = np.empty((), dtype=object)
    zero[()] = v
    return [v, zero.view(fa.Array), one.view(fa.Array), fa.make_range(fa.range_parts("S0", 2, 3, 2, 3), one)]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            type(a).__name__ == type(b).__name__  # the second copy of a module has classes of its own
            and np.shape(a) == np.shape(b)
            and all(_same(x, y) for x, y in zip(np.ravel(a), np.ravel(b), strict=True))
        )
    return type(a) is type(b) and (a == b or (a != a and b != b))  # NaN is NaN


def _formulas_own(name: str) -> object:
    """formulas' own ``name``, from a second copy of its module loaded with formulas' wrap_ufunc
    (the module the engine loads is wrapped by backend.wrap_ufunc)."""
    import importlib.util

    from formulas import functions as package

    for sub in package.SUBMODULES:
        origin = importlib.util.find_spec(sub, package.__name__).origin  # type: ignore[union-attr]
        spec = importlib.util.spec_from_file_location(f"formulas.functions._own_{sub[1:]}", origin)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        before, package.wrap_ufunc = package.wrap_ufunc, fa._WRAP_UFUNC
        try:
            spec.loader.exec_module(module)
        finally:
            package.wrap_ufunc = before
        found = module.FUNCTIONS.get(name)
        if found is not None:
            return found["function"] if isinstance(found, dict) else found
    raise LookupError(name)


@pytest.mark.parametrize("quiet", [False, True], ids=["alone", "in-quiet_numpy"])
@pytest.mark.parametrize(
    ("name", "arity"),
    [
        ("IF", 3),
        ("IFERROR", 2),
        ("ROUND", 2),
        ("ABS", 1),
        ("SQRT", 1),
        ("LN", 1),
        ("POWER", 2),
        ("LEN", 1),
        ("ISBLANK", 1),
    ],
)
def test_wrap_ufunc_shortcut_answers_what_formulas_own_path_answers(name: str, arity: int, quiet: bool) -> None:
    """backend.wrap_ufunc runs single values without np.vectorize: every answer, its type
    and shape the same as formulas' own wrap_ufunc gives, for what cells really pass; alone and in
    a run under ``quiet_numpy`` (no errstate per call), and no numpy warning either way."""
    import contextlib
    import itertools
    import warnings

    fast, own = functions().excel(name), _formulas_own(name)
    fast = fast["function"] if isinstance(fast, dict) else fast
    assert fast is not own
    checked = 0
    for values in itertools.product(_ONE_VALUES, repeat=arity):
        for shape in range(4):  # every argument as a value, a 0-d or 1x1 array, a 1x1 range; then mixed
            for args in (
                tuple(_shapes(v)[shape] for v in values),
                tuple(_shapes(v)[(shape + i) % 4] for i, v in enumerate(values)),
            ):
                with warnings.catch_warnings(record=True) as seen:
                    warnings.simplefilter("always")
                    with fa.quiet_numpy() if quiet else contextlib.nullcontext():
                        got = fast(*args)
                assert not seen, f"{name}{args}: {seen[0].message}"
                want = own(*args)  # type: ignore[operator]
                assert _same(got, want), f"{name}{args}: {got!r}, formulas: {want!r}"
                checked += 1
    assert checked == 8 * len(_ONE_VALUES) ** arity
