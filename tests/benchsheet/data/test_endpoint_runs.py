"""Your own MLPerf Endpoints run (the endpoints tool's report directories) as a curve marked as yours;
``benchsheet refresh`` of an Endpoints folder; ``benchsheet forget`` of an imported curve (issue 31).

The own run's files (tests/benchsheet/data/endpoints/own_run, SOURCES.toml) are written from the
endpoints repository's report design and config template: two report directories, concurrency 16 and 64."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from benchsheet.analysis.citations import curve_cite
from benchsheet.analysis.curves import per_gpu_at, per_gpu_at_points
from benchsheet.data.endpoints import curves_from_json, curves_to_json, import_report, is_report
from benchsheet.data.table import UNCHECKED, Table
from benchsheet.errors import DataError

FIXTURES = Path(__file__).with_name("endpoints")
OWN, SUB_A = FIXTURES / "own_run", FIXTURES / "sub_a"
OWN_ID = "own/system_a/gpt-oss-120b"


def test_report_directories_are_one_curve_marked_as_yours() -> None:
    assert is_report(OWN) and is_report(OWN / "c16") and not is_report(SUB_A)
    c = import_report(OWN)
    assert (c.id, c.own, c.model, c.system, c.submitter, c.gpus, c.accelerator) == (
        OWN_ID,
        True,
        "gpt-oss-120b",  # config.yaml's model_params.name "openai/gpt-oss-120b": its model part
        "system_a",
        "",
        8,
        "AMD Instinct MI355X",
    )
    # c16: 1,200,000 output tokens in 600 s = 2,000 tokens/s; TPOT p90 8 ms = 125 tokens/s per user
    # c64: 3,840,000 in 600 s = 6,400 tokens/s; TPOT p90 16 ms = 62.5 tokens/s per user
    assert [(p.concurrency, p.system_tps, p.tps_per_user) for p in c.points] == [
        (16, 2000.0, 125.0),
        (64, 6400.0, 62.5),
    ]
    assert all(p.steady_state == UNCHECKED and p.complete and p.flag == "" for p in c.points)
    summary = OWN / "c16" / "performance" / "result_summary.json"
    assert c.points[0].files[0] == (str(summary), hashlib.sha256(summary.read_bytes()).hexdigest())
    assert [Path(f).name for f, _ in c.points[0].files] == ["result_summary.json", "config.yaml", "system_desc.json"]
    one = import_report(OWN / "c64", model="gpt-oss-120b", name="my box")  # one report directory: one point
    assert one.id == "own/my box/gpt-oss-120b" and [p.concurrency for p in one.points] == [64]


def test_an_own_curve_answers_and_cites_as_yours(table: Table) -> None:
    t = table.with_curves([import_report(OWN)])
    # By hand: at 100 tokens/s per user the step is c16 (125, 250 per GPU), the only point that meets 100; asked,
    # between c64 (62.5, 800 per GPU) and c16: 800 + (250 - 800) x (100 - 62.5) / (125 - 62.5) = 800 - 330 = 470
    assert per_gpu_at(t, OWN_ID, 100) == 250.0
    assert per_gpu_at(t, OWN_ID, 100, True) == pytest.approx(470.0)
    between = "interpolated (not official) between r64 (62.5 tokens/s per user, 800 per GPU) and r16"
    assert between in per_gpu_at_points(t, OWN_ID, 100, True)
    assert curve_cite(t, OWN_ID, 16, "entry") == (
        f"{OWN_ID}: your own MLPerf Endpoints run, gpt-oss-120b, concurrency 16; not an MLPerf result."
    )
    assert "Internal measurement, unverified, not an MLPerf result." in str(curve_cite(t, OWN_ID, 16, "derived"))


def test_the_own_mark_survives_curves_json() -> None:
    c = import_report(OWN)
    assert curves_from_json(curves_to_json((c,)), "x") == (c,)
    old = json.loads(curves_to_json((c,)))
    del old["curves"][0]["own"]  # a file written before own runs were imported
    assert curves_from_json(json.dumps(old), "x") == (replace(c, own=False),)


def test_errors_of_an_own_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(OWN / "c16", run)
    with pytest.raises(DataError, match=r"system_desc\.json.*give --system <system_desc\.json>"):
        import_report(run)
    desc = OWN / "system_desc.json"
    (run / "config.yaml").unlink()
    with pytest.raises(DataError, match=r"no model named: give --benchmark <model>"):
        import_report(run, desc)
    path = run / "performance" / "result_summary.json"
    doc = json.loads(path.read_text())
    doc["run_config"]["load_pattern"] = {"type": "poisson", "target_qps": 10}
    path.write_text(json.dumps(doc))
    with pytest.raises(DataError, match=r"'poisson': not a concurrency run"):
        import_report(run, desc, "gpt-oss-120b")
    both = tmp_path / "both"
    for name in ("a", "b"):
        shutil.copytree(OWN / "c16", both / name)
    with pytest.raises(DataError, match="a second run at concurrency 16"):
        import_report(both, desc)
    with pytest.raises(DataError, match="no MLPerf Endpoints run"):
        import_report(tmp_path / "nothing")


def test_import_run_refresh_and_forget(capsys: pytest.CaptureFixture[str], user_home: Path, tmp_path: Path) -> None:
    from benchsheet.cli import main
    from benchsheet.data import store

    assert main(["import-run", str(OWN)]) == 0, capsys.readouterr().err
    assert main(["import-run", str(SUB_A)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.splitlines() == [
        f"{OWN_ID}: 2 points (0 flagged) on 8 x AMD Instinct MI355X (your own run)",
        "sub_a/system_a/gpt-oss-120b: 7 points (0 flagged) on 8 x AMD Instinct MI355X"
        " (a TEST submission, not an MLPerf result)",
    ]
    # refresh reads a changed submission folder again: the curve replaced, its files' new SHA-256 kept
    copy = tmp_path / "sub_a"
    shutil.copytree(SUB_A, copy)
    summary = copy / "results" / "system_a" / "gpt-oss-120b" / "r64" / "result_summary.json"
    doc = json.loads(summary.read_text())
    doc["output_sequence_lengths"]["total"] = 9_600_000.0  # 8,000 tokens/s: 1,000 per GPU
    summary.write_text(json.dumps(doc))
    before = store.load_table().rows
    assert main(["refresh", str(copy)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == (
        "sub_a/system_a/gpt-oss-120b: 7 points (0 flagged) on 8 x AMD Instinct MI355X"
        " (a TEST submission, not an MLPerf result)\n"
    )
    store.set_table(None)
    table = store.get_table()
    assert table.rows == before  # the Inference rows untouched, nothing downloaded
    curve = table.curve("sub_a/system_a/gpt-oss-120b")
    assert curve is not None and curve.source == str(copy)
    assert per_gpu_at(table, curve.id, 100) == 1000.0  # r64 (100 tokens/s per user) is the step at 100
    assert (str(summary), hashlib.sha256(summary.read_bytes()).hexdigest()) in curve.points[2].files
    assert main(["runs"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "no private entries (add one with: benchsheet import-run PATH)",
        f"{OWN_ID}\tgpt-oss-120b\t2 points (0 flagged)\t8 x AMD Instinct MI355X\tyour own run",
        "sub_a/system_a/gpt-oss-120b\tgpt-oss-120b\t7 points (0 flagged)\t8 x AMD Instinct MI355X\t"
        "TEST submission, not an MLPerf result",
    ]
    # forget, as an own run is forgotten
    assert main(["forget", OWN_ID]) == 0
    assert capsys.readouterr().out == f"forgot {OWN_ID}\n"
    store.set_table(None)
    assert [c.id for c in store.get_table().curves] == ["sub_a/system_a/gpt-oss-120b"]
    assert main(["forget", OWN_ID]) == 2
    assert f"no Endpoints curve {OWN_ID} (yours: sub_a/system_a/gpt-oss-120b)" in capsys.readouterr().err


def test_a_submission_cannot_claim_an_own_runs_unchecked_steady_state(tmp_path: Path) -> None:
    from benchsheet.data.endpoints import import_submission

    sub = shutil.copytree(SUB_A, tmp_path / "sub_a")
    yaml = sub / "results/system_a/gpt-oss-120b/r16/point.yaml"
    yaml.write_text(yaml.read_text().replace("verdict: STEADY STATE", f"verdict: {UNCHECKED}"))
    points = {p.concurrency: p for p in import_submission(sub)[0].points}
    assert points[16].flag == "no steady-state verdict"
