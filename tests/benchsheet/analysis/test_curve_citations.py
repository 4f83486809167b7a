"""CURVECITE: a point of an MLPerf Endpoints curve cited as the MLPerf Results Messaging Guidelines ask
(submitter, system, benchmark and version, concurrency, derived-metric note, each file's SHA-256); CITE
of a curve says to use it, and CITE's answers on the Inference rows are as before (issue 31, item 3)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

from benchsheet.analysis.citations import LINE_LIMIT, NOT_VERIFIED, TRADEMARK, cite, curve_cite
from benchsheet.data.endpoints import import_submission
from benchsheet.data.table import Table
from benchsheet.errors import BenchError

ENDPOINTS = Path(__file__).parents[1] / "data" / "endpoints"
A, CB = "sub_a/system_a/gpt-oss-120b", "sub_b/system_b/gpt-oss-120b"


@pytest.fixture
def with_curves(table: Table) -> Table:
    return table.with_curves(import_submission(ENDPOINTS))


WHOLE = "Note: Figures over the whole run: the submission gives the steady-state window's extent, not its figures."


def test_a_point_is_cited_line_by_line(table: Table) -> None:
    # MLCommons' fixtures are a test submission (tests/benchsheet/data/test_endpoints_official.py): cited here as
    # a real one would be, their test label taken off
    real = table.with_curves([replace(c, test="") for c in import_submission(ENDPOINTS)])
    lines = [row[0] for row in curve_cite(real, A, 64)]
    assert lines[:3] == [
        "MLPerf® Endpoints (v1.0 submission layout), Standardized division, Available category, gpt-oss-120b, "
        "submission sub_a, system system_a, point r64 (concurrency 64).",
        # 8,448,000 output tokens in 1,200 s; TPOT p90 10 ms; TTFT p90 63.2 ms (the fixture's result_summary.json)
        "Result: 7,040.0 tokens/s at 100.0 tokens/s per user (TPOT p90 10 ms, TTFT p90 63.2 ms) on "
        "8 x AMD Instinct MI355X.",
        "System: system_a, submitted by Submitter-A.",
    ]
    assert lines[3] == WHOLE
    assert lines[4].startswith("Source: ") and lines[4].endswith(
        "/r64/result_summary.json, imported " + (import_submission(ENDPOINTS)[0].imported_at[:10]) + "."
    )
    assert "section 9.1" in lines[8]
    assert lines[9] == (
        "Per-GPU value 880.0 tokens/s per accelerator: derived by benchsheet (tokens/s / 8), not an official "
        f"MLPerf result. {NOT_VERIFIED}"
    )
    assert lines[-1] == TRADEMARK
    assert all(len(line) <= LINE_LIMIT for line in lines)


def test_each_file_is_cited_with_its_sha256(with_curves: Table) -> None:
    folder = ENDPOINTS / "sub_a" / "results" / "system_a" / "gpt-oss-120b" / "r64"
    expected = " ".join(
        f"SHA-256 of {name}: {hashlib.sha256((folder / name).read_bytes()).hexdigest()}."
        for name in ("system_desc.json", "point.yaml", "result_summary.json")
    )
    assert curve_cite(with_curves, A, 64, "sha256") == expected


def test_a_flagged_point_says_so(with_curves: Table) -> None:
    assert curve_cite(with_curves, CB, 2048, "notes") == (
        "Note: Not a usable point (run interrupted); CURVEAT and BREAKEVEN leave it out. " + WHOLE
    )
    assert curve_cite(with_curves, CB, 64, "notes") == WHOLE


def test_a_test_submission_is_never_cited_as_a_result(with_curves: Table) -> None:
    entry = str(curve_cite(with_curves, A, 64, "entry"))
    assert entry.startswith(f"{A}: a test submission, not an MLPerf result: its submitter_contact is at example.com")
    assert "MLPerf® Endpoints" not in entry and "Available" not in entry


def test_errors(with_curves: Table) -> None:
    with pytest.raises(BenchError, match=r"^#N/A sub_a/system_a/gpt-oss-120b has no point at concurrency 32: "):
        curve_cite(with_curves, A, 32)
    with pytest.raises(BenchError, match=r"^#VALUE! No part 'everything'"):
        curve_cite(with_curves, A, 64, "everything")
    with pytest.raises(BenchError) as err:
        cite(with_curves, A, "gpt-oss-120b", "Server")
    assert err.value.reason.endswith("CURVECITE(curve, concurrency) cites one of its points")


def test_cite_of_an_inference_entry_is_unchanged(with_curves: Table, table: Table) -> None:
    assert cite(with_curves, "6.1-0052", "gpt-oss-120b", "Server") == cite(table, "6.1-0052", "gpt-oss-120b", "Server")


def test_in_a_formula(with_curves: Table) -> None:
    from benchsheet.catalogue.engine import evaluate
    from benchsheet.data import store

    store.set_table(with_curves)
    assert (
        evaluate(f'=ROWS(CURVECITE("{A}",64))') == 11
    )  # entry, result, system, the basis note, source, 3 SHA-256, 2 derived, trademark
    assert evaluate(f'=CURVECITE("{A}",64,"system")') == "System: system_a."  # a test submission: no submitter
