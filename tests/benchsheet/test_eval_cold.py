"""``benchsheet eval`` fast from the first call (issue 19): Excel's functions are loaded as a formula
names them, so one benchsheet formula never pays for scipy.stats and the other function modules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchsheet.catalogue.engine import evaluate
from excelcalc.formula import format_value

FIRST_CALL = """
import json, sys
from benchsheet.cli import main
rc = main(["eval", sys.argv[1]])
print(json.dumps({"rc": rc, "modules": sorted(m for m in sys.modules if m.split(".")[0] in ("scipy", "openpyxl")
    or m.startswith("formulas.functions.") or m in ("numpy", "formulas", "excelcalc.formula"))}))
"""


def _first_call(formula: str) -> tuple[str, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL, formula], capture_output=True, text=True, timeout=120, check=True
    )
    out = done.stdout.splitlines()
    return "\n".join(out[:-1]) + done.stderr.strip(), json.loads(out[-1])


def test_one_benchsheet_formula_loads_no_function_module_it_does_not_use() -> None:
    answer, seen = _first_call('=PERGPU("6.1-0052","gpt-oss-120b","Server")')
    assert seen["rc"] == 0 and float(answer) > 0
    modules = seen["modules"]
    assert isinstance(modules, list)
    assert not [m for m in modules if m.startswith(("scipy", "openpyxl"))], modules  # seconds of imports
    assert "formulas.functions.stat" not in modules and "formulas.functions.financial" not in modules


def test_eval_of_a_literal_call_starts_no_engine() -> None:
    """The point of formula_text.literal_call: numpy and formulas' parser are more than half of a fresh ``eval``."""
    formula = '=PERGPU("6.1-0052","gpt-oss-120b","Server")'
    value, seen = _first_call(formula)
    assert seen["rc"] == 0
    modules = seen["modules"]
    assert isinstance(modules, list)
    assert [m for m in modules if m in ("numpy", "formulas", "excelcalc.formula")] == []
    assert value == format_value(evaluate(formula))


def test_an_excel_function_loads_its_own_module_only() -> None:
    answer, seen = _first_call('=IF(ISNUMBER(2),ROUND(ABS(-2.345),2)&"x","")')
    assert answer == "2.35x"
    modules = seen["modules"]
    assert isinstance(modules, list) and "formulas.functions.math" in modules
    assert not [m for m in modules if m.startswith("scipy")] and "formulas.functions.stat" not in modules
    answer, seen = _first_call("=FOO(1)")  # an unknown function does not import every module to be sure
    assert answer.startswith("#NAME?") and "formulas.functions.stat" not in str(seen["modules"])


SAME_TABLE = """
import json
from formulas.functions import get_functions
full = dict(get_functions())  # formulas' own table: every module imported
from excelcalc import backend as fa
wrong = []
OWN = {"ARRAY", "ARRAYROW"}  # issue 44: the engine's array constants (negatives kept), not formulas' own
for name, fn in full.items():
    if name in OWN:
        continue
    lazy = fa.FunctionTable()  # a fresh table per name: only the modules its index names are merged
    if lazy[name] is not fn or name not in fa.FunctionTable():
        wrong.append(name)
print(json.dumps({"names": len(full), "wrong": wrong}))
"""


@pytest.mark.slow
def test_the_lazy_table_gives_every_function_formulas_gives() -> None:
    """Each of formulas' names is found from the index of its modules, and the module that wins it
    in ``get_functions`` wins it here (a contract test: an upgrade that moves a name fails here)."""
    out = subprocess.run([sys.executable, "-c", SAME_TABLE], capture_output=True, text=True, timeout=300, check=True)
    got = json.loads(out.stdout.splitlines()[-1])
    assert got["names"] > 400 and got["wrong"] == []


CALC_FIRST = """
import json, sys
from pathlib import Path
from benchsheet.catalogue.engine import calc
report = calc(Path(sys.argv[1]), Path(sys.argv[2]))
print(json.dumps({"formulas": report.formulas, "modules": sorted(m for m in sys.modules
    if m.split(".")[0] in ("scipy", "openpyxl", "http", "ssl", "email") or m == "urllib.request")}))
"""


def test_calc_of_a_plain_workbook_loads_neither_openpyxl_nor_the_web(tmp_path: Path) -> None:
    """``template calc`` pays its imports per file: a workbook of plain formulas is read, computed
    and written without openpyxl (a fifth of a second: all of it comes with one helper) or
    xml.sax's escape (urllib, http, ssl and email come with it)."""
    import openpyxl

    src, out = tmp_path / "plain.xlsx", tmp_path / "out.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([1, 2, '=A1+B1&"<x>"', "=SUM(A1:B1)", '=PERGPU("6.1-0052","gpt-oss-120b","Server")'])
    wb.save(src)
    done = subprocess.run(
        [sys.executable, "-c", CALC_FIRST, str(src), str(out)], capture_output=True, text=True, timeout=120, check=True
    )
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["formulas"] == 3 and seen["modules"] == []


def test_calc_leaves_the_cycle_collector_as_it_found_it(tmp_path: Path) -> None:
    """calc collects cycles less often while it runs (a third of its time went there), and puts
    the collector's thresholds back afterwards, also when the workbook is refused."""
    import gc

    import openpyxl
    import pytest

    from excelcalc.workbook.calc import CalcError, calc

    src = tmp_path / "in.xlsx"
    wb = openpyxl.Workbook()
    wb.active.append([1, "=A1*2"])
    wb.save(src)
    before = gc.get_threshold()
    assert calc(src, tmp_path / "out.xlsx").formulas == 1
    assert gc.get_threshold() == before
    with pytest.raises(CalcError):
        calc(tmp_path / "missing.xlsx", tmp_path / "out2.xlsx")
    assert gc.get_threshold() == before
