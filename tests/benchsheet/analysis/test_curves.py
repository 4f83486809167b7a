"""MLPerf Endpoints curves as answers: the points, per-GPU tokens/s at an interactivity (the step, and the
interpolation asked for, checked by hand; tests/benchsheet/analysis/test_curve_steps.py has the step rule), no
extrapolation, flagged points never used silently, mixed systems, a family's best
curve; and an Inference function given a curve says what it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchsheet.analysis import curves as CV
from benchsheet.analysis.pergpu import pergpu
from benchsheet.data.endpoints import import_submission
from benchsheet.data.table import Curve, Table
from benchsheet.errors import BenchError

FIXTURES = Path(__file__).parents[1] / "data" / "endpoints"
A, B = "sub_a/system_a/gpt-oss-120b", "sub_b/system_b/gpt-oss-120b"


@pytest.fixture(scope="module")
def loaded() -> tuple[Curve, ...]:
    return import_submission(FIXTURES)


@pytest.fixture
def with_curves(table: Table, loaded: tuple[Curve, ...]) -> Table:
    return table.with_curves(loaded)


def test_the_points_spill_as_a_table(with_curves: Table) -> None:
    rows = CV.curve_points(with_curves, A)
    assert rows[0] == CV.POINT_HEADER
    assert [r[0] for r in rows[1:]] == [4, 16, 64, 128, 512, 1024, 2048]
    # r64 of system_a: 7,040 tokens/s on 8 GPUs = 880 per GPU, TPOT p90 10 ms = 100 tokens/s per user
    assert rows[3][:6] == [64, 7040.0, 100.0, 880.0, 63.2, 10.0]
    whole = "whole run: the submission gives the steady-state window's extent, not its figures"
    assert rows[3][6:] == ["STEADY STATE", True, "", "", whole, ""]
    # MLCommons' fixture elects its C_max point as the Offline result (point.yaml offline: elected)
    last = ["STEADY STATE", False, "run interrupted", "elected: also a step", whole, ""]
    assert CV.curve_points(with_curves, B)[-1][6:] == last


def test_the_loaded_curves_are_listed(with_curves: Table) -> None:
    test = "a test submission, not an MLPerf result: its submitter_contact is at example.com, a domain reserved "
    test += "for examples (RFC 2606)"
    assert CV.curves(with_curves, "gpt-oss-120b")[1:] == [
        [A, "Submitter-A", "system_a", "gpt-oss-120b", "AMD Instinct MI355X", 8, 7, 0, test],
        [B, "Submitter-B", "system_b", "gpt-oss-120b", "AMD Instinct MI355X", 16, 7, 1, test],
    ]


def test_interpolation_between_the_two_points_around_the_target(with_curves: Table) -> None:
    # By hand, system_a: r64 is (100 tokens/s per user, 7040/8 = 880 per GPU), r16 (160, 2816/8 = 352).
    # At 130: 880 + (352 - 880) x (130 - 100) / (160 - 100) = 880 - 264 = 616, only when asked (rules 5.2).
    assert CV.per_gpu_at(with_curves, A, 130, True) == pytest.approx(616.0)
    assert CV.per_gpu_at_points(with_curves, A, 130, True) == (
        "616 tokens/s per GPU, interpolated (not official) between r64 (100 tokens/s per user, 880 per GPU) and "
        "r16 (160 tokens/s per user, 352 per GPU) of sub_a/system_a/gpt-oss-120b"
    )
    # system_b: r128 (1000/12.5 = 80, 11200/16 = 700), r64 (1000/8 = 125, 8800/16 = 550).
    # At 100: 700 + (550 - 700) x (100 - 80) / (125 - 80) = 700 - 66.67 = 633.33.
    assert CV.per_gpu_at(with_curves, B, 100, True) == pytest.approx(700 - 150 * 20 / 45)
    # the official values: the best point at or above the target, r16 (352) and r64 (550)
    assert (CV.per_gpu_at(with_curves, A, 130), CV.per_gpu_at(with_curves, B, 100)) == (352.0, 550.0)


def test_a_measured_target_is_the_point_itself(with_curves: Table) -> None:
    assert CV.per_gpu_at(with_curves, A, 100) == 880.0
    assert "the measured step at r64" in CV.per_gpu_at_points(with_curves, A, 100)
    assert "the measured step at r64" in CV.per_gpu_at_points(with_curves, A, 100, True)


def test_outside_the_measured_range_is_na_with_the_range(with_curves: Table) -> None:
    with pytest.raises(BenchError) as err:
        CV.per_gpu_at(with_curves, A, 250)
    assert err.value.code == "#N/A"
    assert err.value.reason == (
        "250 tokens/s per user is above every measured point of sub_a/system_a/gpt-oss-120b: "
        "measured from 10 to 200 tokens/s per user (r2048 to r4); no extrapolation"
    )


def test_an_interrupted_point_is_never_used_silently(with_curves: Table) -> None:
    # system_b's r2048 (12.5 tokens/s per user) is interrupted: 15 would lie between it and r1024 (20)
    with pytest.raises(BenchError) as err:
        CV.per_gpu_at(with_curves, B, 15, True)
    assert err.value.reason.endswith(
        "20 to 250 tokens/s per user (r1024 to r4); no extrapolation; r2048 not used (run interrupted)"
    )
    assert CV.per_gpu_at(with_curves, B, 15) == 22400 / 16  # the step: r1024, not the interrupted r2048
    assert CV.per_gpu_at_points(with_curves, B, 15).endswith("; r2048 not used (run interrupted)")
    assert CV.per_gpu_at_points(with_curves, B, 100).endswith("; r2048 not used (run interrupted)")


def test_a_mixed_accelerator_curve_has_no_per_gpu_value(table: Table, loaded: tuple[Curve, ...]) -> None:
    from dataclasses import replace

    mixed = replace(loaded[0], accelerator="AMD Instinct MI355X + NVIDIA H100-SXM-80GB", heterogeneous=True)
    t = table.with_curves([mixed])
    with pytest.raises(BenchError, match=r"mixes accelerators .*: it has no per-GPU value"):
        CV.per_gpu_at(t, A, 130)
    assert CV.curve_points(t, A)[3][3] == ""


def test_an_unknown_curve_lists_the_loaded_ones(with_curves: Table, table: Table) -> None:
    with pytest.raises(BenchError, match=r"^#N/A Did you mean sub_a/system_a/gpt-oss-120b or"):
        CV.per_gpu_at(with_curves, "sub_a/system_a/gpt-oss-12b", 130)
    with pytest.raises(BenchError, match="No MLPerf Endpoints curves are loaded"):
        CV.per_gpu_at(table, A, 130)
    with pytest.raises(BenchError, match="must be > 0"):
        CV.per_gpu_at(with_curves, A, 0)


def test_the_family_best_curve_names_each_points_system(with_curves: Table) -> None:
    rows = CV.best_curve(with_curves, "MI355X", "gpt-oss-120b")
    assert rows[0] == CV.BEST_HEADER
    # By hand: every usable point of both curves, most interactive first, kept when it gives more per GPU
    # than every point more interactive than it: system_b's r128 (80, 700), r512 (32, 1100) and r1024
    # (20, 1400) are beaten by system_a's r64 (100, 880), r128 (62.5, 1100) and r512 (25, 1760); system_b's
    # interrupted r2048 is not used.
    assert rows[1:] == [
        [250.0, 100.0, B, "system_b", 4],
        [200.0, 110.0, A, "system_a", 4],
        [1000 / 6, 181.25, B, "system_b", 16],
        [160.0, 352.0, A, "system_a", 16],
        [125.0, 550.0, B, "system_b", 64],
        [100.0, 880.0, A, "system_a", 64],
        [62.5, 1100.0, A, "system_a", 128],
        [25.0, 1760.0, A, "system_a", 512],
        [16.0, 2252.75, A, "system_a", 1024],
        [10.0, 2816.0, A, "system_a", 2048],
    ]
    with pytest.raises(BenchError, match=r"No MLPerf Endpoints curve of B200 for gpt-oss-120b: .* are of MI355X"):
        CV.best_curve(with_curves, "B200", "gpt-oss-120b")


def test_an_inference_function_given_a_curve_says_what_it_is(with_curves: Table) -> None:
    with pytest.raises(BenchError) as err:
        pergpu(with_curves, A, "gpt-oss-120b", "Server")
    assert err.value.reason.startswith(f"{A} is an MLPerf Endpoints curve, not an Inference entry")
    with pytest.raises(BenchError, match=r"^#N/A No entry '9\.9-0001' in the loaded results$"):  # others as before
        pergpu(with_curves, "9.9-0001", "gpt-oss-120b", "Server")


def test_the_functions_answer_in_a_formula(with_curves: Table) -> None:
    from benchsheet.catalogue.engine import evaluate
    from benchsheet.data import store

    store.set_table(with_curves)
    assert evaluate(f'=CURVEAT("{A}",130)') == 352.0
    assert evaluate(f'=CURVEAT("{A}",130,TRUE)') == pytest.approx(616.0)
    assert evaluate(f'=ROUND(CURVEAT("{B}",100,TRUE),2)') == 633.33
    assert evaluate(f'=INDEX(CURVEPOINTS("{A}"),4,4)') == 880.0
    assert evaluate('=INDEX(BESTCURVE("MI355X","gpt-oss-120b"),2,4)') == "system_b"
    assert evaluate('=ROWS(CURVES("gpt-oss-120b"))') == 3
    na = evaluate(f'=CURVEAT("{A}",250)')
    assert str(na) == "#N/A" and "no extrapolation" in getattr(na, "reason", "")


def test_a_target_equal_to_a_measured_point_is_that_point(with_curves: Table) -> None:
    """Issue 42 item 8 ("200 is outside 10 to 200"): a target that is a point's interactivity as Excel holds
    numbers, to 15 significant digits (Microsoft, "Excel specifications and limits": number precision, 15
    digits), is that point, and a target refused is shown with the digits that tell it from the range's end."""
    r16 = CV.per_gpu_at(with_curves, B, 1000 / 6)  # system_b's r16: 1000 / TPOT p90 6 ms
    assert CV.per_gpu_at(with_curves, B, 166.666666666667) == r16  # as Excel shows and keeps 1000/6
    assert CV.per_gpu_at(with_curves, A, 200.0000000000001) == CV.per_gpu_at(with_curves, A, 200)
    with pytest.raises(BenchError) as err:
        CV.per_gpu_at(with_curves, A, 200.001)
    assert err.value.reason.startswith("200.001 tokens/s per user is above every measured point"), err.value.reason
    with pytest.raises(BenchError) as err:
        CV.per_gpu_at(with_curves, A, 9.99999, True)
    assert err.value.reason.startswith("9.99999 tokens/s per user is outside the measured range"), err.value.reason


def test_an_agentic_models_best_curve_names_its_axis(table: Table, loaded: tuple[Curve, ...]) -> None:
    """Issue 38 item 5: BESTCURVE's first column named tokens/s per user whatever the curves' axis. The agentic
    curves are hand-made: MLCommons' fixture curves with their axis set (rules 4.2), their figures unchanged."""
    from dataclasses import replace

    agentic = table.with_curves(tuple(replace(c, axis="e2e_avg_interactivity") for c in loaded))
    assert CV.best_curve(agentic, "MI355X", "gpt-oss-120b")[0][0] == "e2e_avg_interactivity"
    assert CV.best_curve(table.with_curves(loaded), "MI355X", "gpt-oss-120b")[0][0] == "tokens/s per user"
