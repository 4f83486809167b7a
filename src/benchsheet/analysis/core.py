"""Analysis: pure functions over a ``Table``.

No I/O and no spreadsheet types here: arguments are already plain Python
(text, numbers, None for "left out"), answers are numbers, text or lists of
rows, and every failure is a ``BenchError`` with a reason a person can act on.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from benchsheet.data.names import (
    AVAILABILITIES,
    PIPELINE_BENCHMARKS,
    SCENARIOS,
    benchmark_key,
    benchmark_keys,
    canonical_scenario,
    close_to,
    either,
    family_key,
    family_keys,
    gpus_per_card,
    is_pipeline,
    scenario_key,
)
from benchsheet.data.table import LATENCY_FIELDS, IdSource, Row, Table, round_sort_key
from benchsheet.errors import BenchError, bad_value, not_available

ENTRY_FIELDS = (
    "submitter",
    "system",
    "platform",
    "accelerator",
    "family",
    "vendor",
    "gpus",
    "nodes",
    "availability",
    "division",
    "suite",
    "round",
    "software",
    "model",
)
RUN_FIELDS = (*LATENCY_FIELDS, "valid")
"""ENTRY fields that only private entries (your own loadgen runs) have."""

TRADEMARK = (
    "MLPerf® and the MLPerf logo are registered and unregistered trademarks of MLCommons "
    "Association in the United States and other countries. All rights reserved. "
    "Unauthorized use strictly prohibited. See www.mlcommons.org for more information."
)
NOT_VERIFIED = "Result not verified by MLCommons Association."
ENTRY_ID = re.compile(r"v?\d+\.\d+-\d{4}|local-\d{4}", re.IGNORECASE)
CATEGORY_NAMES = {"available": "Available", "preview": "Preview", "rdi": "RDI"}


# ----------------------------------------------------------------- entries


def entry_rows(table: Table, entry: str) -> tuple[Row, ...]:
    rows = table.entry_rows(entry)
    if not rows:
        family = table.families.get(family_key(entry))
        if family is not None and not ENTRY_ID.fullmatch(entry.strip()):
            raise not_available(
                f"{family} is an accelerator family, not an entry: BEST(family, benchmark, scenario) gives its "
                "best per-GPU value, BESTENTRY(...) the entry behind it"
            )
        raise not_available(f"Unknown entry {entry.strip()}")
    return rows


def unknown(what: str, text: str, choices: Sequence[str], role: str = "") -> str:
    """Why ``text`` is not a known ``what``: "did you mean ...?" for a close misspelling, then the choices."""
    close = close_to(text, choices)
    listed = ", ".join(choices)
    head = f"Unknown {what} {text.strip()!r}" + (f" ({role})" if role else "")
    return f"{head}: did you mean {either(close)}? Known: {listed}" if close else f"{head}: use one of {listed}"


def unknown_family(table: Table, family: str, what: str = "family", role: str = "") -> BenchError:
    return not_available(unknown(what, family, sorted(table.families.values()), role))


def find_row(table: Table, entry: str, benchmark: str, scenario: str) -> Row:
    row = table.get(entry, benchmark, scenario)
    if row is not None:
        return row
    rows = entry_rows(table, entry)
    have = ", ".join(sorted({f"{r.benchmark} {r.scenario}" for r in rows}))
    raise not_available(f"{rows[0].entry} has no {table.spelled(benchmark, scenario)} result (it has: {have})")


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
        raise not_available(_pipeline_reason(row.benchmark))
    if row.accelerator:
        raise not_available(f"{row.entry} does not give its accelerator count ({row.accelerator}): no per-GPU value")
    raise not_available(f"{row.entry} has no accelerators (CPU-only): no per-GPU value")


def _pipeline_reason(benchmark: str) -> str:
    return (
        f"{benchmark_key(benchmark)} times a whole pipeline with CPU stages (retrieval, database): "
        "no per-accelerator value"
    )


def model_run(row: Row) -> str:
    """The model the row ran: the file's UsedModel in the open division; the benchmark's own in the closed."""
    return row.used_model if row.division == "open" and row.used_model else row.benchmark


def _same_units(a: Row, b: Row) -> None:
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


def result(table: Table, entry: str, benchmark: str, scenario: str) -> float:
    return find_row(table, entry, benchmark, scenario).result


def gpus(table: Table, entry: str) -> int:
    row = entry_rows(table, entry)[0]
    if row.gpus == 0 and row.accelerator:
        raise not_available(f"{row.entry} does not give its accelerator count ({row.accelerator})")
    return row.gpus


def entry_field(table: Table, entry_id: str, field: str) -> str | int | float | bool:
    name = field.strip().lower()
    if name not in ENTRY_FIELDS + RUN_FIELDS:
        raise bad_value(f"Unknown field {field!r}: use one of {', '.join(ENTRY_FIELDS + RUN_FIELDS)}")
    rows = entry_rows(table, entry_id)
    row = rows[0]
    if name == "model":  # an open entry is one (system, model run); a closed entry runs its benchmarks' models
        return ", ".join(dict.fromkeys(model_run(r) for r in rows))
    if name in ENTRY_FIELDS:
        value: str | int = getattr(row, name)
        return value
    run = table.run(row.entry)
    if run is None:
        raise not_available(f"{name} is known only for your own runs (benchsheet import-run), not {row.entry}")
    fact: float | bool | None = run.valid if name == "valid" else getattr(run.latencies, name)
    if fact is None:
        raise not_available(f"{row.entry}'s log has no {name}")
    return fact


# --------------------------------------------------------------- selection


@dataclass(frozen=True, slots=True)
class Filters:
    """Which rows a family argument selects (closed division always)."""

    availability: str = "available"  # available / preview / rdi / any
    max_gpus: int | None = None
    round: str | None = None
    software: str | None = None

    def check(self) -> Filters:
        av = self.availability.strip().lower()
        if av not in (*AVAILABILITIES, "any"):
            raise bad_value(
                f"availability must be one of {', '.join(AVAILABILITIES)} or any, not {self.availability!r}"
            )
        if self.max_gpus is not None and self.max_gpus < 1:
            raise bad_value("max_gpus must be >= 1")
        return Filters(av, self.max_gpus, self.round, self.software)


def normalize_round(value: str) -> str:
    text = value.strip().lower().removeprefix("v")
    parts = text.split(".")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):  # "6.²" is no round
        raise bad_value(f"round must look like 6.1 or v6.1, not {value!r}")
    return f"{int(parts[0])}.{int(parts[1])}"


def matching(
    table: Table, benchmark: str, scenario: str, family: str | None, filters: Filters, heterogeneous: bool = False
) -> list[Row]:
    """Closed-division rows passing every filter but the round (heterogeneous systems only when asked)."""
    fkeys = family_keys(family) if family else None
    soft = filters.software.strip().lower() if filters.software else None
    av = filters.availability
    return [
        r
        for r in table.bench_rows(benchmark, scenario)
        if r.division == "closed"
        and (heterogeneous or not r.heterogeneous)
        and (fkeys is None or family_key(r.family) in fkeys)
        and (av == "any" or r.availability == av)
        and (filters.max_gpus is None or r.gpus <= filters.max_gpus)
        and (soft is None or soft in r.software.lower())
    ]


def select(
    table: Table,
    benchmark: str,
    scenario: str,
    family: str | None,
    filters: Filters,
    heterogeneous: bool = False,
    gpus: int | None = None,
) -> list[Row]:
    """Rows for a family (or all families) under the filters, of one round.

    The round is ``filters.round`` or else the latest round that has matching
    rows (with exactly ``gpus`` accelerators, when given). An empty selection
    is an error that says which filter emptied it.
    """
    filters = filters.check()
    check_known(table, benchmark, scenario)
    if family is not None and family_key(family) not in table.families:
        raise unknown_family(table, family)
    rows = matching(table, benchmark, scenario, family, filters, heterogeneous)
    what = f"{family + ' ' if family else ''}{table.spelled(benchmark, scenario)} rows"
    if gpus is not None:
        rows = [r for r in rows if r.gpus == gpus]
        what = what.removesuffix(" rows") + f" systems with exactly {gpus} GPUs"
    if filters.round is not None:
        rnd = normalize_round(filters.round)
        in_round = [r for r in rows if r.round == rnd]
        if not in_round:
            have = ", ".join(sorted({r.round for r in rows}, key=round_sort_key))
            raise not_available(f"No closed {what} in round {rnd}" + (f" (rounds with rows: {have})" if have else ""))
        return in_round
    if not rows:
        raise not_available(_empty_reason(table, benchmark, scenario, family, filters, what, heterogeneous))
    latest = max((r.round for r in rows), key=round_sort_key)
    return [r for r in rows if r.round == latest]


def _empty_reason(
    table: Table, benchmark: str, scenario: str, family: str | None, filters: Filters, what: str, het: bool
) -> str:
    """Why a selection is empty: the filters only where some row passes the rest, else what is really missing."""
    unfiltered = matching(table, benchmark, scenario, family, Filters("any"), het)
    if not unfiltered:
        who = table.families.get(family_key(family), family.strip()) if family else "The closed division"
        return f"{who} has no closed {table.spelled(benchmark, scenario)} rows in any round or availability"
    have = sorted({r.availability for r in unfiltered})
    note = f" (it has {', '.join(have)} rows)" if filters.availability not in (*have, "any") else ""
    return f"No closed {what}{filter_note(filters)}{note}"


def filter_note(f: Filters) -> str:
    parts = []
    if f.availability != "any":
        parts.append(f"availability {f.availability}")
    if f.max_gpus is not None:
        parts.append(f"at most {f.max_gpus} GPUs")
    if f.software:
        parts.append(f"software containing {f.software!r}")
    return " with " + ", ".join(parts) if parts else ""


def check_known(table: Table, benchmark: str, scenario: str) -> None:
    if canonical_scenario(scenario) is None:
        raise bad_value(unknown("scenario", scenario, SCENARIOS))
    if not table.has_benchmark(benchmark):
        known = sorted({r.benchmark for r in table.rows if r.division == "closed"})
        raise not_available(unknown("benchmark", benchmark, known))


def _ranked(rows: Sequence[Row]) -> list[tuple[float, Row]]:
    """Rows with a per-GPU value, best first (rows of a latency benchmark were refused before)."""
    out = [(per_gpu_of(r), r) for r in rows if r.gpus > 0]
    if not out:
        raise not_available("No rows with an accelerator count under these filters")
    out.sort(key=lambda p: (-p[0], p[1].entry))
    return out


def refuse_latency(table: Table, benchmark: str, scenario: str) -> None:
    """Refuse a per-GPU answer for a latency or a pipeline benchmark, before any filter."""
    if is_pipeline(benchmark) and table.has_benchmark(benchmark):
        raise not_available(_pipeline_reason(benchmark))
    rows = table.bench_rows(benchmark, scenario)
    if rows and not any(r.throughput for r in rows):
        r = rows[0]
        raise not_available(f"{r.benchmark} {r.scenario} is a latency in {r.units}: no per-GPU value")


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


# ------------------------------------------------------- money and sizing


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
        _same_units(base_row, cand_row)
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
    _check_price(baseline_price, "baseline_price")
    return baseline_price * breakeven(table, baseline, candidate, benchmark, scenario, filters)


def _check_price(price: float, name: str) -> None:
    if not math.isfinite(price) or price < 0:
        raise bad_value(f"{name} must be a number >= 0")


def _check_rate(rate: float, name: str) -> None:
    if not math.isfinite(rate) or rate <= 0:
        raise bad_value(f"{name} must be a number > 0")


def _check_utilization(u: float) -> None:
    if not (math.isfinite(u) and 0 < u <= 1):
        raise bad_value("utilization must be > 0 and <= 1")


def cost_per_mtok(price_per_gpu_hour: float, tokens_per_sec_per_gpu: float, utilization: float = 1.0) -> float:
    """Dollars per million tokens: price x 1e6 / (tokens/s x 3600 x utilization)."""
    _check_price(price_per_gpu_hour, "price_per_gpu_hour")
    _check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    _check_utilization(utilization)
    served = _served(tokens_per_sec_per_gpu * 3600 * utilization)
    return price_per_gpu_hour * 1e6 / served


def _served(rate: float) -> float:
    """A rate to divide by: two tiny positive inputs multiply to 0.0 in floating point (1e-22 x 1e-308)."""
    if rate <= 0:
        raise BenchError("#NUM!", "the answer is too large to be a number; check the inputs' units")
    return rate


DEFAULT_GPUS_PER_NODE = 8
"""Accelerators per node where a sheet leaves it out: the usual 8-GPU server."""


def gpus_needed(
    target_tokens_per_sec: float,
    tokens_per_sec_per_gpu: float,
    utilization: float = 1.0,
    gpus_per_node: int = DEFAULT_GPUS_PER_NODE,
) -> int:
    """GPUs to buy for a target rate, rounded up to whole nodes."""
    _check_price(target_tokens_per_sec, "target_tokens_per_sec")
    _check_rate(tokens_per_sec_per_gpu, "tokens_per_sec_per_gpu")
    _check_utilization(utilization)
    if gpus_per_node < 1:
        raise bad_value("gpus_per_node must be a whole number >= 1")
    raw = target_tokens_per_sec / _served(tokens_per_sec_per_gpu * utilization)
    if not math.isfinite(raw) or raw > 1e15:
        raise BenchError("#NUM!", "the answer is too large to be a number of GPUs; check the inputs' units")
    # a hair of tolerance so that 16.000000000000004 GPUs is 16, not 17; a positive target needs one GPU
    gpus_exact = max(math.ceil(raw - 1e-9), 1 if target_tokens_per_sec > 0 else 0)
    return math.ceil(gpus_exact / gpus_per_node) * gpus_per_node


def gain(table: Table, old_entry: str, new_entry: str, benchmark: str, scenario: str) -> float:
    old, new = find_row(table, old_entry, benchmark, scenario), find_row(table, new_entry, benchmark, scenario)
    _same_units(old, new)
    return per_gpu_of(new) / per_gpu_of(old) - 1


def scaling(table: Table, small_entry: str, large_entry: str, benchmark: str, scenario: str) -> float:
    small, large = find_row(table, small_entry, benchmark, scenario), find_row(table, large_entry, benchmark, scenario)
    _same_units(small, large)
    return per_gpu_of(large) / per_gpu_of(small)


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
    _same_units(old_row, new_row)
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


def row_notes(table: Table, r: Row) -> list[str]:
    """What a reader must know to use the row's figures (shown in CITE and RESULTS)."""
    notes = []
    if r.division == "open":
        notes.append(f"model run: {model_run(r)} (open division: not the {r.benchmark} benchmark model)")
    per_card = gpus_per_card(r.accelerator)
    if per_card > 1 and r.gpus_in_file:
        notes.append(
            f"{r.gpus} GPUs: the official file counts {r.gpus_in_file} cards of {r.accelerator}, "
            f"{per_card} GPUs per card"
        )
    elif r.gpus_in_file:
        per_node = (
            f" (a# x Nodes) is {r.gpus_in_file // r.nodes} x {r.nodes} = "
            if r.nodes > 1 and r.gpus_in_file % r.nodes == 0
            else " is "
        )
        notes.append(
            f"{r.gpus} accelerators as the accelerator name states; "
            f"the official file's accelerator count{per_node}{r.gpus_in_file}"
        )
    other = {x.round: x.units for x in table.bench_rows(r.benchmark, r.scenario) if x.throughput and x.round != r.round}
    if r.throughput and r.units != "Tokens/s" and other and set(other.values()) == {"Tokens/s"}:
        rounds = ", ".join(f"v{k}" for k in sorted(other, key=round_sort_key))
        notes.append(
            f"units: the official file labels this {r.units}, but {r.benchmark} {r.scenario} is a token rate "
            f"(Tokens/s in {rounds}): kept as published, not comparable across rounds"
        )
    return notes


# --------------------------------------------------------------- citations


CITE_PARTS = ("entry", "result", "system", "notes", "source", "sha256", "derived", "trademark")
"""The parts of a citation, in the order of its lines; ``CITE``'s ``part`` names one."""
LINE_LIMIT = 255
"""The longest line a citation is made of: what classic Excel shows of a UDF's text (longer: #VALUE!)."""


def cite(table: Table, entry: str, benchmark: str, scenario: str, part: str | None = None) -> list[list[str]] | str:
    """A citation in the form the MLPerf Results Messaging Guidelines ask for: a column of lines
    (each a sentence of at most ``LINE_LIMIT`` characters for the real data), or one named part."""
    r = find_row(table, entry, benchmark, scenario)
    parts = citation(table, r)
    if part is None:
        return [[line] for _, line in parts]
    key = part.strip().lower()
    if key not in CITE_PARTS:
        raise bad_value(f"Unknown part {part!r}: use one of {', '.join(CITE_PARTS)}, or leave it out for every line")
    return " ".join(line for name, line in parts if name == key)


def citation(table: Table, r: Row) -> list[tuple[str, str]]:
    """The citation of one row as (part, line) pairs, in order; a part may have no line (notes)."""
    if r.id_source == IdSource.LOCAL:
        return _cite_run(table, r)
    src = next((s for s in table.sources if s.round == r.round and s.sha256 == r.sha256), None)
    if src is None:
        where = r.source
    elif src.url and src.url != src.file:
        where = f"{src.file}, a copy of {src.url}"  # the SHA-256 is the copy's
    else:
        where = src.file
    retrieved = src.imported_at[:10] if src else "unknown"
    derived_id = r.id_source == IdSource.DERIVED
    id_note = " (ID derived by benchsheet)" if derived_id else ""
    ids = "; the file carries no entry IDs: benchsheet derives them from MLCommons' numbering" if derived_id else ""
    filed = f"filed under {r.benchmark} {r.scenario}" if r.division == "open" else f"{r.benchmark} {r.scenario}"
    per_card = gpus_per_card(r.accelerator)
    on = (
        f"{r.gpus_in_file} x {r.accelerator} ({r.gpus} GPUs)"
        if per_card > 1 and r.gpus_in_file
        else f"{r.gpus} x {r.accelerator or 'CPU'}"
    )
    parts = [
        (
            "entry",
            f"MLPerf® Inference v{r.round}, {r.division.capitalize()} division, "
            f"{CATEGORY_NAMES.get(r.availability, r.availability)} category, {filed}, entry {r.entry}{id_note}.",
        ),
        ("result", f"Result: {_fmt(r.result)} {r.units} on {on}."),
        ("system", f"System: {r.system}, submitted by {r.submitter}."),
    ]
    parts += [("notes", f"Note: {n[:1].upper()}{n[1:]}.") for n in row_notes(table, r)]
    parts.append(("source", f"Source: {where}, retrieved {retrieved}{ids}."))
    parts.append(("sha256", f"SHA-256 of the source file: {r.sha256}."))
    pg = per_gpu_value(r)
    if pg is not None:  # the derived figure is not verified by MLCommons; the official result is
        unit = r.units.removesuffix("/s").lower()
        parts.append(
            (
                "derived",
                f"Per-GPU value {_fmt(pg)} {unit}/s per accelerator: derived by benchsheet (result / {r.gpus}), "
                f"not an official MLPerf result. {NOT_VERIFIED}",
            )
        )
    parts.append(("trademark", TRADEMARK))
    return parts


def _cite_run(table: Table, r: Row) -> list[tuple[str, str]]:
    run = table.run(r.entry)
    verdict = "" if run is None or run.valid else " The loadgen log says INVALID."
    when = run.imported_at[:10] if run else "unknown"
    return [
        ("entry", f"{r.entry}: your own run, {r.benchmark} {r.scenario}; not an MLPerf result.{verdict}"),
        ("result", f"Result: {_fmt(r.result)} {r.units} on {r.gpus} x {r.accelerator}."),
        ("system", f"System: {r.system}."),
        ("source", f"Source: {r.source}, imported {when}."),
        ("sha256", f"SHA-256 of the source file: {r.sha256}."),
        ("derived", f"Internal measurement, unverified, not an MLPerf result. {NOT_VERIFIED}"),
        ("trademark", TRADEMARK),
    ]


def _fmt(x: float) -> str:
    return f"{x:,.1f}" if abs(x) >= 100 else f"{x:,.4g}"


def datainfo(table: Table, field: str | None = None) -> list[list[str | int]] | str | int:
    """Provenance of the loaded table: a table, or one field of it."""
    info: dict[str, str | int] = {
        "rounds": ", ".join(table.rounds),
        "rows": len(table.rows),
        "origin": str(table.origin),
        "sources": "; ".join(s.url or s.file for s in table.sources),
        "sha256": "; ".join(s.sha256 for s in table.sources),
        "imported_at": "; ".join(s.imported_at for s in table.sources),
    }
    if field is None:
        out: list[list[str | int]] = [["round", "file", "rows", "sha256", "imported_at", "url"]]
        for s in table.sources:
            out.append([s.round, s.file, s.rows, s.sha256, s.imported_at, s.url])
        out.append(["origin", str(table.origin), len(table.rows), "", "", ""])
        return out
    key = field.strip().lower()
    if key not in info:
        raise bad_value(f"Unknown field {field!r}: use one of {', '.join(info)}")
    return info[key]


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


# ------------------------------------------------------------------ energy


def _measured_watts(table: Table, entry: str, benchmark: str, scenario: str) -> tuple[Row, float]:
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
    r, watts = _measured_watts(table, entry, benchmark, scenario)
    return r.result / watts


def energy_cite(table: Table, entry: str, benchmark: str, scenario: str) -> str:
    """A short citation of a per-watt figure: the measured power, who measured it, the source file."""
    r, watts = _measured_watts(table, entry, benchmark, scenario)
    unit = r.units.removesuffix("/s")
    return (
        f"MLPerf® Inference v{r.round} {r.entry} {r.benchmark} {r.scenario}: {_fmt(r.result)} {r.units} at "
        f"{watts:,.0f} W system power measured by {r.submitter} ({r.source}, SHA-256 {r.sha256[:12]}...): "
        f"{r.result / watts:.3g} {unit}/J, derived, not an official MLPerf result."
    )


# ------------------------------------------------------------- entries a workbook uses

USES_HEADER = ("entry", "used on", "benchmark", "scenario")
Cells = Sequence[Sequence[object]]  # a range as rows of cells


def entries_used(entries: Cells, places: Cells, benchmark: Cells, scenario: Cells) -> list[list[str]]:
    """Each entry the cells ``entries`` hold, once per benchmark and scenario, with every place that uses
    it, in the order of first use. ``places``, ``benchmark`` and ``scenario`` give each cell's (row by
    row, the same number of cells) or, as one cell, all cells'. A blank, a number or an error names no
    entry (an error's reason shows where it is used); nor does a cell whose benchmark or scenario is
    not a text (a claim that names none)."""
    cells = _flat(entries, "entries", 0)
    names, benches, scens = (
        _flat(c, n, len(cells)) for c, n in ((places, "places"), (benchmark, "benchmark"), (scenario, "scenario"))
    )
    found: dict[tuple[str, str, str], list[str]] = {}
    spelled: dict[tuple[str, str, str], tuple[str, str, str]] = {}  # one key however it is spelled
    for i, cell in enumerate(cells):
        entry, bench, scen = (_text(v) for v in (cell, benches[i], scens[i]))
        if entry and bench and scen:
            scen = canonical_scenario(scen) or scen
            key = spelled.setdefault((entry, benchmark_key(bench), scenario_key(scen)), (entry, bench, scen))
            found.setdefault(key, []).append(str(names[i]).strip())
    return [list(USES_HEADER), *([e, ", ".join(where), b, sc] for (e, b, sc), where in found.items())]


def _flat(cells: Cells, name: str, count: int) -> list[object]:
    """A range's values row by row; one value repeated ``count`` times (``count`` 0: any number)."""
    values = [v for row in cells for v in row]
    if count and len(values) == 1:
        return values * count
    if count and len(values) != count:
        raise bad_value(f"{name} must be one cell or one per cell of entries ({count}), not {len(values)}")
    return values


def _text(value: object) -> str | None:
    """A cell's text; None for a blank, a number or an error (its text starts with #)."""
    return value.strip() if isinstance(value, str) and value.strip() and not value.startswith("#") else None
