"""Release-ready packaging, as CI checks it (.ci/run): build, check, install the wheel alone, run the main job.

    python scripts/check_release.py [--outdir DIST]

1. ``python -m build``: the sdist, then the wheel built from that sdist (so the sdist is complete).
2. ``twine check --strict`` on both (the metadata and README render as an index would show them).
3. A fresh virtual environment in a temporary folder outside the checkout; ``pip install`` of the wheel
   alone (its dependencies from the index); ``benchsheet`` must be imported from that environment.
4. The README's main job (its first command, from ``pip install .`` on) run twice in that folder, with no
   source tree on the path; it must write the workbook.
Exit status 0 when every step held; the failing step's output otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main_job() -> str:
    """The README's first command after its ``pip install .``: what a user runs once benchsheet is installed."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first: str = re.findall(r"```bash\n(.+?)\n```", readme, flags=re.DOTALL)[0]
    _, sep, job = first.partition("pip install . && ")
    if not sep:
        raise SystemExit("the README's first command does not contain `pip install . && `")
    return job


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    print("+", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist")
    outdir = parser.parse_args().outdir.resolve()
    shutil.rmtree(outdir, ignore_errors=True)
    run([sys.executable, "-m", "build", "--outdir", str(outdir), str(ROOT)], ROOT)
    built = sorted(outdir.iterdir())
    wheels = [p for p in built if p.suffix == ".whl"]
    if len(wheels) != 1 or len(built) != 2:
        raise SystemExit(f"expected one wheel and one sdist in {outdir}, found {[p.name for p in built]}")
    run([sys.executable, "-m", "twine", "check", "--strict", *map(str, built)], ROOT)

    with tempfile.TemporaryDirectory(prefix="benchsheet-release-") as tmp:
        work = Path(tmp)
        venv = work / "venv"
        run([sys.executable, "-m", "venv", str(venv)], work)
        bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
        run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheels[0])], work)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "BENCHSHEET_HOME")}
        env |= {"PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "VIRTUAL_ENV": str(venv)}
        env["BENCHSHEET_HOME"] = str(work / "home")  # a user folder of its own: the bundled snapshot answers
        where = run([str(bin_dir / "python"), "-c", "import benchsheet; print(benchsheet.__file__)"], work, env)
        if not Path(where.strip()).is_relative_to(venv):
            raise SystemExit(f"benchsheet was imported from {where.strip()}, not from the fresh environment")
        job = main_job()
        for _ in range(2):  # the README's commands work twice in the same folder
            print(run(["bash", "-c", job], work, env)[-600:])
        if not (work / "cluster-sizing.xlsx").is_file():
            raise SystemExit(f"the main job ({job}) wrote no cluster-sizing.xlsx")
    print(f"release check passed: {', '.join(p.name for p in built)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
