"""Run benchsheet's wheel in the real Pyodide runtime under Node, offline (the Pyodide test and the benchmark).

``tests/pyodide`` pins the npm package ``pyodide`` (package.json, package-lock.json;
``npm ci`` there installs it, as .ci/run does) and, in ``wheels.txt``, the wheels of
micropip (Lite's installer) and xlwings, which ``wheels()`` downloads once with pip
(hash-checked) into ``tests/pyodide/wheels``. benchsheet's wheel is built from this
checkout with no network (``pip wheel --no-deps --no-build-isolation --no-index``).
All of them are copied into Pyodide's file system with the driver; there micropip
installs xlwings and benchsheet from those local files, as xlwings Lite installs its
requirements.txt, and ``run.mjs`` refuses any network access: an install that needs
anything else fails.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "tests" / "pyodide"
PYODIDE = HARNESS / "node_modules" / "pyodide" / "package.json"
SOURCES = ("pyproject.toml", "README.md", "src", "udfs", "addin", "templates")
DRIVER = ("__init__.py", "lite_driver.py")
WHEELS = HARNESS / "wheels"
PINNED = HARNESS / "wheels.txt"


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


def pinned() -> dict[str, str]:
    """name -> version of each wheel ``wheels.txt`` pins."""
    lines = (line.split()[0] for line in PINNED.read_text(encoding="utf-8").splitlines() if line[:1].isalpha())
    return dict(line.split("==") for line in lines)


def wheels() -> dict[str, Path]:
    """name -> the local wheel of each pinned package, downloaded once (PyPI; hash-checked)."""
    found = {name: WHEELS / f"{name}-{version}-py3-none-any.whl" for name, version in pinned().items()}
    if not all(path.is_file() for path in found.values()):
        pure = ("--only-binary=:all:", "--platform", "any", "--implementation", "py", "--python-version", "3.14")
        pins = ("--no-deps", "--require-hashes", "-r", str(PINNED))
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", *pure, *pins, "-d", str(WHEELS)],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0 or not all(path.is_file() for path in found.values()):
            raise RuntimeError(f"downloading the wheels of {PINNED.name} failed:\n{proc.stderr[-3000:]}")
    return found


def run(
    wheel: Path,
    tmp: Path,
    job: dict[str, Any] | None = None,
    timeout: float = 600,
    index: str | None = None,
    requirement: str = "",
) -> dict[str, Any]:
    """lite_driver.main(job) inside Pyodide, after micropip installed xlwings and benchsheet's ``wheel``: from
    local files, or with ``index`` (a package index on loopback, ``http://127.0.0.1:PORT``, holding both wheels)
    from its simple API, xlwings by its pinned version and benchsheet by ``requirement`` (a requirements.txt
    line), as a company's self-hosted xlwings Lite installs from its own index (the one address Pyodide may then
    fetch from)."""
    local = wheels()
    installs = [local["xlwings"], wheel]
    files = {f"/wheels/{local['micropip'].name}": str(local["micropip"])}
    files |= {f"/harness/tests/{name}": str(ROOT / "tests" / name) for name in DRIVER}
    install: dict[str, Any] = {
        "micropip": f"/wheels/{local['micropip'].name}",
        "install_bytes": sum(w.stat().st_size for w in installs),
    }
    allow: list[str] = []
    if index is None:
        files |= {f"/wheels/{w.name}": str(w) for w in installs}
        install["install"] = [f"emfs:/wheels/{w.name}" for w in installs]
    else:
        if not re.fullmatch(r"http://127\.0\.0\.1:\d+", index) or not requirement:
            raise ValueError(f"an index on loopback and benchsheet's requirement line, not {index!r}, {requirement!r}")
        install["install"] = [f"xlwings=={pinned()['xlwings']}", requirement]
        install["index_urls"] = [f"{index}/simple"]  # micropip appends /<name>/
        allow.append(index)
    spec = {"files": files, "job": {**(job or {}), **install}, "allow": allow}
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
