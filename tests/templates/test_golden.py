"""Every formula cell of the built template keeps the value it had when the golden file was made.

The template is rebuilt (and recomputed by ``template calc``) and each formula cell's cached value
is compared with ``tests/templates/golden/template-values.json``. Refactoring the builder or the formula
engine must not move a single number. When the data or the template change on purpose, regenerate
the file and review its diff:

    BENCHSHEET_UPDATE_GOLDEN=1 pytest tests/templates/test_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.cell import get_column_letter
from openpyxl.worksheet.cell_range import CellRange

from benchsheet.data import store
from benchsheet.templates.builder import build
from excelcalc.workbook.calc import calc

GOLDEN = Path(__file__).with_name("golden") / "template-values.json"


def formula_values(path: Path) -> dict[str, Any]:
    """``{"Sheet!B5": cached value}`` for every formula cell of the workbook, each cell of an array
    formula's range included (a block one array formula fills was a formula a cell before)."""
    formulas, values = openpyxl.load_workbook(path), openpyxl.load_workbook(path, data_only=True)
    out: dict[str, Any] = {}
    for ws in formulas.worksheets:
        cells = [cell.coordinate for row in ws.iter_rows() for cell in row if cell.data_type == "f"]
        for ref in ws.array_formulae.values():
            cells += [get_column_letter(c) + str(r) for r, c in CellRange(ref).cells]
        for coordinate in cells:
            out[f"{ws.title}!{coordinate}"] = values[ws.title][coordinate].value
    return out


def _same(want: Any, got: Any) -> bool:
    if want in (None, "") and got in (None, ""):  # empty text: a formula cell's cached "" reads back as None,
        return True  # an array formula's other cells keep it as ""
    if isinstance(want, float) and isinstance(got, int | float) and not isinstance(got, bool):
        return got == pytest.approx(want, rel=1e-12, abs=1e-12)
    return bool(want == got and type(want) is type(got))


def test_template_values_are_unchanged(tmp_path: Path) -> None:
    store.set_table(None)
    built = tmp_path / "cluster-sizing.xlsx"
    build(built)
    got = formula_values(built)
    if os.environ.get("BENCHSHEET_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=0, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    again = tmp_path / "recalculated.xlsx"
    calc(built, again)
    for name, values in (("build", got), ("calc", formula_values(again))):
        assert sorted(values) == sorted(want), f"{name}: other formula cells than the golden file"
        changed = {k: (want[k], values[k]) for k in want if not _same(want[k], values[k])}
        assert changed == {}, f"{name}: cells whose value moved (golden, now)"
