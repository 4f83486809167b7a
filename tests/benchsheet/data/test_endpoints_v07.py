"""The v0.7 layout of an MLPerf Endpoints submission (issue 31, item 1: "v0.7 too if simple"): read by the
same import-run / refresh path as v1.0, each point as MLCommons' own visualizer (mlperf-viz, a test
dependency) reads it from the same folder.

The fixture (tests/benchsheet/data/endpoints_v07, SOURCES.toml) is the checker's layout B of
mlcommons/endpoints-submission-cli's test submissions: ``sub_c/systems/sys_tpu_4chip.json`` and
``sub_c/pareto/sys_tpu_4chip/qwen3-coder-480b/{points,results}/``, the two points whose run_metadata.json the
stored index holds. Synthetic files: every point carries the same figures (306.94 tokens/s, 2.4 tokens/s per
user); they test the reading, never compare hardware."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from benchsheet.data.endpoints import import_submission, is_report, is_submission
from benchsheet.errors import DataError

V07 = Path(__file__).with_name("endpoints_v07")
V10 = Path(__file__).with_name("endpoints")
CURVE_ID = "sub_c/sys_tpu_4chip/qwen3-coder-480b"
MODEL_DIR = V07 / "sub_c" / "pareto" / "sys_tpu_4chip" / "qwen3-coder-480b"


def test_a_v07_folder_is_a_submission_read_into_one_curve() -> None:
    assert is_submission(V07) and is_submission(V07 / "sub_c") and not is_report(V07)
    (curve,) = import_submission(V07)
    assert (curve.id, curve.submitter, curve.system, curve.model, curve.division, curve.availability) == (
        CURVE_ID,
        "Submitter-C",
        "sys_tpu_4chip",
        "qwen3-coder-480b",
        "standardized",
        "available",
    )
    assert (curve.accelerator, curve.gpus, curve.nodes, curve.heterogeneous) == ("Google TPU v5p", 4, 1, False)
    assert [p.concurrency for p in curve.points] == [8, 128]
    point = curve.points[1]
    assert (point.ttft_ms, point.tpot_ms) == ((30.0, 280.0, 300.0, 312.5), (4.0, 5.5, 6.0, 6.5))  # ms as written
    # v0.7 has no steady-state verdict and these points no results_summary.json: kept, flagged, never used
    assert {p.flag for p in curve.points} == {"run not reported (v0.7); no steady-state verdict"}
    meta = MODEL_DIR / "results" / "point_128" / "run_metadata.json"
    assert point.files[0] == (str(meta), hashlib.sha256(meta.read_bytes()).hexdigest())
    assert [Path(f).name for f, _ in point.files] == ["run_metadata.json", "point_128.yaml", "sys_tpu_4chip.json"]
    assert [Path(f).name for f, _ in curve.points[0].files] == ["run_metadata.json", "sys_tpu_4chip.json"]


def test_the_points_are_what_mlperf_viz_reads_from_the_same_folder() -> None:
    """mlperf-viz's v0.7 reader (bundle.build_bundle, adapt.run_to_flat), where it is installed (test-only)."""
    viz = pytest.importorskip("mlperf_endpoints_visualizer.bundle")
    bundle = viz.build_bundle(V07, version="0.7", generated_at="2026-12-03T00:00:00Z")
    assert bundle.warnings == [] and bundle.submission_count == 1
    runs = sorted((r["run"] for r in bundle.data["runs"]), key=lambda r: r["direct_fields"]["concurrency"])
    (curve,) = import_submission(V07)
    theirs = [
        (
            r["direct_fields"]["concurrency"],
            r["derived_fields"]["system_tps"],
            r["derived_fields"]["tps_per_user"],
            r["direct_fields"]["measured_latency_ttft_p90"],
            r["direct_fields"]["measured_latency_tpot_p90"],
        )
        for r in runs
    ]
    ours = [(p.concurrency, p.system_tps, p.tps_per_user, p.ttft_ms[1], p.tpot_ms[1]) for p in curve.points]
    assert ours == theirs
    (entry,) = bundle.data["submissions"]
    sut = entry["combined_submission"]["sut_metadata"]
    assert (sut["system_name"], sut["system_availability_status"].lower()) == (curve.system, curve.availability)


def test_a_folder_of_both_layouts_reads_both(tmp_path: Path) -> None:
    shutil.copytree(V07 / "sub_c", tmp_path / "sub_c")
    shutil.copytree(V10 / "sub_a", tmp_path / "sub_a")
    assert [c.id for c in import_submission(tmp_path)] == ["sub_a/system_a/gpt-oss-120b", CURVE_ID]


def test_errors_of_a_v07_point(tmp_path: Path) -> None:
    sub = tmp_path / "sub_c"
    shutil.copytree(V07 / "sub_c", sub)
    point = sub / "pareto" / "sys_tpu_4chip" / "qwen3-coder-480b" / "results" / "point_8"
    meta = point / "run_metadata.json"
    doc = json.loads(meta.read_text())
    meta.write_text(json.dumps(doc | {"concurrency": 16}))
    with pytest.raises(DataError, match="field 'concurrency': 16 in the folder point_8"):
        import_submission(sub)
    meta.write_text(json.dumps(doc | {"system_tps": "fast"}))
    with pytest.raises(DataError, match="field 'system_tps': expected a number > 0"):
        import_submission(sub)
    meta.unlink()
    with pytest.raises(DataError, match=r"field 'run_metadata\.json': missing"):
        import_submission(sub)


def test_import_run_and_refresh_of_a_v07_folder(
    capsys: pytest.CaptureFixture[str], user_home: Path, tmp_path: Path
) -> None:
    from benchsheet.cli import main
    from benchsheet.data import store

    copy = tmp_path / "sub_c"
    shutil.copytree(V07 / "sub_c", copy)
    assert main(["import-run", str(copy)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == f"{CURVE_ID}: 2 points (2 flagged) on 4 x Google TPU v5p\n"
    meta = copy / "pareto" / "sys_tpu_4chip" / "qwen3-coder-480b" / "results" / "point_8" / "run_metadata.json"
    meta.write_text(meta.read_text().replace('"system_tps": 306.94', '"system_tps": 400.0'))
    assert main(["refresh", str(copy)]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out == f"{CURVE_ID}: 2 points (2 flagged) on 4 x Google TPU v5p\n"
    store.set_table(None)
    curve = store.get_table().curve(CURVE_ID)
    assert curve is not None and curve.source == str(copy) and curve.points[0].system_tps == 400.0
    assert (str(meta), hashlib.sha256(meta.read_bytes()).hexdigest()) in curve.points[0].files
