"""Own runs counted as the official rows count them, in the official rows' units; CPU-only and latency runs
import. Real loadgen logs and system descriptions from official v5.1 submissions (../shared/mlperf/loadgen),
given the accelerator, counts and result of the official entry each test compares with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.udfs import functions as udf

AMD = "AMD_8xMI300X_2xEPYC_9575F"


def _run(
    shared: Path, tmp: Path, bench: str, scenario: str, system: dict[str, object], log: dict[str, str] | None = None
) -> Path:
    """A copy of the AMD llama2-70b-99 Offline run under ``bench/scenario``, its system.json and log edited."""
    folder = tmp / bench / scenario
    folder.mkdir(parents=True)
    src = shared / "loadgen" / AMD
    doc = json.loads((src / "system.json").read_text()) | system
    (tmp / "system.json").write_text(json.dumps(doc))
    text = (src / "llama2-70b-99/Offline/mlperf_log_summary.txt").read_text()
    for old, new in (log or {}).items():
        assert old in text
        text = text.replace(old, new)
    (folder / "mlperf_log_summary.txt").write_text(text)
    return folder


def _import(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    assert main(["import-run", str(path)]) == 0, capsys.readouterr().err
    store.set_table(None)
    return capsys.readouterr().out.split(":")[0]


def test_a_b60_dual_run_counts_gpus_as_the_official_rows(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    system = {"accelerator_model_name": "[MAXSUN] MS-Intel Arc Pro B60 Dual 48G Turbo", "accelerators_per_node": 4}
    path = _run(
        shared,
        tmp_path,
        "llama2-70b-99",
        "Offline",
        system,
        {"Tokens per second: 27803.9": "Tokens per second: 3009.38"},
    )
    entry = _import(capsys, path)
    assert udf.GPUS(entry) == udf.GPUS("5.1-0056") == 8
    official = udf.PERGPU("5.1-0056", "llama2-70b-99", "Offline")
    assert udf.PERGPU(entry, "llama2-70b-99", "Offline") == pytest.approx(official) == pytest.approx(376.17, abs=0.01)


def test_an_explicit_count_in_the_name_wins(shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    system = {"accelerator_model_name": "AMD Instinct MI355X 288GB HBM3e (x87)", "number_of_nodes": 11}
    entry = _import(capsys, _run(shared, tmp_path, "llama2-70b-99", "Offline", system))
    assert udf.GPUS(entry) == 87


def test_units_follow_the_official_rows(shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _run(shared, tmp_path, "stable-diffusion-xl", "Server", {}, {"Scenario : Offline": "Scenario : Server"})
    entry = _import(capsys, path)
    assert udf.ENTRY(entry, "family") == "MI300X"
    official = next(r for r in store.get_table().bench_rows("stable-diffusion-xl", "Server") if r.division == "closed")
    assert official.units == "Queries/s"
    assert store.get_table().entry_rows(entry)[0].units == "Queries/s"
    assert isinstance(udf.GAIN(official.entry, entry, "stable-diffusion-xl", "Server"), float)


def test_a_cpu_only_run_imports_without_a_per_gpu_value(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    system = {"accelerator_model_name": "N/A", "accelerators_per_node": 0}
    entry = _import(capsys, _run(shared, tmp_path, "llama2-70b-99", "Offline", system))
    assert udf.GPUS(entry) == 0
    assert (
        udf.PERGPU(entry, "llama2-70b-99", "Offline")
        == f"#N/A {entry} has no accelerators (CPU-only): no per-GPU value"
    )
    assert udf.RESULT(entry, "llama2-70b-99", "Offline") == pytest.approx(27803.9)


@pytest.mark.parametrize(  # SingleStream's result is the 90th percentile latency, MultiStream's the 99th
    ("scenario", "ms"), [("SingleStream", 2666658.923351), ("MultiStream", 2666812.360394)]
)
def test_single_and_multi_stream_runs_import_as_latencies(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], scenario: str, ms: float
) -> None:
    path = _run(shared, tmp_path, "resnet", scenario, {}, {"Scenario : Offline": f"Scenario : {scenario}"})
    entry = _import(capsys, path)
    row = store.get_table().entry_rows(entry)[0]
    assert (row.scenario, row.units, row.throughput) == (scenario, "Latency (ms)", False)
    assert row.result == pytest.approx(ms)
    assert "is a latency in Latency (ms)" in udf.PERGPU(entry, "resnet", scenario)


def test_an_own_run_says_it_is_one_in_cite_and_results(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29, item 7: an own run's notes never speak of "the official file"."""
    system = {"accelerator_model_name": "AMD Instinct MI355X 288GB HBM3e (x87)", "number_of_nodes": 11}
    entry = _import(capsys, _run(shared, tmp_path, "llama2-70b-99", "Offline", system))
    notes = udf.CITE(entry, "llama2-70b-99", "Offline", "notes")
    assert notes.startswith("Note: Your own run")
    assert "not an MLPerf result" in notes and "official file" not in notes
    assert "88" in notes and "system description" in notes  # the count it was given, and where from
    header, *rows = udf.RESULTS("llama2-70b-99", "Offline", "MI355X", "any")
    note = next(r for r in rows if r[0] == entry)[header.index("note")]
    assert note.startswith("your own run") and "official file" not in note
    lines = [line for (line,) in udf.CITE(entry, "llama2-70b-99", "Offline")]
    assert any(line.startswith("Note: Your own run") for line in lines)
    assert udf.ENTRY(entry, "inferred") == "none"
    assert udf.ENTRY(entry, "flags").startswith("none: your own run")
