"""``benchsheet refresh`` of several sources checks every one before it writes anything (issue 42 item 2).

A refresh may name MLPerf Endpoints folders (their curves go to curves.json) and Inference summary files
(the user cache, results.json). It used to import a folder's curves, then fail on a results file and say
"the previous cache is unchanged" with curves.json already rewritten. Now every source is read and
checked, and both files' places too, before the first write; on failure nothing is written and the
message says so; on success it says what each file received.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchsheet.cli import main
from tests import robustness

FIXTURES = Path(__file__).with_name("endpoints")
SUB_A = FIXTURES / "sub_a"
TRIED = "refresh of an Endpoints folder with a bad source or an unwritable file: nothing written"


def _files(home: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in home.iterdir() if p.is_file() and not p.name.endswith(".lock")}


def _bad_results(tmp_path: Path, shared: Path) -> Path:
    bad = tmp_path / "bad_results.json"
    rows = json.loads((shared / "v6.1/summary.json").read_text())
    del rows["3"]["Result"]  # a required field missing: the importer refuses the file
    bad.write_text(json.dumps(rows))
    return bad


def _bad_folder(tmp_path: Path) -> Path:
    copy = tmp_path / "sub_bad"
    shutil.copytree(SUB_A, copy)
    (copy / "results/system_a/gpt-oss-120b/r64/result_summary.json").write_text("{not json")
    return copy


@pytest.mark.parametrize(
    "case",
    ["folder then bad file", "bad file then folder", "folder then bad folder", "cache is a folder", "curves damaged"],
)
def test_a_failing_source_writes_nothing(
    case: str, shared: Path, user_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refresh", str(shared / "v6.0/summary_results.json")]) == 0  # an existing user cache
    before = _files(user_home)
    sources = {
        "folder then bad file": [SUB_A, _bad_results(tmp_path, shared)],
        "bad file then folder": [_bad_results(tmp_path, shared), SUB_A],
        "folder then bad folder": [SUB_A, _bad_folder(tmp_path)],
        "cache is a folder": [SUB_A, shared / "v5.1/summary_results.json"],
        "curves damaged": [SUB_A, shared / "v5.1/summary_results.json"],
    }[case]
    if case == "curves damaged":
        (user_home / "curves.json").write_text("{damaged")
        before = _files(user_home)
    if case == "cache is a folder":
        (user_home / "results.json").unlink()
        (user_home / "results.json").mkdir()
        before = _files(user_home)
    capsys.readouterr()
    robustness.tried(TRIED)
    assert main(["refresh", *map(str, sources)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no curve reported as imported
    assert err.startswith("error: refresh failed, nothing was written"), err
    assert err.count("\n") == 1
    assert _files(user_home) == before, case
    robustness.held(TRIED)


def test_a_folder_and_a_file_both_written_and_said(
    shared: Path, user_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["refresh", str(SUB_A), str(shared / "v6.1/summary.json")]) == 0
    out = capsys.readouterr().out
    # MLCommons' fixtures are synthetic by their own README: the import line says so (issue 38 item 7)
    said = "sub_a/system_a/gpt-oss-120b: 7 points (0 flagged) on 8 x AMD Instinct MI355X"
    assert f"{said} (a TEST submission, not an MLPerf result)\n" in out
    assert f"-> user cache {user_home / 'results.json'}" in out
    assert (user_home / "curves.json").is_file() and (user_home / "results.json").is_file()
