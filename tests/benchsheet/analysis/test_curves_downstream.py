"""Everything downstream of an Endpoints curve at an interactivity (issue 31, item 3): BREAKEVEN, PAIRED,
BREAKEVENPRICE and RATIOS given a target tokens/s per user read each side off its curve (a family: its best
curve there) and say which points they used; COSTPERMTOK and GPUSNEEDED take CURVEAT's number. Without an
interactivity a curve answers an error saying to give one (item 5), and every Inference answer is as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchsheet.analysis.breakeven import breakeven, breakeven_price, paired, ratios
from benchsheet.analysis.claims import RATIOS_HEADER
from benchsheet.analysis.claims import ratios as inference_ratios
from benchsheet.analysis.selection import Filters
from benchsheet.data.endpoints import import_submission
from benchsheet.data.table import Table
from benchsheet.errors import BenchError

ENDPOINTS = Path(__file__).parents[1] / "data" / "endpoints"
A, CB = "sub_a/system_a/gpt-oss-120b", "sub_b/system_b/gpt-oss-120b"
MODEL = "gpt-oss-120b"
ANY = Filters("any")
# By hand (tests/benchsheet/analysis/test_curves.py), each side's official step (rules 5.2, issue 38): the best
# measured point at or above the target. At 100 tokens/s per user system_a's is its r64, 880 per GPU; system_b's
# its r64 (125, 550; r128 at 80 does not meet 100).
A_100, B_100 = 880.0, 550.0
# At 130: system_a's r16 (160, 352); system_b's r16 (1000/6, 181.25). The MI355X family's best curve there is
# system_a's.
A_130 = 352.0


@pytest.fixture
def with_curves(table: Table) -> Table:
    return table.with_curves(import_submission(ENDPOINTS))


def test_breakeven_of_two_curves_at_an_interactivity(with_curves: Table) -> None:
    assert breakeven(with_curves, A, CB, MODEL, "Server", ANY, 100) == pytest.approx(B_100 / A_100)
    assert breakeven_price(with_curves, 5, A, CB, MODEL, "Server", ANY, 100) == pytest.approx(5 * B_100 / A_100)
    assert paired(with_curves, A, CB, MODEL, "Server", ANY, 100) == (
        f"MLPerf Endpoints at 100 tokens/s per user: candidate {CB} 550 per GPU at r64 "
        f"(r2048 not used) over baseline {A} 880 per GPU at r64"
    )


def test_a_family_side_is_its_best_curve_at_the_target(with_curves: Table) -> None:
    assert breakeven(with_curves, 440.0, "MI355X", MODEL, "Server", Filters(), 130) == pytest.approx(A_130 / 440)
    assert paired(with_curves, 440.0, "MI355X", MODEL, "Server", Filters(), 130).endswith(
        f"candidate {A} 352 per GPU at r16 over baseline the number given"
    )
    # max_gpus 8 leaves system_b (16 GPUs) out: at 200 tokens/s per user, system_a's r4 (110 per GPU)
    assert breakeven(with_curves, 1.0, "MI355X", MODEL, "Server", Filters(max_gpus=8), 200) == pytest.approx(110.0)


def test_errors_at_an_interactivity(with_curves: Table) -> None:
    with pytest.raises(BenchError, match=r"above every measured point of sub_a/system_a/gpt-oss-120b"):
        breakeven(with_curves, A, CB, MODEL, "Server", ANY, 250)
    with pytest.raises(BenchError, match=r"^#N/A No MI355X curve of gpt-oss-120b has a value at 300 tokens/s"):
        breakeven(with_curves, 1.0, "MI355X", MODEL, "Server", ANY, 300)
    with pytest.raises(BenchError, match=r"^#N/A No MLPerf Endpoints curve of B200 for gpt-oss-120b: .* of MI355X"):
        breakeven(with_curves, "B200", A, MODEL, "Server", ANY, 100)
    with pytest.raises(
        BenchError, match=r"^#N/A Did you mean .*\? No Endpoints curve 'sub_c/x/gpt-oss-120b'\. Known: "
    ):
        breakeven(with_curves, "sub_c/x/gpt-oss-120b", A, MODEL, "Server", ANY, 100)
    with pytest.raises(BenchError, match=r"^#N/A 6\.1-0052 is an MLPerf Inference entry: at an interactivity"):
        breakeven(with_curves, "6.1-0052", A, MODEL, "Server", ANY, 100)
    with pytest.raises(BenchError, match=r"is a curve of gpt-oss-120b, not of llama2-70b-99"):
        breakeven(with_curves, 1.0, A, "llama2-70b-99", "Server", ANY, 100)
    with pytest.raises(BenchError, match=r"^#VALUE! round and software choose MLPerf Inference rows"):
        breakeven(with_curves, A, CB, MODEL, "Server", Filters("any", round="6.1"), 100)
    with pytest.raises(BenchError, match=r"^#VALUE! interactivity must be .* > 0"):
        breakeven(with_curves, A, CB, MODEL, "Server", ANY, 0)


def test_a_curve_without_an_interactivity_says_to_give_one(with_curves: Table) -> None:
    for call in (
        lambda: breakeven(with_curves, A, "B200", MODEL, "Server", Filters()),
        lambda: paired(with_curves, "B200", CB, MODEL, "Server", Filters("any", round="same")),
        lambda: ratios(with_curves, A, "B200", Filters()),
    ):
        with pytest.raises(BenchError) as err:
            call()
        assert err.value.code == "#N/A"
        assert "is an MLPerf Endpoints curve: it has no single per-GPU number; give an interactivity" in (
            err.value.reason
        )


def test_inference_answers_are_unchanged(with_curves: Table, table: Table) -> None:
    args = ("H200", "B200", MODEL, "Server", Filters())
    assert breakeven(with_curves, *args) == breakeven(table, *args)
    assert paired(with_curves, *args, None) == paired(table, *args)
    assert ratios(with_curves, "B200", "H200", Filters("any")) == inference_ratios(table, "B200", "H200", Filters())
    with pytest.raises(BenchError, match=r"^#N/A No entry or family 'sub_a/nothing'"):
        breakeven(with_curves, "sub_a/nothing", "B200", MODEL, "Server", Filters())


def test_ratios_at_an_interactivity(with_curves: Table) -> None:
    rows = ratios(with_curves, A, CB, ANY, interactivity=100)
    assert rows[0] == list(RATIOS_HEADER)
    assert rows[1][:11] == [
        MODEL,
        "Endpoints",
        pytest.approx(A_100 / B_100),
        A,
        CB,
        A_100,
        B_100,
        8,
        16,
        "available",
        "available",
    ]
    assert rows[1][11:13] == ["", ""]
    points = f"at 100 tokens/s per user: candidate {A} 880 per GPU at r64; "
    assert rows[1][13] == points + f"baseline {CB} 550 per GPU at r64 (r2048 not used)"
    same = ratios(with_curves, "MI355X", "MI355X", ANY, same_gpus=True, interactivity=130)
    assert same[1][2:5] == [1.0, A, A]  # of the sizes both have (8, 16), the highest ratio: each its own size
    with pytest.raises(BenchError, match=r"No model where both B200 and MI355X have a value at 100 tokens/s per user"):
        ratios(with_curves, "B200", "MI355X", ANY, interactivity=100)


def test_in_a_formula_and_the_cost_of_a_curve_point(with_curves: Table) -> None:
    from benchsheet.catalogue.engine import evaluate
    from benchsheet.data import store

    store.set_table(with_curves)
    assert evaluate(f'=BREAKEVEN("{A}","{CB}","{MODEL}","Endpoints","any",,,100)') == pytest.approx(B_100 / A_100)
    assert evaluate(f'=BREAKEVENPRICE(5,"{A}","{CB}","{MODEL}","Endpoints","any",,,100)') == pytest.approx(
        5 * B_100 / A_100
    )
    assert evaluate(f'=INDEX(RATIOS("{A}","{CB}","any",,,,,100),2,3)') == pytest.approx(A_100 / B_100)
    assert "880 per GPU at r64" in evaluate(f'=PAIRED("{A}","{CB}","{MODEL}","Endpoints","any",,,100)')
    # COSTPERMTOK and GPUSNEEDED take a number: CURVEAT's, and CURVEATPOINTS names the points
    assert evaluate(f'=COSTPERMTOK(5,CURVEAT("{A}",130))') == pytest.approx(5 * 1e6 / (A_130 * 3600))
    assert evaluate(f'=GPUSNEEDED(100000,CURVEAT("{A}",130),1,8)') == 288  # 100,000 / 352 = 284.1 -> 36 nodes
    na = evaluate(f'=BREAKEVEN("{A}","{CB}","{MODEL}","Server")')
    assert str(na) == "#N/A" and "give an interactivity" in getattr(na, "reason", "")


@pytest.mark.parametrize("fn", ["BREAKEVEN", "PAIRED", "BREAKEVENPRICE"])
def test_two_curves_without_an_interactivity_say_how_to_give_one(with_curves: Table, fn: str) -> None:
    """Issue 42 item 8: with the scenario RATIOS shows for curves ("Endpoints"), the answer was "Unknown scenario
    'Endpoints'"; it is the curve's reason, saying where the interactivity goes."""
    from benchsheet.catalogue.engine import evaluate
    from benchsheet.data import store

    store.set_table(with_curves)
    price = "5," if fn == "BREAKEVENPRICE" else ""
    na = evaluate(f'={fn}({price}"{A}","{CB}","{MODEL}","Endpoints")')
    reason = getattr(na, "reason", "")
    assert str(na) == "#N/A" and "scenario 'Endpoints'" not in reason, reason
    assert f"{A} is an MLPerf Endpoints curve" in reason
    assert "give an interactivity (tokens/s per user) as the last argument" in reason, reason
    assert f'{fn}({price}"{A}","{CB}","{MODEL}","Endpoints","any",,,100)' in reason, reason
