"""Every published workload held to TTFT/TPOT bounds has its bounds in the shipped table (issue 39, item 1).

The standard is LoadGen's own configuration, ``loadgen/mlperf.conf`` of mlcommons/inference: LoadGen enforces
its ``<model>.Server`` and ``<model>-interactive.Server`` ``ttft_latency``/``tpot_latency`` keys on every LLM
run that reports tokens (``use_token_latencies``), so a row in Tokens/s of a Server or Interactive scenario
met them. For gpt-oss-120b Interactive, ``gpt-oss-120b-interactive.Server`` holds 2,000 ms TTFT and 15 ms TPOT;
the rules text (inference_rules.adoc) writes 20 ms TPOT: the configuration held the rows, so 15 ms is the bound.
"""

from __future__ import annotations

import csv

import pytest

from benchsheet.data.names import benchmark_keys
from benchsheet.data.snapshot import latency_bounds
from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf
from tests.conftest import SHARED


def test_every_token_latency_workload_of_every_round_has_bounds(table: Table) -> None:
    bounds = latency_bounds()
    held = {(r.benchmark, r.scenario) for r in table.rows if r.scenario in ("Server", "Interactive")}
    held = {(b, s) for b, s in held if any(r.units == "Tokens/s" for r in table.bench_rows(b, s))}
    assert ("gpt-oss-120b", "Interactive") in held  # 4 rows in v6.0, 5 in v6.1
    missing = [(b, s) for b, s in sorted(held) if not any(s in bounds.get(k, {}) for k in benchmark_keys(b))]
    assert missing == []


def test_gpt_oss_interactive_bounds_are_loadgens() -> None:
    with (SHARED / "latency_bounds.csv").open(encoding="utf-8") as f:
        line = next(r for r in csv.DictReader(f) if (r["benchmark"], r["scenario"]) == ("gpt-oss-120b", "Interactive"))
    assert "mlperf.conf (gpt-oss-120b-interactive.Server" in line["source"]  # the file names its standard
    assert udf.LATENCYBOUNDS("gpt-oss-120b", "Interactive") == [[2000.0, 15.0]]


def test_slobest_finds_the_interactive_row(table: Table) -> None:
    # 6.1-0074 is GB300's gpt-oss-120b Interactive row: its result / its accelerators, by hand
    row = table.get("6.1-0074", "gpt-oss-120b", "Interactive")
    assert row is not None
    assert round(row.result / row.gpus, 1) == 9295.9
    assert udf.SLOBEST("GB300", "gpt-oss-120b", 2000, 15) == pytest.approx(row.result / row.gpus, rel=1e-12)
    assert udf.SLOBESTENTRY("GB300", "gpt-oss-120b", 2000, 15) == "6.1-0074"
    assert udf.SLOBESTSCENARIO("GB300", "gpt-oss-120b", 2000, 15) == "Interactive"


@pytest.mark.parametrize(
    ("ttft", "tpot", "scenarios"),
    [
        (2000, 15, ["Interactive"]),  # Interactive's bounds exactly (2,000 ms, 15 ms)
        (2000, 20, ["Interactive"]),
        (2500, 40, ["Interactive"]),
        (3000, 79, ["Interactive"]),  # Server allows 80 ms TPOT
        (2999, 80, ["Interactive"]),  # Server allows 3,000 ms TTFT
        (3000, 80, ["Interactive", "Server"]),  # Server's bounds: both met, strictest (lowest TPOT) first
        (5000, 200, ["Interactive", "Server"]),
    ],
)
def test_gpt_oss_scenarios_for_a_target(ttft: float, tpot: float, scenarios: list[str]) -> None:
    got = udf.SLOSCENARIOS("gpt-oss-120b", ttft, tpot)
    assert [row[0] for row in got[1:]] == scenarios


def test_no_gpt_oss_scenario_below_its_interactive_bounds() -> None:
    got = udf.SLOSCENARIOS("gpt-oss-120b", 2000, 10)
    assert got.startswith("#N/A gpt-oss-120b Interactive allows TPOT 15 ms; you asked 10 ms"), got


def test_fleet_with_a_latency_target_sizes_gpt_oss_on_gb300(table: Table) -> None:
    # 1,000,000 tokens/s at 70% on 9,295.9 tokens/s per GPU: 153.7 -> 154 GPUs -> whole nodes of 4: 156
    row = table.get("6.1-0074", "gpt-oss-120b", "Interactive")
    assert row is not None
    raw = 1_000_000 / (row.result / row.gpus * 0.7)
    assert 153 < raw < 154
    got = udf.FLEET("gpt-oss-120b", "", 1_000_000, "GB300", 5, 0.7, 4, 730, "available", "", "", "", None, 2000, 15)
    line = got[1]
    assert (line[2], line[6], line[7], line[8]) == ("Interactive", "6.1-0074", 156, 39)


def test_the_latency_tables_names_work_in_every_slo_function(table: Table) -> None:
    # LATENCYBOUNDS names llama2-70b for both accuracy targets; every SLO function takes that name
    assert udf.LATENCYBOUNDS("llama2-70b", "Interactive") == [[450.0, 40.0]]
    got = udf.SLOSCENARIOS("llama2-70b", 450, 40)
    assert got == udf.SLOSCENARIOS("llama2-70b-99", 450, 40)
    assert [r[0] for r in got[1:]] == ["Interactive"]
    both = [udf.SLOBEST("B200", b, 450, 40) for b in ("llama2-70b-99", "llama2-70b-99.9")]
    assert udf.SLOBEST("B200", "llama2-70b", 450, 40) == max(both)
    assert udf.SLOBESTSCENARIO("B200", "llama2-70b", 450, 40) == "Interactive"
    entry = udf.SLOBESTENTRY("B200", "llama2-70b", 450, 40)
    assert entry in {udf.SLOBESTENTRY("B200", b, 450, 40) for b in ("llama2-70b-99", "llama2-70b-99.9")}
    from benchsheet.analysis.slo import covered

    assert covered(table, latency_bounds(), "llama2-70b") == ["llama2-70b-99", "llama2-70b-99.9"]
