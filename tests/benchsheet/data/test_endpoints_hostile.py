"""Endpoints imports refuse what the docs and the other paths refuse (issue 42, items 6 and 9): control characters
in folder names, system descriptions, an own run's name and curves.json (docs/calculator.md: "refused with the
row and field"); a run's reason that says what it is; a report directory without its summary; accelerators
counted as none; one curve of several models; a file reached through a link outside the submission; folder
names too long for a function to take the curve's ID; a point.yaml larger than any is."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from benchsheet.data.endpoints import (
    curves_from_json,
    curves_to_json,
    import_report,
    import_submission,
)
from benchsheet.data.importers import ENDPOINTS_MODELS
from benchsheet.data.names import benchmark_key
from benchsheet.errors import DataError

FIXTURES = Path(__file__).with_name("endpoints")
SUB_A, OWN = FIXTURES / "sub_a", FIXTURES / "own_run"
MODEL = "results/system_a/gpt-oss-120b"


def _copy(tmp_path: Path) -> Path:
    return shutil.copytree(SUB_A, tmp_path / "sub_a")


def _summary(sub: Path, point: str, **change: object) -> None:
    path = sub / MODEL / point / "result_summary.json"
    path.write_text(json.dumps(json.loads(path.read_bytes()) | change))


@pytest.mark.parametrize("name", ["system\x1b[31ma", "system\na", "system\u202ea"])
def test_a_control_character_in_a_folder_name_is_refused(tmp_path: Path, name: str) -> None:
    sub = _copy(tmp_path)
    (sub / "results" / "system_a").rename(sub / "results" / name)
    with pytest.raises(DataError, match="control character"):
        import_submission(sub)


def test_a_control_character_in_a_system_description_is_refused(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    for desc in sub.glob(f"{MODEL}/r*/system_desc.json"):
        desc.write_text(json.dumps(json.loads(desc.read_bytes()) | {"system_name": "sys\x1b]0;owned\x07"}))
    with pytest.raises(DataError) as err:
        import_submission(sub)
    assert err.value.field == "system_name" and "control character" in err.value.reason


def test_a_control_character_in_an_own_runs_name_is_refused() -> None:
    with pytest.raises(DataError, match="control character"):
        import_report(OWN, name="box\x1b[2J")


def test_a_control_character_in_curves_json_is_refused() -> None:
    doc = json.loads(curves_to_json(import_submission(SUB_A)))
    doc["curves"][0]["system"] = "system\x1ba"
    with pytest.raises(DataError) as err:
        curves_from_json(json.dumps(doc), "curves.json")
    assert (err.value.file, err.value.field) == ("curves.json", "system")


def test_a_run_not_complete_says_so_whatever_its_state(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    _summary(sub, "r64", complete=False)  # state still "complete"
    _summary(sub, "r16", state="interrupted")  # complete still true
    points = {p.concurrency: p for p in import_submission(sub)[0].points}
    assert points[64].flag == "run not complete (state 'complete')"
    assert points[16].flag == "run interrupted"  # not used: the report's state says it stopped


def test_a_report_directory_without_its_summary_is_an_error(tmp_path: Path) -> None:
    own = shutil.copytree(OWN, tmp_path / "own")
    (own / "c64" / "performance" / "result_summary.json").unlink()
    with pytest.raises(DataError) as err:
        import_report(own)
    assert err.value.file == str(own / "c64") and "result_summary.json" in err.value.reason


def test_accelerators_counted_as_none_are_refused(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    for desc in sub.glob(f"{MODEL}/r*/system_desc.json"):
        doc = json.loads(desc.read_bytes())
        doc["node_types"][0]["accelerator_info"][0]["accelerator_model_name"] = "AMD Instinct MI355X (x0)"
        desc.write_text(json.dumps(doc))
    with pytest.raises(DataError, match="no accelerator"):
        import_submission(sub)


def test_points_of_one_curve_naming_different_models_are_an_error(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    yaml = sub / MODEL / "r64" / "point.yaml"
    yaml.write_text(yaml.read_text().replace("model_name: gpt-oss-120b", "model_name: llama3.1-8b"))
    with pytest.raises(DataError) as err:
        import_submission(sub)
    assert err.value.field == "model_name" and "llama3.1-8b" in err.value.reason


def test_a_file_linked_from_outside_the_submission_is_refused(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    outside = tmp_path / "elsewhere.json"
    target = sub / MODEL / "r64" / "result_summary.json"
    shutil.copy(target, outside)
    target.unlink()
    os.symlink(outside, target)
    with pytest.raises(DataError) as err:
        import_submission(sub)
    assert err.value.file == str(target) and "outside the submission" in err.value.reason


def test_folder_names_too_long_for_a_curve_id_are_refused(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    (sub / "results" / "system_a").rename(sub / "results" / ("s" * 200))
    with pytest.raises(DataError, match="longer than any function takes"):
        import_submission(sub)


def test_a_point_yaml_larger_than_any_is_refused_before_it_is_read(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    yaml = sub / MODEL / "r64" / "point.yaml"
    with yaml.open("a") as fh:  # 2 MiB of comments: far more than a point.yaml holds (about 1 KB)
        fh.write(("# padding\n" * 1000) * 210)
    with pytest.raises(DataError) as err:
        import_submission(sub)
    assert err.value.file == str(yaml) and "not read" in err.value.reason


@pytest.mark.parametrize(("typed", "hint"), [("nope", "use one of"), ("gpt-oss-12b", "Did you mean gpt-oss-120b? ")])
def test_a_benchmark_no_model_list_knows_is_refused_with_the_close_ones(typed: str, hint: str) -> None:
    with pytest.raises(DataError) as err:
        import_report(OWN, model=typed)
    assert err.value.file == "--benchmark" and f"No benchmark {typed!r}" in err.value.reason
    assert hint in err.value.reason


def test_the_endpoints_models_are_the_checkers() -> None:
    # MLCommons' checker (endpoints-submission-cli 1.5.3.0, submission_checker/checker.py): the benchmark models
    # accepted this round (rules 3.2), in its directory form (llama3_1-8b for llama3.1-8b)
    from submission_checker import checker  # type: ignore[import-untyped]

    assert frozenset(benchmark_key(m) for m in checker._ALLOWED_MODEL_NAMES) == ENDPOINTS_MODELS
    curve = import_report(OWN, model="kimi-k3")  # an Endpoints model no Inference round has
    assert curve.model == "kimi-k3"


def test_a_curve_that_would_not_load_names_the_users_curves_json(user_home: Path) -> None:
    """Issue 42 item 8: the check that the file written loads spoke of a "new curves file", no file of the user's.
    A hand-made curve (a Python caller's, not imported) holding what curves.json refuses, a control character."""
    from dataclasses import replace

    from benchsheet.data.runs import add_curves
    from benchsheet.data.store import user_curves

    bad = replace(import_submission(SUB_A)[0], system="system\x1ba")
    with pytest.raises(DataError) as err:
        add_curves((bad,))
    assert err.value.file == str(user_curves()) and "new curves file" not in str(err.value)
    assert "nothing was written" in err.value.reason and not user_curves().exists()


def test_a_damaged_curves_json_is_said_by_runs_and_curves(user_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42 item 8: only `info` said curves.json could not be read; CURVES answered "No MLPerf Endpoints
    curves are loaded", as if none had been imported."""
    from benchsheet.catalogue.engine import evaluate
    from benchsheet.cli import main
    from benchsheet.data import store

    assert main(["import-run", str(SUB_A)]) == 0
    (user_home / "curves.json").write_text('{"format": broken')
    store.set_table(None)
    capsys.readouterr()
    assert main(["runs"]) == 1
    assert f"Endpoints curves unusable: {user_home / 'curves.json'}: not a JSON file" in capsys.readouterr().err
    na = evaluate("=CURVES()")
    reason = getattr(na, "reason", "")
    assert str(na) == "#N/A" and f"{user_home / 'curves.json'}: not a JSON file" in reason, reason
    assert "are loaded" not in reason


def test_a_loadgen_runs_misspelt_benchmark_gets_the_close_ones(run_copy: Path) -> None:
    """The loadgen path refused an unknown --benchmark with the whole list only; it now names the close one."""
    from benchsheet.data.loadgen import find_run_files

    with pytest.raises(DataError) as err:
        find_run_files(run_copy, None, "deepseek-r2")
    assert err.value.reason.startswith("Did you mean deepseek-r1? No benchmark 'deepseek-r2'.")
    with pytest.raises(DataError, match="use one of"):
        find_run_files(run_copy, None, "kimi-k3")  # an Endpoints model: no LoadGen benchmark
