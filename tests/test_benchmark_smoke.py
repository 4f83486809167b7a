"""The benchmark runs: ``benchmarks/run.py --quick`` writes every metric, and judges targets right.

CI does not run the real benchmark (benchmarks/README.md); this only checks that the
script works end to end in a few seconds, that it leaves the user's cache alone, and
that its PASS/MISS verdicts follow the targets.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests import ROOT, pyodide_harness

SCRIPT = ROOT / "benchmarks" / "run.py"

NUMBER_KEYS = (
    "scalar_us",
    "naive_us",
    "speedup",
    "dict_lookup_us",
    "vector_10k_ms",
    "vector_10k_errors_ms",
    "best_ms",
    "udf_call_us",
    "udf_column_10k_ms",
    "cold_start_ms",
    "info_cold_ms",
    "eval_cold_ms",
    "eval_vs_info",
    "eval_engine_cold_ms",
    "python_start_ms",
    "xlwings_import_ms",
    "reimport_s",
    "peak_rss_mb",
    "load_ms",
    "table_mb",
)
TEMPLATE_KEYS = ("template_build_s", "template_calc_s", "recalc_calls", "recalc_udf_ms")
CALC_KEYS = ("calc_15k_s", "calc_15k_rss_mb", "calc_3k_s", "calc_growth", "calc_15k_baseline_s")
HOSTILE_KEYS = ("running_total_s", "running_total_growth", "hostile_peak_mb")
LOOKUPS = ("vlookup", "index_match", "xlookup", "xlookup_approx", "mixed_15k", "vlookup_4x", "refs_200k")  # issue 41


def _bench_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchsheet_bench_run", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _template_importable() -> bool:
    try:
        return all(
            importlib.util.find_spec(m) is not None
            for m in ("benchsheet.templates.builder", "benchsheet.catalogue.engine")
        )
    except ImportError:
        return False


def _has_commit(commit: str) -> bool:
    """Whether this checkout's git history holds ``commit`` (a shallow clone or an sdist does not)."""
    try:
        found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True)
    except OSError:
        return False
    return found.returncode == 0


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value > 0


@pytest.mark.slow
def test_quick_run_writes_every_metric(tmp_path: Path, shared: Path, user_home: Path) -> None:
    out = tmp_path / "bench.json"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--json", str(out), "--shared", str(shared)],
        capture_output=True,
        text=True,
        timeout=600,  # a guard against a hang: on two shared cores the quick run takes one to three minutes
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(out.read_text(encoding="utf-8"))

    for key in NUMBER_KEYS:
        assert _is_number(data.get(key)), f"{key} = {data.get(key)!r}"
    # a difference of two single samples: in --quick mode it may come out below zero
    assert math.isfinite(data["cold_start_added_ms"])
    if _template_importable():
        assert data["template_available"] is True
        for key in TEMPLATE_KEYS + CALC_KEYS + HOSTILE_KEYS:
            assert _is_number(data.get(key)), f"{key} = {data.get(key)!r}"
        assert data["calc_growth"] == pytest.approx(data["calc_15k_s"] / data["calc_3k_s"])
        # issue 19's target: against the code it measured, timed in turns in this run, from git history
        if _has_commit(_bench_module().FILED):
            assert _is_number(data["calc_15k_filed_s"]), data["calc_15k_filed_s"]
            assert data["calc_15k_vs_filed"] == pytest.approx(data["calc_15k_s"] / data["calc_15k_filed_s"])
            assert data["targets"]["calc_15k_vs_filed"]["status"] in ("PASS", "MISS")
        else:
            assert data["calc_15k_filed_s"] is None and data["calc_15k_vs_filed"] is None
        # issue 41's look-ups: calc's times in --quick; LibreOffice (seconds to start) only in full runs
        assert all(_is_number(data[f"lookup_{name}_s"]) for name in LOOKUPS), data["lookups"]
        assert all(data[f"lookup_{name}_vs_lo"] is None for name in LOOKUPS)
        assert all(got["calc_poisoned"] == 0 and got["formulas"] > 0 for got in data["lookups"].values())
    else:
        assert data["template_available"] is False
        assert all(data[key] is None for key in TEMPLATE_KEYS + CALC_KEYS + HOSTILE_KEYS)

    # the xlwings Lite module in Pyodide, beside CPython's figures (null only where Node/pyodide are absent)
    pyodide_keys = ("pyodide_install_ms", "pyodide_load_ms", "pyodide_scalar_us")
    if pyodide_harness.missing() is None:
        assert all(_is_number(data[key]) for key in pyodide_keys), {k: data[k] for k in pyodide_keys}
        assert "Pyodide / CPython scalar" in proc.stdout and "Pyodide / CPython start" in proc.stdout
    else:
        assert all(data[key] is None for key in pyodide_keys)

    # the match rates are measured with --match-rate only (a quarter of an hour): null, never a guess
    assert all(data[f"match_{t}"] is None and data[f"refused_{t}"] is None for t in ("calc", "formulas", "pycel"))
    assert data["match_lead"] is None and data["targets"]["match_lead"]["status"] == "n/a"

    # the ratios are the ones measured in this run
    assert data["speedup"] == pytest.approx(data["naive_us"] / data["scalar_us"])
    assert data["cold_start_added_ms"] == pytest.approx(data["cold_start_ms"] - data["xlwings_import_ms"])
    assert data["cold_start_ms"] > data["python_start_ms"]
    assert data["machine"]["cores"] >= 1 and data["machine"]["python"]
    # xlwings' call path is printed beside the bare function of the same run
    assert f"call_udf / function         {data['udf_call_us']:.1f} us / {data['scalar_us']:.2f} us" in proc.stdout
    assert f"10,000x1 range, call_udf    {data['udf_column_10k_ms']:.1f} ms" in proc.stdout

    # every target is printed with a verdict that agrees with the JSON
    for key, target in data["targets"].items():
        assert target["status"] in ("PASS", "MISS", "n/a")
        line = next(ln for ln in proc.stdout.splitlines() if ln.startswith(f"| `{key}` |"))
        assert f"| {target['status']} |" in line
    # the run used a temporary home: the user's cache folder is untouched
    assert list(user_home.iterdir()) == []
    # the docs/speed.md block of this run has the format that page's block is checked against
    data["date"] = "2026-01-01"
    block = _bench_module().markdown(data)
    assert _table_rows(block) == _script_rows(_table_values(block))


def _table_rows(block: str) -> list[str]:
    return [ln for ln in block.splitlines() if ln.startswith("|")]


def _table_values(block: str) -> dict[str, float | None]:
    """metric -> value, as the block's table prints it ("1,930" -> 1930.0, "null" -> None)."""
    rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \|", block, flags=re.MULTILINE)
    return {key: None if text == "null" else float(text.replace(",", "")) for key, text in rows}


def _script_rows(values: dict[str, float | None]) -> list[str]:
    """The table the script prints for these values: its keys in its order, units, targets and verdicts."""
    run = _bench_module()
    return _table_rows(run.table_text({key: values.get(key) for key in run.KEYS}))


def test_the_recalculation_through_call_udf_is_timed(tmp_path: Path, shared: Path) -> None:
    """recalc_udf_ms: every call of the calc'd template through xlwings' call_udf, as many as recalc_calls counts."""
    from benchsheet.catalogue.engine import calc
    from benchsheet.templates.builder import build
    from benchsheet.templates.calls import recalc_calls

    run = _bench_module()
    built, calculated = tmp_path / "template-0.xlsx", tmp_path / "template-0-calc.xlsx"
    build(built)
    calc(built, calculated)
    calls = sum(recalc_calls(built).values())
    notes: list[str] = []
    got = run.bench_recalc_udf(run.QUICK, calculated, calls, notes)
    assert set(got) == {"recalc_udf_ms"} and _is_number(got["recalc_udf_ms"]), got
    assert notes == [
        f"recalc_udf: {calls} calls through call_udf, {run.QUICK.template} timed recalculations; "
        "VBA, COM marshalling and Excel's own work come on top"
    ]
    with pytest.raises(RuntimeError, match="calls found in the formulas"):
        run.bench_recalc_udf(run.QUICK, calculated, calls + 1, [])
    assert "recalc_udf_ms" in run.KEYS and "recalc_udf_ms" in run.TEMPLATE_KEYS


def _script(stem: str) -> ModuleType:
    """benchmarks/<stem>.py imported as a module (registered first: dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(f"benchsheet_bench_{stem}", ROOT / "benchmarks" / f"{stem}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _hostile_module() -> ModuleType:
    return _script("hostile")


def test_the_hostile_cases_report_their_peak_memory_and_the_running_total_growth(
    tmp_path: Path, user_home: Path
) -> None:
    """Issue 30: the benchmark reports the largest peak RSS of the hostile workbooks it keeps and the
    running total's growth; here with tiny sizes (each case still a calc in a fresh process)."""
    hostile, run = _hostile_module(), _bench_module()
    notes: list[str] = []
    tiny = hostile.Scale(cells=300, running=(40, 160), turns=1)
    got = hostile.measure(tiny, run.run_child, dict(os.environ), tmp_path, notes)
    assert set(hostile.KEYS) <= set(got) and set(hostile.KEYS) <= set(run.KEYS)
    assert all(_is_number(got[key]) for key in hostile.KEYS), got
    cases = got["hostile"]
    assert set(hostile.CASES) < set(cases) and got["hostile_peak_mb"] == max(c["peak_mb"] for c in cases.values())
    assert cases['="" cells']["outcome"] == "computed 300 formulas"
    assert cases["empty <f/> cells"]["outcome"] == "computed 0 formulas"
    assert cases["array formula past the last row"]["outcome"].startswith("refused: the array formula at S!B1")
    assert got["running_total_s"] == cases["running total, 160 rows"]["s"]
    assert any(n.startswith("hostile: 8 workbooks") for n in notes), notes


def test_the_readme_speed_block_is_the_scripts() -> None:
    run = _bench_module()
    page = run.PAGE.read_text(encoding="utf-8")
    assert page.count(run.SPEED_BEGIN) == 1 and page.count(run.SPEED_END) == 1
    block = page[page.index(run.SPEED_BEGIN) : page.index(run.SPEED_END) + len(run.SPEED_END)]
    values = _table_values(block)
    assert list(values) == list(run.KEYS), "run `python benchmarks/run.py --update-docs`"
    assert _table_rows(block) == _script_rows(values)
    head = re.search(r"^One run, on commit (\w+) \((\d{4}-\d\d-\d\d)\), (.+), (\d+) cores, ", block, re.MULTILINE)
    assert head, "the machine line the script writes"


def test_update_readme_replaces_only_the_block(tmp_path: Path) -> None:
    run = _bench_module()
    page = tmp_path / "speed.md"
    page.write_text(f"before\n{run.SPEED_BEGIN}\nold numbers\n{run.SPEED_END}\nafter\n", encoding="utf-8")
    run.update_page(page, f"{run.SPEED_BEGIN}\nnew\n{run.SPEED_END}")
    assert page.read_text(encoding="utf-8") == f"before\n{run.SPEED_BEGIN}\nnew\n{run.SPEED_END}\nafter\n"


def test_verdicts_follow_the_targets() -> None:
    run = _bench_module()
    assert run.verdict("scalar_us", 4.9) == "PASS"
    assert run.verdict("scalar_us", 5.1) == "MISS"
    assert run.verdict("speedup", 99.0) == "MISS"
    assert run.verdict("speedup", 100.0) == "PASS"
    assert run.verdict("template_build_s", None) == "n/a"
    assert run.verdict("naive_us", 1e9) == ""  # a baseline has no target
    assert set(run.TARGETS) <= set(run.KEYS)


def _match_module() -> ModuleType:
    return _script("match_rate")


def test_match_rates_are_judged_on_the_files_every_tool_computed() -> None:
    """A file one tool refused leaves the common rates of all tools; the lead is calc's rate minus
    the best other's, in percentage points, from the same run."""
    from tests import excel_corpus as ec

    mr = _match_module()
    results = {
        "calc": [ec.Judged("a", 10, 10), ec.Judged("b", 90, 80)],
        "formulas": [ec.Judged("a", 10, 0, failure="FormulaError"), ec.Judged("b", 90, 81)],
        "libreoffice": [ec.Judged("a", 10, 9), ec.Judged("b", 90, 60)],
    }
    s = mr.summary(results)
    assert s["files_all_computed"] == 1 and s["formulas"]["refused"] == ["a"]
    keys = mr.keys(s)
    assert keys["match_calc"] == pytest.approx(100 * 80 / 90) and keys["match_formulas"] == pytest.approx(90.0)
    assert keys["match_lead"] == pytest.approx(100 * 80 / 90 - 90.0) and keys["match_pycel"] is None
    assert keys["refused_formulas"] == 1 and keys["refused_calc"] == 0
    assert "| formulas | 1 | 81 / 100 | 81.00% | 81 / 90 = 90.00% |" in mr.table(s)
    assert set(mr.keys(None)) == set(mr.KEYS) <= set(_bench_module().KEYS)


def test_the_match_rate_takes_another_corpus(tmp_path: Path) -> None:
    """``--corpus FOLDER`` judges FOLDER/files (the held-out set, benchmarks/unseen, is never read by
    the tests: an empty stand-in here), tests/corpus without it."""
    from tests import excel_corpus as ec

    mr = _match_module()
    (tmp_path / "files" / "a").mkdir(parents=True)
    for name in ("a/one.xlsx", "two.XLSM", "notes.txt"):
        (tmp_path / "files" / name).write_bytes(b"")
    assert [p.relative_to(tmp_path).as_posix() for p in mr.corpus_files(tmp_path)] == [
        "files/a/one.xlsx",
        "files/two.XLSM",
    ]
    assert mr.corpus_files() == ec.corpus_files() and mr.UNSEEN.name == "unseen"


def test_two_sources_files_of_one_name_are_judged_apart(tmp_path: Path) -> None:
    """unseen2 holds formulas/circular.xlsx and pycel/circular.xlsx: judged by file name alone, the second's
    results replaced the first's in ``per_file``. A file is named by its path under its corpus's files/."""
    import shutil

    from tests import excel_corpus as ec

    mr = _match_module()
    src = ec.corpus_files()[0]
    for source in ("one", "two"):
        (tmp_path / "files" / source).mkdir(parents=True)
        shutil.copy(src, tmp_path / "files" / source / "same.xlsx")
    judged = [mr.run_tool("calc", p) for p in mr.corpus_files(tmp_path)]
    assert [j.file for j in judged] == ["one/same.xlsx", "two/same.xlsx"]
    assert ec.judge(src, None).file == src.relative_to(ec.FILES).as_posix()  # tests/corpus's names as before


def test_a_peer_that_reads_the_cached_values_is_not_compared(tmp_path: Path) -> None:
    """Issue 30: pycel opened by filename answered Excel's cached values (999 in every cell of a copy
    whose cached values were set to 999) and was reported at 99.6%. Every peer gets poisoned copies:
    calc recomputes them (no cell answers 999); a reader of the cached values answers them all 999
    and is left out of the comparison, saying why."""
    import openpyxl

    from tests import excel_corpus as ec

    mr = _match_module()
    files = ec.corpus_files()[:2]
    copy = mr.poison(files[0], tmp_path / ("p" + files[0].suffix))
    cached = openpyxl.load_workbook(copy, data_only=True)  # what a tool that computes nothing hands back
    judged = ec.judge(copy, {(c.sheet, c.ref): ec.normal(cached[c.sheet][c.ref].value) for c in ec.excel_values(copy)})
    assert judged.cells > 0 and judged.equal == judged.cells  # every formula cell of the copy caches 999
    assert mr.recomputes("calc", files, tmp_path) == 0.0
    results = {"calc": [ec.Judged("a", 10, 9)], "pycel": [ec.Judged("a", 10, 10)]}
    s = mr.compare(results, {"calc": 0.0, "pycel": 1.0})
    assert s["tools"] == ["calc"] and s["not_recomputing"] == {"pycel": 1.0}
    assert mr.keys(s)["match_pycel"] is None and mr.keys(s)["match_lead"] is None
    assert "pycel: not compared, not shown to recompute (100% of its cells answered 999" in mr.table(s)


def test_a_poisoned_copy_caches_one_value_even_where_excel_kept_spaces(tmp_path: Path) -> None:
    """Excel writes a cached text of spaces or a tab as ``<v xml:space="preserve">``: the poisoned copy
    held it beside the 999 (two values in one cell) and the judge failed on the whole run."""
    import zipfile

    mr = _match_module()
    src = tmp_path / "spaces.xlsx"
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
        '<c r="A1" t="str"><f>" "&amp;", "</f><v xml:space="preserve"> , </v></c>'
        '<c r="B1" t="str"><f>""</f><v/></c></row></sheetData></worksheet>'
    )
    with zipfile.ZipFile(src, "w") as z:
        z.writestr("xl/worksheets/sheet1.xml", sheet)
    with zipfile.ZipFile(mr.poison(src, tmp_path / "p.xlsx")) as z:
        part = z.read("xl/worksheets/sheet1.xml").decode()
    assert part.count("<v") == 2 and part.count("<v>999</v>") == 2 and 't="str"' not in part


def test_the_match_rate_counts_wrong_numbers_per_10000_judged_cells() -> None:
    """Issue 44's Done-when: the comparison reports, per tool, the numbers other than Excel's per
    10,000 judged cells (Excel cached a number, the tool computed another one); an error, a text or
    an empty cell where Excel has a number is not a wrong number. The count survives a worker's row."""
    from tests import excel_corpus as ec

    mr = _match_module()

    def d(excel: str, ours: str) -> ec.Difference:
        return ec.Difference("b", "S!A1", "=1", excel, ours)

    wrong = [d("17.0", "140.0"), d("-0.8", "-0.7"), d("1.0", "#NUM!"), d("1.0", "''"), d("'x'", "2.0")]
    results = {
        "calc": [ec.Judged("a", 10, 10, differences=[]), ec.Judged("b", 9990, 9985, differences=wrong)],
        "formulas": [ec.Judged("a", 10, 0, failure="FormulaError"), ec.Judged("b", 9990, 9989, differences=wrong[:1])],
    }
    rows = {tool: [mr._judged(mr._row(j)) for j in judged] for tool, judged in results.items()}
    s = mr.summary(rows)
    assert s["calc"]["wrong_numbers"] == 2 and s["calc"]["wrong_per_10k"] == pytest.approx(2.0)
    assert s["formulas"]["wrong_numbers_common"] == 1
    assert s["formulas"]["wrong_per_10k_common"] == pytest.approx(10_000 / 9990)
    assert "| calc | 0 | 9,995 / 10,000 | 99.95% | 9,985 / 9,990 = 99.95% | 2 | 2.0 |" in mr.table(s)


def _lookups_module() -> ModuleType:
    return _script("lookups")


def test_the_lookup_workloads_are_benchmark_rows_judged_against_libreoffice() -> None:
    """Issue 41: the benchmark's workload list gains the look-ups (VLOOKUP, INDEX/MATCH, XLOOKUP exact and
    approximate) and the mixed 15k workbook, each beside LibreOffice in the same run with the target "calc
    faster than LibreOffice"; a peer answering the poisoned cache's 999 (match_rate's 1% rule) or answering
    other values is not compared. LibreOffice before 24.8 has no XLOOKUP (LibreOffice 24.8 release notes:
    "New XLOOKUP and XMATCH functions"): it computes INDEX/MATCH of the same cells instead."""
    lk, run = _lookups_module(), _bench_module()
    assert set(lk.WORKLOADS) == set(LOOKUPS) and set(lk.KEYS) <= set(run.KEYS)
    assert {f"lookup_{n}_vs_lo" for n in LOOKUPS} | {"lookup_growth"} <= set(run.TARGETS)
    assert run.TARGETS["lookup_vlookup_vs_lo"] == ("<=", 1.0) and run.TARGETS["lookup_growth"] == ("<=", 5.0)
    assert lk.peer("xlookup", (7, 4)) == lk.peer("xlookup_approx", (24, 2)) == "index_match"
    assert lk.peer("xlookup", (24, 8)) == "xlookup" and lk.peer("vlookup", (7, 4)) == "vlookup"

    def got(calc_s: float, lo_poisoned: int = 0, differing: int = 0) -> dict[str, float]:
        return {"calc_s": calc_s, "formulas": 5000, "calc_poisoned": 0, "libreoffice_poisoned": lo_poisoned,
                "cells_differing": differing, "calc_vs_libreoffice": calc_s / 2.0}  # fmt: skip

    keys = lk.keys({"vlookup": got(1.0), "vlookup_4x": got(3.0), "mixed_15k": got(1.0, lo_poisoned=50)})
    assert keys["lookup_vlookup_vs_lo"] == 0.5 and keys["lookup_growth"] == 3.0
    assert keys["lookup_mixed_15k_s"] == 1.0 and keys["lookup_mixed_15k_vs_lo"] is None  # 1% answered 999
    assert lk.keys({"vlookup": got(1.0, differing=1)})["lookup_vlookup_vs_lo"] is None
    assert lk.keys({"vlookup": got(1.0, lo_poisoned=49)})["lookup_vlookup_vs_lo"] == 0.5
