"""Energy: throughput per watt of measured system power (PERWATT) and its citation (ENERGYCITE).

Only a measured power counts, as the MLPerf Results Messaging Guidelines require; a design figure
never does.
"""

from __future__ import annotations

from benchsheet.analysis.citations import figure_text
from benchsheet.analysis.entries import find_row
from benchsheet.data.table import Row, Table
from benchsheet.errors import not_available


def measured_watts(table: Table, entry: str, benchmark: str, scenario: str) -> tuple[Row, float]:
    """The row and its measured system power in watts; only a measurement counts (never a design figure)."""
    r = find_row(table, entry, benchmark, scenario)
    if not r.has_power:
        raise not_available(
            f"{r.entry} {r.benchmark} {r.scenario} has no measured power: the MLPerf Results Messaging "
            "Guidelines allow power-normalized figures only from measured power"
        )
    if r.power_units != "Watts" or not r.throughput:
        raise not_available(
            f"{r.entry} {r.benchmark} {r.scenario} measured energy in {r.power_units} per query, not power in "
            "Watts: no throughput per watt"
        )
    return r, r.power_result


def per_watt(table: Table, entry: str, benchmark: str, scenario: str) -> float:
    """Result / measured system power: tokens (or samples) per joule."""
    r, watts = measured_watts(table, entry, benchmark, scenario)
    return r.result / watts


def energy_cite(table: Table, entry: str, benchmark: str, scenario: str) -> str:
    """A short citation of a per-watt figure: the measured power, who measured it, the source file."""
    r, watts = measured_watts(table, entry, benchmark, scenario)
    unit = r.units.removesuffix("/s")
    return (
        f"MLPerf® Inference v{r.round} {r.entry} {r.benchmark} {r.scenario}: {figure_text(r.result)} {r.units} at "
        f"{watts:,.0f} W system power measured by {r.submitter} ({r.source}, SHA-256 {r.sha256[:12]}...): "
        f"{r.result / watts:.3g} {unit}/J, derived, not an official MLPerf result."
    )
