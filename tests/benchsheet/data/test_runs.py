"""Your own loadgen runs as private entries, next to the official rows they were published as."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.udfs import functions as udf
from tests import robustness
from tests.cites import cite_text


@pytest.fixture
def loadgen(shared: Path) -> Path:
    return shared / "loadgen"


def _import(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["import-run", *args]) == 0
    out = capsys.readouterr().out
    store.set_table(None)
    return out.split(":")[0]


def test_b200_deepseek_server_matches_its_official_row(loadgen: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = _import(capsys, str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server"))
    assert entry == "local-0001"
    official = udf.RESULT("5.1-0069", "deepseek-r1", "Server")
    assert udf.RESULT(entry, "deepseek-r1", "Server") == pytest.approx(official, abs=0.05)
    assert udf.GPUS(entry) == udf.GPUS("5.1-0069") == 8
    assert udf.PERGPU(entry, "deepseek-r1", "Server") == pytest.approx(
        udf.PERGPU("5.1-0069", "deepseek-r1", "Server"), rel=1e-5
    )
    assert udf.BREAKEVEN("B200", entry, "deepseek-r1", "Server", "available", 8, "5.1") == pytest.approx(1.0, rel=1e-5)
    assert udf.ENTRY(entry, "availability") == "local"
    assert udf.ENTRY(entry, "valid") is True
    assert udf.ENTRY(entry, "ttft_p99_ms") == pytest.approx(1695.862246)
    assert udf.ENTRY(entry, "tpot_limit_ms") == pytest.approx(80.0)
    cite = cite_text(entry, "deepseek-r1", "Server")
    assert "internal measurement, unverified, not an mlperf result" in cite.lower()
    assert "Result not verified by MLCommons Association." in cite
    table = udf.RESULTS("deepseek-r1", "Server", "B200", "any", 8, "5.1")
    assert [entry, "local"] == [next(r for r in table if r[0] == entry)[i] for i in (0, 7)]
    assert any(r[0] == "5.1-0069" for r in table)


def test_gb300_run_is_72_accelerators(loadgen: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = _import(
        capsys, str(loadgen / "NVIDIA_GB300-NVL72_GB300-288GB_aarch64x72_TRT/deepseek-r1/Server/mlperf_log_summary.txt")
    )
    assert udf.GPUS(entry) == 72
    assert udf.PERGPU(entry, "deepseek-r1", "Server") == pytest.approx(
        udf.PERGPU("5.1-0072", "deepseek-r1", "Server"), rel=1e-5
    )


def test_interactive_is_classified_by_its_latency_limits(loadgen: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = loadgen / "AMD_8xMI300X_2xEPYC_9575F/llama2-70b-99"
    assert "Scenario : Server" in (folder / "Interactive/mlperf_log_summary.txt").read_text()
    server = _import(capsys, str(folder / "Server"))
    interactive = _import(capsys, str(folder / "Interactive"))
    offline = _import(capsys, str(folder / "Offline"))
    assert (server, interactive, offline) == ("local-0001", "local-0002", "local-0003")
    assert udf.RESULT(interactive, "llama2-70b-99", "Interactive") == pytest.approx(
        udf.RESULT("5.1-0001", "llama2-70b-99", "Interactive"), abs=0.05
    )
    assert udf.RESULT(server, "llama2-70b-99", "Server") == pytest.approx(
        udf.RESULT("5.1-0001", "llama2-70b-99", "Server"), abs=0.05
    )
    assert udf.RESULT(offline, "llama2-70b-99", "Offline") == pytest.approx(
        udf.RESULT("5.1-0001", "llama2-70b-99", "Offline"), abs=0.05
    )
    assert udf.ENTRY(interactive, "ttft_limit_ms") == pytest.approx(450.0)


def test_invalid_run_is_refused_then_flagged(
    loadgen: Path, capsys: pytest.CaptureFixture[str], user_home: Path
) -> None:
    folder = str(loadgen / "Lenovo_SR680a_V3_B200SXMx8_TRT/llama2-70b-99.9/Server-ranging-INVALID")
    assert main(["import-run", folder]) == 2
    assert "INVALID" in capsys.readouterr().err
    assert not (user_home / "runs.json").exists()
    entry = _import(capsys, "--allow-invalid", folder)
    assert entry == "local-0001"
    assert udf.ENTRY(entry, "valid") is False
    for answer in (
        udf.PERGPU(entry),
        udf.RESULT(entry, "llama2-70b-99.9", "Server"),
        udf.BREAKEVEN("B200", entry, "llama2-70b-99.9", "Server"),
    ):
        assert isinstance(answer, str) and answer.startswith(f"INVALID run {entry}: ")
    assert "INVALID" in cite_text(entry, "llama2-70b-99.9", "Server")


def test_runs_and_forget(loadgen: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _import(capsys, str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server"), "--name", "our B200")
    b = _import(capsys, str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Offline"))
    assert main(["runs"]) == 0
    listed = capsys.readouterr().out
    assert a in listed and b in listed and "our B200" in listed
    assert main(["forget", a]) == 0
    capsys.readouterr()
    store.set_table(None)
    assert udf.GPUS(a) == f"#N/A No entry '{a}' in the loaded results"
    assert udf.GPUS(b) == 8
    assert main(["forget", b]) == 0
    capsys.readouterr()
    c = _import(capsys, str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server"))
    assert c == "local-0003"  # numbers are never reused, not even the highest
    assert main(["forget", "local-0099"]) == 2
    assert "no private entry local-0099" in capsys.readouterr().err


def test_refresh_keeps_private_runs(loadgen: Path, shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = _import(capsys, str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server"))
    assert main(["refresh", str(shared / "v6.1/summary.json")]) == 0
    store.set_table(None)
    assert udf.GPUS(entry) == 8


def _copy_run(loadgen: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "deepseek-r1" / "Server"
    folder.mkdir(parents=True)
    shutil.copy(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/system.json", tmp_path / "system.json")
    shutil.copy(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server/mlperf_log_summary.txt", folder)
    return folder / "mlperf_log_summary.txt"


@pytest.mark.parametrize(
    ("mangle", "reason"),
    [
        (lambda t: t[:200], "missing line 'Result is"),
        (
            lambda t: "\n".join(line for line in t.splitlines() if "tokens per second" not in line),
            "missing line 'Completed tokens per second",
        ),
        (lambda t: "hello, this is not a log\n", "not a loadgen summary"),
        (lambda t: t.replace("Result is : VALID", "Result is : MAYBE"), "neither VALID nor INVALID"),
    ],
)
def test_malformed_logs_name_the_file_and_line(
    loadgen: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], mangle: object, reason: str, user_home: Path
) -> None:
    robustness.tried("malformed loadgen logs (truncated, no tokens line, not a log, bad verdict)")
    log = _copy_run(loadgen, tmp_path)
    log.write_text(mangle(log.read_text()))  # type: ignore[operator]
    assert main(["import-run", str(log)]) == 2
    err = capsys.readouterr().err
    assert str(log) in err and reason in err and "Traceback" not in err
    assert not (user_home / "runs.json").exists()
    robustness.held("malformed loadgen logs (truncated, no tokens line, not a log, bad verdict)")


def test_benchmark_from_folder_or_flag(loadgen: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _copy_run(loadgen, tmp_path)
    flat = tmp_path / "flat"
    flat.mkdir()
    shutil.copy(log, flat / "mlperf_log_summary.txt")
    assert main(["import-run", str(flat), "--system", str(tmp_path / "system.json")]) == 2
    assert "give --benchmark" in capsys.readouterr().err
    entry = _import(capsys, str(flat), "--system", str(tmp_path / "system.json"), "--benchmark", "deepseek-r1")
    assert udf.GPUS(entry) == 8


def test_an_unreadable_runs_file_is_never_overwritten(
    loadgen: Path, capsys: pytest.CaptureFixture[str], user_home: Path
) -> None:
    _import(capsys, str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server"))
    runs = user_home / "runs.json"
    runs.write_bytes(runs.read_bytes()[:500])
    damaged = runs.read_bytes()
    for args in (
        ["import-run", str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Offline")],
        ["forget", "local-0001"],
    ):
        assert main(args) == 2
        assert "cannot read your private runs" in capsys.readouterr().err
        assert runs.read_bytes() == damaged
    store.set_table(None)
    assert "private runs unusable" in str(store.get_table().origin)


def test_paired_says_an_own_run_is_one(loadgen: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29, items 1 and 7: an own run has no MLPerf round; "same" pairs the family's own latest round."""
    entry = _import(capsys, str(loadgen / "NVIDIA_B200-SXM-180GBx8_TRT/deepseek-r1/Server"))
    args = ("B200", entry, "deepseek-r1", "Server", "available", 8)
    paired = udf.PAIRED(*args)
    assert paired.startswith("your own run against an MLPerf result: candidate " + entry + " (your own run")
    assert udf.BREAKEVEN(*args, "same") == udf.BREAKEVEN(*args)
    assert udf.PAIRED(*args, "same") == paired
