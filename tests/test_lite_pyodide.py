"""benchsheet's xlwings Lite module in the real Pyodide runtime (WebAssembly CPython under Node), offline.

The wheel built from this checkout is unzipped into Pyodide's site-packages with no
dependency beside it; every catalogue example and error case is answered there and
compared with the same calls in this CPython. Skipped only when Node.js or the pinned
npm package (``npm ci`` in tests/pyodide, which .ci/run does) is absent.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from tests import lite_driver, pyodide_harness


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    reason = pyodide_harness.missing()
    if reason:
        pytest.skip(reason)
    tmp = tmp_path_factory.mktemp("pyodide")
    return pyodide_harness.run(pyodide_harness.build_wheel(tmp), tmp)


@pytest.fixture(scope="module")
def cpython() -> dict[str, Any]:
    from benchsheet import store

    store.set_table(None)
    try:
        return lite_driver.run({})
    finally:
        store.set_table(None)


def same(a: Any, b: Any) -> bool:
    """Equal, floats to the last few bits (WebAssembly's libm may round differently)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def test_it_really_ran_in_pyodide(pyodide: dict[str, Any]) -> None:
    assert pyodide["platform"] == "emscripten"
    assert pyodide["pyodide_version"] == "0.28.3"  # tests/pyodide/package.json pins it
    assert "network access refused" not in pyodide["stderr"]


def test_every_answer_equals_cpython(pyodide: dict[str, Any], cpython: dict[str, Any]) -> None:
    assert [a["formula"] for a in pyodide["answers"]] == lite_driver.cases()
    for got, expected in zip(pyodide["answers"], cpython["answers"], strict=True):
        assert same(got, expected), (got, expected)
    values = [a["value"] for a in pyodide["answers"]]
    assert sum(isinstance(v, dict) for v in values) >= 5  # #VALUE! raised with a message
    assert sum(isinstance(v, list) and any("errorType" in str(c) for c in v) for v in values) >= 8  # real errors


def test_the_functions_register_as_in_cpython(pyodide: dict[str, Any], cpython: dict[str, Any]) -> None:
    assert pyodide["contract"] == cpython["contract"]


def test_only_the_standard_library_is_needed(pyodide: dict[str, Any]) -> None:
    assert pyodide["heavy_imported"] == []  # and no dependency was installed beside the wheel


def test_nothing_is_written(pyodide: dict[str, Any], tmp_path: Path) -> None:
    assert pyodide["written"] == []
