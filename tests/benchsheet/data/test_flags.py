"""The official files' flags (inferred, compliance, errors) kept per row, through the cache and refresh, and
shown wherever the row's figure is: CITE, ENTRY, RESULTS (issue 29, item 5). Real official files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.table import COLUMNS, table_from_json
from benchsheet.udfs import functions as udf


def _raw(shared: Path, rel: str) -> list[dict[str, object]]:
    doc = json.loads((shared / rel).read_text())
    return doc if isinstance(doc, list) else list(doc.values())


def test_every_row_keeps_the_flags_its_file_carries(shared: Path) -> None:
    table = store.get_table()
    files = (("v5.1/summary_results.json", "5.1"), ("v6.0/summary_results.json", "6.0"), ("v6.1/summary.json", "6.1"))
    for rel, rnd in files:
        raws = _raw(shared, rel)
        rows = [r for r in table.rows if r.round == rnd]
        assert len(rows) == len(raws)
        want = sorted(
            f"compliance={json.dumps(x['compliance'])}; errors={x['errors']}; inferred={x['inferred']}" for x in raws
        )
        assert sorted(r.flags for r in rows) == want
        assert sum(r.inferred for r in rows) == sum(x["inferred"] == 1 for x in raws)


def test_cite_entry_and_results_say_inferred(table: object) -> None:
    notes = udf.CITE("6.1-0107", "deepseek-r1", "Server", "notes")
    assert "inferred" in notes and "official file" in notes
    assert "does not say" in notes  # what it means: the file does not say from which run
    lines = [line for (line,) in udf.CITE("6.1-0107", "deepseek-r1", "Server")]
    assert any("inferred" in line for line in lines)
    assert udf.ENTRY("6.1-0107", "inferred") == "deepseek-r1 Offline, deepseek-r1 Server"
    assert udf.ENTRY("6.1-0052", "inferred") == "none"
    assert "inferred=1" in udf.ENTRY("6.1-0107", "flags")
    header, *rows = udf.RESULTS("deepseek-r1", "Server", "Vera Rubin", "preview")
    row = next(r for r in rows if r[0] == "6.1-0107")
    assert "inferred" in row[header.index("note")]
    plain = udf.CITE("6.1-0052", "gpt-oss-120b", "Server", "notes")
    assert "inferred" not in plain


def test_flags_survive_refresh_and_an_older_cache_loads(shared: Path, user_home: Path) -> None:
    assert main(["refresh", str(shared / "v6.1/summary.json")]) == 0
    store.set_table(None)
    table = store.get_table()
    assert table.origin.kind == "user"
    assert "inferred" in udf.CITE("6.1-0107", "deepseek-r1", "Server", "notes")
    row = table.get("6.1-0107", "deepseek-r1", "Server")
    assert row is not None and row.flags == 'compliance="closed"; errors=0; inferred=1'
    doc = json.loads((user_home / "results.json").read_text())  # a cache written before the flags column
    n = COLUMNS.index("flags")
    doc["columns"] = doc["columns"][:n]
    doc["rows"] = [raw[:n] for raw in doc["rows"]]
    old = table_from_json(json.dumps(doc), "old.json")
    assert {r.flags for r in old.rows} == {""} and any(r.inferred for r in old.rows)
    (user_home / "results.json").write_text(json.dumps(doc))
    store.set_table(None)
    assert store.get_table().origin.kind == "user"  # loads, not a fallback
    assert "inferred" in udf.CITE("6.1-0107", "deepseek-r1", "Server", "notes")  # the inferred column says it


@pytest.mark.parametrize("field", ["inferred", "flags"])
def test_entry_flags_of_an_unknown_entry_say_so(field: str) -> None:
    assert "No entry" in str(udf.ENTRY("6.1-9999", field))


def test_entry_flags_fit_a_classic_excel_text() -> None:
    """An entry whose results carry different flags names them all within 255 characters."""
    rows = store.get_table().entry_rows("6.0-0039")
    inferred = sum(r.inferred for r in rows)
    assert udf.ENTRY("6.0-0039", "flags") == (
        f'compliance="closed"; errors=0; inferred=1 ({inferred} results) | '
        f'compliance="closed"; errors=0; inferred=0 ({len(rows) - inferred} results): '
        'ENTRY(e, "inferred") names the inferred ones'
    )
    assert udf.ENTRY("6.0-0039", "inferred").count(",") == inferred - 1
    assert all(len(str(udf.ENTRY(r.entry, "flags"))) <= 255 for r in store.get_table().rows)
