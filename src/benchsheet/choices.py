"""Choices offered by the template's drop-down lists, taken from the loaded table.

Pure functions over a ``Table``: which benchmarks, scenarios and accelerator
families a cell may name. Only rows the catalogue functions can answer count:
closed division, a throughput result, a single accelerator family.
"""

from __future__ import annotations

from collections.abc import Iterable

from .analysis import Filters, per_gpu_of
from .names import SCENARIOS, benchmark_key, family_key, scenario_key
from .table import Row, Table, round_sort_key

AVAILABILITY_CHOICES = ("available", "preview", "rdi", "any")


def _usable(rows: Iterable[Row]) -> list[Row]:
    return [r for r in rows if r.division == "closed" and r.throughput and not r.heterogeneous and r.gpus > 0]


def benchmarks(table: Table) -> list[str]:
    """Benchmarks with per-GPU values, in their official spelling, sorted."""
    return sorted({r.benchmark for r in _usable(table.rows)}, key=str.lower)


def scenarios(table: Table, benchmark: str | None = None) -> list[str]:
    """Scenarios with per-GPU values (of one benchmark if given), in the usual order."""
    bkey = benchmark_key(benchmark) if benchmark else None
    have = {scenario_key(r.scenario) for r in _usable(table.rows) if bkey is None or benchmark_key(r.benchmark) == bkey}
    return [s for s in SCENARIOS if scenario_key(s) in have]


def families(table: Table) -> list[str]:
    """Single accelerator families with per-GPU values, sorted by name."""
    return sorted({r.family for r in _usable(table.rows) if r.family}, key=str.lower)


def ranked_families(table: Table, benchmark: str, scenario: str, filters: Filters | None = None) -> list[str]:
    """Families with rows under the filters (latest round per family, as BEST picks),
    best per-GPU value first."""
    f = (filters or Filters()).check()
    bkey, skey = benchmark_key(benchmark), scenario_key(scenario)
    rows = [
        r
        for r in _usable(table.bench_rows(benchmark, scenario))
        if benchmark_key(r.benchmark) == bkey
        and scenario_key(r.scenario) == skey
        and r.family
        and (f.availability == "any" or r.availability == f.availability)
        and (f.max_gpus is None or r.gpus <= f.max_gpus)
        and (f.round is None or r.round == f.round)
        and (f.software is None or f.software.strip().lower() in r.software.lower())
    ]
    by_family: dict[str, list[Row]] = {}
    for r in rows:
        by_family.setdefault(family_key(r.family), []).append(r)
    best: dict[str, tuple[float, str]] = {}
    for group in by_family.values():
        latest = max((r.round for r in group), key=round_sort_key)
        top = max(per_gpu_of(r) for r in group if r.round == latest)
        best[group[0].family] = (top, group[0].family)
    return [name for name, _ in sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0].lower()))]
