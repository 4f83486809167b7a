"""Every reason true and in benchsheet's words (issue 42 items 7 and 8): "(please report this)" only for a
real defect, never for input a user can cause; no Python exception text ("[Errno 17] File exists",
"KeyError: 'keys'", "UnicodeEncodeError: 'ascii' codec...") reaches a message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchsheet.cli import main

PYTHON_TEXT = ("please report", "Errno", "Error:", "Traceback", "codec")


def _plain(err: str) -> None:
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert not any(text in err for text in PYTHON_TEXT), err


@pytest.mark.parametrize(
    "record",
    [
        "[]",
        '{"keys": []}',
        '{"before": null, "after": "x", "keys": {"interpreter_win": 3}}',
        '{"before": 1, "after": "x", "keys": {}}',
        '{"before": null, "keys": {}}',
        '{"before": null, "after": "x", "keys": {"interpreter_win": {"before": "a", "after": ["b"]}}}',
        "{not json",
    ],
)
def test_a_damaged_addin_record_is_named_not_a_defect(
    record: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"INTERPRETER_WIN","python"\n')
    (tmp_path / "xlwings.conf.benchsheet.json").write_text(record)
    for argv in (["uninstall", "--config-only"], ["status"]):
        assert main(["addin", *argv, "--config", str(conf)]) == 2
        err = capsys.readouterr().err
        _plain(err)
        assert f"{tmp_path / 'xlwings.conf.benchsheet.json'}: benchsheet's record of its changes" in err
        assert ("not JSON at line 1" if record == "{not json" else "not what install writes") in err  # not json's text
    assert conf.read_text() == '"INTERPRETER_WIN","python"\n'  # nothing written


def test_an_ascii_terminal_gets_escapes_not_a_defect(tmp_path: Path) -> None:
    """PYTHONIOENCODING=ascii: a CITE line holds "®"; printed as \\xae, exit 0."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "BENCHSHEET_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "benchsheet", "eval", '=CITE("6.1-0052","gpt-oss-120b","Server")'],
        env=env,
        capture_output=True,
        text=True,
        encoding="ascii",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "MLPerf\\xae" in done.stdout and done.stderr == ""


@pytest.mark.parametrize("command", [["refresh", "SUMMARY"], ["import-run", "SUB_A"], ["forget", "local-0001"]])
def test_a_data_folder_that_is_a_file_is_said_so(
    command: list[str],
    shared: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It gave "[Errno 17] File exists: '...'"."""
    home = tmp_path / "home"
    home.write_text("a file where the data folder should be")
    monkeypatch.setenv("BENCHSHEET_HOME", str(home))
    sub_a = Path(__file__).parent / "data" / "endpoints" / "sub_a"
    argv = [{"SUMMARY": str(shared / "v6.1/summary.json"), "SUB_A": str(sub_a)}.get(a, a) for a in command]
    assert main(argv) == 2
    err = capsys.readouterr().err
    _plain(err)
    assert f"{home}: " in err and "not a folder" in err, err


def test_info_names_a_data_folder_under_a_file_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("BENCHSHEET_HOME", str(tmp_path / "file" / "home"))
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "Errno" not in out and "Not a directory" in out, out
    json.dumps(out)


@pytest.mark.parametrize("name", ["curves.json", "runs.json"])
def test_runs_says_a_damaged_file_is_why_it_lists_nothing(
    name: str, user_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 8: a damaged curves.json was reported by `info` alone; `runs` listed nothing, exit 0."""
    (user_home / name).write_text("{damaged")
    assert main(["runs"]) == 1
    _, err = capsys.readouterr()
    assert f"{user_home / name}" in err and "unusable" in err, err
    assert err.startswith("warning: ") and err.count("\n") == 1, err


def test_a_latency_target_is_quoted_as_asked_not_rounded_to_the_bound() -> None:
    """Item 8: a target of 449.9999 ms was quoted as "you asked 450 ms" beside "allows TTFT 450 ms"."""
    from benchsheet.catalogue import engine

    value = engine.evaluate('=SLOSCENARIOS("llama2-70b-99",449.9999,40)')
    assert "allows TTFT 450 ms; you asked 449.9999 ms" in value.reason, value.reason
