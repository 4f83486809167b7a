"""Choices offered by the template's drop-down lists, taken from the loaded table.

Pure functions over a ``Table``: which benchmarks, scenarios and accelerator
families a cell may name. Only rows the catalogue functions can answer count:
closed division, a throughput result, a single accelerator family.
"""

from __future__ import annotations

from collections.abc import Iterable

from benchsheet.analysis.pergpu import per_gpu_value
from benchsheet.data.names import SCENARIOS, benchmark_key, scenario_key
from benchsheet.data.table import Row, Table, round_sort_key

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


def workload_units(table: Table) -> list[tuple[str, str]]:
    """("benchmark scenario", the unit of its per-GPU values) for each workload with per-GPU values, from its
    latest round's rows (as ``COSTPERMTOK``'s units reads a workload); one in two units is left out."""
    latest: dict[tuple[str, str], list[Row]] = {}
    for r in _usable(table.rows):
        rows = latest.setdefault((r.benchmark, r.scenario), [])
        if rows and round_sort_key(r.round) > round_sort_key(rows[0].round):
            rows.clear()
        if not rows or r.round == rows[0].round:
            rows.append(r)
    units = {w: {r.units for r in rows} for w, rows in latest.items()}
    return sorted(((f"{b} {s}", u.pop()) for (b, s), u in units.items() if len(u) == 1), key=lambda p: p[0].lower())
