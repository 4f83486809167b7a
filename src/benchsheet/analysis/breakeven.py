"""Break-even: how much more a candidate's GPU-hour may cost than the baseline's for the same cost per
token, the ratio of their per-GPU throughputs (BREAKEVEN, BREAKEVENPRICE).

Each side is an entry ID, a family (its best row under the filters) or a measured number. By default
each family side answers from its own latest round, so the two rows may be of two rounds (what can be
compared now); round "same" asks for the latest round both sides have (RATIOS' default), and PAIRED
names the rows and rounds a BREAKEVEN pairs.
"""

from __future__ import annotations

import math
from dataclasses import replace

from benchsheet.analysis.best import best_row
from benchsheet.analysis.costs import check_price
from benchsheet.analysis.entries import ENTRY_ID, find_row, unknown_family
from benchsheet.analysis.pergpu import check_same_units, per_gpu_of
from benchsheet.analysis.selection import Filters, check_known, matching
from benchsheet.data.names import family_key
from benchsheet.data.table import IdSource, Row, Table, round_sort_key
from benchsheet.errors import bad_value, not_available

SAME = "same"
"""The round argument's value that pairs the latest round both sides have."""


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


def _side_rounds(table: Table, spec: str | float, benchmark: str, scenario: str, filters: Filters) -> set[str] | None:
    """The rounds a side can answer from under the filters: its entry's round, the rounds of a family's
    rows with a per-GPU value; None for a number (it has no round)."""
    if isinstance(spec, float | int):
        return None
    if table.entry_rows(spec) or ENTRY_ID.fullmatch(spec.strip()):
        row = find_row(table, spec, benchmark, scenario)
        return None if row.id_source == IdSource.LOCAL else {row.round}  # an own run is of no MLPerf round
    if family_key(spec) not in table.families:
        raise unknown_family(table, spec, "entry or family")
    return {r.round for r in matching(table, benchmark, scenario, spec, filters.check()) if r.gpus > 0}


def _same_round(
    table: Table, baseline: str | float, candidate: str | float, benchmark: str, scenario: str, filters: Filters
) -> Filters:
    """The filters with round "same" made the latest round both sides have (a number side has none)."""
    sides = {
        str(spec).strip(): rounds
        for spec in (baseline, candidate)
        if (rounds := _side_rounds(table, spec, benchmark, scenario, filters)) is not None
    }
    common = set.intersection(*sides.values()) if sides else set()
    if sides and not common:
        have = "; ".join(
            f"{name} in {', '.join(f'v{r}' for r in sorted(rounds, key=round_sort_key)) or 'no round'}"
            for name, rounds in sides.items()
        )
        raise not_available(f"No round where both sides have a {table.spelled(benchmark, scenario)} row: {have}")
    return replace(filters, round=max(common, key=round_sort_key) if common else None)


def pair(
    table: Table, baseline: str | float, candidate: str | float, benchmark: str, scenario: str, filters: Filters
) -> tuple[float, Row | None, float, Row | None]:
    """Both sides of a break-even: (baseline per-GPU, its row, candidate per-GPU, its row)."""
    check_known(table, benchmark, scenario)  # even when both sides are numbers: a ratio is for a workload
    if filters.round is not None and filters.round.strip().lower() == SAME:
        filters = _same_round(table, baseline, candidate, benchmark, scenario, filters)
    base, base_row = per_gpu_spec(table, baseline, benchmark, scenario, filters)
    cand, cand_row = per_gpu_spec(table, candidate, benchmark, scenario, filters)
    if base_row is not None and cand_row is not None:
        check_same_units(base_row, cand_row)
    return base, base_row, cand, cand_row


def breakeven(
    table: Table,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
) -> float:
    base, _, cand, _ = pair(table, baseline, candidate, benchmark, scenario, filters)
    return cand / base


def paired(
    table: Table,
    baseline: str | float,
    candidate: str | float,
    benchmark: str,
    scenario: str,
    filters: Filters,
) -> str:
    """PAIRED: the rows and rounds a BREAKEVEN with the same arguments divides, in words."""
    _, base_row, _, cand_row = pair(table, baseline, candidate, benchmark, scenario, filters)

    def side(role: str, row: Row | None) -> str:
        if row is None:
            return f"{role}: the number given"
        if row.id_source == IdSource.LOCAL:
            return f"{role} {row.entry} (your own run, {row.gpus} GPUs)"
        return f"{role} {row.entry} (v{row.round}, {row.availability}, {row.gpus} GPUs)"

    own = [r is not None and r.id_source == IdSource.LOCAL for r in (cand_row, base_row)]
    if all(own):
        head = "your own runs, not MLPerf results"
    elif any(own):
        head = "your own run against " + ("an MLPerf result" if None not in (cand_row, base_row) else "a number")
    elif cand_row is not None and base_row is not None:
        c, b = cand_row.round, base_row.round
        head = f"same round (v{c})" if c == b else f"across rounds: v{c} over v{b}"
    else:
        head = "one side is a number"
    return f"{head}: {side('candidate', cand_row)} over {side('baseline', base_row)}"


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
