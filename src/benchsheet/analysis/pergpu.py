"""Per-GPU values: the one division, the reason a row has none, and ratios of two entries' values.

``per_gpu_value`` is the one place that divides a result by its accelerators; every per-GPU
figure of benchsheet (PERGPU, BEST, GAIN, SCALING, the claims) goes through it. Two rows are only
compared in the same units (``check_same_units``).
"""

from __future__ import annotations

from benchsheet.analysis.entries import entry_rows, find_row
from benchsheet.data.names import PIPELINE_BENCHMARKS, benchmark_key, is_pipeline
from benchsheet.data.table import Row, Table
from benchsheet.errors import not_available


def per_gpu_value(row: Row) -> float | None:
    """The row's result per accelerator; None where it has no meaning. The one place that divides."""
    # row.benchmark is stored as its key (importers), so the pipeline test is a set look-up
    if row.heterogeneous or not row.throughput or row.gpus <= 0 or row.benchmark in PIPELINE_BENCHMARKS:
        return None
    return row.result / row.gpus


def per_gpu_of(row: Row) -> float:
    """The row's result per accelerator, or the reason it has none."""
    value = per_gpu_value(row)
    if value is not None:
        return value
    if row.heterogeneous:
        raise not_available(f"{row.entry} is heterogeneous ({row.family}): no per-GPU value")
    if not row.throughput:
        raise not_available(f"{row.entry} {row.benchmark} {row.scenario} is a latency in {row.units}: no per-GPU value")
    if is_pipeline(row.benchmark):
        raise not_available(pipeline_reason(row.benchmark))
    if row.accelerator:
        raise not_available(f"{row.entry} does not give its accelerator count ({row.accelerator}): no per-GPU value")
    raise not_available(f"{row.entry} has no accelerators (CPU-only): no per-GPU value")


def pipeline_reason(benchmark: str) -> str:
    """Why a pipeline benchmark (CPU stages in it) has no per-accelerator value."""
    return (
        f"{benchmark_key(benchmark)} times a whole pipeline with CPU stages (retrieval, database): "
        "no per-accelerator value"
    )


def check_same_units(a: Row, b: Row) -> None:
    """A ratio of two rows is only meaningful in one unit (llama3.1-8b Interactive was Queries/s in v5.1)."""
    if a.units != b.units:
        raise not_available(f"units differ: {a.entry} is in {a.units}, {b.entry} in {b.units}; no ratio")


def pergpu(table: Table, entry: str, benchmark: str | None = None, scenario: str | None = None) -> float:
    """Per-accelerator result; benchmark and scenario may be left out when unambiguous."""
    if benchmark is not None and scenario is not None:
        return per_gpu_of(find_row(table, entry, benchmark, scenario))
    rows = entry_rows(table, entry)
    eid = rows[0].entry
    if benchmark is None:
        benches = sorted({r.benchmark for r in rows if r.throughput})
        if len(benches) != 1:
            raise not_available(
                f"{eid} has several benchmarks: give one of {', '.join(benches)}"
                if benches
                else f"{eid} has no throughput result"
            )
        benchmark = benches[0]
    bkey = benchmark_key(benchmark)
    if scenario is None:
        scens = sorted({r.scenario for r in rows if benchmark_key(r.benchmark) == bkey})
        if not scens:
            find_row(table, entry, benchmark, "Server")  # raises with the choices
        scenario = "Server" if "Server" in scens else scens[0] if len(scens) == 1 else ""
        if not scenario:
            raise not_available(f"{eid} {benchmark} has several scenarios: give one of {', '.join(scens)}")
    return per_gpu_of(find_row(table, entry, benchmark, scenario))


def gain(table: Table, old_entry: str, new_entry: str, benchmark: str, scenario: str) -> float:
    old, new = table.get(old_entry, benchmark, scenario), table.get(new_entry, benchmark, scenario)
    if old is None or new is None:  # name what the two share, so that nobody has to guess a benchmark
        olds, news = entry_rows(table, old_entry), entry_rows(table, new_entry)  # an unknown entry says so
        lacking = (olds if old is None else news)[0].entry
        both = sorted({f"{r.benchmark} {r.scenario}" for r in olds} & {f"{r.benchmark} {r.scenario}" for r in news})
        shared = f"both have: {', '.join(both)}" if both else "have no benchmark and scenario in common"
        workload = table.spelled(benchmark, scenario)
        raise not_available(f"{lacking} has no {workload} result; {olds[0].entry} and {news[0].entry} {shared}")
    check_same_units(old, new)
    return per_gpu_of(new) / per_gpu_of(old) - 1


def scaling(table: Table, small_entry: str, large_entry: str, benchmark: str, scenario: str) -> float:
    small, large = find_row(table, small_entry, benchmark, scenario), find_row(table, large_entry, benchmark, scenario)
    check_same_units(small, large)
    return per_gpu_of(large) / per_gpu_of(small)
