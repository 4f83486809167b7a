"""benchsheet's xlwings Lite functions in the real Pyodide runtime (WebAssembly CPython under Node), offline.

micropip (the installer xlwings Lite runs) installs xlwings' pure-Python wheel and the
wheel built from this checkout from local files, resolving their declared dependencies
with the network refused: the install fails if benchsheet needed anything beside them.
Then the ``main.py`` that ``benchsheet lite`` prints runs through xlwings' own dispatcher
(``xlwings.pro.udfs_officejs``), every catalogue example and error case is answered, and
all of it is compared with the same calls in a CPython process. Skipped only when Node.js
or the pinned npm package (``npm ci`` in tests/pyodide, which .ci/run does) is absent.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests import lite_driver, pyodide_harness

PACKAGE = pyodide_harness.HARNESS / "package.json"
LOCK = pyodide_harness.HARNESS / "node_modules" / "pyodide" / "pyodide-lock.json"
pytestmark = pytest.mark.slow  # every test reads the one Pyodide run (Node.js, ~10 s)


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    reason = pyodide_harness.missing()
    if reason:
        pytest.skip(reason)
    tmp = tmp_path_factory.mktemp("pyodide")
    return pyodide_harness.run(pyodide_harness.build_wheel(tmp), tmp)


@pytest.fixture(scope="module")
def cpython() -> dict[str, Any]:
    return lite_driver.run_cpython()


def same(a: Any, b: Any) -> bool:
    """Equal, floats to the last few bits (WebAssembly's libm may round differently)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def test_it_really_ran_in_the_pyodide_lite_runs(pyodide: dict[str, Any]) -> None:
    assert pyodide["platform"] == "emscripten"
    pinned = json.loads(PACKAGE.read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    assert pyodide["pyodide_version"] == pinned and pinned.startswith("314.")  # xlwings Lite's Pyodide 3.14 builds
    assert pyodide["python"].startswith("3.14.")
    assert "network access refused" not in pyodide["stderr"]


def test_micropip_installs_benchsheet_and_xlwings_alone(pyodide: dict[str, Any]) -> None:
    from benchsheet import __version__

    versions = pyodide_harness.pinned()
    assert pyodide["installed"] == {"benchsheet": __version__, "xlwings": versions["xlwings"]}
    lock = json.loads(LOCK.read_text(encoding="utf-8"))  # the micropip installed is the one this Pyodide ships
    assert lock["packages"]["micropip"]["version"] == versions["micropip"]


def test_every_answer_equals_cpython(pyodide: dict[str, Any], cpython: dict[str, Any]) -> None:
    assert [a["formula"] for a in pyodide["answers"]] == lite_driver.cases()
    for got, expected in zip(pyodide["answers"], cpython["answers"], strict=True):
        assert same(got, expected), (got, expected)
    values = [a["value"] for a in pyodide["answers"]]
    assert sum(isinstance(v, dict) for v in values) >= 5  # #VALUE! raised with a message
    assert sum(isinstance(v, list) and any("errorType" in str(c) for c in v) for v in values) >= 10  # real errors
    assert all(a["output"] for a in pyodide["answers"] if isinstance(a["value"], dict))  # printed too


def test_the_functions_register_as_in_cpython(pyodide: dict[str, Any], cpython: dict[str, Any]) -> None:
    assert pyodide["meta"] == cpython["meta"]


def test_only_the_standard_library_is_needed(pyodide: dict[str, Any]) -> None:
    assert pyodide["heavy_imported"] == []  # and none of them is installed there


def test_nothing_is_written(pyodide: dict[str, Any], tmp_path: Path) -> None:
    assert pyodide["written"] == []
