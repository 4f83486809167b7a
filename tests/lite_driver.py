"""Calls benchsheet's xlwings Lite functions as Excel would, in CPython or inside Pyodide.

``run(job)`` returns one JSON-able report: the answer of every case (each catalogue
example, then the error cases), the Output-pane lines each printed, the functions'
Excel metadata, the heavy modules that got imported and, inside Pyodide, every file
written. The Pyodide test runs it in Pyodide and in CPython and compares the two.
Formulas are parsed with ``ast`` (the examples are also Python call syntax); a
range is written as a list of rows, a left-out argument as ``None``.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from tests import lite_standins as lite

HEAVY = ("platformdirs", "filelock", "rich", "formulas", "xlsxwriter", "openpyxl", "xlwings", "numpy", "pandas")
"""What the Lite surface must not import (Pyodide lacks them or they cost seconds to load)."""

ERROR_CASES = (
    '=PERGPU("6.1-9999","gpt-oss-120b","Server")',  # #N/A with its reason in the Output pane
    '=PERGPU(5,"gpt-oss-120b","Server")',  # #VALUE! raised: the reason is the error's message
    '=PERGPU(None,"gpt-oss-120b","Server")',  # an empty required argument
    '=PERGPU(TRUE,"gpt-oss-120b","Server")',
    '=PERGPU(NA(),"gpt-oss-120b","Server")',  # an error among the inputs is passed on
    '=PERGPU("6.1-0052",NA(),"Server")',
    '=PERGPU([["6.1-0052"],["6.1-9999"],[None],[5]],"gpt-oss-120b","Server")',  # a column: per-cell errors
    '=PERGPU([["6.1-0052","6.1-0071"]],"gpt-oss-120b","Server")',  # a row stays a row
    '=PERGPU("6.1-0052",[["gpt-oss-120b","deepseek-r1"]],"Server")',  # a range where one cell belongs
    '=GPUS("6.1-0052")',
    '=BEST("B200","gpt-oss-120b","Server",None,8)',  # a left-out optional argument takes its default
    '=BEST("B200","gpt-oss-120b","Server","available",8.5)',
    '=BEST("NOSUCHFAMILY","gpt-oss-120b","Server")',
    "=COSTPERMTOK(5,0)",
    "=COSTPERMTOK(5,1000,2)",
    "=GPUSNEEDED(1e308,1e-308)",
    '=ENTRY("6.1-0052","nosuchfield")',
    '=RESULTS("gpt-oss-120b","Server","NOSUCHFAMILY")',
    '=RESULTS("nosuchbenchmark","Server")',
    '=LATENCYBOUNDS("deepseek-r1","Offline")',
    '=DATAINFO("nosuchfield")',
    '=HEADLINE("deepseek-r1","Server","4.0","6.1")',
)


def cases() -> list[str]:
    from benchsheet.catalogue import CATALOGUE

    return [fn.example for fn in CATALOGUE] + list(ERROR_CASES)


class Sheet:
    """The functions as one workbook sees them, with what each call prints."""

    def __init__(self) -> None:
        from benchsheet.lite import define

        self.printed: list[str] = []
        self.functions = define(lite.func, lite.arg, self.printed.append)

    def evaluate(self, formula: str) -> dict[str, Any]:
        """The matrix Excel gets (or ``{"error": message}``) and the lines printed on the way."""
        del self.printed[:]
        value = self._node(ast.parse(formula.lstrip("="), mode="eval").body)
        return {"formula": formula, "value": value, "output": list(self.printed)}

    def _node(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self._node(node.operand)
        if isinstance(node, ast.Name) and node.id in ("TRUE", "FALSE"):
            return node.id == "TRUE"
        if isinstance(node, ast.List):
            return [self._node(e) for e in node.elts]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name, args = node.func.id, [self._argument(a) for a in node.args]
            if name == "NA":
                return [[lite.error("#N/A")]]
            if name == "INDEX":
                matrix, row = args[0], int(lite.read(args[1], {}))
                column = int(lite.read(args[2], {})) if len(args) > 2 else 1
                return [[matrix[row - 1][column - 1]]]
            return lite.invoke(self.functions[name], args)
        raise ValueError(f"cannot evaluate {ast.dump(node)}")

    def _argument(self, node: ast.expr) -> Any:
        """An argument as Office.js sends it: a matrix; another function's error as an error cell."""
        value = self._node(node)
        if isinstance(value, dict) and "error" in value:  # an exception shows #VALUE!
            return [[lite.error("#VALUE!")]]
        if isinstance(value, list):
            return [
                [lite.error(lite.ERROR_STRINGS[c["errorType"]]) if isinstance(c, dict) else c for c in row]
                for row in value
            ]
        return value if value is None else [[value]]


def contract(functions: dict[str, Callable[..., Any]]) -> dict[str, Any]:
    """The Excel metadata and the recorded options of every function."""
    records = {}
    for name, f in functions.items():
        xlf = f.__xlfunc__  # type: ignore[attr-defined]
        args = [{k: a[k] for k in ("name", "doc", "options")} | _optional(a) for a in xlf["args"]]
        records[name] = {"args": args, "ret": xlf["ret"]}
    return {"meta": lite.meta(functions), "records": records}


def _optional(a: dict[str, Any]) -> dict[str, Any]:
    return {"optional": True, "default": a["optional"]} if "optional" in a else {"optional": False}


def _files(top: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for folder, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not (folder == "/" and d in ("proc", "dev", "sys"))]
        for n in names:
            path = os.path.join(folder, n)
            with contextlib.suppress(OSError):
                out[path] = os.stat(path).st_mtime
    return out


def install_wheels(wheels: list[str]) -> None:
    """Unzip each wheel into site-packages, as an installer does for a pure-Python wheel."""
    import site
    import zipfile

    target = site.getsitepackages()[0]
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(target)
    importlib.invalidate_caches()


def run(job: dict[str, Any]) -> dict[str, Any]:
    in_pyodide = sys.platform == "emscripten"
    before = _files("/") if in_pyodide else {}
    t0 = time.perf_counter()
    sheet = Sheet()
    first = sheet.evaluate('=PERGPU("6.1-0052","gpt-oss-120b","Server")')
    first_ms = (time.perf_counter() - t0) * 1e3
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "first": first,
        "import_and_first_ms": first_ms,
        "answers": [sheet.evaluate(f) for f in job.get("cases") or cases()],
        "contract": contract(sheet.functions),
        "heavy_imported": sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY)),
    }
    repeat = int(job.get("scalar_repeat", 0))
    if repeat:
        pergpu = sheet.functions["PERGPU"]
        samples = []
        for _ in range(repeat):
            t = time.perf_counter()
            for _ in range(100):
                pergpu("6.1-0052", "gpt-oss-120b", "Server")
            samples.append((time.perf_counter() - t) / 100 * 1e6)
        report["scalar_us"] = statistics.median(samples)
    if in_pyodide:
        after = _files("/")
        report["written"] = sorted(p for p, m in after.items() if before.get(p) != m)
    return report


def main(job_json: str) -> str:
    """The Pyodide entry point: install the wheels, run, answer JSON."""
    job = json.loads(job_json)
    install_wheels(job.get("wheels", []))
    report = run(job)
    report |= {k: job[k] for k in ("pyodide_start_ms", "pyodide_version") if k in job}
    return json.dumps(report)
