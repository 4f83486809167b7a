"""The benchmark rules' latency limits (LATENCYBOUNDS): TTFT and TPOT bounds per benchmark and scenario."""

from __future__ import annotations

from benchsheet.data.names import benchmark_keys, canonical_scenario
from benchsheet.errors import not_available


def latency_bounds(bounds: dict[str, dict[str, list[float]]], benchmark: str, scenario: str) -> list[list[float]]:
    """TTFT and TPOT limits (ms) as a 1x2 array; llama2-70b covers its -99 and -99.9."""
    scen = canonical_scenario(scenario)
    for key in benchmark_keys(benchmark):
        if key in bounds and scen in bounds[key]:
            ttft, tpot = bounds[key][scen]
            return [[ttft, tpot]]
    raise not_available(
        f"No latency bounds for {benchmark.strip()} {scenario.strip()}: known for {', '.join(sorted(bounds))}"
    )
