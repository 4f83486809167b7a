"""The Curves sheet (issue 31, item 4; issue 38, item 6): with the Endpoints fixtures' curves loaded and their IDs
typed in, each figure is the functions' own answer (CURVEAT; BREAKEVEN and BREAKEVENPRICE at the target), the
chart plots each curve's points and marks the target at its x value; built fresh, the slots are empty and nothing
is an error. Built after an import, the slots are the loaded curves, the chart draws each as steps (error bars
from its measured points, no line between points to smooth: Endpoints rules 5.2), its flagged points apart and its
Offline ceiling, and a test submission's curve says so. Rendered with LibreOffice 7.4 and looked at while it
was written (scripts/render_workbook.sh), with and without curves: the steps drawn straight, not smoothed."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from benchsheet.catalogue.calls import call
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.data import store
from benchsheet.data.endpoints import import_submission
from benchsheet.data.table import Table
from benchsheet.templates import builder as B
from benchsheet.templates.sheets import CURVE_DATA, CURVES, CURVES_INPUTS, CURVES_TABLE
from benchsheet.templates.sheets.curves import EMPTY
from excelcalc.workbook.calc import calc

ENDPOINTS = Path(__file__).parents[1] / "benchsheet" / "data" / "endpoints"
TYPED = ("sub_a/system_a/gpt-oss-120b", "sub_b/system_b/gpt-oss-120b", "sub_c/nothing/gpt-oss-120b")


def fn(table: Table, name: str, *args: object) -> object:
    return call(BY_NAME[name], table, list(args), on_error=lambda e: e.text)


@pytest.fixture(scope="module")
def with_curves(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Table]]:
    """The template built fresh, then with three curve IDs typed in and calculated with the curves loaded."""
    table = store.get_table().with_curves(import_submission(ENDPOINTS))
    folder = tmp_path_factory.mktemp("curves")
    fresh, typed = folder / "fresh.xlsx", folder / "typed.xlsx"
    store.set_table(None)
    B.build(fresh)
    wb = openpyxl.load_workbook(fresh)
    for i, curve in enumerate(TYPED):
        wb[CURVES][CURVES_TABLE.row(i)["curve"].a1] = curve
    wb.save(typed)
    store.set_table(table)
    calc(typed, typed)
    store.set_table(None)
    yield fresh, typed, table


def test_the_sheet_answers_as_the_functions_do(with_curves: tuple[Path, Path, Table]) -> None:
    _, typed, table = with_curves
    ws = openpyxl.load_workbook(typed, data_only=True)[CURVES]
    model, target, price = (ws[CURVES_INPUTS[k].a1].value for k in ("model", "target", "price"))
    base = TYPED[0]
    for i, curve in enumerate(TYPED[:2]):
        row = {k: ws[c.a1].value for k, c in CURVES_TABLE.row(i).items()}
        assert row["at_x"] == target and row["per_gpu"] == fn(table, "CURVEAT", curve, target)
        pair = (base, curve, model, "Endpoints", "any", None, None, target)
        assert row["breakeven"] == pytest.approx(fn(table, "BREAKEVEN", *pair), rel=1e-12)
        assert row["ceiling"] == pytest.approx(fn(table, "BREAKEVENPRICE", price, *pair), rel=1e-12)
    # by hand (tests/benchsheet/analysis/test_curves_downstream.py): system_b / system_a at 100, each its step:
    # 550 (system_b's r64, 125 tokens/s per user) / 880 (system_a's r64, 100)
    assert ws[CURVES_TABLE.row(1)["breakeven"].a1].value == pytest.approx(550 / 880)
    unknown = ws[CURVES_TABLE.row(2)["breakeven"].a1].value  # a curve not loaded: its reason, in every cell
    assert str(unknown).startswith("#N/A No Endpoints curve 'sub_c/nothing/gpt-oss-120b'")
    assert ws[CURVES_TABLE.row(3)["per_gpu"].a1].value == EMPTY  # an empty slot
    first = CURVE_DATA[0]
    steps = fn(table, "CURVESTEPS", base, "baseline")[1:]  # type: ignore[index]
    block = [[ws.cell(first.top + 1 + k, first.left + 1 + j).value for j in range(8)] for k in range(len(steps))]
    assert block == steps


def test_the_chart_plots_numbers_and_marks_the_target(with_curves: tuple[Path, Path, Table]) -> None:
    _, typed, _ = with_curves
    with zipfile.ZipFile(typed) as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
    (xml,) = [c for c in charts if "At the target" in c]
    xml = re.sub(r"<(/?)c:", r"<\1", xml)  # as XlsxWriter writes it (c:) or openpyxl saves it (no prefix)
    assert "<scatterChart>" in xml
    values = re.findall(r"<(xVal|yVal)><(numRef|strRef)>", xml)
    assert len(values) == 10 and {kind for _, kind in values} == {"numRef"}  # every x and y is a number
    target = re.search(r"At the target.*?<xVal>.*?<numCache>(.*?)</numCache>", xml, re.DOTALL)
    assert target is not None and re.search(r'<pt idx="1">\s*<v>100(\.0)?</v>', target.group(1))


def test_a_fresh_template_has_empty_slots_and_no_error(with_curves: tuple[Path, Path, Table]) -> None:
    fresh, _, _ = with_curves
    ws = openpyxl.load_workbook(fresh, data_only=True)[CURVES]
    for i in range(len(CURVE_DATA)):
        assert ws[CURVES_TABLE.row(i)["curve"].a1].value in (None, "")  # no curve loaded to list
        for key in ("per_gpu", "breakeven", "ceiling"):
            assert ws[CURVES_TABLE.row(i)[key].a1].value == EMPTY, (i, key)


@pytest.fixture(scope="module")
def after_import(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, B.BuildReport]]:
    """``benchsheet import-run`` of the fixtures, then ``template build``: nothing typed."""
    table = store.get_table().with_curves(import_submission(ENDPOINTS))
    out = tmp_path_factory.mktemp("imported") / "built.xlsx"
    store.set_table(table)
    try:
        report = B.build(out)
    finally:
        store.set_table(None)
    yield out, report


def test_a_build_after_an_import_lists_the_loaded_curves(after_import: tuple[Path, B.BuildReport]) -> None:
    out, report = after_import
    assert not report.errors  # the build does not fail (issue 38: it exited 1)
    ws = openpyxl.load_workbook(out, data_only=True)[CURVES]
    slots = [ws[CURVES_TABLE.row(i)["curve"].a1].value for i in range(len(CURVE_DATA))]
    assert slots[:2] == list(TYPED[:2]) and slots[2] in (None, "")
    note = ws[CURVES_TABLE.row(0)["note"].a1].value
    assert str(note).startswith("a test submission, not an MLPerf result")  # MLCommons' synthetic fixtures
    assert ws[CURVES_TABLE.row(0)["per_gpu"].a1].value == 880.0  # system_a's step at 100: r64


def test_the_chart_draws_steps_flags_and_the_offline_ceiling(after_import: tuple[Path, B.BuildReport]) -> None:
    out, _ = after_import
    with zipfile.ZipFile(out) as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
    (xml,) = [re.sub(r"<(/?)c:", r"<\1", c) for c in charts if "At the target" in c]
    names = re.findall(r"<tx>.*?<v>(.*?)</v>", xml, re.DOTALL)
    assert "baseline: official steps" in names and "candidate 1: official steps" in names
    assert "baseline: measured points" in names and "candidate 1: measured points" in names
    # both curves elect r2048 as their Offline result; system_b's is interrupted: flagged, and no ceiling
    assert "candidate 1: flagged points" in names and "baseline: flagged points" not in names
    assert "baseline: Offline ceiling" in names and "candidate 1: Offline ceiling" not in names
    # no series is smoothed (rules 5.2: no smoothing): the step line is straight through its corners, which
    # CURVESTEPS gives (the step's corners: tests/benchsheet/analysis/test_curve_steps.py)
    assert '<smooth val="1"/>' not in xml and "smoothMarker" not in xml


def _axis_texts(out: Path) -> tuple[list[object], str]:
    """The target's label, the target column's heading, the table's title, and the chart's x-axis title: the
    sheet's texts naming the x-axis, as computed; and the chart's x-axis title formula."""
    ws = openpyxl.load_workbook(out, data_only=True)[CURVES]
    target, at_x = CURVES_INPUTS["target"], CURVES_TABLE.row(0)["at_x"]
    texts = [
        ws.cell(target.row, 1).value,
        ws.cell(CURVES_TABLE.header_row, at_x.col + 1).value,
        ws[CURVES_TABLE.title_cell.a1].value,
    ]
    with zipfile.ZipFile(out) as z:
        charts = [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]
    (xml,) = [re.sub(r"<(/?)c:", r"<\1", c) for c in charts if "At the target" in c]
    found = re.search(r"<valAx>.*?<title>.*?<f>(.*?)</f>", xml, re.DOTALL)  # the first value axis: x
    assert found is not None, "the x-axis title is no cell's"
    ref = found.group(1).split("!")[-1].replace("$", "")
    return [*texts, ws[ref].value], ref


def test_the_axis_is_named_as_the_loaded_curves_name_it(
    after_import: tuple[Path, B.BuildReport], tmp_path: Path
) -> None:
    """Issue 38 item 5: an agentic model's curves have e2e_avg_interactivity as their x-axis (rules 4.2); the
    target's label, its column, the title and the chart's axis said "tokens/s per user" whatever was loaded.
    The agentic curve is hand-made: MLCommons' fixture curve with its axis set, its figures unchanged."""
    out, _ = after_import
    texts, _ = _axis_texts(out)
    assert texts[:2] == ["Target tokens/s per user"] * 2 and " tokens/s per user: " in str(texts[2])
    assert str(texts[3]).startswith("tokens/s per user; official steps as measured, not interpolated")
    agentic = tuple(replace(c, axis="e2e_avg_interactivity") for c in import_submission(ENDPOINTS))
    store.set_table(store.get_table().with_curves(agentic))
    try:
        assert not B.build(tmp_path / "agentic.xlsx").errors
    finally:
        store.set_table(None)
    texts, _ = _axis_texts(tmp_path / "agentic.xlsx")
    assert texts[:2] == ["Target e2e_avg_interactivity"] * 2, texts
    assert " e2e_avg_interactivity: gpt-oss-120b" in str(texts[2]) and "tokens/s per user" not in str(texts[2])
    assert str(texts[3]).startswith("e2e_avg_interactivity; official steps as measured, not interpolated")
