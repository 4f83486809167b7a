"""Import of the official formats: totals, families, units, names, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchsheet.analysis.pergpu import per_gpu_of, per_gpu_value
from benchsheet.data.importers import import_file
from benchsheet.data.names import canonical_scenario, classify_accelerator
from benchsheet.data.table import Table
from benchsheet.errors import DataError
from tests import robustness


def test_total_accelerators_is_per_node_times_nodes(table: Table, shared: Path) -> None:
    raw = json.loads((shared / "v5.1/summary_results.json").read_bytes())
    src = next(r for r in raw if r["ID"] == "5.1-0072" and r["Model"] == "deepseek-r1" and r["Scenario"] == "Server")
    assert (src["a#"], src["Nodes"]) == (4, 18)  # the file says 4 per node, 18 nodes
    row = table.get("5.1-0072", "deepseek-r1", "Server")
    assert row is not None
    assert row.gpus == 72
    assert row.result == src["Performance_Result"]
    assert per_gpu_of(row) == pytest.approx(src["Performance_Result"] / 72)
    assert round(per_gpu_of(row)) == 2907


def test_explicit_accelerator_count_wins(table: Table) -> None:
    # "AMD Instinct MI355X 288GB HBM3e (x87)" on 11 nodes of 8: the submitter declares 87
    row = table.entry_rows("6.0-0001")[0]
    assert "(x87)" in row.accelerator
    assert (row.nodes, row.gpus) == (11, 87)


def test_v61_total_is_taken_as_is(table: Table) -> None:
    row = table.entry_rows("6.1-0004")[0]
    assert (row.nodes, row.gpus, row.family) == (9, 72, "MI355X")


@pytest.mark.parametrize(
    ("name", "family", "vendor", "hetero"),
    [
        ("NVIDIA B300-SXM-270GB", "B300", "NVIDIA", False),
        ("NVIDIA GB300", "GB300", "NVIDIA", False),
        ("Nvidia B300-SXM-270GB", "B300", "NVIDIA", False),
        ("NVIDIA GB200", "GB200", "NVIDIA", False),
        ("NVIDIA GH200 Grace Hopper Superchip 144GB", "GH200", "NVIDIA", False),
        ("NVIDIA H200-SXM-141GB", "H200", "NVIDIA", False),
        ("Virtualized NVIDIA H200-SXM-141GB", "H200", "NVIDIA", False),
        ("NVIDIA Vera Rubin", "Vera Rubin", "NVIDIA", False),
        ("NVIDIA VR200", "Vera Rubin", "NVIDIA", False),
        ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "RTX PRO 6000", "NVIDIA", False),
        ("NVIDIA L40S", "L40S", "NVIDIA", False),
        ("NVIDIA L4-PCIe-24GB", "L4", "NVIDIA", False),
        ("AMD Instinct MI355X 288GB HBM3e", "MI355X", "AMD", False),
        ("AMD Instinct MI300X 192GB HBM3", "MI300X", "AMD", False),
        ("NVIDIA H200-SXM-141GB + AMD Instinct MI350X 288GB HBM3e", "H200 + MI350X", "AMD + NVIDIA", True),
        ("AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)", "MI300X + MI325X", "AMD", True),
        ("", "", "", False),
        (None, "", "", False),
    ],
)
def test_family_mapping(name: str | None, family: str, vendor: str, hetero: bool) -> None:
    info = classify_accelerator(name)
    assert (info.family, info.vendor, info.heterogeneous) == (family, vendor, hetero)


def test_b300_is_never_gb300(table: Table) -> None:
    for r in table.rows:
        if r.family == "B300":
            assert "GB300" not in r.accelerator.upper()
        if "GB300" in r.accelerator.upper():
            assert r.family == "GB300"


def test_heterogeneous_system_is_flagged(table: Table) -> None:
    rows = table.entry_rows("6.1-0016")
    assert rows and all(r.heterogeneous and r.family == "H200 + MI350X" for r in rows)
    assert all(per_gpu_value(r) is None for r in rows)


def test_cpu_only_rows_have_no_accelerator(table: Table) -> None:
    cpu = [r for r in table.rows if not r.accelerator]
    assert cpu
    assert all(r.gpus == 0 and r.family == "" and per_gpu_value(r) is None for r in cpu)


def test_latency_is_never_divided(table: Table) -> None:
    latency = [r for r in table.rows if r.units.startswith("Latency")]
    assert {r.units for r in latency} == {"Latency (ms)", "Latency (s)"}
    assert all(not r.throughput and per_gpu_value(r) is None for r in latency)


def test_aliases_are_normalized(table: Table, shared: Path) -> None:
    raw = json.loads((shared / "v6.1/summary.json").read_bytes())
    assert any(r["Model"] == "llama3_1-8b" for r in raw.values())
    assert any(r["Scenario"] == "offline" for r in raw.values())
    assert not any(r.benchmark == "llama3_1-8b" for r in table.rows)
    assert {r.scenario for r in table.rows} <= {"Server", "Offline", "Interactive", "SingleStream", "MultiStream"}
    entry = next(r.entry for r in table.rows if r.round == "6.1" and r.benchmark == "llama3.1-8b")
    assert table.get(entry, "LLAMA3_1-8B", "offline") is table.get(entry, "llama3.1-8b", "Offline")
    assert canonical_scenario("singlestream") == "SingleStream"


def test_every_row_keeps_provenance(table: Table) -> None:
    shas = {s.sha256 for s in table.sources}
    assert len(shas) == 3
    assert all(r.sha256 in shas and r.source and r.location for r in table.rows)


# ------------------------------------------------------------- bad input


def _one_row(shared: Path) -> dict[str, object]:
    row: dict[str, object] = json.loads((shared / "v6.0/summary_results.json").read_bytes())[0]
    return row


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"Performance_Result": "fast"}, "Performance_Result"),
        ({"Performance_Result": float("nan")}, "Performance_Result"),
        ({"a#": -1}, "a#"),
        ({"Scenario": "Sometimes"}, "Scenario"),
        ({"Availability": "soon"}, "Availability"),
        ({"version": "six"}, "version"),
    ],
)
def test_bad_field_names_file_row_and_field(shared: Path, change: dict[str, object], field: str) -> None:
    robustness.tried("malformed results files (bad fields, not JSON, empty, duplicates)")
    rows = [_one_row(shared), {**_one_row(shared), **change}]
    with pytest.raises(DataError) as exc:
        import_file(json.dumps(rows).encode(), "bad.json")
    assert (exc.value.file, exc.value.row, exc.value.field) == ("bad.json", "1", field)
    assert "bad.json, row 1, field" in str(exc.value)
    robustness.held("malformed results files (bad fields, not JSON, empty, duplicates)")


def test_missing_field_is_named(shared: Path) -> None:
    row = _one_row(shared)
    del row["Model"]
    with pytest.raises(DataError, match=r"bad.json, row 0, field 'Model': missing"):
        import_file(json.dumps([row]).encode(), "bad.json")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "not valid JSON"),
        (b"[]", "no result rows"),
        (b"{}", "no result rows"),
        (b'"x"', "expected a JSON list"),
        (b"[1]", "must be a JSON object"),
        (b'[{"ID": 1', "not valid JSON"),
    ],
)
def test_malformed_files(data: bytes, reason: str) -> None:
    robustness.tried("malformed results files (bad fields, not JSON, empty, duplicates)")
    with pytest.raises(DataError, match=reason):
        import_file(data, "broken.json")
    robustness.held("malformed results files (bad fields, not JSON, empty, duplicates)")


def test_duplicate_row_identity_is_refused(shared: Path) -> None:
    row = _one_row(shared)
    with pytest.raises(DataError, match="appears twice"):
        import_file(json.dumps([row, row]).encode(), "dup.json")


def test_formula_like_names_are_kept_as_text_and_neutralized_where_written(shared: Path) -> None:
    from benchsheet import analysis as A
    from benchsheet.data.table import build_table
    from excelcalc.formula_text import cell_text

    rows = json.loads((shared / "v6.0/summary_results.json").read_bytes())
    planted = next(
        r for r in rows if r["Model"] == "gpt-oss-120b" and r["Scenario"] == "Server" and r["Category"] == "closed"
    )
    for r in rows:
        if r["ID"] == planted["ID"]:
            r["System"] = '=HYPERLINK("http://evil.example","click")'
            r["Software"] = "@SUM(1+1)"
            r["Submitter"] = "+cmd|' /C calc'!A0"
    imp = import_file(json.dumps(rows).encode(), "planted.json")
    row = next(r for r in imp.rows if r.entry == planted["ID"])
    assert row.system.startswith("=")  # the table keeps the file's text as it is
    table = build_table(imp.rows, [imp.source])
    out = A.results(table, "gpt-oss-120b", "Server", None, A.Filters(availability="any"))
    line = next(r for r in out if r[0] == planted["ID"])
    assert line[2] == row.system  # analysis answers the text; a cell shows it as text
    assert [cell_text(str(v)) for v in (line[2], line[8], line[1])] == ["'" + row.system, "'@SUM(1+1)", f"'{line[1]}"]
