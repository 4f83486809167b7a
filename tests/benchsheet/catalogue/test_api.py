"""``from benchsheet import ...`` gives the public API, and ``import benchsheet`` stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import benchsheet
from benchsheet.catalogue.engine import calc, evaluate, freeze
from benchsheet.data.store import get_table
from benchsheet.templates.builder import build

HEAVY = ("formulas", "openpyxl", "xlsxwriter", "pandas", "numpy", "xlwings")


def test_the_public_api_is_the_functions_themselves() -> None:
    from benchsheet import build as b
    from benchsheet import calc as c
    from benchsheet import evaluate as e
    from benchsheet import freeze as f
    from benchsheet import get_table as g

    assert (e, g, b, c, f) == (evaluate, get_table, build, calc, freeze)
    assert sorted(benchsheet.__all__) == [
        "__version__", "build", "calc", "evaluate", "frame", "freeze", "get_table", "results"
    ]  # fmt: skip
    assert set(benchsheet.__all__) <= set(dir(benchsheet))
    assert benchsheet.evaluate("=GPUSNEEDED(1000,100,1,4)") == 12


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        benchsheet.nothing_here  # type: ignore[attr-defined]  # noqa: B018


def test_importing_benchsheet_loads_none_of_the_heavy_packages() -> None:
    code = f"import sys, benchsheet; print([m for m in {HEAVY!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "[]"
    code = "import sys; from benchsheet import get_table; print('formulas' in sys.modules, 'openpyxl' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "False False"  # a name loads only its own module
