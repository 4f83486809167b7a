"""Which rows a family argument selects: the filters (availability, max GPUs, round, software) and the
round they fall in, with the reason when a selection is empty.

``select`` picks one round (the one asked for, or the latest with matching rows); a latency or a
pipeline benchmark is refused before any filter (``refuse_latency``), so its reason is the answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchsheet.analysis.entries import unknown_family
from benchsheet.analysis.pergpu import pipeline_reason
from benchsheet.data.names import (
    AVAILABILITIES,
    SCENARIOS,
    canonical_scenario,
    family_key,
    family_keys,
    is_pipeline,
    unknown_name,
)
from benchsheet.data.table import Row, Table, round_sort_key
from benchsheet.errors import bad_value, not_available


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
            raise bad_value(unknown_name("availability", self.availability, (*AVAILABILITIES, "any")))
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
        raise bad_value(unknown_name("scenario", scenario, SCENARIOS))
    if not table.has_benchmark(benchmark):
        known = sorted({r.benchmark for r in table.rows if r.division == "closed"})
        raise not_available(unknown_name("benchmark", benchmark, known))


def refuse_latency(table: Table, benchmark: str, scenario: str) -> None:
    """Refuse a per-GPU answer for a latency or a pipeline benchmark, before any filter."""
    if is_pipeline(benchmark) and table.has_benchmark(benchmark):
        raise not_available(pipeline_reason(benchmark))
    rows = table.bench_rows(benchmark, scenario)
    if rows and not any(r.throughput for r in rows):
        r = rows[0]
        raise not_available(f"{r.benchmark} {r.scenario} is a latency in {r.units}: no per-GPU value")
