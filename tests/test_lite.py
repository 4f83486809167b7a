"""The xlwings Lite shell (benchsheet.lite), in CPython, against stand-ins written from xlwings' source.

tests/test_lite_pyodide.py runs the same calls inside the real Pyodide runtime.
"""

from __future__ import annotations

import ast
import json
import math
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from benchsheet import lite, store
from benchsheet.catalogue import BY_NAME, CATALOGUE, call
from benchsheet.cli import main
from benchsheet.engine import evaluate
from benchsheet.errors import ALL_ERROR_CODES
from tests import lite_standins as standins
from tests.lite_driver import ERROR_CASES, HEAVY, Sheet, contract

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def sheet() -> Sheet:
    return Sheet()


def _cells(value: Any) -> Any:
    """Lite's matrix as plain values: an error cell as its code, one cell as a scalar."""
    assert isinstance(value, list), value
    rows = [[standins.ERROR_STRINGS[c["errorType"]] if isinstance(c, dict) else c for c in row] for row in value]
    return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows


# ------------------------------------------------------------------ the contract


def test_every_catalogue_function_is_registered_with_its_help(sheet: Sheet) -> None:
    meta = {m["key"]: m for m in contract(sheet.functions)["meta"]}
    records = contract(sheet.functions)["records"]
    assert list(sheet.functions) == [fn.name for fn in CATALOGUE]
    for fn in CATALOGUE:
        m, rec = meta[fn.name], records[fn.name]
        assert m["id"] == m["name"] == fn.name  # =PERGPU(...) as in the classic add-in and the template
        assert re.fullmatch(r"[^\W\d_][\w.]*", m["name"]) and len(m["name"]) <= 128  # Office.js name rule
        assert m["description"] == fn.help
        assert [p["name"] for p in m["parameters"]] == [a.name for a in fn.args]
        assert [p["description"] for p in m["parameters"]] == [a.help for a in fn.args]
        assert [p.get("optional", False) for p in m["parameters"]] == [a.optional for a in fn.args]
        for i, (a, r) in enumerate(zip(fn.args, rec["args"], strict=True)):
            assert r["default"] is None if a.optional else "default" not in r  # left out: None, as classic
            expected = {"err_to_str": True} | ({"ndim": 2} if i == 0 and fn.returns != "table" else {})
            assert r["options"] == expected, (fn.name, a.name)  # no type converters: catalogue.call converts
        assert rec["ret"] == {"doc": fn.help, "options": {}}  # the default converter: a list of rows spills


def test_main_py_defines_every_function_through_the_decorators(monkeypatch: pytest.MonkeyPatch) -> None:
    # main.py imports xlwings' func and arg; the licence-checked real ones are replaced by the stand-ins
    xlwings = types.ModuleType("xlwings")
    xlwings.func = standins.func  # type: ignore[attr-defined]
    xlwings.arg = standins.arg  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "xlwings", xlwings)
    namespace: dict[str, Any] = {"__name__": "main"}
    exec(compile(lite.main_py(), "main.py", "exec"), namespace)
    defined = {k for k, v in namespace.items() if hasattr(v, "__xlfunc__")}
    assert defined == {fn.name for fn in CATALOGUE}
    assert standins.invoke(namespace["GPUS"], [[["6.1-0052"]]]) == [[8]]


# ------------------------------------------------------------------ answers


@pytest.mark.parametrize("fn", CATALOGUE, ids=[f.name for f in CATALOGUE])
def test_every_example_answers_as_benchsheet_eval_does(fn: Any, sheet: Sheet) -> None:
    got = sheet.evaluate(fn.example)
    assert got["output"] == []
    expected = evaluate(fn.example)
    assert _cells(got["value"]) == expected, fn.example


def _literal_call(formula: str) -> tuple[str, list[Any]] | None:
    """(name, Python arguments) of a formula that is one call with literal arguments."""
    node = ast.parse(formula.lstrip("="), mode="eval").body
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    try:
        args = [a.id == "TRUE" if isinstance(a, ast.Name) else ast.literal_eval(a) for a in node.args]
    except ValueError:  # NA()
        return None
    return node.func.id, args


def _one_cell_cases() -> list[str]:
    """The error cases without a range or an error input (those: test_ranges_and_error_inputs)."""
    return [f for f in ERROR_CASES if (c := _literal_call(f)) is not None and not isinstance(c[1][0], list)]


@pytest.mark.parametrize("formula", _one_cell_cases())
def test_each_failure_keeps_its_code_and_its_reason(formula: str, sheet: Sheet) -> None:
    """Lite's answer follows the same call in CPython (catalogue.call with the classic error text)."""
    parsed = _literal_call(formula)
    assert parsed is not None
    name, args = parsed
    expected = call(BY_NAME[name], store.get_table(), args, lambda err: err.text)
    got = sheet.evaluate(formula)
    if isinstance(expected, str) and expected.startswith("#VALUE! "):
        assert got == {"formula": formula, "value": {"error": f"{name}: {expected[8:]}"}, "output": []}
    elif isinstance(expected, str) and expected.startswith("#"):
        code = expected.split(" ")[0]
        assert got["value"] == [[{"type": "Error", "errorType": standins.ERROR_TYPES[code]}]]
        assert got["output"] == [f"{name}: {expected}"]
    else:
        assert _cells(got["value"]) == expected
        assert got["output"] == []


def test_ranges_and_error_inputs(sheet: Sheet) -> None:
    column = sheet.evaluate('=PERGPU([["6.1-0052"],["6.1-9999"],[None],[5]],"gpt-oss-120b","Server")')
    expected = call(
        BY_NAME["PERGPU"], store.get_table(), [[["6.1-0052"], ["6.1-9999"], [None], [5]], "gpt-oss-120b", "Server"], str
    )
    assert _cells(column["value"]) == [[expected[0][0]], ["#N/A"], ["#VALUE!"], ["#VALUE!"]]
    assert column["output"] == [f"PERGPU: {row[0]}" for row in expected[1:]]  # every reason, once, in order

    row = sheet.evaluate('=PERGPU([["6.1-0052","6.1-0071"]],"gpt-oss-120b","Server")')
    assert _cells(row["value"]) == [[evaluate('=PERGPU("6.1-0052","gpt-oss-120b","Server")'), pytest.approx(12578.75)]]

    for formula in ('=PERGPU(NA(),"gpt-oss-120b","Server")', '=PERGPU("6.1-0052",NA(),"Server")'):
        passed = sheet.evaluate(formula)  # an error among the inputs is passed on, with nothing to say
        assert passed["value"] == [[{"type": "Error", "errorType": "NotAvailable"}]] and passed["output"] == []
    nested = sheet.evaluate('=COSTPERMTOK(5,BEST("TPU9","gpt-oss-120b","Server"))')
    assert _cells(nested["value"]) == "#N/A" and nested["output"][0].startswith("BEST: #N/A Unknown family")


def test_a_long_column_of_failures_prints_a_bounded_report(sheet: Sheet) -> None:
    ids = [[f"6.1-9{i:03d}"] for i in range(lite.MAX_REASONS + 7)]
    got = sheet.evaluate(f'=PERGPU({json.dumps(ids)},"gpt-oss-120b","Server")')
    assert _cells(got["value"]) == [["#N/A"]] * len(ids)
    assert len(got["output"]) == lite.MAX_REASONS + 1
    assert got["output"][-1] == "PERGPU: ... and 7 more reasons"


def test_no_file_is_written_and_nothing_heavy_is_imported(tmp_path: Path, user_home: Path) -> None:
    code = (
        "import sys\n"
        "from tests.lite_driver import HEAVY, Sheet, cases\n"
        "sheet = Sheet()\n"
        "answers = [sheet.evaluate(f) for f in cases()]\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & set(HEAVY)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]", f"the Lite surface imported {proc.stdout.strip()} (of {HEAVY})"
    assert list(user_home.iterdir()) == []


# ------------------------------------------------------------------ the command


def test_lite_command_prints_main_py_and_requirements(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lite"]) == 0
    out = capsys.readouterr().out
    assert lite.main_py() in out and lite.requirements_txt() in out
    assert main(["lite", "main.py"]) == 0
    assert capsys.readouterr().out == lite.main_py()
    url = "https://example.org/wheels/benchsheet-0.1.0-py3-none-any.whl"
    assert main(["lite", "requirements.txt", "--wheel-url", url]) == 0
    assert capsys.readouterr().out == url + "\n"


def test_lite_command_refuses_a_wheel_url_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lite", "requirements.txt", "--wheel-url", "http://example.org/benchsheet.whl"]) == 2
    assert "https" in capsys.readouterr().err
    assert main(["lite", "requirements.txt", "--wheel-url", "https://example.org/benchsheet.tar.gz"]) == 2
    assert ".whl" in capsys.readouterr().err


def test_every_excel_error_cell_is_passed_on(sheet: Sheet) -> None:
    for code in ALL_ERROR_CODES:  # Office.js sends the newer ones (#SPILL!, #CALC!, ...) too
        got = standins.invoke(sheet.functions["COSTPERMTOK"], [[[5]], [[standins.error(code)]], [[1]]])
        assert got == standins.write(code), code  # the same error (xlwings makes the classic seven real errors)
    assert sheet.printed == []
    assert not lite.is_error_value("#N/A Unknown entry 6.1-9999")  # text, not an error cell
    assert not lite.is_error_value(math.nan)
