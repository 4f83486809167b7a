"""One entry: its rows, its fields, the notes a reader needs, and why a name is unknown.

Pure functions over a ``Table`` (as is every module of ``benchsheet.analysis``): no I/O and no
spreadsheet types; arguments are plain Python (text, numbers, None for "left out"), answers are
numbers, text or lists of rows, and every failure is a ``BenchError`` with a reason a person can
act on. ENTRY, RESULT and GPUS answer from here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benchsheet.data.names import family_key, gpus_per_card, unknown_name
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
    "gpus_per_node",
    "availability",
    "division",
    "suite",
    "round",
    "software",
    "model",
    "inferred",
    "flags",
)
DEFAULT_GPUS_PER_NODE = 8
"""Accelerators per node where a sheet leaves it out, or MLPerf's system gives none: the usual 8-GPU server."""
RUN_FIELDS = (*LATENCY_FIELDS, "valid")
"""ENTRY fields that only private entries (your own loadgen runs) have."""
ENTRY_ID = re.compile(r"v?\d+\.\d+-\d{4}|local-\d{4}", re.IGNORECASE)
"""An entry ID: an official one (``6.1-0021``, ``v5.1-0072``) or your own run's (``local-0001``)."""


def entry_rows(table: Table, entry: str) -> tuple[Row, ...]:
    rows = table.entry_rows(entry)
    if not rows:
        family = table.families.get(family_key(entry))
        if family is not None and not ENTRY_ID.fullmatch(entry.strip()):
            raise not_available(
                f"{family} is an accelerator family, not an entry: BEST(family, benchmark, scenario) gives its "
                "best per-GPU value, BESTENTRY(...) the entry behind it"
            )
        if table.curves and table.curve(entry) is not None:  # an Endpoints curve has no one result
            raise not_available(
                f"{entry.strip()} is an MLPerf Endpoints curve, not an Inference entry: it has no single result; "
                "CURVEAT(curve, tokens_per_sec_per_user) gives its per-GPU tokens/s at an interactivity"
            )
        raise unknown_entry(table, entry)
    return rows


def unknown_entry(table: Table, entry: str) -> BenchError:
    """No entry of that ID: "Did you mean 6.1-0052?" where a letter O or I stands for a digit."""
    ids = sorted({r.entry for r in table.rows})
    return not_available(unknown_name("entry", entry, ids, where="in the loaded results"))


def unknown_family(table: Table, family: str, what: str = "family", role: str = "") -> BenchError:
    return not_available(unknown_name(what, family, sorted(table.families.values()), role))


def find_row(table: Table, entry: str, benchmark: str, scenario: str) -> Row:
    row = table.get(entry, benchmark, scenario)
    if row is not None:
        return row
    rows = entry_rows(table, entry)
    have = ", ".join(sorted({f"{r.benchmark} {r.scenario}" for r in rows}))
    raise not_available(f"{rows[0].entry} has no {table.spelled(benchmark, scenario)} result (it has: {have})")


def model_run(row: Row) -> str:
    """The model the row ran: the file's UsedModel in the open division; the benchmark's own in the closed."""
    return row.used_model if row.division == "open" and row.used_model else row.benchmark


def result(table: Table, entry: str, benchmark: str, scenario: str) -> float:
    return find_row(table, entry, benchmark, scenario).result


def gpus(table: Table, entry: str) -> int:
    row = entry_rows(table, entry)[0]
    if row.gpus == 0 and row.accelerator:
        raise not_available(f"{row.entry} does not give its accelerator count ({row.accelerator})")
    return row.gpus


def row_node_size(row: Row) -> int:
    """GPUs per node of the MLPerf system the row measured (its accelerators / its nodes); 8 where they do not
    divide into whole nodes (a cluster of unequal nodes)."""
    if row.nodes >= 1 and row.gpus >= row.nodes and row.gpus % row.nodes == 0:
        return row.gpus // row.nodes
    return DEFAULT_GPUS_PER_NODE


def entry_field(table: Table, entry_id: str, field: str) -> str | int | float | bool:
    name = field.strip().lower()
    if name not in ENTRY_FIELDS + RUN_FIELDS:
        raise bad_value(unknown_name("field", field, ENTRY_FIELDS + RUN_FIELDS))
    rows = entry_rows(table, entry_id)
    row = rows[0]
    if name == "model":  # an open entry is one (system, model run); a closed entry runs its benchmarks' models
        return ", ".join(dict.fromkeys(model_run(r) for r in rows))
    if name == "inferred":  # a flag of each result, not of the entry: the results the file marks
        return ", ".join(sorted(f"{r.benchmark} {r.scenario}" for r in rows if r.inferred)) or "none"
    if name == "flags":
        return _entry_flags(rows)
    if name == "gpus_per_node":  # the node size FLEET and the workbook take where yours is blank
        return row_node_size(row)
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


INFERRED_NOTE = (
    "marked inferred by the official file (its inferred field is 1), which does not say from which run "
    "the result was inferred"
)


def flag_fields(r: Row) -> dict[str, str]:
    """The official file's flags of a row, as it writes them: {"compliance": "1", "errors": "0", ...}."""
    pairs = (part.partition("=") for part in r.flags.split("; ") if part)
    return {k: v for k, _, v in pairs}


def flag_notes(r: Row) -> list[str]:
    """What the official file's flags say of a row, where they say something: inferred, errors, no compliance."""
    flags = flag_fields(r)
    notes = [INFERRED_NOTE] if r.inferred else []
    if flags.get("errors", "0") not in ("0", "false", "null"):
        notes.append(f"the official file's errors field is {flags['errors']} for this result")
    if flags.get("compliance") in ("0", "false"):
        notes.append(f"the official file's compliance field is {flags['compliance']} for this result")
    return notes


def _entry_flags(rows: Sequence[Row]) -> str:
    """ENTRY(e, "flags"): the official flags of each result, grouped where they agree."""
    if all(r.id_source == IdSource.LOCAL for r in rows):
        return "none: your own run; the official files' flags are given to official results only"
    groups: dict[str, list[str]] = {}
    for r in rows:
        groups.setdefault(r.flags or f"inferred={int(r.inferred)}", []).append(f"{r.benchmark} {r.scenario}")
    if len(groups) == 1:
        return next(iter(groups))
    full = " | ".join(f"{', '.join(sorted(where))}: {flags}" for flags, where in groups.items())
    if len(full) <= 255:  # what classic Excel shows of a text; longer, each set of flags with its count
        return full
    return " | ".join(f"{flags} ({len(where)} results)" for flags, where in groups.items()) + (
        ': ENTRY(e, "inferred") names the inferred ones'
    )


def row_notes(table: Table, r: Row) -> list[str]:
    """What a reader must know to use the row's figures (shown in CITE and RESULTS)."""
    own = r.id_source == IdSource.LOCAL
    notes = ["your own run (benchsheet import-run): not an MLPerf result"] if own else flag_notes(r)
    counted = "your system description's accelerator count" if own else "the official file's accelerator count"
    if r.division == "open":
        notes.append(f"model run: {model_run(r)} (open division: not the {r.benchmark} benchmark model)")
    per_card = gpus_per_card(r.accelerator)
    if per_card > 1 and r.gpus_in_file:
        notes.append(
            f"{r.gpus} GPUs: {'your system description' if own else 'the official file'} counts "
            f"{r.gpus_in_file} cards of {r.accelerator}, "
            f"{per_card} GPUs per card"
        )
    elif r.gpus_in_file:
        per_node = (
            f" ({'per node x nodes' if own else 'a# x Nodes'}) is {r.gpus_in_file // r.nodes} x {r.nodes} = "
            if r.nodes > 1 and r.gpus_in_file % r.nodes == 0
            else " is "
        )
        notes.append(f"{r.gpus} accelerators as the accelerator name states; {counted}{per_node}{r.gpus_in_file}")
    other = {x.round: x.units for x in table.bench_rows(r.benchmark, r.scenario) if x.throughput and x.round != r.round}
    if r.throughput and r.units != "Tokens/s" and other and set(other.values()) == {"Tokens/s"}:
        rounds = ", ".join(f"v{k}" for k in sorted(other, key=round_sort_key))
        notes.append(
            f"units: {'labelled as the official rows label it' if own else 'the official file labels this'} "
            f"{r.units}, but {r.benchmark} {r.scenario} is a token rate "
            f"(Tokens/s in {rounds}): kept as published, not comparable across rounds"
        )
    return notes
