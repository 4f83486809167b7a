"""A scalar function over ranges answers a block, as Excel lifts its own scalar functions in an array
formula (issue 32): one call fills a block where a call a cell did before.

Every element must be exactly what the scalar call with that element's values answers, its error and
reason included; ranges of the same size pair element by element, a single row or column (or one cell)
is repeated along the other, and where a range is too small the element is #N/A with a reason.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchsheet.catalogue.calls import call
from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data import store
from benchsheet.errors import BenchError
from excelcalc.values import ReasonedError

ENTRIES = ("6.1-0052", "6.1-9999", "5.1-0072", "", "6.1-0052")
PARTS = ("entry", "result", "system", "notes", "derived")


def _text(err: BenchError) -> str:
    return f"{err.code} {err.reason}"


def _call(name: str, *args: Any) -> Any:
    return call(BY_NAME[name], store.get_table(), args, _text)


def test_a_column_against_a_row_answers_a_block_of_scalar_answers(shared: Any) -> None:
    got = _call("CITE", [[e] for e in ENTRIES], "gpt-oss-120b", "Server", [list(PARTS)])
    expected = [[_call("CITE", e, "gpt-oss-120b", "Server", p) for p in PARTS] for e in ENTRIES]
    assert got == expected
    assert got[1][0].startswith("#N/A ") and got[3][0].startswith("#VALUE! entry is required")
    assert isinstance(got[0][1], str) and not got[0][1].startswith("#")


def test_ranges_of_one_size_pair_element_by_element(shared: Any) -> None:
    entries, benches = [["6.1-0052"], ["5.1-0072"]], [["gpt-oss-120b"], ["deepseek-r1"]]
    got = _call("PERGPU", entries, benches, "Server")
    assert got == [
        [_call("PERGPU", "6.1-0052", "gpt-oss-120b", "Server")],
        [_call("PERGPU", "5.1-0072", "deepseek-r1", "Server")],
    ]
    assert all(isinstance(row[0], float) for row in got)
    grid = _call("COSTPERMTOK", [[2.0, 3.0], [4.0, 5.0]], [[1000.0, 2000.0], [3000.0, 4000.0]], 0.5)
    assert grid == [
        [_call("COSTPERMTOK", p, g, 0.5) for p, g in zip(ps, gs, strict=True)]
        for ps, gs in (((2.0, 3.0), (1000.0, 2000.0)), ((4.0, 5.0), (3000.0, 4000.0)))
    ]


def test_a_range_in_any_argument_is_lifted_a_flat_list_being_a_column(shared: Any) -> None:
    got = _call("COSTPERMTOK", 2.0, [1000.0, "fast", None], [[0.5, 1.0]])
    assert got == [[_call("COSTPERMTOK", 2.0, g, u) for u in (0.5, 1.0)] for g in (1000.0, "fast", None)]
    assert got[1][0].startswith("#VALUE! ") and got[2][1].startswith("#VALUE! ")


def test_a_range_too_small_for_the_answer_is_na_there_with_a_reason(shared: Any) -> None:
    got = _call("COSTPERMTOK", [[2.0], [3.0], [4.0]], 1000.0, [[0.5], [1.0]])
    assert got[:2] == [[_call("COSTPERMTOK", 2.0, 1000.0, 0.5)], [_call("COSTPERMTOK", 3.0, 1000.0, 1.0)]]
    assert got[2] == [
        "#N/A utilization has 2 rows, the answer 3: make the ranges the same size, or utilization one cell"
    ]
    wide = _call("COSTPERMTOK", [[2.0, 3.0, 4.0]], 1000.0, [[0.5, 1.0]])
    assert wide[0][2].startswith("#N/A utilization has 2 columns, the answer 3")


def test_an_error_among_the_inputs_passes_on_in_its_element_only(shared: Any) -> None:
    def is_error(value: Any) -> bool:
        return isinstance(value, str) and value == "#REF!"

    got = call(BY_NAME["COSTPERMTOK"], store.get_table(), ([[2.0], ["#REF!"]], 1000.0, 0.5), _text, is_error)
    assert got == [[_call("COSTPERMTOK", 2.0, 1000.0, 0.5)], ["#REF!"]]


def test_a_table_function_still_takes_one_cell_in_a_scalar_argument(shared: Any) -> None:
    got = _call("RESULTS", [["gpt-oss-120b"], ["deepseek-r1"]], "Server")
    assert isinstance(got, str) and got.startswith("#VALUE! ") and "one cell, not a range" in got


def test_the_engine_answers_an_array_formula_element_by_element(shared: Any) -> None:
    got = evaluate('=PERGPU({"6.1-0052";"6.1-9999"},"gpt-oss-120b",{"Server","Offline"})')
    assert isinstance(got, list) and [len(row) for row in got] == [2, 2]
    for i, entry in enumerate(("6.1-0052", "6.1-9999")):
        for j, scen in enumerate(("Server", "Offline")):
            one = evaluate(f'=PERGPU("{entry}","gpt-oss-120b","{scen}")')
            if isinstance(one, ReasonedError):  # the element keeps its error and its reason
                assert isinstance(got[i][j], ReasonedError)
                assert (str(got[i][j]), got[i][j].reason) == (str(one), one.reason)
            else:
                assert got[i][j] == one
    assert isinstance(got[1][0], ReasonedError)


@pytest.mark.parametrize("part", PARTS)
def test_cite_over_a_column_in_the_engine(shared: Any, part: str) -> None:
    column = "{" + ";".join(f'"{e}"' for e in ENTRIES if e) + "}"
    got = evaluate(f'=CITE({column},"gpt-oss-120b","Server","{part}")')
    expected = [evaluate(f'=CITE("{e}","gpt-oss-120b","Server","{part}")') for e in ENTRIES if e]
    assert [str(row[0]) for row in got] == [str(v) for v in expected]
