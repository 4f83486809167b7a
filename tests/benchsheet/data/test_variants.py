"""Older and newer official files: every published variant of summary_results.json imports alike.

MLCommons' older rounds (e.g. v4.1's summary_results.json) write accelerator
counts as floats (``"a#": 8.0``) or text, and entry IDs with a ``v`` prefix
(``"v4.1-0046"``). The variants here are made from the shared v6.0 file, so
that every figure can be checked against the file as published.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.importers import import_file
from benchsheet.data.table import COLUMNS, Row, table_from_json
from benchsheet.errors import DataError
from benchsheet.udfs import functions as udf
from tests import robustness

Raw = dict[str, Any]
REL = "v6.0/summary_results.json"


def _rows(shared: Path) -> list[Raw]:
    rows: list[Raw] = json.loads((shared / REL).read_bytes())
    return rows


def _floats(r: Raw) -> Raw:  # v4.1 style: "a#": 8.0, "host_processor_core_count": 32.0
    return {**r, "a#": float(r["a#"]) if isinstance(r["a#"], int) else r["a#"], "Nodes": float(r["Nodes"])}


def _strings(r: Raw) -> Raw:
    return {**r, "a#": str(r["a#"]), "Nodes": str(r["Nodes"])}


def _float_strings(r: Raw) -> Raw:
    return {**r, "a#": f"{float(r['a#']):.1f}" if r["a#"] != "" else "", "Nodes": f"{r['Nodes']}.0"}


def _v_ids(r: Raw) -> Raw:
    return {**r, "ID": "v" + r["ID"]}


def _all(r: Raw) -> Raw:
    return _v_ids(_floats(r))


VARIANTS: dict[str, Callable[[Raw], Raw]] = {
    "float counts": _floats,
    "text counts": _strings,
    "float text counts": _float_strings,
    "v-prefixed IDs": _v_ids,
    "v4.1 style": _all,
}


@pytest.mark.parametrize("name", VARIANTS)
def test_variant_imports_as_the_published_file(shared: Path, name: str) -> None:
    robustness.tried("older official file variants (float/text counts, v-prefixed IDs)")
    original = import_file((shared / REL).read_bytes(), REL).rows
    data = json.dumps([VARIANTS[name](r) for r in _rows(shared)]).encode()
    variant = import_file(data, "variant.json").rows

    def strip(r: Row) -> tuple[object, ...]:
        return (r.entry, r.benchmark, r.scenario, r.gpus, r.nodes, r.result, r.id_source)

    assert [strip(r) for r in variant] == [strip(r) for r in original]
    assert all(not r.entry.startswith("v") for r in variant)  # IDs normalized to <round>-NNNN
    robustness.held("older official file variants (float/text counts, v-prefixed IDs)")


def test_float_counts_really_are_floats_in_the_variant(shared: Path) -> None:
    rows = [_all(r) for r in _rows(shared)]
    assert any(isinstance(r["a#"], float) for r in rows) and all(r["ID"].startswith("v6.0-") for r in rows)


def test_refresh_accepts_an_older_style_file_and_v_prefixed_lookups(shared: Path, tmp_path: Path) -> None:
    path = tmp_path / "summary_results.json"
    path.write_text(json.dumps([_all(r) for r in _rows(shared)]))
    assert main(["refresh", str(path)]) == 0
    store.set_table(None)
    table = store.get_table()
    assert table.origin.kind == "user" and table.get("6.0-0060", "gpt-oss-120b", "Server") is not None
    expected = udf.PERGPU("6.0-0002", "gpt-oss-120b", "Server")
    assert isinstance(expected, float)
    assert udf.PERGPU("v6.0-0002", "gpt-oss-120b", "Server") == expected
    assert udf.GPUS("V6.0-0002") == udf.GPUS("6.0-0002") == 8
    assert udf.ENTRY("v6.0-0002", "submitter") == "AMD"


@pytest.mark.parametrize(
    ("field", "value"),
    [("a#", 8.5), ("a#", "eight"), ("a#", -8.0), ("Nodes", "1.5"), ("Nodes", float("inf")), ("ID", "x6.0-0001")],
)
def test_really_malformed_values_still_name_file_row_and_field(shared: Path, field: str, value: object) -> None:
    robustness.tried("malformed results files (bad fields, not JSON, empty, duplicates)")
    rows = _rows(shared)[:3]
    rows[2] = {**rows[2], field: value}
    with pytest.raises(DataError) as exc:
        import_file(json.dumps(rows).encode(), "bad.json")
    assert (exc.value.file, exc.value.row, exc.value.field) == ("bad.json", "2", field)
    robustness.held("malformed results files (bad fields, not JSON, empty, duplicates)")


def test_an_id_of_another_round_is_refused(shared: Path) -> None:
    rows = _rows(shared)[:2]
    rows[1] = {**rows[1], "ID": "v5.1-0001"}
    with pytest.raises(DataError, match=r"row 1, field 'ID': expected an entry ID such as 6.0-0001"):
        import_file(json.dumps(rows).encode(), "bad.json")


def test_a_cache_written_before_the_gpus_in_file_column_still_loads(user_home: Path) -> None:
    table = store.get_table()
    doc = json.loads(table.to_json())
    i = COLUMNS.index("gpus_in_file")
    assert COLUMNS[i + 1 :] == ("has_power", "power_result", "power_units", "flags")  # added after it
    doc["columns"] = doc["columns"][:i]
    doc["rows"] = [row[:i] for row in doc["rows"]]
    old = table_from_json(json.dumps(doc), "old-cache.json")
    assert len(old.rows) == len(table.rows) and {r.gpus_in_file for r in old.rows} == {0}
    assert not any(r.has_power for r in old.rows)
    assert [r.gpus for r in old.rows] == [r.gpus for r in table.rows]
    doc["columns"] = doc["columns"][:-1]  # any other set of columns is still refused
    with pytest.raises(DataError, match="columns"):
        table_from_json(json.dumps(doc), "odd-cache.json")
