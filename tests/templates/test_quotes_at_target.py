"""The Quotes sheet's break-even at the Curves sheet's target interactivity (issue 31, item 4): with the
Endpoints fixtures' curves loaded, each quote's value is BREAKEVEN's own answer at that interactivity (and a
hand computation between two measured points); built fresh (no curve is bundled), one plain line above the
column says none is loaded and its rows show a dash, not a reason each. Rendered with LibreOffice and looked at
with and without curves while it was written (scripts/render_workbook.sh)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openpyxl
import pytest

from benchsheet.catalogue.calls import call
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data import store
from benchsheet.data.endpoints import import_submission
from benchsheet.data.table import Table
from benchsheet.templates import builder as B
from benchsheet.templates.sheets import BASELINE, CURVES, CURVES_INPUTS, QUOTES, QUOTES_TABLE, QUOTES_WORKLOAD
from benchsheet.templates.sheets.curves import EMPTY
from benchsheet.templates.sheets.quotes import AT_TARGET_LINE, CURVES_LOADED
from excelcalc.workbook.calc import calc

ENDPOINTS = Path(__file__).parents[1] / "benchsheet" / "data" / "endpoints"
BASE = "sub_a/system_a/gpt-oss-120b"
TYPED = ("sub_b/system_b/gpt-oss-120b", "MI355X", "B300", BASE)
"""Quote rows' accelerators: another curve, a family (its best curve at the target), a family without a curve,
the baseline's own curve; the rest of the sample rows are emptied."""


def row_at_all(ws: object, i: int) -> object:
    return ws[QUOTES_TABLE.row(i)["at_target_all"].a1].value  # type: ignore[index]


def fn(table: Table, name: str, *args: object) -> object:
    return call(BY_NAME[name], table, list(args), on_error=lambda e: e.text)


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Table]]:
    """The template built fresh, then with a curve as the baseline and curves and families as the quotes'
    accelerators, calculated with the Endpoints fixtures' curves loaded."""
    table = store.get_table().with_curves(import_submission(ENDPOINTS))
    folder = tmp_path_factory.mktemp("quotes")
    fresh, typed = folder / "fresh.xlsx", folder / "typed.xlsx"
    store.set_table(None)
    B.build(fresh)
    wb = openpyxl.load_workbook(fresh)
    ws = wb[QUOTES]
    ws[BASELINE["accelerator"].a1] = BASE
    for i in range(QUOTES_TABLE.slots):
        ws[QUOTES_TABLE.row(i)["accelerator"].a1] = TYPED[i] if i < len(TYPED) else None
    wb.save(typed)
    store.set_table(table)
    try:
        calc(typed, typed)
    finally:
        store.set_table(None)
    yield fresh, typed, table


def test_each_quote_is_breakeven_at_the_curves_target(workbooks: tuple[Path, Path, Table]) -> None:
    _, typed, table = workbooks
    wb = openpyxl.load_workbook(typed, data_only=True)
    ws, curves = wb[QUOTES], wb[CURVES]
    model, target = (curves[CURVES_INPUTS[k].a1].value for k in ("model", "target"))
    workload = [ws[QUOTES_WORKLOAD[k].a1].value for k in ("scenario", "availability", "max_gpus")]
    assert ws[CURVES_LOADED.a1].value is True
    for i, accelerator in enumerate(TYPED):
        row = {k: ws[c.a1].value for k, c in QUOTES_TABLE.row(i).items()}
        expected = fn(table, "BREAKEVEN", BASE, accelerator, model, *workload, None, target)
        assert row["at_target"] == row["at_target_all"], accelerator
        if accelerator == "B300":
            continue  # no curve: checked below
        if isinstance(expected, float):
            assert row["at_target"] == pytest.approx(expected, rel=1e-12), accelerator
        else:
            assert row["at_target"] == expected, accelerator
    at = {a: ws[QUOTES_TABLE.row(i)["at_target"].a1].value for i, a in enumerate(TYPED)}
    # by hand (tests/benchsheet/analysis/test_curves_downstream.py): at 100 tokens/s per user system_b's step is
    # its r64 (125 tokens/s per user, 550 per GPU), system_a's its r64 (100, 880): 550 / 880
    assert at[TYPED[0]] == pytest.approx(550 / 880)
    assert at["MI355X"] == pytest.approx(1.0)  # the family's best curve at 100 is system_a's, the baseline's
    assert at[BASE] == 1.0
    # a quote without a curve: a plain dash line saying so, not an error (issue 38, item 6)
    assert at["B300"] == "– no curve"  # the line above the column says what it means
    assert str(row_at_all(ws, TYPED.index("B300"))).startswith("–")
    line = ws[AT_TARGET_LINE.a1].value
    assert line == (
        "Break-even at 100 tokens/s per user (the Curves sheet's target), gpt-oss-120b, MLPerf Endpoints curves "
        "(– no curve: the baseline or the quote has none there):"
    )
    assert ws[QUOTES_TABLE.row(len(TYPED))["at_target"].a1].value in (None, "")  # an empty quote row stays empty


def test_without_curves_one_plain_line_and_dashes(workbooks: tuple[Path, Path, Table]) -> None:
    fresh, _, _ = workbooks
    ws = openpyxl.load_workbook(fresh, data_only=True)[QUOTES]
    assert ws[CURVES_LOADED.a1].value is False
    assert ws[AT_TARGET_LINE.a1].value == (
        "Break-even at the Curves target: no MLPerf Endpoints curve of gpt-oss-120b is loaded "
        "(benchsheet import-run <submission folder> adds them)"
    )
    for i in range(QUOTES_TABLE.slots):
        row = QUOTES_TABLE.row(i)
        filled = ws[row["accelerator"].a1].value
        assert ws[row["at_target"].a1].value in ((EMPTY,) if filled else (None, "")), i


def test_a_build_after_importing_another_familys_curves_does_not_fail(tmp_path: Path) -> None:
    """Issue 38: after import-run of MI355X curves, the baseline B200 has none; each quote row shows a dash line,
    the build reports no error (it exited 1 with every row #N/A)."""
    store.set_table(store.get_table().with_curves(import_submission(ENDPOINTS)))
    try:
        report = B.build(tmp_path / "built.xlsx")
    finally:
        store.set_table(None)
    assert not report.errors
    ws = openpyxl.load_workbook(tmp_path / "built.xlsx", data_only=True)[QUOTES]
    shown = [ws[QUOTES_TABLE.row(i)["at_target"].a1].value for i in range(QUOTES_TABLE.slots)]
    filled = [v for v in shown if v not in (None, "")]
    assert filled and all(v == "– no curve" for v in filled)
