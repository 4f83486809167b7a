"""The derived entry numbering equals MLCommons' official IDs, and names v6.1's systems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchsheet.data.importers import import_file
from benchsheet.data.names import benchmark_key, entry_key, scenario_key
from benchsheet.data.table import build_table
from benchsheet.errors import DataError


@pytest.mark.parametrize("rel", ["v5.1/summary_results.json", "v6.0/summary_results.json"])
def test_derived_ids_equal_official_ids(shared: Path, rel: str) -> None:
    data = (shared / rel).read_bytes()
    official = import_file(data, rel).rows
    # the same file with every ID removed: the rule alone must give them back
    stripped = json.loads(data)
    for row in stripped:
        del row["ID"]
    derived = import_file(json.dumps(stripped).encode(), rel).rows
    assert [r.id_source for r in official] == ["official"] * len(official)
    assert {r.id_source for r in derived} == {"derived"}
    mismatches = [(o.entry, d.entry, o.division) for o, d in zip(official, derived, strict=True) if o.entry != d.entry]
    assert mismatches == []
    # both divisions are covered, and the count of systems is right
    assert {r.division for r in official} == {"closed", "open"}
    assert len({r.entry for r in derived}) == len({r.entry for r in official})


def test_v61_examples(shared: Path) -> None:
    rows = import_file((shared / "v6.1/summary.json").read_bytes(), "v6.1/summary.json").rows
    by_entry: dict[str, set[tuple[str, str]]] = {}
    for r in rows:
        by_entry.setdefault(r.entry, set()).add((r.submitter, r.platform))
    assert by_entry["6.1-0003"] == {("AMD", "8xMI355X_2xEPYC_9575F")}
    assert by_entry["6.1-0004"] == {("AMD", "9x8xMI355X_2xEPYC_9575F")}
    assert {r.id_source for r in rows} == {"derived"}
    # numbering is dense from 0001
    numbers = sorted(int(e.split("-")[1]) for e in by_entry)
    assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.parametrize("rel", ["v5.1/summary_results.json", "v6.0/summary_results.json", "v6.1/summary.json"])
def test_rows_are_identified_by_entry_benchmark_scenario(shared: Path, rel: str) -> None:
    # the importer's rows, before a Table (which refuses duplicates) sees them: v6.1's IDs are derived
    rows = import_file((shared / rel).read_bytes(), rel).rows
    keys = [(entry_key(r.entry), benchmark_key(r.benchmark), scenario_key(r.scenario)) for r in rows]
    assert len(keys) == len(set(keys))
    with pytest.raises(DataError, match="duplicate row"):  # and the table would refuse them if not
        build_table([*rows, rows[-1]], [])
