"""Look-up workloads, calc beside LibreOffice in the same run (issue 41: exact-match VLOOKUP and
INDEX/MATCH cost calc rows x look-ups, 7x LibreOffice's time on a mixed 15,000-formula sheet).

Each workbook is a 5,000-row table (``A`` a key, every key once, in no order; ``B`` its value) and
formulas filled down beside it looking the keys up (``C`` holds the keys in another order):

* ``vlookup``: ``=VLOOKUP(C2,$A$2:$B$5001,2,FALSE)``
* ``index_match``: ``=INDEX($B$2:$B$5001,MATCH(C2,$A$2:$A$5001,0))``
* ``xlookup``: ``=XLOOKUP(C2,$A$2:$A$5001,$B$2:$B$5001)``
* ``xlookup_approx``: ``=XLOOKUP(C2+0.5,$A$2:$A$5001,$B$2:$B$5001,,-1)`` (the next smaller key)
* ``mixed_15k``: per row a VLOOKUP, an INDEX/MATCH and ``=IF(D2>E2,D2-E2,SUM(D2,E2)*2)``: 15,000 formulas
* ``vlookup_4x``: ``vlookup`` over 20,000 rows: four times the rows and look-ups (linear: 4x the time)
* ``refs_200k``: ``=B2`` filled down 200,000 rows: plain references, no look-up

Every formula cell caches 999 (``match_rate.poison``'s value), so a tool that does not recompute
shows it: each tool's answers are checked for it, and calc's and LibreOffice's answers compared
cell by cell. calc runs in a fresh process (``hostile.CALC``: the call alone is timed); LibreOffice
converts the file headless with recalculation on load forced (``match_rate``'s profile), timed by
its wall clock. Each tool's time is compared less its own time for the table alone (LibreOffice's
start, and each tool's reading and writing of the table's cells): the time the formulas add. The
best of ``--turns``.

    python benchmarks/lookups.py [--turns 3] [--json out.json] [--only vlookup,mixed_15k]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import hostile  # noqa: E402
import match_rate  # noqa: E402
from tests import excel_corpus as ec  # noqa: E402

ROWS = 5_000
POISON = 999
XLOOKUP_SINCE = (24, 8)  # LibreOffice 24.8 release notes: "New XLOOKUP and XMATCH functions"


def _formulas(name: str, rows: int) -> Callable[[int], list[str]]:
    last = rows + 1
    a, b = f"$A$2:$A${last}", f"$B$2:$B${last}"
    vlookup = f"VLOOKUP(C{{r}},$A$2:$B${last},2,FALSE)"
    index_match = f"INDEX({b},MATCH(C{{r}},{a},0))"
    forms = {
        "vlookup": [vlookup],
        "vlookup_4x": [vlookup],
        "index_match": [index_match],
        "xlookup": [f"_xlfn.XLOOKUP(C{{r}},{a},{b})"],
        "xlookup_approx": [f"_xlfn.XLOOKUP(C{{r}}+0.5,{a},{b},,-1)"],
        "mixed_15k": [vlookup, index_match, "IF(D{r}>E{r},D{r}-E{r},SUM(D{r},E{r})*2)"],
        "refs_200k": ["B{r}"],  # B: 3 x key + 1, never the poisoned 999
    }[name]
    return lambda r: [f.format(r=r) for f in forms]


WORKLOADS = {"vlookup": ROWS, "index_match": ROWS, "xlookup": ROWS, "xlookup_approx": ROWS, "mixed_15k": ROWS}
WORKLOADS["vlookup_4x"] = 4 * ROWS
WORKLOADS["refs_200k"] = 40 * ROWS  # 200,000 plain references =B2, =B3... (issue 41: 1.44x LibreOffice's time)


def book(path: Path, name: str | None, rows: int) -> Path:
    """The table (and, for a workload ``name``, its formulas, each caching POISON)."""
    rng = random.Random(41)
    keys = list(range(1, rows + 1))
    rng.shuffle(keys)
    wanted = keys[:]
    rng.shuffle(wanted)
    formulas = _formulas(name, rows) if name else None

    def row(i: int) -> str:
        r = i + 2
        cells = [f'<c r="A{r}"><v>{keys[i]}</v></c>', f'<c r="B{r}"><v>{3 * keys[i] + 1}</v></c>']
        cells.append(f'<c r="C{r}"><v>{wanted[i]}</v></c>')
        if formulas is not None:
            for col, f in zip("DEF", formulas(r), strict=False):
                cells.append(f'<c r="{col}{r}"><f>{f}</f><v>{POISON}</v></c>')
        return f'<row r="{r}">{"".join(cells)}</row>'

    def rows_of() -> Iterator[str]:
        return (row(i) for i in range(rows))

    return hostile.workbook(path, rows_of())


def _calc(src: Path, out: Path, env: dict[str, str]) -> float:
    got = subprocess.run(
        [sys.executable, "-c", hostile.CALC, str(src), str(out)], capture_output=True, text=True, env=env, check=True
    )
    return float(json.loads(got.stdout.strip().splitlines()[-1])["s"])


def _libreoffice(profile: Path, src: Path, outdir: Path) -> float:
    shutil.rmtree(outdir, ignore_errors=True)
    t0 = time.perf_counter()
    if not match_rate._convert(profile, [src], outdir):
        raise RuntimeError(f"LibreOffice did not finish {src.name}")
    return time.perf_counter() - t0


def _answers(path: Path) -> dict[str, Any]:
    return {ref: v for (_, ref), v in ec.written_values(path).items() if ref[0] in "DEF"}


def lo_version() -> tuple[int, int] | None:
    """LibreOffice's version (``soffice --version``), None where it is not installed."""
    try:
        got = subprocess.run(["soffice", "--version"], capture_output=True, text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"LibreOffice (\d+)\.(\d+)", got.stdout)
    return (int(found[1]), int(found[2])) if found else None


def peer(name: str, version: tuple[int, int]) -> str:
    """The workload LibreOffice computes beside ``name``: XLOOKUP came in LibreOffice 24.8 (before it answers
    #NAME?), so an older one computes INDEX/MATCH of the same rows, whose answers are the same cells' (the
    next smaller key of ``C2+0.5`` is ``C2`` itself: the keys are whole numbers)."""
    return "index_match" if name.startswith("xlookup") and version < XLOOKUP_SINCE else name


def measure(
    names: list[str],
    turns: int,
    tmp: Path,
    libreoffice: bool = True,
    calc: Callable[[Path, Path], float] | None = None,
    scale: float = 1.0,
) -> dict[str, Any]:
    """Each workload computed by calc (``turns`` fresh processes, the best) and, unless ``libreoffice`` is
    False or LibreOffice is not installed, by LibreOffice: times, poisoned answers, cells differing."""
    env = {**os.environ, "BENCHSHEET_HOME": str(tmp / "home")}
    run_calc = calc or (lambda src, out: _calc(src, out, env))
    version = lo_version() if libreoffice else None
    profile = match_rate._profile(tmp) if version else None
    lo_runs: dict[str, tuple[float, dict[str, Any]]] = {}  # a workbook LibreOffice computed: best time, answers

    def lo(workload: str | None, rows: int) -> tuple[float, dict[str, Any]]:
        key = f"{workload or 'table'}-{rows}"
        if key not in lo_runs and profile is not None:
            src = book(tmp / f"lo-{key}.xlsx", workload, rows)
            best = min(_libreoffice(profile, src, tmp / "lo-out") for _ in range(turns))
            lo_runs[key] = best, _answers(tmp / "lo-out" / src.name)
        return lo_runs[key]

    calc_tables: dict[int, float] = {}  # calc of the table alone, by its rows: best time

    def calc_table(rows: int) -> float:
        if rows not in calc_tables:
            src = book(tmp / f"table-{rows}.xlsx", None, rows)
            calc_tables[rows] = min(run_calc(src, tmp / "table-calc.xlsx") for _ in range(turns))
        return calc_tables[rows]

    results: dict[str, Any] = {}
    for name in names:
        rows = max(10, round(WORKLOADS[name] * scale))
        src = book(tmp / f"{name}.xlsx", name, rows)
        out = tmp / f"{name}-calc.xlsx"
        calc_s = min(run_calc(src, out) for _ in range(turns))
        ours = _answers(out)
        table_s = calc_table(rows)
        got: dict[str, Any] = {
            "rows": rows,
            "formulas": len(ours),
            "calc_s": calc_s,
            "calc_table_only_s": table_s,
            "calc_added_s": calc_s - table_s,
            "calc_poisoned": sum(v == POISON for v in ours.values()),
        }
        if version is not None:
            theirs_name = peer(name, version)
            wall, theirs = lo(theirs_name, rows)
            base = lo(None, rows)[0]
            got |= {
                "libreoffice_version": ".".join(map(str, version)),
                "libreoffice_workload": theirs_name,
                "libreoffice_s": wall - base,
                "libreoffice_wall_s": wall,
                "libreoffice_table_only_s": base,
                "libreoffice_poisoned": sum(v == POISON for v in theirs.values()),
                "cells_differing": sum(ours.get(k) != v for k, v in theirs.items()) + len(ours.keys() - theirs.keys()),
                # the time the formulas add, each tool's run of the table alone taken off (LibreOffice's
                # start, and each tool's reading and writing of the table's cells)
                "calc_vs_libreoffice": (calc_s - table_s) / (wall - base) if wall > base else None,
                # calc's whole call against LibreOffice's added time (the comparison before: calc's
                # reading and writing of the table counted, LibreOffice's not)
                "calc_whole_vs_libreoffice_added": calc_s / (wall - base) if wall > base else None,
            }
        results[name] = got
        print(name, json.dumps(got), file=sys.stderr, flush=True)
    return results


# the keys benchmarks/run.py reports (each workload's calc time and its ratio to LibreOffice's)
KEYS = (*(k for name in WORKLOADS for k in (f"lookup_{name}_s", f"lookup_{name}_vs_lo")), "lookup_growth")


def keys(results: dict[str, Any]) -> dict[str, float | None]:
    """run.py's keys of ``measure``'s results. A ratio is null where LibreOffice did not run or is not shown
    to recompute (1% or more of its answers the poisoned cache's value, as match_rate judges a tool), and
    where either tool's answers are not all computed (a poisoned answer) or differ from the other's."""
    out: dict[str, float | None] = {}
    for name, got in results.items():
        out[f"lookup_{name}_s"] = got["calc_s"]
        fair = (
            got.get("calc_vs_libreoffice") is not None
            and got["calc_poisoned"] == 0
            and got["libreoffice_poisoned"] < 0.01 * got["formulas"]
            and got["cells_differing"] == 0
        )
        out[f"lookup_{name}_vs_lo"] = got["calc_vs_libreoffice"] if fair else None
    if "vlookup" in results and "vlookup_4x" in results:
        out["lookup_growth"] = results["vlookup_4x"]["calc_s"] / results["vlookup"]["calc_s"]
    return {k: out.get(k) for k in KEYS}


def note(results: dict[str, Any], turns: int) -> str:
    """What run.py's notes say of the run: each workload's figures, and what a null ratio means."""
    parts = []
    for name, got in results.items():
        text = (
            f"{name} ({got['formulas']:,} formulas over {got['rows']:,} rows): calc {got['calc_s']:.2f} s"
            f" ({got['calc_added_s']:.2f} s more than the table alone)"
        )
        if "libreoffice_s" in got:
            against = got["libreoffice_workload"]
            text += (
                f", LibreOffice {got['libreoffice_version']} {got['libreoffice_s']:.2f} s"
                + (f" (its {against}: no XLOOKUP before 24.8)" if against != name else "")
                + f" ({got['libreoffice_wall_s']:.2f} s less {got['libreoffice_table_only_s']:.2f} s, the table alone)"
                + f", poisoned answers calc {got['calc_poisoned']} / LibreOffice {got['libreoffice_poisoned']}"
                + f", cells differing {got['cells_differing']}"
                + (
                    f"; calc's whole call / LibreOffice's added time {got['calc_whole_vs_libreoffice_added']:.2f}x"
                    if got["calc_whole_vs_libreoffice_added"] is not None
                    else ""
                )
            )
        else:
            text += f", poisoned answers {got['calc_poisoned']}; LibreOffice not run"
        parts.append(text)
    return (
        f"look-ups (benchmarks/lookups.py): every formula caches {POISON}, each tool's answers checked for it; calc "
        f"in a fresh process, the call timed, LibreOffice converting headless with recalculation on load forced; "
        f"each tool's time less its own for the table alone (the ratios: the time the formulas add); best of "
        f"{turns}: " + "; ".join(parts)
    )


RunChild = Callable[[str, dict[str, str], Sequence[str], Path | None], Any]


def bench(quick: bool, run_child: RunChild, env: dict[str, str], tmp: Path, notes: list[str]) -> dict[str, Any]:
    """run.py's look-up workloads: the full size and 2 turns each, or (``quick``) a 50th of the rows, one turn
    and no LibreOffice (its start alone takes seconds)."""

    def calc(src: Path, out: Path) -> float:
        got = json.loads(run_child(hostile.CALC, env, [str(src), str(out)], tmp).stdout.strip().splitlines()[-1])
        if not str(got["outcome"]).startswith("computed"):
            raise RuntimeError(f"calc did not compute {src.name}: {got['outcome']}")
        return float(got["s"])

    turns = 1 if quick else 2
    where = tmp / "lookups"
    where.mkdir()
    results = measure(list(WORKLOADS), turns, where, libreoffice=not quick, calc=calc, scale=0.02 if quick else 1.0)
    notes.append(note(results, turns))
    return {"lookups": results, **keys(results)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--no-libreoffice", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        got = measure(args.only.split(","), args.turns, Path(tmp), not args.no_libreoffice)
    if args.json:
        args.json.write_text(json.dumps(got, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
