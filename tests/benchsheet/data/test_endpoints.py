"""MLPerf Endpoints v1.0 submissions read into curves: points, counts, flags, provenance and bad folders.

The fixtures (tests/benchsheet/data/endpoints, SOURCES.toml) are MLCommons' own v1.0 validation trees
(point.yaml, system_desc.json, system_power.json) with result_summary.json files written from the
report's documented fields."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from benchsheet.data.endpoints import import_submission
from benchsheet.data.pointyaml import read_point_yaml
from benchsheet.data.table import Table
from benchsheet.errors import DataError

FIXTURES = Path(__file__).with_name("endpoints")
SUB_A, SUB_B = FIXTURES / "sub_a", FIXTURES / "sub_b"
POINT_A64 = SUB_A / "results/system_a/gpt-oss-120b/r64"


def test_a_submission_is_one_curve_per_system_and_model() -> None:
    (curve,) = import_submission(SUB_A)
    assert curve.id == "sub_a/system_a/gpt-oss-120b"
    assert (curve.submitter, curve.system, curve.model) == ("Submitter-A", "system_a", "gpt-oss-120b")
    assert (curve.division, curve.availability) == ("standardized", "available")
    assert [p.concurrency for p in curve.points] == [4, 16, 64, 128, 512, 1024, 2048]  # r256 follows r32: by number
    assert (curve.accelerator, curve.family, curve.vendor, curve.heterogeneous) == (
        "AMD Instinct MI355X",
        "MI355X",
        "AMD",
        False,
    )
    assert (curve.gpus, curve.nodes) == (8, 1)  # accelerators_per_node 8 x number_of_nodes 1
    (b,) = import_submission(SUB_B)
    assert (b.gpus, b.nodes) == (16, 1)


def test_a_folder_of_submissions_gives_each_curve() -> None:
    assert [c.id for c in import_submission(FIXTURES)] == ["sub_a/system_a/gpt-oss-120b", "sub_b/system_b/gpt-oss-120b"]


def test_a_points_metrics_are_section_9_1s() -> None:
    summary = json.loads((POINT_A64 / "result_summary.json").read_bytes())
    point = import_submission(SUB_A)[0].points[2]
    assert point.concurrency == 64
    # system tokens/s = output tokens / measured seconds; tokens/s per user = 1000 / TPOT p90 in ms
    assert point.system_tps == summary["output_sequence_lengths"]["total"] / (summary["duration_ns"] / 1e9) == 7040.0
    assert point.tps_per_user == 1000 / (summary["tpot"]["percentiles"]["90.0"] / 1e6) == 100.0
    assert point.ttft_ms == tuple(summary["ttft"]["percentiles"][f"{p}.0"] / 1e6 for p in (50, 90, 95, 99))
    assert point.tpot_ms[1] == 10.0
    assert (point.steady_state, point.complete, point.state, point.flag) == ("STEADY STATE", True, "complete", "")


def test_the_answers_agree_with_mlcommons_checker() -> None:
    """endpoints-submission-cli's own model of result_summary.json, where it is installed (a test-only tool)."""
    model = pytest.importorskip("submission_checker.models.file.point_summary")
    for curve in import_submission(FIXTURES):
        for point in curve.points:
            path = next(Path(f) for f, _ in point.files if f.endswith("result_summary.json"))
            theirs = model.PointSummary.model_validate_json(path.read_bytes())
            assert point.system_tps == pytest.approx(theirs.system_tps, rel=1e-12)
            assert point.tps_per_user == pytest.approx(1000 / theirs.tpot_p90_ms, rel=1e-12)
            assert point.ttft_ms[1] == pytest.approx(theirs.ttft_p90_ms, rel=1e-12)


def test_the_answers_agree_with_mlcommons_visualizer() -> None:
    """mlperf-viz's reader of a v1.0 point (adapt.result_summary_to_flat), where it is installed (test-only)."""
    adapt = pytest.importorskip("mlperf_endpoints_visualizer.adapt")
    for curve in import_submission(FIXTURES):
        for point in curve.points:
            path = next(Path(f) for f, _ in point.files if f.endswith("result_summary.json"))
            flat = adapt.result_summary_to_flat(json.loads(path.read_bytes()), concurrency=point.concurrency)
            derived, direct = flat["derived_fields"], flat["direct_fields"]
            assert derived["tps_per_user"] == pytest.approx(point.tps_per_user, rel=1e-12)
            assert derived["ttft"] == pytest.approx(point.ttft_ms[1], rel=1e-12)
            assert direct["measured_latency_tpot_p99"] == pytest.approx(point.tpot_ms[3], rel=1e-12)
            # it takes the summary's own "tps" where written: the same window here
            assert derived["system_tps"] == pytest.approx(point.system_tps, rel=1e-12)
            assert direct["result_state"] == point.state


def test_an_interrupted_point_is_kept_and_flagged() -> None:
    (curve,) = import_submission(SUB_B)
    last = curve.points[-1]
    assert (last.concurrency, last.complete, last.state) == (2048, False, "interrupted")
    assert last.flag == "run interrupted"
    assert all(p.flag == "" for p in curve.points[:-1])


def test_a_point_without_steady_state_is_flagged(tmp_path: Path) -> None:
    sub = shutil.copytree(SUB_A, tmp_path / "sub_a")
    yaml = sub / "results/system_a/gpt-oss-120b/r16/point.yaml"
    yaml.write_text(yaml.read_text().replace("verdict: STEADY STATE", "verdict: NOT STEADY"))
    (sub / "results/system_a/gpt-oss-120b/r64/point.yaml").unlink()
    points = {p.concurrency: p for p in import_submission(sub)[0].points}
    assert points[16].flag == "steady state 'NOT STEADY'"
    assert points[64].flag == "no steady-state verdict"


def test_a_mixed_accelerator_system_is_heterogeneous(tmp_path: Path) -> None:
    sub = shutil.copytree(SUB_A, tmp_path / "sub_a")
    for desc in sub.glob("results/system_a/gpt-oss-120b/r*/system_desc.json"):
        doc = json.loads(desc.read_bytes())
        doc["node_types"][0]["accelerator_info"].append(
            {"accelerator_model_name": "NVIDIA H100-SXM-80GB", "accelerators_per_node": 4}
        )
        desc.write_text(json.dumps(doc))
    (curve,) = import_submission(sub)
    assert (curve.accelerator, curve.heterogeneous, curve.gpus) == (
        "AMD Instinct MI355X + NVIDIA H100-SXM-80GB",
        True,
        12,
    )


def test_a_missing_system_desc_is_an_error_naming_the_folder(tmp_path: Path) -> None:
    sub = shutil.copytree(SUB_A, tmp_path / "sub_a")
    point = sub / "results/system_a/gpt-oss-120b/r128"
    (point / "system_desc.json").unlink()
    with pytest.raises(DataError) as err:
        import_submission(sub)
    assert err.value.file == str(point)
    assert err.value.field == "system_desc.json"
    assert "missing" in err.value.reason


def test_points_of_different_systems_are_an_error(tmp_path: Path) -> None:
    sub = shutil.copytree(SUB_A, tmp_path / "sub_a")
    desc = sub / "results/system_a/gpt-oss-120b/r4/system_desc.json"
    desc.write_text(desc.read_text().replace('"accelerators_per_node": 8', '"accelerators_per_node": 4'))
    with pytest.raises(DataError, match="different systems"):
        import_submission(sub)


def test_a_folder_without_curves_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no MLPerf Endpoints curve"):
        import_submission(tmp_path)


def test_provenance_names_each_file_and_its_sha256() -> None:
    (curve,) = import_submission(SUB_A, imported_at="2026-12-03T00:00:00Z")
    files = dict(curve.points[2].files)
    assert set(map(Path, files)) == {POINT_A64 / n for n in ("point.yaml", "system_desc.json", "result_summary.json")}
    for name, sha in files.items():
        assert sha == hashlib.sha256(Path(name).read_bytes()).hexdigest()
    power, sha = curve.power_file  # provisioned power (TDP sums): kept as provenance, never read as measured
    assert Path(power).name == "system_power.json" and len(sha) == 64
    assert curve.imported_at == "2026-12-03T00:00:00Z"


def test_point_yaml_may_start_with_a_byte_order_mark() -> None:
    assert read_point_yaml("\ufeffa: 1\n".encode(), "point.yaml") == {"a": 1}


def test_point_yaml_reads_as_pyyaml_does() -> None:
    yaml = pytest.importorskip("yaml")  # a test-only tool: benchsheet reads the subset itself
    for path in FIXTURES.glob("*/results/*/*/r*/point.yaml"):
        assert read_point_yaml(path.read_bytes(), str(path)) == yaml.safe_load(path.read_bytes())


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a: [1, 2]\n", "does not take"),
        ("a: 1\n  b: 2\n", "indentation"),
        ("just text\n", "key: value"),
        ('a: "open\n', "does not end"),
    ],
)
def test_point_yaml_outside_the_subset_is_an_error_naming_the_line(text: str, reason: str) -> None:
    with pytest.raises(DataError, match=reason) as err:
        read_point_yaml(text.encode(), "point.yaml")
    assert err.value.line is not None


def test_curves_sit_beside_the_rows(table: Table) -> None:
    curves = import_submission(FIXTURES)
    with_curves = table.with_curves(curves)
    assert with_curves.rows == table.rows and with_curves.sources == table.sources
    assert with_curves.curve(" SUB_A/system_a/GPT-OSS-120B ") is curves[0]
    assert table.curve("sub_a/system_a/gpt-oss-120b") is None
    assert with_curves.with_curves(curves[:1]).curves == (curves[1], curves[0])  # re-imported: replaced


def test_import_run_keeps_a_submissions_curves_with_their_provenance(
    capsys: pytest.CaptureFixture[str], user_home: Path
) -> None:
    from benchsheet.cli import main
    from benchsheet.data import store
    from benchsheet.udfs import functions as udf

    before = store.get_table()
    assert main(["import-run", str(SUB_A)]) == 0, capsys.readouterr().err
    assert main(["import-run", str(SUB_B)]) == 0, capsys.readouterr().err
    test = " (a TEST submission, not an MLPerf result)"  # MLCommons' synthetic fixtures (test_endpoints_official)
    assert capsys.readouterr().out.splitlines() == [
        "sub_a/system_a/gpt-oss-120b: 7 points (0 flagged) on 8 x AMD Instinct MI355X" + test,
        "sub_b/system_b/gpt-oss-120b: 7 points (1 flagged) on 16 x AMD Instinct MI355X" + test,
    ]
    store.set_table(None)
    table = store.get_table()
    assert table.rows == before.rows and table.origin == before.origin  # the Inference rows as they were
    fresh = import_submission(FIXTURES)  # as imported: every field and file's SHA-256 kept
    assert table.curves == tuple(
        replace(c, imported_at=t.imported_at) for c, t in zip(fresh, table.curves, strict=True)
    )
    assert udf.CURVEAT("sub_a/system_a/gpt-oss-120b", 130) == 352.0  # the step: r16 (160 tokens/s per user)
    assert main(["import-run", str(SUB_A)]) == 0  # again: replaced, not added twice
    store.set_table(None)
    assert [c.id for c in store.get_table().curves] == ["sub_b/system_b/gpt-oss-120b", "sub_a/system_a/gpt-oss-120b"]


def test_a_damaged_curves_file_is_noted_and_the_table_still_loads(user_home: Path) -> None:
    from benchsheet.data import store

    (user_home / "curves.json").write_text('{"format": "benchsheet-curves", "version": 1, "curves": [{"id": 5}]}')
    table = store.load_table()
    assert table.curves == () and table.rows
    assert "Endpoints curves unusable" in str(table.origin) and "field 'id'" in str(table.origin)


@pytest.mark.parametrize(
    "text",
    [
        'a: "\\q"\n',  # a backslash escape JSON does not know
        "".join(" " * i + f"k{i}:\n" for i in range(3000)) + " " * 3000 + "v: 1\n",  # nested 3,000 deep
        "a:\n  - x\n  b: 1\n",
        "- a\n- b\n",
    ],
)
def test_damaged_point_yaml_is_a_data_error(text: str) -> None:
    with pytest.raises(DataError):
        read_point_yaml(text.encode(), "point.yaml")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"output_sequence_lengths": [1, 2]}, "output_sequence_lengths.total"),
        ({"duration_ns": 0}, "duration_ns"),
        ({"duration_ns": True}, "duration_ns"),
        ({"tpot": {"percentiles": {"90.0": -1}}}, "tpot.percentiles.90.0"),
        ({"tpot": {"percentiles": {"50.0": 1e6}}}, "tpot"),
        ({"ttft": "fast"}, None),  # no percentiles: TTFT left blank, the point still imports
    ],
)
def test_a_damaged_summary_names_its_field(tmp_path: Path, change: dict[str, object], field: str | None) -> None:
    sub = shutil.copytree(SUB_A, tmp_path / "sub_a")
    path = sub / "results/system_a/gpt-oss-120b/r64/result_summary.json"
    path.write_text(json.dumps(json.loads(path.read_bytes()) | change))
    if field is None:
        assert import_submission(sub)[0].points[2].ttft_ms == (None, None, None, None)
        return
    with pytest.raises(DataError) as err:
        import_submission(sub)
    assert (err.value.file, err.value.field) == (str(path), field)


def test_a_concurrency_beyond_any_system_is_an_error(tmp_path: Path) -> None:
    sub = shutil.copytree(SUB_A, tmp_path / "sub_a")
    point = sub / "results/system_a/gpt-oss-120b/r64"
    (point / "point.yaml").unlink()
    point.rename(point.with_name("r99999999999"))
    with pytest.raises(DataError, match="concurrency"):
        import_submission(sub)
