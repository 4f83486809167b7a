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

Every formula cell caches 999 (``match_rate.poison``'s value), so a tool that does not recompute
shows it: each tool's answers are checked for it, and calc's and LibreOffice's answers compared
cell by cell. calc runs in a fresh process (``hostile.CALC``: the call alone is timed); LibreOffice
converts the file headless with recalculation on load forced (``match_rate``'s profile), its wall
time less the same conversion of the table alone (its start and the file's reading and writing),
the best of ``--turns``.

    python benchmarks/lookups.py [--turns 3] [--json out.json] [--only vlookup,mixed_15k]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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
    }[name]
    return lambda r: [f.format(r=r) for f in forms]


WORKLOADS = {"vlookup": ROWS, "index_match": ROWS, "xlookup": ROWS, "xlookup_approx": ROWS, "mixed_15k": ROWS}
WORKLOADS["vlookup_4x"] = 4 * ROWS


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


def measure(names: list[str], turns: int, tmp: Path, libreoffice: bool = True) -> dict[str, Any]:
    env = {**os.environ, "BENCHSHEET_HOME": str(tmp / "home")}
    profile = match_rate._profile(tmp) if libreoffice else None
    results: dict[str, Any] = {}
    for name in names:
        rows = WORKLOADS[name]
        src = book(tmp / f"{name}.xlsx", name, rows)
        table = book(tmp / f"{name}-table.xlsx", None, rows)
        out = tmp / f"{name}-calc.xlsx"
        calc_s = min(_calc(src, out, env) for _ in range(turns))
        ours = _answers(out)
        got: dict[str, Any] = {
            "rows": rows,
            "formulas": len(ours),
            "calc_s": calc_s,
            "calc_poisoned": sum(v == POISON for v in ours.values()),
        }
        if profile is not None:
            lo_out = tmp / "lo-out"
            lo = min(_libreoffice(profile, src, lo_out) for _ in range(turns))
            base = min(_libreoffice(profile, table, lo_out) for _ in range(turns))
            _libreoffice(profile, src, lo_out)
            theirs = _answers(lo_out / src.name)
            got |= {
                "libreoffice_s": lo - base,
                "libreoffice_wall_s": lo,
                "libreoffice_table_only_s": base,
                "libreoffice_poisoned": sum(v == POISON for v in theirs.values()),
                "cells_differing": sum(ours.get(k) != v for k, v in theirs.items()) + len(ours.keys() - theirs.keys()),
                "calc_vs_libreoffice": calc_s / (lo - base) if lo > base else None,
            }
        results[name] = got
        print(name, json.dumps(got), flush=True)
    return results


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
