"""The xlwings Lite shell (benchsheet.lite) through xlwings' own code, in CPython.

The ``main.py`` that ``benchsheet lite`` prints is run by ``tests.lite_driver`` in a fresh
CPython process, with xlwings' custom-function decorators and its dispatcher
(``xlwings.pro.udfs_officejs``); tests/benchsheet/test_lite_pyodide.py runs the same in Pyodide.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchsheet import __version__, lite
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME, CATALOGUE
from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.errors import ALL_ERROR_CODES, ERROR_CODES
from tests import ROOT
from tests.lite_driver import ERROR_CASES, ERROR_STRINGS, HEAVY, cases, run_cpython

LONG = [[f"6.1-9{i:03d}"] for i in range(lite.MAX_REASONS + 7)]
EXTRA = [
    f'=PERGPU({json.dumps(LONG)},"gpt-oss-120b","Server")',
    '=COSTPERMTOK(5,BEST("TPU9","gpt-oss-120b","Server"))',
    *(f'=COSTPERMTOK(5,ERROR("{code}"),1)' for code in ALL_ERROR_CODES),
    "=COSTPERMTOK([[2],[3],[4]],1000,[[0.5,1]])",
    '=CITE([["6.1-0052"],["6.1-9999"]],"gpt-oss-120b","Server",[["entry","result"]])',
]


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return run_cpython({"cases": cases() + EXTRA})


@pytest.fixture(scope="module")
def answers(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["formula"]: a for a in report["answers"]}


def _cells(value: Any) -> Any:
    """Lite's matrix as plain values: an error cell as its code, one cell as a scalar."""
    assert isinstance(value, list), value
    rows = [[ERROR_STRINGS[c["errorType"]] if isinstance(c, dict) else c for c in row] for row in value]
    return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows


# ------------------------------------------------------------------ the contract


def test_every_catalogue_function_is_registered_with_its_help(report: dict[str, Any]) -> None:
    meta = {m["id"]: m for m in report["meta"]["functions"]}
    assert report["meta"]["allowErrorForDataTypeAny"] is True  # error cells reach the functions
    assert sorted(meta) == sorted(fn.name for fn in CATALOGUE) == sorted(report["records"])
    for fn in CATALOGUE:
        m, rec = meta[fn.name], report["records"][fn.name]
        assert m["name"] == fn.name  # =PERGPU(...) as in the classic add-in and the template
        assert re.fullmatch(r"[^\W\d_][\w.]*", m["name"]) and len(m["name"]) <= 128  # Office.js name rule
        assert m["description"] == fn.help
        assert [p["name"] for p in m["parameters"]] == [a.name for a in fn.args]
        assert [p["description"] for p in m["parameters"]] == [a.help for a in fn.args]
        assert [p.get("optional", False) for p in m["parameters"]] == [a.optional for a in fn.args]
        for a, r in zip(fn.args, rec["args"], strict=True):
            assert r["default"] is None if a.optional else "default" not in r  # left out: None, as classic
            ranged = fn.returns != "table" or bool(fn.scalar_with) or a.kind == "cells"  # lifted over ranges
            expected = {"err_to_str": True} | ({"ndim": 2} if ranged else {})
            assert r["options"] == expected, (fn.name, a.name)  # no type converters: catalogue.call converts
        assert rec["ret"] == {"doc": fn.help, "options": {}}  # the default converter: a list of rows spills


# ------------------------------------------------------------------ answers


@pytest.mark.parametrize("fn", CATALOGUE, ids=[f.name for f in CATALOGUE])
def test_every_example_answers_as_benchsheet_eval_does(fn: Any, answers: dict[str, dict[str, Any]]) -> None:
    got = answers[fn.example]
    expected = evaluate(fn.example)
    if fn.name in (
        "CURVES",
        "CURVEPOINTS",
        "CURVEAT",
        "CURVEATPOINTS",
        "CURVEOFFLINE",
        "CURVESTEPS",
        "BESTCURVE",
        "CURVECITE",
    ):  # no user folder,
        assert got["output"] == [f"{fn.name}: {expected.text}"]  # so no imported Endpoints curves: it says so
        expected = str(expected)  # the error's code, as Lite's cell holds it
    else:
        assert got["output"] == []
    assert _cells(got["value"]) == expected, fn.example


def _literal_call(formula: str) -> tuple[str, list[Any]] | None:
    """(name, Python arguments) of a formula that is one call with literal arguments."""
    node = ast.parse(formula.lstrip("="), mode="eval").body
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    try:
        args = [a.id == "TRUE" if isinstance(a, ast.Name) else ast.literal_eval(a) for a in node.args]
    except ValueError:  # NA(), ERROR()
        return None
    return node.func.id, args


def _one_cell_cases() -> list[str]:
    """The error cases without a range or an error input (those: test_ranges_and_error_inputs)."""
    return [
        f for f in ERROR_CASES if (c := _literal_call(f)) is not None and not any(isinstance(a, list) for a in c[1])
    ]


@pytest.mark.parametrize("formula", _one_cell_cases())
def test_each_failure_is_an_error_with_its_reason_printed(formula: str, answers: dict[str, dict[str, Any]]) -> None:
    """Lite's answer follows the same call in CPython (catalogue.call with the classic error text)."""
    parsed = _literal_call(formula)
    assert parsed is not None
    name, args = parsed
    expected = call(BY_NAME[name], store.get_table(), args, lambda err: err.text)
    got = answers[formula]
    if isinstance(expected, str) and expected.startswith("#VALUE! "):  # raised: the error flag's message
        assert got["value"] == {"error": f"{name}: {expected[8:]}"}
        assert got["output"] == [f"{name}: {expected}"]  # and in the Output pane
    elif isinstance(expected, str) and expected.startswith("#"):
        assert _cells(got["value"]) == expected.split(" ")[0]
        assert got["output"] == [f"{name}: {expected}"]  # the reason, in the Output pane
    else:
        assert _cells(got["value"]) == expected
        assert got["output"] == []


def test_ranges_and_error_inputs(answers: dict[str, dict[str, Any]]) -> None:
    column = answers['=PERGPU([["6.1-0052"],["6.1-9999"],[None],[5]],"gpt-oss-120b","Server")']
    expected = call(
        BY_NAME["PERGPU"], store.get_table(), [[["6.1-0052"], ["6.1-9999"], [None], [5]], "gpt-oss-120b", "Server"], str
    )
    assert _cells(column["value"]) == [[expected[0][0]], ["#N/A"], ["#VALUE!"], ["#VALUE!"]]
    assert column["output"] == [f"PERGPU: {row[0]}" for row in expected[1:]]  # every reason, once, in order

    row = answers['=PERGPU([["6.1-0052","6.1-0071"]],"gpt-oss-120b","Server")']
    assert _cells(row["value"]) == [[evaluate('=PERGPU("6.1-0052","gpt-oss-120b","Server")'), pytest.approx(12578.75)]]

    for formula in ('=PERGPU(NA(),"gpt-oss-120b","Server")', '=PERGPU("6.1-0052",NA(),"Server")'):
        passed = answers[formula]  # an error among the inputs is passed on, with nothing to say
        assert passed["value"] == [[{"type": "Error", "errorType": "NotAvailable"}]] and passed["output"] == []
    nested = answers['=COSTPERMTOK(5,BEST("TPU9","gpt-oss-120b","Server"))']
    assert _cells(nested["value"]) == "#N/A" and nested["output"][0].startswith("BEST: #N/A No family")


def test_ranges_in_every_argument_answer_a_block_as_an_array_formula_does(answers: dict[str, dict[str, Any]]) -> None:
    grid = answers[EXTRA[-2]]
    assert (
        _cells(grid["value"]) == [[evaluate(f"=COSTPERMTOK({p},1000,{u})") for u in (0.5, 1)] for p in (2, 3, 4)]
        and grid["output"] == []
    )
    cites = answers[EXTRA[-1]]
    one = [
        [evaluate(f'=CITE("{e}","gpt-oss-120b","Server","{p}")') for p in ("entry", "result")]
        for e in ("6.1-0052", "6.1-9999")
    ]
    assert _cells(cites["value"]) == [one[0], ["#N/A", "#N/A"]]
    assert cites["output"] == [f"CITE: #N/A {one[1][0].reason}"]
    later = answers['=PERGPU("6.1-0052",[["gpt-oss-120b","deepseek-r1"]],"Server")']
    both = [evaluate(f'=PERGPU("6.1-0052","{b}","Server")') for b in ("gpt-oss-120b", "deepseek-r1")]
    assert _cells(later["value"]) == [[both[0], "#N/A"]] and later["output"] == [f"PERGPU: #N/A {both[1].reason}"]


def test_a_long_column_of_failures_prints_a_bounded_report(answers: dict[str, dict[str, Any]]) -> None:
    got = answers[EXTRA[0]]
    assert _cells(got["value"]) == [["#N/A"]] * len(LONG)
    assert len(got["output"]) == lite.MAX_REASONS + 1
    assert got["output"][-1] == "PERGPU: ... and 7 more reasons"


def test_every_excel_error_cell_passes_on_as_an_error(answers: dict[str, dict[str, Any]]) -> None:
    for code in ALL_ERROR_CODES:  # Office.js sends the newer ones (#SPILL!, #CALC!, ...) as their text
        got = answers[f'=COSTPERMTOK(5,ERROR("{code}"),1)']
        if code in ERROR_CODES:  # the same error, with nothing to say: the cell that made it said why
            assert _cells(got["value"]) == code and got["output"] == [], code
        else:  # xlwings returns only the classic seven as errors: #VALUE!, naming the input's error
            reason = f"an input is the error {code}, which a custom function cannot return"
            assert got["value"] == {"error": f"COSTPERMTOK: {reason}"}, code
            assert got["output"] == [f"COSTPERMTOK: #VALUE! {reason}"]
    calc = answers['=PERGPU([["6.1-0052"],[ERROR("#CALC!")]],"gpt-oss-120b","Server")']
    assert _cells(calc["value"])[1] == ["#VALUE!"]
    assert not lite.is_error_value("#N/A No entry '6.1-9999' in the loaded results")  # text, not an error cell


def test_a_date_cell_is_a_number_in_lite(answers: dict[str, dict[str, Any]]) -> None:
    """Office.js sends a date cell as its serial number: as a price it is a number, as a round an unknown one."""
    assert _cells(answers["=COSTPERMTOK(46023,1000)"]["value"]) == evaluate("=COSTPERMTOK(46023,1000)")
    as_round = answers['=BEST("B200","gpt-oss-120b","Server","available",8,46023)']
    assert _cells(as_round["value"]) == "#N/A" and "round 46023" in as_round["output"][0]


def test_no_file_is_written_and_nothing_heavy_is_imported(user_home: Path) -> None:
    """benchsheet.lite alone (no xlwings, which imports pandas where it finds it) answers every literal case."""
    literal = [c for f in cases() if (c := _literal_call(f)) is not None]
    code = (
        "import json, sys\n"
        "before = set(sys.modules)\n"
        "from benchsheet.catalogue.functions import BY_NAME\n"
        "from benchsheet.lite import LiteError, answer\n"
        f"for name, args in json.loads({json.dumps(json.dumps(literal))}):\n"
        "    try:\n"
        "        answer(BY_NAME[name], args, lambda line: None)\n"
        "    except LiteError:\n"
        "        pass\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "engine = sorted(m for m in sys.modules if m.split('.')[0] == 'excelcalc')\n"
        "print(json.dumps([sorted(new - set(sys.stdlib_module_names)), engine]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    packages, engine = json.loads(proc.stdout)
    assert packages == ["benchsheet", "excelcalc"], "the Lite functions imported more than the standard library"
    # of the engine, only how Excel reads text as a number (standard library alone), never the calculator
    assert engine == ["excelcalc", "excelcalc.textnum"]
    assert not set(packages) & set(HEAVY)
    assert list(user_home.iterdir()) == []


# ------------------------------------------------------------------ the command

URL = f"https://example.org/wheels/{lite.WHEEL}"


def test_lite_command_prints_main_py_and_the_wheel_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert lite.WHEEL.startswith(f"benchsheet-{__version__}-")
    assert main(["lite", "--wheel-url", URL]) == 0
    out = capsys.readouterr().out
    assert lite.main_py() in out and out.endswith("\n" + URL + "\n")
    assert main(["lite", "main.py"]) == 0
    assert capsys.readouterr().out == lite.main_py()
    assert main(["lite", "requirements.txt", "--wheel-url", URL]) == 0
    assert capsys.readouterr().out == URL + "\n"
    assert main(["lite", "requirements.txt", "--wheel-url", "https://example.org/wheels/"]) == 0
    assert capsys.readouterr().out == URL + "\n"  # a folder: the wheel's own name is added


def test_lite_command_prints_the_line_of_each_path_and_the_one_it_assumes(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 43: PyPI by version, a company's own index (the same line; a self-hosted Lite's
    XLWINGS_PYPI_INDEX_URL says where), a wheel's address; never a bare name (whatever is newest)."""
    pinned = f"benchsheet=={__version__}"
    assert main(["lite", "requirements.txt"]) == 0
    captured = capsys.readouterr()
    assert captured.out == pinned + "\n"  # the file's content alone: it can be redirected
    assert "assumed here: PyPI" in captured.err and "XLWINGS_PYPI_INDEX_URL" in captured.err
    assert main(["lite"]) == 0
    out = capsys.readouterr().out
    assert lite.main_py() in out and out.endswith("\n" + pinned + "\n")
    notes, _, requirements = out[out.index(lite.main_py()) + len(lite.main_py()) :].partition("# ---- requirements.txt")
    assert requirements.splitlines()[1:] == [pinned]  # the tab gets the line alone
    # the paths are Python comments after main.py: pasted with it, they change nothing
    assert notes.strip() and all(line.startswith("# ") for line in notes.strip().splitlines())
    text = notes
    assert f"PyPI (xlwings Lite's default): {pinned}" in text
    assert f"XLWINGS_PYPI_INDEX_URL; upload {lite.WHEEL} there): {pinned}" in text
    assert f"/{lite.WHEEL}" in text and "CORS" in text and "assumed here: PyPI" in text
    assert main(["lite", "requirements.txt", "--wheel-url", URL]) == 0
    captured = capsys.readouterr()
    assert captured.out == URL + "\n" and "assumed here: the wheel's address" in captured.err
    for argv in (["lite", "requirements.txt"], ["lite"]):
        assert main(argv) == 0
        assert "benchsheet\n" not in capsys.readouterr().out  # never the bare name


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://example.org/wheels/" + lite.WHEEL, "https"),
        ("https://example.org/benchsheet.tar.gz", lite.WHEEL),
        ("https://example.org/benchsheet.whl", lite.WHEEL),  # micropip: InvalidWheelFilename
        ("https://example.org/benchsheet-0.0.9-py3-none-any.whl", lite.WHEEL),  # another version
        (URL + "?download=1", "query"),
        ("https://example.org", lite.WHEEL),
    ],
)
def test_lite_command_refuses_a_wheel_url_micropip_cannot_use(
    url: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lite", "requirements.txt", "--wheel-url", url]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_the_readme_names_this_versions_wheel() -> None:
    page = (ROOT / "docs" / "excel.md").read_text(encoding="utf-8")
    lite_section = page[page.index("## Mac and Excel on the web") : page.index("### Errors in Lite")]
    assert f"dist/{lite.WHEEL}" in lite_section and f"wheels/{lite.WHEEL}`" in lite_section
    names = set(re.findall(r"benchsheet-[\w.]+-py3-none-any\.whl", lite_section))
    assert names == {lite.WHEEL}, "the Lite steps of docs/excel.md name another version's wheel"
