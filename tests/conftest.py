"""Shared test fixtures: the real official files and an isolated user folder."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchsheet.data import store
from benchsheet.data.table import Table
from tests import ROOT

SHARED = Path(os.environ.get("BENCHSHEET_SHARED", ROOT / ".." / "shared" / "mlperf")).resolve()


@pytest.fixture(scope="session")
def shared() -> Path:
    """The official MLCommons files kept in ../shared/mlperf (read-only)."""
    if not (SHARED / "v6.1" / "summary.json").exists():
        pytest.fail(f"official data not found at {SHARED}; set BENCHSHEET_SHARED")
    return SHARED


@pytest.fixture(autouse=True)
def user_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets an empty user data folder and a freshly loaded table."""
    home = tmp_path_factory.mktemp("benchsheet-home")
    monkeypatch.setenv("BENCHSHEET_HOME", str(home))
    store.set_table(None)
    yield home
    store.set_table(None)


SERVER_LOG = "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server"  # a real loadgen run in ../shared/mlperf/loadgen


@pytest.fixture
def run_copy(shared: Path, tmp_path: Path) -> Path:
    """A private copy of a real B200 DeepSeek-R1 Server run: its log, and its system.json two folders up."""
    folder = tmp_path / "run" / "deepseek-r1" / "Server"
    folder.mkdir(parents=True)
    src = shared / "loadgen" / SERVER_LOG
    shutil.copy(src / "mlperf_log_summary.txt", folder)
    shutil.copy(src.parent.parent / "system.json", tmp_path / "run" / "system.json")
    return folder / "mlperf_log_summary.txt"


def falls_back(home: Path, name: str, what: str) -> None:
    """The table loads from the bundled snapshot, its origin naming the user file ``name`` and why."""
    store.set_table(None)
    loaded = store.get_table()
    note = str(loaded.origin)
    assert note.startswith("bundled (") and str(home / name) in note and what in note, note
    assert loaded.rounds == ("5.1", "6.0", "6.1")


@pytest.fixture
def table() -> Table:
    """The bundled table, as the functions see it."""
    return store.get_table()


ENDPOINTS = ROOT / "tests" / "benchsheet" / "data" / "endpoints"  # MLCommons' v1.0 fixtures (SOURCES.toml)


@pytest.fixture
def endpoint_curves() -> Table:
    """The bundled table with the Endpoints fixtures' curves, as the functions see it (the curve
    functions' examples name them)."""
    from benchsheet.data.endpoints import import_submission

    store.set_table(store.get_table().with_curves(import_submission(ENDPOINTS)))
    return store.get_table()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print what the robustness tests tried and what held (the table of docs/calculator.md comes from it)."""
    from tests import robustness

    page = bool(os.environ.get(robustness.ENV))
    path = robustness.write(ROOT, page)
    if path is not None:
        terminalreporter.write_line(f"robustness report: {path}")
