"""Data corrections found by checking every row against the official files.

Each test reads the official file itself for the fact it checks, so that the
expected figures trace to published rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchsheet import analysis as A
from benchsheet.data.names import BENCHMARK_ALIASES
from benchsheet.data.table import Table
from benchsheet.udfs import functions as udf
from tests.cites import cite_text


def _raw(shared: Path, rel: str, entry: str, model: str, scenario: str) -> dict[str, Any]:
    rows = json.loads((shared / rel).read_bytes())
    return next(r for r in rows if r["ID"] == entry and r["Model"] == model and r["Scenario"] == scenario)


# ------------------------------------------------------------ dual-GPU cards


@pytest.mark.parametrize(
    ("rel", "entry", "model", "scenario"),
    [
        ("v6.0/summary_results.json", "6.0-0060", "llama2-70b-99", "Offline"),
        ("v5.1/summary_results.json", "5.1-0056", "llama3.1-8b", "Server"),
        ("v5.1/summary_results.json", "5.1-0057", "llama3.1-8b-edge", "Offline"),
    ],
)
def test_dual_gpu_cards_count_gpus_not_cards(shared: Path, rel: str, entry: str, model: str, scenario: str) -> None:
    raw = _raw(shared, rel, entry, model, scenario)
    assert "Dual" in raw["Accelerator"]
    cards = raw["a#"] * raw["Nodes"]
    assert udf.GPUS(entry) == 2 * cards
    assert udf.PERGPU(entry, model, scenario) == pytest.approx(raw["Performance_Result"] / (2 * cards))
    cite = cite_text(entry, model, scenario)
    assert f"{2 * cards} GPUs: the official file counts {cards} cards of {raw['Accelerator']}, 2 GPUs per card" in cite
    assert f"(result / {2 * cards})" in cite


def test_dual_card_per_gpu_is_now_on_the_scale_of_the_single_card(shared: Path) -> None:
    dual = _raw(shared, "v6.0/summary_results.json", "6.0-0060", "llama2-70b-99", "Offline")
    single = _raw(shared, "v6.0/summary_results.json", "6.0-0059", "llama2-70b-99", "Offline")
    assert round(dual["Performance_Result"] / dual["a#"], 1) == 817.7  # the old, doubled figure
    assert round(single["Performance_Result"] / single["a#"], 1) == 424.4
    value = udf.PERGPU("6.0-0060", "llama2-70b-99", "Offline")
    assert round(value, 1) == 408.8 and value < udf.PERGPU("6.0-0059", "llama2-70b-99", "Offline")
    assert udf.ENTRY("6.0-0060", "family") == udf.ENTRY("6.0-0059", "family") == "Arc Pro B60"


def test_single_gpu_cards_are_untouched(table: Table) -> None:
    row = table.entry_rows("6.0-0059")[0]
    assert (row.gpus, row.gpus_in_file) == (4, 0)
    assert "cards" not in cite_text("6.0-0059", "llama2-70b-99", "Offline")


# -------------------------------------------------------- stated totals


@pytest.mark.parametrize(
    ("entry", "model", "stated"), [("6.0-0001", "llama2-70b-99", 87), ("6.0-0003", "gpt-oss-120b", 94)]
)
def test_stated_total_is_kept_and_cite_gives_both_counts(shared: Path, entry: str, model: str, stated: int) -> None:
    raw = _raw(shared, "v6.0/summary_results.json", entry, model, "Offline")
    assert f"(x{stated})" in raw["Accelerator"]
    in_file = raw["a#"] * raw["Nodes"]
    assert in_file != stated
    assert udf.GPUS(entry) == stated
    cite = cite_text(entry, model, "Offline")
    assert f"on {stated} x " in cite
    assert f"the official file's accelerator count (a# x Nodes) is {raw['a#']} x {raw['Nodes']} = {in_file}" in cite


# ------------------------------------------------------------ open division


def test_open_row_keeps_the_model_it_ran(shared: Path) -> None:
    raw = _raw(shared, "v5.1/summary_results.json", "5.1-0378", "llama2-70b-99.9", "Offline")
    assert raw["Category"] == "open" and raw["UsedModel"] == "llama3_1-70b-fp8_dyn"
    assert udf.ENTRY("5.1-0378", "model") == "llama3_1-70b-fp8_dyn"
    cite = cite_text("5.1-0378", "llama2-70b-99.9", "Offline")
    assert "Open division" in cite and "filed under llama2-70b-99.9 Offline" in cite
    assert "Model run: llama3_1-70b-fp8_dyn (open division: not the llama2-70b-99.9 benchmark model)" in cite
    assert "division, Available category, llama2-70b-99.9 Offline" not in cite  # never cited as the benchmark


def test_open_row_note_is_in_results_table(table: Table) -> None:
    row = table.get("5.1-0378", "llama2-70b-99.9", "Offline")
    assert row is not None
    notes = A.row_notes(table, row)
    assert notes and notes[0].startswith("model run: llama3_1-70b-fp8_dyn")


def test_closed_entry_model_is_its_benchmarks(table: Table) -> None:
    benches = {r.benchmark for r in table.entry_rows("6.1-0052")}
    assert set(str(udf.ENTRY("6.1-0052", "model")).split(", ")) == benches


# ------------------------------------------------------------- unit labels


def test_v51_llama31_8b_interactive_label_is_kept_with_a_visible_note(shared: Path) -> None:
    raw = _raw(shared, "v5.1/summary_results.json", "5.1-0024", "llama3.1-8b", "Interactive")
    assert raw["Performance_Units"] == "Queries/s"
    server = _raw(shared, "v5.1/summary_results.json", "5.1-0024", "llama3.1-8b", "Server")
    assert server["Performance_Units"] == "Tokens/s"
    cite = cite_text("5.1-0024", "llama3.1-8b", "Interactive")
    assert "Queries/s" in cite and "labels this Queries/s" in cite and "token rate" in cite
    out = udf.RESULTS("llama3.1-8b", "Interactive", None, "any", None, "5.1")
    note = out[0].index("note")
    line = next(r for r in out if r[0] == "5.1-0024")
    assert "labels this Queries/s" in line[note]
    assert all("labels this" not in r[note] for r in udf.RESULTS("llama3.1-8b", "Server", None, "any", None, "5.1")[1:])
    assert "labels this" not in cite_text("5.1-0024", "llama3.1-8b", "Server")


def test_results_note_shows_dual_cards() -> None:
    out = udf.RESULTS("llama2-70b-99", "Offline", "Arc Pro B60", "any", None, "6.0")
    note = out[0].index("note")
    line = next(r for r in out if r[0] == "6.0-0060")
    assert "2 GPUs per card" in line[note]


# ------------------------------------------------------ pipeline benchmarks


@pytest.mark.parametrize("bench", ["e2e-rag-db", "e2e-rag-qna"])
def test_pipeline_benchmarks_refuse_a_per_accelerator_value(table: Table, bench: str) -> None:
    rows = [r for r in table.rows if r.benchmark == bench]
    assert rows and all(r.throughput for r in rows)  # a rate, yet not per accelerator
    r = rows[0]
    reason = f"#N/A {bench} times a whole pipeline with CPU stages"
    assert udf.PERGPU(r.entry, bench, r.scenario).startswith(reason)
    assert udf.MEDIANPERGPU("B200", bench, r.scenario, "any").startswith(reason)
    assert udf.FAMILIES(bench, r.scenario, "any").startswith(reason)
    assert isinstance(udf.RESULT(r.entry, bench, r.scenario), float)  # the official result itself stays


# ------------------------------------------------------------------ names


def test_v61_new_benchmarks_have_aliases(shared: Path, table: Table) -> None:
    raw = json.loads((shared / "v6.1/summary.json").read_bytes())
    categories = {r["Model"]: r["MlperfModel"] for r in raw.values() if r["Division"] == "closed"}
    for bench, aliases in BENCHMARK_ALIASES.items():
        assert categories[bench] == aliases[0]  # the official file's own name for it comes first
        for alias in aliases:
            assert table.has_benchmark(alias), alias
    entry = next(r.entry for r in table.rows if r.benchmark == "qwen3.6-27b")
    scen = next(r.scenario for r in table.rows if r.benchmark == "qwen3.6-27b")
    assert udf.RESULT(entry, "Agentic Edge", scen) == udf.RESULT(entry, "qwen3.6-27b", scen)
    assert udf.RESULT(entry, "agentic", scen) == udf.RESULT(entry, "qwen3.6-27b", scen)
