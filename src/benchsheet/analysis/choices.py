"""Choices offered by the template's drop-down lists, taken from the loaded table.

Pure functions over a ``Table``: which benchmarks, scenarios and accelerator
families a cell may name. Only rows the catalogue functions can answer count:
closed division, a throughput result, a single accelerator family.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchsheet.analysis.pergpu import per_gpu_value
from benchsheet.data.names import SCENARIOS, benchmark_key, scenario_key
from benchsheet.data.table import Row, Table

AVAILABILITY_CHOICES = ("available", "preview", "rdi", "any")


def _usable(rows: Iterable[Row]) -> list[Row]:
    return [r for r in rows if r.division == "closed" and per_gpu_value(r) is not None]


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
