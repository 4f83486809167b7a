"""Energy where it was measured: Power_Result / Power_Units / has_power of the official files, kept in the
table and through refresh; throughput per watt (tokens per joule) with a citation saying who measured it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.importers import import_file
from benchsheet.data.table import COLUMNS, table_from_json
from benchsheet.udfs import functions as udf


def test_measured_power_is_in_the_table(table: object) -> None:
    rows = store.get_table().rows
    counts = {rnd: sum(1 for r in rows if r.round == rnd and r.has_power) for rnd in ("5.1", "6.0", "6.1")}
    assert counts == {"5.1": 24, "6.0": 0, "6.1": 0}
    units = {r.power_units for r in rows if r.has_power}
    assert units == {"Watts", "millijoules"}
    assert all(r.power_result == 0.0 and r.power_units == "" for r in rows if not r.has_power)


def test_tokens_per_joule_of_5_1_0061() -> None:
    value = udf.PERWATT("5.1-0061", "llama2-70b-99", "Offline")
    assert value == pytest.approx(102909 / 10400.9988793425) and round(value, 2) == 9.89
    cite = udf.ENERGYCITE("5.1-0061", "llama2-70b-99", "Offline")
    assert "measured" in cite and "Lenovo" in cite and "10,401" in cite and "9.89 Tokens/J" in cite
    assert "not an official MLPerf result" in cite and len(cite) < 255


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("6.1-0052", "gpt-oss-120b", "Server"), "#N/A 6.1-0052 gpt-oss-120b Server has no measured power"),
        (("6.0-0073", "gpt-oss-120b", "Server"), "has no measured power"),
    ],
)
def test_no_measured_power_no_figure(args: tuple[str, str, str], reason: str) -> None:
    assert udf.PERWATT(*args).startswith("#N/A") and reason in udf.PERWATT(*args)
    assert udf.ENERGYCITE(*args) == udf.PERWATT(*args)


def test_energy_per_query_is_not_a_power() -> None:
    row = next(r for r in store.get_table().rows if r.power_units == "millijoules")
    answer = udf.PERWATT(row.entry, row.benchmark, row.scenario)
    assert answer.startswith("#N/A") and "millijoules" in answer


def test_design_power_is_never_used(shared: Path) -> None:
    doc = json.loads((shared / "v6.1/summary.json").read_bytes())
    for raw in doc.values():
        raw["design_power_watts"] = 12000.0
    rows = import_file(json.dumps(doc).encode(), "summary.json").rows
    assert not any(r.has_power or r.power_result for r in rows)


def test_power_is_refused_when_flagged_but_impossible(shared: Path) -> None:
    doc = json.loads((shared / "v5.1/summary_results.json").read_bytes())
    i = next(i for i, r in enumerate(doc) if r.get("has_power"))
    doc[i]["Power_Result"] = -5.0
    with pytest.raises(Exception, match="Power_Result"):
        import_file(json.dumps(doc).encode(), "summary_results.json")


def test_power_survives_refresh_and_an_older_cache_loads(shared: Path, user_home: Path) -> None:
    assert main(["refresh", str(shared / "v5.1/summary_results.json")]) == 0
    store.set_table(None)
    assert store.get_table().origin.kind == "user"
    assert udf.PERWATT("5.1-0061", "llama2-70b-99", "Offline") == pytest.approx(9.894, abs=1e-3)
    doc = json.loads((user_home / "results.json").read_text())  # a cache written before the power columns
    n = COLUMNS.index("has_power")
    doc["columns"] = doc["columns"][:n]
    doc["rows"] = [raw[:n] for raw in doc["rows"]]
    old = table_from_json(json.dumps(doc), "old.json")
    assert not any(r.has_power for r in old.rows)
