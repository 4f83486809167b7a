"""A family's best per-GPU value, and what is ranked by it: BEST, BESTENTRY, MEDIANPERGPU, SPREAD,
HEADLINE, FAMILIES and RESULTS (the selected rows, best per-GPU first).
"""

from __future__ import annotations

from collections.abc import Sequence

from benchsheet.analysis.entries import row_notes
from benchsheet.analysis.pergpu import check_same_units, per_gpu_of, per_gpu_value
from benchsheet.analysis.selection import (
    Filters,
    check_known,
    filter_note,
    matching,
    normalize_round,
    refuse_latency,
    select,
)
from benchsheet.data.names import family_key, family_keys
from benchsheet.data.table import IdSource, Row, Table, round_sort_key
from benchsheet.errors import bad_value, not_available


def _ranked(rows: Sequence[Row]) -> list[tuple[float, Row]]:
    """Rows with a per-GPU value, best first (rows of a latency benchmark were refused before)."""
    out = [(per_gpu_of(r), r) for r in rows if r.gpus > 0]
    if not out:
        raise not_available("No rows with an accelerator count under these filters")
    out.sort(key=lambda p: (-p[0], p[1].entry))
    return out


def _per_gpu_rows(table: Table, benchmark: str, scenario: str, family: str | None, filters: Filters) -> list[Row]:
    """``select`` for a per-GPU answer: a latency benchmark is refused before any filter."""
    refuse_latency(table, benchmark, scenario)
    return select(table, benchmark, scenario, family, filters)


def best_row(table: Table, family: str, benchmark: str, scenario: str, filters: Filters) -> tuple[float, Row]:
    return _ranked(_per_gpu_rows(table, benchmark, scenario, family, filters))[0]


def best(table: Table, family: str, benchmark: str, scenario: str, filters: Filters) -> float:
    return best_row(table, family, benchmark, scenario, filters)[0]


def best_entry(table: Table, family: str, benchmark: str, scenario: str, filters: Filters) -> str:
    return best_row(table, family, benchmark, scenario, filters)[1].entry


def median_per_gpu(table: Table, family: str, benchmark: str, scenario: str, filters: Filters) -> float:
    import statistics  # here: every process that computes formulas paid its import (~3 ms), for MEDIAN only

    values = [v for v, _ in _ranked(_per_gpu_rows(table, benchmark, scenario, family, filters))]
    return float(statistics.median(values))


def rows_behind(table: Table, family: str, benchmark: str, scenario: str, filters: Filters) -> int:
    """How many rows BEST picks its value from (the family's rows under the filters, in the latest round with
    rows): 1 says the value rests on one system alone."""
    return len(_ranked(_per_gpu_rows(table, benchmark, scenario, family, filters)))


def spread(table: Table, family: str, benchmark: str, scenario: str, gpus: int, filters: Filters) -> float:
    """(max - min) / min of per-GPU values among systems with exactly ``gpus``.

    The round is ``filters.round`` or the latest round with such systems; a spread needs two.
    """
    if gpus < 1:
        raise bad_value("gpus must be >= 1")
    refuse_latency(table, benchmark, scenario)
    rows = select(table, benchmark, scenario, family, filters, gpus=gpus)
    if len(rows) < 2:
        raise not_available(
            f"Only one {family} {benchmark} {scenario} system with exactly {gpus} GPUs in round {rows[0].round} "
            f"({rows[0].entry}): a spread needs two"
        )
    values = [v for v, _ in _ranked(rows)]
    return (max(values) - min(values)) / min(values)


def headline(
    table: Table,
    benchmark: str,
    scenario: str,
    old_round: str,
    new_round: str,
    availability: str = "any",
) -> float:
    """Best per-GPU of new_round / best per-GPU of old_round, closed division."""

    def top(rnd: str) -> tuple[float, Row]:
        f = Filters(availability=availability, round=rnd)
        return _ranked(_per_gpu_rows(table, benchmark, scenario, None, f))[0]

    (new, new_row), (old, old_row) = top(new_round), top(old_round)
    check_same_units(old_row, new_row)
    return new / old


def ranked_families(table: Table, benchmark: str, scenario: str, filters: Filters) -> list[str]:
    """Families with per-GPU values under the filters, best first (each family's latest round, as BEST picks).

    Only families whose best row is in the units of the most recent one are ranked: a benchmark
    measured in Queries/s in one round and Tokens/s in another has no common scale.
    """
    filters = filters.check()
    check_known(table, benchmark, scenario)
    refuse_latency(table, benchmark, scenario)
    rnd = normalize_round(filters.round) if filters.round is not None else None
    tops: dict[str, tuple[tuple[int, ...], float, Row]] = {}  # family key -> (round, best per-GPU, row)
    for r in matching(table, benchmark, scenario, None, filters):
        value = per_gpu_value(r)
        if not r.family or value is None or (rnd is not None and r.round != rnd):
            continue
        key = family_key(r.family)
        have = tops.get(key)
        if have is None or (round_sort_key(r.round), value) > have[:2]:
            tops[key] = (round_sort_key(r.round), value, r)
    if not tops:
        raise not_available(f"No closed {table.spelled(benchmark, scenario)} rows{filter_note(filters)}")
    units = max(tops.values(), key=lambda t: t[0])[2].units
    ranked = sorted((t for t in tops.values() if t[2].units == units), key=lambda t: (-t[1], t[2].family.lower()))
    return [t[2].family for t in ranked]


RESULTS_HEADER = (
    "entry",
    "submitter",
    "system",
    "accelerator",
    "GPUs",
    "result",
    "per-GPU",
    "availability",
    "software",
    "note",
    "round",
)


def families(table: Table, benchmark: str, scenario: str, filters: Filters) -> list[list[str]]:
    """``ranked_families`` as a column: one family a row, best first."""
    return [[f] for f in ranked_families(table, benchmark, scenario, filters)]


def results(
    table: Table, benchmark: str, scenario: str, family: str | None, filters: Filters
) -> list[list[str | float | int]]:
    """The selected rows as a table with a header, best per-GPU first; your own runs beside them."""
    rows = select(table, benchmark, scenario, family, filters, heterogeneous=family is None)
    fkeys = family_keys(family) if family else None
    rows += [
        r
        for r in table.bench_rows(benchmark, scenario)
        if r.id_source == IdSource.LOCAL and (fkeys is None or family_key(r.family) in fkeys)
    ]
    if rows[0].throughput:  # best per-GPU first; rows without one (heterogeneous, no count) last
        keyed = sorted(rows, key=lambda r: (per_gpu_value(r) is None, -(per_gpu_value(r) or 0.0), r.entry))
    else:  # latency: lower is better, and there is no per-GPU value
        keyed = sorted(rows, key=lambda r: (r.result, r.entry))
    out: list[list[str | float | int]] = [list(RESULTS_HEADER)]
    for r in keyed:
        value = per_gpu_value(r)
        pg: str | float = "" if value is None else value
        availability = r.availability
        run = table.run(r.entry) if r.id_source == IdSource.LOCAL else None
        if run is not None and not run.valid:
            availability += " (INVALID run)"
        note = "; ".join(row_notes(table, r))
        out.append(
            [
                r.entry,
                r.submitter,
                r.system,
                r.accelerator,
                r.gpus,
                r.result,
                pg,
                availability,
                r.software,
                note,
                r.round,
            ]
        )
    return out
