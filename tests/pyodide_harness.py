"""Run benchsheet's wheel in the real Pyodide runtime under Node, offline (the Pyodide test and the benchmark).

``tests/pyodide`` pins the npm package ``pyodide`` (package.json, package-lock.json;
``npm ci`` there installs it, as .ci/run does). The wheel is built from this
checkout with no network (``pip wheel --no-deps --no-build-isolation --no-index``),
copied into Pyodide's file system with the driver and its stand-ins, and unzipped
into site-packages there; ``run.mjs`` refuses any network access.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "tests" / "pyodide"
PYODIDE = HARNESS / "node_modules" / "pyodide" / "package.json"
SOURCES = ("pyproject.toml", "README.md", "src", "udfs", "addin", "templates")
DRIVER = ("__init__.py", "lite_driver.py", "lite_standins.py")


def missing() -> str | None:
    """Why the Pyodide runtime cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed (the Pyodide test runs Pyodide under Node.js)"
    if not PYODIDE.is_file():
        return f"the npm package pyodide is not installed: run `npm ci` in {HARNESS.relative_to(ROOT)}"
    return None


def build_wheel(tmp: Path) -> Path:
    """benchsheet's wheel, built offline from a copy of this checkout (the work tree stays clean)."""
    src = tmp / "src-copy"
    src.mkdir(parents=True)
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(path, src / name)
    out = tmp / "wheels"
    offline = ("--no-deps", "--no-build-isolation", "--no-index")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", *offline, "-q", "-w", str(out), str(src)],
        capture_output=True,
        text=True,
    )
    wheels = sorted(out.glob("benchsheet-*.whl"))
    if proc.returncode != 0 or len(wheels) != 1:
        raise RuntimeError(f"building benchsheet's wheel failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return wheels[0]


def run(wheel: Path, tmp: Path, job: dict[str, Any] | None = None, timeout: float = 600) -> dict[str, Any]:
    """lite_driver.run(job) inside Pyodide, with benchsheet's wheel installed: its JSON report."""
    files = {f"/wheels/{wheel.name}": str(wheel)}
    files |= {f"/harness/tests/{name}": str(ROOT / "tests" / name) for name in DRIVER}
    spec = {"files": files, "job": {**(job or {}), "wheels": [f"/wheels/{wheel.name}"]}}
    job_path, out_path = tmp / "pyodide-job.json", tmp / "pyodide-out.json"
    job_path.write_text(json.dumps(spec), encoding="utf-8")
    proc = subprocess.run(
        ["node", str(HARNESS / "run.mjs"), str(job_path), str(out_path)],
        cwd=HARNESS,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"Pyodide run failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    report: dict[str, Any] = json.loads(out_path.read_text(encoding="utf-8"))
    report["stderr"] = proc.stderr
    return report
