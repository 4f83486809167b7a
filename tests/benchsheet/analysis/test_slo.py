"""The user's latency target (issue 33): which scenarios' official bounds are at least as strict as a p99
TTFT and TPOT target, and BEST restricted to their rows, with a plain answer where none is strict enough.

The bounds are the shipped latency table's (LATENCYBOUNDS); the official figures the tests check them
against are the MLPerf Inference rules' (deepseek-r1: Server TTFT 2,000 ms and TPOT 80 ms, Interactive
TTFT 1,500 ms and TPOT 15 ms)."""

from __future__ import annotations

import pytest

from benchsheet.analysis.slo import strict_scenarios
from benchsheet.catalogue.engine import evaluate
from benchsheet.data.snapshot import latency_bounds
from benchsheet.data.table import Table
from benchsheet.errors import BenchError
from benchsheet.udfs import functions as udf
from excelcalc.values import ReasonedError

HEADER = ["scenario", "p99 TTFT bound (ms)", "p99 TPOT bound (ms)"]


def test_the_shipped_bounds_are_the_official_ones() -> None:
    assert udf.LATENCYBOUNDS("deepseek-r1", "Interactive") == [[1500.0, 15.0]]
    assert udf.LATENCYBOUNDS("deepseek-r1", "Server") == [[2000.0, 80.0]]


@pytest.mark.parametrize(
    ("ttft", "tpot", "scenarios"),
    [
        (2000, 80, ["Interactive", "Server"]),  # the Server bounds themselves: both scenarios' rows meet them
        (5000, 100, ["Interactive", "Server"]),
        (1500, 15, ["Interactive"]),  # exactly Interactive's bounds
        (1999, 100, ["Interactive"]),  # Server allows 2,000 ms TTFT: not strict enough
        (3000, 20, ["Interactive"]),
    ],
)
def test_scenarios_at_least_as_strict_as_the_target(ttft: float, tpot: float, scenarios: list[str]) -> None:
    got = udf.SLOSCENARIOS("deepseek-r1", ttft, tpot)
    assert got[0] == HEADER
    assert [row[0] for row in got[1:]] == scenarios
    bounds = {"Server": [2000.0, 80.0], "Interactive": [1500.0, 15.0]}  # the rules', typed here
    assert all(row[1:] == bounds[row[0]] for row in got[1:])


@pytest.mark.parametrize(
    ("ttft", "tpot", "reason"),
    [
        (2000, 10, "deepseek-r1 Interactive allows TPOT 15 ms; you asked 10 ms: no MLPerf row shows it"),
        (1000, 15, "deepseek-r1 Interactive allows TTFT 1,500 ms; you asked 1,000 ms: no MLPerf row shows it"),
        (1000, 10, "deepseek-r1 Interactive allows TTFT 1,500 ms and TPOT 15 ms; you asked 1,000 ms and 10 ms"),
    ],
)
def test_no_scenario_strict_enough_is_a_plain_answer(ttft: float, tpot: float, reason: str) -> None:
    got = udf.SLOSCENARIOS("deepseek-r1", ttft, tpot)
    assert isinstance(got, str) and got.startswith("#N/A " + reason), got
    assert udf.SLOBEST("GB300", "deepseek-r1", ttft, tpot) == got


def test_scenarios_without_bounds_in_the_table_are_said(table: Table) -> None:
    # a latency table without gpt-oss-120b's Interactive line (as shipped before issue 39): its rows are said
    shipped = latency_bounds()
    bounds = {**shipped, "gpt-oss-120b": {"Server": shipped["gpt-oss-120b"]["Server"]}}
    with pytest.raises(BenchError) as err:
        strict_scenarios(table, bounds, "gpt-oss-120b", 3000, 40)
    assert err.value.reason.startswith("gpt-oss-120b Server allows TPOT 80 ms; you asked 40 ms: no MLPerf row shows")
    assert "no bounds for its Interactive rows" in err.value.reason
    none = udf.SLOSCENARIOS("qwen3-vl-235b-a22b", 3000, 80)
    assert none.startswith("#N/A No latency bounds for qwen3-vl-235b-a22b")


def test_llama2_70b_bounds_cover_both_accuracy_targets() -> None:
    assert udf.SLOSCENARIOS("llama2-70b-99.9", 450, 40) == udf.SLOSCENARIOS("llama2-70b-99", 450, 40)
    assert [row[0] for row in udf.SLOSCENARIOS("llama2-70b-99.9", 450, 40)[1:]] == ["Interactive"]


def test_slobest_is_best_of_the_strict_enough_scenarios() -> None:
    server = udf.BEST("GB300", "deepseek-r1", "Server")
    interactive = udf.BEST("GB300", "deepseek-r1", "Interactive")
    assert server > interactive
    assert udf.SLOBEST("GB300", "deepseek-r1", 2000, 80) == server
    assert udf.SLOBEST("GB300", "deepseek-r1", 1500, 15) == interactive
    assert udf.SLOBESTSCENARIO("GB300", "deepseek-r1", 1500, 15) == "Interactive"
    assert udf.SLOBESTSCENARIO("GB300", "deepseek-r1", 2000, 80) == "Server"
    entry = udf.SLOBESTENTRY("GB300", "deepseek-r1", 1500, 15)
    assert entry == udf.BESTENTRY("GB300", "deepseek-r1", "Interactive")
    assert udf.PERGPU(entry, "deepseek-r1", "Interactive") == interactive


def test_slobest_takes_the_filters_and_costs_follow() -> None:
    got = udf.SLOBEST("B300", "deepseek-r1", 2000, 80, "available", 8, "6.0")
    assert got == max(udf.BEST("B300", "deepseek-r1", s, "available", 8, "6.0") for s in ("Server", "Interactive"))
    cost = evaluate('=COSTPERMTOK(5,SLOBEST("GB300","deepseek-r1",1500,15),0.5)')
    assert cost == pytest.approx(5 * 1e6 / (udf.BEST("GB300", "deepseek-r1", "Interactive") * 3600 * 0.5))


def test_a_family_without_rows_in_the_strict_scenario_says_so() -> None:
    got = udf.SLOBEST("B200", "deepseek-r1", 1500, 15)
    assert got.startswith("#N/A B200 has no closed deepseek-r1 Interactive rows"), got


@pytest.mark.parametrize(
    ("formula", "code", "reason"),
    [
        ('=SLOSCENARIOS("deepseek-r1",0,15)', "#VALUE!", "ttft_ms must be a number > 0"),
        ('=SLOSCENARIOS("deepseek-r1",1500,-1)', "#VALUE!", "tpot_ms must be a number > 0"),
        ('=SLOSCENARIOS("deepseek-r1","fast",15)', "#VALUE!", "ttft_ms must be a number, not 'fast'"),
        ('=SLOSCENARIOS("no-such-model",1500,15)', "#N/A", "No benchmark 'no-such-model'"),
        ('=SLOBEST("TPU9","deepseek-r1",1500,15)', "#N/A", "No family 'TPU9'"),
    ],
)
def test_bad_input_answers_an_error_with_its_reason(formula: str, code: str, reason: str) -> None:
    got = evaluate(formula)
    assert isinstance(got, ReasonedError), (formula, got)
    assert str(got) == code and reason in got.reason, (formula, got.reason)
