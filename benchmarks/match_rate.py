"""How many formula cells of the Excel-saved corpus (tests/corpus) each calculator computes as
Excel did: benchsheet's calc, the ``formulas`` package alone, LibreOffice's own recalculation
and pycel where it is installed, on the same files in the same run.

    python benchmarks/match_rate.py [--json OUT.json] [--only calc,formulas,libreoffice,pycel] [--files N]
                                    [--corpus benchmarks/unseen]

``--corpus FOLDER`` judges the workbooks of FOLDER/files instead (FOLDER/SOURCES.toml says where each
comes from): ``benchmarks/unseen`` is the held-out set of issue 30, Excel-saved workbooks the tests
never read, so the engine is never tuned to them.

Each Python tool runs in a worker process of its own (so one tool's imports or a crash never
touch another's results), with a time and memory limit per file: a tool that hangs, fails or
dies on a file has not computed it, and the next worker goes on with the next file. LibreOffice
converts the files in batches (one start-up per batch; a batch that hangs is redone file by
file). The judge is tests/excel_corpus.py (numbers to 1e-9 relative, text, booleans and error
codes exactly; cells reading NOW, TODAY, RAND... not judged).

A tool that hands back the values Excel cached in the file matches Excel without computing
anything. So every tool also gets poisoned copies of the first files (every formula cell's cached
value set to 999, ``poison``), judged against those cached values: a tool that recomputes
answers almost none of them 999; one whose share is POISONED_LIMIT or more does not recompute,
and its match rate is not reported (``recomputes``).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import excel_corpus as ec  # noqa: E402

PER_FILE_S = 120  # seconds a tool may take for one file
MEMORY_BYTES = 6 * 1024**3  # address space a worker may take: a runaway file must not sink the machine
BATCH = 20  # files LibreOffice converts per start-up
TOOLS = ("calc", "formulas", "libreoffice", "pycel")
POISON = "999"  # the cached value every formula cell of a poisoned copy holds
POISON_FILES = 5  # the first files of a run, poisoned
POISONED_LIMIT = 0.01  # share of judged cells answered with the poisoned value: a tool at or above it reads caches


class _Late(Exception):
    pass


_LATE: list[bool] = []  # the time limit passed while a tool ran (its own handlers may have caught _Late)


def _late(*_: Any) -> None:
    _LATE.append(True)
    raise _Late


def values(tool: str, path: Path) -> dict[tuple[str, str], Any]:
    """One tool's value of every formula cell, keyed (SHEET NAME upper case, "B5")."""
    if tool == "calc":
        return _calc_values(path)
    if tool == "formulas":
        return _formulas_values(path)
    if tool == "pycel":
        return _pycel_values(path)
    raise ValueError(f"unknown tool {tool}")


def _calc_values(path: Path) -> dict[tuple[str, str], Any]:
    from excelcalc.workbook.calc import calc

    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / ("out" + path.suffix)
        calc(path, target)
        return {(s.upper(), r): v for (s, r), v in ec.written_values(target).items()}


def _formulas_values(path: Path) -> dict[tuple[str, str], Any]:
    import formulas

    out: dict[tuple[str, str], Any] = {}
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


def _pycel_values(path: Path) -> dict[tuple[str, str], Any]:
    """pycel given the formulas only: opened by filename it starts from the cached values and
    ``evaluate`` hands them back (every cell of a poisoned copy answered 999)."""
    import openpyxl
    from pycel import ExcelCompiler

    out: dict[tuple[str, str], Any] = {}
    comp = ExcelCompiler(excel=openpyxl.load_workbook(path))
    for c in ec.excel_values(path):
        try:
            v = comp.evaluate(f"'{c.sheet}'!{c.ref}")
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
    _LATE.clear()
    signal.alarm(PER_FILE_S)
    try:
        got = values(tool, path)
        if _LATE:  # raised inside the tool and caught there (a cell scored as an error): not computed in time
            raise _Late
    except _Late:
        return ec.judge(path, None, f"over {PER_FILE_S} s")
    except Exception as exc:
        return ec.judge(path, None, f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return ec.judge(path, _by_name(path, got))


def wrong_number(d: ec.Difference) -> bool:
    """Excel cached a number and the tool computed another number (not an error, a text or nothing:
    those show they are not Excel's answer; a wrong number does not)."""
    return all(_number(shown) for shown in (d.excel, d.ours))


def _number(shown: str) -> bool:
    try:
        float(shown)  # ec.shown writes a number as its repr, a text quoted, an error and a boolean as words
    except ValueError:
        return False
    return True


def _row(j: ec.Judged) -> dict[str, Any]:
    """A judged file as one JSON line (the differences counted; the wrong numbers listed)."""
    row = asdict(j)
    row["differences"] = len(j.differences or ())
    row["wrong_numbers"] = [asdict(d) for d in j.differences or () if wrong_number(d)]
    return row


def _judged(row: dict[str, Any]) -> ec.Judged:
    wrong = [ec.Difference(**d) for d in row["wrong_numbers"]]
    return ec.Judged(row["file"], row["cells"], row["equal"], row["volatile"], wrong, row["failure"])


def worker(tool: str, files: list[Path], out: Path) -> None:
    """Judge ``files`` with ``tool``, one JSON line per file appended to ``out`` as each ends."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    with out.open("a", encoding="utf-8") as fh:
        for path in files:
            fh.write(json.dumps(_row(run_tool(tool, path))) + "\n")
            fh.flush()


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.endswith("}")]


def in_workers(tool: str, files: list[Path], tmp: Path) -> list[ec.Judged]:
    """``tool`` on every file in worker processes: a worker that dies or stalls on a file loses
    that file only (counted as not computed) and a fresh one goes on with the next."""
    out, listing = tmp / f"{tool}.jsonl", tmp / f"{tool}.files"
    done: list[dict[str, Any]] = []
    while len(done) < len(files):
        rest = files[len(done) :]
        listing.write_text("\n".join(map(str, rest)), encoding="utf-8")
        out.unlink(missing_ok=True)
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", tool, str(listing), str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        why = _watch(proc, out, len(rest))
        rows = _lines(out)
        done += rows
        if why and len(done) < len(files):
            done.append(_row(ec.judge(files[len(done)], None, why)))
    return [_judged(r) for r in done]


def _watch(proc: subprocess.Popen[bytes], out: Path, expected: int) -> str:
    """Wait for the worker; kill it when one file takes far over its limit. Why it ended early, or ''."""
    seen, since = 0, time.monotonic()
    while proc.poll() is None:
        time.sleep(0.2)
        now = len(_lines(out))
        if now != seen:
            seen, since = now, time.monotonic()
        elif time.monotonic() - since > PER_FILE_S + 30:
            proc.kill()
            proc.wait()
            return f"over {PER_FILE_S} s"
    if len(_lines(out)) < expected:
        return f"the worker died (exit status {proc.returncode}; over {MEMORY_BYTES // 1024**3} GiB or a crash)"
    return ""


def _profile(tmp: Path) -> Path:
    """A private LibreOffice profile whose recalculation on load for Excel 2007 and newer is Always."""
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
    return profile


def _convert(profile: Path, sources: list[Path], outdir: Path) -> bool:
    """LibreOffice recalculates and saves ``sources`` into ``outdir``; False when it did not finish in time."""
    try:
        subprocess.run(
            ["soffice", f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
             "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(outdir), *map(str, sources)],
            capture_output=True, timeout=PER_FILE_S * len(sources), check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return False
    return True


def libreoffice(files: list[Path], tmp: Path) -> list[ec.Judged]:
    """LibreOffice headless recalculates every file on load and saves it again as .xlsx; its
    cached values are then judged. A batch that does not finish is redone one file at a time."""
    profile = _profile(tmp)
    inputs = tmp / "lo-in"
    inputs.mkdir()
    sources = []
    for i, path in enumerate(files):
        sources.append(inputs / f"f{i:04d}{path.suffix}")
        shutil.copyfile(path, sources[-1])
    late: set[Path] = set()
    for start in range(0, len(files), BATCH):
        batch = sources[start : start + BATCH]
        if not _convert(profile, batch, tmp / "lo-out"):
            late |= {s for s in batch if not _convert(profile, [s], tmp / "lo-out")}
    out: list[ec.Judged] = []
    for path, src in zip(files, sources, strict=True):
        written = tmp / "lo-out" / (src.stem + ".xlsx")
        if src in late or not written.is_file():
            out.append(ec.judge(path, None, f"over {PER_FILE_S} s" if src in late else "LibreOffice wrote nothing"))
            continue
        got = {(s.upper(), r): v for (s, r), v in ec.written_values(written).items()}
        out.append(ec.judge(path, _by_name(path, got)))
    return out


_CELL = re.compile(rb"<c\b([^>]*?)(/>|>(.*?)</c>)", re.S)


def poison(src: Path, dst: Path) -> Path:
    """A copy of ``src`` whose every formula cell caches the number POISON (its type attribute
    dropped: a number), everything else as it was."""

    def cell(m: re.Match[bytes]) -> bytes:
        inner = m.group(3)
        if inner is None or b"<f" not in inner:
            return m.group(0)
        attrs = re.sub(rb'\st="[^"]*"', b"", m.group(1))
        inner = re.sub(rb"<v\b[^>]*?/>|<v\b[^>]*>.*?</v>", b"", inner, flags=re.S) + b"<v>" + POISON.encode() + b"</v>"
        return b"<c" + attrs + b">" + inner + b"</c>"

    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                data = _CELL.sub(cell, data)
            zout.writestr(info, data)
    return dst


def recomputes(tool: str, files: list[Path], tmp: Path) -> float | None:
    """The share of judged formula cells ``tool`` answers with the poisoned value on poisoned copies
    of ``files``: about 0 for a tool that recomputes, about 1 for one that reads the cached values."""
    folder = tmp / f"poisoned-{tool}"
    folder.mkdir()
    copies = [poison(path, folder / f"p{i:04d}{path.suffix}") for i, path in enumerate(files)]
    judged = judge_all(tool, copies, folder)
    cells = sum(j.cells for j in judged if not j.failure)
    return sum(j.equal for j in judged if not j.failure) / cells if cells else None


def compare(results: dict[str, list[ec.Judged]], poisoned: dict[str, float | None]) -> dict[str, Any]:
    """``summary`` of the tools shown to recompute (their share of poisoned answers below
    POISONED_LIMIT); the others under "not_recomputing", never compared: a match rate of cached
    values measures nothing."""
    unshown = {t: share for t, share in poisoned.items() if share is None or share >= POISONED_LIMIT}
    out = summary({t: r for t, r in results.items() if t not in unshown})
    for tool in out["tools"]:
        out[tool]["poisoned"] = poisoned[tool]
    out["not_recomputing"] = unshown
    return out


def summary(results: dict[str, list[ec.Judged]]) -> dict[str, Any]:
    """Per tool: the match rate over all judged cells (a file not computed counts as different),
    and over the files every tool computed."""
    files = [j.file for j in next(iter(results.values()))]
    common = {f for k, f in enumerate(files) if all(not r[k].failure for r in results.values())}
    out: dict[str, Any] = {"files": len(files), "files_all_computed": len(common), "tools": list(results)}
    for tool, judged in results.items():
        cells = sum(j.cells for j in judged)
        equal = sum(j.equal for j in judged)
        c_cells = sum(j.cells for j in judged if j.file in common)
        c_equal = sum(j.equal for j in judged if j.file in common)
        wrong = {j.file: sum(map(wrong_number, j.differences or ())) for j in judged}
        c_wrong = sum(n for f, n in wrong.items() if f in common)
        out[tool] = {
            "refused": sorted(j.file for j in judged if j.failure),
            "why": {j.file: j.failure for j in judged if j.failure},
            "per_file": {j.file: [j.cells, j.equal] for j in judged},
            "cells": cells,
            "equal": equal,
            "match": equal / cells if cells else None,
            "cells_common": c_cells,
            "equal_common": c_equal,
            "match_common": c_equal / c_cells if c_cells else None,
            "wrong_numbers": sum(wrong.values()),
            "wrong_per_10k": 10_000 * sum(wrong.values()) / cells if cells else None,
            "wrong_numbers_common": c_wrong,
            "wrong_per_10k_common": 10_000 * c_wrong / c_cells if c_cells else None,
        }
    return out


def available(tool: str) -> bool:
    if tool == "libreoffice":
        return shutil.which("soffice") is not None
    if tool == "pycel":
        return subprocess.run([sys.executable, "-c", "import pycel"], capture_output=True).returncode == 0
    return tool in TOOLS


def judge_all(tool: str, files: list[Path], tmp: Path) -> list[ec.Judged]:
    return libreoffice(files, tmp) if tool == "libreoffice" else in_workers(tool, files, tmp)


UNSEEN = ROOT / "benchmarks" / "unseen"  # the held-out set (benchmarks/unseen/SOURCES.toml)


def corpus_files(corpus: Path | None = None) -> list[Path]:
    """The workbooks judged: tests/corpus's, or those of ``corpus``/files (``--corpus``)."""
    if corpus is None:
        return ec.corpus_files()
    return sorted(p for p in (corpus / "files").rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm"))


def measure(tools: list[str], limit: int | None = None, corpus: Path | None = None) -> dict[str, Any]:
    """Every available tool on the corpus (its first ``limit`` files; ``corpus``: another folder's), in
    this run."""
    files = corpus_files(corpus)[:limit]
    start = time.perf_counter()
    results: dict[str, list[ec.Judged]] = {}
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="benchsheet-match-") as tmp:
        poisoned: dict[str, float | None] = {}
        for tool in tools:
            if not available(tool):
                continue
            t0 = time.perf_counter()
            results[tool] = judge_all(tool, files, Path(tmp))
            seconds[tool] = time.perf_counter() - t0
            poisoned[tool] = recomputes(tool, files[:POISON_FILES], Path(tmp))
    out = compare(results, poisoned)
    for tool, s in seconds.items():
        if tool in out["tools"]:
            out[tool]["seconds"] = s
    out["seconds"] = time.perf_counter() - start
    return out


KEYS = (
    *(f"match_{tool}" for tool in TOOLS),
    "match_lead",
    "match_files_common",
    *(f"refused_{tool}" for tool in TOOLS),
)


def keys(s: dict[str, Any] | None) -> dict[str, float | None]:
    """The benchmark's keys of one measurement (all None without one; a tool not installed: None):
    ``match_TOOL`` the percentage of judged cells equal to Excel's on the files every tool computed,
    ``match_lead`` calc's lead in percentage points over the best of the others (ahead: above 0),
    ``refused_TOOL`` the files the tool did not compute."""
    out: dict[str, float | None] = dict.fromkeys(KEYS)
    if s is None:
        return out
    for tool in s["tools"]:
        rate = s[tool]["match_common"]
        out[f"match_{tool}"] = None if rate is None else 100 * rate
        out[f"refused_{tool}"] = len(s[tool]["refused"])
    others = [out[f"match_{t}"] for t in s["tools"] if t != "calc" and out[f"match_{t}"] is not None]
    ours = out["match_calc"]
    out["match_lead"] = ours - max(others) if ours is not None and others else None
    out["match_files_common"] = s["files_all_computed"]
    return out


def table(s: dict[str, Any]) -> str:
    lines = [
        f"{s['files']} workbooks Excel saved; {s['files_all_computed']} computed by every tool",
        "",
        "| tool | files refused | cells equal / judged | match | on the files all computed "
        "| wrong numbers | per 10,000 judged cells |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for tool in s["tools"]:
        r = s[tool]
        lines.append(
            f"| {tool} | {len(r['refused'])} | {r['equal']:,} / {r['cells']:,} | {r['match']:.2%} | "
            f"{r['equal_common']:,} / {r['cells_common']:,} = {r['match_common']:.2%} | "
            f"{r['wrong_numbers']:,} | {r['wrong_per_10k']:.1f} |"
        )
    for tool, share in s.get("not_recomputing", {}).items():
        what = "no poisoned copy was computed" if share is None else f"{share:.0%} of its cells answered 999"
        lines.append(
            f"\n{tool}: not compared, not shown to recompute ({what} on poisoned copies of "
            f"{POISON_FILES} files, whose every formula cell caches 999)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", default=",".join(TOOLS))
    parser.add_argument("--files", type=int, help="only the first N files of the corpus (a quick look)")
    parser.add_argument(
        "--corpus",
        type=Path,
        help=f"judge FOLDER/files instead of tests/corpus (the held-out set: {UNSEEN.relative_to(ROOT)})",
    )
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "LIST", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        tool, listing, out = args.worker
        worker(tool, [Path(p) for p in Path(listing).read_text(encoding="utf-8").splitlines()], Path(out))
        return 0
    s = measure(args.only.split(","), args.files, args.corpus)
    print(table(s))
    for tool in s["tools"]:
        for file, why in s[tool]["why"].items():
            print(f"  {tool} refused {file}: {why}")
    if args.json:
        args.json.write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
