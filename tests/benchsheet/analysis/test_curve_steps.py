"""MLPerf Endpoints curves read as MLCommons defines them (issue 38): the value at a target is the measured
step, interpolation only when asked and labelled "interpolated (not official)", a dedicated Offline run a
ceiling and never a step.

The rule followed is the Endpoints rules' section 5.2 ("Pareto Curve Representation", mlcommons/endpoints_policies
endpoints_rules.md, v1.0 draft): "The pareto curve is represented exclusively as a step-function plot. Each
submitted measurement point defines a discrete step at its concurrency level; between submitted points, the curve
holds constant at the last measured value. No interpolation [...] Visualization tools may optionally overlay
interpolated or smoothed curves [...] clearly labeled as 'interpolated (not official)'." The Offline rule is
section 5.7 (a dedicated run's concurrency is one pass over the dataset, its TTFT exempt, it counts toward no
region; an elected point is the C_max fixed-concurrency point and keeps its own)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from benchsheet.analysis import curves as CV
from benchsheet.analysis.breakeven import breakeven
from benchsheet.analysis.selection import Filters
from benchsheet.data.endpoints import import_submission
from benchsheet.data.table import Curve, CurvePoint, Table
from benchsheet.errors import BenchError

FIXTURES = Path(__file__).parents[1] / "data" / "endpoints"
A, B = "sub_a/system_a/gpt-oss-120b", "sub_b/system_b/gpt-oss-120b"
HAND = "hand/b200x8/gpt-oss-120b"


def _point(
    concurrency: int, tps: float, per_user: float, offline: str = "", verdict: str = "STEADY STATE"
) -> CurvePoint:
    return CurvePoint(
        concurrency=concurrency,
        system_tps=tps,
        tps_per_user=per_user,
        ttft_ms=(None, 100.0, None, None),
        tpot_ms=(None, 1000 / per_user, None, None),
        steady_state=verdict,
        complete=True,
        state="complete",
        files=(),
        offline=offline,
    )


def hand_made(*extra: CurvePoint) -> Curve:
    """HAND-MADE points, not an MLPerf result: the submission tried by hand in issue 38 (8x B200; tokens/s per
    user 200, 156.25, 125, 93.75, 46.875 with 800, 5,000, 16,000, 48,000, 96,000 system tokens/s)."""
    points = (
        _point(1, 800.0, 200.0),
        _point(16, 5000.0, 156.25),
        _point(128, 16000.0, 125.0),
        _point(512, 48000.0, 93.75),
        _point(2048, 96000.0, 46.875),
        *extra,
    )
    return Curve(
        id=HAND,
        submitter="hand-made",
        system="b200x8",
        model="gpt-oss-120b",
        division="standardized",
        availability="available",
        accelerator="NVIDIA B200-SXM-180GB",
        family="B200",
        vendor="NVIDIA",
        heterogeneous=False,
        gpus=8,
        nodes=1,
        points=tuple(sorted(points, key=lambda p: p.concurrency)),
        source="hand-made in tests/benchsheet/analysis/test_curve_steps.py",
    )


@pytest.fixture
def hand(table: Table) -> Table:
    return table.with_curves([hand_made()])


def test_the_issue_example_the_official_value_is_the_measured_step(hand: Table) -> None:
    # At 110 tokens/s per user the points that meet the target are those at 200, 156.25 and 125: the best of them
    # is r128, 16,000 / 8 = 2,000 per GPU (rules 5.2: the curve holds the last measured value between points).
    assert CV.per_gpu_at(hand, HAND, 110) == 2000.0
    assert CV.per_gpu_at_points(hand, HAND, 110) == (
        "2,000 tokens/s per GPU, the measured step at r128 (125 tokens/s per user, 2,000 per GPU) of " + HAND
    )


def test_the_issue_example_interpolated_only_when_asked_and_labelled(hand: Table) -> None:
    # Linear between r128 (125, 2,000) and r512 (93.75, 6,000): 2,000 + 4,000 x 15 / 31.25 = 3,920, 96% higher.
    assert CV.per_gpu_at(hand, HAND, 110, True) == pytest.approx(3920.0)
    assert CV.per_gpu_at_points(hand, HAND, 110, True) == (
        "3,920 tokens/s per GPU, interpolated (not official) between r512 (93.75 tokens/s per user, 6,000 per GPU) "
        "and r128 (125 tokens/s per user, 2,000 per GPU) of " + HAND
    )
    assert CV.per_gpu_at(hand, HAND, 125, True) == 2000.0  # a measured target is the point either way


def test_between_steps_the_value_holds_and_below_the_lowest_interactivity_it_is_the_best_point(hand: Table) -> None:
    # each target takes the best point at or above it: 180 only r1 (200), 150 r16 (156.25), 60 r512 (93.75)
    assert [CV.per_gpu_at(hand, HAND, x) for x in (200, 180, 156.25, 150, 94, 93.75, 60, 46.875, 10)] == [
        100.0,
        100.0,
        625.0,
        625.0,
        2000.0,
        6000.0,
        6000.0,
        12000.0,
        12000.0,
    ]


def test_above_the_highest_measured_interactivity_is_na_naming_the_range(hand: Table) -> None:
    with pytest.raises(BenchError) as err:
        CV.per_gpu_at(hand, HAND, 250)
    assert err.value.code == "#N/A"
    assert err.value.reason == (
        f"250 tokens/s per user is above every measured point of {HAND}: measured from 46.88 to 200 tokens/s "
        "per user (r2048 to r1); no extrapolation"
    )


def test_the_fixtures_default_to_the_step_and_interpolate_on_request(table: Table) -> None:
    t = table.with_curves(import_submission(FIXTURES))
    # system_a at 130: r16 (160 tokens/s per user, 352 per GPU) and r4 (200, 110) meet it; the step is 352.
    assert CV.per_gpu_at(t, A, 130) == 352.0
    assert CV.per_gpu_at(t, A, 130, True) == pytest.approx(616.0)  # the old answer, now only on request


def _with_dedicated() -> Curve:
    # HAND-MADE: the issue's dedicated Offline run at 33 tokens/s per user, 110,000 tokens/s, concurrency 20,000
    # (one pass over a dataset of that many samples)
    return hand_made(_point(20000, 110000.0, 33.0, offline="dedicated"))


def test_a_dedicated_offline_run_is_a_ceiling_never_a_step(table: Table) -> None:
    t = table.with_curves([_with_dedicated()])
    assert CV.per_gpu_at(t, HAND, 40) == 12000.0  # r2048's step, not a value read towards the Offline run
    assert CV.per_gpu_at(t, HAND, 20) == 12000.0  # below it as well: the Offline run never defines a step
    with pytest.raises(BenchError, match="no extrapolation"):
        CV.per_gpu_at(t, HAND, 40, True)  # nor does it join an interpolation
    assert CV.offline_ceiling(t, HAND) == 110000 / 8
    assert CV.offline_ceiling_text(t, HAND) == (
        "Offline: 13,750 tokens/s per GPU, the dedicated Offline run r20000 of " + HAND + " (a ceiling, not a step)"
    )
    assert [r[2] for r in CV.best_curve(t, "B200", "gpt-oss-120b")[1:]] == [HAND] * 5  # not in the envelope
    assert all(r[4] != 20000 for r in CV.best_curve(t, "B200", "gpt-oss-120b")[1:])
    rows = CV.curve_points(t, HAND)
    assert rows[-1][rows[0].index("Offline")] == "dedicated: a ceiling, not a step"


def test_an_elected_offline_point_stays_a_step(table: Table) -> None:
    elected = hand_made()
    points = (*elected.points[:-1], replace(elected.points[-1], offline="elected"))
    t = table.with_curves([replace(elected, points=points)])
    assert CV.per_gpu_at(t, HAND, 40) == 12000.0
    assert CV.offline_ceiling(t, HAND) == 12000.0
    assert "the elected Offline point r2048" in CV.offline_ceiling_text(t, HAND)


def test_a_curve_without_an_offline_result_says_so(hand: Table) -> None:
    with pytest.raises(BenchError, match=f"{HAND} has no Offline result"):
        CV.offline_ceiling(hand, HAND)


def test_break_even_at_an_interactivity_uses_the_steps(table: Table) -> None:
    t = table.with_curves(import_submission(FIXTURES))
    # At 100 tokens/s per user: system_a's step is r64 (100, 880 per GPU); system_b's points meeting 100 are
    # r64 (125, 550), r16 and r4: 550. Interpolated, system_b would give 633.33 (between r128 and r64).
    assert breakeven(t, B, A, "gpt-oss-120b", "Server", Filters(), 100) == pytest.approx(880 / 550)


def test_the_functions_answer_in_a_formula(hand: Table) -> None:
    from benchsheet.catalogue.engine import evaluate
    from benchsheet.data import store

    store.set_table(hand.with_curves([_with_dedicated()]))
    assert evaluate(f'=CURVEAT("{HAND}",110)') == 2000.0
    assert evaluate(f'=CURVEAT("{HAND}",110,TRUE)') == pytest.approx(3920.0)
    assert "interpolated (not official)" in evaluate(f'=CURVEATPOINTS("{HAND}",110,TRUE)')
    assert evaluate(f'=CURVEOFFLINE("{HAND}")') == 13750.0


def test_the_chart_data_draws_the_steps(table: Table) -> None:
    t = table.with_curves([_with_dedicated()])
    rows = CV.step_chart(t, HAND, "baseline")
    x = "tokens/s per user"
    assert rows[0] == [
        f"{x} (official steps)",
        "baseline: official steps",
        f"{x} (measured points)",
        "baseline: measured points",
        f"{x} (flagged points)",
        "baseline: flagged points",
        f"{x} (Offline ceiling)",
        "baseline: Offline ceiling",
    ]
    # most interactive first; each point's value holds down to the next point's interactivity, where the curve
    # rises to that point: a line straight through these corners is the step function of rules 5.2
    assert [r[:2] for r in rows[1:]] == [
        [200.0, 100.0],
        [156.25, 100.0],
        [156.25, 625.0],
        [125.0, 625.0],
        [125.0, 2000.0],
        [93.75, 2000.0],
        [93.75, 6000.0],
        [46.875, 6000.0],
        [46.875, 12000.0],
    ]
    assert [r[2:4] for r in rows[1:6]] == [
        [200.0, 100.0],
        [156.25, 625.0],
        [125.0, 2000.0],
        [93.75, 6000.0],
        [46.875, 12000.0],
    ]
    assert rows[6][2:4] == ["", ""]  # the dedicated Offline run is no measured step
    # the Offline ceiling from the least to the most interactive point; no flagged point: empty text
    assert [r[6:] for r in rows[1:3]] == [[33.0, 13750.0], [200.0, 13750.0]]
    assert rows[3][6:] == ["", ""]


def test_the_chart_data_marks_flagged_points(table: Table) -> None:
    curve = hand_made()
    flagged = replace(curve.points[2], steady_state="not found")  # r128: usable, flagged (rules 4.4)
    t = table.with_curves([replace(curve, points=(*curve.points[:2], flagged, *curve.points[3:]))])
    rows = CV.step_chart(t, HAND)
    assert rows[0][5] == f"{HAND}: flagged points" and rows[1][4:6] == [125.0, 2000.0]
    assert rows[3][2:4] == [125.0, 2000.0]  # still a step of the curve
    assert rows[1][6:] == ["", ""]  # no Offline result
