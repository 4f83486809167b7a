"""What an MLPerf Endpoints point is officially (issue 38): its Offline declaration, the basis of its figures
(the steady-state window or the whole run), the agentic x-axis, and a test submission labelled as one.

Sources followed, each named where a test depends on it:
- the Endpoints rules (mlcommons/endpoints_policies endpoints_rules.md, v1.0 draft): section 4.4 (the steady-state
  window is the official result only for status ``windowable``; verdicts ``drifting_up``/``drifting_down`` are
  "reported-with-flags", ``not found`` falls back to the whole-run ``total``; whether ``not found`` is invalid
  instead is "pending ratification", the table assuming reported-with-flags), section 4.2 (agentic benchmarks
  plot ``e2e_avg_interactivity`` instead of tokens/s per user), section 5.7 (``offline: dedicated|elected``);
- the submission checker (mlcommons/endpoints submission_checker): its ``SteadyState`` model (status, verdict,
  window extent: the point.yaml block carries no figures of the window) and its agentic rule
  (``e2e_avg_interactivity = sum(output_tokens) / sum(e2e_turn_time)``; a summary with neither input is single-turn);
- the steady-state tool (mlcommons/endpoints scripts/steady_state_diagnostics.py): its ``--json`` report's
  ``steady_state`` block (``found``, ``window``, ``tps.system``, ``tpot``/``ttft`` percentiles in ns). Where it
  and the rules disagree (its ``tps.per_user`` is 1 / mean TPOT; section 9.1 defines tokens/s per user as
  1000 / TPOT p90 ms), the rules are followed: per user = 1e9 / the window's TPOT p90 in ns.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchsheet.analysis import curves as CV
from benchsheet.analysis.citations import curve_cite
from benchsheet.data.endpoints import curves_from_json, curves_to_json, import_submission
from benchsheet.data.table import Table
from benchsheet.errors import BenchError, DataError

FIXTURES = Path(__file__).with_name("endpoints")
SUB_A = FIXTURES / "sub_a"
MODEL = "results/system_a/gpt-oss-120b"


def _copy(tmp_path: Path) -> Path:
    return shutil.copytree(SUB_A, tmp_path / "sub_a")


def _edit_yaml(point: Path, old: str, new: str) -> None:
    text = (point / "point.yaml").read_text()
    assert old in text
    (point / "point.yaml").write_text(text.replace(old, new))


def _add_dedicated_offline(sub: Path) -> Path:
    """A dedicated Offline run added by hand (HAND-MADE figures): r1000, one pass over a dataset of 1,000 samples
    (the fixtures' super_pass_size), 40,000 output tokens in 10 s, TPOT p90 50 ms (20 tokens/s per user)."""
    src, dst = sub / MODEL / "r2048", sub / MODEL / "r1000"
    shutil.copytree(src, dst)
    _edit_yaml(dst, "concurrency: 2048", "concurrency: 1000")
    _edit_yaml(dst, "offline: elected", "offline: dedicated")
    summary = json.loads((dst / "result_summary.json").read_bytes())
    summary["duration_ns"] = 10_000_000_000
    summary["output_sequence_lengths"]["total"] = 40000.0
    summary["tpot"]["percentiles"]["90.0"] = 50_000_000.0
    (dst / "result_summary.json").write_text(json.dumps(summary))
    return dst


def test_the_offline_declaration_is_read(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    _add_dedicated_offline(sub)
    (curve,) = import_submission(sub)
    offline = {p.concurrency: p.offline for p in curve.points}
    assert offline[2048] == "elected"  # MLCommons' fixture declares its C_max point elected (rules 5.7)
    assert offline[1000] == "dedicated"
    assert {offline[c] for c in (4, 16, 64, 128, 512, 1024)} == {""}


def test_a_dedicated_run_imported_is_the_ceiling_and_no_step(tmp_path: Path, table: Table) -> None:
    sub = _copy(tmp_path)
    _add_dedicated_offline(sub)
    t = table.with_curves(import_submission(sub))
    curve = "sub_a/system_a/gpt-oss-120b"
    # 40,000 / 10 s = 4,000 tokens/s on 8 GPUs: 500 per GPU, at 20 tokens/s per user. r1024 (16 tokens/s per user,
    # 2,252.75 per GPU) does not meet 18; r512 (25, 1,760) does. A dedicated run would otherwise be read as a step.
    assert CV.per_gpu_at(t, curve, 18) == 1760.0
    assert CV.offline_ceiling(t, curve) == 500.0


def test_the_basis_of_each_point_is_said(tmp_path: Path, table: Table) -> None:
    sub = _copy(tmp_path)
    _edit_yaml(sub / MODEL / "r16", "verdict: STEADY STATE", "verdict: not found")
    _edit_yaml(sub / MODEL / "r128", "status: windowable", "status: insufficient_passes")
    t = table.with_curves(import_submission(sub))
    rows = CV.curve_points(t, "sub_a/system_a/gpt-oss-120b")
    header = rows[0]
    basis = {r[0]: r[header.index("basis")] for r in rows[1:]}
    flagged = {r[0]: r[header.index("flagged")] for r in rows[1:]}
    unused = {r[0]: r[header.index("not used because")] for r in rows[1:]}
    assert basis[64] == "whole run: the submission gives the steady-state window's extent, not its figures"
    assert basis[16] == "whole run (steady state 'not found', rules 4.4)"
    assert basis[128] == "whole run (status insufficient_passes, rules 4.4)"
    # not found: published with whole-run figures, usable and flagged (rules 4.4, pending ratification)
    assert unused[16] == "" and str(flagged[16]).startswith("steady state 'not found': whole-run figures")
    assert unused[128] == "" and str(flagged[128]).startswith("status insufficient_passes: whole-run figures")
    assert flagged[64] == ""
    assert CV.per_gpu_at(t, "sub_a/system_a/gpt-oss-120b", 150) == 352.0  # r16 still gives its step
    assert "flagged: steady state 'not found'" in CV.per_gpu_at_points(t, "sub_a/system_a/gpt-oss-120b", 150)


def _detector_report(point: Path, tokens_per_s: float, tpot_p90_ns: float) -> None:
    """The steady-state tool's ``--json`` report (scripts/steady_state_diagnostics.py of mlcommons/endpoints, its
    ``build_steady_state`` block), written here by hand with HAND-MADE figures: the tool needs the run's
    events.jsonl and a tokenizer."""
    summary = {"count": 4000, "mean": tpot_p90_ns * 0.8, "min": 1.0, "max": tpot_p90_ns * 2, "p50": tpot_p90_ns * 0.8}
    report = {
        "n_super_passes": 6,
        "superpass_size": 1000,
        "warmup": 1,
        "steady_state": {
            "found": True,
            "reason": None,
            "window": {"sp_lo": 0, "sp_hi": 4, "n_super_passes": 4, "n_samples": 4000},
            "ttft": summary | {"p90": 50_000_000.0, "p95": 60_000_000.0, "p99": 70_000_000.0},
            "tpot": summary | {"p90": tpot_p90_ns, "p95": tpot_p90_ns * 1.1, "p99": tpot_p90_ns * 1.2},
            "tps": {"per_user": 1e9 / (tpot_p90_ns * 0.8), "per_user_ci": [1, 2], "system": tokens_per_s},
            "anomaly": {"detected": False},
        },
    }
    # The keys are those build_steady_state() of scripts/steady_state_diagnostics.py writes under "steady_state"
    # (mlcommons/endpoints, branch doc/alicheng-steady-state-design, 2026-08-21). The file name is benchsheet's
    # own: the tool writes --json where it is told; endpoints-submission-cli 1.5.3.0's checker
    # (submission_checker/models/file/steady_state.py) says the bundle carries only point.yaml's block, the extent.
    (point / "steady_state.json").write_text(json.dumps(report))


def test_the_steady_state_windows_figures_are_official_where_the_submission_carries_them(
    tmp_path: Path, table: Table
) -> None:
    sub = _copy(tmp_path)
    _detector_report(sub / MODEL / "r64", 7200.0, 9_000_000.0)
    t = table.with_curves(import_submission(sub))
    point = next(p for p in t.curves[0].points if p.concurrency == 64)
    assert point.system_tps == 7200.0  # the window's, not the whole run's 7,040
    assert point.tps_per_user == pytest.approx(1e9 / 9_000_000)  # section 9.1 over the window, not 1 / mean TPOT
    assert point.tpot_ms[1] == 9.0 and point.ttft_ms[1] == 50.0
    assert any(f.endswith("steady_state.json") for f, _ in point.files)
    rows = CV.curve_points(t, "sub_a/system_a/gpt-oss-120b")
    assert rows[3][rows[0].index("basis")] == "steady-state window (official; whole run supplementary)"


def test_a_window_report_is_not_used_unless_the_verdict_makes_it_official(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    _edit_yaml(sub / MODEL / "r64", "verdict: STEADY STATE", "verdict: drifting_up")
    _detector_report(sub / MODEL / "r64", 7200.0, 9_000_000.0)
    point = next(p for p in import_submission(sub)[0].points if p.concurrency == 64)
    assert point.system_tps == 7040.0 and point.basis == "whole run (steady state 'drifting_up', rules 4.4)"


def _agentic(sub: Path) -> None:
    """HAND-MADE agentic figures in each summary: output tokens per turn and end-to-end turn seconds (the fields
    the checker derives e2e_avg_interactivity from), 50 tokens/s per turn at every point but r64 (40)."""
    for summary_path in (sub / MODEL).glob("r*/result_summary.json"):
        doc = json.loads(summary_path.read_bytes())
        seconds = 150.0 if summary_path.parent.name == "r64" else 120.0
        doc |= {"output_tokens_per_turn_total": 6000.0, "e2e_turn_time_seconds_total": seconds}
        summary_path.write_text(json.dumps(doc))


def test_an_agentic_curve_reads_e2e_avg_interactivity_and_names_its_axis(tmp_path: Path, table: Table) -> None:
    sub = _copy(tmp_path)
    _agentic(sub)
    (curve,) = import_submission(sub)
    assert curve.axis == "e2e_avg_interactivity"
    assert {p.concurrency: p.tps_per_user for p in curve.points}[64] == 40.0  # 6,000 / 150, not 1000 / TPOT p90
    t = table.with_curves([curve])
    assert CV.curve_points(t, curve.id)[0][2] == "e2e_avg_interactivity (tokens/s per user over completed turns)"
    with pytest.raises(BenchError, match=r"^#N/A 60 e2e_avg_interactivity is above every measured point"):
        CV.per_gpu_at(t, curve.id, 60)
    # at 40 every point meets the target (r64 at 40, the others at 50): the step is the best of them, r2048
    assert "the measured step at r2048 (50 e2e_avg_interactivity," in CV.per_gpu_at_points(t, curve.id, 40)


def test_a_stored_e2e_avg_interactivity_alone_is_read(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    for summary_path in (sub / MODEL).glob("r*/result_summary.json"):
        summary_path.write_text(json.dumps(json.loads(summary_path.read_bytes()) | {"e2e_avg_interactivity": 33.0}))
    (curve,) = import_submission(sub)
    assert curve.axis == "e2e_avg_interactivity" and {p.tps_per_user for p in curve.points} == {33.0}


def test_a_curve_mixing_agentic_and_single_turn_points_is_an_error(tmp_path: Path) -> None:
    sub = _copy(tmp_path)
    path = sub / MODEL / "r64" / "result_summary.json"
    path.write_text(json.dumps(json.loads(path.read_bytes()) | {"e2e_avg_interactivity": 33.0}))
    with pytest.raises(DataError, match="agentic"):
        import_submission(sub)


def test_mlcommons_synthetic_fixtures_are_labelled_a_test_submission(table: Table) -> None:
    curves = import_submission(FIXTURES)
    # their system_desc.json gives submitter_contact contact@example.com and links at example.com: a domain
    # reserved for examples (RFC 2606 section 3), so no real submission's
    assert all(c.test.startswith("a test submission, not an MLPerf result") for c in curves)
    t = table.with_curves(curves)
    listed = CV.curves(t, "gpt-oss-120b")
    assert str(listed[1][listed[0].index("note")]).startswith("a test submission")
    cite = curve_cite(t, "sub_a/system_a/gpt-oss-120b", 64)
    entry = cite[0][0]
    assert entry.startswith("sub_a/system_a/gpt-oss-120b: a test submission, not an MLPerf result")
    assert "Available category" not in entry and "Standardized division" not in entry
    assert curves_from_json(curves_to_json(curves), "curves.json") == curves  # kept in curves.json


def test_the_runs_command_labels_a_test_submission(capsys: pytest.CaptureFixture[str]) -> None:
    from benchsheet.cli import main

    assert main(["import-run", str(SUB_A)]) == 0
    out = capsys.readouterr().out
    assert "TEST submission" in out
    assert main(["runs"]) == 0
    assert "TEST submission, not an MLPerf result" in capsys.readouterr().out
