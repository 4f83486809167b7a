"""The user's latency target: which scenarios' latency bounds (the shipped table of LATENCYBOUNDS) are at
least as strict as a p99 TTFT and TPOT target, and a family's best per-GPU value on their rows only
(SLOSCENARIOS, SLOBEST, SLOBESTENTRY, SLOBESTSCENARIO).

A row of a scenario met its bounds, so it meets any target at least as loose; a scenario whose bounds are
looser than the target, or which the table gives no bounds for, shows nothing about it. The bounds are
the rules' per benchmark and scenario, as shipped; a round whose rules set others is not told apart.
"""

from __future__ import annotations

from benchsheet.analysis.best import best_row
from benchsheet.analysis.costs import check_rate
from benchsheet.analysis.selection import Filters, check_known
from benchsheet.data.names import SCENARIOS, benchmark_key, benchmark_keys
from benchsheet.data.table import Row, Table
from benchsheet.errors import BenchError, not_available

Bounds = dict[str, dict[str, list[float]]]
SLO_HEADER = ["scenario", "p99 TTFT bound (ms)", "p99 TPOT bound (ms)"]


def ms_text(value: float) -> str:
    """A latency as the user asked it: 449.9999 is not rounded to a bound of 450."""
    return f"{value:,.15g} ms"


def covered(table: Table, bounds: Bounds, benchmark: str) -> list[str]:
    """The table's benchmarks a name stands for: itself, or, for a name of the latency table's that the
    results split by accuracy target (llama2-70b), each benchmark it covers (llama2-70b-99, llama2-70b-99.9)."""
    if table.has_benchmark(benchmark) or benchmark_key(benchmark) not in bounds:
        check_known(table, benchmark, SCENARIOS[0])  # an unknown benchmark says so first
        return [benchmark]
    key = benchmark_key(benchmark)
    return sorted({r.benchmark for r in table.rows if benchmark_keys(r.benchmark)[1] == key and r.benchmark != key})


def _scenario_bounds(table: Table, bounds: Bounds, benchmark: str) -> dict[str, list[float]]:
    covered(table, bounds, benchmark)
    for key in benchmark_keys(benchmark):
        if key in bounds:
            return bounds[key]
    raise not_available(f"No latency bounds for {benchmark.strip()}: known for {', '.join(sorted(bounds))}")


def strict_scenarios(
    table: Table, bounds: Bounds, benchmark: str, ttft_ms: float, tpot_ms: float
) -> list[tuple[str, float, float]]:
    """(scenario, TTFT bound, TPOT bound) of the scenarios whose bounds are at least as strict as the
    target, strictest first; none is a ``#N/A`` naming the nearest scenario and what it allows."""
    check_rate(ttft_ms, "ttft_ms")
    check_rate(tpot_ms, "tpot_ms")
    by_scenario = _scenario_bounds(table, bounds, benchmark)
    ranked = sorted(((s, b[0], b[1]) for s, b in by_scenario.items()), key=lambda x: (x[2], x[1], x[0]))
    strict = [x for x in ranked if x[1] <= ttft_ms and x[2] <= tpot_ms]
    if strict:
        return strict
    scen, ttft, tpot = min(ranked, key=lambda x: (x[1] > ttft_ms) + (x[2] > tpot_ms))  # the nearest, strictest
    failing = [(name, bound, asked) for name, bound, asked in (("TTFT", ttft, ttft_ms), ("TPOT", tpot, tpot_ms))]
    failing = [(name, bound, asked) for name, bound, asked in failing if bound > asked]
    said = " and ".join(f"{name} {ms_text(bound)}" for name, bound, _ in failing)
    asked = " and ".join(ms_text(a) for _, _, a in failing)
    reason = f"{table.spelled(benchmark, scen)} allows {said}; you asked {asked}: no MLPerf row shows it"
    latency_scenarios = {s for scenarios in bounds.values() for s in scenarios}
    benches = covered(table, bounds, benchmark)
    unbounded = [
        s
        for s in SCENARIOS
        if s in latency_scenarios - set(by_scenario) and any(table.bench_rows(b, s) for b in benches)
    ]
    if unbounded:
        reason += f" (the latency table has no bounds for its {' and '.join(unbounded)} rows)"
    raise not_available(reason)


def slo_scenarios(table: Table, bounds: Bounds, benchmark: str, ttft_ms: float, tpot_ms: float) -> list[list[object]]:
    """SLOSCENARIOS: a header, then each scenario at least as strict as the target, strictest first."""
    rows = strict_scenarios(table, bounds, benchmark, ttft_ms, tpot_ms)
    return [list(SLO_HEADER), *([s, ttft, tpot] for s, ttft, tpot in rows)]


def slo_best_row(
    table: Table, bounds: Bounds, family: str, benchmark: str, ttft_ms: float, tpot_ms: float, filters: Filters
) -> tuple[float, Row]:
    """The family's best per-GPU value (BEST's choice in each scenario) among the strict-enough scenarios."""
    found: list[tuple[float, Row]] = []
    refused: list[BenchError] = []
    for scenario, _, _ in strict_scenarios(table, bounds, benchmark, ttft_ms, tpot_ms):
        for bench in covered(table, bounds, benchmark):
            try:
                found.append(best_row(table, family, bench, scenario, filters))
            except BenchError as err:
                refused.append(err)
    if not found:
        raise refused[0]  # the strictest scenario's reason
    return max(found, key=lambda p: p[0])  # a tie keeps the stricter scenario


def slo_best(
    table: Table, bounds: Bounds, family: str, benchmark: str, ttft_ms: float, tpot_ms: float, filters: Filters
) -> float:
    return slo_best_row(table, bounds, family, benchmark, ttft_ms, tpot_ms, filters)[0]


def slo_best_entry(
    table: Table, bounds: Bounds, family: str, benchmark: str, ttft_ms: float, tpot_ms: float, filters: Filters
) -> str:
    return slo_best_row(table, bounds, family, benchmark, ttft_ms, tpot_ms, filters)[1].entry


def slo_best_scenario(
    table: Table, bounds: Bounds, family: str, benchmark: str, ttft_ms: float, tpot_ms: float, filters: Filters
) -> str:
    return slo_best_row(table, bounds, family, benchmark, ttft_ms, tpot_ms, filters)[1].scenario
