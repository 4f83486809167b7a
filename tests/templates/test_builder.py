"""The cluster-sizing template: built, recomputed and frozen without Excel.

Real .xlsx files, opened with openpyxl; every figure is checked against the
catalogue functions' own answers, never against a number in product code.
"""

from __future__ import annotations

import html
import itertools
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.cell import range_boundaries

from benchsheet import analysis as A
from benchsheet.analysis import choices
from benchsheet.analysis.claims import GAINS_HEADER, RATIOS_HEADER
from benchsheet.catalogue.calls import call
from benchsheet.catalogue.engine import evaluate
from benchsheet.catalogue.functions import BY_NAME
from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.errors import ALL_ERROR_CODES
from benchsheet.templates import builder as B
from benchsheet.templates import sheets as S
from benchsheet.templates.layout import ArrayFormula, Cell, Chart, TableBlock
from benchsheet.templates.report import every_error
from benchsheet.templates.sheets.fleet import FLEET, SAMPLE_MIX
from benchsheet.templates.worksheet import columns_of
from excelcalc.formula import format_value
from excelcalc.workbook.calc import CalcError, CalcReport, CellError, calc, freeze
from excelcalc.workbook.compute import compute
from excelcalc.workbook.rows import text_height
from tests import ROOT
from tests.libreoffice import RENDERING, edit_in_libreoffice


def counted(report: CalcReport) -> tuple[CellError, ...]:
    """The errors of a computed template as ``template calc`` counts them: the workbook's own error texts count,
    a chart's gap (#N/A on purpose, named ChartGaps) does not."""
    return every_error(report.errors, report.path)


def clean(report: CalcReport) -> bool:
    return not counted(report)


RENDER = ROOT / "scripts" / "render_workbook.sh"


def fn(name: str, *args: Any) -> Any:
    """A catalogue function's own answer (error text on failure, as the add-in shows it)."""
    return call(BY_NAME[name], store.get_table(), list(args), on_error=lambda e: e.text)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, B.BuildReport]]:
    """One template for the module, built against the bundled data in an empty user folder."""
    home = tmp_path_factory.mktemp("template-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BENCHSHEET_HOME", str(home))
        store.set_table(None)
        path = tmp_path_factory.mktemp("template") / "cluster-sizing.xlsx"
        report = B.build(path)
        store.set_table(None)
        yield path, report


@pytest.fixture
def template(built: tuple[Path, B.BuildReport], tmp_path: Path) -> Path:
    """A private copy of the built template to edit."""
    copy = tmp_path / "edited.xlsx"
    shutil.copy(built[0], copy)
    return copy


def values(path: Path) -> Any:
    return openpyxl.load_workbook(path, data_only=True)


def formulas(path: Path) -> Any:
    return openpyxl.load_workbook(path)


def edit(path: Path, changes: dict[tuple[str, str], Any]) -> None:
    """Type new inputs, as a user (or a script) would, and save through openpyxl."""
    wb = formulas(path)
    for (sheet, ref), value in changes.items():
        wb[sheet][ref] = value
    wb.save(path)


def addresses(cells: Mapping[str, Cell]) -> dict[str, str]:
    """A block's (or a table row's) cells as plain addresses, by key."""
    return {k: c.a1 for k, c in cells.items()}


def sizing_row(i: int) -> dict[str, str]:
    return addresses(S.SIZING_TABLE.row(i))


def quote_row(i: int) -> dict[str, str]:
    return addresses(S.QUOTES_TABLE.row(i))


WORKLOAD, BASELINE, SENS = (addresses(block.cells()) for block in (S.WORKLOAD, S.BASELINE, S.SENS))
COMPARE_FILTERS = addresses(S.COMPARE_FILTERS.cells())
SENS_HEADER_ROW, SENS_FIRST = S.SENS_GRID.header_row, S.SENS_GRID.header_row + 1
SENS_PRICES, SENS_UTILS = S.SENS_GRID.down, len(S.SENS_GRID.across)
COMPARE_FIRST, COMPARE_SLOTS = S.COMPARE_TABLE.first, S.COMPARE_TABLE.slots
CHARTS = sum(isinstance(block, Chart) for sheet in S.SHEETS for block in sheet.blocks)
CLAIM, GAINS_WORKLOAD = addresses(S.CLAIM.cells()), addresses(S.GAINS_WORKLOAD.cells())
ANSWERS = {"claim": S.CLAIMED_AT, "best": S.BEST_RATIO, "available": S.AVAILABLE}


# ------------------------------------------------------------------ build


def test_build_has_the_sheets_formulas_and_cached_values(built: tuple[Path, B.BuildReport]) -> None:
    path, report = built
    wf, wv = formulas(path), values(path)
    assert wf.sheetnames[: len(S.SHEETS)] == [s.name for s in S.SHEETS]
    assert wf[S.LISTS.name].sheet_state == "hidden"
    count = blank = 0
    for ws in wf.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    count += 1
                    cached = wv[ws.title][cell.coordinate].value
                    assert "#NAME?" not in str(cached)
                    blank += cached is None  # an empty text answer ("" for an empty slot)
    assert count == report.formulas > 300
    assert blank < count * 0.45  # slots nothing fills yet: Sources', and TCO's and Fleet's (issue 33) per candidate
    with zipfile.ZipFile(path) as zf:  # every formula caches a value, typed
        for name in zf.namelist():
            if name.startswith("xl/worksheets/sheet"):
                xml = zf.read(name).decode()
                for cell in re.findall(r"<c [^>]*>(?:(?!</c>).)*<f>(?:(?!</c>).)*</c>", xml):
                    assert "<v>" in cell, cell
                    assert 't="str"' in cell or not cell.split("<v>")[1].startswith("</v>"), cell
    assert report.errors == {}
    # the numbers are formulas calling the catalogue, not pasted values
    first_quote = quote_row(0)
    assert f"BREAKEVEN($B$12,{first_quote['accelerator']}," in wf[S.QUOTES][first_quote["breakeven"]].value
    assert "GPUSNEEDED(" in wf[S.SIZING][sizing_row(0)["gpus"]].value
    # the grid: one array formula, one call (issue 32), in hidden cells the grid shows
    grid = wf[S.SENSITIVITY][f"K{SENS_FIRST}"].value
    assert "COSTPERMTOK(" in grid.text and grid.ref == f"K{SENS_FIRST}:R{SENS_FIRST + 7}"
    assert wf[S.SENSITIVITY][f"B{SENS_FIRST}"].value == f"=K{SENS_FIRST}"
    assert wf[S.COMPARE][f"B{COMPARE_FIRST}"].value.startswith(f'=IF(A{COMPARE_FIRST}="","",BEST(')
    entries, last = wf[S.COMPARE][f"H{COMPARE_FIRST}"].value, COMPARE_FIRST + 15
    assert entries.text.startswith(f'=IF($A${COMPARE_FIRST}:$A${last}="","",BESTENTRY($A${COMPARE_FIRST}:$A${last},')
    assert wf[S.COMPARE][f"C{COMPARE_FIRST}"].value == f"=H{COMPARE_FIRST}"
    assert wf[S.READ_ME][S.DATA["rounds"].a1].value == '=DATAINFO("rounds")'
    # no full recalculation on load: it would turn the functions into #NAME? without the add-in
    with zipfile.ZipFile(path) as zf:
        assert "fullCalcOnLoad" not in zf.read("xl/workbook.xml").decode()
        assert sum(n.startswith("xl/charts/chart") for n in zf.namelist()) == CHARTS == 7  # TCO (two), Curves, tornado


def test_the_xlwings_conf_sheet_names_benchsheets_module_for_this_workbook(template: Path) -> None:
    """xlwings' add-in reads a workbook's own xlwings.conf sheet before the user configuration, keys
    from A1 down, values in column B (test_addin reads those rules from its VBA): Import Functions
    in this workbook imports benchsheet's module, and no other workbook loses its own default."""
    calculated = template.with_name("calculated.xlsx")
    assert clean(calc(template, calculated))
    # xlwings' own reader of the sheet, on xlwings' file reader (no Excel; its licence check runs on import,
    # and "noncommercial" is xlwings' key for open-source use such as these tests)
    read = "import sys, xlwings as xw, xlwings.utils as u; print(u.read_config_sheet(xw.Book(sys.argv[1], mode='r')))"
    env = {**os.environ, "XLWINGS_LICENSE_KEY": "noncommercial"}
    for path in (template, calculated):  # calc keeps it
        done = subprocess.run(
            [sys.executable, "-c", read, str(path)], capture_output=True, text=True, env=env, timeout=120, check=False
        )
        assert done.stdout.strip() == "{'UDF Modules': 'benchsheet.udfs.functions'}", done.stderr
        ws = openpyxl.load_workbook(path)["xlwings.conf"]
        assert ws.sheet_state == "hidden"
        assert ws["A2"].value is None  # the add-in then reads A1 alone
        assert ws.max_column == 4 and ws["D1"].value.startswith("xlwings reads this sheet")


def test_read_me_carries_the_notices_and_data_provenance(built: tuple[Path, B.BuildReport], table: Any) -> None:
    ws = values(built[0])[S.READ_ME]
    texts = [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]
    assert S.DERIVED_NOTE in texts
    assert A.NOT_VERIFIED in texts
    assert A.TRADEMARK in texts
    assert ws[S.DATA["rounds"].a1].value == ", ".join(table.rounds)
    assert ws[S.DATA["rows"].a1].value == len(table.rows)


def test_key_outputs_equal_the_functions_answers(built: tuple[Path, B.BuildReport]) -> None:
    path, report = built
    wb = values(path)
    sz, q = wb[S.SIZING], wb[S.QUOTES]
    w = {k: sz[ref].value for k, ref in WORKLOAD.items()}
    bench, scen, avail, maxg, util = w["benchmark"], w["scenario"], w["availability"], w["max_gpus"], w["utilization"]
    assert (bench, scen) == ("gpt-oss-120b", "Server")

    # the example: B300 vs B200 on gpt-oss-120b Server breaks even at 1.260
    row = quote_row(0)
    assert q[row["accelerator"]].value == "B300" and q[BASELINE["accelerator"]].value == "B200"
    breakeven = fn("BREAKEVEN", "B200", "B300", bench, scen, avail, maxg)
    assert q[row["breakeven"]].value == pytest.approx(breakeven, rel=1e-12)
    assert round(q[row["breakeven"]].value, 3) == 1.260
    base_price = q[BASELINE["price"]].value
    assert q[row["ceiling"]].value == pytest.approx(
        fn("BREAKEVENPRICE", base_price, "B200", "B300", bench, scen, avail, maxg)
    )
    assert q[row["ratio"]].value == pytest.approx(q[row["price"]].value / base_price)

    for i, line in enumerate(report.sizing):
        r = {k: sz[ref].value for k, ref in sizing_row(i).items()}
        per_gpu = fn("BEST", r["candidate"], bench, scen, avail, maxg)
        assert r["entry"] == fn("BESTENTRY", r["candidate"], bench, scen, avail, maxg) == line.entry
        assert r["per_gpu"] == pytest.approx(per_gpu)
        target = w["target"] * (1 + w["headroom"])
        assert r["gpus"] == fn("GPUSNEEDED", target, per_gpu, util, r["gpus_per_node"]) == line.gpus
        assert r["nodes"] == r["gpus"] / r["gpus_per_node"]
        assert r["cost_per_mtok"] == pytest.approx(fn("COSTPERMTOK", w["price"], per_gpu, util))
        assert r["monthly_cost"] == pytest.approx(r["gpus"] * w["price"] * w["hours"])
        assert r["availability"] == "available"

    verdicts = [q[quote_row(i)["verdict"]].value for i in range(len(report.quotes))]
    assert "within break-even" in verdicts
    assert any(re.fullmatch(r"\d+\.\d% above break-even", str(v)) for v in verdicts)


def test_sensitivity_grid_and_compare_follow_the_functions(built: tuple[Path, B.BuildReport]) -> None:
    wb = values(built[0])
    s, c = wb[S.SENSITIVITY], wb[S.COMPARE]
    bench, scen, avail, maxg = (s[f"B{r}"].value for r in (5, 6, 7, 8))
    per_gpu = fn("BEST", s[SENS["accelerator"]].value, bench, scen, avail, maxg)
    assert s[SENS["per_gpu"]].value == pytest.approx(per_gpu)
    price = s[SENS["price_from"]].value
    for i in range(SENS_PRICES):
        r = SENS_FIRST + i
        assert s[f"A{r}"].value == pytest.approx(price + i * s[SENS["price_step"]].value)
        for j in range(SENS_UTILS):
            col = "BCDEFGHI"[j]
            util = s[f"{col}{SENS_HEADER_ROW}"].value
            assert s[f"{col}{r}"].value == pytest.approx(fn("COSTPERMTOK", s[f"A{r}"].value, per_gpu, util))

    avail, maxg = c[COMPARE_FILTERS["availability"]].value, c[COMPARE_FILTERS["max_gpus"]].value
    families = [c[f"A{COMPARE_FIRST + i}"].value for i in range(COMPARE_SLOTS)]
    listed = [f for f in families if f]
    assert listed == A.ranked_families(store.get_table(), bench, scen, A.Filters(avail, maxg))[:COMPARE_SLOTS]
    for i, family in enumerate(listed):
        r = COMPARE_FIRST + i
        assert c[f"B{r}"].value == pytest.approx(fn("BEST", family, bench, scen, avail, maxg))
        assert c[f"C{r}"].value == fn("BESTENTRY", family, bench, scen, avail, maxg)
        assert c[f"F{r}"].value == pytest.approx(fn("MEDIANPERGPU", family, bench, scen, avail, maxg))
        assert c[f"D{r}"].value == f"v{fn('ENTRY', c[f'C{r}'].value, 'round')}"  # the round of the best beside it


def test_a_pinned_compare_row_is_unpinned_by_copying_another_row(template: Path) -> None:
    """Read me's promise: type a family over a Compare row to pin it; copy the family cell of an
    unpinned row back over it to see the ranking there again."""
    first, second = f"A{COMPARE_FIRST}", f"A{COMPARE_FIRST + 1}"
    readme = " ".join(str(c.value) for row in values(template)[S.READ_ME].iter_rows() for c in row if c.value)
    assert "Type a family over a row to pin it; to unpin it, copy the family cell of an unpinned row" in readme
    c = values(template)[S.COMPARE]
    workload = [c[ref].value for ref in ("B5", "B6", COMPARE_FILTERS["availability"], COMPARE_FILTERS["max_gpus"])]
    ranked = [c[f"A{COMPARE_FIRST + i}"].value for i in range(3)]
    pinned = ranked[2]
    edit(template, {(S.COMPARE, first): pinned})
    assert clean(calc(template, template))
    c = values(template)[S.COMPARE]
    assert c[first].value == pinned != ranked[0] and c[second].value == ranked[1]
    assert c[f"B{COMPARE_FIRST}"].value == pytest.approx(fn("BEST", pinned, *workload))
    edit(template, {(S.COMPARE, first): formulas(template)[S.COMPARE][second].value})  # the same text, copied
    assert clean(calc(template, template))
    assert [values(template)[S.COMPARE][f"A{COMPARE_FIRST + i}"].value for i in range(3)] == ranked


def cited_rows(path: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Sources' cited rows by (entry, benchmark, scenario): their visible cells and sheet row."""
    ws = values(path)[S.SOURCES]
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for i in range(S.CITED.slots):
        cells = {k: ws[c.a1].value for k, c in S.CITED.row(i).items()}
        if cells["entry"]:
            key = (cells["entry"], cells["bench"], cells["scen"])
            assert key not in out, f"{key} cited twice"
            out[key] = {**cells, "row": S.CITED.first + i}
        else:  # the cited rows come first, the empty ones after
            assert all(not cells[k] for k in ("used_on", "citation", "system", "derived")), i
    return out


def uses_of(path: Path) -> dict[tuple[str, str, str], list[str]]:
    """Every use of an entry in the workbook, by (entry, benchmark, scenario): where, in order."""
    wb = values(path)
    bench, scen = wb[S.SIZING][WORKLOAD["benchmark"]].value, wb[S.SIZING][WORKLOAD["scenario"]].value
    out: dict[tuple[str, str, str], list[str]] = {}
    for use in S.USES:
        entry = wb[use.entry.sheet][use.entry.a1].value
        if entry and not str(entry).startswith("#") and " " not in str(entry):  # not a reason (FLEET's "none: ")
            # a claim's entries are cited for the benchmark and scenario of the claim, the rest for Sizing's
            b, s = (
                wb[c.sheet][c.a1].value if c else default
                for c, default in ((use.benchmark, bench), (use.scenario, scen))
            )
            out.setdefault((entry, b, s), []).append(use.where)
    return out


def test_sources_cite_every_entry_once_with_where_it_is_used(built: tuple[Path, B.BuildReport]) -> None:
    cited, uses = cited_rows(built[0]), uses_of(built[0])
    assert len(S.USES) == S.CITED.slots
    assert sorted(cited) == sorted(uses) and len(cited) < sum(map(len, uses.values()))  # once each, fewer rows
    first = [key for key in uses]  # in the order of their first use
    assert sorted(cited, key=lambda k: cited[k]["row"]) == first
    for (entry, b, s), row in cited.items():
        assert row["used_on"] == ", ".join(uses[entry, b, s])
        part = {p: fn("CITE", entry, b, s, p) for p in A.CITE_PARTS}
        assert row["citation"] == f"{part['entry']} {part['result']}"
        assert row["system"] == f"{part['system']} {part['notes']}".strip()
        assert row["derived"] == part["derived"]
        assert all(len(part[p]) <= 255 for p in A.CITE_PARTS)  # what classic Excel can show
    # the source files and the legend, once
    ws = values(built[0])[S.SOURCES]
    files = [ws[S.SOURCE_FILES.row(i)["file"].a1].value for i in range(S.SOURCE_FILES.slots)]
    assert [f for f in files if f] == [src.file for src in store.get_table().sources]
    legend = " ".join(ws[f"A{r}"].value for r in range(S.LEGEND.top, S.LEGEND.end + 1))
    assert A.TRADEMARK in legend and A.NOT_VERIFIED in legend


def _column_of(ws: Any, cell: Cell) -> Any:
    """openpyxl keeps neighbouring columns of one width as one range."""
    return next(d for d in ws.column_dimensions.values() if d.min <= cell.col + 1 <= d.max)


def test_every_cited_row_is_as_tall_as_its_text(built: tuple[Path, B.BuildReport]) -> None:
    """Each cited row, as saved, is as tall as its cells need, and a slot left empty is a hairline: the
    sheet takes the pages its citations need (a fixed height for every slot printed six)."""
    ws, shown = formulas(built[0])[S.SOURCES], values(built[0])[S.SOURCES]
    widths = {k: dict(columns_of(S.SOURCES_SHEET.widths))[c.a1.rstrip("0123456789")] for k, c in S.CITED.row(0).items()}
    filled = 0
    for i in range(S.CITED.slots):
        row = S.CITED.row(i)
        texts = {k: shown[c.a1].value for k, c in row.items() if not _column_of(ws, c).hidden}
        need = max((text_height(v, widths[k], 8.0, 10.0) or 0 for k, v in texts.items() if v), default=0)
        height = ws.row_dimensions[S.CITED.first + i].height
        if any(texts.values()):
            filled += 1
            assert height == pytest.approx(need, abs=0.75), S.CITED.first + i
        else:
            assert height in (None, S.EMPTY_ROW_HEIGHT), S.CITED.first + i  # a hairline
    assert ws.sheet_format.defaultRowHeight == S.EMPTY_ROW_HEIGHT
    assert filled == len(cited_rows(built[0]))
    hidden = [k for k, c in S.CITED.row(0).items() if _column_of(ws, c).hidden]
    assert hidden == list(S.CITED.row(0))[5:]  # what ENTRIESUSED reads and CITE's workload: not printed


def test_sources_are_cheap_to_compute(built: tuple[Path, B.BuildReport]) -> None:
    """One ENTRIESUSED, an array formula over its hidden copy that the cells showing its answer read (one
    call a recalculation), no formula over the cells above or below (the dedupe formulas of every slot made
    the build twice as slow)."""
    ws = formulas(built[0])[S.SOURCES]
    texts = [str(getattr(c.value, "text", c.value)) for row in ws.iter_rows() for c in row if c.data_type == "f"]
    assert not [t for t in texts if "COUNTIF" in t]
    assert sum("ENTRIESUSED" in t for t in texts) == 1
    assert len(texts) < 16 * S.CITED.slots  # its 11 columns and 4 hidden CITE lines a slot


def test_sources_follow_rows_filled_after_the_build(template: Path, table: Any) -> None:
    """Sizing row 24 and Quotes rows 24-27 filled by a user, then calc: a new entry gets a cited row of
    the same height, an entry already cited says where else it is used now, a bad one is not cited."""
    before = cited_rows(template)
    new = next(
        r.entry
        for r in table.rows
        if (r.benchmark, r.scenario) == ("gpt-oss-120b", "Server")
        and r.division == "closed"
        and A.per_gpu_value(r)
        and (r.entry, r.benchmark, r.scenario) not in before
    )
    sizing, quotes = sizing_row(len(S.CANDIDATES) + 1), [quote_row(len(S.SAMPLE_QUOTES) + i) for i in range(4)]
    changes: dict[tuple[str, str], Any] = {(S.SIZING, sizing["candidate"]): new}
    for q, accelerator in zip(quotes, ("B200", "RTX PRO 6000", "B999", "6.1-0052"), strict=True):
        changes[S.QUOTES, q["accelerator"]] = accelerator
        changes[S.QUOTES, q["price"]] = 4.0
    edit(template, changes)
    calc(template, template)
    cited, uses = cited_rows(template), uses_of(template)
    assert sorted(cited) == sorted(uses) and len(cited) == len(before) + 1
    row = cited[new, "gpt-oss-120b", "Server"]
    tco = S.TCO_TABLE.first + len(S.CANDIDATES) + 1  # TCO's row of the Sizing row reads its entry
    # FLEET's rows: a workload each and a total per candidate; the new one's first row cites its entry (its node
    # size ENTRY's gpus_per_node, whole even where the MLPerf system's GPUs do not divide into its nodes)
    fleet = S.FLEET_TABLE.first + len(S.CANDIDATES) * (len(SAMPLE_MIX) + 1)  # the empty Sizing row: none
    used_on = f"{S.SIZING} row {sizing['candidate'][1:]}, {S.TCO} row {tco}, {FLEET} row {fleet}"
    assert row["used_on"] == used_on and row["citation"].startswith("MLPerf®")
    quoted = values(template)[S.QUOTES]
    for q in quotes[:2] + quotes[3:]:
        entry = quoted[q["entry"]].value
        assert f"{S.QUOTES} row {q['entry'][1:]}" in cited[entry, "gpt-oss-120b", "Server"]["used_on"].split(", ")
    assert not any("B999" in str(row) for row in cited.values())
    ws, shown = formulas(template)[S.SOURCES], values(template)[S.SOURCES]
    widths = {k: _column_of(ws, c).width for k, c in S.CITED.row(0).items()}
    for i in range(S.CITED.slots):  # a row calc filled is as tall as its text; the others keep theirs
        height = ws.row_dimensions[S.CITED.first + i].height
        texts = {k: shown[c.a1].value for k, c in S.CITED.row(i).items() if not _column_of(ws, c).hidden}
        need = max(
            (text_height(v, widths[k] - 0.71, 8.0, 11.0) or 0 for k, v in texts.items() if isinstance(v, str)),
            default=0,
        )
        assert (height or 15.0) >= need, S.CITED.first + i
        if not any(texts.values()):
            assert height in (None, S.EMPTY_ROW_HEIGHT), S.CITED.first + i  # a hairline


def test_sources_rows_a_new_workload_empties_are_hairlines_again(template: Path) -> None:
    """Another workload cites fewer entries: after an openpyxl save (which drops every cached value)
    and calc, the slots left empty are hairlines again, not the heights of the citations they held
    (white space, and a blank last page)."""
    edit(template, {(S.SIZING, WORKLOAD["benchmark"]): "deepseek-r1"})
    calc(template, template)
    ws, shown = formulas(template)[S.SOURCES], values(template)[S.SOURCES]
    empty = [
        S.CITED.first + i
        for i in range(S.CITED.slots)
        if not any(shown[c.a1].value for k, c in S.CITED.row(i).items() if not _column_of(ws, c).hidden)
    ]
    assert empty
    tall = [r for r in empty if ws.row_dimensions[r].height not in (None, S.EMPTY_ROW_HEIGHT)]
    assert tall == []


def test_read_me_says_what_the_hidden_xlwings_conf_sheet_is(built: tuple[Path, B.BuildReport]) -> None:
    wb = values(built[0])
    assert wb[S.XLWINGS_CONF.name].sheet_state == "hidden"
    text = " ".join(str(c.value) for row in wb[S.READ_ME].iter_rows() for c in row if c.value)
    assert f"hidden sheet, {S.XLWINGS_CONF.name}," in text and "keep it" in text


def test_inputs_are_styled_unlocked_and_have_dropdowns(built: tuple[Path, B.BuildReport]) -> None:
    wb = formulas(built[0])
    sz = wb[S.SIZING]
    assert sz.protection.sheet
    fill = sz[WORKLOAD["benchmark"]].fill.fgColor.rgb
    for ref in (*WORKLOAD.values(), sizing_row(0)["candidate"], sizing_row(0)["gpus_per_node"]):
        cell = sz[ref]
        if ref in (WORKLOAD["target_with_headroom"], WORKLOAD["unit"]) or "E" in ref[:1]:
            continue
        assert cell.protection.locked is False, ref
        assert cell.fill.fgColor.rgb == fill, ref
    assert sz[sizing_row(0)["gpus"]].protection.locked is True
    assert sz[WORKLOAD["target_with_headroom"]].protection.locked is True
    lists = {str(dv.sqref): dv.formula1 for dv in sz.data_validations.dataValidation if dv.type == "list"}
    assert lists[WORKLOAD["benchmark"]].startswith(f"{S.LISTS.name}!$A$2")
    assert lists[WORKLOAD["scenario"]].startswith(f"{S.LISTS.name}!$B$2")
    assert lists[S.SIZING_TABLE.column("candidate").a1()].startswith(f"{S.LISTS.name}!$C$2")
    table = store.get_table()
    lw = wb[S.LISTS.name]
    col = [c.value for c in lw["A"][1:] if c.value]
    assert col == choices.benchmarks(table) and "gpt-oss-120b" in col
    assert [c.value for c in lw["C"][1:] if c.value] == choices.families(table)
    for name in (S.QUOTES, S.SENSITIVITY, S.COMPARE, S.SOURCES, S.READ_ME):
        assert wb[name].protection.sheet, name


def test_numbers_keep_a_space_before_the_text_beside_them(built: tuple[Path, B.BuildReport]) -> None:
    """A right-aligned number next to left-aligned text ('$3.60' then '12 months', '16,021.6' then
    '6.1-0075') is padded on its right, so the two never print as one ('$3.6012 months')."""
    wb = formulas(built[0])
    pairs = 0
    for table in (b for sheet in S.SHEETS for b in sheet.blocks if isinstance(b, TableBlock)):
        ws, row = wb[table.sheet], table.row(0)
        keys = [c.key for c in table.columns]
        for left, right in itertools.pairwise(keys):
            number, text = ws[row[left].a1], ws[row[right].a1]
            if number.number_format in ("General", "@") or text.number_format not in ("General", "@"):
                continue
            pairs += 1
            padded = number.number_format.endswith("_)") or (text.alignment.indent or 0) >= 1
            assert padded, f"{table.sheet}!{number.coordinate} {number.number_format!r} touches {text.coordinate}"
    assert pairs >= 3  # Quotes' price and term, Compare's best and entry, Sizing's per-GPU and GPUs...


def test_dropdown_messages_read_as_english(built: tuple[Path, B.BuildReport]) -> None:
    wb = formulas(built[0])
    messages = {dv.error for ws in wb.worksheets for dv in ws.data_validations.dataValidation if dv.error}
    picks = {m for m in messages if m.startswith("Pick ")}
    assert "Pick an availability from the list." in picks and "Pick a benchmark from the list." in picks
    assert not [m for m in picks if re.match(r"Pick a [aeiou]", m)]


# ----------------------------------------------------------------- Claims


def claim_answers(path: Path) -> dict[str, Any]:
    """The Claims sheet's answer blocks (by name, then key) and its verdict, as computed."""
    ws = values(path)[S.CLAIMS]
    out: dict[str, Any] = {name: {k: ws[c.a1].value for k, c in b.cells().items()} for name, b in ANSWERS.items()}
    out["verdict"] = ws[S.VERDICT["verdict"].a1].value
    return out


def ratios_answer(table: list[list[Any]], i: int = 1) -> dict[str, Any]:
    """Row ``i`` of RATIOS' answer as an answer block shows it."""
    r = dict(zip(RATIOS_HEADER, table[i], strict=True))
    return {
        "benchmark": r["benchmark"],
        "scenario": r["scenario"],
        "ratio": pytest.approx(r["ratio"], rel=1e-12),
        "candidate_entry": r["candidate entry"],
        "baseline_entry": r["baseline entry"],
        "availability": f"{r['candidate availability']} / {r['baseline availability']}",
        "rounds": r["rounds"],
    }


def empty(block: Mapping[str, Any], *but: str) -> bool:
    return all(v in (None, "") for k, v in block.items() if k not in but)


def test_claims_checks_the_sample_claim_with_the_functions(built: tuple[Path, B.BuildReport]) -> None:
    """v6.1's news, "Vera Rubin is up to 3.7x GB300": true on one benchmark, with Preview hardware only."""
    ws = values(built[0])[S.CLAIMS]
    cand, base, claimed = (ws[CLAIM[k]].value for k in ("candidate", "baseline", "claimed"))
    assert (cand, base, claimed) == ("Vera Rubin", "GB300", 3.7) and ws[CLAIM["benchmark"]].value is None
    a = claim_answers(built[0])
    anywhere = fn("RATIOS", cand, base, "any")
    assert a["best"] == ratios_answer(anywhere) and a["best"]["ratio"] > 3.5
    assert a["claim"] == a["best"]  # a claim without a benchmark is checked where the ratio is highest
    assert a["best"]["availability"] == "preview / available"
    # every Vera Rubin row is Preview: RATIOS refuses, and the sheet says so without an error cell
    refused = fn("RATIOS", cand, base, "available")
    assert refused.startswith("#N/A No benchmark and scenario where both Vera Rubin and GB300")
    none = "none: Vera Rubin and GB300 share no benchmark and scenario with closed Available results"
    assert a["available"]["ratio"] == none and empty(a["available"], "ratio")
    assert a["verdict"] == "holds only with Preview hardware"
    assert built[1].errors == {}


def test_claims_software_gains_are_gains_answer(built: tuple[Path, B.BuildReport]) -> None:
    ws = values(built[0])[S.CLAIMS]
    w = {k: ws[ref].value for k, ref in GAINS_WORKLOAD.items()}
    assert w == {"benchmark": "gpt-oss-120b", "scenario": "Server", "availability": "available"}  # Sizing's
    want = [
        dict(zip(GAINS_HEADER, row, strict=True))
        for row in fn("GAINS", w["benchmark"], w["scenario"], None, None, None, w["availability"])[1:]
    ]
    assert 0 < len(want) <= S.GAINS_TABLE.slots
    for i in range(S.GAINS_TABLE.slots):
        got = {k: ws[ref].value for k, ref in addresses(S.GAINS_TABLE.row(i)).items()}
        if i >= len(want):
            assert empty(got), i
            continue
        g = want[i]
        assert got == {
            "system": f"{g['submitter']} {g['GPUs']}x {g['family']}",
            "old_entry": g["old entry"],
            "new_entry": g["new entry"],
            "old_per_gpu": pytest.approx(g["old per-GPU"], rel=1e-12),
            "new_per_gpu": pytest.approx(g["new per-GPU"], rel=1e-12),
            "gain": pytest.approx(g["gain"], rel=1e-12),
            "match": g["match"],
            "flag": g["flag"] or None,  # an empty text is stored as an empty cell
        }, i
    pairs = {
        (ws[S.GAINS_TABLE.row(i)["old_entry"].a1].value, ws[S.GAINS_TABLE.row(i)["new_entry"].a1].value)
        for i in range(len(want))
    }
    assert ("6.0-0002", "6.1-0003") in pairs  # AMD's 8x MI355X, the example
    with zipfile.ZipFile(built[0]) as zf:  # the bar chart draws the gains column against the systems
        xml = " ".join(zf.read(n).decode() for n in zf.namelist() if n.startswith("xl/charts/chart"))
    for key in ("system", "gain"):  # over the rows GAINS filled (the table's unused slots left out)
        span = S.GAINS_TABLE.column(key)
        last = span.first.row + len(want) - 1
        assert f"{S.CLAIMS}!${span.first.a1[0]}${span.first.row}:${span.last.a1[0]}${last}" in xml


def _available_ratios(cand: str, base: str) -> list[float]:
    table = fn("RATIOS", cand, base, "available")
    return [row[RATIOS_HEADER.index("ratio")] for row in table[1:]]


@pytest.mark.parametrize(
    ("cand", "base", "claimed", "verdict"),
    [
        ("Vera Rubin", "GB300", lambda r: 10, lambda t: "does not hold"),
        ("B300", "B200", lambda r: (r[0] + r[1]) / 2, lambda t: f"holds only for {t[1][0]} {t[1][1]}"),
        ("B300", "B200", lambda r: r[2], lambda t: "holds"),  # reached on three benchmarks and scenarios
    ],
    ids=["does-not-hold", "holds-only-for-one", "holds"],
)
def test_claims_verdict_of_an_up_to_claim(template: Path, cand: str, base: str, claimed: Any, verdict: Any) -> None:
    ratio = claimed(_available_ratios(cand, base) if cand == "B300" else [])
    edit(
        template,
        {
            (S.CLAIMS, CLAIM["candidate"]): cand,
            (S.CLAIMS, CLAIM["baseline"]): base,
            (S.CLAIMS, CLAIM["claimed"]): ratio,
        },
    )
    assert clean(calc(template, template))
    a = claim_answers(template)
    assert a["best"] == a["claim"] == ratios_answer(fn("RATIOS", cand, base, "any"))
    available = fn("RATIOS", cand, base, "available")
    if isinstance(available, list):
        assert a["available"] == ratios_answer(available)
    assert a["verdict"] == verdict(available)


def test_claims_verdict_of_a_claim_on_one_benchmark(template: Path) -> None:
    """A claim that names its benchmark is checked there (BREAKEVEN); where the Available-only ratio cannot
    be had, its cells give the function's reason and the verdict still stands."""
    cand, base, bench, scen = "Vera Rubin", "GB300", "deepseek-r1", "Interactive"
    at = fn("BREAKEVEN", base, cand, bench, scen, "any")
    edit(
        template,
        {
            (S.CLAIMS, CLAIM["candidate"]): cand,
            (S.CLAIMS, CLAIM["baseline"]): base,
            (S.CLAIMS, CLAIM["claimed"]): 2.5,  # "up to 2.5x on DeepSeek-R1"
            (S.CLAIMS, CLAIM["benchmark"]): bench,
            (S.CLAIMS, CLAIM["scenario"]): scen,
        },
    )
    report = calc(template, template)
    a = claim_answers(template)
    entries = {
        side: fn("BESTENTRY", spec, bench, scen, "any") for side, spec in (("candidate", cand), ("baseline", base))
    }
    assert a["claim"] == {
        "benchmark": bench,
        "scenario": scen,
        "ratio": pytest.approx(at, rel=1e-12),
        "candidate_entry": entries["candidate"],
        "baseline_entry": entries["baseline"],
        "availability": " / ".join(fn("ENTRY", e, "availability") for e in entries.values()),
        "rounds": fn("PAIRED", base, cand, bench, scen, "any").split(": candidate")[0],  # what BREAKEVEN divides
    }
    assert a["claim"]["rounds"] == "same round (v6.1)"
    assert 2.5 <= at < a["best"]["ratio"]
    refused = fn("BREAKEVEN", base, cand, bench, scen, "available")
    assert refused.startswith("#N/A ") and "Vera Rubin" in refused
    assert a["available"]["ratio"] == refused
    assert a["available"]["candidate_entry"] == fn("BESTENTRY", cand, bench, scen, "available")
    assert a["verdict"] == "holds only with Preview hardware"
    # the reason shows in the Available-only block, nowhere else (Sources cites entries, not errors)
    where = {f"{S.CLAIMS}!{c.a1}" for c in S.AVAILABLE.cells().values()}
    assert counted(report) and {e.where for e in counted(report)} <= where
    assert all(e.text.startswith("#N/A ") for e in counted(report))


# ------------------------------------------------------------------- calc


def test_calc_of_the_template_reproduces_the_build(built: tuple[Path, B.BuildReport], tmp_path: Path) -> None:
    out = tmp_path / "calc.xlsx"
    report = calc(built[0], out)
    arrays = [p.content for sheet in S.SHEETS for b in sheet.blocks for p in b.puts()]
    filled = sum(a.rows * a.cols - 1 for a in arrays if isinstance(a, ArrayFormula))
    assert clean(report) and report.formulas == built[1].formulas
    assert report.written == report.formulas + filled  # an array formula writes every cell of its range
    before, after = values(built[0]), values(out)
    for ws in formulas(out).worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    a, b = before[ws.title][cell.coordinate].value, after[ws.title][cell.coordinate].value
                    assert a == (pytest.approx(b) if isinstance(b, float) else b), f"{ws.title}!{cell.coordinate}"
    # everything else is kept: formulas, styles, validations, protection, charts
    with zipfile.ZipFile(built[0]) as za, zipfile.ZipFile(out) as zb:
        assert za.namelist() == zb.namelist()
        assert za.read("xl/styles.xml") == zb.read("xl/styles.xml")
    assert formulas(out)[S.SIZING].protection.sheet


def test_changed_inputs_flow_to_every_dependent_output(template: Path) -> None:
    bench, scen = "llama2-70b-99.9", "Server"
    above = quote_row(0)
    edit(
        template,
        {
            (S.SIZING, WORKLOAD["benchmark"]): bench,
            (S.SIZING, WORKLOAD["utilization"]): 0.45,
            (S.QUOTES, above["price"]): 9.99,  # far above any break-even ceiling
        },
    )
    report = calc(template, template)  # in place
    assert clean(report), report.errors
    wb = values(template)
    sz, q, s, c, src = (wb[n] for n in (S.SIZING, S.QUOTES, S.SENSITIVITY, S.COMPARE, S.SOURCES))
    avail, maxg = "available", 8
    target = sz[WORKLOAD["target_with_headroom"]].value
    price = sz[WORKLOAD["price"]].value
    for i in range(len(S.CANDIDATES)):
        r = {k: sz[ref].value for k, ref in sizing_row(i).items()}
        per_gpu = fn("BEST", r["candidate"], bench, scen, avail, maxg)
        assert r["entry"] == fn("BESTENTRY", r["candidate"], bench, scen, avail, maxg)
        assert r["per_gpu"] == pytest.approx(per_gpu)
        assert r["gpus"] == fn("GPUSNEEDED", target, per_gpu, 0.45, r["gpus_per_node"])
        assert r["cost_per_mtok"] == pytest.approx(fn("COSTPERMTOK", price, per_gpu, 0.45))
    # Quotes, Sensitivity, Compare and Sources take the workload from Sizing
    assert q["B5"].value == s["B5"].value == c["B5"].value == src["B4"].value == bench
    assert q["B9"].value == 0.45
    be = fn("BREAKEVEN", "B200", "B300", bench, scen, avail, maxg)
    assert q[above["breakeven"]].value == pytest.approx(be)
    ratio = 9.99 / q[BASELINE["price"]].value
    assert q[above["ratio"]].value == pytest.approx(ratio)
    assert q[above["verdict"]].value == f"{ratio / be - 1:.1%} above break-even"
    assert q[above["cost_per_mtok"]].value == pytest.approx(
        fn("COSTPERMTOK", 9.99, fn("BEST", "B300", bench, scen, avail, maxg), 0.45)
    )
    assert s[SENS["per_gpu"]].value == pytest.approx(fn("BEST", "B300", bench, scen, avail, maxg))
    assert c[f"B{COMPARE_FIRST}"].value == pytest.approx(
        fn("BEST", c[f"A{COMPARE_FIRST}"].value, bench, scen, avail, maxg)
    )
    first = src[S.CITED.row(0)["citation"].a1].value
    entry = sz[sizing_row(0)["entry"]].value
    assert src[S.CITED.row(0)["entry"].a1].value == entry
    assert first == f"{fn('CITE', entry, bench, scen, 'entry')} {fn('CITE', entry, bench, scen, 'result')}"
    assert bench in first


def test_a_different_utilization_grid_and_accelerator(template: Path) -> None:
    edit(template, {(S.SENSITIVITY, SENS["accelerator"]): "6.1-0052", (S.SENSITIVITY, "C18"): 0.55})
    assert clean(calc(template, template))
    s = values(template)[S.SENSITIVITY]
    per_gpu = fn("PERGPU", "6.1-0052", "gpt-oss-120b", "Server")
    assert s[SENS["entry"]].value == "6.1-0052"
    assert s[SENS["per_gpu"]].value == pytest.approx(per_gpu)
    assert s[f"C{SENS_FIRST}"].value == pytest.approx(fn("COSTPERMTOK", s[f"A{SENS_FIRST}"].value, per_gpu, 0.55))


def test_titles_spell_the_workload_as_the_data_does(template: Path) -> None:
    """Typed in another case, the benchmark, scenario and availability still compute; the titles
    (and the workload shown on the other sheets) use the official spelling."""
    typed = {"benchmark": "GPT-OSS-120B", "scenario": "offline", "availability": "Available"}
    edit(template, {(S.SIZING, WORKLOAD[k]): v for k, v in typed.items()})
    edit(template, {(S.COMPARE, COMPARE_FILTERS["availability"]): "AVAILABLE"})
    calc(template, template)
    wb = values(template)
    titles = [wb[c.title.sheet][c.title.a1].value for c in (S.SENS_CHART, S.COMPARE_CHART, S.GAINS_CHART)]
    assert "gpt-oss-120b Offline, by" in titles[0]
    assert "gpt-oss-120b Offline, available, at most 8 GPUs" in titles[1]
    assert "gpt-oss-120b Offline, available" in titles[2]
    for sheet in (S.QUOTES, S.SENSITIVITY, S.COMPARE, S.CLAIMS):
        assert "offline" not in [wb[sheet][f"B{r}"].value for r in range(5, 10)], sheet
    best = fn("BEST", "B300", "gpt-oss-120b", "Offline", "available", 8)
    assert wb[S.SENSITIVITY][SENS["per_gpu"]].value == pytest.approx(best)


def test_a_blank_baseline_price_is_named(template: Path) -> None:
    """Every quote's ratio needs the baseline price: a blank one is named, not only 'required'."""
    edit(template, {(S.QUOTES, BASELINE["price"]): None})
    calc(template, template)
    q = values(template)[S.QUOTES]
    required = fn("COSTPERMTOK", None, 1.0, 0.6)
    assert required == "#VALUE! price_per_gpu_hour is required"
    named = f"{required}: {S.QUOTES}!{BASELINE['price']} is empty"
    assert q[BASELINE["cost_per_mtok"]].value == named
    for i in range(len(S.SAMPLE_QUOTES)):
        assert q[quote_row(i)["ratio"]].value == named
        assert q[quote_row(i)["verdict"]].value == named


def test_bad_inputs_give_reasoned_errors_and_name_the_cells(template: Path) -> None:
    cand, quote, third = sizing_row(5), quote_row(1), sizing_row(0)
    edit(
        template,
        {
            (S.SIZING, cand["candidate"]): "B999",  # an unknown family in an empty slot
            (S.SIZING, cand["gpus_per_node"]): 8,
            (S.SIZING, WORKLOAD["headroom"]): "lots",  # text in a number cell
            (S.QUOTES, quote["price"]): -2,  # a negative price
            (S.SENSITIVITY, "D18"): "half",  # text in a utilization cell
        },
    )
    report = calc(template, template)
    errors = {e.where: e.text for e in counted(report)}
    wb = values(template)
    sz, q = wb[S.SIZING], wb[S.QUOTES]

    unknown = fn("BESTENTRY", "B999", "gpt-oss-120b", "Server", "available", 8)
    assert unknown.startswith("#N/A ") and "B999" in unknown
    for key in ("entry", "availability", "per_gpu", "gpus", "nodes", "cost_per_mtok", "monthly_cost"):
        assert sz[cand[key]].value == unknown, key
        assert errors[f"Sizing!{cand[key]}"] == unknown

    # Excel's own error (text times a number) is a real error value in the cell; the reason is reported
    headroom = sz[WORKLOAD["target_with_headroom"]].value
    assert headroom == "#VALUE!"
    reason = errors[f"Sizing!{WORKLOAD['target_with_headroom']}"]
    assert reason.startswith("#VALUE! ") and "Sizing!B11" in reason and "'lots'" in reason
    assert sz[third["gpus"]].value == headroom  # GPUs needed depend on the target with headroom
    assert sz[third["cost_per_mtok"]].value == pytest.approx(  # the cost does not
        fn(
            "COSTPERMTOK",
            sz[WORKLOAD["price"]].value,
            sz[third["per_gpu"]].value,
            sz[WORKLOAD["utilization"]].value,
        )
    )

    negative = fn("COSTPERMTOK", -2, 1.0, 0.6)
    assert negative.startswith("#VALUE! price_per_gpu_hour")
    for key in ("cost_per_mtok", "ratio", "verdict"):
        assert q[quote[key]].value == negative, key
    assert f"Quotes!{quote['verdict']}" in errors

    half = wb[S.SENSITIVITY][f"D{SENS_FIRST}"].value
    # the text typed is named where it was typed, as a blank is
    assert half == f"{fn('COSTPERMTOK', 2.0, 1.0, 'half')}: {S.SENSITIVITY}!D{SENS_HEADER_ROW} holds it"
    assert "Sensitivity!D19" in errors
    assert "Sensitivity!C19" not in errors
    # every error cell says why: an Excel error code, then a reason (not a bare code, not a defect's catch-all)
    for where, text in errors.items():
        code, _, reason = text.partition(" ")
        assert code in ALL_ERROR_CODES and reason and "could not answer" not in reason, (where, text)
    # the bad candidate's reason stays where it is used: Sources cites entries only
    assert not [w for w in errors if w.startswith(f"{S.SOURCES}!")]
    assert unknown not in [c.value for row in wb[S.SOURCES].iter_rows() for c in row]


def test_engine_survives_unknown_functions_and_unreadable_formulas(tmp_path: Path) -> None:
    import xlsxwriter

    path = tmp_path / "odd.xlsx"
    wb = xlsxwriter.Workbook(path)
    ws = wb.add_worksheet("Odd sheet")
    ws.write_formula("A1", "=NOSUCHFUNCTION(1)")
    ws.write_formula("A2", "=A1+1")
    ws.write_formula("A3", '=_xludf.PERGPU("6.1-0052","gpt-oss-120b","Server")')
    ws.write_formula("A4", "=1+")
    ws.write_formula("A5", "=1/0")
    ws.write_formula("A6", "=Nosuch!A1+1")
    ws.write_number("B1", 2)
    wb.close()
    c = compute(path)
    # each cell caches Excel's error value (issue 19); the reasons are the report's
    shown = {ref: c.shown_value("Odd sheet", ref) for ref in ("A1", "A2", "A3", "A4", "A5", "A6")}
    why = {ref: c.errors.get(("ODD SHEET", ref)) for ref in shown}
    assert shown["A1"] == "#NAME?" and why["A1"] == "#NAME? unknown function NOSUCHFUNCTION"
    assert shown["A2"] == shown["A1"] and why["A2"] == why["A1"]
    assert shown["A3"] == pytest.approx(fn("PERGPU", "6.1-0052", "gpt-oss-120b", "Server"))
    assert shown["A4"] == "#VALUE!" and str(why["A4"]).startswith("#VALUE! cannot read the formula")
    assert shown["A5"] == "#DIV/0!" and why["A5"] == "#DIV/0! division by zero"
    assert shown["A6"] == "#REF!" and why["A6"] == "#REF! there is no sheet NOSUCH"
    assert c.where(("ODD SHEET", "A1")) == "'Odd sheet'!A1"
    out = tmp_path / "odd-calc.xlsx"
    report = calc(path, out)
    assert {e.where for e in report.errors} == {f"'Odd sheet'!A{i}" for i in (1, 2, 4, 5, 6)}
    assert values(out)["Odd sheet"]["A5"].value == "#DIV/0!"


def test_left_out_arguments_compute_as_in_eval(tmp_path: Path) -> None:
    """A left-out argument of a benchsheet function is "missing" (its default), as in Excel and
    ``benchsheet eval``; Excel's own functions keep their rule (SUM(1,,2) is 3)."""
    import xlsxwriter

    texts = {
        "A1": '=BEST("B200","gpt-oss-120b","Server",,8)',
        "A2": "=SUM(1,,2)",
        "A3": '=COSTPERMTOK(5,BEST("B200","gpt-oss-120b","Server",,8),)',
        "A4": '=_xludf.BEST("B200","gpt-oss-120b","Server", ,8)',
    }
    path = tmp_path / "missing.xlsx"
    wb = xlsxwriter.Workbook(path)
    ws = wb.add_worksheet("S")
    for ref, text in texts.items():
        ws.write_formula(ref, text)
    wb.close()
    c = compute(path)
    for ref, text in texts.items():
        want = evaluate(text.replace("_xludf.", ""))
        assert not isinstance(want, str) or not want.startswith("#"), want
        assert format_value(c.values[("S", ref)]) == format_value(want), ref
    assert c.shown_value("S", "A1") == pytest.approx(fn("BEST", "B200", "gpt-oss-120b", "Server", None, 8))
    assert c.shown_value("S", "A2") == 3
    assert c.formulas[("S", "A1")] == texts["A1"]  # reports and rewrites keep the text as written
    out = tmp_path / "missing-calc.xlsx"
    assert clean(calc(path, out))
    with zipfile.ZipFile(out) as zf:
        assert "MISSING" not in zf.read("xl/worksheets/sheet1.xml").decode()
    assert values(out)["S"]["A1"].value == pytest.approx(c.shown_value("S", "A1"))


def test_calc_writes_nothing_when_it_cannot_read(tmp_path: Path, template: Path) -> None:
    bogus = tmp_path / "bogus.xlsx"
    bogus.write_text("not a workbook")
    out = tmp_path / "out.xlsx"
    out.write_bytes(b"keep me")
    with pytest.raises(CalcError, match=r"not an \.xlsx workbook"):
        calc(bogus, out)
    assert out.read_bytes() == b"keep me"
    with pytest.raises(CalcError, match="no such file"):
        calc(tmp_path / "missing.xlsx", out)
    with pytest.raises(CalcError, match="no such folder"):
        calc(template, tmp_path / "nope" / "x.xlsx")
    csv = tmp_path / "table.csv"
    csv.write_text("a,b\n")
    with pytest.raises(CalcError, match=r"only \.xlsx or \.xlsm workbooks"):
        calc(csv, out)
    assert out.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bogus.xlsx", "edited.xlsx", "out.xlsx", "table.csv"]


def test_chart_caches_follow_the_values(template: Path) -> None:
    edit(template, {(S.SENSITIVITY, SENS["price_from"]): 7.25})
    calc(template, template)
    with zipfile.ZipFile(template) as zf:
        charts = [zf.read(n).decode() for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n)]
    # openpyxl re-wrote the charts without the c: prefix; the caches are refreshed either way
    assert any(re.search(r"<(c:)?pt idx=\"0\"><(c:)?v>7\.25</(c:)?v>", x) for x in charts)


def chart_ranges(path: Path, sheet: str) -> set[str]:
    """The category and value ranges of the charts drawing cells of ``sheet``."""
    with zipfile.ZipFile(path) as zf:
        xml = " ".join(zf.read(n).decode() for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n))
    return {m for m in re.findall(r"<(?:c:)?f>([^<]*:[^<]*)</(?:c:)?f>", xml) if m.startswith(f"{sheet}!")}


def test_charts_plot_the_rows_in_use(template: Path, table: Any) -> None:
    """Compare's chart has a bar per family the workload has, no empty slots: fewer families after
    an edit, fewer bars; more, and the chart grows again (up to the table's slots)."""
    first = S.COMPARE_TABLE.first

    def families(bench: str) -> int:
        return len(A.ranked_families(table, bench, "Server", A.Filters("available", 8)))

    for bench in ("gpt-oss-120b", "deepseek-r1", "llama2-70b-99.9"):
        if bench != "gpt-oss-120b":
            edit(template, {(S.SIZING, WORKLOAD["benchmark"]): bench})
            calc(template, template)
        last = first + min(families(bench), S.COMPARE_TABLE.slots) - 1
        assert chart_ranges(template, S.COMPARE) == {f"{S.COMPARE}!${c}${first}:${c}${last}" for c in "ABF"}, bench
    assert families("deepseek-r1") < families("gpt-oss-120b") < families("llama2-70b-99.9")


def gains_heights(path: Path) -> dict[int, float | None]:
    """The height each software-gains row has in the file, and the one its pairing text needs."""
    wb = formulas(path)
    ws, shown = wb[S.CLAIMS], values(path)[S.CLAIMS]
    width = dict(columns_of(S.CLAIMS_SHEET.widths))["G"]
    out = {}
    for i in range(S.GAINS_TABLE.slots):
        cell = S.GAINS_TABLE.row(i)["match"]
        text = shown[cell.a1].value or ""
        assert ws.column_dimensions["G"].width == pytest.approx(width + 0.71, abs=0.01)
        need = text_height(text, width, 10, 10)
        got = ws.row_dimensions[cell.row].height
        # XlsxWriter stores a height in whole pixels (0.75 pt each); calc writes it as computed
        assert got == (pytest.approx(need, abs=0.75) if need else None) or (
            need is None and got == pytest.approx(12.75)
        ), (
            cell.row,
            text,
        )
        out[cell.row] = need
    return out


def test_gains_rows_are_as_tall_as_their_text_after_calc(template: Path) -> None:
    """A pairing that takes two lines makes its row taller; after calc for another workload each
    row is as tall as its new text, not the old one's (neither program does this on opening)."""
    before = gains_heights(template)
    edit(template, {(S.SIZING, WORKLOAD["benchmark"]): "deepseek-r1"})
    calc(template, template)
    after = gains_heights(template)
    assert before != after and any(before.values())


def test_claims_chart_names_sit_left_of_the_bars(built: tuple[Path, B.BuildReport]) -> None:
    """A small loss (a bar left of 0%) moves the value axis; the systems' names stay at the left edge."""
    with zipfile.ZipFile(built[0]) as zf:
        charts = [zf.read(n).decode() for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n)]
    gains = next(x for x in charts if f"<c:f>{S.CLAIMS}!" in x)
    category_axis = re.search(r"<c:catAx>.*?</c:catAx>", gains, re.DOTALL)
    assert category_axis and '<c:tickLblPos val="low"/>' in category_axis.group(0)


def gains_axis(path: Path) -> tuple[list[float], str | None]:
    """The gains the Claims chart plots (its caches, as saved) and its value axis' fixed minimum."""
    with zipfile.ZipFile(path) as zf:
        charts = [zf.read(n).decode() for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n)]
    gains = next(x for x in charts if re.search(rf"<(?:c:)?f>{S.CLAIMS}!", x))
    bars = re.search(r"<(?:c:)?val>.*?</(?:c:)?val>", gains, re.DOTALL)
    assert bars is not None
    plotted = [float(v) for v in re.findall(r"<(?:c:)?v>([^<]*)</(?:c:)?v>", bars.group(0))]
    axis = re.search(r"<(?:c:)?valAx>.*?</(?:c:)?valAx>", gains, re.DOTALL)
    assert axis is not None
    low = re.search(r'<(?:c:)?min val="([^"]*)"/>', axis.group(0))
    return plotted, low.group(1) if low else None


def test_gains_axis_starts_at_zero_unless_a_gain_is_negative(built: tuple[Path, B.BuildReport], template: Path) -> None:
    """Auto-scaling started the axis at -10% under bars that are all gains; a real loss keeps it free."""
    plotted, low = gains_axis(built[0])
    assert plotted and min(plotted) < 0 and low is None  # gpt-oss-120b Server: one system lost 0.02%
    edit(template, {(S.SIZING, WORKLOAD["benchmark"]): "deepseek-r1"})  # Server: every gain >= 0
    calc(template, template)
    plotted, low = gains_axis(template)
    assert plotted and min(plotted) >= 0 and low == "0"
    edit(template, {(S.SIZING, WORKLOAD["scenario"]): "Offline"})  # a loss again: the 0 is cleared
    calc(template, template)
    plotted, low = gains_axis(template)
    assert min(plotted) < 0 and low is None


# ----------------------------------------------------------------- freeze


def test_freeze_keeps_values_drops_formulas(built: tuple[Path, B.BuildReport], tmp_path: Path) -> None:
    out = tmp_path / "frozen.xlsx"
    freeze(built[0], out)
    frozen, orig = formulas(out), values(built[0])
    for ws in frozen.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{ws.title}!{cell.coordinate} still has a formula"
                want = orig[ws.title][cell.coordinate].value
                want = None if want == "" else want  # empty text (in an array formula's range): a blank cell
                assert cell.value == (pytest.approx(want) if isinstance(want, float) else want)
    assert frozen[S.QUOTES][quote_row(0)["breakeven"]].value == pytest.approx(
        fn("BREAKEVEN", "B200", "B300", "gpt-oss-120b", "Server", "available", 8)
    )
    with zipfile.ZipFile(out) as zf:
        assert sum(n.startswith("xl/charts/chart") for n in zf.namelist()) == CHARTS == 7  # TCO (two), Curves, tornado
    with pytest.raises(CalcError, match="OUT must differ"):
        freeze(out, out)


# -------------------------------------------------------------------- CLI


def test_cli_build_calc_freeze(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cs.xlsx"
    assert main(["template", "build", "--out", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {path}" in out and "1.260" in out and "within break-even" in out and "above break-even" in out
    assert "B200" in out and "GB300" in out

    edit(path, {(S.SIZING, sizing_row(0)["candidate"]): "B999"})
    assert main(["template", "calc", str(path), "--out", str(tmp_path / "c.xlsx")]) == 1
    captured = capsys.readouterr()
    reason = fn("BESTENTRY", "B999", "gpt-oss-120b", "Server", "available", 8)
    assert f"{reason}\n      in Sizing!{sizing_row(0)['entry']}, " in captured.err

    assert main(["freeze", str(path), str(tmp_path / "f.xlsx")]) == 1  # written, but with the error cells
    assert (tmp_path / "f.xlsx").is_file()
    capsys.readouterr()

    (tmp_path / "bad.xlsx").write_text("nope")
    assert main(["template", "calc", str(tmp_path / "bad.xlsx")]) == 2
    err = capsys.readouterr().err
    assert "not an .xlsx workbook" in err and "nothing written" in err and "Traceback" not in err
    assert main(["template", "calc", str(tmp_path / "missing.xlsx")]) == 2
    assert main(["template", "build", "--out", str(tmp_path / "no" / "x.xlsx")]) == 2
    assert main(["freeze", str(path), str(path)]) == 2
    for args in (
        ["template", "--help"],
        ["template", "build", "--help"],
        ["template", "calc", "--help"],
        ["freeze", "--help"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 0


@pytest.fixture
def umask_022() -> Iterator[int]:
    """A known umask, so that a new file's mode (0o644) differs from a private temporary file's (0o600)."""
    saved = os.umask(0o022)
    try:
        yield 0o022
    finally:
        os.umask(saved)


def test_written_workbooks_have_ordinary_permissions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], umask_022: int
) -> None:
    """A built workbook gets a new file's usual mode; calc in place keeps the mode the file had."""
    path = tmp_path / "cs.xlsx"
    assert main(["template", "build", "--out", str(path)]) == 0
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask_022 == 0o644
    path.chmod(0o640)
    assert main(["template", "calc", str(path)]) == 0
    assert path.stat().st_mode & 0o777 == 0o640
    out = tmp_path / "copy.xlsx"
    out.write_bytes(b"")
    out.chmod(0o604)
    assert main(["template", "calc", str(path), "--out", str(out)]) == 0
    assert out.stat().st_mode & 0o777 == 0o604
    capsys.readouterr()


# ---------------------------------------------------------------- choices


def test_choices_come_from_the_table(table: Any) -> None:
    assert "gpt-oss-120b" in choices.benchmarks(table)
    assert choices.scenarios(table, "gpt-oss-120b") == ["Server", "Offline", "Interactive"]
    ranked = A.ranked_families(table, "gpt-oss-120b", "Server", A.Filters("available", 8))
    bests = [A.best(table, f, "gpt-oss-120b", "Server", A.Filters("available", 8)) for f in ranked]
    assert bests == sorted(bests, reverse=True)
    assert set(ranked) <= set(choices.families(table))


# ----------------------------------------------------------------- render

needs_rendering = pytest.mark.skipif(
    not RENDERING, reason="LibreOffice (soffice) and pdftoppm are needed to render the workbook"
)
# what a user types in LibreOffice: another workload, typed in lower case, and two typos
LO_EDITS = {
    (S.SIZING, WORKLOAD["benchmark"]): "deepseek-r1",
    (S.SIZING, WORKLOAD["scenario"]): "offline",
    (S.SIZING, sizing_row(1)["candidate"]): "B999",
    (S.QUOTES, quote_row(0)["accelerator"]): "B3OO",
}


@pytest.fixture(scope="module")
def lo_edited(built: tuple[Path, B.BuildReport], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template edited and saved in LibreOffice, then recomputed by calc in place."""
    scratch = tmp_path_factory.mktemp("lo-edit")
    path = scratch / "edited.xlsx"
    edits = "\n".join(f"cell({sheet!r}, {ref!r}, {value!r})" for (sheet, ref), value in LO_EDITS.items())
    edit_in_libreoffice(built[0], path, edits, scratch)
    report = calc(path, path)
    assert not report.ok and report.formulas > 400  # B999 and B3OO answer errors
    return path


def render(path: Path, outdir: Path) -> Path:
    done = subprocess.run([str(RENDER), str(path), str(outdir)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return outdir / f"{path.stem}.pdf"


@pytest.fixture(scope="module")
def built_pdf(built: tuple[Path, B.BuildReport], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built template printed once (PDF and a PNG per page) for every test that reads its pages."""
    return render(built[0], tmp_path_factory.mktemp("rendered"))


def chart_titles(path: Path) -> list[str]:
    """The main title of every chart in the file, as it would show: a linked cell's cache, or fixed text."""
    titles = []
    with zipfile.ZipFile(path) as zf:
        for name in sorted(n for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n)):
            xml = zf.read(name).decode()
            title = xml[xml.index("<c:title>") : xml.index("</c:title>")]
            cached = re.search(r"<c:strCache>.*?<c:v>(.*?)</c:v>", title, re.DOTALL)
            text = cached.group(1) if cached else "".join(re.findall(r"<a:t>(.*?)</a:t>", title))
            titles.append(text.replace("&amp;", "&").replace("&apos;", "'"))
    return titles


def title_cells(path: Path) -> list[str]:
    wb = values(path)
    return [wb[b.title.sheet][b.title.a1].value for sheet in S.SHEETS for b in sheet.blocks if isinstance(b, Chart)]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_chart_titles_follow_the_data_after_a_libreoffice_edit(
    built: tuple[Path, B.BuildReport], lo_edited: Path
) -> None:
    """LibreOffice saves a cell-linked title as fixed text; calc finds its cell again."""
    want = title_cells(lo_edited)
    # every title that named Sizing's workload names the new one (the Endpoints curves keep their own)
    named = [new for old, new in zip(title_cells(built[0]), want, strict=True) if "gpt-oss-120b" in old]
    assert len(named) >= 4 and all("deepseek-r1" in t for t in named if "Endpoints" not in t)
    assert sorted(chart_titles(lo_edited)) == sorted(want)
    with zipfile.ZipFile(lo_edited) as zf:  # linked again: Excel keeps them live
        charts = [zf.read(n).decode() for n in zf.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", n)]
    assert all(re.search(r"<c:title><c:tx><c:strRef><c:f>", x) for x in charts)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_gains_axis_follows_the_data_after_libreoffice(built: tuple[Path, B.BuildReport], tmp_path: Path) -> None:
    """LibreOffice saves the chart its own way; calc still fixes the axis at 0 where no gain is negative."""
    path = tmp_path / "lo.xlsx"
    edits = f"cell({S.SIZING!r}, {WORKLOAD['benchmark']!r}, 'deepseek-r1')"
    edit_in_libreoffice(built[0], path, edits, tmp_path)
    calc(path, path)
    plotted, low = gains_axis(path)
    assert plotted and min(plotted) >= 0 and low == "0"


def title_word_height(pdf: Path, first_words: str) -> float:
    """The height of the first word of a sheet's title on the printed page: the page's scale."""
    text = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    words = re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', text)
    first, second = first_words.split()
    for (y0, y1, word), (_, _, following) in itertools.pairwise(words):
        if word == first and following == second:
            return float(y1) - float(y0)
    raise AssertionError(f"{first_words!r} not printed")


def page_setup(path: Path) -> dict[str, Any]:
    wb = formulas(path)
    return {
        ws.title: (
            ws.print_area,
            bool(ws.sheet_properties.pageSetUpPr and ws.sheet_properties.pageSetUpPr.fitToPage),  # LO: False
            None
            if ws.sheet_properties.pageSetUpPr and ws.sheet_properties.pageSetUpPr.fitToPage
            else ws.page_setup.scale,
            1 if ws.page_setup.fitToWidth is None else ws.page_setup.fitToWidth,  # 1: the default
            1 if ws.page_setup.fitToHeight is None else ws.page_setup.fitToHeight,
            {k: round(d.width, 2) for k, d in ws.column_dimensions.items() if d.width and not d.hidden},
        )
        for ws in wb.worksheets
        if ws.sheet_state == "visible"
    }


@pytest.mark.slow
@needs_rendering
def test_a_long_error_in_the_last_column_keeps_the_page(
    built: tuple[Path, B.BuildReport], built_pdf: Path, lo_edited: Path, tmp_path: Path
) -> None:
    """B3OO as a quote's accelerator and B999 as a candidate give ~330-character reasons in the
    tables' last columns (Verdict, Monthly cost): they stay inside the printed area, and the pages
    print at the scale they had."""
    wb = values(lo_edited)
    for sheet, ref in ((S.QUOTES, quote_row(0)["verdict"]), (S.SIZING, sizing_row(1)["monthly_cost"])):
        shown = str(wb[sheet][ref].value)
        assert shown.startswith(("#N/A Did you mean B300? No family 'B3OO'", "#N/A No family 'B999'")), shown
        assert len(shown) > 300
    setup = page_setup(built[0])
    for sheet, table in ((S.SIZING, S.SIZING_TABLE), (S.QUOTES, S.QUOTES_TABLE)):
        widths = next(sh for sh in S.SHEETS if sh.name == sheet).widths
        hidden = {c for cols, width in widths if width == 0 for c, _ in columns_of([(cols, 0)])}
        letters = [re.sub(r"\d", "", table.column(c.key).a1().split(":")[0]) for c in table.columns]
        last = [letter for letter in letters if letter not in hidden][-1]  # hidden helper columns print nothing
        assert re.fullmatch(rf"'?{sheet}'?!\$A\$1:\${last}\$\d+", setup[sheet][0]), setup[sheet][0]
    assert page_setup(lo_edited) == setup
    before, after = built_pdf, render(lo_edited, tmp_path / "edited")
    for title in ("Cluster sizing", "Vendor quotes"):
        assert title_word_height(after, title) == pytest.approx(title_word_height(before, title), rel=0.02), title


@pytest.mark.slow
@needs_rendering
def test_no_printed_page_is_blank(built_pdf: Path) -> None:
    """Sources' empty slots printed two blank pages at the end: now every page holds something."""
    pdf = built_pdf
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]
    for page in range(1, pages + 1):
        text = subprocess.run(
            ["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert text.split(), f"page {page} of {pages} is blank"


def test_sources_repeats_its_column_headers_on_every_page(built: tuple[Path, B.BuildReport]) -> None:
    """Sources prints on several pages: a reader of the second page must not have to turn back to
    learn which column is the citation and which the derived value (print titles)."""
    ws = formulas(built[0])[S.SOURCES]
    assert ws.print_title_rows == f"${S.CITED.header_row}:${S.CITED.header_row}"


@pytest.mark.slow
@needs_rendering
def test_libreoffice_renders_numbers_and_charts(built_pdf: Path) -> None:
    pdf = built_pdf
    assert pdf.is_file() and len(list(pdf.parent.glob("cluster-sizing-*.png"))) >= len(S.SHEETS)
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        # no cell shows #NAME?: the only one is the Read me's line on LibreOffice saying when it would
        assert text.count("#NAME?") == text.count("shows #NAME? in every") == 1 and "Err:" not in text
        assert "1.260" in text and "within break-even" in text and "Lists" not in text
        assert S.XLWINGS_CONF.note[:40] not in text  # the hidden xlwings.conf sheet is not printed


def _lines_of_pages(pdf: Path) -> Iterator[list[tuple[float, float, str]]]:
    """Each rendered page's text lines as pdftotext lays them out: (left, right, text)."""
    done = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True)
    word = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>')
    for body in re.findall(r"<page [^>]*>(.*?)</page>", done.stdout, re.DOTALL):
        lines = [word.findall(line) for line in re.findall(r"<line [^>]*>(.*?)</line>", body, re.DOTALL)]
        yield [(float(w[0][0]), float(w[-1][1]), " ".join(x[2] for x in w)) for w in lines if w]


@pytest.mark.slow
@needs_rendering
def test_no_line_runs_past_the_printed_columns(built: tuple[Path, B.BuildReport], built_pdf: Path) -> None:
    """A subtitle or note in column A runs on over the empty cells to its right, and LibreOffice cuts it at the
    printed area's edge (issue 40: Curves' subtitle and first note, Sensitivity's subtitle): checked from the
    rendered PDF's text boxes, no line starting in column A ends right of every line starting further right on
    its sheet's pages (a sheet's page of notes alone is as wide as its others: TCO's)."""
    pages = list(_lines_of_pages(built_pdf))
    titles = [str(values(built[0])[sheet.name]["A1"].value) for sheet in S.SHEETS]
    starts = [i for i, lines in enumerate(pages) if lines and html.unescape(lines[0][2]) in titles] + [len(pages)]
    assert len(starts) == len(S.SHEETS) + 1, starts  # each sheet's first page found by its title
    cut = []
    for first, end in itertools.pairwise(starts):
        left = min((line[0] for lines in pages[first:end] for line in lines), default=0.0)
        inner = [line[1] for lines in pages[first:end] for line in lines if line[0] > left + 5]
        edge = max(inner, default=float("inf"))
        for page in range(first, end):
            cut += [(page + 1, text[:60]) for x0, x1, text in pages[page] if x0 <= left + 1 and x1 > edge + 3]
    assert not cut, cut


def _line_tops_of_pages(pdf: Path) -> list[list[tuple[float, str]]]:
    """Each rendered page's text lines as pdftotext lays them out: (top, text), entities decoded."""
    done = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True, check=True)
    word = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">(.*?)</word>')
    pages = []
    for body in re.findall(r"<page [^>]*>(.*?)</page>", done.stdout, re.DOTALL):
        lines = [word.findall(line) for line in re.findall(r"<line [^>]*>(.*?)</line>", body, re.DOTALL)]
        pages.append([(float(w[0][0]), html.unescape(" ".join(x[1] for x in w))) for w in lines if w])
    return pages


@pytest.mark.slow
@needs_rendering
def test_every_bar_chart_prints_whole_on_one_page(built: tuple[Path, B.BuildReport], built_pdf: Path) -> None:
    """Claims' software-gains chart printed its title and first bars at the foot of one page and the rest atop
    the next, and the tornado on Sensitivity named every other input (issue 40). Checked from the rendered PDF
    for every bar chart: the page that prints its axis title prints, above it, the chart's title and under
    that the label of every category it plots."""
    wb, pages = values(built[0]), _line_tops_of_pages(built_pdf)
    charts = [(sheet, b) for sheet in S.SHEETS for b in sheet.blocks if isinstance(b, Chart) and b.kind == "bar"]
    assert {S.CLAIMS, S.SENSITIVITY} <= {sheet.name for sheet, _ in charts}
    for sheet, chart in charts:
        title, axis = wb[sheet.name][chart.title.a1].value, chart.x_axis["name"]
        span = chart.series[0].categories
        labels = [wb[sheet.name].cell(r, span.first.col + 1).value for r in range(span.first.row, span.last.row + 1)]
        at = [(page, top) for page, lines in enumerate(pages) for top, text in lines if text == axis]
        assert len(at) == 1, (sheet.name, axis, at)
        page, bottom = at[0]
        heads = [top for top, text in pages[page] if title.startswith(text) and top < bottom]
        assert heads, f"{sheet.name}: the chart's title is not on page {page + 1} with its axis title"
        printed = {text for top, text in pages[page] if max(heads) < top < bottom}
        missing = [label for label in labels if label and label not in printed]
        assert not missing, (sheet.name, missing)


def _hidden_columns(ws: Any) -> set[int]:
    """The indexes (A = 1) of a sheet's hidden columns (openpyxl keeps a run of columns as one dimension)."""
    return {
        i
        for d in ws.column_dimensions.values()
        if d.hidden or d.width == 0
        for i in range(d.min or 0, (d.max or 0) + 1)
    }


@pytest.mark.slow
@needs_rendering
def test_every_text_a_printed_cell_holds_is_printed_whole(built: tuple[Path, B.BuildReport], built_pdf: Path) -> None:
    """A text cut by the cell to its right prints only its start (issue 40: TCO's "Power per GPU: measured or
    your input", FLEET's "none: <reason>" in its entry column, Compare's longest system name). Checked from the
    rendered PDF: each sheet's pages, in the order LibreOffice draws them (pdftotext -raw), hold every text of
    a printed cell whole, wherever it wraps (whitespace left out)."""
    done = subprocess.run(["pdftotext", "-raw", str(built_pdf), "-"], capture_output=True, text=True, check=True)
    pages = [re.sub(r"\s+", "", page) for page in done.stdout.split("\f")]
    shapes, shown = formulas(built[0]), values(built[0])
    sheets = [ws for ws in shapes.worksheets if ws.sheet_state == "visible"]
    starts, at = [], 0
    for ws in sheets:  # each sheet starts a page with its title
        title = re.sub(r"\s+", "", str(shown[ws.title]["A1"].value))
        at = next(i for i in range(at, len(pages)) if title in pages[i])
        starts.append(at)
    cut = []
    for ws, first, end in zip(sheets, starts, [*starts[1:], len(pages)], strict=True):
        printed, hidden = "".join(pages[first:end]), _hidden_columns(ws)
        left, top, right, bottom = range_boundaries(ws.print_area.split("!")[-1].replace("$", ""))
        for row in shown[ws.title].iter_rows(min_row=top, max_row=bottom, min_col=left, max_col=right):
            for cell in row:
                text = cell.value if isinstance(cell.value, str) and cell.column not in hidden else ""
                if re.sub(r"\s+", "", text) not in printed:
                    cut.append((ws.title, cell.coordinate, text[:60]))
    assert not cut, cut
