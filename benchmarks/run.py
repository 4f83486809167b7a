#!/usr/bin/env python
"""How fast benchsheet answers, against naive baselines measured in the same run.

    python benchmarks/run.py [--json OUT.json] [--quick] [--shared PATH] [--strict] [--markdown] [--update-docs]

Every number comes from this one run, on this machine: the benchsheet path and the
baseline it is compared with are measured side by side, so a slow or busy machine
moves both. In-process timings call the functions of ``benchsheet.udfs.functions``
(what Excel calls: on Linux xlwings' decorators leave them as plain functions, so
each call is ``catalogue.call``). Start-up timings run fresh interpreters, taking
turns (bare Python, ``import xlwings``, the UDF module) so that drift hits all of
them alike. Nothing touches the user's cache: the run uses a temporary
``BENCHSHEET_HOME`` and hands it to every subprocess. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import io
import json
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import timeit
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
import hostile  # noqa: E402  (benchmarks/hostile.py: the hostile workbooks issue 30 keeps)
import lookups  # noqa: E402  (benchmarks/lookups.py: issue 41's look-up workloads beside LibreOffice)
import match_rate  # noqa: E402  (benchmarks/match_rate.py: the corpus judged by each calculator)

ENTRY, BENCH, SCEN = "6.1-0052", "gpt-oss-120b", "Server"
MIB = 1024 * 1024
# Issue 19 set calc_15k_s "<= 1.5 s on this machine; today 2.9 s". This machine's speed swings by 1.5-2x
# between runs (the same commit measured 1.13 s and 1.77 s twenty minutes apart), so the target is judged
# as the ratio it states, against the code of that day timed in turns in the same run: main when the
# issue was filed (the commit the session before it landed; its README run measured 3.0 s)
FILED = "12ca61f"

# key: (comparison, target), from the issue
TARGETS: dict[str, tuple[str, float]] = {
    "scalar_us": ("<=", 5.0),
    "speedup": (">=", 100.0),
    "vector_10k_ms": ("<=", 20.0),
    "cold_start_added_ms": ("<=", 200.0),
    "load_ms": ("<=", 150.0),
    "table_mb": ("<=", 50.0),
    "reimport_s": ("<=", 2.0),
    "template_build_s": ("<=", 3.0),
    "template_calc_s": ("<=", 5.0),
    "recalc_calls": ("<=", 300.0),
    "peak_rss_mb": ("<=", 150.0),
    "eval_vs_info": ("<=", 2.5),
    "calc_15k_vs_filed": ("<=", round(1.5 / 2.9, 3)),
    "calc_15k_rss_mb": ("<=", 300.0),
    "calc_growth": ("<=", 6.0),
    "running_total_growth": ("<=", 5.0),
    "hostile_peak_mb": ("<=", 1024.0),
    # issue 41: calc faster than LibreOffice on every workload class, look-ups included; linear growth
    **{k: ("<=", 1.0) for k in lookups.KEYS if k.endswith("_vs_lo")},
    "lookup_growth": ("<=", 5.0),
    "match_lead": (">=", 0.0),
}

# (key, unit, what) in the order the table prints them
ROWS: tuple[tuple[str, str, str], ...] = (
    ("scalar_us", "us", "one PERGPU through the UDF path (median)"),
    ("pyodide_scalar_us", "us", "one PERGPU of the Lite main.py inside Pyodide under Node (median)"),
    ("naive_us", "us", "same look-up, pandas filter per call (median)"),
    ("speedup", "x", "naive_us / scalar_us"),
    ("dict_lookup_us", "us", "reference: d.get((entry, bench, scen))"),
    ("udf_call_us", "us", "one PERGPU through xlwings' call_udf, COM stand-ins (median)"),
    ("udf_column_10k_ms", "ms", "same path, one call answering a 10,000x1 range"),
    ("vector_10k_ms", "ms", "one PERGPU call answering 10,000x1 entry IDs"),
    ("vector_10k_errors_ms", "ms", "same, every entry ID in the table (mostly #N/A)"),
    ("best_ms", "ms", "BEST + SPREAD for every family/benchmark/scenario"),
    ("python_start_ms", "ms", "bare interpreter (wall, median)"),
    ("xlwings_import_ms", "ms", "interpreter that imports xlwings (wall, median)"),
    ("cold_start_ms", "ms", "import UDF module + first PERGPU (wall, median)"),
    ("cold_start_added_ms", "ms", "cold_start_ms - xlwings_import_ms: benchsheet's share"),
    ("info_cold_ms", "ms", "benchsheet info in a fresh interpreter (wall, median)"),
    ("eval_cold_ms", "ms", "benchsheet eval of one PERGPU formula in a fresh interpreter (wall, median)"),
    ("eval_vs_info", "x", "eval_cold_ms / info_cold_ms: the first formula costs about what info does"),
    ("eval_engine_cold_ms", "ms", "benchsheet eval of COSTPERMTOK(5,PERGPU(...),0.5): the formula engine starts"),
    ("pyodide_install_ms", "ms", "micropip installs xlwings + benchsheet's wheel in Pyodide, local files (median)"),
    ("pyodide_load_ms", "ms", "start Pyodide + main.py through xlwings + first PERGPU (median)"),
    ("peak_rss_mb", "MiB", "peak RSS of the cold-start process (median)"),
    ("load_ms", "ms", "import benchsheet.data.store + get_table() (fresh process)"),
    ("table_mb", "MiB", "memory the loaded table holds (tracemalloc)"),
    ("reimport_s", "s", "three official files into a fresh cache (fresh process)"),
    ("template_build_s", "s", "benchsheet.templates.builder.build (fresh process)"),
    ("template_calc_s", "s", "excelcalc.workbook.calc.calc (fresh process)"),
    ("recalc_calls", "calls", "benchsheet function calls a full recalculation of the built template makes"),
    ("recalc_udf_ms", "ms", "those calls, each through xlwings' call_udf as Excel makes it, COM stand-ins (median)"),
    ("calc_15k_s", "s", "template calc of 5,000 rows x 3 formulas (PERGPU, COSTPERMTOK, GPUSNEEDED; fresh process)"),
    ("calc_15k_rss_mb", "MiB", "peak RSS of that process"),
    ("calc_15k_filed_s", "s", f"the same sheet, computed by main as issue 19 found it ({FILED}), in turns"),
    ("calc_15k_vs_filed", "x", "calc_15k_s / calc_15k_filed_s (issue 19: 1.5 s where that code took 2.9 s)"),
    ("calc_3k_s", "s", "same sheet, 1,000 rows x 3 formulas"),
    ("calc_growth", "x", "calc_15k_s / calc_3k_s (5x the formulas: linear is 5)"),
    ("calc_15k_baseline_s", "s", "the 15,000 formulas computed as before issue 13 (formulas' ExcelModel)"),
    ("calc_15k_baseline_rss_mb", "MiB", "peak RSS of that process"),
    ("running_total_s", "s", "template calc of =A2+SUM($A$2:A2) filled down 100,000 rows (the calc, fresh process)"),
    ("running_total_growth", "x", "running_total_s / the same for 25,000 rows (4x the rows: linear is 4)"),
    ("hostile_peak_mb", "MiB", "largest peak RSS of the hostile workbooks' calcs (1M empty formulas, 1M =A<i>, ...)"),
    ("lookup_vlookup_s", "s", "calc of =VLOOKUP(C2,$A$2:$B$5001,2,FALSE) filled down 5,000 rows (fresh process)"),
    ("lookup_vlookup_vs_lo", "x", "lookup_vlookup_s / LibreOffice's, each less its table-only run"),
    ("lookup_index_match_s", "s", "calc of =INDEX($B$2:$B$5001,MATCH(C2,$A$2:$A$5001,0)), 5,000 rows (fresh process)"),
    ("lookup_index_match_vs_lo", "x", "lookup_index_match_s / LibreOffice's, each less its table-only run"),
    ("lookup_xlookup_s", "s", "calc of =XLOOKUP(C2,$A$2:$A$5001,$B$2:$B$5001), 5,000 rows (fresh process)"),
    ("lookup_xlookup_vs_lo", "x", "the same against LibreOffice's INDEX/MATCH (no XLOOKUP before LibreOffice 24.8)"),
    ("lookup_xlookup_approx_s", "s", "calc of =XLOOKUP(C2+0.5,...,,-1) (next smaller key), 5,000 rows (fresh process)"),
    (
        "lookup_xlookup_approx_vs_lo",
        "x",
        "the same against LibreOffice's INDEX/MATCH (no XLOOKUP before LibreOffice 24.8)",
    ),
    ("lookup_mixed_15k_s", "s", "calc of a VLOOKUP, an INDEX/MATCH and an IF per row: 15,000 formulas, 5,000 rows"),
    ("lookup_mixed_15k_vs_lo", "x", "lookup_mixed_15k_s / LibreOffice's, each less its table-only run"),
    ("lookup_vlookup_4x_s", "s", "calc of that VLOOKUP over 20,000 rows: 4x the rows and look-ups (fresh process)"),
    ("lookup_vlookup_4x_vs_lo", "x", "lookup_vlookup_4x_s / LibreOffice's, each less its table-only run"),
    ("lookup_refs_200k_s", "s", "calc of =B2 filled down 200,000 rows: plain references (fresh process)"),
    ("lookup_refs_200k_vs_lo", "x", "lookup_refs_200k_s / LibreOffice's, each less its table-only run"),
    ("lookup_growth", "x", "lookup_vlookup_4x_s / lookup_vlookup_s (4x the rows and look-ups: linear is 4)"),
    ("match_calc", "%", "calc: cells equal to Excel's on the corpus files every tool computed (--match-rate)"),
    ("match_formulas", "%", "the formulas package alone, same cells"),
    ("match_libreoffice", "%", "LibreOffice's recalculation (headless, recalc on load), same cells"),
    ("match_pycel", "%", "pycel, same cells (where it is installed)"),
    ("match_lead", "pp", "match_calc - the best of the others: calc ahead"),
    ("match_files_common", "files", "of the 199 Excel-saved workbooks, computed by every tool"),
    ("refused_calc", "files", "workbooks calc refused or failed on"),
    ("refused_formulas", "files", "workbooks formulas refused or failed on"),
    ("refused_libreoffice", "files", "workbooks LibreOffice wrote nothing for, or not in time"),
    ("refused_pycel", "files", "workbooks pycel refused or failed on"),
)
TEMPLATE_KEYS = ("template_build_s", "template_calc_s", "recalc_calls", "recalc_udf_ms")
CALC_KEYS = (
    "calc_15k_s",
    "calc_15k_rss_mb",
    "calc_15k_filed_s",
    "calc_15k_vs_filed",
    "calc_3k_s",
    "calc_growth",
    "calc_15k_baseline_s",
    "calc_15k_baseline_rss_mb",
)
KEYS = tuple(k for k, _, _ in ROWS)


@dataclass(frozen=True)
class Reps:
    """How many times each thing is measured."""

    scalar_number: int
    scalar_repeat: int
    naive_number: int
    naive_repeat: int
    vector: int
    sweep: int
    start: int  # fresh interpreters of each kind
    reimport: int
    template: int
    pyodide: int  # fresh Pyodide runtimes (each times its own scalar calls too)
    calc: int  # fresh processes computing each generated workbook
    calc_rows: tuple[int, int]  # rows of the large and the small generated workbook (3 formulas a row)


FULL = Reps(20_000, 15, 200, 9, 15, 9, 11, 5, 3, 3, 5, (5_000, 1_000))
QUICK = Reps(300, 3, 5, 3, 2, 1, 1, 1, 1, 1, 1, (100, 20))


# ------------------------------------------------------------------ helpers


def per_call_us(fn: Callable[[], object], number: int, repeat: int) -> float:
    """Median over ``repeat`` batches of the time of one call, in microseconds (GC on)."""
    fn()  # warm
    times = timeit.Timer(fn, setup="gc.enable()", globals={"gc": gc}).repeat(repeat=repeat, number=number)
    return statistics.median(times) / number * 1e6


def median_ms(fn: Callable[[], object], times: int) -> float:
    fn()  # warm
    samples = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples)


@dataclass(frozen=True)
class Child:
    wall_ms: float
    maxrss_mib: float
    stdout: str


def run_child(code: str, env: dict[str, str], args: Sequence[str] = (), tmp: Path | None = None) -> Child:
    """Run ``python -c code`` in a fresh interpreter: wall time and that process's own peak RSS."""
    with tempfile.TemporaryFile(dir=tmp) as out, tempfile.TemporaryFile(dir=tmp) as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - t0) * 1e3
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        raise RuntimeError(f"subprocess failed ({proc.returncode}):\n{code}\n{stderr[-3000:]}")
    return Child(wall, usage.ru_maxrss / 1024, stdout)  # ru_maxrss is in KiB on Linux


def last_json(text: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return doc


# ------------------------------------------------------------- in-process


def bench_in_process(reps: Reps, notes: list[str]) -> dict[str, Any]:
    import pandas as pd

    from benchsheet.data import store
    from benchsheet.data.table import COLUMNS

    functions = importlib.import_module("benchsheet.udfs.functions")  # what Excel imports (UDF_MODULES)

    store.set_table(None)
    table = store.get_table()
    pergpu: Callable[..., Any] = functions.PERGPU
    answer = pergpu(ENTRY, BENCH, SCEN)
    if not isinstance(answer, float):
        raise RuntimeError(f"PERGPU({ENTRY}, {BENCH}, {SCEN}) answered {answer!r}, not a number")
    out: dict[str, Any] = {"answer": answer, "rows": len(table.rows), "origin": str(table.origin)}

    out["scalar_us"] = per_call_us(lambda: pergpu(ENTRY, BENCH, SCEN), reps.scalar_number, reps.scalar_repeat)

    # The reference: the cheapest possible answer, one dictionary access on a tuple key.
    d = {(r.entry, r.benchmark, r.scenario): r for r in table.rows}
    e, b, s = ENTRY, BENCH, SCEN
    out["dict_lookup_us"] = per_call_us(lambda: d.get((e, b, s)), reps.scalar_number * 10, reps.scalar_repeat)

    # The naive baseline: the table as a DataFrame, filtered per call as a pandas user would.
    columns = list(COLUMNS)
    df = pd.DataFrame([[getattr(r, c) for c in columns] for r in table.rows], columns=columns)

    def naive(entry: str, benchmark: str, scenario: str) -> float:
        m = df[(df.entry == entry) & (df.benchmark == benchmark) & (df.scenario == scenario)]
        return float(m["result"].iloc[0]) / int(m["gpus"].iloc[0])

    if not math.isclose(naive(ENTRY, BENCH, SCEN), answer):
        raise RuntimeError("the naive baseline answers differently from PERGPU")
    out["naive_us"] = per_call_us(lambda: naive(ENTRY, BENCH, SCEN), reps.naive_number, reps.naive_repeat)
    out["speedup"] = out["naive_us"] / out["scalar_us"]

    # Vector: a 10,000x1 range of real entry IDs that have the benchmark (a few of them are
    # heterogeneous and answer #N/A, as in a real column), in a fixed shuffled order.
    rng = random.Random(5)
    ids = sorted({r.entry for r in table.rows if r.benchmark == BENCH and r.scenario == SCEN})
    column = [[ids[i % len(ids)]] for i in range(10_000)]
    rng.shuffle(column)
    answers = pergpu(column, BENCH, SCEN)
    numbers = sum(isinstance(a[0], float) for a in answers)
    if len(answers) != 10_000 or any(len(a) != 1 for a in answers) or numbers < 9_000:
        raise RuntimeError(f"the vector call answered {numbers} numbers, not a 10,000x1 column of them")
    out["vector_10k_ms"] = median_ms(lambda: pergpu(column, BENCH, SCEN), reps.vector)
    out["column"] = column  # for bench_udf: the same cells
    notes.append(f"vector: {len(ids)} distinct entry IDs, {numbers} of 10,000 cells answer a number")

    every = sorted({r.entry for r in table.rows})
    mixed = [[every[i % len(every)]] for i in range(10_000)]
    rng.shuffle(mixed)
    out["vector_10k_errors_ms"] = median_ms(lambda: pergpu(mixed, BENCH, SCEN), reps.vector)

    # BEST and SPREAD over the whole table: every closed (family, benchmark, scenario) with a
    # per-GPU value, and SPREAD for every system size it has.
    combos: dict[tuple[str, str, str], set[int]] = {}
    for r in table.rows:
        if r.division == "closed" and r.throughput and not r.heterogeneous and r.family and r.gpus > 0:
            combos.setdefault((r.family, r.benchmark, r.scenario), set()).add(r.gpus)
    best: Callable[..., Any] = functions.BEST
    spread: Callable[..., Any] = functions.SPREAD
    calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    for (fam, bench, scen), sizes in sorted(combos.items()):
        calls.append((best, (fam, bench, scen, "any")))
        calls.extend((spread, (fam, bench, scen, n, "any")) for n in sorted(sizes))

    def sweep() -> list[Any]:
        return [f(*a) for f, a in calls]

    errors = sum(isinstance(v, str) for v in sweep())
    out["best_ms"] = median_ms(sweep, reps.sweep)
    notes.append(
        f"best: {len(combos)} BEST and {len(calls) - len(combos)} SPREAD calls, {errors} answer an error "
        f"(a size only in an older round); {out['best_ms'] * 1e3 / len(calls):.1f} us a call"
    )
    return out


def bench_udf(reps: Reps, column: list[list[str]], answer: float, notes: list[str]) -> dict[str, Any]:
    """PERGPU as Excel on Windows calls it, minus Excel: xlwings' own ``call_udf`` and ``_xlwindows``
    (reading the range argument, cleaning its values, converting the answer back) under the stand-ins
    for pywin32 that the tests use (tests/xlwings_windows.py). The VBA wrapper, COM marshalling and
    the add-in's configuration reads are not in it."""
    try:
        import pytest

        sys.path.insert(0, str(ROOT))
        from tests.xlwings_windows import cell, windows_xlwings
        from tests.xlwings_windows import column as com_column
    except ImportError as exc:  # the harness needs the test extras
        notes.append(f"udf: xlwings' Windows call path not available ({exc}); udf_* are null")
        return {"udf_call_us": None, "udf_column_10k_ms": None}
    out: dict[str, Any] = {}
    want = importlib.import_module("benchsheet.udfs.functions").PERGPU(column, BENCH, SCEN)  # as on Linux
    with pytest.MonkeyPatch.context() as mp, windows_xlwings(mp) as win:
        entry, cells = cell(ENTRY), com_column([c[0] for c in column])
        got = win.call("PERGPU", entry, BENCH, SCEN)
        if got != [[answer]]:
            raise RuntimeError(f"PERGPU through call_udf answered {got!r}, not [[{answer!r}]]")
        if win.call("PERGPU", cells, BENCH, SCEN) != want:
            raise RuntimeError("the 10,000x1 range answers differently through call_udf")
        number = max(reps.scalar_number // 20, 10)
        out["udf_call_us"] = per_call_us(lambda: win.call("PERGPU", entry, BENCH, SCEN), number, reps.scalar_repeat)
        out["udf_column_10k_ms"] = median_ms(lambda: win.call("PERGPU", cells, BENCH, SCEN), reps.vector)
    notes.append(
        f"udf: {reps.scalar_repeat} batches of {number:,} calls; the entry ID a worksheet cell, benchmark and "
        "scenario constants, as VBA passes them; Excel's own cost per call comes on top (README)"
    )
    return out


# -------------------------------------------------------------- processes

COLD = f"from benchsheet.udfs import functions\nprint(repr(functions.PERGPU({ENTRY!r}, {BENCH!r}, {SCEN!r})))\n"
INFO_CLI = "import sys\nfrom benchsheet.cli import main\nsys.exit(main(['info']))\n"
FORMULA = f'=PERGPU("{ENTRY}","{BENCH}","{SCEN}")'
EVAL_CLI = f"import sys\nfrom benchsheet.cli import main\nsys.exit(main(['eval', {FORMULA!r}]))\n"
NESTED = f"=COSTPERMTOK(5,{FORMULA[1:]},0.5)"  # the finance example: a nested call, computed by the engine
EVAL_ENGINE_CLI = f"import sys\nfrom benchsheet.cli import main\nsys.exit(main(['eval', {NESTED!r}]))\n"
LOAD = """
import json, time
t0 = time.perf_counter()
from benchsheet.data.store import get_table
table = get_table()
ms = (time.perf_counter() - t0) * 1e3
print(json.dumps({"ms": ms, "rows": len(table.rows), "origin": str(table.origin)}))
"""
TABLE_MEMORY = """
import gc, json, tracemalloc
from benchsheet.data import store
tracemalloc.start()
table = store.get_table()
gc.collect()
held, peak = tracemalloc.get_traced_memory()
print(json.dumps({"held": held, "peak": peak, "rows": len(table.rows)}))
"""
REIMPORT = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from benchsheet.data.refresh import Policy, refresh
from benchsheet.data.snapshot import ROUND_FILES
from benchsheet.data.store import user_cache
table = refresh([str(Path(sys.argv[1]) / rel) for rel in ROUND_FILES], Policy())
s = time.perf_counter() - t0
print(json.dumps({"s": s, "rows": len(table.rows), "origin": str(table.origin), "cache": user_cache().is_file()}))
"""
BUILD = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from benchsheet.templates.builder import build
build(Path(sys.argv[1]))
print(json.dumps({"s": time.perf_counter() - t0}))
"""
CALC = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from benchsheet.catalogue.engine import calc
calc(Path(sys.argv[1]), Path(sys.argv[2]))
print(json.dumps({"s": time.perf_counter() - t0}))
"""
GENERATE = """
import sys
from pathlib import Path
import openpyxl
from benchsheet.data.store import get_table
rows = get_table().rows
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Results"
ws.append(["entry", "benchmark", "scenario", "per GPU", "$/Mtok", "GPUs"])
for i in range(int(sys.argv[2])):
    r, n = rows[i % len(rows)], i + 2
    ws.append([r.entry, r.benchmark, r.scenario, f"=PERGPU(A{n},B{n},C{n})",
               f'=IF(ISNUMBER(D{n}),COSTPERMTOK(3,D{n},0.6),"")',
               f'=IF(ISNUMBER(D{n}),GPUSNEEDED(1000000,D{n},0.6,8),"")'])
wb.save(sys.argv[1])
"""
CALC_BASELINE = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
sys.path.insert(0, sys.argv[3])
from calc_baseline import compute
from excelcalc.workbook.xlsxfile import cached_values, rewrite
computed = compute(Path(sys.argv[1]))
rewrite(Path(sys.argv[1]), Path(sys.argv[2]), cached_values(computed))
print(json.dumps({"s": time.perf_counter() - t0, "formulas": len(computed.formulas)}))
"""
CALC_FILED = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
sys.path.insert(0, sys.argv[3])
import benchsheet
if not benchsheet.__file__.startswith(sys.argv[3]):
    raise SystemExit(f"benchsheet imported from {benchsheet.__file__}, not from {sys.argv[3]}")
from benchsheet.templates.calc import calc
r = calc(Path(sys.argv[1]), Path(sys.argv[2]))
print(json.dumps({"s": time.perf_counter() - t0, "formulas": r.formulas}))
"""
CALC_SHEET = """
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from benchsheet.catalogue.engine import calc
r = calc(Path(sys.argv[1]), Path(sys.argv[2]))
print(json.dumps({"s": time.perf_counter() - t0, "formulas": r.formulas}))
"""


def start_env(base: dict[str, str], pycache: Path) -> dict[str, str]:
    """Byte code cached as in an installed package (pip compiles it): in a folder of this run."""
    env = dict(base)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def bench_processes(
    reps: Reps, env: dict[str, str], tmp: Path, shared: Path, answer: float, notes: list[str], quick: bool = False
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kinds = {
        "python_start_ms": "pass",
        "xlwings_import_ms": "import xlwings",
        "cold_start_ms": COLD,
        "info_cold_ms": INFO_CLI,
        "eval_cold_ms": EVAL_CLI,
        "eval_engine_cold_ms": EVAL_ENGINE_CLI,
    }
    if quick:  # no warm-up: the smoke test only checks that every number is there
        senv = env
    else:
        senv = start_env(env, tmp / "pycache")
        for code in (*kinds.values(), LOAD):  # warm: byte code written, files in the OS cache
            run_child(code, senv, tmp=tmp)
    walls: dict[str, list[float]] = {k: [] for k in kinds}
    rss: list[float] = []
    for _ in range(reps.start):  # taking turns, so that drift hits every kind alike
        for key, code in kinds.items():
            child = run_child(code, senv, tmp=tmp)
            walls[key].append(child.wall_ms)
            if key == "cold_start_ms":
                if float(child.stdout.strip()) != answer:
                    raise RuntimeError(f"cold start answered {child.stdout.strip()}, in-process {answer}")
                rss.append(child.maxrss_mib)
            if key == "eval_cold_ms" and float(child.stdout.strip()) != answer:
                raise RuntimeError(f"benchsheet eval answered {child.stdout.strip()}, in-process {answer}")
            if key == "eval_engine_cold_ms" and not float(child.stdout.strip()) > 0:
                raise RuntimeError(f"benchsheet eval {NESTED} answered {child.stdout.strip()}")
    out.update({k: statistics.median(v) for k, v in walls.items()})
    out["eval_vs_info"] = out["eval_cold_ms"] / out["info_cold_ms"]
    out["cold_start_added_ms"] = out["cold_start_ms"] - out["xlwings_import_ms"]
    out["peak_rss_mb"] = statistics.median(rss)

    loads = [last_json(run_child(LOAD, senv, tmp=tmp).stdout) for _ in range(reps.start)]
    out["load_ms"] = statistics.median(x["ms"] for x in loads)
    mem = last_json(run_child(TABLE_MEMORY, senv, tmp=tmp).stdout)
    out["table_mb"] = mem["held"] / MIB
    notes.append(f"table: {mem['rows']} rows ({loads[0]['origin']}), load peak {mem['peak'] / MIB:.1f} MiB")

    secs = []
    for i in range(reps.reimport):
        home = tmp / f"reimport-{i}"
        home.mkdir()
        got = last_json(run_child(REIMPORT, {**senv, "BENCHSHEET_HOME": str(home)}, [str(shared)], tmp).stdout)
        if not got["cache"] or got["origin"] != "user":
            raise RuntimeError(f"re-import did not write a user cache: {got}")
        secs.append(got["s"])
    out["reimport_s"] = statistics.median(secs)
    return out


def template_api() -> str | None:
    """None when the template builder and calc can be imported, else why not."""
    try:
        builder = importlib.import_module("benchsheet.templates.builder")
        calc = importlib.import_module("benchsheet.catalogue.engine")
    except ImportError as exc:
        return f"not importable yet ({exc})"
    if not callable(getattr(builder, "build", None)) or not callable(getattr(calc, "calc", None)):
        return "benchsheet.templates.builder.build / benchsheet.catalogue.engine.calc missing"
    return None


def bench_templates(reps: Reps, env: dict[str, str], tmp: Path, notes: list[str]) -> dict[str, Any]:
    why = template_api()
    if why is not None:
        notes.append(f"template: {why}; {', '.join(TEMPLATE_KEYS)} are null")
        return {"template_available": False, **dict.fromkeys(TEMPLATE_KEYS)}
    build, calc = [], []
    for i in range(reps.template):
        src, dst = tmp / f"template-{i}.xlsx", tmp / f"template-{i}-calc.xlsx"
        build.append(last_json(run_child(BUILD, env, [str(src)], tmp).stdout)["s"])
        calc.append(last_json(run_child(CALC, env, [str(src), str(dst)], tmp).stdout)["s"])
    notes.append("template: each step in a fresh process, timed from its import to its return")
    counted = importlib.import_module("benchsheet.templates.calls").recalc_calls(tmp / "template-0.xlsx")
    return {
        "template_available": True,
        "template_build_s": statistics.median(build),
        "template_calc_s": statistics.median(calc),
        "recalc_calls": sum(counted.values()),
        **bench_recalc_udf(reps, tmp / "template-0-calc.xlsx", sum(counted.values()), notes),
    }


def bench_recalc_udf(reps: Reps, calculated: Path, calls: int, notes: list[str]) -> dict[str, Any]:
    """A full recalculation of the built template as the add-in answers it, minus Excel: every benchsheet call of
    its formulas (nested ones too) through xlwings' own ``call_udf`` under the pywin32 stand-ins, each argument
    as Excel hands it to the VBA wrapper, prepared as tests/excelcalc/workbook/test_workbook_excel.py does (a
    reference: a worksheet range of the calc'd values under the cell's number format; a literal as VBA passes
    it; a nested expression its value). The arguments are prepared first: the time is the calls alone.
    ``calculated``: the template after ``template calc``; ``calls``: what ``recalc_calls`` counted."""
    try:
        import pytest

        sys.path.insert(0, str(ROOT))
        from tests.excelcalc.workbook import test_workbook_excel as excel_path
        from tests.xlwings_windows import MISSING, windows_xlwings
    except ImportError as exc:  # the harness needs the test extras
        notes.append(f"recalc_udf: xlwings' Windows call path not available ({exc}); recalc_udf_ms is null")
        return {"recalc_udf_ms": None}
    from benchsheet.catalogue.functions import BY_NAME

    book = excel_path.load(calculated)
    prepared = []
    try:
        for c in excel_path.every_call(book):
            args = [excel_path.excel_arg(book, c, a) for a in c.args]
            prepared.append((c.name, (*args, *[MISSING] * (len(BY_NAME[c.name].args) - len(args)))))
    except (KeyError, ValueError, IndexError) as exc:  # the tests' harness cannot read an argument: say which
        notes.append(f"recalc_udf: the tests' harness could not prepare a call ({exc!r}); recalc_udf_ms is null")
        return {"recalc_udf_ms": None}
    if len(prepared) != calls:
        raise RuntimeError(f"{len(prepared)} calls found in the formulas, recalc_calls counted {calls}")
    with pytest.MonkeyPatch.context() as mp, windows_xlwings(mp) as win:

        def recalc() -> None:
            for name, args in prepared:
                win.call(name, *args)

        ms = median_ms(recalc, reps.template)  # warmed once: the table is loaded before the first timed run
    notes.append(
        f"recalc_udf: {len(prepared)} calls through call_udf, {reps.template} timed recalculations; "
        "VBA, COM marshalling and Excel's own work come on top"
    )
    return {"recalc_udf_ms": ms}


def filed_tree(tmp: Path) -> Path | None:
    """benchsheet as it was at ``FILED``, from this checkout's git history, laid out as its pyproject installed
    it (templates/ as benchsheet.templates): the folder to put first on sys.path, or None where git or the
    commit is not there (a shallow clone, an unpacked sdist)."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", FILED, "src", "templates"], capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    where = tmp / "filed"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    (where / "templates").rename(where / "src" / "benchsheet" / "templates")
    return where / "src"


def bench_calc(reps: Reps, env: dict[str, str], tmp: Path, notes: list[str]) -> dict[str, Any]:
    """``template calc`` of a generated results sheet (issue 13), in fresh processes, taking turns with the
    code issue 19 measured (``FILED``), and against the approach before issue 13 measured in the same run."""
    why = template_api()
    if why is not None:
        notes.append(f"calc: {why}; the calc_* keys are null")
        return dict.fromkeys(CALC_KEYS)
    big, small = tmp / "calc-big.xlsx", tmp / "calc-small.xlsx"
    for path, rows in ((big, reps.calc_rows[0]), (small, reps.calc_rows[1])):
        run_child(GENERATE, env, [str(path), str(rows)], tmp)

    def timed(code: str, src: Path, extra: Sequence[str] = (), child_env: dict[str, str] = env) -> tuple[float, float]:
        child = run_child(code, child_env, [str(src), str(tmp / "calc-out.xlsx"), *extra], tmp)
        got = last_json(child.stdout)
        if got["formulas"] != 3 * (reps.calc_rows[0] if src == big else reps.calc_rows[1]):
            raise RuntimeError(f"calc computed {got['formulas']} formulas of {src.name}")
        return got["s"], child.maxrss_mib

    filed = filed_tree(tmp)
    filed_env = {**env, "BENCHSHEET_HOME": str(tmp / "filed-home")}  # its own bundled table, never a newer cache
    timed(CALC_SHEET, small)  # unmeasured: byte code written, files in the OS cache
    if filed is not None:
        timed(CALC_FILED, small, [str(filed)], filed_env)
    large, rss, little, before = [], [], [], []
    for _ in range(reps.calc):  # taking turns
        s, m = timed(CALC_SHEET, big)
        large.append(s)
        rss.append(m)
        little.append(timed(CALC_SHEET, small)[0])
        if filed is not None:
            before.append(timed(CALC_FILED, big, [str(filed)], filed_env)[0])
    base_s, base_rss = timed(CALC_BASELINE, big, [str(ROOT / "benchmarks")])
    out = {
        "calc_15k_s": statistics.median(large),
        "calc_15k_rss_mb": statistics.median(rss),
        "calc_15k_filed_s": statistics.median(before) if before else None,
        "calc_3k_s": statistics.median(little),
        "calc_15k_baseline_s": base_s,
        "calc_15k_baseline_rss_mb": base_rss,
    }
    out["calc_growth"] = out["calc_15k_s"] / out["calc_3k_s"]
    out["calc_15k_vs_filed"] = out["calc_15k_s"] / out["calc_15k_filed_s"] if before else None
    notes.append(
        f"calc: generated sheets of {reps.calc_rows[0]:,} and {reps.calc_rows[1]:,} rows x 3 formulas, each calc "
        f"in a fresh process ({reps.calc} times, taking turns with the code of {FILED}), timed from its import "
        "to its return"
        + ("" if before else f" ({FILED} is not in this checkout's git history: calc_15k_filed_s is null)")
        + f"; the baseline (benchmarks/calc_baseline.py, the code before issue 13) once; "
        f"{out['calc_15k_baseline_s'] / out['calc_15k_s']:.1f}x faster than it"
    )
    return out


def bench_hostile(quick: bool, env: dict[str, str], tmp: Path, notes: list[str]) -> dict[str, Any]:
    """The hostile workbooks of issue 30, each calc'd in a fresh process (benchmarks/hostile.py)."""
    why = template_api()
    if why is not None:
        notes.append(f"hostile: {why}; {', '.join(hostile.KEYS)} are null")
        return dict.fromkeys(hostile.KEYS)
    return hostile.measure(hostile.QUICK if quick else hostile.FULL, run_child, env, tmp, notes)


def bench_lookups(quick: bool, env: dict[str, str], tmp: Path, notes: list[str]) -> dict[str, Any]:
    """Issue 41's look-up workloads, calc and LibreOffice in the same run (benchmarks/lookups.py)."""
    why = template_api()
    if why is not None:
        notes.append(f"look-ups: {why}; the lookup_* keys are null")
        return dict.fromkeys(lookups.KEYS)
    return lookups.bench(quick, run_child, env, tmp, notes)


def bench_pyodide(reps: Reps, tmp: Path, notes: list[str]) -> dict[str, Any]:
    """The xlwings Lite module in the real Pyodide runtime under Node (tests/pyodide), offline."""
    sys.path.insert(0, str(ROOT))
    from tests import pyodide_harness

    why = pyodide_harness.missing()
    if why is not None:
        notes.append(f"pyodide: {why}; pyodide_install_ms, pyodide_load_ms and pyodide_scalar_us are null")
        return {"pyodide_install_ms": None, "pyodide_load_ms": None, "pyodide_scalar_us": None}
    wheel = pyodide_harness.build_wheel(tmp / "pyodide")
    job = {"cases": ['=GPUS("6.1-0052")'], "scalar_repeat": reps.scalar_repeat}
    runs = [pyodide_harness.run(wheel, tmp / "pyodide", job) for _ in range(reps.pyodide)]
    loads = [r["pyodide_start_ms"] + r["import_and_first_ms"] for r in runs]
    first = runs[0]
    notes.append(
        f"pyodide: {first['pyodide_version']} (Python {first['python']}) under Node; {reps.pyodide} fresh runtimes; "
        f"micropip installs {first['install_bytes'] / 1e3:.0f} KB of wheels (xlwings, benchsheet); "
        f"start {statistics.median(r['pyodide_start_ms'] for r in runs):.0f} ms + main.py through xlwings and first "
        f"PERGPU {statistics.median(r['import_and_first_ms'] for r in runs):.0f} ms; scalar: {reps.scalar_repeat} "
        "batches of 100 calls in each runtime, the wheel of this checkout"
    )
    return {
        "pyodide_install_ms": statistics.median(r["install_ms"] for r in runs),
        "pyodide_load_ms": statistics.median(loads),
        "pyodide_scalar_us": statistics.median(r["scalar_us"] for r in runs),
    }


# -------------------------------------------------------------- reporting


def machine() -> dict[str, Any]:
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next((ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), cpu)
    except OSError:
        pass
    mem = None
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            kib = next((int(ln.split()[1]) for ln in fh if ln.startswith("MemTotal:")), None)
            mem = round(kib / MIB, 1) if kib else None
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for pkg in ("benchsheet", "xlwings", "pandas", "numpy"):
        try:
            versions[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            versions[pkg] = None
    import benchsheet

    where = Path(benchsheet.__file__).parent
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gib": mem,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "packages": versions,
        "git": git_state(where),
        "benchsheet_from": str(where),
        "load_average": load_average(),
    }


def load_average() -> list[float] | None:
    """1, 5 and 15 minute load averages: other work on the machine slows every number here."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def git_state(where: Path) -> str | None:
    """The commit of the benchsheet that was measured, if it comes from a git work tree."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=where, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src", "udfs", "templates", "addin"],
            cwd=where,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + (" + uncommitted changes in src/udfs/templates/addin" if dirty else "")


def verdict(key: str, value: float | None) -> str:
    if key not in TARGETS:
        return ""
    if value is None:
        return "n/a"
    op, target = TARGETS[key]
    ok = value <= target if op == "<=" else value >= target
    return "PASS" if ok else "MISS"


def fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "null"
    if unit in ("%", "pp"):
        return f"{value:.2f}"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}" if value >= 0.01 else f"{value:.3f}"


def table_text(result: dict[str, Any]) -> str:
    lines = ["| metric | value | unit | target | status | what |", "|---|---:|---|---|---|---|"]
    for key, unit, what in ROWS:
        value = result[key]
        target = f"{TARGETS[key][0]} {TARGETS[key][1]:g}" if key in TARGETS else ""
        lines.append(f"| `{key}` | {fmt(value, unit)} | {unit} | {target} | {verdict(key, value)} | {what} |")
    return "\n".join(lines)


def udf_lines(result: dict[str, Any]) -> list[str]:
    """xlwings' call path beside the bare function of the same run."""
    if result.get("udf_call_us") is None or result.get("udf_column_10k_ms") is None:
        return ["  through xlwings' call_udf   not measured (see notes)"]
    return [
        f"  call_udf / function         {result['udf_call_us']:.1f} us / {result['scalar_us']:.2f} us"
        f" = {result['udf_call_us'] / result['scalar_us']:.0f}x (xlwings' share, without Excel)",
        f"  10,000x1 range, call_udf    {result['udf_column_10k_ms']:.1f} ms vs {result['vector_10k_ms']:.1f} ms"
        f" bare = {result['udf_column_10k_ms'] * 1e3 / 10_000:.2f} us a cell (one call pays the overhead once)",
    ]


def pyodide_lines(result: dict[str, Any]) -> list[str]:
    """The Pyodide figures beside the CPython ones of the same run."""
    if result.get("pyodide_scalar_us") is None or result.get("pyodide_load_ms") is None:
        return ["  Pyodide                     not measured (see notes)"]
    return [
        f"  Pyodide / CPython scalar    {result['pyodide_scalar_us']:.2f} us / {result['scalar_us']:.2f} us"
        f" = {result['pyodide_scalar_us'] / result['scalar_us']:.1f}x",
        f"  Pyodide / CPython start     {result['pyodide_load_ms']:.0f} ms / {result['cold_start_ms']:.0f} ms"
        f" = {result['pyodide_load_ms'] / result['cold_start_ms']:.1f}x (Lite starts Pyodide once per workbook)",
    ]


def report(result: dict[str, Any]) -> str:
    m = result["machine"]
    parts = [
        f"machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB; {m['python']}; {m['platform']}",
        "packages: " + ", ".join(f"{k} {v}" for k, v in m["packages"].items()) + f"; git {m['git']}",
        f"benchsheet from {m['benchsheet_from']}; load average before/after {result['load_before']} / "
        f"{m['load_average']}",
        f"mode: {result['mode']}",
        "",
        table_text(result),
        "",
        "in the same run:",
        f"  speedup vs naive pandas     {result['naive_us']:.1f} us / {result['scalar_us']:.2f} us"
        f" = {result['speedup']:.0f}x",
        f"  vs a dictionary look-up     {result['scalar_us']:.2f} us / {result['dict_lookup_us']:.3f} us"
        f" = {result['scalar_us'] / result['dict_lookup_us']:.0f}x",
        f"  per cell of the vector      {result['vector_10k_ms'] * 1e3 / 10_000:.2f} us"
        f" ({result['vector_10k_ms'] * 1e3 / 10_000 / result['scalar_us']:.2f} x one scalar call)",
        *udf_lines(result),
        f"  cold start - xlwings import {result['cold_start_ms']:.0f} - {result['xlwings_import_ms']:.0f}"
        f" = {result['cold_start_added_ms']:.0f} ms (benchsheet's share of Excel's first call)",
        f"  xlwings import - bare start {result['xlwings_import_ms']:.0f} - {result['python_start_ms']:.0f}"
        f" = {result['xlwings_import_ms'] - result['python_start_ms']:.0f} ms (paid by any xlwings add-in)",
        *pyodide_lines(result),
        "",
        "notes:",
        *(f"  - {n}" for n in result["notes"]),
    ]
    misses = [k for k in TARGETS if verdict(k, result[k]) == "MISS"]
    parts.append("")
    parts.append(
        f"targets: {sum(verdict(k, result[k]) == 'PASS' for k in TARGETS)} PASS, {len(misses)} MISS"
        + (f" ({', '.join(misses)})" if misses else "")
    )
    return "\n".join(parts)


# ------------------------------------------------------ the table of docs/speed.md

PAGE = ROOT / "docs" / "speed.md"
SPEED_BEGIN = "<!-- speed:begin (written by `python benchmarks/run.py --update-docs`; do not edit) -->"
SPEED_END = "<!-- speed:end -->"


def markdown(result: dict[str, Any]) -> str:
    """The speed block of docs/speed.md: the machine, the table and what it means, all from this run."""
    m = result["machine"]
    packages = m["packages"]
    lines = [
        SPEED_BEGIN,
        "",
        f"One run, on commit {m['git']} ({result['date']}), {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, "
        f"{m['platform']}, {m['python']}, xlwings {packages['xlwings']}, pandas {packages['pandas']}"
        + ("" if result["mode"] == "full" else f", {result['mode']}")
        + ":",
        "",
        table_text(result),
    ]
    if None not in (result["scalar_us"], result["dict_lookup_us"], result["cold_start_added_ms"]):
        lines += [
            "",
            f"A scalar `PERGPU` costs {result['scalar_us'] / result['dict_lookup_us']:.0f} dictionary look-ups "
            "measured in the same run (argument conversion, alias keys, the per-GPU division and the error "
            f"checks); Excel's first call pays {result['xlwings_import_ms']:.0f} ms for `import xlwings` "
            f"(pandas included), and benchsheet adds {result['cold_start_added_ms']:.0f} ms to it.",
        ]
    lines += ["", SPEED_END]
    return "\n".join(lines)


def update_page(path: Path, block: str) -> None:
    """Replace the speed block between its markers; the rest of the file stays as it is."""
    text = path.read_text(encoding="utf-8")
    start, end = text.index(SPEED_BEGIN), text.index(SPEED_END) + len(SPEED_END)
    path.write_text(text[:start] + block + text[end:], encoding="utf-8")


# ------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", type=Path, help="write every metric to this JSON file")
    parser.add_argument("--quick", action="store_true", help="tiny repetition counts (smoke test), not for numbers")
    parser.add_argument(
        "--shared",
        type=Path,
        default=Path(os.environ.get("BENCHSHEET_SHARED", ROOT.parent / "shared" / "mlperf")),
        help="folder with the official files (default ../shared/mlperf)",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--match-rate",
        action="store_true",
        help="also judge calc, formulas, LibreOffice and pycel on the Excel-saved corpus (about 20 minutes)",
    )
    parser.add_argument("--markdown", action="store_true", help="print the block of docs/speed.md, not the report")
    parser.add_argument("--update-docs", action="store_true", help="write the speed block into docs/speed.md")
    args = parser.parse_args(argv)
    if args.update_docs and args.quick:
        parser.error("--update-docs takes a full run: --quick numbers are not meaningful")
    reps = QUICK if args.quick else FULL
    shared = args.shared.resolve()
    if not (shared / "v6.1" / "summary.json").is_file():
        parser.error(f"official files not found in {shared} (--shared or BENCHSHEET_SHARED)")

    tmp = Path(tempfile.mkdtemp(prefix="benchsheet-bench-"))
    try:
        home = tmp / "home"
        home.mkdir()
        os.environ["BENCHSHEET_HOME"] = str(home)  # this process and every subprocess: never the user's cache
        env = dict(os.environ)
        notes: list[str] = []
        result: dict[str, Any] = {"mode": "quick (smoke test: numbers not meaningful)" if args.quick else "full"}
        result["load_before"] = load_average()
        inproc = bench_in_process(reps, notes)
        result.update({k: v for k, v in inproc.items() if k in KEYS})
        result.update(bench_udf(reps, inproc["column"], inproc["answer"], notes))
        result.update(bench_processes(reps, env, tmp, shared, inproc["answer"], notes, args.quick))
        cached = env if args.quick else start_env(env, tmp / "pycache")  # byte code as an installed package has it
        result.update(bench_templates(reps, cached, tmp, notes))
        result.update(bench_calc(reps, cached, tmp, notes))
        result.update(bench_hostile(args.quick, cached, tmp, notes))
        result.update(bench_lookups(args.quick, cached, tmp, notes))
        result.update(bench_pyodide(reps, tmp, notes))
        if args.match_rate:
            result["match_rate"] = match_rate.measure(list(match_rate.TOOLS))
        result.update(match_rate.keys(result.get("match_rate")))
        notes.append(
            f"scalar: {reps.scalar_repeat} batches of {reps.scalar_number:,} calls; start-up: {reps.start} "
            f"fresh interpreters of each kind in turn, byte code cached as an installed package has it"
        )
        result["notes"] = notes
        result["machine"] = machine()
        result["targets"] = {
            k: {"op": op, "target": t, "status": verdict(k, result[k])} for k, (op, t) in TARGETS.items()
        }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    result["date"] = time.strftime("%Y-%m-%d", time.gmtime())
    print(markdown(result) if args.markdown else report(result))
    if "match_rate" in result:
        print(
            "\nmatch rate on the Excel-saved corpus (tests/corpus), same run:\n"
            + match_rate.table(result["match_rate"])
        )
    if args.update_docs:
        update_page(PAGE, markdown(result))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    missed = any(v["status"] == "MISS" for v in result["targets"].values())
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
