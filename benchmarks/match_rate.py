"""How many formula cells of the Excel-saved corpus (tests/corpus) each calculator computes as
Excel did: benchsheet's calc, the ``formulas`` package alone, LibreOffice's own recalculation
and pycel where it is installed, on the same files in the same run.

    python benchmarks/match_rate.py [--json OUT.json] [--only calc,formulas,libreoffice,pycel]

Each file is computed with a time limit per file (a tool that hangs or fails on a file has not
computed it). The judge is tests/excel_corpus.py (numbers to 1e-9 relative, text,
booleans and error codes exactly; cells reading NOW, TODAY, RAND... not judged).
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import excel_corpus as ec  # noqa: E402

PER_FILE_S = 120  # seconds a tool may take for one file


class _Late(Exception):
    pass


def _late(*_: Any) -> None:
    raise _Late


def values(tool: str, path: Path) -> dict[tuple[str, str], Any]:
    """One tool's value of every formula cell, keyed (SHEET NAME upper case, "B5")."""
    out: dict[tuple[str, str], Any] = {}
    if tool == "calc":
        from benchsheet.workbook.calc import calc

        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / ("out" + path.suffix)
            calc(path, target)
            return {(s.upper(), r): v for (s, r), v in ec.written_values(target).items()}
    if tool == "formulas":
        import formulas

        sol = formulas.ExcelModel().loads(str(path)).finish().calculate()
        for key, value in sol.items():
            ref = str(key)
            if "!" not in ref or ":" in ref.split("!")[-1]:
                continue
            sheet, cell = ref.rsplit("!", 1)
            sheet = sheet.strip("'").split("]", 1)[-1].replace("''", "'")
            v = getattr(value, "value", value)
            if getattr(v, "ndim", 0) == 2 and v.size:
                v = v[0, 0]
            out[(sheet.upper(), cell.upper())] = ec.normal(None if type(v).__name__ == "Token" else v)
        return out
    from pycel import ExcelCompiler

    comp = ExcelCompiler(filename=str(path))
    for c in ec.excel_values(path):
        try:
            v = comp.evaluate(f"{c.sheet}!{c.ref}")
        except Exception:
            v = ec.Error("#VALUE!")
        if isinstance(v, str) and v in ec.ERROR_CODES:
            v = ec.Error(v)
        out[(c.sheet.upper(), c.ref)] = ec.normal(v)
    return out


def _by_name(path: Path, upper: dict[tuple[str, str], Any]) -> dict[tuple[str, str], Any]:
    """Values keyed by the sheet names as written (tools differ in case)."""
    cells = ec.excel_values(path)
    return {(c.sheet, c.ref): upper[(c.sheet.upper(), c.ref)] for c in cells if (c.sheet.upper(), c.ref) in upper}


def run_tool(tool: str, path: Path) -> ec.Judged:
    """One tool on one file, in this process, with a time limit (a tool that hangs or fails on a
    file has not computed it)."""
    old = signal.signal(signal.SIGALRM, _late)
    signal.alarm(PER_FILE_S)
    try:
        got = values(tool, path)
    except _Late:
        return ec.judge(path, None, f"over {PER_FILE_S} s")
    except Exception as exc:
        return ec.judge(path, None, f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return ec.judge(path, _by_name(path, got))


def libreoffice(files: list[Path], tmp: Path) -> list[ec.Judged]:
    """LibreOffice headless, a private profile that recalculates every file on load (Excel 2007
    and newer: "always"), each saved again as .xlsx; its cached values are then judged."""
    profile = tmp / "profile"
    user = profile / "user"
    user.mkdir(parents=True)
    (user / "registrymodifications.xcu").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        '<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">'
        "<value>0</value></prop></item>\n"
        "</oor:items>\n",
        encoding="utf-8",
    )
    out: list[ec.Judged] = []
    for i, path in enumerate(files):
        target = tmp / f"lo{i}"
        target.mkdir()
        src = target / ("in" + path.suffix)
        shutil.copyfile(path, src)
        try:
            subprocess.run(
                ["soffice", f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
                 "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(target / "out"), str(src)],
                capture_output=True, timeout=PER_FILE_S, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            out.append(ec.judge(path, None, f"over {PER_FILE_S} s"))
            continue
        written = target / "out" / "in.xlsx"
        if not written.is_file():
            out.append(ec.judge(path, None, "LibreOffice wrote nothing"))
            continue
        values = {(s.upper(), r): v for (s, r), v in ec.written_values(written).items()}
        out.append(ec.judge(path, _by_name(path, values)))
    return out


def summary(results: dict[str, list[ec.Judged]]) -> dict[str, Any]:
    """Per tool: the match rate over all judged cells (a file not computed counts as different),
    and over the files every tool computed."""
    files = [j.file for j in next(iter(results.values()))]
    common = {f for k, f in enumerate(files) if all(not r[k].failure for r in results.values())}
    out: dict[str, Any] = {"files": len(files), "files_all_computed": len(common)}
    for tool, judged in results.items():
        cells = sum(j.cells for j in judged)
        equal = sum(j.equal for j in judged)
        c_cells = sum(j.cells for j in judged if j.file in common)
        c_equal = sum(j.equal for j in judged if j.file in common)
        out[tool] = {
            "refused": sorted(j.file for j in judged if j.failure),
            "cells": cells,
            "equal": equal,
            "match": equal / cells if cells else None,
            "cells_common": c_cells,
            "equal_common": c_equal,
            "match_common": c_equal / c_cells if c_cells else None,
        }
    return out


def available(tool: str) -> bool:
    if tool == "libreoffice":
        return shutil.which("soffice") is not None
    if tool == "pycel":
        return subprocess.run([sys.executable, "-c", "import pycel"], capture_output=True).returncode == 0
    return True


def measure(tools: list[str]) -> dict[str, Any]:
    files = ec.corpus_files()
    start = time.perf_counter()
    results: dict[str, list[ec.Judged]] = {}
    with tempfile.TemporaryDirectory(prefix="benchsheet-match-") as tmp:
        for tool in tools:
            if not available(tool):
                continue
            if tool == "libreoffice":
                results[tool] = libreoffice(files, Path(tmp))
            else:
                results[tool] = [run_tool(tool, p) for p in files]
    out = summary(results)
    out["seconds"] = time.perf_counter() - start
    return out


def table(s: dict[str, Any]) -> str:
    lines = [
        f"{s['files']} workbooks Excel saved; {s['files_all_computed']} computed by every tool",
        "| tool | files refused | cells equal / judged | match | on the files all computed |",
        "|---|---|---|---|---|",
    ]
    for tool, r in s.items():
        if not isinstance(r, dict):
            continue
        lines.append(
            f"| {tool} | {len(r['refused'])} | {r['equal']:,} / {r['cells']:,} | {r['match']:.2%} | "
            f"{r['equal_common']:,} / {r['cells_common']:,} = {r['match_common']:.2%} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", default="calc,formulas,libreoffice,pycel")
    args = parser.parse_args()
    s = measure(args.only.split(","))
    print(table(s))
    if args.json:
        args.json.write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
