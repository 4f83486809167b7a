"""Releases and where users install from (issue 43 item 1): the version's one source, the changelog, the release
workflow, and a company's own package index proved on loopback with pip and with micropip in Pyodide.

The workflow (.github/workflows/release.yml) cannot run here; what is checked is what it runs: CI's release check
(scripts/check_release.py) building the files it then publishes, with PyPI's trusted publishing and no secret, and
its own shell step, run here, that refuses a tag naming another version. The slow tests start pypiserver (from
PyPI, the test extra) on 127.0.0.1, upload the wheel built from this checkout with twine, as a company uploads to
its Artifactory, Nexus or devpi, and install it from there: pip with --index-url into a fresh virtual environment
(the machine's pip configuration ignored, so nothing else is reached), and micropip with index_urls in the Pyodide
runtime of the Lite test, as a self-hosted xlwings Lite with XLWINGS_PYPI_INDEX_URL does; then a function answers.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # PyYAML, the test extra (no stubs installed)

from benchsheet import __version__
from benchsheet.cli import main
from tests import ROOT, pyodide_harness

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
CHANGELOG = ROOT / "CHANGELOG.md"
GPUS = '=GPUS("5.1-0072")'  # 72: the entry's accelerators, an official field


def _workflow() -> dict[str, Any]:
    doc: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    doc["on"] = doc.pop(True, doc.get("on"))  # YAML 1.1 (PyYAML) reads the key `on` as true
    return doc


def _steps(job: str) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = _workflow()["jobs"][job]["steps"]
    return steps


def test_the_version_has_one_source() -> None:
    """pyproject.toml reads __version__ (setuptools' attr:, from the file's text); nothing else states it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "benchsheet.__version__"}
    from importlib.metadata import version

    assert version("benchsheet") == __version__  # what the installed metadata says


def test_the_changelog_has_a_section_for_this_version() -> None:
    heads = re.findall(r"^## \[([^\]]+)\] - (.+)$", CHANGELOG.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert heads and heads[0][0] == __version__, heads  # newest first


def test_a_tag_publishes_what_the_release_check_built() -> None:
    doc = _workflow()
    assert doc["on"] == {"push": {"tags": ["v*"]}}
    assert doc["permissions"] == {}  # each job asks for what it needs
    build = _steps("build")
    runs = "\n".join(step.get("run", "") for step in build)
    assert "python scripts/check_release.py --outdir dist" in runs  # CI's check (.ci/run runs it too)
    assert re.search(r"pip install .*\bbuild\b.*\btwine\b", runs)  # what the check runs
    upload = next(step for step in build if step.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["path"] == "dist/" and upload["with"]["if-no-files-found"] == "error"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python scripts/check_release.py" in ci


def test_publishing_is_trusted_publishing_without_a_secret() -> None:
    """PyPI's trusted publishing: the job's OIDC token (id-token: write), pypa's action, no password or token."""
    doc = _workflow()
    publish = doc["jobs"]["publish"]
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    steps = publish["steps"]
    download = next(step for step in steps if step.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"] == {"name": "dist", "path": "dist/"}
    assert steps[-1]["uses"].startswith("pypa/gh-action-pypi-publish@") and "with" not in steps[-1]
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "secrets." not in text and "password" not in text.lower().replace("no token or password", "")


def _tag_check() -> str:
    step = next(step for step in _steps("build") if "GITHUB_REF_NAME" in step.get("run", ""))
    script: str = step["run"]
    return script


@pytest.mark.skipif(shutil.which("bash") is None, reason="the workflow's step is a bash script")
@pytest.mark.parametrize(
    ("tag", "dated", "passes"),
    [(f"v{__version__}", True, True), ("v9.9.9", True, False), (f"v{__version__}", False, False)],
    ids=["this version", "another version", "no dated changelog section"],
)
def test_the_workflow_refuses_a_tag_of_another_version(tmp_path: Path, tag: str, dated: bool, passes: bool) -> None:
    """The workflow's own step, run as GitHub runs it, on the file names the build writes."""
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / f"benchsheet-{__version__}-py3-none-any.whl").touch()
    (dist / f"benchsheet-{__version__}.tar.gz").touch()
    date = "2026-12-06" if dated else "unreleased"
    (tmp_path / "CHANGELOG.md").write_text(f"# Changelog\n\n## [{__version__}] - {date}\n", encoding="utf-8")
    env = {"PATH": os.environ["PATH"], "GITHUB_REF_NAME": tag}
    done = subprocess.run(["bash", "-e", "-c", _tag_check()], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert (done.returncode == 0) == passes, done.stdout + done.stderr
    if not passes:
        assert "::error::" in done.stdout


# ------------------------------------------------------------- a company's own package index, on loopback


@dataclass(frozen=True)
class Index:
    url: str  # http://127.0.0.1:PORT
    wheel: Path  # benchsheet's, as uploaded


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _quiet_pip_env() -> dict[str, str]:
    """This process's environment without any pip setting: pip reads no configuration file or PIP_ variable,
    so the index given is the only place it looks."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return env | {"PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _run(cmd: list[str], **kwargs: Any) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{' '.join(cmd)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    out: str = done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """pypiserver on 127.0.0.1 with benchsheet's wheel uploaded by twine, beside the wheels it needs (xlwings'
    pinned Lite wheel, and the desktop dependencies pip downloads as a company's mirror holds them)."""
    tmp = tmp_path_factory.mktemp("index")
    packages = tmp / "packages"
    packages.mkdir()
    wheel = pyodide_harness.build_wheel(tmp)
    _run([sys.executable, "-m", "pip", "download", "-q", "-d", str(packages), str(wheel)])  # its dependencies
    (packages / wheel.name).unlink(missing_ok=True)  # benchsheet itself arrives by upload
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    # -a . -P .: no authentication (uploads too); no fallback: a name it does not hold is not sent to PyPI
    serve = ("--host", "127.0.0.1", "--port", str(port), "-a", ".", "-P", ".", "--disable-fallback")
    server = subprocess.Popen(
        [sys.executable, "-m", "pypiserver", "run", *serve, str(packages)],
        stdout=subprocess.DEVNULL,
        stderr=(tmp / "server.log").open("w"),
    )
    try:
        for _ in range(600):  # until it answers, at most 600 tries of 0.1 s, or it exits
            try:
                with urllib.request.urlopen(f"{url}/simple/", timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None:
                    pytest.fail(f"pypiserver exited: {(tmp / 'server.log').read_text(encoding='utf-8')[-2000:]}")
                time.sleep(0.1)
        else:
            pytest.fail("pypiserver did not answer")
        xlwings = pyodide_harness.wheels()["xlwings"]
        upload = [sys.executable, "-m", "twine", "upload", "--non-interactive", "--disable-progress-bar"]
        _run([*upload, "--repository-url", f"{url}/", "-u", "test", "-p", "unused", str(wheel), str(xlwings)])
        yield Index(url, wheel)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.slow
def test_the_index_serves_the_uploaded_wheel(index: Index) -> None:
    with urllib.request.urlopen(f"{index.url}/simple/benchsheet/", timeout=30) as page:
        html = page.read().decode()
    assert index.wheel.name in html and "#sha256=" in html


@pytest.mark.slow
def test_pip_installs_benchsheet_from_the_company_index(index: Index, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    env = _quiet_pip_env()
    log = _run(
        [str(python), "-m", "pip", "install", "--index-url", f"{index.url}/simple/", f"benchsheet=={__version__}"],
        env=env,
        cwd=tmp_path,
    )
    assert f"{index.url}/packages/{index.wheel.name}" in log  # downloaded from the index, not from elsewhere
    env |= {"BENCHSHEET_HOME": str(tmp_path / "home"), "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    where = _run([str(python), "-c", "import benchsheet; print(benchsheet.__file__)"], env=env, cwd=tmp_path)
    assert Path(where.strip()).is_relative_to(venv)
    assert _run(["benchsheet", "eval", GPUS], env=env, cwd=tmp_path).strip() == "72"


@pytest.mark.slow
def test_micropip_installs_benchsheet_from_the_company_index_in_pyodide(
    index: Index, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line `benchsheet lite requirements.txt` prints for an index, installed as Lite installs it."""
    assert main(["lite", "requirements.txt"]) == 0
    line = capsys.readouterr().out.strip()
    reason = pyodide_harness.missing()
    if reason:
        pytest.skip(reason)
    report = pyodide_harness.run(index.wheel, tmp_path, {"cases": [GPUS]}, index=index.url, requirement=line)
    assert report["platform"] == "emscripten"
    versions = pyodide_harness.pinned()
    assert report["installed"] == {"benchsheet": __version__, "xlwings": versions["xlwings"]}  # nothing else
    assert "network access refused" not in report["stderr"]  # it fetched from the index alone
    assert [a["value"] for a in report["answers"]] == [[[72]]]
