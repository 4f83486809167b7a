"""Break-even: how much more a candidate's GPU-hour may cost than the baseline's for the same cost per
token, the ratio of their per-GPU throughputs (BREAKEVEN, BREAKEVENPRICE).

Each side is an entry ID, a family (its best row under the filters) or a measured number.
"""

from __future__ import annotations

import math

from benchsheet.analysis.best import best_row
from benchsheet.analysis.costs import check_price
from benchsheet.analysis.entries import ENTRY_ID, find_row, unknown_family
from benchsheet.analysis.pergpu import check_same_units, per_gpu_of
from benchsheet.analysis.selection import Filters, check_known
from benchsheet.data.names import family_key
from benchsheet.data.table import Row, Table
from benchsheet.errors import bad_value


def per_gpu_spec(
    table: Table, spec: str | float, benchmark: str, scenario: str, filters: Filters
) -> tuple[float, Row | None]:
    """Per-GPU throughput of an entry ID, a family's best row, or a number, with the row behind it."""
    if isinstance(spec, float | int):
        if not math.isfinite(spec) or spec <= 0:
            raise bad_value("a measured per-GPU throughput must be a number > 0")
        return float(spec), None
    if table.entry_rows(spec) or ENTRY_ID.fullmatch(spec.strip()):
        row = find_row(table, spec, benchmark, scenario)
        return per_gpu_of(row), row
    if family_key(spec) not in table.families:
        raise unknown_family(table, spec, "entry or family")
    value, row = best_row(table, spec, benchmark, scenario, filters)
    return value, row


def breakeven(
    table: Table,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
) -> float:
    check_known(table, benchmark, scenario)  # even when both sides are numbers: a ratio is for a workload
    base, base_row = per_gpu_spec(table, baseline, benchmark, scenario, filters)
    cand, cand_row = per_gpu_spec(table, candidate, benchmark, scenario, filters)
    if base_row is not None and cand_row is not None:
        check_same_units(base_row, cand_row)
    return cand / base


def breakeven_price(
    table: Table,
    baseline_price: float,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
) -> float:
    check_price(baseline_price, "baseline_price")
    return baseline_price * breakeven(table, baseline, candidate, benchmark, scenario, filters)
