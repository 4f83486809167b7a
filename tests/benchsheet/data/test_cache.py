"""The bundled snapshot, the user cache, and how they are loaded."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pytest

from benchsheet.data import store
from benchsheet.data.snapshot import BUNDLED_BOUNDS, bounds_from_csv, table_from_folder
from benchsheet.data.table import COLUMNS, USER_ORIGIN, Table, table_from_json
from benchsheet.errors import DataError
from tests import robustness


def test_bundled_snapshot_equals_a_fresh_import(shared: Path) -> None:
    bundled = table_from_json(store.BUNDLED.read_bytes(), "bundled")
    fresh = table_from_folder(shared)
    assert bundled.rows == fresh.rows

    def strip(t: Table) -> list[dict[str, object]]:
        return [{k: v for k, v in asdict(s).items() if k != "imported_at"} for s in t.sources]

    assert strip(bundled) == strip(fresh)


def test_bundled_latency_bounds_equal_a_fresh_import(shared: Path) -> None:
    import json

    fresh = bounds_from_csv((shared / "latency_bounds.csv").read_bytes(), "latency_bounds.csv")
    assert json.loads(BUNDLED_BOUNDS.read_text()) == fresh


def test_cache_round_trips(table: Table) -> None:
    again = table_from_json(table.to_json(), "again")
    assert again.rows == table.rows and again.sources == table.sources


def test_lookup_is_one_dictionary_access(table: Table) -> None:
    # the index built once answers alone: with the rows taken away, a look-up that scans them finds nothing
    indexed = Table(table.rows, table.sources)
    object.__setattr__(indexed, "rows", ())
    assert indexed.get("6.1-0052", "GPT-OSS-120B", "server") is table.get("6.1-0052", "gpt-oss-120b", "Server")
    row = table.get("6.1-0052", "GPT-OSS-120B", "server")
    assert row is not None and row.entry == "6.1-0052"
    assert table.get("6.1-0052", "deepseek-r1", "Server") is None
    assert table.get("6.1-9999", "gpt-oss-120b", "Server") is None


def test_loaded_once_per_process() -> None:
    assert store.get_table() is store.get_table()


def test_user_cache_overrides_bundled(user_home: Path, table: Table) -> None:
    smaller = Table(tuple(r for r in table.rows if r.round == "6.1"), table.sources[2:], USER_ORIGIN)
    (user_home / "results.json").write_text(smaller.to_json())
    store.set_table(None)
    loaded = store.get_table()
    assert loaded.origin.kind == "user" and loaded.rounds == ("6.1",)


@pytest.mark.parametrize(
    "content",
    [b"", b"\x00\xff junk", b'{"format": "benchsheet-results", "version": 99}', b'{"hello": 1}', b"[1, 2]"],
)
def test_unusable_user_cache_falls_back_to_bundled(user_home: Path, content: bytes) -> None:
    robustness.tried("corrupt user caches (empty, junk, wrong schema, wrong version)")
    (user_home / "results.json").write_bytes(content)
    store.set_table(None)
    loaded = store.get_table()
    assert str(loaded.origin).startswith("bundled (user cache unusable")
    assert loaded.rounds == ("5.1", "6.0", "6.1")
    robustness.held("corrupt user caches (empty, junk, wrong schema, wrong version)")


def test_truncated_cache_is_refused_with_file_name(table: Table) -> None:
    text = table.to_json()
    with pytest.raises(DataError, match=r"cut\.json"):
        table_from_json(text[: len(text) // 2], "cut.json")


def test_wrong_schema_names_row_and_field(table: Table) -> None:
    import json

    doc = json.loads(table.to_json())
    doc["rows"][5][COLUMNS.index("gpus")] = "eight"
    with pytest.raises(DataError, match=r"row 5, field 'gpus'"):
        table_from_json(json.dumps(doc), "x.json")


def test_whole_numbers_in_number_columns_load_as_the_row_by_row_check_converts_them(table: Table) -> None:
    """The quick column-at-a-time check takes only what needs no conversion; a hand-edited cache
    with ``"result": 8`` still loads, as 8.0 (``Row.result`` is a float everywhere)."""
    import json

    doc = json.loads(table.to_json())
    doc["rows"][3][COLUMNS.index("result")] = 8
    loaded = table_from_json(json.dumps(doc), "x.json")
    assert loaded.rows[3].result == 8.0 and type(loaded.rows[3].result) is float
    assert loaded.rows[:3] == table.rows[:3] and loaded.rows[4:] == table.rows[4:]


def test_rows_of_the_quick_check_are_rows_as_the_row_by_row_check_makes_them(table: Table) -> None:
    """The rows of a file the column check passed are made without ``Row.__init__`` (``_quick_rows``);
    they are Rows as ``Row(**fields)`` makes them: of the class, equal, hashed alike, frozen, and
    pickled and copied as Rows."""
    import copy
    import dataclasses
    import json
    import pickle

    from benchsheet.data import table as module
    from benchsheet.data.table import Row

    doc = json.loads(table.to_json())
    quick = table_from_json(json.dumps(doc), "x.json").rows
    slow = module._checked_rows(doc["rows"], list(COLUMNS), None, "x.json")
    assert quick == slow and [hash(r) for r in quick] == [hash(r) for r in slow]
    assert {type(r) for r in quick} == {Row} and [repr(r) for r in quick] == [repr(r) for r in slow]
    assert pickle.loads(pickle.dumps(quick)) == slow and copy.copy(quick[0]) == slow[0]
    assert dataclasses.replace(quick[0], gpus=3) == dataclasses.replace(slow[0], gpus=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick[0].gpus = 3  # type: ignore[misc]


# (a row with power measured?, column, value) of one field edited: each fails the row-by-row check,
# or needs its conversion (an int result)
ODD_FIELDS = [
    *((False, "result", v) for v in (float("nan"), float("inf"), 0.0, 2e12, "8", 8)),
    *((False, "gpus", v) for v in (True, -1, 1.0, 1_000_001)),
    (False, "nodes", None),
    (False, "has_power", 1),
    (False, "has_power", True),
    (False, "power_units", "Watts"),
    (False, "power_result", 5.0),
    (True, "power_result", float("nan")),
    (True, "power_result", 0.0),
    (True, "power_units", ""),
    (True, "has_power", False),
    (False, "round", "6.x"),
    (False, "id_source", "made-up"),
    (False, "system", 5),
    (False, "system", None),
    (False, "power_units", ["W"]),
]


@pytest.mark.parametrize(("measured", "column", "value"), ODD_FIELDS)
def test_the_column_check_takes_no_row_the_row_by_row_check_refuses_or_converts(
    table: Table, measured: bool, column: str, value: object
) -> None:
    """The quick check of a whole column at a time (``_all_valid``) passes a file only where every
    field is as the row-by-row check takes it unconverted: with one odd field in a row of the
    bundled table the file takes the row-by-row way, which names the row (a NaN after the first row
    passes a test by min and max alone)."""
    import json

    from benchsheet.data import table as module

    rows = json.loads(table.to_json())["rows"]
    at = max(i for i, r in enumerate(rows) if r[COLUMNS.index("has_power")] is measured)  # not the first: NaN
    assert module._all_valid(rows)
    rows[at][COLUMNS.index(column)] = value
    assert not module._all_valid(rows)
    if type(value) is int and column == "result":
        assert module._checked_rows(rows, list(COLUMNS), None, "x.json")[at].result == float(value)
    else:
        with pytest.raises(DataError, match=rf"x\.json, row {at}, field '"):
            module._checked_rows(rows, list(COLUMNS), None, "x.json")


def test_the_bundled_snapshot_loads_from_a_package_in_a_zip(tmp_path: Path) -> None:
    """The snapshot is read from its file beside the module where the package is a folder; from a
    package imported out of a zip (no such file) it is read as package data, the same rows."""
    import subprocess
    import sys
    import zipfile

    import benchsheet

    package = Path(benchsheet.__file__).parent
    archive = tmp_path / "benchsheet.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                zf.write(path, Path("benchsheet") / path.relative_to(package))
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from benchsheet.data import store; "
        "t = store.load_bundled(); print(store.__file__.startswith(sys.argv[1]), len(t.rows), t.rows[-1].sha256)"
    )
    got = subprocess.run([sys.executable, "-c", code, str(archive)], capture_output=True, text=True, check=True)
    rows = store.load_bundled().rows
    assert got.stdout.split() == ["True", str(len(rows)), rows[-1].sha256], got.stderr


def test_cache_is_not_pickle() -> None:
    assert store.BUNDLED.read_bytes().lstrip().startswith(b"{")


def test_wrong_typed_source_records_fall_back_to_bundled(user_home: Path, table: Table) -> None:
    import json

    doc = json.loads(table.to_json())
    doc["sources"][2]["round"] = 6.1
    doc["sources"][2]["imported_at"] = None
    (user_home / "results.json").write_text(json.dumps(doc))
    store.set_table(None)
    loaded = store.get_table()
    assert str(loaded.origin).startswith("bundled (user cache unusable") and "source 2" in str(loaded.origin)
