"""Calls benchsheet's xlwings Lite functions as Excel does, through xlwings' own code, in CPython or in Pyodide.

``main(job)`` runs the ``main.py`` that ``benchsheet lite`` prints as xlwings Lite's runtime
runs it (the module built from its text, as xlwings-server's ``wasm_runtime.py`` does) and
calls each function through xlwings' dispatcher, ``xlwings.pro.udfs_officejs``:
``custom_functions_meta`` for what Excel registers, ``custom_functions_call`` for each call,
with the arguments as Office.js sends them (a matrix each; an error cell as an error
object) and an exception wrapped as ``{"error": message}``, as the runtime returns it to
the add-in's JavaScript. What a function prints (the Output pane) is kept with each answer.

Inside Pyodide, micropip first installs xlwings and benchsheet from local wheels (the
job names them), and the report says what it installed and every file written. The
Pyodide test runs ``main`` in Pyodide and in a CPython subprocess and compares the two.
Formulas are parsed with ``ast`` (the examples are also Python call syntax); a range is
written as a list of rows, a left-out argument as ``None``.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import os
import statistics
import subprocess
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any

HEAVY = ("platformdirs", "filelock", "rich", "formulas", "xlsxwriter", "openpyxl", "numpy", "pandas")
"""What the Lite functions must not import (Pyodide lacks them or they cost seconds to load)."""

ENV = {
    "XLWINGS_ON_SERVER": "true",  # as xlwings Lite's runtime sets it (xlwings-server's wasm/config.py)
    "XLWINGS_LICENSE_KEY": "noncommercial",  # xlwings' key for noncommercial use, as by this open-source project
}
"""What xlwings reads before ``from xlwings import arg, func`` gives its custom-function decorators."""

ERROR_TYPES = {  # the errorType of each code in an Excel error cell (Office.js' ErrorCellValue)
    "#DIV/0!": "Div0",
    "#N/A": "NotAvailable",
    "#NAME?": "Name",
    "#NULL!": "Null",
    "#NUM!": "Num",
    "#REF!": "Ref",
    "#VALUE!": "Value",
    "#GETTING_DATA": "GettingData",
    "#SPILL!": "Spill",
    "#CONNECT!": "Connect",
    "#BLOCKED!": "Blocked",
    "#UNKNOWN!": "Unknown",
    "#FIELD!": "Field",
    "#CALC!": "Calc",
    "#BUSY!": "Busy",
}
ERROR_STRINGS = {v: k for k, v in ERROR_TYPES.items()}

ERROR_CASES = (
    '=PERGPU("6.1-9999","gpt-oss-120b","Server")',  # #N/A with its reason in the Output pane
    '=PERGPU(5,"gpt-oss-120b","Server")',  # #VALUE!: an argument the function cannot use
    '=PERGPU(None,"gpt-oss-120b","Server")',  # an empty required argument
    '=PERGPU(TRUE,"gpt-oss-120b","Server")',
    '=PERGPU(NA(),"gpt-oss-120b","Server")',  # an error among the inputs is passed on
    '=PERGPU("6.1-0052",NA(),"Server")',
    '=PERGPU([["6.1-0052"],["6.1-9999"],[None],[5]],"gpt-oss-120b","Server")',  # a column: per-cell errors
    '=PERGPU([["6.1-0052","6.1-0071"]],"gpt-oss-120b","Server")',  # a row stays a row
    '=PERGPU("6.1-0052",[["gpt-oss-120b","deepseek-r1"]],"Server")',  # a range in a later argument: lifted
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
    '=COSTPERMTOK(5,ERROR("#SPILL!"))',  # a newer error code among the inputs
    '=PERGPU([["6.1-0052"],[ERROR("#CALC!")]],"gpt-oss-120b","Server")',
    '=BEST("B200","gpt-oss-120b","Server","available",8,46023)',  # a date cell (2026-01-01) as a round
    "=COSTPERMTOK(46023,1000)",  # a date cell as a price: a number like any other
)


def cases() -> list[str]:
    from benchsheet.catalogue.functions import CATALOGUE

    return [fn.example for fn in CATALOGUE] + list(ERROR_CASES)


def error(code: str) -> dict[str, str]:
    """An Excel error cell as Office.js sends it to a custom function (allowErrorForDataTypeAny)."""
    return {"type": "Error", "basicType": "Error", "basicValue": code, "errorType": ERROR_TYPES[code]}


class Sheet:
    """One workbook with benchsheet's main.py, called through xlwings' dispatcher."""

    def __init__(self) -> None:
        import xlwings
        from xlwings.pro import udfs_officejs

        from benchsheet.lite import main_py

        self.xlwings_version = xlwings.__version__
        self.dispatcher = udfs_officejs
        self.module = types.ModuleType("main")  # as xlwings' runtime loads the editor's main.py
        exec(compile(main_py(), "main.py", "exec"), self.module.__dict__)
        sys.modules["main"] = self.module
        self.printed: list[str] = []

    def meta(self) -> Any:
        """What Excel registers: xlwings' ``custom_functions_meta`` of the module."""
        return self.dispatcher.custom_functions_meta(self.module)  # type: ignore[no-untyped-call]

    def records(self) -> dict[str, Any]:
        """Each function's arguments as xlwings' decorators recorded them (options, the default if optional)."""
        out = {}
        for name, f in vars(self.module).items():
            xlf = getattr(f, "__xlfunc__", None)
            if xlf is not None:
                args = [{"name": a["name"], "options": a["options"]} | _default(a) for a in xlf["args"]]
                out[name] = {"args": args, "ret": xlf["ret"]}
        return out

    async def call(self, name: str, args: list[Any]) -> Any:
        """What the runtime answers the add-in: the matrix for Excel, or ``{"error": message}``."""
        data = {
            "client": "Office.js",
            "version": self.xlwings_version,
            "runtime": "1.4",
            "func_name": name,
            "args": args,
            "caller_address": "[Book1.xlsx]Sheet1!A1",
            "culture_info_name": "en-US",
            "date_format": "M/d/yyyy",
        }
        out = io.StringIO()
        with contextlib.redirect_stdout(out):  # Lite's Output pane
            try:
                result = await self.dispatcher.custom_functions_call(data, module=self.module)
            except Exception as e:  # as wasm_runtime.custom_functions_call
                result = {"error": str(e), "details": traceback.format_exc()}
        self.printed += out.getvalue().splitlines()
        return result

    async def evaluate(self, formula: str) -> dict[str, Any]:
        """The answer of one formula and the lines printed on the way."""
        del self.printed[:]
        value = await self._node(ast.parse(formula.lstrip("="), mode="eval").body)
        if isinstance(value, dict):
            value = {"error": value["error"]}  # the traceback differs between runtimes
        return {"formula": formula, "value": value, "output": list(self.printed)}

    async def _node(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -(await self._node(node.operand))
        if isinstance(node, ast.Name) and node.id in ("TRUE", "FALSE"):
            return node.id == "TRUE"
        if isinstance(node, ast.List):  # a range: a cell given by NA() or ERROR() is that error cell
            cells = [await self._node(e) for e in node.elts]
            return [c[0][0] if isinstance(node.elts[i], ast.Call) else c for i, c in enumerate(cells)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name, args = node.func.id, [await self._argument(a) for a in node.args]
            if name == "NA":
                return [[error("#N/A")]]
            if name == "ERROR":  # a cell holding that error
                return [[error(args[0][0][0])]]
            if name == "INDEX":
                matrix, row = args[0], int(args[1][0][0])
                column = int(args[2][0][0]) if len(args) > 2 else 1
                return [[matrix[row - 1][column - 1]]]
            return await self.call(name, args)
        raise ValueError(f"cannot evaluate {ast.dump(node)}")

    async def _argument(self, node: ast.expr) -> Any:
        """An argument as Office.js sends it: a matrix; another function's error as an error cell."""
        value = await self._node(node)
        if isinstance(value, dict) and "error" in value:  # the add-in shows #VALUE!
            return [[error("#VALUE!")]]
        if isinstance(value, list):
            return [[error(ERROR_STRINGS[c["errorType"]]) if isinstance(c, dict) else c for c in row] for row in value]
        return value if value is None else [[value]]


def _default(arg: dict[str, Any]) -> dict[str, Any]:
    return {"default": arg["optional"]} if "optional" in arg else {}


def _files(top: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for folder, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not (folder == "/" and d in ("proc", "dev", "sys"))]
        for n in names:
            path = os.path.join(folder, n)
            with contextlib.suppress(OSError):
                out[path] = os.stat(path).st_mtime
    return out


async def install(job: dict[str, Any]) -> dict[str, Any]:
    """micropip installs the job's wheels, as xlwings Lite installs its requirements.txt (Pyodide only).

    micropip itself is unzipped into site-packages first: Lite's runtime loads it from Pyodide's
    package site, which this offline run cannot reach.
    """
    import site
    import zipfile

    with zipfile.ZipFile(job["micropip"]) as z:
        z.extractall(site.getsitepackages()[0])
    importlib.invalidate_caches()
    import micropip  # type: ignore[import-not-found]

    before = {p.name for p in micropip.list().values()}
    t0 = time.perf_counter()
    await micropip.install(job["install"], index_urls=job.get("index_urls"))  # None: micropip's default
    ms = (time.perf_counter() - t0) * 1e3
    after = {p.name: p.version for p in micropip.list().values()}
    return {"install_ms": ms, "installed": {n: v for n, v in sorted(after.items()) if n not in before}}


async def run(job: dict[str, Any]) -> dict[str, Any]:
    in_pyodide = sys.platform == "emscripten"
    before = _files("/") if in_pyodide else {}
    t0 = time.perf_counter()
    sheet = Sheet()
    first = await sheet.evaluate('=PERGPU("6.1-0052","gpt-oss-120b","Server")')
    first_ms = (time.perf_counter() - t0) * 1e3
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "first": first,
        "import_and_first_ms": first_ms,
        "answers": [await sheet.evaluate(f) for f in job.get("cases") or cases()],
        "meta": sheet.meta(),
        "records": sheet.records(),
        "heavy_imported": sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY)),
    }
    repeat = int(job.get("scalar_repeat", 0))
    if repeat:
        pergpu = sheet.module.PERGPU
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


async def main(job_json: str) -> str:
    """The entry point (Pyodide, or ``run_cpython``): set xlwings' environment, install, run, answer JSON."""
    os.environ.update(ENV)
    job = json.loads(job_json)
    installed = await install(job) if "install" in job else {}
    report = await run(job) | installed
    report |= {k: job[k] for k in ("pyodide_start_ms", "pyodide_version", "install_bytes") if k in job}
    return json.dumps(report)


def run_cpython(job: dict[str, Any] | None = None) -> dict[str, Any]:
    """``main(job)`` in a fresh CPython process (xlwings' decorators depend on its environment at import)."""
    root = Path(__file__).resolve().parents[1]
    code = "import asyncio, sys\nfrom tests import lite_driver\nprint(asyncio.run(lite_driver.main(sys.argv[1])))"
    env = {**os.environ, **ENV, "PYTHONPATH": str(root)}
    proc = subprocess.run(
        [sys.executable, "-c", code, json.dumps(job or {})], cwd=root, env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the Lite driver failed in CPython:\n{proc.stderr[-4000:]}")
    report: dict[str, Any] = json.loads(proc.stdout)
    return report
