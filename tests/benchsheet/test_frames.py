"""pandas for notebooks: the loaded table and every table function as a DataFrame, on the real data.

Each table function's DataFrame has exactly the header and rows of its cell answer (what
``call`` answers for a cell, as the add-in, Lite and ``benchsheet eval`` show it). pandas is
imported only when a DataFrame is asked for: never by ``import benchsheet`` or a worksheet call.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pandas as pd
import pytest

import benchsheet
from benchsheet import frames
from benchsheet.analysis import choices
from benchsheet.analysis.pergpu import per_gpu_value
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.declare import Function
from benchsheet.catalogue.functions import BY_NAME, CATALOGUE
from benchsheet.catalogue.wizard import example_args
from benchsheet.data.store import get_table
from benchsheet.data.table import COLUMNS

TABLES = [fn for fn in CATALOGUE if fn.returns == "table"]


def _cells(fn: Function, args: list[Any]) -> Any:
    return call(fn, get_table(), args, lambda err: pytest.fail(f"{fn.name}{tuple(args)}: {err.code} {err.reason}"))


def _as_cells(df: pd.DataFrame) -> list[list[Any]]:
    """The frame's rows as cell values: NaN in a column of numbers is the blank cell ("") it was."""
    return [["" if isinstance(v, float) and v != v else v for v in row] for row in df.astype(object).values.tolist()]


def _cases() -> list[tuple[Function, list[Any]]]:
    table = get_table()
    cases = []
    for fn in TABLES:
        args = example_args(fn)
        assert args is not None, fn.name
        cases.append((fn, args))
    for bench in choices.benchmarks(table)[:8]:  # more of the data than the examples
        for scen in choices.scenarios(table, bench):
            cases.append((BY_NAME["RESULTS"], [bench, scen]))
            cases.append((BY_NAME["FAMILIES"], [bench, scen]))
    for rnd in table.rounds:
        cases.append((BY_NAME["COUNTS"], [rnd]))
    cases.append((BY_NAME["DATAINFO"], []))
    cases.append((BY_NAME["GAINS"], ["deepseek-r1", "Offline"]))
    cases.append((BY_NAME["HISTORY"], ["H200", "llama2-70b-99", "Offline"]))
    return cases


@pytest.mark.parametrize(("fn", "args"), _cases(), ids=lambda v: v.name if isinstance(v, Function) else str(v))
def test_each_table_function_as_a_frame_is_its_cell_answer(fn: Function, args: list[Any], endpoint_curves: Any) -> None:
    cells = _cells(fn, args)
    df = frames.frame(fn.name, *args)
    assert isinstance(df, pd.DataFrame)
    assert getattr(frames, fn.name)(*args).equals(df)  # frames.RESULTS(...) is frame("RESULTS", ...)
    if not isinstance(cells, list):  # one value (e.g. DATAINFO("rounds")): one cell
        assert _as_cells(df) == [[cells]]
    elif fn.name in frames.HEADERLESS:  # a column of families or lines, two bounds: no header row to take
        assert list(df.columns) == list(frames.HEADERLESS[fn.name]) and _as_cells(df) == cells
    else:  # the headings as snake_case names, as results() names its columns (issue 42 item 10)
        assert list(df.columns) == [frames.column_name(h) for h in cells[0]]
        assert df.attrs["headings"] == cells[0]
        assert all(re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", c) for c in df.columns), list(df.columns)
        assert len(set(df.columns)) == len(df.columns)
        assert _as_cells(df) == cells[1:]


def test_every_table_function_is_covered_and_has_a_header_or_is_known_without(endpoint_curves: Any) -> None:
    table = get_table()
    for fn in TABLES:
        args = example_args(fn)
        assert args is not None
        cells = _cells(fn, args)
        if isinstance(cells, list) and fn.name not in frames.HEADERLESS:
            assert all(isinstance(c, str) and c for c in cells[0]), f"{fn.name}: a header row of texts"
    assert set(frames.TABLE_FUNCTIONS) == {fn.name for fn in TABLES}
    assert len(table.rows) > 0


def test_columns_are_typed() -> None:
    df = frames.RESULTS("gpt-oss-120b", "Server")
    assert df["gpus"].dtype == "int64" and df["per_gpu"].dtype == "float64" and df["entry"].dtype == "string"
    df = frames.frame("RATIOS", "Vera Rubin", "GB300")
    assert df["ratio"].dtype == "float64" and df["candidate_gpus"].dtype == "int64"


def test_the_loaded_table_as_a_frame() -> None:
    table = get_table()
    df = benchsheet.results()
    assert benchsheet.frame().equals(df)
    assert list(df.columns) == [*COLUMNS, "per_gpu"]
    assert len(df) == len(table.rows)
    assert df["gpus"].dtype == "int64" and df["result"].dtype == "float64" and df["heterogeneous"].dtype == "bool"
    assert df["entry"].dtype == "string" and df["round"].dtype == "string" and df["id_source"].dtype == "string"
    first = table.rows[0]
    assert df.iloc[0]["entry"] == first.entry and df.iloc[0]["result"] == first.result
    per_gpu = [per_gpu_value(r) for r in table.rows]
    assert [None if pd.isna(v) else v for v in df["per_gpu"]] == per_gpu


def test_arguments_by_name_and_errors_as_exceptions() -> None:
    by_position = frames.RESULTS("gpt-oss-120b", "Server", "B300")
    assert frames.RESULTS("gpt-oss-120b", "Server", family="B300").equals(by_position)
    with pytest.raises(frames.FrameError, match=r"^#N/A No benchmark 'nope'"):
        frames.RESULTS("nope", "Server")
    with pytest.raises(TypeError, match="RESULTS has no argument 'colour'"):
        frames.RESULTS("gpt-oss-120b", "Server", colour="red")
    with pytest.raises(frames.FrameError, match=r"PERGPU answers a number, not a table: use benchsheet\.evaluate"):
        frames.frame("PERGPU", "6.1-0052")
    with pytest.raises(AttributeError):
        frames.NOTHING  # noqa: B018


PROBE = """
import json, sys
import benchsheet
after_import = sorted(m for m in sys.modules if m.split(".")[0] == "pandas" or m == "benchsheet.frames")
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.catalogue.calls import call
from benchsheet.data.store import get_table
table = get_table()
call(BY_NAME["PERGPU"], table, ["6.1-0052", "gpt-oss-120b", "Server"], str)
call(BY_NAME["RESULTS"], table, ["gpt-oss-120b", "Server"], str)
benchsheet.evaluate('=RESULTS("gpt-oss-120b","Server")')
after_calls = sorted(m for m in sys.modules if m.split(".")[0] == "pandas" or m == "benchsheet.frames")
print(json.dumps([after_import, after_calls]))
"""


def test_import_benchsheet_and_worksheet_calls_do_not_import_pandas() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == [[], []]


def test_the_xlwings_functions_work_where_pandas_cannot_be_imported() -> None:
    """xlwings imports pandas itself where it is installed; benchsheet's worksheet path never needs it."""
    code = (
        "import sys; sys.modules['pandas'] = None\n"  # `import pandas` now fails
        "import benchsheet.udfs.functions as f\n"
        "print(f.PERGPU('6.1-0052', 'gpt-oss-120b', 'Server'), len(f.RESULTS('gpt-oss-120b', 'Server')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    per_gpu, rows = done.stdout.split()
    assert float(per_gpu) > 0 and int(rows) > 1


@pytest.mark.parametrize(
    ("heading", "name"),
    [
        ("candidate per-GPU", "candidate_per_gpu"),
        ("$/GPU-hour", "usd_per_gpu_hour"),
        ("monthly $", "monthly_usd"),
        ("target/s", "target_per_s"),
        ("p99 TTFT bound (ms)", "p99_ttft_bound_ms"),
        ("GPUs", "gpus"),
        ("per-GPU", "per_gpu"),
    ],
)
def test_frame_columns_are_snake_case_as_results_names_its_own(heading: str, name: str) -> None:
    """Issue 42 item 10: frames had display headings ("candidate per-GPU") where results() has snake_case."""
    assert frames.column_name(heading) == name
    assert "per_gpu" in benchsheet.results().columns and "gpus" in benchsheet.results().columns
