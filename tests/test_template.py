"""The cluster-sizing template: built, recomputed and frozen without Excel.

Real .xlsx files, opened with openpyxl; every figure is checked against the
catalogue functions' own answers, never against a number in product code.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from benchsheet import analysis as A
from benchsheet import choices, store
from benchsheet.catalogue import BY_NAME, call
from benchsheet.claims import GAINS_HEADER, RATIOS_HEADER
from benchsheet.cli import main
from benchsheet.engine import evaluate, format_value
from benchsheet.errors import ALL_ERROR_CODES
from benchsheet.templates import builder as B
from benchsheet.templates import sheets as S
from benchsheet.templates.layout import Cell, Chart
from benchsheet.workbook.calc import CalcError, calc, freeze
from benchsheet.workbook.compute import compute

ROOT = Path(__file__).resolve().parents[1]
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
    assert blank < count / 3
    with zipfile.ZipFile(path) as zf:  # every formula caches a value, typed
        for name in zf.namelist():
            if name.startswith("xl/worksheets/sheet"):
                xml = zf.read(name).decode()
                for cell in re.findall(r"<c [^>]*>(?:(?!</c>).)*<f>(?:(?!</c>).)*</c>", xml):
                    assert "<v>" in cell, cell
                    assert 't="str"' in cell or not cell.split("<v>")[1].startswith("</v>"), cell
    assert report.errors == {}
    # the numbers are formulas calling the catalogue, not pasted values
    assert "BREAKEVEN($B$12,B20," in wf[S.QUOTES]["I20"].value
    assert "GPUSNEEDED(" in wf[S.SIZING][sizing_row(0)["gpus"]].value
    assert "COSTPERMTOK(" in wf[S.SENSITIVITY][f"B{SENS_FIRST}"].value
    assert wf[S.COMPARE][f"B{COMPARE_FIRST}"].value.startswith('=IF(A11="","",BEST(')
    assert wf[S.READ_ME][S.DATA["rounds"].a1].value == '=DATAINFO("rounds")'
    # no full recalculation on load: it would turn the functions into #NAME? without the add-in
    with zipfile.ZipFile(path) as zf:
        assert "fullCalcOnLoad" not in zf.read("xl/workbook.xml").decode()
        assert sum(n.startswith("xl/charts/chart") for n in zf.namelist()) == CHARTS == 3


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
        assert c[f"E{r}"].value == pytest.approx(fn("MEDIANPERGPU", family, bench, scen, avail, maxg))


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
    assert calc(template, template).ok
    c = values(template)[S.COMPARE]
    assert c[first].value == pinned != ranked[0] and c[second].value == ranked[1]
    assert c[f"B{COMPARE_FIRST}"].value == pytest.approx(fn("BEST", pinned, *workload))
    edit(template, {(S.COMPARE, first): formulas(template)[S.COMPARE][second].value})  # the same text, copied
    assert calc(template, template).ok
    assert [values(template)[S.COMPARE][f"A{COMPARE_FIRST + i}"].value for i in range(3)] == ranked


def test_sources_cite_every_entry_used(built: tuple[Path, B.BuildReport]) -> None:
    wb = values(built[0])
    src = wb[S.SOURCES]
    bench, scen = src["B4"].value, src["B5"].value
    assert len(S.USES) == S.SOURCES_TABLE.slots
    cited = {}
    for use, r in zip(S.USES, range(S.SOURCES_TABLE.first, src.max_row + 1), strict=False):
        entry, citation = src[f"C{r}"].value, src[f"D{r}"].value
        assert entry == wb[use.entry.sheet][use.entry.a1].value
        if entry:
            # a claim's entries are cited for the benchmark and scenario of the claim, the rest for Sizing's
            b, s = (
                wb[c.sheet][c.a1].value if c else default
                for c, default in ((use.benchmark, bench), (use.scenario, scen))
            )
            assert citation == fn("CITE", entry, b, s)
            cited[entry] = citation
    used = {wb[S.SIZING][sizing_row(i)["entry"]].value for i in range(S.SIZING_TABLE.slots)}
    used |= {wb[S.QUOTES][quote_row(i)["entry"]].value for i in range(S.QUOTES_TABLE.slots)}
    used |= {wb[S.QUOTES][BASELINE["entry"]].value, wb[S.SENSITIVITY][SENS["entry"]].value}
    used |= {wb[S.COMPARE][f"C{COMPARE_FIRST + i}"].value for i in range(COMPARE_SLOTS)}
    claims = wb[S.CLAIMS]
    named = {
        claims[block[f"{side}_entry"].a1].value for block in ANSWERS.values() for side in ("candidate", "baseline")
    }
    assert {"6.1-0106", "6.1-0074"} <= named  # the sample claim's best pair: Vera Rubin NVL72 over GB300 NVL72
    used |= named
    for i in range(S.GAINS_TABLE.slots):
        used |= {claims[ref].value for k, ref in addresses(S.GAINS_TABLE.row(i)).items() if k.endswith("_entry")}
    assert used - {None, ""} == set(cited)
    assert all(A.TRADEMARK in text for text in cited.values())


def test_inputs_are_styled_unlocked_and_have_dropdowns(built: tuple[Path, B.BuildReport]) -> None:
    wb = formulas(built[0])
    sz = wb[S.SIZING]
    assert sz.protection.sheet
    fill = sz[WORKLOAD["benchmark"]].fill.fgColor.rgb
    for ref in (*WORKLOAD.values(), sizing_row(0)["candidate"], sizing_row(0)["gpus_per_node"]):
        cell = sz[ref]
        if ref == WORKLOAD["target_with_headroom"] or "E" in ref[:1]:
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
        }, i
    pairs = {
        (ws[S.GAINS_TABLE.row(i)["old_entry"].a1].value, ws[S.GAINS_TABLE.row(i)["new_entry"].a1].value)
        for i in range(len(want))
    }
    assert ("6.0-0002", "6.1-0003") in pairs  # AMD's 8x MI355X, the example
    with zipfile.ZipFile(built[0]) as zf:  # the bar chart draws the gains column against the systems
        xml = " ".join(zf.read(n).decode() for n in zf.namelist() if n.startswith("xl/charts/chart"))
    for key in ("system", "gain"):
        span = S.GAINS_TABLE.column(key)
        assert f"{S.CLAIMS}!${span.first.a1[0]}${span.first.row}:${span.last.a1[0]}${span.last.row}" in xml


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
    assert calc(template, template).ok
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
    }
    assert 2.5 <= at < a["best"]["ratio"]
    refused = fn("BREAKEVEN", base, cand, bench, scen, "available")
    assert refused.startswith("#N/A ") and "Vera Rubin" in refused
    assert a["available"]["ratio"] == refused
    assert a["available"]["candidate_entry"] == fn("BESTENTRY", cand, bench, scen, "available")
    assert a["verdict"] == "holds only with Preview hardware"
    # the reason shows in the Available-only block and in the Sources rows citing its entries, nowhere else
    block = set(S.AVAILABLE.cells().values())
    rows = [S.SOURCES_TABLE.row(i) for i, use in enumerate(S.USES) if use.entry in block]
    where = {f"{S.CLAIMS}!{c.a1}" for c in block} | {
        f"{S.SOURCES}!{r[k].a1}" for r in rows for k in ("entry", "citation")
    }
    assert rows and {e.where for e in report.errors} <= where
    assert all(e.text.startswith("#N/A ") for e in report.errors)


# ------------------------------------------------------------------- calc


def test_calc_of_the_template_reproduces_the_build(built: tuple[Path, B.BuildReport], tmp_path: Path) -> None:
    out = tmp_path / "calc.xlsx"
    report = calc(built[0], out)
    assert report.ok and report.formulas == report.written == built[1].formulas
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
    assert report.ok, report.errors
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
    first_cite = src[f"D{S.SOURCES_TABLE.first}"].value
    assert first_cite == fn("CITE", sz[sizing_row(0)["entry"]].value, bench, scen)
    assert bench in first_cite


def test_a_different_utilization_grid_and_accelerator(template: Path) -> None:
    edit(template, {(S.SENSITIVITY, SENS["accelerator"]): "6.1-0052", (S.SENSITIVITY, "C18"): 0.55})
    assert calc(template, template).ok
    s = values(template)[S.SENSITIVITY]
    per_gpu = fn("PERGPU", "6.1-0052", "gpt-oss-120b", "Server")
    assert s[SENS["entry"]].value == "6.1-0052"
    assert s[SENS["per_gpu"]].value == pytest.approx(per_gpu)
    assert s[f"C{SENS_FIRST}"].value == pytest.approx(fn("COSTPERMTOK", s[f"A{SENS_FIRST}"].value, per_gpu, 0.55))


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
    errors = {e.where: e.text for e in report.errors}
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
    assert half == fn("COSTPERMTOK", 2.0, 1.0, "half")
    assert "Sensitivity!D19" in errors
    assert "Sensitivity!C19" not in errors
    # every error cell says why: an Excel error code, then a reason (not a bare code, not a defect's catch-all)
    for where, text in errors.items():
        code, _, reason = text.partition(" ")
        assert code in ALL_ERROR_CODES and reason and "could not answer" not in reason, (where, text)
    # the Sources row of the bad candidate carries the same reason
    src = wb[S.SOURCES]
    r = S.SOURCES_TABLE.first + 5
    assert src[f"B{r}"].value == "B999" and src[f"D{r}"].value == unknown


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
    assert calc(path, out).ok
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
                assert cell.value == (pytest.approx(want) if isinstance(want, float) else want)
    assert frozen[S.QUOTES][quote_row(0)["breakeven"]].value == pytest.approx(
        fn("BREAKEVEN", "B200", "B300", "gpt-oss-120b", "Server", "available", 8)
    )
    with zipfile.ZipFile(out) as zf:
        assert sum(n.startswith("xl/charts/chart") for n in zf.namelist()) == CHARTS == 3
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


@pytest.mark.skipif(
    shutil.which("soffice") is None or shutil.which("pdftoppm") is None,
    reason="LibreOffice (soffice) and pdftoppm are needed to render the workbook",
)
def test_libreoffice_renders_numbers_and_charts(built: tuple[Path, B.BuildReport], tmp_path: Path) -> None:
    done = subprocess.run([str(RENDER), str(built[0]), str(tmp_path)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    pdf = tmp_path / "cluster-sizing.pdf"
    assert pdf.is_file() and len(list(tmp_path.glob("cluster-sizing-*.png"))) >= len(S.SHEETS)
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert "#NAME?" not in text and "Err:" not in text
        assert "1.260" in text and "within break-even" in text and "Lists" not in text
