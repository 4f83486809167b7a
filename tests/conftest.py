"""Shared test fixtures: the real official files and an isolated user folder."""

from __future__ import annotations

import os
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
