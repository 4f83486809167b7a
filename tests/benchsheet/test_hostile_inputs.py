"""Careless and hostile input to files, runs and refresh: refused with a reason, nothing lost.

Each case here was found by an adversarial run of the CLI and showed a wrong number as valid, lost a
user's file or ran without bound before it was fixed. Every test counts what it tried and what held
(tests/robustness.py), so the README's robustness table comes from the run.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import openpyxl
import pytest

from benchsheet.cli import main
from benchsheet.data import store
from benchsheet.data.refresh import Policy, fetch
from benchsheet.errors import RefreshError
from benchsheet.templates.builder import build
from benchsheet.udfs import functions as udf
from excelcalc.files import write_atomic
from tests import robustness

# ------------------------------------------------------- wrong numbers shown as valid

LOGS = "loadgen logs with impossible numbers, scenarios or names (import-run)"


@pytest.mark.parametrize("throughput", ["-18592.24", "0", "nan", "inf", "1e400", "1" + "0" * 400])
def test_a_log_with_an_impossible_throughput_is_refused(
    run_copy: Path, user_home: Path, throughput: str, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(LOGS)
    text = run_copy.read_text()
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith("Completed tokens per second"))
    run_copy.write_text(text.replace(lines[number - 1], f"Completed tokens per second: {throughput}"))
    assert main(["import-run", str(run_copy)]) == 2
    err = capsys.readouterr().err
    assert f"{run_copy}, line {number}, field 'completed tokens per second'" in err, err
    assert "please report" not in err and not (user_home / "runs.json").exists()
    robustness.held(LOGS)


@pytest.mark.parametrize(
    ("key", "value"),
    [("accelerators_per_node", 0), ("accelerators_per_node", -8), ("accelerators_per_node", 8.5),
     ("number_of_nodes", 10**30), ("accelerators_per_node", "eight")],
)  # fmt: skip
def test_impossible_accelerator_counts_are_refused(
    run_copy: Path, user_home: Path, key: str, value: object, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(LOGS)
    system = run_copy.parents[2] / "system.json"
    doc = json.loads(system.read_text())
    doc[key] = value
    system.write_text(json.dumps(doc))
    assert main(["import-run", str(run_copy)]) == 2
    err = capsys.readouterr().err
    assert f"{system}, field '{key}'" in err and "please report" not in err, err
    assert not (user_home / "runs.json").exists()
    robustness.held(LOGS)


@pytest.mark.parametrize("scenario", ["", "=cmd|' /C calc'!A0", "Sometimes"])
def test_an_empty_or_formula_like_scenario_is_refused(
    run_copy: Path, user_home: Path, scenario: str, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(LOGS)
    run_copy.write_text(run_copy.read_text().replace("Scenario : Server", f"Scenario : {scenario}"))
    assert main(["import-run", str(run_copy)]) == 2
    err = capsys.readouterr().err
    assert str(run_copy) in err and "Scenario" in err.replace("scenario", "Scenario"), err
    assert not (user_home / "runs.json").exists()
    robustness.held(LOGS)


def test_a_name_longer_than_any_real_one_is_refused(
    run_copy: Path, user_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(LOGS)
    assert main(["import-run", str(run_copy), "--name", "x" * 250]) == 2
    assert "--name: longer than 200 characters" in capsys.readouterr().err
    assert not (user_home / "runs.json").exists()
    robustness.held(LOGS)


RESULTS = "results files with impossible results (refresh)"


@pytest.mark.parametrize("result", [0, -1.5, 1e308, 10**400])
def test_refresh_refuses_an_impossible_result(
    shared: Path, tmp_path: Path, user_home: Path, result: float, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(RESULTS)
    rows = json.loads((shared / "v6.1/summary.json").read_bytes())
    rows["7"]["Result"] = result
    bad = tmp_path / "summary.json"
    bad.write_text(json.dumps(rows))
    assert main(["refresh", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "summary.json, row 7, field 'Result': expected a number > 0" in err and "please report" not in err, err
    assert not (user_home / "results.json").exists()
    robustness.held(RESULTS)


def test_a_positive_target_never_needs_zero_gpus() -> None:
    assert udf.GPUSNEEDED(1, 2_000_000_000, 1, 8) == 8  # one node
    assert udf.GPUSNEEDED(1, 2_000_000_000, 1, 1) == 1
    assert udf.GPUSNEEDED(0, 1000) == 0


def test_benchmark_and_scenario_are_checked_even_between_numbers() -> None:
    assert udf.BREAKEVENPRICE(5, 1, 2, "nonexistent", "Nope").startswith("#VALUE! No scenario 'Nope'")
    assert udf.BREAKEVEN(1, 2, "nonexistent", "Server").startswith("#N/A No benchmark 'nonexistent'")
    assert udf.BREAKEVENPRICE(5, 1, 2, "gpt-oss-120b", "Server") == 10


# ---------------------------------------------------------------- files lost

FILES = "files a write must not lose or replace (temporary files, edited workbooks, devices, links)"


def test_only_its_own_temporary_file_is_ever_removed(tmp_path: Path) -> None:
    robustness.tried(FILES)
    mine = tmp_path / "book.xlsx.v2.tmp"  # a user's file that looks like a leftover
    mine.write_text("my work")
    old = time.time() - 7200
    os.utime(mine, (old, old))
    write_atomic(tmp_path / "book.xlsx", b"new")
    assert mine.read_text() == "my work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.xlsx", "book.xlsx.v2.tmp"]
    robustness.held(FILES)


@pytest.fixture(scope="module")
def workbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "cluster-sizing.xlsx"
    build(path)
    return path


def test_build_never_replaces_a_workbook_unasked(
    workbook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(FILES)
    edited = tmp_path / "cluster-sizing.xlsx"
    shutil.copy(workbook, edited)
    wb = openpyxl.load_workbook(edited)
    wb["Sizing"]["B9"] = 0.7
    wb.save(edited)
    before = edited.read_bytes()
    assert main(["template", "build", "--out", str(edited)]) == 2
    assert "exists; nothing written (use --force to replace it)" in capsys.readouterr().err
    assert edited.read_bytes() == before
    assert main(["template", "build", "--out", str(edited), "--force"]) == 0
    assert openpyxl.load_workbook(edited, data_only=True)["Sizing"]["B9"].value == 0.6
    robustness.held(FILES)


def test_a_special_file_is_never_written(workbook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    robustness.tried(FILES)
    fifo = tmp_path / "pipe.xlsx"
    os.mkfifo(fifo)
    for argv in (["template", "calc", str(workbook), "--out", str(fifo)], ["freeze", str(workbook), str(fifo)]):
        assert main(argv) == 2
        assert "not a regular file" in capsys.readouterr().err
        assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert main(["template", "build", "--out", str(fifo), "--force"]) == 2
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    robustness.held(FILES)


def test_a_read_only_workbook_is_not_replaced(
    workbook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(FILES)
    ro = tmp_path / "ro.xlsx"
    shutil.copy(workbook, ro)
    ro.chmod(0o444)
    before = ro.read_bytes()
    assert main(["template", "calc", str(ro)]) == 2
    assert "is read-only; nothing written" in capsys.readouterr().err
    assert ro.read_bytes() == before and stat.S_IMODE(ro.stat().st_mode) == 0o444
    robustness.held(FILES)


def test_calc_through_a_link_writes_the_linked_file(
    workbook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(FILES)
    real = tmp_path / "real.xlsx"
    shutil.copy(workbook, real)
    link = tmp_path / "link.xlsx"
    link.symlink_to(real)
    before = real.stat().st_mtime_ns
    assert main(["template", "calc", str(link)]) == 0
    out = capsys.readouterr().out
    assert link.is_symlink() and link.resolve() == real
    assert real.stat().st_mtime_ns != before
    assert f"in place (through the link {link}, to {real})" in out, out
    robustness.held(FILES)


def test_a_values_only_xlsx_drops_the_macros_and_says_so(
    workbook: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    robustness.tried(FILES)
    xlsm = tmp_path / "macros.xlsm"
    with zipfile.ZipFile(workbook) as zin, zipfile.ZipFile(xlsm, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "[Content_Types].xml":
                data = data.replace(b"spreadsheetml.sheet.main+xml", b"").replace(
                    b'ContentType="application/vnd.openxmlformats-officedocument."',
                    b'ContentType="application/vnd.ms-excel.sheet.macroEnabled.main+xml"',
                )
                data = data.replace(
                    b"</Types>",
                    b'<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/></Types>',
                )
            zout.writestr(info, data)
        zout.writestr("xl/vbaProject.bin", b"VBA")
    assert main(["freeze", str(xlsm), str(tmp_path / "values.xlsx")]) == 0
    assert "macros are left out: a .xlsx cannot hold them" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "values.xlsx") as zf:
        assert "xl/vbaProject.bin" not in zf.namelist()
        types = zf.read("[Content_Types].xml")
        assert b"macroEnabled" not in types and b"vbaProject" not in types
    assert main(["freeze", str(xlsm), str(tmp_path / "values.xlsm")]) == 0
    with zipfile.ZipFile(tmp_path / "values.xlsm") as zf:
        assert zf.read("xl/vbaProject.bin") == b"VBA"
    assert main(["template", "calc", str(xlsm), "--out", str(tmp_path / "calc.xlsx")]) == 0
    assert "macros are left out" in capsys.readouterr().out
    with zipfile.ZipFile(tmp_path / "calc.xlsx") as zf:
        assert "xl/vbaProject.bin" not in zf.namelist() and b"macroEnabled" not in zf.read("[Content_Types].xml")
    robustness.held(FILES)


# ------------------------------------------------------------------ unbounded work

UNBOUNDED = "sources that never end or lie about themselves (refresh)"


def test_refresh_refuses_devices_and_pipes(tmp_path: Path) -> None:
    robustness.tried(UNBOUNDED)
    fifo = tmp_path / "summary.json"
    os.mkfifo(fifo)  # reading it would block forever
    for source in ("/dev/zero", str(fifo), str(tmp_path)):
        with pytest.raises(RefreshError, match="not a regular file"):
            fetch(source, Policy())
    robustness.held(UNBOUNDED)


@contextmanager
def _dripping(prefix: bytes, drip: bytes, pause: float) -> Iterator[str]:
    """A server on 127.0.0.1 that sends ``prefix`` at once, then ``drip`` a byte at a time, ``pause`` s apart."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            try:
                self.wfile.write(prefix)
                for byte in drip:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(pause)
            except OSError:
                return

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/summary.json"
    finally:
        httpd.shutdown()
        httpd.server_close()


HEAD = b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n"


@pytest.fixture
def trickle() -> Iterator[str]:
    """A server that sends one byte a second for a minute: each read answers well within a timeout."""
    with _dripping(HEAD + b"\r\n", b" " * 60, 1.0) as url:
        yield url


def test_a_trickling_server_cannot_outlive_the_timeout(trickle: str) -> None:
    robustness.tried(UNBOUNDED)
    start = time.monotonic()
    with pytest.raises(RefreshError, match="not downloaded within 3 s"):
        fetch(trickle, Policy(timeout=3))
    assert time.monotonic() - start < 6
    robustness.held(UNBOUNDED)


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.com\\@raw.githubusercontent.com/x",
        "https://user:pw@raw.githubusercontent.com/x",
        "https://raw.githubusercontent.com/%00/summary.json",
        "https://raw.githubusercontent.com/a\nb",
    ],
)
def test_urls_that_hide_their_host_are_refused_before_any_lookup(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    robustness.tried(UNBOUNDED)
    import socket

    def no_lookup(*args: object, **kwargs: object) -> None:
        raise AssertionError("a host was looked up")

    monkeypatch.setattr(socket, "getaddrinfo", no_lookup)
    with pytest.raises(RefreshError, match="is not fetched"):
        fetch(url, Policy())
    robustness.held(UNBOUNDED)


def test_runs_file_never_holds_nan(run_copy: Path, capsys: pytest.CaptureFixture[str], user_home: Path) -> None:
    assert main(["import-run", str(run_copy)]) == 0
    capsys.readouterr()
    store.set_table(None)
    json.loads((user_home / "runs.json").read_text(), parse_constant=lambda c: pytest.fail(f"{c} in runs.json"))


# ------------------------------------------------------------ found in review


def test_a_decimal_comma_is_never_read_as_thousands() -> None:
    """Text "2,50" from a European sheet is not 250: a comma only groups thousands."""
    robustness.tried(RESULTS_TEXT)
    assert udf.COSTPERMTOK("2,50", 1000).startswith("#VALUE! price_per_gpu_hour is the text '2,50'")
    assert udf.GPUSNEEDED(1e6, 1000, 1, "1,6").startswith("#VALUE! gpus_per_node is the text '1,6'")
    assert udf.COSTPERMTOK("1,000", 1000) == udf.COSTPERMTOK(1000.0, 1000)  # thousands, as Excel reads it
    robustness.held(RESULTS_TEXT)


RESULTS_TEXT = "numbers typed as text (thousands commas, decimal commas)"


def test_the_library_build_never_replaces_unasked(workbook: Path, tmp_path: Path) -> None:
    from excelcalc.errors import WriteRefused

    robustness.tried(FILES)
    target = tmp_path / "mine.xlsx"
    shutil.copy(workbook, target)
    before = target.read_bytes()
    with pytest.raises(WriteRefused, match="exists; nothing written"):
        build(target)
    assert target.read_bytes() == before
    build(target, replace=True)
    robustness.held(FILES)


@pytest.mark.parametrize("timeout", ["0", "-1", "inf", "1e308", "nan"])
def test_an_impossible_timeout_is_one_clear_line(timeout: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["refresh", "--timeout", timeout, "/dev/null"]) == 2
    err = capsys.readouterr().err
    assert "the timeout must be more than 0 and at most 3600 seconds" in err and "please report" not in err


@pytest.fixture
def slow_headers() -> Iterator[str]:
    """A server that sends its status line and headers a byte every half second."""
    with _dripping(b"", HEAD + b"X-Pad: " + b"x" * 200 + b"\r\n\r\n", 0.5) as url:
        yield url


def test_trickling_headers_cannot_outlive_the_timeout(slow_headers: str) -> None:
    robustness.tried(UNBOUNDED)
    start = time.monotonic()
    with pytest.raises(RefreshError, match="not downloaded within 3 s"):
        fetch(slow_headers, Policy(timeout=3))
    assert time.monotonic() - start < 6
    robustness.held(UNBOUNDED)


def test_a_long_name_option_is_blamed_on_the_option(
    run_copy: Path, user_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import-run", str(run_copy), "--name", "x" * 250]) == 2
    assert capsys.readouterr().err.startswith("error: --name: longer than 200 characters")
